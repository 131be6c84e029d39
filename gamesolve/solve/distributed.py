"""MCCFR with pruning (Algorithm 1) across the worker processes of a Ray cluster.

Design (docs/distributed.md):

* **Shards.** The authoritative tables are split by information set: worker ``s`` of ``n``
  holds the rows (regrets, sampled averages, phi, snapshot sums) of the owner nodes
  ``o % n == s`` (:mod:`gamesolve.solve.shards`). Shards write their part of every
  checkpoint in parallel; :class:`RayTrainer` seals the generation.
* **Rounds.** The head cuts the run into rounds at the same boundaries as one process's
  batches (schedules in iterations fall exactly on them). In a round each worker runs its
  share of the iterations (globally numbered: deal ``i`` is iteration ``i``'s, as in one
  process) with the single-process kernel on its replica of the tables, marking the rows it
  writes; then it sends those rows to their shards (one compact block per shard), each shard
  merges the workers' changes into its rows (:func:`~gamesolve.solve.shards.merge_rows`),
  and every replica takes the merged rows. A replica counts its own regret increments W
  times (for the W workers, who sample the same distribution), and a shard adds the mean of
  the workers' changes: the merged row is the mean of the replicas, and during a round each
  replica's rows estimate the merged ones, so long rounds do not overshoot (summed changes
  did: each worker pushed a row on for a round as if alone).
* **Round length** adapts to what a round costs: about 3 s of training, longer when the
  exchange between rounds would otherwise take more than a tenth of the round
  (:func:`next_round`); the summary reports the seconds spent training and synchronising.
* **Row caches** (``cache_rows``): instead of a replica, a worker holds at most that many
  rows (:class:`~gamesolve.solve.row_cache.RowCache`); the iterations that meet an absent
  row are undone and deferred, the shards serve the missing rows (one request per worker
  and shard per pass), and the deferred iterations run again, until the round is done.
* **Schedules** (discount, pruning, UPDATE-STRATEGY, snapshots) are the single-process
  driver's (:class:`~gamesolve.solve.scheduled_run.ScheduledRun`), fired between rounds: a discount
  is applied to replicas and shards alike, snapshots are taken by each shard of its rows,
  UPDATE-STRATEGY runs on worker 0 and its phi changes travel with the next round's rows.
* **Failures.** A worker lost mid-run (its process or its machine) is replaced when the
  cluster can place a new one, else its share goes to the others; every worker then
  reloads the last checkpoint (at most one interval is lost). ``--resume`` continues a store
  with any number of workers, or one written by one process.
"""

from __future__ import annotations

import io
import os
import resource
import time
from pathlib import Path
from typing import Any

import attrs
import numpy as np

from gamesolve.rng import mix
from gamesolve.solve.mccfr import MCCFRConfig, MCCFRTrainer
from gamesolve.solve.row_cache import RowCache, check_limit, row_counts
from gamesolve.solve.scheduled_run import Counters, ScheduledRun
from gamesolve.solve.shards import Rows, allocate, gather, load_parts, merge_rows, put_rows, scatter, take_rows

PART = "part-{:03d}"
MAX_PASSES = 10_000  # fetches in one round before a row cache is declared too small
SYNC_SHARE = 0.1  # rounds are made long enough that synchronising takes at most this share of them
LONGEST_ROUND = 30.0  # seconds: a longer exchange than a tenth of this is paid rather than waited out
READY_SECONDS = 120.0  # how long a new worker may take to start (imports, compiled kernels, tables)


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


def next_round(n: int, wall: float, training: float, workers: int, seconds: float = 3.0) -> int:
    """The iterations of the next round after one of ``n`` iterations that took ``wall``
    seconds at the head, ``training`` of them in the workers' kernels (their mean): rounds
    of ``seconds``, or long enough that the rest (sending rows, merging, Ray's calls, waiting
    for the slowest worker) is at most :data:`SYNC_SHARE` of a round if that is longer (up
    to :data:`LONGEST_ROUND`), growing at most 4x a round; at least 100 iterations a worker.
    The exchange's cost hardly grows with the round (a round's rows are mostly the same
    rows), so longer rounds make it a smaller share, whatever the game's size."""
    if wall <= 0 or n <= 0:
        return max(n, 100 * workers)
    sync = max(wall - training, 0.0)
    target = min(max(seconds, sync / SYNC_SHARE), LONGEST_ROUND)
    return int(min(max(n * min(4.0, target / wall), 100 * workers), 5_000_000 * workers))


