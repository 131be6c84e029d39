"""One solve loop: an iterative subgame solver runs until its iteration cap, its time budget or
its target exploitability, whichever comes first.

`gamesolve spot` (a target checked by best response, a cap, seconds), the hold'em search
agent (a cap and the decision's time budget, anytime) and the core's subgame solvers (a cap)
all run their vector solvers through :func:`solve_until`. External-sampling MCCFR subgames keep
the trainer's own batch loop (:meth:`~gamesolve.solve.mccfr.MCCFRTrainer.run`, which takes the
same cap and budget): its batches size themselves to the clock.

Time is wall time (``time.perf_counter``), counted from the call: what a player waits for.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Protocol

import attrs

from gamesolve.progress import NullProgress
from gamesolve.solve.spec import Progress


class IterativeSolver(Protocol):
    """What the loop drives: an iteration count and a way to run more iterations."""

    iterations: int

    def run(self, iterations: int) -> None: ...


@attrs.frozen
class SolveLimits:
    """When a solve stops.

    :ivar iterations: the cap (iterations in all, counting those the solver had already run).
    :ivar seconds: wall-time budget; None: none (then play is reproducible on any machine).
        Anytime: no step that the last step's pace says would end past it is started.
    :ivar target: with a ``measure`` (exploitability, in the caller's unit), stop once it is
        at most this.
    :ivar check_every: least iterations between two measurements (:func:`iterations_to_check`
        spaces them further while the target is far).
    :ivar step: iterations between two clock reads when nothing is measured (a sampled flop's
        iterations take milliseconds, a turn's a few tenths of a second).
    """

    iterations: int
    seconds: float | None = None
    target: float | None = None
    check_every: int = 25
    step: int = 1

    def __attrs_post_init__(self):
        if self.iterations < 0 or self.check_every < 1 or self.step < 1:
            raise ValueError(f"bad solve limits: {self}")


@attrs.frozen
class SolveReport:
    """How a solve went: ``checks`` are (iterations, measure) pairs; ``stopped_by`` one of
    ``target``, ``iterations``, ``seconds``, ``exhausted`` (the solver says it can go no
    further, e.g. a sampled flop at its memory bound)."""

    iterations: int
    seconds: float
    cpu_seconds: float
    checks: tuple[tuple[int, float], ...]
    stopped_by: str

    @property
    def last(self) -> float:
        """The last measurement (infinity when nothing was measured)."""
        return self.checks[-1][1] if self.checks else math.inf


def solve_until(solver: IterativeSolver, limits: SolveLimits, measure: Callable[[], float] | None = None,
                progress: Progress = NullProgress(), exhausted: Callable[[], bool] = lambda: False,
                label: Callable[[float], str] = lambda value: f"{value:.3g}") -> SolveReport:  # fmt: skip
    """Run ``solver`` within ``limits``. With ``measure`` (e.g. exploitability by best response)
    it is measured after every step, ``progress`` shows the latest value (``label`` formats it)
    and ``limits.target`` can end the solve; without, steps are ``limits.step`` iterations."""
    started, cpu = time.perf_counter(), time.process_time()
    checks: list[tuple[int, float]] = []
    stopped_by = "iterations"
    pace = None  # seconds per iteration of the last step (measurement included)
    while solver.iterations < limits.iterations:
        if measure is not None:
            step = iterations_to_check(checks, limits.target, limits.check_every) if limits.target is not None else limits.check_every
            if limits.seconds is not None and pace is not None:
                # Not far past the budget on a prediction: the iterations it leaves room for.
                left = limits.seconds - (time.perf_counter() - started)
                step = min(step, max(limits.check_every, int(left / pace)))
        else:
            step = limits.step
        step = min(step, limits.iterations - solver.iterations)
        before = time.perf_counter()
        solver.run(step)
        if measure is not None:
            value = float(measure())
            checks.append((solver.iterations, value))
            progress.advance(step, exploitability=label(value))
        else:
            progress.advance(step)
        now = time.perf_counter()
        pace = (now - before) / step
        if measure is not None and limits.target is not None and checks[-1][1] <= limits.target:
            stopped_by = "target"
            break
        if exhausted():
            stopped_by = "exhausted"
            break
        if limits.seconds is not None and solver.iterations < limits.iterations:
            smallest = limits.check_every if measure is not None else limits.step
            if now - started + pace * smallest >= limits.seconds:
                stopped_by = "seconds"
                break
    return SolveReport(solver.iterations, time.perf_counter() - started, time.process_time() - cpu, tuple(checks), stopped_by)


def iterations_to_check(checks: list[tuple[int, float]], target: float, check_every: int) -> int:
    """Iterations to run before the next exploitability check, given the earlier checks
    (iterations, exploitability): ``check_every``, or more while the target is far.

    DCFR's exploitability falls about as a power of the iterations (t^-2 early, t^-1.8 near
    0.3% of the pot on the hold'em turn spot), so the last two checks predict the iteration the
    target is reached at; the next check comes 90% of the way there (early checks predict too
    late, so at most half the iterations so far ahead), never sooner than ``check_every``. A
    check costs about one iteration: on the turn spot 21 checks become 9 (it stops at 203
    iterations, not 210)."""
    if len(checks) < 2:
        return check_every
    (t0, e0), (t1, e1) = checks[-2:]
    if not (target < e1 < e0):
        return check_every
    power = math.log(e0 / e1) / math.log(t1 / t0)
    predicted = t1 * (e1 / target) ** (1.0 / power)
    return max(check_every, int(min(0.9 * (predicted - t1), 0.5 * t1)))
