"""The flat walks over an explicit tree's preorder arrays (gamesolve/game/tree_walks.py)."""

import numpy as np
import pytest

from gamesolve.game.tree_walks import backward_values, values_in_action_order


def _plain_backward_values(parent, edge_w, W, utility_p):
    """Each child added into its parent in reverse preorder, one at a time: the order (and so
    the bits) :func:`backward_values` must keep."""
    value = utility_p.astype(np.float64).copy()
    for c in range(len(parent) - 1, 0, -1):
        value[parent[c]] += W[edge_w[c]] * value[c]
    return value


@pytest.fixture(params=["kuhn3_tree", "leduc2_tree"])
def tree(request):
    return request.getfixturevalue(request.param)


def _random_weights(tree, seed):
    """A random strategy (chance and the fixed edges as the tree has them)."""
    rng = np.random.default_rng(seed)
    W = tree.weights(tree.uniform_policy())
    W[: tree.num_slots] = rng.random(tree.num_slots)
    W[: tree.num_slots][rng.random(tree.num_slots) < 0.3] = 0.0  # zeros, as regret matching+ makes
    return W


def test_backward_values_add_each_child_into_its_parent_in_reverse_preorder_bit_for_bit(tree):
    for seed in range(3):
        W = _random_weights(tree, seed)
        for p in range(tree.num_players):
            value = np.empty(tree.num_nodes)
            backward_values(tree.parent, tree.edge_w, W, np.ascontiguousarray(tree.utility[:, p]), value)
            expected = _plain_backward_values(tree.parent, tree.edge_w, W, tree.utility[:, p])
            assert np.array_equal(value.view(np.int64), expected.view(np.int64))


def test_both_summation_orders_give_the_same_values_to_rounding(tree):
    W = _random_weights(tree, 7)
    utility = np.ascontiguousarray(tree.utility[:, 0])
    fast, in_order = np.empty(tree.num_nodes), np.empty(tree.num_nodes)
    backward_values(tree.parent, tree.edge_w, W, utility, fast)
    values_in_action_order(tree.child_start, tree.child_list, np.ascontiguousarray(tree.edge_w[tree.child_list]), W, utility, in_order)
    assert np.allclose(fast, in_order, rtol=1e-12, atol=1e-12)
