"""Algorithm 1's outer loop, whatever runs the iterations: batches with the schedules
(discount, UPDATE-STRATEGY, snapshots) fired between them as
:class:`~gamesolve.solve.schedule.Clock` says, and the counters a checkpoint keeps.
:class:`~gamesolve.solve.mccfr.MCCFRTrainer` runs it on one process's threads, the
distribution package's trainer on a cluster's workers (:mod:`gamesolve.solve.trainer`)."""

from __future__ import annotations

import time
from collections.abc import Callable

import attrs

from gamesolve.solve.schedule import Schedule


@attrs.define
class Counters:
    """Progress of the schedules (part of a checkpoint)."""

    iteration: int = 0
    elapsed: float = 0.0  # seconds of training, summed over runs
    discounts: int = 0
    strategy_updates: int = 0
    snapshots: int = 0
    nodes_visited: int = 0
    dropped_rows: int = 0  # row allocations refused: no room in the tables or in a thread's reservoir
    saturated_regrets: int = 0  # regret updates clipped at int32's top


class ScheduledRun:
    """Algorithm 1's outer loop: batches of iterations with the schedules fired between them
    (discount, UPDATE-STRATEGY, snapshots), whatever runs the iterations: one process's
    threads (:class:`MCCFRTrainer`) or a cluster's workers
    (:class:`gamesolve.distribute.ray_trainer.RayTrainer`).

    A subclass has ``config``, ``counters`` and ``_batch`` and provides ``_run_batch(n)``,
    ``update_strategy()``, ``discount(d)``, ``take_snapshot()`` and ``_sync_counters()``."""

    batch_seconds = 0.2  # the length of a batch it aims at (progress, time limits, schedules stay sharp)

    def _events(self) -> None:
        """Fire the schedules due at the current iteration and time (Algorithm 1)."""
        c = self.config
        clock = c.clock
        k = self.counters
        minutes = k.elapsed / 60
        exact = c.strategy_update == "exact"
        # Exact updates come here for either unit (the kernels do none): one weighted by the
        # intervals since the last (batches stop at each interval in iterations: _next_stop).
        # Sampled ones come here in minutes only (in iterations the kernels make them): one.
        if c.average == "pluribus" and (exact or c.strategy_interval.minutes is not None):
            due = clock.strategy_updates_due(k.iteration, minutes)
            if due > k.strategy_updates:
                weight = due - k.strategy_updates if exact else 1
                k.strategy_updates = due
                self.update_strategy(weight)
        while True:
            due = clock.discount_due(k.discounts + 1, k.iteration, minutes)
            if not due:
                break
            k.discounts += 1
            self.discount(k.discounts / (k.discounts + 1.0))  # (t / I) / (t / I + 1), line 20
        if c.average == "pluribus" and clock.snapshot_due(k.snapshots, k.iteration, minutes):
            self.take_snapshot()

    def _next_stop(self, target: int | None) -> int:
        k = self.counters
        stop = k.iteration + self._batch
        if target is not None:
            stop = min(stop, target)
        c = self.config
        clock = attrs.evolve(c.clock, snapshot_start=c.snapshot_start if c.average == "pluribus" else Schedule())
        event = clock.next_stop(k.iteration, k.discounts, k.snapshots)
        if event is not None:
            stop = min(stop, event)
        if c.average == "pluribus" and c.strategy_update == "exact":
            event = c.strategy_interval.next_iteration(k.iteration)
            if event is not None:
                stop = min(stop, event)
        return max(stop, k.iteration + 1)

    def _adapt_batch(self, n: int, dt: float) -> None:
        """After a batch of ``n`` iterations that took ``dt`` seconds: the next batches'
        length, aiming at :attr:`batch_seconds` (at most 4x longer at a time)."""
        if dt > 0 and n == self._batch:
            self._batch = int(min(max(self._batch * min(4.0, self.batch_seconds / dt), 100), 5_000_000))

    def run(
        self,
        iterations: int | None = None,
        minutes: float | None = None,
        on_batch: Callable[[int, float], None] | None = None,
    ) -> None:
        """Train for ``iterations`` more iterations or ``minutes`` of wall time (or both:
        whichever comes first). ``on_batch(iterations_done, seconds)`` after each batch."""
        if iterations is None and minutes is None:
            raise ValueError("MCCFR needs --iterations or --minutes")
        target = None if iterations is None else self.counters.iteration + int(iterations)
        deadline = None if minutes is None else time.perf_counter() + minutes * 60
        rate = 0.0  # iterations per second of the last batch
        while True:
            if target is not None and self.counters.iteration >= target:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break
            n = self._next_stop(target) - self.counters.iteration
            if deadline is not None and rate > 0:
                # The last batch ends at the deadline, not up to a batch after it (a search's
                # decision has a time budget).
                n = max(1, min(n, int(rate * (deadline - time.perf_counter()))))
            t0 = time.perf_counter()
            n = self._run_batch(n)
            dt = time.perf_counter() - t0
            rate = n / dt if dt > 0 else 0.0
            self.counters.iteration += n
            self.counters.elapsed += dt
            self._events()
            self._adapt_batch(n, dt)
            self._sync_counters()
            if on_batch is not None:
                on_batch(n, dt)
