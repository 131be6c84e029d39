"""Run a GIL-free numba kernel on several Python threads.

Kernels that split their work over a few coarse parts (a training thread's iterations, a
range of deals) run each part as a ``nogil`` kernel on a thread of a pool kept for the
process. A ``parallel=True`` kernel would do the same with numba's own threads, but its
``prange`` wrapper compiles again, inlined, everything it calls: for the MCCFR traversal
and the deal generator that was minutes of compilation on a first run, for no speed outside
the rounds' noise (docs/benchmarks.md: one thread 1.09x, two threads 0.96x, 0.81-1.08 per round).
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

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
