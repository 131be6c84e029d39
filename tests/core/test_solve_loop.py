"""The one solve loop (gamesolve/search/solve_loop.py): cap, target, anytime budget, exhaustion."""

import pytest

from gamesolve.search import solve_loop
from gamesolve.search.solve_loop import SolveLimits, solve_until


class FakeClock:
    """A clock that only moves when a fake solver runs (deterministic budgets)."""

    def __init__(self):
        self.now = 0.0

    def perf_counter(self):
        return self.now

    def process_time(self):
        return self.now


class Counting:
    """Runs iterations of ``seconds_each`` on ``clock``; exploitability 1/iterations."""

    def __init__(self, clock=None, seconds_each=0.0):
        self.iterations, self.calls, self.clock, self.seconds_each = 0, [], clock, seconds_each

    def run(self, n):
        self.calls.append(n)
        self.iterations += n
        if self.clock is not None:
            self.clock.now += n * self.seconds_each

    def exploitability(self):
        return 1.0 / self.iterations


@pytest.fixture
def clock(monkeypatch):
    fake = FakeClock()
    monkeypatch.setattr(solve_loop, "time", fake)
    return fake


def test_without_budget_or_target_it_runs_exactly_the_cap_in_steps():
    solver = Counting()
    report = solve_until(solver, SolveLimits(20, step=8))
    assert solver.calls == [8, 8, 4] and report.iterations == 20 and report.stopped_by == "iterations"


def test_iterations_already_run_count_against_the_cap():
    solver = Counting()
    solver.run(15)
    solve_until(solver, SolveLimits(20, step=8))
    assert solver.iterations == 20


def test_a_target_ends_the_solve_at_the_first_check_that_reaches_it():
    solver = Counting()
    report = solve_until(solver, SolveLimits(1000, target=0.02, check_every=10), measure=solver.exploitability)
    assert report.stopped_by == "target" and report.last <= 0.02
    assert report.checks[-2][1] > 0.02  # the check before it had not


def test_checks_are_spaced_by_the_prediction_while_the_target_is_far():
    solver = Counting()
    report = solve_until(solver, SolveLimits(100_000, target=0.0001, check_every=10), measure=solver.exploitability)
    gaps = [b[0] - a[0] for a, b in zip(report.checks, report.checks[1:])]
    assert gaps[0] == 10 and max(gaps) > 10 and report.iterations >= 10_000


def test_no_step_is_started_that_would_end_past_the_budget(clock):
    solver = Counting(clock, seconds_each=0.1)
    report = solve_until(solver, SolveLimits(1000, seconds=1.05, step=2))
    # steps of 0.2 s: after 1.0 s the next would end at 1.2 s, past 1.05 s
    assert solver.iterations == 10 and report.stopped_by == "seconds" and clock.now <= 1.05


def test_a_measured_solve_shortens_its_last_step_to_the_time_left(clock):
    solver = Counting(clock, seconds_each=0.01)
    report = solve_until(solver, SolveLimits(100_000, seconds=1.0, target=1e-9, check_every=10), measure=solver.exploitability)
    assert report.stopped_by == "seconds" and clock.now <= 1.0 + 0.01 * 10


def test_an_exhausted_solver_stops_the_loop():
    solver = Counting()
    report = solve_until(solver, SolveLimits(1000, step=5), exhausted=lambda: solver.iterations >= 15)
    assert solver.iterations == 15 and report.stopped_by == "exhausted"


def test_bad_limits_are_refused():
    with pytest.raises(ValueError, match="bad solve limits"):
        SolveLimits(10, step=0)
