"""Walks over an explicit tree's preorder arrays that both the CFR kernels and the exact best
response use: reach probabilities forward, expected values backward."""

from __future__ import annotations

import numpy as np
from numba import njit, uintp

from gamesolve.game.explicit_tree import DECISION, ExplicitTree


def edge_players(tree: ExplicitTree) -> np.ndarray:
    """For each node, the player who chose the edge into it (-1 for chance and the root)."""
    ep = np.full(tree.num_nodes, -1, dtype=np.int32)
    has = tree.parent >= 0
    par = tree.parent[has]
    ep[has] = np.where(tree.node_kind[par] == DECISION, tree.node_player[par], -1)
    return ep


@njit(cache=True)
def forward_reach(parent, edge_w, edge_player, W, player, own, others):
    """Reach probabilities in preorder: ``own`` (player's own actions) and ``others``
    (chance and every other player), so that ``own * others`` is the full reach.

    The indices read from the tree are cast to ``uintp``: numba then skips negative-index
    wraparound on them (a compare and an add per access), about a third of this walk's time
    on Leduc (an in-process A/B; the tree's parents and slots are never negative past the root)."""
    own[0] = 1.0
    others[0] = 1.0
    for c in range(1, parent.shape[0]):
        par = uintp(parent[c])
        x = W[uintp(edge_w[c])]
        if edge_player[c] == player:
            own[c] = own[par] * x
            others[c] = others[par]
        else:
            own[c] = own[par]
            others[c] = others[par] * x


@njit(cache=True)
def values_in_action_order(child_start, child_list, child_w, W, utility_p, value):
    """:func:`backward_values`, each node's sum taken over its children in action order
    (``child_w[k]``: the ``W`` index of the edge to ``child_list[k]``).

    Floating-point sums depend on their order. Summed as open-spiel sums them, values that
    are equal in exact arithmetic (two actions with the same outcome) come out equal in
    floating point too, so that regret matching+ clips the same regrets to zero as open-spiel
    does and CFR+ follows open-spiel's iterates to rounding error (summed the other way, a
    regret of 3e-17 instead of 0 can turn a uniform strategy pure after one iteration).
    """
    n = child_start.shape[0] - 1
    for node in range(n - 1, -1, -1):
        k0 = child_start[node]
        k1 = child_start[node + 1]
        if k0 == k1:
            value[node] = utility_p[node]
            continue
        total = 0.0
        for k in range(k0, k1):
            total += W[child_w[k]] * value[child_list[k]]
        value[node] = total


@njit(cache=True)
def backward_values(parent, edge_w, W, utility_p, value):
    """Expected value of every node for one player under the weights ``W``.

    Reverse preorder: a node's subtree is complete when it is reached, so its value can
    be added to its parent's. Terminal values come from ``utility_p``.

    The parent's running sum is kept in a register while consecutive nodes share the parent
    (sibling leaves, the common case) and stored when the parent changes or is itself
    reached: the same additions in the same order, so the same bits, without a store and a
    load of the parent's value per child (a chain of store-to-load forwards that bound the
    walk: 16.5 -> 13.6 us on Leduc, 3-7% on Liar's Dice's 295k nodes; docs/benchmarks.md).
    """
    n = parent.shape[0]
    for c in range(n):
        value[c] = utility_p[c]
    held = -1  # the node whose running sum is in ``acc`` (-1: none)
    acc = 0.0
    for c in range(n - 1, 0, -1):
        if c == held:  # its children are all in: its value is complete
            value[c] = acc
            held = -1
        p = parent[c]
        x = W[edge_w[c]] * value[c]
        if p == held:
            acc += x
        else:
            if held >= 0:
                value[held] = acc
            acc = value[p] + x
            held = p
    if held >= 0:
        value[held] = acc
