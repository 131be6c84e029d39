"""MCCFR tables split by information set: rows addressed by their owner node, moved between
tables as compact blocks, merged as sums of deltas.

A table's rows belong to *owner* nodes (``row_owner[n] == n``, see
:meth:`~gamesolve.game.factored.FactoredGame.row_sizes`); an owner's block is its private
states times its actions, at ``node_offset[owner]`` in the table's arena. Shard ``s`` of
``n`` holds the blocks of the owners ``o`` with ``o % n == s``. These functions work on any
:class:`~gamesolve.solve.mccfr.MCCFRTrainer`'s tables, so a shard, a worker's replica and the
single-process trainer are the same kind of object (docs/distributed.md).

* :class:`Rows` is a set of blocks (owners plus their values concatenated): what a worker
  sends (its changed rows) and what a shard answers (their merged values).
* :func:`merge_rows` adds every worker's change (its new value minus the value all replicas
  started the round from) to the shard's rows, so concurrent updates of one row all count.
* :func:`load_parts` fills a table from the parts of a checkpoint written with any number of
  shards (or by one process), keeping the owners a predicate selects.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import attrs
import numpy as np
from numba import njit

from gamesolve.solve.mccfr import MCCFRTrainer

INT32_MAX = 2**31 - 1


@attrs.frozen(eq=False)
class Rows:
    """Blocks of some owners: ``regrets`` (int32) and ``avg`` (float64, or empty) are the
    owners' blocks concatenated in ``owners`` order; ``phi_index`` / ``phi`` the round-0
    average's entries (arena offsets and float32 values)."""

    owners: np.ndarray
    regrets: np.ndarray
    avg: np.ndarray = attrs.field(factory=lambda: np.zeros(0))
    phi_index: np.ndarray = attrs.field(factory=lambda: np.zeros(0, dtype=np.int64))
    phi: np.ndarray = attrs.field(factory=lambda: np.zeros(0, dtype=np.float32))


def owners_of(trainer: MCCFRTrainer) -> np.ndarray:
    """The owner nodes that have rows in ``trainer``'s arena (sorted)."""
    form = trainer.form
    return np.flatnonzero((trainer.node_offset >= 0) & (form.row_owner == np.arange(form.num_nodes)) & (trainer.sizes > 0))