def build_form(spec: WorkerSpec):
    """The run's game and factored form, built from the plugins installed where this runs."""
    from gamesolve.game.compile import factored_form
    from gamesolve.ray_cluster import worker_game

    host, game = worker_game(spec.game, spec.params, spec.plugins_dirs)
    return factored_form(game, host.pm, None, {"preset": spec.preset} if spec.preset else {})


class MCCFRWorker:
    """One Ray worker: a replica of the tables it traverses (or, with ``cache_rows``, a
    :class:`~gamesolve.solve.row_cache.RowCache` of them), and shard ``index`` of ``count``
    of the authoritative tables. (Wrapped with ``ray.remote`` by :class:`RayTrainer`.)"""

    def __init__(self, spec: WorkerSpec, form: bytes | None = None):
        self.spec = spec
        if form is None:
            self.form = build_form(spec)
        else:  # a small game's form, pickled by the head (unpickled here: arrays of its own, writable, as the cached kernels expect)
            from ray import cloudpickle

            self.form = cloudpickle.loads(form)
        self.config = MCCFRConfig.from_options(spec.config, legacy=True)
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
        """This shard's tables in checkpoint layout (see :func:`read_parts`)."""
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


def read_parts(path: str | os.PathLike):
    """The parts ``(arrays, part, parts)`` of the newest checkpoint at ``path``: those its
    shards wrote, or the single part of a one-process checkpoint (with the sum of its
    snapshots, which one process keeps on disk), one at a time."""
    from gamesolve.store import checkpoint as ckpt
    from gamesolve.store.zarr_io import open_group

    name = ckpt.latest(path)
    group = open_group(Path(path) / name, "checkpoint")
    meta = dict(group.attrs)
    if "parts" in meta:
        for i in range(int(meta["parts"])):
            g = group[PART.format(i)]
            yield {key: g[key][...] for key in g.array_keys()}, i, int(meta["parts"])
        return
    arrays = {key: group[key][...] for key in ("regrets", "node_offset", "phi", "avg", "snap_sum") if key in group}
    snapshots = int(meta["counters"].get("snapshots", 0))
    if snapshots and "snap_sum" not in arrays:
        sink = ckpt.SnapshotSink(path)
        total = np.zeros(int(meta["used"]), dtype=np.float32)
        for k in range(snapshots):
            sink.add_to(k, total)
        arrays["snap_sum"] = total
    yield arrays, 0, 1


def checkpoint_counters(path: str | os.PathLike) -> tuple[Counters, dict[str, Any]]:
    """The counters and attributes of the newest checkpoint at ``path``."""
    from gamesolve.store import checkpoint as ckpt
    from gamesolve.store.zarr_io import open_group

    meta = dict(open_group(Path(path) / ckpt.latest(path), "checkpoint").attrs)
    names = {f.name for f in attrs.fields(Counters)}
    return Counters(**{k: v for k, v in meta["counters"].items() if k in names}), meta


def is_sharded(path: str | os.PathLike) -> bool:
    """Whether the newest checkpoint at ``path`` was written by a cluster's shards."""
    return "parts" in checkpoint_counters(path)[1]


