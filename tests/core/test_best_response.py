"""Exact best response and NashConv, checked against brute force over pure strategies."""

import itertools

import numpy as np
import pytest

from gamesolve.evaluate.best_response import TreeEvaluator, evaluate_policy
from gamesolve.game.explicit_tree import compile_explicit_tree
from gamesolve.solve.cfr import TABULAR_ALGORITHMS, TabularCFR
from gamesolve_kuhn import KuhnGame


def brute_force_value(game, policy_of, player, pure):
    """Player's expected value by a recursive walk of the state API: ``pure`` maps the
    player's infoset keys to an action; others play ``policy_of(key) -> {action: prob}``."""

    def walk(state):
        if state.is_terminal():
            return state.returns()[player]
        if state.is_chance_node():
            return sum(p * walk(state.child(a)) for a, p in state.chance_outcomes())
        actor = state.current_player()
        key = state.information_state_key(actor)
        if actor == player:
            return walk(state.child(pure[key]))
        return sum(p * walk(state.child(a)) for a, p in policy_of(key).items() if p > 0)

    return walk(game.new_initial_state())


def test_best_response_equals_the_best_pure_strategy_on_kuhn():
    game = KuhnGame(2)
    tree = compile_explicit_tree(game)
    rng = np.random.default_rng(7)
    policy = rng.dirichlet([1, 1], size=tree.num_infosets).ravel()
    index = tree.infoset_index()

    def policy_of(key):
        i = index[key]
        s = tree.infoset_slot_start[i]
        return {int(tree.slot_action[s + k]): policy[s + k] for k in range(2)}

    evaluator = TreeEvaluator(tree)
    for player in range(2):
        keys = [k for k, i in index.items() if tree.infoset_player[i] == player]
        best = max(
            brute_force_value(game, policy_of, player, dict(zip(keys, choice)))
            for choice in itertools.product([0, 1], repeat=len(keys))
        )
        assert evaluator.best_response(policy, player)[0] == pytest.approx(best, abs=1e-12)


def test_expected_values_of_a_zero_sum_game_sum_to_zero(leduc2_tree):
    values = TreeEvaluator(leduc2_tree).expected_values(leduc2_tree.uniform_policy())
    assert values.sum() == pytest.approx(0, abs=1e-12)


def test_nash_conv_is_never_negative_and_exploitability_divides_by_players(kuhn3_tree):
    ev = evaluate_policy(kuhn3_tree, kuhn3_tree.uniform_policy())
    assert ev.nash_conv > 0
    assert ev.exploitability == pytest.approx(ev.nash_conv / 3)


def test_best_response_to_an_equilibrium_gains_nothing(kuhn2_tree):
    solver = TabularCFR(kuhn2_tree, TABULAR_ALGORITHMS["cfr+"])
    solver.run(3000)
    ev = evaluate_policy(kuhn2_tree, solver.average_policy())
    assert all(br - v < 1e-4 for br, v in zip(ev.best_response_values, ev.values))


def test_a_policy_of_the_wrong_length_is_refused(kuhn2_tree):
    with pytest.raises(ValueError, match="slots"):
        evaluate_policy(kuhn2_tree, np.ones(3))


def test_best_response_choice_is_one_slot_of_each_own_infoset(leduc2_tree):
    _, choice = TreeEvaluator(leduc2_tree).best_response(leduc2_tree.uniform_policy(), 1)
    own = leduc2_tree.infoset_player == 1
    starts = leduc2_tree.infoset_slot_start
    assert (choice[~own] == -1).all()
    assert all(starts[i] <= choice[i] < starts[i + 1] for i in np.flatnonzero(own))
