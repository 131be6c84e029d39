"""A Ray worker's bounded cache of table rows, in place of a replica of the whole tables.

The worker traverses with the single-process kernel on a small arena that holds the first
round's rows (always: UPDATE-STRATEGY and the round-0 average ``phi`` need them, and they
are few) and at most ``limit`` rows in all (a row: one private state of an owner node;
owners are cached whole). When an iteration reaches a row the cache lacks, the kernel
records the row's owner, undoes the iteration's writes and marks it deferred
(:data:`~gamesolve.solve.kernels.row_fetch.Fetch`); the worker fetches the missing owners from
their shards (one request per shard and pass, see :class:`gamesolve.distribute.ray_trainer.RayTrainer`)
and runs the deferred iterations again, from their own random streams, until none is left.
So a round's iterations are the same iterations as with a replica; only their order differs
(a deferred iteration runs after the others of its pass).

Between rounds the worker sends its changed rows (as a replica does) and evicts the rows
least recently read down to ``limit``; during a round, rows are evicted when fetched rows
would not fit, except the rows changed in the round (their changes are not sent yet).
"""

from __future__ import annotations

import numpy as np

from gamesolve.errors import UserError
from gamesolve.rng import mix
from gamesolve.solve.kernels import mccfr as K
from gamesolve.solve.kernels.row_fetch import Fetch, no_fetch
from gamesolve.solve.mccfr import MCCFRConfig, MCCFRTrainer
from gamesolve.distribute.shards import Rows, allocate, block_index, gather, scatter

UNDO = 1 << 14  # undo-log entries per thread at first (doubled when an iteration needs more)
MISSES = 1 << 14  # owners a thread records per pass (more are found when the iteration runs again)
MAX_STALLED = 64  # passes in a row without a completed iteration: the cache is smaller than an iteration's rows


def row_counts(form) -> tuple[np.ndarray, np.ndarray]:
    """Per node: its rows (private states, for an owner of table rows; else 0), and
    whether they are first-round rows (which a cache always holds)."""
    is_owner = (form.row_owner == np.arange(form.num_nodes)) & (form.row_sizes() > 0)
    return np.where(is_owner, form.num_private[form.node_round], 0).astype(np.int64), is_owner & (form.node_round == 0)


def check_limit(form, limit: int) -> None:
    """A cache of ``limit`` rows must hold at least the first round's rows (UserError)."""
    rows, first = row_counts(form)
    if limit < int(rows[first].sum()):
        raise UserError(f"--cache-rows {limit:,} cannot hold the first round's {int(rows[first].sum()):,} rows, "
                        f"which every worker keeps (the game has {int(rows.sum()):,} rows)")  # fmt: skip


