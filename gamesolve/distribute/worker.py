"""A Ray worker of a distributed MCCFR run (:mod:`gamesolve.distribute`): a replica of the
tables it traverses (or a row cache of them) and a shard of the authoritative tables."""

from __future__ import annotations

import io
import os
import resource
import time
from typing import Any

import attrs
import numpy as np

from gamesolve.distribute.parts import read_parts
from gamesolve.distribute.row_cache import RowCache
from gamesolve.distribute.shards import Rows, allocate, gather, load_parts, merge_rows, put_rows, scatter, take_rows
from gamesolve.rng import mix
from gamesolve.solve.mccfr import MCCFRConfig, MCCFRTrainer


@attrs.frozen
class WorkerSpec:
    """What a worker needs to rebuild the run's game and form in its own process."""

    game: str
    params: dict[str, str]
    preset: str | None
    plugins_dirs: tuple[str, ...]
    config: dict[str, Any]
    seed: int
    threads: int = 1  # threads of each worker, sharing its replica (one worker per machine uses them all)
    cache_rows: int = 0  # > 0: each worker holds a cache of at most this many rows instead of a replica (row_cache.py)


FORM_SENT_BELOW = 64 << 20  # bytes: forms smaller than this pickled are sent to the workers


def pickled_below(value, limit: int) -> bytes | None:
    """``value`` pickled (cloudpickle, as Ray pickles), or None if that takes ``limit``
    bytes or more (it stops pickling there) or it does not pickle. (Not sent through Ray's
    object store: arrays read from it are read-only, and the kernels compiled for
    writable ones would be compiled again, for half a minute.)"""
    from ray import cloudpickle  # (only called with Ray running)

    class Bounded(io.BytesIO):
        def write(self, data) -> int:
            if self.tell() + len(memoryview(data).cast("B")) >= limit:
                raise OverflowError
            return super().write(data)

    out = Bounded()
    try:
        cloudpickle.dump(value, out)
    except Exception:  # noqa: BLE001 - too large, or does not pickle: the workers build it
        return None
    return out.getvalue()


def build_form(spec: WorkerSpec):
    """The run's game and factored form, built from the plugins installed where this runs."""
    from gamesolve.game.compile import factored_form
    from gamesolve.ray_cluster import worker_game

    host, game = worker_game(spec.game, spec.params, spec.plugins_dirs)
    return factored_form(game, host.pm, None, {"preset": spec.preset} if spec.preset else {})


