"""The row cache's undo log, as the MCCFR kernel (:mod:`gamesolve.solve.kernels.mccfr`) keeps it.

A distributed worker with a row cache (:mod:`gamesolve.distribute.row_cache`) traverses
with the single-process kernel on a table that lacks rows. The kernel then records the
owners it misses, logs every write of the iteration (:func:`undo`) and, if the iteration
met an absent row, rolls them back (:func:`roll_back`), so the iteration can run again,
unchanged, once the rows are fetched. This module holds the bundle, the log and the roll
back; the four places that call them (a regret row's update, a sampled average's, a phi
entry of UPDATE-STRATEGY, and the allocation point that records a miss) stay in the
traversal, whose loop they sit in (see the kernel module's text for why), and one
process's trainer compiles them away: its bundle is a :data:`NoFetch`.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit
from numba.core import types
from numba.extending import overload

Fetch = namedtuple("Fetch", "on seed number seen miss miss_n undo_pos undo_old undo_kind undo_owner undo_n deferred")
"""A row cache's bundle (:mod:`gamesolve.distribute.row_cache`; ``on`` False: not used). In a
cache, a node whose rows are absent is not allocated: its owner is recorded in ``miss``
(per thread, ``miss_n`` of them) and the iteration is *deferred*: ``deferred[d]`` gets bit 1
(bit 2: the undo log was full), its writes stop, and at its end every write it made
(``undo_*``: arena position, old value, kind 0 regret / 1 average / 2 phi, row owner) is
undone, so it can run again, unchanged, once the rows are fetched; the owners an iteration
wrote are marked in ``tables.touched`` when it completes. Each iteration draws from its own
stream (``seed``, its global number ``number[d]``), so a rerun is the same iteration.
``seen`` marks the owners whose rows were read (the cache evicts the least recently seen)."""


NoFetch = namedtuple("NoFetch", Fetch._fields)
"""The bundle, off (:func:`no_fetch`): the same fields under a type of its own, so that numba
compiles the traversal apart for it, with every hook folded away (:func:`is_on` is the
constant False there). One process's trainer runs that compilation; a row cache the other."""


def is_on(fetch) -> bool:
    """Whether the row cache's hooks run: ``fetch.on``; a constant False for :data:`NoFetch`
    when compiled (so the traversal of one process carries no hook)."""
    return not isinstance(fetch, NoFetch) and bool(fetch.on)


@overload(is_on, inline="always")
def _is_on(fetch):
    if isinstance(fetch, types.BaseNamedTuple) and fetch.instance_class is NoFetch:
        return lambda fetch: False
    return lambda fetch: fetch.on


def no_fetch() -> NoFetch:
    """The kernels' row-cache bundle, off."""
    empty = np.zeros(0, dtype=np.int64)
    return NoFetch(on=False, seed=np.uint64(0), number=empty, seen=np.zeros(0, dtype=np.uint8), miss=np.zeros((0, 0), dtype=np.int64),
                   miss_n=empty, undo_pos=np.zeros((0, 0), dtype=np.int64), undo_old=np.zeros((0, 0)),
                   undo_kind=np.zeros((0, 0), dtype=np.uint8), undo_owner=np.zeros((0, 0), dtype=np.int64), undo_n=empty, deferred=np.zeros(0, dtype=np.uint8))  # fmt: skip


@njit(cache=True, inline="always")
def undo(fetch, thread, d, values, start, n, kind, owner):
    """Log ``values[start:start + n]`` (kind ``kind``) in ``thread``'s undo log before they
    are written; False (and the iteration deferred) if it must not write: it is deferred
    already, or the log is full."""
    if fetch.deferred[d] != 0:
        return False
    k = fetch.undo_n[thread]
    if k + n > fetch.undo_pos.shape[1]:
        fetch.deferred[d] |= 2
        return False
    for j in range(n):
        fetch.undo_pos[thread, k + j] = start + j
        fetch.undo_old[thread, k + j] = values[start + j]
        fetch.undo_kind[thread, k + j] = kind
        fetch.undo_owner[thread, k + j] = owner
    fetch.undo_n[thread] = k + n
    return True


@njit(cache=True)
def roll_back(fetch, thread, regrets, avg, phi):
    """Undo ``thread``'s logged writes, last first."""
    for k in range(fetch.undo_n[thread] - 1, -1, -1):
        pos = fetch.undo_pos[thread, k]
        kind = fetch.undo_kind[thread, k]
        if kind == 0:
            regrets[pos] = np.int32(fetch.undo_old[thread, k])
        elif kind == 1:
            avg[pos] = fetch.undo_old[thread, k]
        else:
            phi[pos] = np.float32(fetch.undo_old[thread, k])
    fetch.undo_n[thread] = 0
