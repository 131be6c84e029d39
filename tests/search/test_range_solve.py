"""The range search agent's solver is the core's choice, from the subgame's shape
(gamesolve/search/range_solve.py): what the plugin returns decides it, not a flag."""

from __future__ import annotations

import numpy as np
import pytest

from gamesolve.search import range_solve
from gamesolve.search.domain import RangeSubgame, SampledChance
from gamesolve.search.range_solve import RangeSolveConfig, solve_subgame


class FakeForm:
    num_nodes = 3


class Recorder:
    """Stands in for a solver class: records that it was built and runs iterations."""

    made: list[str] = []

    def __init__(self, name):
        self.name = name

    def __call__(self, form, *args, **kwargs):
        Recorder.made.append(self.name)
        solver = self
        solver.kwargs = kwargs
        solver.iterations = 0
        solver.full = False
        solver.row_offset = np.zeros(1, np.int64)
        solver.node_offset = np.zeros(1, np.int64)
        solver.counters = type("C", (), {"iteration": 0})()
        return solver

    def run(self, iterations=None, minutes=None):
        self.iterations += iterations
        self.counters.iteration = self.iterations

    def average_rows(self):
        return np.zeros(1)

    def current_rows(self):
        return np.zeros(1)


@pytest.fixture
def solvers(monkeypatch):
    Recorder.made = []
    monkeypatch.setattr(range_solve, "VectorCFR", Recorder("vector"))
    monkeypatch.setattr(range_solve, "SampledChanceCFR", Recorder("sampled-chance"))
    monkeypatch.setattr(range_solve, "MCCFRTrainer", Recorder("mccfr"))
    return Recorder.made


def solve(subgame, **config):
    rng = np.random.default_rng(0)
    return solve_subgame(subgame, RangeSolveConfig(seconds=0, iterations=5, mccfr_iterations=7, **config), 4, {}, rng,
                         lambda reserve: None, {})  # fmt: skip


def test_two_root_ranges_are_solved_by_vector_cfr(solvers):
    solved = solve(RangeSubgame(FakeForm(), np.ones((2, 4))))
    assert solvers == ["vector"] and solved.iterations == 5 and solved.solver is not None


def test_sampled_public_chance_is_solved_by_sampled_chance_vector_cfr_one_board_per_thread(solvers):
    chance = SampledChance([1, 2, 3], lambda cards: np.zeros(4))
    solve(RangeSubgame(FakeForm(), np.ones((2, 4)), chance), threads=2)
    assert solvers == ["sampled-chance"]
    built = range_solve.SampledChanceCFR.kwargs
    assert built["boards_per_iteration"] == 2 and built["pool"] == [1, 2, 3]


def test_deals_drawn_from_the_beliefs_are_solved_by_mccfr(solvers):
    solved = solve(RangeSubgame(FakeForm()))
    assert solvers == ["mccfr"] and solved.iterations == 7


def test_only_sampling_solvers_draw_a_seed(solvers):
    rng = np.random.default_rng(0)
    solve_subgame(RangeSubgame(FakeForm(), np.ones((2, 4))), RangeSolveConfig(seconds=0, iterations=1), 4, {}, rng,
                  lambda reserve: None, {})  # fmt: skip
    assert rng.integers(2**31) == np.random.default_rng(0).integers(2**31)  # vector CFR left the stream alone
