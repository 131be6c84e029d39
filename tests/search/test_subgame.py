"""Depth-limited subgames cut from the factored form: root beliefs, leaves with k
continuation strategies, freezing."""

import types

import numpy as np
import pytest

from gamesolve.game.factored import DECISION, TERMINAL
from gamesolve.game.state import CHANCE, TERMINAL as TERMINAL_PLAYER
from gamesolve.search import (
    AllActions, ContinuationStrategies, DepthLimit, ExactLeafValues, SampledLeafValues, SubgameSpec, TabularPolicy,
    build_subgame,
)  # fmt: skip
from gamesolve.search.locate import public_nodes
from gamesolve.solve.cfr import TABULAR_ALGORITHMS
from gamesolve.solve.vcfr import VectorCFR

CALL, RAISE = 1, 2


@pytest.fixture(scope="module")
def leduc2_search(leduc2_form):
    """The form and its nodes by public state key."""
    return types.SimpleNamespace(form=leduc2_form, node=public_nodes(leduc2_form))


def spec(search, blueprint, k=4, depth=DepthLimit(), root_key="?:", reach=None, **extra):
    form = search.form
    node = search.node[root_key]
    leaves = None if depth.unlimited else ExactLeafValues(ContinuationStrategies(form, blueprint, k))
    reach = np.ones((2, 6)) if reach is None else reach
    return SubgameSpec(
        form=form, root=node, root_reach=reach, outcomes=(), abstraction=AllActions(),
        depth=depth, leaf_values=leaves, **extra,
    )  # fmt: skip


def continuation_value(state, blueprint, choice, bias=5.0):
    """A state walk (independent of the factored form): the value of the rest of the game when
    each player follows their continuation strategy ``choice[p]`` (0 blueprint, 1 fold x5,
    2 call x5, 3 raise x5)."""
    player = state.current_player()
    if player == TERMINAL_PLAYER:
        return np.array(state.returns())
    if player == CHANCE:
        return sum(p * continuation_value(state.child(a), blueprint, choice, bias) for a, p in state.chance_outcomes())
    legal = state.legal_actions()
    probs = np.array(blueprint.probs(state, player), dtype=float)
    if choice[player]:
        probs = np.where(np.array(legal) == choice[player] - 1, probs * bias, probs)  # Leduc: action = class
        probs /= probs.sum()
    return sum(p * continuation_value(state.child(a), blueprint, choice, bias) for a, p in zip(legal, probs) if p)


def test_biased_continuations_multiply_fold_call_or_raise_by_five(leduc2_search):
    form = leduc2_search.form
    node = leduc2_search.node["?:r"]  # player 1 facing a raise: fold, call, raise
    key = form.key_of(node, 4)
    blueprint = TabularPolicy({k: np.full(3, 1 / 3) for k in form.private_keys(node, 1)} | {key: np.array([0.2, 0.3, 0.5])})
    blueprint = _Fallback(blueprint)
    probs = ContinuationStrategies(form, blueprint, 4).probs(node, 4)
    assert probs[0] == pytest.approx([0.2, 0.3, 0.5])
    assert probs[1] == pytest.approx(np.array([1.0, 0.3, 0.5]) / 1.8)
    assert probs[2] == pytest.approx(np.array([0.2, 1.5, 0.5]) / 2.2)
    assert probs[3] == pytest.approx(np.array([0.2, 0.3, 2.5]) / 3.0)


class _Fallback:
    """A tabular policy that is uniform wherever it has no entry."""

    def __init__(self, policy):
        self.policy = policy

    def action_probs(self, key, n):
        return self.policy.table.get(key, np.full(n, 1.0 / n))


def test_the_roots_deals_are_weighted_by_chance_and_reach(leduc2_search, coarse_blueprint):
    reach = np.ones((2, 6))
    reach[0, 5] = 0.0  # player 0 never holds card 5 here
    subgame = build_subgame(spec(leduc2_search, coarse_blueprint, k=1, reach=reach))
    weights = subgame.root_weights()
    deals = subgame.form.deals.listed
    assert weights[deals.private[:, 0, 0] == 5].sum() == 0.0
    assert weights.sum() == pytest.approx(25 / 30)


def test_leaf_values_are_the_rest_of_the_game_under_each_joint_continuation(leduc2, leduc2_search, coarse_blueprint):
    form = leduc2_search.form
    leaf = leduc2_search.node["?:rc|"]  # the round closes: a chance node deals the board next
    values = ExactLeafValues(ContinuationStrategies(form, coarse_blueprint, 4)).values(leaf, [0, 1])
    deals = form.deals.listed
    state = leduc2.new_initial_state().child(0).child(4).child(RAISE).child(CALL)  # a jack against a king
    # Deals of that hand (every board): their values average, by chance, to the state walk's.
    mask = (deals.private[:, 0, 0] == 0) & (deals.private[:, 1, 0] == 4)
    for combo, choice in [(0, (0, 0)), (5, (1, 1)), (7, (1, 3)), (15, (3, 3))]:
        expected = continuation_value(state, coarse_blueprint, choice)
        got = (values[combo][mask] * deals.prob[mask, None]).sum(axis=0) / deals.prob[mask].sum()
        assert got == pytest.approx(expected)


