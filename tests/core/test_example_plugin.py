"""The documented example plugin (biased rock-paper-scissors) works end to end."""

import numpy as np
import pytest

from gamesolve.evaluate.best_response import evaluate_policy
from gamesolve.game.explicit_tree import compile_explicit_tree
from gamesolve.plugins import make_plugin_manager
from gamesolve.solve.cfr import TABULAR_ALGORITHMS, TabularCFR
from gamesolve.testing import check_game_conformance


@pytest.fixture
def rps(example_plugin_path):
    host = make_plugin_manager(strict=True, entry_points=False, plugins_dirs=[example_plugin_path])
    return host.games.get("biased-rps")


def test_example_game_honours_the_contract(rps):
    assert check_game_conformance(rps.create())["complete"] == 1


def test_example_game_solves_to_its_known_equilibrium(rps):
    tree = compile_explicit_tree(rps.create())
    solver = TabularCFR(tree, TABULAR_ALGORITHMS["cfr+"])
    solver.run(5000)
    policy = solver.average_policy()
    np.testing.assert_allclose(policy.reshape(2, 3), [[0.25, 0.5, 0.25]] * 2, atol=5e-3)
    assert evaluate_policy(tree, policy).game_value == pytest.approx(0.0, abs=1e-3)


def test_example_game_parameter_changes_the_equilibrium(rps):
    tree = compile_explicit_tree(rps.create(rock_bonus="1"))  # plain RPS: uniform
    solver = TabularCFR(tree, TABULAR_ALGORITHMS["cfr+"])
    solver.run(2000)
    np.testing.assert_allclose(solver.average_policy(), 1 / 3, atol=5e-3)
