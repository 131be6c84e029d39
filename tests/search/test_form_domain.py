"""Where the core's range search agent puts its roots on a game's form
(gamesolve/search/form_domain.py): a betting round is cut into stretches, each starting where
the depth-limited subgame from the stretch before has its leaves."""

import numpy as np
import pytest

from gamesolve.game.factored import CHANCE, DECISION, round_segments, subtree_ends
from gamesolve.search import AllActions, ContinuationStrategies, DepthLimit, ExactLeafValues, SubgameSpec, build_subgame


class RecordedLeaves:
    """Leaf values that note the game's nodes they are asked for (the subgame's leaves)."""

    def __init__(self, inner):
        self.inner, self.k, self.nodes = inner, inner.k, []

    def values(self, node, choosers):
        self.nodes.append(int(node))
        return self.inner.values(node, choosers)


@pytest.mark.parametrize("text", ["round+raises:1", "round+actions:2", "round+actions:3+raises:1"])
def test_a_stretch_starts_where_the_subgame_from_the_last_start_has_its_leaves(leduc2_search, coarse_blueprint, text):
    form = leduc2_search.form
    depth = DepthLimit.parse(text)
    segment = round_segments(form, depth.actions, depth.raises)
    parent = leduc2_search.parent
    ends = subtree_ends(form)
    decisions = form.node_kind == DECISION
    starts = [n for n in np.flatnonzero(decisions) if n == 0 or form.node_kind[parent[n]] == CHANCE or segment[n] != segment[parent[n]]]
    assert len(starts) > 2 * form.num_levels  # the rounds are cut
    leaves = RecordedLeaves(ExactLeafValues(ContinuationStrategies(form, coarse_blueprint, 1)))
    reach = np.ones((2, int(form.num_private.max())))
    for root in starts:
        leaves.nodes.clear()
        build_subgame(SubgameSpec(form, int(root), reach, leduc2_search.outcomes(int(root)), AllActions(), depth, leaves))
        level = form.node_level[root]
        within = {n for n in leaves.nodes if decisions[n] and form.node_level[n] == level}
        below = np.arange(root + 1, ends[root])
        expected = {int(n) for n in below if decisions[n] and form.node_level[n] == level and segment[n] == segment[root] + 1
                    and segment[parent[n]] == segment[root]}  # fmt: skip
        assert within == expected, (text, form.node_keys[root])


def test_without_a_limit_in_the_round_the_round_is_one_stretch(leduc2_search):
    assert not round_segments(leduc2_search.form, None, None).any()