def block_index(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Positions ``starts[i] .. starts[i] + lengths[i] - 1`` of every block, concatenated."""
    lengths = np.asarray(lengths, dtype=np.int64)
    total = int(lengths.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    firsts = np.cumsum(lengths) - lengths
    return np.repeat(np.asarray(starts, dtype=np.int64) - firsts, lengths) + np.arange(total, dtype=np.int64)


@njit(cache=True)
def gather_blocks(starts, lengths, src, out):
    """Blocks ``src[starts[i]:starts[i] + lengths[i]]`` one after another into ``out``."""
    pos = 0
    for i in range(starts.shape[0]):
        s = starts[i]
        for j in range(lengths[i]):
            out[pos + j] = src[s + j]
        pos += lengths[i]


@njit(cache=True)
def scatter_blocks(starts, lengths, values, dst, add):
    """The blocks of ``values`` (one after another) written (or, with ``add``, added) at ``starts``."""
    pos = 0
    for i in range(starts.shape[0]):
        s = starts[i]
        for j in range(lengths[i]):
            if add:
                dst[s + j] += values[pos + j]
            else:
                dst[s + j] = values[pos + j]
        pos += lengths[i]


@njit(cache=True)
def add_changes(firsts, lengths, values, start, total):
    """``total[block] += values[block] - start[block]`` for blocks at ``firsts`` of ``total``."""
    pos = 0
    for i in range(firsts.shape[0]):
        f = firsts[i]
        for j in range(lengths[i]):
            total[f + j] += np.int64(values[pos + j]) - start[f + j]
        pos += lengths[i]


def gather(trainer: MCCFRTrainer, owners: np.ndarray, table: np.ndarray) -> np.ndarray:
    """The blocks of ``owners`` (all allocated) in ``table`` (an arena array), concatenated."""
    lengths = trainer.sizes[owners]
    out = np.empty(int(lengths.sum()), dtype=table.dtype)
    gather_blocks(trainer.node_offset[owners].astype(np.int64), lengths, table, out)
    return out


def scatter(trainer: MCCFRTrainer, owners: np.ndarray, values: np.ndarray, table: np.ndarray, add: bool = False) -> None:
    """Write (or add) the concatenated blocks ``values`` of ``owners`` into ``table``."""
    scatter_blocks(trainer.node_offset[owners].astype(np.int64), trainer.sizes[owners], values, table, add)


def row_index(trainer: MCCFRTrainer, owners: np.ndarray) -> np.ndarray:
    """Arena positions of the blocks of ``owners`` (all allocated) in ``trainer``."""
    return block_index(trainer.node_offset[owners], trainer.sizes[owners])


def allocate(trainer: MCCFRTrainer, owners: np.ndarray) -> None:
    """Give arena rows (zeros) to the owners in ``owners`` that have none, after every row
    allocated so far; reservoirs handed to threads lie below and stay valid."""
    fresh = owners[trainer.node_offset[owners] < 0]
    if len(fresh) == 0:
        return
    lengths = trainer.sizes[fresh]
    need = int(lengths.sum())
    if trainer.used + need > trainer.capacity:
        raise MemoryError(f"MCCFR tables are full ({trainer.capacity:,} entries); give a larger capacity")
    trainer.node_offset[fresh] = trainer.used + np.cumsum(lengths) - lengths
    trainer.used += need


def take_rows(trainer: MCCFRTrainer, owners: np.ndarray, round0: np.ndarray) -> Rows:
    """The blocks of ``owners`` (regrets, and averages if kept) and the round-0 average's
    entries that belong to owners in ``round0`` (phi as it stands: a worker keeps it as a
    buffer of changes since it last sent it)."""
    avg = gather(trainer, owners, trainer.avg) if len(trainer.avg) else np.zeros(0)
    phi_index = row_index(trainer, round0)
    phi_index = phi_index[trainer.phi[phi_index] != 0]
    return Rows(owners, gather(trainer, owners, trainer.regrets), avg, phi_index, trainer.phi[phi_index])


def put_rows(trainer: MCCFRTrainer, rows: Rows) -> None:
    """Write the regrets of ``rows`` into ``trainer`` (allocating owners it lacks)."""
    allocate(trainer, rows.owners)
    scatter(trainer, rows.owners, rows.regrets, trainer.regrets)


def merge_rows(shard: MCCFRTrainer, changes: Iterable[Rows], floor: int, share: int = 1) -> Rows:
    """Add the workers' regret changes to the shard's rows and return the merged regrets.

    A worker's regret change is its value minus the shard's value at the start of the round
    (every replica started the round from the shard's values); the changes of all workers
    are summed, divided by ``share`` (rounded to the nearest unit) and clipped to
    ``[floor, int32 max]`` as the kernel clips. ``share``: how many times a worker counts
    each of its regret increments (a team of W workers whose replicas count theirs W times
    sends W times each: the merged row is then the mean of the replicas, docs/distributed.md);
    1 adds the changes as they are. Averages and phi arrive as changes already and are added
    (in worker order: the sum is the same on every run)."""
    changes = list(changes)
    owners = np.unique(np.concatenate([c.owners for c in changes] + [np.zeros(0, dtype=np.int64)]))
    allocate(shard, owners)
    start = gather(shard, owners, shard.regrets).astype(np.int64)
    total = np.zeros_like(start)
    firsts = np.cumsum(shard.sizes[owners]) - shard.sizes[owners]
    for c in changes:
        add_changes(firsts[np.searchsorted(owners, c.owners)], shard.sizes[c.owners], c.regrets, start, total)
        if len(c.avg) and len(shard.avg):
            scatter(shard, c.owners, c.avg, shard.avg, add=True)
        if len(c.phi_index):
            shard.phi[c.phi_index] += c.phi
    if share != 1:
        total = np.floor_divide(total + share // 2, share)
    total += start  # (the changes are summed first: dividing each would round W times)
    merged = np.clip(total, floor, INT32_MAX).astype(np.int32)
    scatter(shard, owners, merged, shard.regrets)
    return Rows(owners, merged)


def load_parts(trainer: MCCFRTrainer, parts: Iterable[tuple[dict[str, np.ndarray], int, int]],
               keep: Callable[[np.ndarray], np.ndarray] | None = None) -> None:  # fmt: skip
    """Fill ``trainer``'s tables from checkpoint parts ``(arrays, index, count)``: part
    ``index`` of ``count`` holds the owners ``o % count == index`` (one process's checkpoint
    is part 0 of 1). ``keep(owners)`` selects the owners to load (default: all). Regrets,
    sampled averages, phi and snapshot sums are copied block by block, so the tables may be
    laid out differently from the parts'."""
    form = trainer.form
    is_owner = (form.row_owner == np.arange(form.num_nodes)) & (trainer.sizes > 0)
    round0 = form.node_round == 0
    for arrays, index, count in parts:
        offsets = arrays["node_offset"]
        if len(offsets) != form.num_nodes:
            raise ValueError("the checkpoint does not fit this game's tree")
        owners = np.flatnonzero((offsets >= 0) & is_owner)
        owners = owners[owners % count == index]
        if keep is not None:
            owners = owners[keep(owners)]
        allocate(trainer, owners)
        src = block_index(offsets[owners], trainer.sizes[owners])
        dst = row_index(trainer, owners)
        trainer.regrets[dst] = arrays["regrets"][src]
        if "avg" in arrays and len(trainer.avg):
            trainer.avg[dst] = arrays["avg"][src]
        if "snap_sum" in arrays:
            trainer.snap_sum[dst] = arrays["snap_sum"][src]
        first = owners[round0[owners]]
        trainer.phi[row_index(trainer, first)] = arrays["phi"][block_index(offsets[first], trainer.sizes[first])]