class RowCache:
    """At most ``limit`` rows of the tables, fetched on demand (see the module's text)."""

    def __init__(self, form, config: MCCFRConfig, *, limit: int, seed: int, threads: int = 1):
        sizes = form.row_sizes()
        self.rows_of, self.pinned = row_counts(form)
        self.pinned_rows = int(self.rows_of[self.pinned].sum())
        check_limit(form, limit)
        self.limit = int(limit)
        max_actions = int(form.num_actions.max(initial=1))
        # Room for the limit's rows at the most actions a node has: rows are added after the
        # others until an eviction compacts them (np.zeros maps pages lazily: memory is used
        # only where rows are).
        capacity = int(sizes[self.pinned].sum()) + self.limit * max_actions + 1
        self.trainer = t = MCCFRTrainer(form, config, threads=threads, seed=seed, capacity=capacity)
        t.tables = t.tables._replace(touched=np.zeros(form.num_nodes, dtype=np.uint8))
        self.seed = np.uint64(mix(seed * 1_000_003 + 0xCAC4E))  # the iterations' streams (not the deals')
        self.resident = self.pinned_rows  # rows held now
        self.peak = self.resident  # the most rows held at any time
        self.fetched = 0  # rows fetched from shards
        self.passes = 0
        self.last_seen = np.zeros(form.num_nodes, dtype=np.int64)  # pass of each owner's last read
        self.seen = np.zeros(form.num_nodes, dtype=np.uint8)
        self._undo = UNDO
        self._deals: K.DealArrays | None = None
        self._fetch: Fetch | None = None  # the kernels' bundle, kept between passes
        self._numbers = self.pending = np.zeros(0, dtype=np.int64)
        self._prune = False
        self._stalled = 0  # passes in a row that completed no iteration
        self.blocked = False  # fetched rows did not fit beside the rows changed since the last exchange

    # -- a round ---------------------------------------------------------------------------
    def start(self, first: int, n: int, prune: bool) -> np.ndarray:
        """Run iterations ``first + 1 .. first + n``; the owners missing (see :meth:`run_pending`)."""
        self._deals = self.trainer.deal_arrays(first, n)
        self._numbers = first + 1 + np.arange(n, dtype=np.int64)
        self.pending = np.arange(n, dtype=np.int64)
        self._prune = bool(prune)
        self._stalled = 0
        return self.run_pending()

    def run_pending(self) -> np.ndarray:
        """Run the round's iterations still pending; those that met an absent row stay
        pending. Returns the absent owners they met (sorted). After two passes that
        complete no iteration (pending iterations evicting each other's rows), only the
        first pending one runs, asking for the first row it lacks, until it completes (an
        iteration goes on after a miss, reading rows its own path may not need)."""
        pos = self.pending if self._stalled < 2 else self.pending[:1]
        if len(pos) == 0:
            return np.zeros(0, dtype=np.int64)
        if self._stalled > MAX_STALLED:
            raise MemoryError(f"a cache of {self.limit:,} rows cannot hold the rows of one iteration; give a larger --cache-rows")
        t = self.trainer
        deals = K.DealArrays(*(a[pos] if len(a) == len(self._numbers) else a for a in self._deals))
        f = self._fetch
        if f is None or f.undo_pos.shape[1] != self._undo:
            threads = t.threads
            f = self._fetch = Fetch(
                on=True, seed=self.seed, number=np.zeros(0, dtype=np.int64), seen=self.seen,
                miss=np.zeros((threads, MISSES), dtype=np.int64), miss_n=np.zeros(threads, dtype=np.int64),
                undo_pos=np.zeros((threads, self._undo), dtype=np.int64), undo_old=np.zeros((threads, self._undo)),
                undo_kind=np.zeros((threads, self._undo), dtype=np.uint8),
                undo_owner=np.zeros((threads, self._undo), dtype=np.int64), undo_n=np.zeros(threads, dtype=np.int64),
                deferred=np.zeros(0, dtype=np.uint8),
            )  # fmt: skip
        f.miss_n[:] = 0
        if self._stalled >= 2:
            f = f._replace(miss=np.zeros((t.threads, 1), dtype=np.int64))
        fetch = t.fetch = f._replace(number=self._numbers[pos], deferred=np.zeros(len(pos), dtype=np.uint8))
        try:
            t.run_deals(deals, 0, self._prune)
        finally:
            t.fetch = no_fetch()
        self.passes += 1
        read = np.flatnonzero(self.seen)
        self.last_seen[read] = self.passes
        self.seen[read] = 0
        if (fetch.deferred & 2).any():
            self._undo *= 2  # an iteration wrote more than the log holds: it runs again with a longer one
        left = pos[fetch.deferred != 0]
        self._stalled = self._stalled + 1 if len(left) == len(pos) else 0
        self.pending = np.concatenate([left, self.pending[len(pos):]])
        return np.unique(np.concatenate([fetch.miss[i, : fetch.miss_n[i]] for i in range(t.threads)]))

    def insert(self, rows: Rows) -> None:
        """Take fetched rows (their shards' values), evicting others if they would not fit;
        those that still do not fit (the rows changed since the last exchange fill the
        cache) are left out, and the cache is :attr:`blocked` until the next exchange."""
        t = self.trainer
        rows = subset(t, rows, t.node_offset[rows.owners] < 0)
        need = int(self.rows_of[rows.owners].sum())
        if self.resident + need > self.limit:
            self.evict(self.limit - need, keep_seen_since=self.passes)
            fits = np.cumsum(self.rows_of[rows.owners]) <= self.limit - self.resident
            if not fits.all():
                self.blocked = True
                rows = subset(t, rows, fits)
                need = int(self.rows_of[rows.owners].sum())
        allocate(t, rows.owners)
        scatter(t, rows.owners, rows.regrets, t.regrets)
        if len(t.avg):  # the averages a worker holds are changes not yet sent: none for a fresh row
            scatter(t, rows.owners, np.zeros(len(rows.regrets)), t.avg)
        self.last_seen[rows.owners] = self.passes
        self.resident += need
        self.fetched += need
        self.peak = max(self.peak, self.resident)

    def refresh(self, rows: Rows) -> None:
        """Take the merged values of the rows among ``rows`` that the cache holds."""
        t = self.trainer
        rows = subset(t, rows, t.node_offset[rows.owners] >= 0)
        scatter(t, rows.owners, rows.regrets, t.regrets)

    def evict(self, budget: int, keep_seen_since: int | None = None) -> None:
        """Keep at most ``budget`` rows (first-round rows, rows changed since the last
        exchange, and rows read since pass ``keep_seen_since`` always stay): the most
        recently read first. The arena is compacted."""
        t = self.trainer
        cached = np.flatnonzero((t.node_offset >= 0) & ~self.pinned & (self.rows_of > 0))
        changed = t.tables.touched[cached] != 0
        if keep_seen_since is not None:  # the rows the iterations still pending read: evicting them would go round in circles
            changed |= self.last_seen[cached] >= keep_seen_since
        keep = list(cached[changed])
        room = budget - self.pinned_rows - int(self.rows_of[cached[changed]].sum())
        others = cached[~changed]
        others = others[np.argsort(-self.last_seen[others], kind="stable")]
        keep.extend(others[: int(np.searchsorted(np.cumsum(self.rows_of[others]), room, side="right"))])
        keep = np.sort(np.asarray(keep, dtype=np.int64))
        if len(keep) == len(cached):
            return
        regrets = gather(t, keep, t.regrets)
        avg = gather(t, keep, t.avg) if len(t.avg) else None
        t.node_offset[cached] = -1
        t.used = t.round0_size
        allocate(t, keep)
        scatter(t, keep, regrets, t.regrets)
        if avg is not None:
            scatter(t, keep, avg, t.avg)
        self.resident = self.pinned_rows + int(self.rows_of[keep].sum())

    def exchanged(self) -> None:
        """The changed rows were sent: evict down to the limit; fetching may go on."""
        self.evict(self.limit)
        self.blocked = False

    def report(self) -> dict[str, int]:
        return {"resident_rows": self.resident, "peak_rows": self.peak, "fetched_rows": self.fetched, "passes": self.passes}


def subset(trainer: MCCFRTrainer, rows: Rows, keep: np.ndarray) -> Rows:
    """The regrets of the owners of ``rows`` that ``keep`` (bool per owner) selects."""
    sizes = trainer.sizes[rows.owners]
    return Rows(rows.owners[keep], rows.regrets[block_index((np.cumsum(sizes) - sizes)[keep], sizes[keep])])
