"""Row copies and sums for numba kernels, written as loops.

numba compiles an array-to-array slice assignment (``dst[:] = src``, ``out[:, :] = reach``,
``acc[d, :] += acc[d + 1]``) through its general broadcasting machinery, once per signature
and per cold cache: 4-7 processor seconds each, where the loop compiles in a fraction of a
second and runs as fast (docs/benchmarks.md, "Slice assignments as loops"). Kernels copy and
add rows with these instead. (A scalar fill such as ``v[:] = 0.0`` is cheap and stays.)
"""

from __future__ import annotations

from numba import njit


@njit(cache=True, inline="always")
def copy_into(dst, src):
    """``dst[i] = src[i]`` for each ``i`` of the 1-D ``src``."""
    for i in range(src.shape[0]):
        dst[i] = src[i]


@njit(cache=True, inline="always")
def add_into(dst, src):
    """``dst[i] += src[i]`` for each ``i`` of the 1-D ``src``."""
    for i in range(src.shape[0]):
        dst[i] += src[i]