def test_exact_leaf_values_hold_every_joint_choice_and_are_zero_sum(leduc2_search, coarse_blueprint):
    form = leduc2_search.form
    leaf = leduc2_search.node["?:rc|"]
    four = ExactLeafValues(ContinuationStrategies(form, coarse_blueprint, 4)).values(leaf, [0, 1])
    one = ExactLeafValues(ContinuationStrategies(form, coarse_blueprint, 1)).values(leaf, [])
    assert four.shape == (16, form.deals.listed.count, 2) and one.shape == (1, form.deals.listed.count, 2)
    assert np.allclose(four[0], one[0])
    assert np.allclose(four.sum(axis=-1), 0.0)


def test_sampled_leaf_values_approach_the_exact_ones_as_rollouts_grow(leduc2_search, leduc2_tree):
    form = leduc2_search.form
    uniform = TabularPolicy.from_slots(leduc2_tree, leduc2_tree.uniform_policy())
    continuations = ContinuationStrategies(form, uniform, 4)
    leaf = leduc2_search.node["?:rc|"]
    exact = ExactLeafValues(continuations).values(leaf, [0, 1])
    few = np.abs(SampledLeafValues(continuations, rollouts=10, seed=0).values(leaf, [0, 1]) - exact).max()
    many = np.abs(SampledLeafValues(continuations, rollouts=1000, seed=0).values(leaf, [0, 1]) - exact).max()
    assert many < few / 3


def test_sampled_leaf_values_depend_only_on_the_seed(leduc2_search, coarse_blueprint):
    continuations = ContinuationStrategies(leduc2_search.form, coarse_blueprint, 2)
    a = SampledLeafValues(continuations, rollouts=20, seed=7)
    b = SampledLeafValues(continuations, rollouts=20, seed=7)
    leaf, other = leduc2_search.node["?:rc|"], leduc2_search.node["?:cc|"]
    first = a.values(leaf, [0, 1])
    b.values(other, [0, 1])  # another evaluation order
    assert np.array_equal(first, b.values(leaf, [0, 1]))
    assert not np.array_equal(first, SampledLeafValues(continuations, rollouts=20, seed=8).values(leaf, [0, 1]))


def test_sampled_leaf_values_refuse_zero_rollouts(leduc2_search, coarse_blueprint):
    with pytest.raises(ValueError, match="rollouts"):
        SampledLeafValues(ContinuationStrategies(leduc2_search.form, coarse_blueprint, 2), rollouts=0)


def test_every_player_in_play_chooses_among_k_continuations_on_rows_of_their_own(leduc2_search, coarse_blueprint):
    subgame = build_subgame(spec(leduc2_search, coarse_blueprint, k=4))
    form = subgame.form
    chain = np.flatnonzero((subgame.origin < 0) & (form.node_kind == DECISION))
    owners = {int(form.row_owner[n]) for n in chain}
    # Round 1 reaches the board in 5 betting sequences; two players choose at each leaf,
    # the second's 4 nodes on one set of rows.
    assert subgame.leaves == 5 and len(owners) == 5 * 2 and len(chain) == 5 * (1 + 4)
    assert all(form.num_actions[n] == 4 for n in chain)
    assert (form.node_kind[form.children(int(chain[-1]))] == TERMINAL).all()


def test_depth_limit_after_a_raise_puts_the_leaves_right_after_it(leduc2_search, coarse_blueprint):
    subgame = build_subgame(spec(leduc2_search, coarse_blueprint, depth=DepthLimit(raises=1)))
    real = subgame.origin[(subgame.origin >= 0) & (subgame.form.node_kind == DECISION)]
    keys = [leduc2_search.form.node_keys[n] for n in real]
    assert keys and all("r" not in key for key in keys)
    assert subgame.leaves > 0


def test_a_subgame_to_the_end_of_the_game_has_no_leaves_and_every_information_set(leduc2_search, coarse_blueprint):
    subgame = build_subgame(spec(leduc2_search, coarse_blueprint, depth=DepthLimit.end_of_game()))
    form = leduc2_search.form
    decisions = np.flatnonzero(form.node_kind == DECISION)
    assert subgame.leaves == 0 and sorted(subgame.origin[subgame.form.node_kind == DECISION]) == decisions.tolist()
    assert sum(form.key_of(n, s) is not None for n in decisions for s in range(6)) == 936  # every infoset of 2-player Leduc


def test_a_frozen_information_set_keeps_its_probabilities(leduc2_search, coarse_blueprint):
    node = leduc2_search.node["?:"]
    subgame = build_subgame(spec(leduc2_search, coarse_blueprint, frozen={(node, 4): {1: 0.25, 2: 0.75}}))
    assert subgame.frozen == {(0, 4): pytest.approx(np.array([0.25, 0.75]))}
    cfr = VectorCFR(subgame.form, TABULAR_ALGORITHMS["lcfr"], root_reach=subgame.spec.root_reach, frozen=subgame.frozen)
    cfr.run(50)
    current = cfr.node_strategy(0, "current")
    assert current[4] == pytest.approx([0.25, 0.75])
    assert not np.allclose(current[5], [0.25, 0.75])  # other hands stay free