class RayTrainer(ScheduledRun):
    """The head of a distributed run: schedules, rounds, checkpoints and recovery, with the
    single-process driver's loop (:class:`ScheduledRun`)."""

    batch_seconds = 3.0  # rounds of about 3 s (longer if the exchange costs more than a tenth: next_round)

    def __init__(self, form, config: MCCFRConfig, spec: WorkerSpec, workers: int, *, address: str = "local",
                 out: Path | None = None, resume: bool = False, note=lambda message: None):  # fmt: skip
        from gamesolve.ray_cluster import connect, require_ray

        if spec.cache_rows:
            check_limit(form, spec.cache_rows)
        self.form = form
        self.config = config
        self.spec = spec
        self.out = out
        self.note = note
        self.counters = Counters()
        # The first round is short (the cluster's first exchange is measured on it); later
        # ones adapt (next_round). With replicas their length does not depend on the game's
        # size: replicas estimate the merged rows during a round (MCCFRWorker.reset), so a
        # small game's long rounds train as well as short ones. Row caches smaller than a
        # round's rows still need short rounds on a small game: a cache runs the iterations
        # it has the rows for first and the deferred ones after, and over a long round that
        # order pushes the cached rows with a biased sample of deals (Leduc, caches of 240
        # of its 288 rows, 8,000 iterations: 0.9x one process's exploitability in rounds of
        # 25 iterations a worker, 2x in rounds of 1,000, 4x in rounds of 4,000).
        self.max_round: int | None = None
        if spec.cache_rows:
            rows = int(np.where(form.row_sizes() > 0, form.num_private[form.node_round], 0).sum())
            self.max_round = max(16, rows // 10) * workers
        self._batch = min(1000 * workers, self.max_round or 1000 * workers)
        self._pending: list = []  # the last round's merges (and the schedule's calls since), still running
        self._allocated = np.zeros(form.num_nodes, dtype=bool)
        self._final: MCCFRTrainer | None = None
        self.peak_rss = 0  # the largest resident memory of a worker process (bytes)
        self.cache_peak = 0  # with row caches: the most rows a worker's cache held
        self.cache_stats: list[dict] = []  # with row caches: each worker's, after the last round
        self.exchanges = 0  # with row caches: exchanges of changed rows (rounds, and within rounds when a cache fills)
        self.replaced = 0  # workers lost and replaced (or whose share went to the others)
        # Where the time goes (the summary's ray_* seconds): the workers' kernels (their mean
        # per round), and synchronising: the rest of the rounds' wall time at the head, plus
        # the schedule's calls and the final exchange.
        self.rounds = 0
        self.training_seconds = 0.0
        self.sync_seconds = 0.0
        self._round_training = 0.0  # the kernel seconds of the round in progress
        self._last_round = (0, 0.0, 0.0)  # iterations, wall and kernel seconds of the last round
        started = time.perf_counter()
        self._local = address == "local" and not require_ray().is_initialized()
        self.ray = connect(address, cpus=workers * spec.threads)
        # A small game's form travels to the workers (a worker that builds it loads every
        # plugin first: about 1 s of a Leduc run's start); a large one (a card abstraction)
        # is built by each worker from the shared caches, as the docs say.
        self._form_pickled = pickled_below(form, FORM_SENT_BELOW)
        self._actor = self.ray.remote(num_cpus=spec.threads, max_restarts=0)(MCCFRWorker)
        self.workers = self._start(workers)
        if len(self.workers) < workers:
            raise MemoryError(f"the Ray cluster could place {len(self.workers)} of {workers} workers ({spec.threads} CPU each); "
                              "start more nodes or ask for fewer --workers")  # fmt: skip
        self._load(resume)
        self.start_seconds = time.perf_counter() - started  # Ray's start, the workers' and their tables

    # -- the cluster -----------------------------------------------------------------------
    def _start(self, count: int, timeout: float = READY_SECONDS, attempts: int = 3) -> list:
        """``count`` new workers spread over the cluster's machines; those ready in time. A
        worker that dies while starting is started again (``attempts`` in all); one the
        cluster cannot place within ``timeout`` is not."""
        ready: list = []
        for _ in range(attempts):
            actors = [self._actor.options(scheduling_strategy="SPREAD").remote(self.spec, self._form_pickled)
                      for _ in range(count - len(ready))]  # fmt: skip
            placed = True
            for actor in actors:
                try:
                    info = self.ray.get(actor.ready.remote(), timeout=timeout)
                    self.note(f"worker {len(ready)} ready: process {info['pid']} on {info['host']}")
                    ready.append(actor)
                except Exception as exc:  # noqa: BLE001 - not placed in time, or died starting
                    self.note(f"a worker could not start: {' '.join(str(exc).split())[:300]}")
                    self.ray.kill(actor, no_restart=True)
                    placed = placed and not isinstance(exc, self.ray.exceptions.GetTimeoutError)
            if len(ready) == count or not placed:
                break
        return ready

    def _load(self, from_store: bool) -> None:
        """Every worker takes its shard of the newest checkpoint (or empty tables), and the
        counters are the checkpoint's."""
        if from_store:
            counters, meta = checkpoint_counters(self.out)
            for f in attrs.fields(Counters):
                setattr(self.counters, f.name, getattr(counters, f.name))
            self._batch = int(meta.get("batch", self._batch))
            path = str(self.out)
        else:
            path = None
            for f in attrs.fields(Counters):
                setattr(self.counters, f.name, f.default)
        n = len(self.workers)
        self.ray.get([w.reset.remote(i, n, self.counters.iteration, path) for i, w in enumerate(self.workers)])
        self.ray.get([w.set_snapshots.remote(self.counters.snapshots) for w in self.workers])

    def _recover(self, error: BaseException) -> None:
        """A worker is lost: replace it (or share its work out) and reload the last checkpoint."""
        from gamesolve.errors import UserError

        self.replaced += 1
        self._pending = []
        alive = []
        for w in self.workers:
            try:
                self.ray.get(w.ready.remote(), timeout=30)
                alive.append(w)
            except Exception:  # noqa: BLE001 - lost
                self.ray.kill(w, no_restart=True)
        lost = len(self.workers) - len(alive)
        new = self._start(lost, timeout=60) if lost else []
        self.workers = alive + new
        if not self.workers:
            raise UserError("every Ray worker was lost; continue the run with --resume when the cluster is back")
        from gamesolve.store import checkpoint as ckpt

        has_checkpoint = self.out is not None and ckpt.latest(self.out) is not None
        where = f"the checkpoint at iteration {checkpoint_counters(self.out)[0].iteration:,}" if has_checkpoint else "the start"
        self.note(f"{lost} worker(s) lost ({type(error).__name__}); {len(new)} replaced, "
                  f"{len(self.workers)} continue from {where}")  # fmt: skip
        self._load(has_checkpoint)

    def _guarded(self, action):
        """Run ``action()``; if a worker is lost meanwhile, recover and return None."""
        from gamesolve.ray_cluster import is_worker_loss

        try:
            return action()
        except Exception as exc:
            if not is_worker_loss(exc):
                raise
            self._recover(exc)
            return None

    # -- the schedule's hooks ----------------------------------------------------------------
    def _next_stop(self, target: int | None) -> int:
        if self.max_round is not None:
            self._batch = min(self._batch, self.max_round)
        return super()._next_stop(target)

    def _run_batch(self, n: int) -> int:
        k = self.counters
        prune = self.config.prune and self.config.clock.prune_active(k.iteration + 1, k.elapsed / 60)
        started = time.perf_counter()
        self._round_training = 0.0
        done = self._guarded(lambda: self._round(k.iteration, n, prune))
        wall = time.perf_counter() - started
        self.rounds += 1
        self.training_seconds += self._round_training
        self.sync_seconds += max(wall - self._round_training, 0.0)
        self._last_round = (n, wall, self._round_training)
        return 0 if done is None else n

    def _adapt_batch(self, n: int, dt: float) -> None:
        if n == self._batch:
            self._batch = next_round(n, dt, self._last_round[2], len(self.workers), self.batch_seconds)

    def _timed(self, action):
        """``action()`` (a schedule's call on the workers), its wall time counted as synchronising."""
        started = time.perf_counter()
        try:
            return action()
        finally:
            self.sync_seconds += time.perf_counter() - started

    def _round(self, first: int, n: int, prune: bool) -> bool:
        workers = self.workers
        w = len(workers)
        shares = [n // w + (1 if i < n % w else 0) for i in range(w)]
        starts = first + np.concatenate([[0], np.cumsum(shares)[:-1]])
        if not self.spec.cache_rows:
            self._exchange([wk.train.options(num_returns=w + 1).remote(int(s), int(c), prune) for wk, s, c in zip(workers, starts, shares)])
            return True
        # With row caches: each worker runs its iterations as far as its cache allows; then,
        # until none is left, each shard serves the rows the workers miss (one request per
        # worker and shard) and the workers run the iterations left. A cache full of rows
        # changed in the round (blocked) sends them first: an exchange within the round.
        asked = [wk.begin.options(num_returns=w + 1).remote(int(s), int(c), prune) for wk, s, c in zip(workers, starts, shares)]
        for _ in range(MAX_PASSES):
            status = self.ray.get([a[w] for a in asked])
            if not any(s["pending"] for s in status):
                self._exchange([wk.take.options(num_returns=w + 1).remote() for wk in workers])
                return True
            if any(s["blocked"] for s in status):
                self._exchange([wk.take.options(num_returns=w + 1).remote() for wk in workers])
                asked = [wk.more.options(num_returns=w + 1).remote() for wk in workers]
                continue
            served = [wk.serve.options(num_returns=w + 1).remote(*[asked[v][s] for v in range(w)]) for s, wk in enumerate(workers)]
            asked = [wk.more.options(num_returns=w + 1).remote(*[served[s][v] for s in range(w)]) for v, wk in enumerate(workers)]
        raise MemoryError(f"iterations still wait for rows after {MAX_PASSES} fetches: --cache-rows "
                          f"{self.spec.cache_rows:,} is too small for the rows of an iteration; give more")  # fmt: skip

    def _exchange(self, sent: list) -> None:
        """Merge the changed rows ``sent`` by every worker (one block per shard, then their
        counters) in their shards and send the merged rows to every worker."""
        ray, workers = self.ray, self.workers
        w = len(workers)
        merged = [wk.merge.remote(*[sent[v][s] for v in range(w)]) for s, wk in enumerate(workers)]
        applied = [wk.apply.remote(*merged) for wk in workers]
        stats = ray.get([out[w] for out in sent])
        self._round_training += float(np.mean([s["kernel_seconds"] for s in stats]))
        # The merges run while the next round is sent: a worker runs its calls in order, so
        # its next round starts after it applied this one's rows. Errors surface a round later.
        self._wait()
        self._pending = applied
        counts = np.sum([s["counts"] for s in stats], axis=0)
        k = self.counters
        k.nodes_visited += int(counts[0])
        k.dropped_rows += int(counts[1])
        k.saturated_regrets += int(counts[2])
        self.peak_rss = max([self.peak_rss] + [s["peak_rss"] for s in stats])
        if self.spec.cache_rows:
            self.cache_peak = max([self.cache_peak] + [s["peak_rows"] for s in stats])
            self.cache_stats = stats
            self.exchanges += 1

    def _wait(self) -> None:
        """Wait for the previous round's merges (and see their errors)."""
        pending, self._pending = self._pending, []
        self.ray.get(pending)

    def _sync_counters(self) -> None:
        pass  # the counters are summed from the workers' reports after every round

    def update_strategy(self, weight: float = 1.0) -> None:
        number = self.counters.strategy_updates
        self._timed(lambda: self._guarded(lambda: self.ray.get(self.workers[0].update_strategy.remote(number, weight))))

    def discount(self, d: float) -> None:
        # Not waited for: each worker runs its calls in order, so the discount falls between
        # this round's merge and the next round, on replica and shard alike; the next
        # exchange waits for it (and sees its errors) with the merges.
        self._pending += [w.discount.remote(d) for w in self.workers]

    def take_snapshot(self) -> None:
        if self._timed(lambda: self._guarded(lambda: self.ray.get([w.snapshot.remote() for w in self.workers]))) is not None:
            self.counters.snapshots += 1

    def run(self, iterations: int | None = None, minutes: float | None = None, on_batch=None) -> None:
        """Train as :meth:`ScheduledRun.run`, then checkpoint (with ``out``) and gather the
        tables for the final strategy (:meth:`gather`). A worker lost at any point, the end
        included, costs the iterations since the last checkpoint, which are trained again
        (within the ``minutes`` left)."""
        target = None if iterations is None else self.counters.iteration + int(iterations)
        deadline = None if minutes is None else time.perf_counter() + minutes * 60
        while True:
            left = None if target is None else target - self.counters.iteration
            time_left = None if deadline is None else (deadline - time.perf_counter()) / 60
            if (left is None or left > 0) and (time_left is None or time_left > 0):
                super().run(iterations=left, minutes=time_left, on_batch=on_batch)
            if self._guarded(self._finish) is not None:
                return

    def _finish(self) -> bool:
        self._timed(self._flush)
        if self.out is not None:
            self._checkpoint(self.out)
        self._final = self._gather()
        return True

    # -- checkpoints and results ---------------------------------------------------------------
    def _flush(self) -> None:
        """Send changes still held by replicas (phi of a last UPDATE-STRATEGY) to the shards."""
        self._round(self.counters.iteration, 0, False)
        self._wait()

    def checkpoint(self, out: Path) -> None:
        """A checkpoint generation whose parts the shards write in parallel (if a worker is
        lost meanwhile, none: the run goes on from the previous one)."""
        self._guarded(lambda: (self._flush(), self._checkpoint(out)))

    def _checkpoint(self, out: Path) -> None:
        from gamesolve.store import checkpoint as ckpt

        meta = {"counters": attrs.asdict(self.counters), "parts": len(self.workers), "threads": len(self.workers),
                "batch": self._batch, "ray_workers": len(self.workers)}  # fmt: skip

        def parts(folder: Path) -> None:
            self.ray.get([w.write_part.remote(str(folder / PART.format(i))) for i, w in enumerate(self.workers)])

        ckpt.write_checkpoint(out, {}, meta, parts=parts)

    def gather(self) -> MCCFRTrainer:
        """The whole tables in one process's trainer, as :meth:`run` left them (the final
        strategy is written from it: the head needs the memory of the whole tables)."""
        return self._final

    def _gather(self) -> MCCFRTrainer:
        trainer = MCCFRTrainer(self.form, self.config, threads=1, seed=self.spec.seed)
        n = len(self.workers)
        for i, arrays in enumerate(self.ray.get([w.part.remote() for w in self.workers])):
            load_parts(trainer, [(arrays, i, n)])
        trainer.counters = attrs.evolve(self.counters)
        return trainer

    def allocated(self) -> np.ndarray:
        """Which nodes have rows (bool per node), as worker 0's replica has them (as last
        seen, if a worker is lost meanwhile)."""
        asked = self.workers if self.spec.cache_rows else self.workers[:1]  # caches: every shard's rows
        bits = self._guarded(lambda: self.ray.get([w.allocated.remote() for w in asked]))
        if bits is not None:
            self._allocated = np.any([np.unpackbits(b, count=self.form.num_nodes).astype(bool) for b in bits], axis=0)
        return self._allocated

    def cluster_report(self) -> dict[str, Any]:
        """The summary's figures of the cluster: workers, losses, memory (with row caches:
        their limit, the most rows a worker held, the game's rows, rows fetched, passes)."""
        busy = self.training_seconds + self.sync_seconds
        out = {"ray_workers": len(self.workers), "ray_workers_replaced": self.replaced,
               "ray_worker_peak_rss_bytes": self.peak_rss, "ray_start_seconds": self.start_seconds,
               "ray_rounds": self.rounds, "ray_training_seconds": self.training_seconds,
               "ray_merging_seconds": self.sync_seconds, "ray_merging_share": self.sync_seconds / busy if busy > 0 else 0.0}  # fmt: skip
        if self.spec.cache_rows:
            out.update({
                "ray_cache_rows": self.spec.cache_rows, "ray_cache_peak_rows": self.cache_peak,
                "game_rows": int(row_counts(self.form)[0].sum()),
                "ray_cache_fetched_rows": sum(s["fetched_rows"] for s in self.cache_stats),
                "ray_cache_passes": max((s["passes"] for s in self.cache_stats), default=0),
                "ray_exchanges": self.exchanges,
            })  # fmt: skip
        return out

    def explicit_policy(self, explicit_tree, which: str = "average") -> np.ndarray:
        """For exact evaluation while training (small games): from the gathered tables."""
        while True:  # a worker lost meanwhile: again, from the checkpoint the run goes on from
            trainer = self._guarded(lambda: (self._flush(), self._gather())[1])
            if trainer is not None:
                return trainer.explicit_policy(explicit_tree, which)

    def close(self) -> None:
        for w in self.workers:
            self.ray.kill(w, no_restart=True)
        self.workers = []
        if self._local:  # the private Ray this run started: stopped now rather than at exit (Ray's exit hook sleeps 0.5 s first)
            self.ray.shutdown()

