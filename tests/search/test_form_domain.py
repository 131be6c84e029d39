"""Where the core's range search agent puts its roots on a game's form
(gamesolve/search/form_domain.py): a betting round is cut into stretches, each starting where
the depth-limited subgame from the stretch before has its leaves."""

import numpy as np
import pytest

from gamesolve.game.factored import CHANCE, DECISION, round_segments, subtree_ends
from gamesolve.search import AllActions, ContinuationStrategies, DepthLimit, ExactLeafValues, SubgameSpec, build_subgame
from gamesolve.search.form_domain import FormSearchDomain


class RecordedLeaves:
    """Leaf values that note the game's nodes they are asked for (the subgame's leaves)."""

    def __init__(self, inner):
        self.inner, self.k, self.nodes = inner, inner.k, []

    def values(self, node, choosers):
        self.nodes.append(int(node))
        return self.inner.values(node, choosers)


@pytest.mark.parametrize("text", ["round+raises:1", "round+actions:2", "round+actions:3+raises:1"])
def test_a_stretch_starts_where_the_subgame_from_the_last_start_has_its_leaves(leduc2_form, coarse_blueprint, text):
    form = leduc2_form
    outcomes = FormSearchDomain(form, rows=None, locator=None).outcomes
    depth = DepthLimit.parse(text)
    segment = round_segments(form, depth.actions, depth.raises)
    parent = np.full(form.num_nodes, -1)
    parent[form.child_list] = np.repeat(np.arange(form.num_nodes), form.num_actions)
    ends = subtree_ends(form)
    decisions = form.node_kind == DECISION
    starts = [n for n in np.flatnonzero(decisions) if n == 0 or form.node_kind[parent[n]] == CHANCE or segment[n] != segment[parent[n]]]
    assert len(starts) > 2 * form.num_levels  # the rounds are cut
    leaves = RecordedLeaves(ExactLeafValues(ContinuationStrategies(form, coarse_blueprint, 1)))
    reach = np.ones((2, int(form.num_private.max())))
    for root in starts:
        leaves.nodes.clear()
        build_subgame(SubgameSpec(form, int(root), reach, outcomes(int(root)), AllActions(), depth, leaves))
        level = form.node_level[root]
        within = {n for n in leaves.nodes if decisions[n] and form.node_level[n] == level}
        below = np.arange(root + 1, ends[root])
        expected = {int(n) for n in below if decisions[n] and form.node_level[n] == level and segment[n] == segment[root] + 1
                    and segment[parent[n]] == segment[root]}  # fmt: skip
        assert within == expected, (text, form.node_keys[root])


def test_without_a_limit_in_the_round_the_round_is_one_stretch(leduc2_form):
    assert not round_segments(leduc2_form, None, None).any()


def searched_rounds(game, form, blueprint, hands=30, **options):
    """The first betting round's and the later rounds' decisions of the range agent in seat 0
    against a uniform opponent: (searched, not searched) counts of each."""
    from gamesolve.game.state import CHANCE as CHANCE_PLAYER
    from gamesolve.search.player import keyed_range_search_player

    agent = keyed_range_search_player(game, form, blueprint, {"iterations": "30", **options}, 0)
    rng = np.random.default_rng(0)
    counts = {"first": [0, 0], "later": [0, 0]}
    for hand in range(hands):
        agent.new_hand(0, hand)
        state = game.new_initial_state()
        while not state.is_terminal():
            player = state.current_player()
            if player == CHANCE_PLAYER:
                outcomes = state.chance_outcomes()
                action = outcomes[rng.integers(len(outcomes))][0]
            elif player == 0:
                action = agent.act(state, 0)
            else:
                legal = state.legal_actions()
                action = legal[rng.integers(len(legal))]
            agent.observe(state, action)
            state = state.child(action)
        for decision in agent.decisions:
            which = "first" if decision.round < 1 << 20 else "later"
            counts[which][0 if decision.searched else 1] += 1
    return counts


def test_first_round_blueprint_plays_the_blueprint_in_the_first_betting_round_only(leduc2, leduc2_form, coarse_blueprint):
    counts = searched_rounds(leduc2, leduc2_form, coarse_blueprint, first_round="blueprint")
    assert counts["first"][0] == 0 < counts["first"][1]
    assert counts["later"][0] > 0


def test_search_rounds_name_the_betting_rounds_that_search(leduc2, leduc2_form, coarse_blueprint):
    counts = searched_rounds(leduc2, leduc2_form, coarse_blueprint, search_rounds="0")
    assert counts["first"][0] > 0 and counts["later"][0] == 0 < counts["later"][1]


def test_by_default_every_betting_round_searches(leduc2, leduc2_form, coarse_blueprint):
    counts = searched_rounds(leduc2, leduc2_form, coarse_blueprint)
    assert counts["first"][1] == 0 and counts["later"][1] == 0 and counts["first"][0] > 0 and counts["later"][0] > 0
