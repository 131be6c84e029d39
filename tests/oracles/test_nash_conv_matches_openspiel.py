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


@pytest.mark.parametrize("tree_fixture, os_name, players, key_of", CASES, ids=[c[0] for c in CASES])
def test_nash_conv_equals_open_spiels(request, tree_fixture, os_name, players, key_of):
    tree = request.getfixturevalue(tree_fixture)
    os_game = pyspiel.load_game(os_name, {"players": players})
    solver = TabularCFR(tree, TABULAR_ALGORITHMS["cfr"])
    solver.run(100)
    # On 3-player Leduc each open-spiel evaluation takes about a minute.
    for policy in (tree.uniform_policy(), solver.average_policy()):
        ours = evaluate_policy(tree, policy).nash_conv
        theirs = pyspiel.nash_conv(os_game, openspiel_policy(pyspiel, os_game, tree, policy, key_of), True)
        assert ours == pytest.approx(theirs, abs=1e-9)
