"""External-sampling Linear MCCFR on compiled trees (the search's sampling subgame solver),
checked by exact best response."""

import numpy as np

from gamesolve.evaluate.best_response import TreeEvaluator
from gamesolve.solve.explicit_mccfr import ExplicitLinearMCCFR


def exploitability(tree, slots):
    return TreeEvaluator(tree).evaluate(slots).exploitability


def test_linear_mccfr_average_approaches_the_kuhn_equilibrium(kuhn2_tree):
    solver = ExplicitLinearMCCFR(kuhn2_tree, seed=1)
    solver.run(100_000)
    assert exploitability(kuhn2_tree, solver.average_policy()) < 0.01


def test_linear_mccfr_exploitability_falls_with_iterations_on_leduc(leduc2_tree):
    solver = ExplicitLinearMCCFR(leduc2_tree, seed=3)
    solver.run(3_000)
    early = exploitability(leduc2_tree, solver.average_policy())
    solver.run(97_000)
    late = exploitability(leduc2_tree, solver.average_policy())
    assert late < early / 2
    assert late < 0.15


def test_linear_mccfr_is_reproducible_from_its_seed(kuhn2_tree):
    runs = []
    for seed in (5, 5, 6):
        solver = ExplicitLinearMCCFR(kuhn2_tree, seed=seed)
        solver.run(2_000)
        runs.append(solver.current_policy())
    assert np.array_equal(runs[0], runs[1])
    assert not np.array_equal(runs[0], runs[2])


def test_linear_mccfr_policies_are_distributions_per_infoset(leduc2_tree):
    solver = ExplicitLinearMCCFR(leduc2_tree, seed=0)
    solver.run(500)
    starts = leduc2_tree.infoset_slot_start
    for slots in (solver.average_policy(), solver.current_policy()):
        assert (slots >= 0).all()
        assert np.allclose(np.add.reduceat(slots, starts[:-1]), 1.0)
