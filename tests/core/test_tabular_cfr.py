"""The tabular CFR family converges to the known values of Kuhn and Leduc poker."""

import numpy as np
import pytest

from gamesolve.evaluate.best_response import evaluate_policy
from gamesolve.solve.cfr import TABULAR_ALGORITHMS, TabularCFR


def solve(tree, algo, iterations, order="fast"):
    solver = TabularCFR(tree, TABULAR_ALGORITHMS[algo], order=order)
    solver.run(iterations)
    return solver, evaluate_policy(tree, solver.average_policy())


def test_uniform_policy_nash_conv_on_kuhn_is_eleven_twelfths(kuhn2_tree):
    assert evaluate_policy(kuhn2_tree, kuhn2_tree.uniform_policy()).nash_conv == pytest.approx(11 / 12, abs=1e-12)


def test_cfr_plus_solves_two_player_kuhn(kuhn2_tree):
    _, ev = solve(kuhn2_tree, "cfr+", 1000)
    assert ev.exploitability < 1e-4
    assert ev.game_value == pytest.approx(-1 / 18, abs=1e-3)


def test_cfr_plus_solves_two_player_leduc(leduc2_tree):
    _, ev = solve(leduc2_tree, "cfr+", 1000)
    assert ev.exploitability < 5e-4
    assert ev.game_value == pytest.approx(-0.0856, abs=2e-3)


def test_cfr_plus_solves_three_player_kuhn(kuhn3_tree):
    _, ev = solve(kuhn3_tree, "cfr+", 1000)
    assert ev.nash_conv < 1e-4


def test_cfr_plus_nash_conv_decreases_on_three_player_leduc(leduc3_tree):
    solver = TabularCFR(leduc3_tree, TABULAR_ALGORITHMS["cfr+"])
    solver.run(10)
    after_10 = evaluate_policy(leduc3_tree, solver.average_policy()).nash_conv
    solver.run(90)
    after_100 = evaluate_policy(leduc3_tree, solver.average_policy()).nash_conv
    assert after_100 < after_10 / 5


@pytest.mark.parametrize("algo", sorted(TABULAR_ALGORITHMS))
def test_every_variant_converges_on_leduc(leduc2_tree, algo):
    _, ev = solve(leduc2_tree, algo, 300)
    assert ev.exploitability < 0.05


def test_vanilla_cfr_matches_open_spiels_published_trajectory(leduc2_tree):
    # open-spiel's CFRSolver (alternating updates, uniform averaging) reaches 0.0957 at
    # 100 iterations and 0.0118 at 1,000 on Leduc (shared/reference/openspiel-figures.md).
    solver = TabularCFR(leduc2_tree, TABULAR_ALGORITHMS["cfr"])
    solver.run(100)
    assert evaluate_policy(leduc2_tree, solver.average_policy()).exploitability == pytest.approx(0.0957, abs=5e-4)


def test_discounted_variants_beat_vanilla_cfr_at_equal_iterations(leduc2_tree):
    _, vanilla = solve(leduc2_tree, "cfr", 200)
    _, dcfr = solve(leduc2_tree, "dcfr", 200)
    assert dcfr.exploitability < vanilla.exploitability / 3


def test_runs_in_batches_equal_one_long_run(kuhn3_tree):
    one, _ = solve(kuhn3_tree, "dcfr", 100)
    split = TabularCFR(kuhn3_tree, TABULAR_ALGORITHMS["dcfr"])
    split.run(37)
    split.run(63, batch=10)
    assert (split.regrets == one.regrets).all() and (split.avg == one.avg).all()


def test_one_call_per_iteration_equals_one_call_for_all(leduc2_tree):
    """The kernel keeps the policy of the regrets between calls instead of matching every row
    again at each call: the iterates are the same bits either way."""
    one, _ = solve(leduc2_tree, "cfr+", 30)
    stepped = TabularCFR(leduc2_tree, TABULAR_ALGORITHMS["cfr+"])
    for _ in range(30):
        stepped.run(1)
    assert (stepped.regrets == one.regrets).all() and (stepped.avg == one.avg).all()


def test_the_tables_cannot_be_written_from_outside(kuhn2_tree):
    """A write would leave the kernel's policy stale: it is refused, not silently ignored."""
    solver, _ = solve(kuhn2_tree, "cfr+", 5)
    for table in (solver.regrets, solver.avg):
        with pytest.raises(ValueError, match="read-only"):
            table[0] = 1.0


def test_current_policy_is_a_distribution_per_infoset(leduc2_tree):
    solver, _ = solve(leduc2_tree, "cfr", 10)
    policy = solver.current_policy()
    starts = leduc2_tree.infoset_slot_start
    sums = [policy[starts[i] : starts[i + 1]].sum() for i in range(leduc2_tree.num_infosets)]
    assert min(policy) >= 0 and max(abs(s - 1) for s in sums) < 1e-12


def test_non_positive_iterations_are_refused(kuhn2_tree):
    with pytest.raises(ValueError, match="positive"):
        TabularCFR(kuhn2_tree, TABULAR_ALGORITHMS["cfr"]).run(0)


def test_the_fast_order_and_open_spiels_order_are_one_algorithm(leduc2_tree):
    """The two summation orders (-o order=fast|openspiel) are CFR+ alike: NashConv equal to
    1e-9 relative after 100 iterations on Leduc; then rounding, amplified where CFR+ clips
    regrets at zero, moves the iterates apart (1,000 iterations: NashConv 0.000518 and
    0.000498, open-spiel's C++ CFR+ 0.000514), and both stay as close to equilibrium."""
    runs = {order: TabularCFR(leduc2_tree, TABULAR_ALGORITHMS["cfr+"], order=order) for order in ("fast", "openspiel")}
    for solver in runs.values():
        solver.run(100)
    fast, openspiel = (evaluate_policy(leduc2_tree, s.average_policy()).nash_conv for s in runs.values())
    assert fast == pytest.approx(openspiel, rel=1e-9) and fast > 0.02
    for solver in runs.values():
        solver.run(900)
    fast, openspiel = (evaluate_policy(leduc2_tree, s.average_policy()).nash_conv for s in runs.values())
    assert fast == pytest.approx(openspiel, rel=0.1) and max(fast, openspiel) < 6e-4
    assert not np.array_equal(runs["fast"].avg, runs["openspiel"].avg)  # the option reaches the kernel


def test_a_bad_summation_order_is_refused(kuhn2_tree):
    with pytest.raises(ValueError, match="^order must be one of fast, openspiel; got 'exact'"):
        TabularCFR(kuhn2_tree, TABULAR_ALGORITHMS["cfr+"], order="exact")
