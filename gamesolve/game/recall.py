"""Perfect recall, checked on an explicit tree's arrays.

Every solver and the exact best response assume it: all histories of one information set
carry the same sequence of the acting player's own earlier (information set, action)
choices. It is enough that they share the *last* such choice -- that choice's information
set then shares its own last choice, and so on back to the root -- so one forward pass over
the preorder arrays decides it.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def first_recall_break(parent, edge_w, is_decision, node_player, node_infoset, n_players, n_infosets):
    """The first information set whose histories differ in the acting player's last own
    choice (its slot: ``edge_w`` of a decision edge), or -1 when the tree has perfect recall.

    :param is_decision: ``bool[N]``, decision nodes.
    """
    n = parent.shape[0]
    last = np.full((n, n_players), -1, dtype=np.int64)  # each player's last own slot on the path
    seen = np.full(n_infosets, -2, dtype=np.int64)  # the last own slot each infoset was met with
    for c in range(1, n):
        par = parent[c]
        for p in range(n_players):
            last[c, p] = last[par, p]
        if is_decision[par]:
            last[c, node_player[par]] = edge_w[c]
    for node in range(n):
        if is_decision[node]:
            info = node_infoset[node]
            own = last[node, node_player[node]]
            if seen[info] == -2:
                seen[info] = own
            elif seen[info] != own:
                return info
    return -1
