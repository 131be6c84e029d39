"""Our exact NashConv equals open-spiel's for the same policies (uniform, and after 100 CFR iterations)."""

import pytest

from gamesolve.evaluate.best_response import evaluate_policy
from gamesolve.solve.cfr import TABULAR_ALGORITHMS, TabularCFR
from tests.oracles.openspiel_walk import kuhn_key, leduc_key, openspiel_policy

pyspiel = pytest.importorskip("pyspiel")
pytestmark = pytest.mark.oracle

CASES = [
    ("kuhn2_tree", "kuhn_poker", 2, kuhn_key),
    ("kuhn3_tree", "kuhn_poker", 3, kuhn_key),
    ("leduc2_tree", "leduc_poker", 2, leduc_key),
    ("leduc3_tree", "leduc_poker", 3, leduc_key),
]


POLICIES = ["uniform", "cfr-100"]


def policy_of(tree, which):
    if which == "uniform":
        return tree.uniform_policy()
    solver = TabularCFR(tree, TABULAR_ALGORITHMS["cfr"])
    solver.run(100)
    return solver.average_policy()


def slow_on_three_player_leduc(case, which):
    # One open-spiel nash_conv on 3-player Leduc costs 1-4 minutes here: both policies' checks
    # run with -m slow so the default suite stays within its time budget (three-player Kuhn
    # keeps the three-player check in it).
    marks = [pytest.mark.slow] if case[0] == "leduc3_tree" else []
    return pytest.param(*case, which, marks=marks, id=f"{case[0]}-{which}")


@pytest.mark.parametrize(
    "tree_fixture, os_name, players, key_of, which", [slow_on_three_player_leduc(c, w) for c in CASES for w in POLICIES]
)
def test_nash_conv_equals_open_spiels(request, tree_fixture, os_name, players, key_of, which):
    tree = request.getfixturevalue(tree_fixture)
    os_game = pyspiel.load_game(os_name, {"players": players})
    policy = policy_of(tree, which)
    ours = evaluate_policy(tree, policy).nash_conv
    theirs = pyspiel.nash_conv(os_game, openspiel_policy(pyspiel, os_game, tree, policy, key_of), True)
    assert ours == pytest.approx(theirs, abs=1e-9)
