"""The head of a distributed MCCFR run (:mod:`gamesolve.distribute`: rounds, schedules,
checkpoints, recovery) and :func:`ray_trainer`, the factory of
:class:`~gamesolve.solve.trainer.RemoteRun` the ``solve`` command hands the MCCFR solver."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import attrs
import numpy as np

from gamesolve.distribute.parts import PART, checkpoint_counters
from gamesolve.distribute.row_cache import check_limit, row_counts
from gamesolve.distribute.shards import load_parts
from gamesolve.distribute.worker import FORM_SENT_BELOW, MCCFRWorker, WorkerSpec, pickled_below
from gamesolve.solve.mccfr import MCCFRConfig, MCCFRTrainer
from gamesolve.solve.scheduled_run import Counters, ScheduledRun
from gamesolve.solve.trainer import RemoteRun

MAX_PASSES = 10_000  # fetches in one round before a row cache is declared too small
SYNC_SHARE = 0.1  # rounds are made long enough that synchronising takes at most this share of them
LONGEST_ROUND = 30.0  # seconds: a longer exchange than a tenth of this is paid rather than waited out
READY_SECONDS = 120.0  # how long a new worker may take to start (imports, compiled kernels, tables)


def ray_trainer(run: RemoteRun) -> RayTrainer:
    """The head of a run on a Ray cluster (docs/distributed.md): what the MCCFR solver trains
    with when ``gamesolve solve --ray`` hands it this factory."""
    spec = WorkerSpec(
        game=run.game, params=dict(run.params), preset=run.preset, plugins_dirs=tuple(run.plugins_dirs),
        config=run.config.as_dict(), seed=run.seed, threads=run.threads, cache_rows=run.cache_rows,
    )  # fmt: skip
    return RayTrainer(run.form, run.config, spec, run.workers, address=run.address, out=run.out, resume=run.resume, note=run.note)


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