class MCCFRWorker:
    """One Ray worker: a replica of the tables it traverses (or, with ``cache_rows``, a
    :class:`~gamesolve.distribute.row_cache.RowCache` of them), and shard ``index`` of ``count``
    of the authoritative tables. (Wrapped with ``ray.remote`` by :class:`~gamesolve.distribute.ray_trainer.RayTrainer`.)"""

    def __init__(self, spec: WorkerSpec, form: bytes | None = None):
        self.spec = spec
        if form is None:
            self.form = build_form(spec)
        else:  # a small game's form, pickled by the head (unpickled here: arrays of its own, writable, as the cached kernels expect)
            from ray import cloudpickle

            self.form = cloudpickle.loads(form)
        self.config = MCCFRConfig.from_options(spec.config)  # the head's config.as_dict(): today's spellings
        sizes = self.form.row_sizes()
        self.round0 = np.flatnonzero((sizes > 0) & (self.form.node_round == 0))
        self.index, self.count = 0, 1
        self.replica = self.shard = self.cache = None
        self._seen = np.zeros(3, dtype=np.int64)
        self._kernel_seconds = 0.0  # in the kernel since the last exchange

    def ready(self) -> dict[str, Any]:
        return {"pid": os.getpid(), "host": os.uname().nodename}

    def _trainer(self, threads: int = 1) -> MCCFRTrainer:
        # Room for every row plus what partly used reservoirs leave behind (np.zeros: pages
        # cost memory only once written).
        total = int(self.form.row_sizes().sum())
        return MCCFRTrainer(self.form, self.config, threads=threads, seed=self.spec.seed, capacity=total + total // 16 + (1 << 20))

    def reset(self, index: int, count: int, iteration: int, path: str | None = None) -> None:
        """Become shard ``index`` of ``count`` with empty tables, or with the tables of the
        newest checkpoint at ``path`` (every part of it is read: the replica takes all rows,
        the shard its own)."""
        self.index, self.count = int(index), int(count)
        self.replica = self.shard = self.cache = None  # free the old tables first
        t = self.spec.threads
        if self.spec.cache_rows:
            self.cache = RowCache(self.form, self.config, limit=self.spec.cache_rows, seed=self.spec.seed, threads=t)
            self.replica = self.cache.trainer
        else:
            self.replica = self._trainer(t)
            self.replica.tables = self.replica.tables._replace(touched=np.zeros(self.form.num_nodes, dtype=np.uint8))
        self.shard = self._trainer()
        # The replica counts its own regret increments once for every worker (the others
        # sample the same distribution): its rows then estimate the merged rows during a
        # round, and the shards merge the mean of the workers' changes (merge_rows' share).
        self.replica.scale = self.shard.scale * self.count
        # Worker i's thread j runs the stream of thread i * threads + j of one process.
        base = self.spec.seed * 1_000_003 + int(iteration) + self.index * t + 1
        self.replica.tables.rng[:] = [mix(base + j) for j in range(t)]
        # The replica takes all rows (a cache, the first round's), the shard its own.
        local = (lambda owners: self.cache.pinned[owners]) if self.cache else None
        for arrays, part, total in read_parts(path) if path is not None else ():
            load_parts(self.replica, [(arrays, part, total)], keep=local)
            load_parts(self.shard, [(arrays, part, total)], keep=lambda owners: owners % self.count == self.index)
        # A worker's averages and phi are changes not yet sent to the shards (see train).
        self.replica.avg[:] = 0.0
        self.replica.phi[:] = 0.0
        self._seen[:] = 0
        self._kernel_seconds = 0.0

    def train(self, first: int, n: int, prune: bool) -> list:
        """Iterations ``first + 1 .. first + n`` on the replica; returns the changed rows
        for each shard and, last, the counters' increments (visited, dropped, saturated)."""
        if n > 0:
            started = time.perf_counter()
            self.replica.counters.iteration = int(first)
            self.replica._run_batch(int(n), bool(prune))
            self._kernel_seconds += time.perf_counter() - started
        return self.take()

    def begin(self, first: int, n: int, prune: bool) -> list:
        """With a cache: iterations ``first + 1 .. first + n`` as far as the cached rows
        allow; returns the owners to fetch from each shard and, last, the iterations left
        and whether the cache is blocked (full of changed rows: they must be sent first)."""
        started = time.perf_counter()
        missing = self.cache.start(int(first), int(n), bool(prune))
        self._kernel_seconds += time.perf_counter() - started
        return self._requests(missing)

    def more(self, *answers: Rows) -> list:
        """With a cache: take the rows fetched from every shard and run the iterations left (as :meth:`begin`)."""
        for rows in answers:
            self.cache.insert(rows)
        started = time.perf_counter()
        missing = self.cache.run_pending()
        self._kernel_seconds += time.perf_counter() - started
        return self._requests(missing)

    def _requests(self, missing: np.ndarray) -> list:
        status = {"pending": len(self.cache.pending), "blocked": self.cache.blocked}
        return [missing[missing % self.count == s] for s in range(self.count)] + [status]

    def serve(self, *requests: np.ndarray) -> list[Rows]:
        """As a shard: the rows of the owners each worker asks for (rows no shard had yet
        are created here, as zeros: lazy allocation)."""
        for owners in requests:
            allocate(self.shard, owners)
        return [Rows(owners, gather(self.shard, owners, self.shard.regrets)) for owners in requests] + [None]

    def take(self) -> list:
        """The rows changed since the last exchange, one block per shard (and clears them),
        and, last, the counters' increments (visited, dropped, saturated), sizes and the
        seconds spent in the kernel since the last exchange. A cache then evicts down to its
        limit."""
        r = self.replica
        touched = np.flatnonzero(r.tables.touched)
        r.tables.touched[touched] = 0
        out: list = []
        for s in range(self.count):
            out.append(take_rows(r, touched[touched % self.count == s], self.round0[self.round0 % self.count == s]))
        if len(r.avg):  # averages and phi are sent as changes: the buffers start again from zero
            scatter(r, touched, np.zeros(int(r.sizes[touched].sum())), r.avg)
        r.phi[:] = 0.0
        tb = r.tables
        totals = np.array([tb.visited.sum(), tb.dropped.sum(), tb.saturated.sum()], dtype=np.int64)
        stats = {"counts": (totals - self._seen).tolist(), "peak_rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
                 "kernel_seconds": self._kernel_seconds}  # fmt: skip
        self._kernel_seconds = 0.0
        if self.cache is not None:
            self.cache.exchanged()
            stats.update(self.cache.report())
        out.append(stats)
        self._seen = totals
        return out

    def allocated(self) -> np.ndarray:
        """Which nodes have rows, packed: in the replica, or with a cache, in this shard."""
        return np.packbits((self.shard if self.cache else self.replica).allocated())

    def merge(self, *changes: Rows) -> Rows:
        """As a shard: merge the workers' changes into this shard's rows (their mean: each
        replica counted its increments once per worker); the merged regrets."""
        return merge_rows(self.shard, changes, int(self.config.regret_floor), share=self.count)

    def apply(self, *merged: Rows) -> None:
        """Take the merged rows of every shard into the replica (a cache: those it holds)."""
        for rows in merged:
            if self.cache is not None:
                self.cache.refresh(rows)
            else:
                put_rows(self.replica, rows)

    def discount(self, d: float) -> None:
        self.replica.discount(d)
        self.shard.discount(d)

    def snapshot(self) -> None:
        self.shard.take_snapshot()  # into the shard's snapshot sum (its rows of rounds >= 1)

    def update_strategy(self, number: int, weight: float = 1.0) -> None:
        self.replica.counters.strategy_updates = int(number)
        self.replica.update_strategy(weight)  # phi changes go to the shards with the next round's rows

    def part(self) -> dict[str, np.ndarray]:
        """This shard's tables in checkpoint layout (see :func:`~gamesolve.distribute.parts.read_parts`)."""
        s = self.shard
        u = s.used
        arrays = {"regrets": s.regrets[:u], "node_offset": s.node_offset, "phi": s.phi}
        if len(s.avg):
            arrays["avg"] = s.avg[:u]
        if s.counters.snapshots:
            arrays["snap_sum"] = s.snap_sum[:u]
        return arrays

    def write_part(self, folder: str) -> None:
        """Write this shard's part of a checkpoint generation (a sealed group of its own)."""
        from gamesolve.store.zarr_io import atomic_group, write_array

        with atomic_group(folder, "a checkpoint part in") as group:
            for key, value in self.part().items():
                write_array(group, key, value)
            group.attrs.update({"part": self.index, "parts": self.count, "used": int(self.shard.used)})

    def set_snapshots(self, count: int) -> None:
        self.shard.counters.snapshots = int(count)
