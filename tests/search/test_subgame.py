"""Depth-limited subgames: the root chance node, leaves with k continuation strategies, freezing."""

import numpy as np
import pytest

from gamesolve.evaluate.best_response import TreeEvaluator
from gamesolve.game.explicit_tree import CHANCE_NODE, compile_explicit_tree
from gamesolve.search import (
    AllActions, ContinuationStrategies, DepthLimit, ExactLeafValues, PublicBeliefState, Subgame, SubgameSpec,
    TabularPolicy,
)
from gamesolve.search.subgame import CONTINUATION_SUFFIX
from gamesolve_leduc import LeducGame

RAISE = 2


def first_public_state(game):
    return PublicBeliefState.initial(game).after_chance("?:").after_chance("?:")


def subgame(game, blueprint, adapter, k=4, depth=DepthLimit(), root=None, **spec):
    leaves = None
    if not depth.unlimited:
        leaves = ExactLeafValues(ContinuationStrategies.first(k, blueprint, adapter), game.num_players)
    root = root or first_public_state(game)
    return Subgame(SubgameSpec(root=root, adapter=adapter, abstraction=AllActions(), depth=depth, leaf_values=leaves, **spec))


def test_biased_continuations_multiply_fold_call_or_raise_by_five(adapter):
    state = LeducGame(2).new_initial_state().child(0).child(2).child(RAISE)  # facing a raise: fold, call, raise
    blueprint = TabularPolicy({state.information_state_key(1): np.array([0.2, 0.3, 0.5])})
    probs = ContinuationStrategies.first(4, blueprint, adapter).probs(state, 1)
    assert probs[0] == pytest.approx([0.2, 0.3, 0.5])
    assert probs[1] == pytest.approx(np.array([1.0, 0.3, 0.5]) / 1.8)
    assert probs[2] == pytest.approx(np.array([0.2, 1.5, 0.5]) / 2.2)
    assert probs[3] == pytest.approx(np.array([0.2, 0.3, 2.5]) / 3.0)


def test_root_is_a_chance_node_over_the_histories_with_normalised_reach(leduc2, coarse_blueprint, adapter):
    tree = compile_explicit_tree(subgame(leduc2, coarse_blueprint, adapter, k=1))
    assert tree.node_kind[0] == CHANCE_NODE
    root_edges = tree.edge_w[tree.child_list[tree.child_start[0] : tree.child_start[1]]]
    assert np.allclose(tree.weights(tree.uniform_policy())[root_edges], 1 / 30)


def test_leaves_with_only_the_blueprint_are_worth_the_blueprint(leduc2, leduc2_tree, coarse_blueprint_slots, coarse_blueprint, adapter):
    """k = 1: the subgame played with the blueprint has the blueprint's value (leaf values are exact)."""
    tree = compile_explicit_tree(subgame(leduc2, coarse_blueprint, adapter, k=1))
    policy = TabularPolicy.from_slots(leduc2_tree, coarse_blueprint_slots).table
    slots = np.concatenate([policy[key] for key in tree.infoset_keys])
    values = TreeEvaluator(tree).expected_values(slots)
    assert values == pytest.approx(TreeEvaluator(leduc2_tree).expected_values(coarse_blueprint_slots))


def test_every_player_in_the_hand_chooses_among_k_continuations_per_infoset(leduc2, coarse_blueprint, adapter):
    tree = compile_explicit_tree(subgame(leduc2, coarse_blueprint, adapter, k=4))
    choice = [i for i, key in enumerate(tree.infoset_keys) if CONTINUATION_SUFFIX in key]
    assert {tree.infoset_keys[i].rsplit(":", 1)[1] for i in choice} == {"0", "1"}
    assert all(tree.infoset_slot_start[i + 1] - tree.infoset_slot_start[i] == 4 for i in choice)
    # One choice per (card, round-1 betting that reaches the flop): 6 cards x 5 sequences x 2 players.
    assert len(choice) == 6 * 5 * 2


def test_depth_limit_after_a_raise_puts_the_leaves_right_after_it(leduc2, coarse_blueprint, adapter):
    tree = compile_explicit_tree(subgame(leduc2, coarse_blueprint, adapter, depth=DepthLimit(raises=1)))
    played = [key for key in tree.infoset_keys if CONTINUATION_SUFFIX not in key]
    assert played and all("r" not in key for key in played)
    assert any(key.endswith(f"r{CONTINUATION_SUFFIX}:0") for key in tree.infoset_keys)


def test_subgame_to_the_end_of_the_game_has_no_leaves(leduc2, coarse_blueprint, adapter):
    game = subgame(leduc2, coarse_blueprint, adapter, depth=DepthLimit.end_of_game())
    tree = compile_explicit_tree(game)
    assert game.leaves == 0 and tree.num_infosets == 936  # every infoset of 2-player Leduc


def test_leaf_mapping_is_applied_at_every_leaf(leduc2, coarse_blueprint, adapter):
    seen = []

    def mapping(state):
        seen.append(state)
        return state

    leaves = ExactLeafValues(ContinuationStrategies.first(2, coarse_blueprint, adapter), 2, leaf_mapping=mapping)
    game = Subgame(SubgameSpec(root=first_public_state(leduc2), adapter=adapter, abstraction=AllActions(),
                               depth=DepthLimit(), leaf_values=leaves))
    compile_explicit_tree(game)
    assert len(seen) == game.leaves == 30 * 5


def test_a_frozen_infoset_becomes_chance_with_its_probabilities(leduc2, coarse_blueprint, adapter):
    frozen = {"4:?:": {1: 0.25, 2: 0.75}}
    tree = compile_explicit_tree(subgame(leduc2, coarse_blueprint, adapter, frozen=frozen, frozen_player=0))
    keys = tree.infoset_index()
    assert "4:?:" not in keys and "5:?:" in keys  # only the actual hand is frozen
    assert "1:?:r" in keys  # the opponent still chooses after it
    assert 0.25 in tree.chance_prob and 0.75 in tree.chance_prob


def test_exact_leaf_values_hold_every_joint_choice_and_the_blueprint_entry_is_k1s(leduc2, coarse_blueprint, adapter):
    leaf = first_public_state(leduc2).after_action(1, lambda s, p, a: 1.0).after_action(1, lambda s, p, a: 1.0).states[7]
    four = ExactLeafValues(ContinuationStrategies.first(4, coarse_blueprint, adapter), 2).values(leaf)
    one = ExactLeafValues(ContinuationStrategies.first(1, coarse_blueprint, adapter), 2).values(leaf)
    assert four.shape == (4, 4, 2) and one.shape == (1, 1, 2)
    assert four[0, 0] == pytest.approx(one[0, 0])
    assert np.allclose(four.sum(axis=-1), 0.0)  # zero-sum for every joint choice
