"""Numba kernels of the tabular CFR family over an :class:`~gamesolve.game.explicit_tree.ExplicitTree`.

One parameterised kernel covers vanilla CFR, CFR+, Linear CFR and Discounted CFR
(Brown & Sandholm 2019, "Solving Imperfect-Information Games via Discounted Regret
Minimization"): regret matching or regret matching+, regret discounting by
``t^alpha / (t^alpha + 1)`` (positive) and ``t^beta / (t^beta + 1)`` (negative), and
average-strategy weight ``t^gamma``. Updates alternate between players, as open-spiel does.

Each player's update is three flat loops over the preorder arrays (forward reach,
backward values, regret/average update), branch-light and recursion-free.
"""

from __future__ import annotations

from collections import namedtuple

from numba import njit, uintp

from gamesolve.game.tree_walks import backward_values, forward_reach, values_in_action_order
from gamesolve.solve.kernels.regret_matching import discount_factors, updated_regret
from gamesolve.solve.kernels.regret_matching import regret_matching as row_matching


@njit(cache=True)
def regret_matching(regrets, slot_start, strategy, first, last):
    """Write into ``strategy`` the regret-matching policy of infosets ``first..last-1``
    (dividing by the positive sum, as open-spiel does: CFR+ follows it bit for bit)."""
    for i in range(first, last):
        s0 = slot_start[i]
        row_matching(regrets, s0, 1, slot_start[i + 1] - s0, strategy, s0, False)


TreeArrays = namedtuple("TreeArrays", "parent edge_w edge_player child_start child_list child_w utility_t slot_start")
"""The explicit tree as the kernel reads it (:class:`~gamesolve.game.explicit_tree.ExplicitTree`'s
preorder arrays): parents, edge weights (a slot of ``W``) and players, children (CSR) and their
edge weights ``child_w = edge_w[child_list]``, utilities ``[P, N]`` and infosets' slots."""

PlayerIndex = namedtuple("PlayerIndex", "nodes_start nodes nodes_slot infosets_start infosets infoset_first_node")
"""Each player's decision nodes and infosets (``*_start[p]:*_start[p + 1]``), the slot of each
listed node's first action (its actions' slots follow), and each infoset's first node
(:func:`gamesolve.solve.cfr.player_index`)."""

Tables = namedtuple("Tables", "W regrets avg")
"""``W[:n_slots]``: the current strategy, ``W[n_slots:]`` the fixed 1 and chance probabilities;
slot-indexed regrets and average sums, updated in place."""

Settings = namedtuple("Settings", "rm_plus discount alpha beta gamma action_order")
"""The algorithm (:class:`~gamesolve.solve.cfr.CFRConfig`) and the summation order."""

Scratch = namedtuple("Scratch", "own others value")
"""Per node: the player's own reach, the others' reach and the values."""


@njit(cache=True)
def cfr_run(tree, index, tables, cfg, scratch, t_first, t_last):
    """Run iterations ``t_first..t_last`` (1-based) of the parameterised CFR family.

    ``W[:n_slots]`` must hold the regret-matching policy of ``regrets`` (uniform for zero
    regrets), and each iteration leaves it so: the policy is matched row by row as a player's
    regrets change (alternating updates: every player's policy reflects the regrets so far,
    and only the updated player's rows have changed), never in full. (A full matching at each
    call cost Leduc about 8% of its speed one iteration per call, as ``gamesolve bench cfr``
    times it.)

    With ``cfg.action_order`` values are summed in action order, as open-spiel sums them
    (:func:`~gamesolve.game.tree_walks.values_in_action_order`), so that CFR+ follows
    open-spiel's iterates through exact ties; without it, child by child in reverse preorder
    (:func:`~gamesolve.game.tree_walks.backward_values`, one flat loop: the fast order, equal
    in exact arithmetic). The bundles' arrays are taken into locals once: a field read inside
    the loops would update its reference count at every read. The bundles are unpacked by
    position, so that a caller may pass them as plain tuples in the namedtuples' field order:
    numba types a plain tuple of arrays in C, a namedtuple through Python (about 8 us of a
    Leduc iteration's 230, which ``bench cfr`` times one call per iteration).
    """
    parent, edge_w, edge_player, child_start, child_list, child_w, utility_t, slot_start = tree
    player_nodes_start, player_nodes, player_nodes_slot, player_infosets_start, player_infosets, infoset_first_node = index
    W, regrets, avg = tables
    rm_plus, discount, alpha, beta, gamma, action_order = cfg
    own, others, value = scratch
    n_players = utility_t.shape[0]
    for t in range(t_first, t_last + 1):
        weight, pos_d, neg_d = discount_factors(t, discount, alpha, beta, gamma)
        for p in range(n_players):
            forward_reach(parent, edge_w, edge_player, W, p, own, others)
            if action_order:
                values_in_action_order(child_start, child_list, child_w, W, utility_t[p], value)
            else:
                backward_values(parent, edge_w, W, utility_t[p], value)
            # Indices read from the arrays as ``uintp``: no negative-index wraparound
            # (:func:`~gamesolve.game.tree_walks.forward_reach`).
            for j in range(player_nodes_start[p], player_nodes_start[p + 1]):
                node = uintp(player_nodes[j])
                cf = others[node]
                if cf == 0.0:
                    continue
                v = value[node]
                k0 = uintp(child_start[node])
                k1 = uintp(child_start[node + 1])
                # A node's edges have consecutive slots; the first read from a list in the order
                # of the loop, not through its first child's edge (two dependent scattered loads:
                # 79 -> 71 us a Leduc iteration, in-process).
                slot = uintp(player_nodes_slot[j])
                for k in range(k0, k1):
                    regrets[slot + (k - k0)] += cf * (value[uintp(child_list[k])] - v)
            for j in range(player_infosets_start[p], player_infosets_start[p + 1]):
                info = uintp(player_infosets[j])
                reach = own[uintp(infoset_first_node[info])] * weight
                s0 = slot_start[info]
                s1 = slot_start[info + 1]
                for s in range(s0, s1):
                    avg[s] += reach * W[s]
                    regrets[s] = updated_regret(regrets[s], rm_plus, discount, pos_d, neg_d)
                row_matching(regrets, s0, 1, s1 - s0, W, s0, False)


@njit(cache=True)
def normalise(avg, slot_start, out):
    """Per-infoset normalisation of accumulated weights; uniform where all are zero."""
    for i in range(slot_start.shape[0] - 1):
        s0 = slot_start[i]
        s1 = slot_start[i + 1]
        total = 0.0
        for s in range(s0, s1):
            total += avg[s]
        for s in range(s0, s1):
            out[s] = avg[s] / total if total > 0.0 else 1.0 / (s1 - s0)
