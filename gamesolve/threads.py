"""Run a GIL-free numba kernel on several Python threads.

Kernels that split their work over a few coarse parts (a training thread's iterations, a
range of deals) run each part as a ``nogil`` kernel on a thread of a pool kept for the
process. A ``parallel=True`` kernel would do the same with numba's own threads, but its
``prange`` wrapper compiles again, inlined, everything it calls: for the MCCFR traversal
and the deal generator that was minutes of compilation on a first run, for no speed outside
the rounds' noise (docs/benchmarks.md: one thread 1.09x, two threads 0.96x, 0.81-1.08 per round).
The card abstraction's kernels (equity, EMD, evaluator) run the same way through
:func:`run_blocks`: their ``prange`` wrappers were most of a cold ``abstraction build``
(compilation 109 -> 61 processor seconds for the tiny preset, warm unchanged;
docs/benchmarks.md, issue 36).
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from itertools import count
from typing import TypeVar

import numba

T = TypeVar("T")

_POOLS: dict[int, ThreadPoolExecutor] = {}


def run_parts(parts: int, part: Callable[[int], T]) -> list[T]:
    """``[part(0), ..., part(parts - 1)]``, each on its own thread (``part`` should release
    the GIL: a ``nogil=True`` kernel); the first error raised by a part is raised here."""
    if parts <= 1:
        return [part(0)] if parts == 1 else []
    pool = _POOLS.get(parts)
    if pool is None:
        pool = _POOLS[parts] = ThreadPoolExecutor(max_workers=parts, thread_name_prefix="gamesolve-kernel")
    return list(pool.map(part, range(parts)))


def run_blocks(n: int, block: Callable[[int, int], T], blocks: int | None = None,
               threads: int | None = None) -> list[T]:
    """``[block(lo, hi), ...]`` over ``range(n)`` cut into ``blocks`` contiguous blocks (in
    index order), run on ``threads`` threads (default ``numba.get_num_threads()``, which
    ``--threads`` sets and Ray workers set to 1). ``block`` should be a ``nogil=True`` kernel
    over its rows ``lo .. hi - 1``.

    One thread calls ``block(0, n)`` once, on the calling thread, with no pool. ``blocks``
    defaults to one per thread (a static split, like ``prange``'s); with more blocks than
    threads each thread pulls the next unstarted block when it finishes one, which evens out
    rows of uneven cost (the machine's other jobs, too). The results come back in block order
    whatever thread ran which, so a reduction over them combined in list order does not depend
    on thread timing; the cuts do depend on the thread count, so a float reduction that must
    not should be done over the rows afterwards (integer counts are exact either way)."""
    threads = numba.get_num_threads() if threads is None else threads
    parts = max(1, min(threads, n))
    if parts == 1:
        return [block(0, n)]
    blocks = max(parts, min(n, parts if blocks is None else blocks))
    cut = [n * b // blocks for b in range(blocks + 1)]
    out: list = [None] * blocks
    nxt = count()  # next() on a shared itertools.count is atomic under the GIL

    def worker(_: int) -> None:
        for b in iter(nxt.__next__, None):
            if b >= blocks:
                return
            out[b] = block(cut[b], cut[b + 1])

    run_parts(parts, worker)
    return out
