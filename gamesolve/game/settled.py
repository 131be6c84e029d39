"""``settled[n, p]`` of the factored form: player ``p`` has nothing left to decide below ``n``
and receives one payoff whatever happens (poker: folded), so kernels may skip ``p`` there.
Both compilers (the generic one and the factored contract's) compute it here."""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def settle(kind, player, child_start, child_list, lowest, highest):
    """``(settled, settled_value)`` from each terminal's lowest and highest payoff per player
    over the deals that reach it (``lowest``/``highest`` float[N, P], read at terminals and
    overwritten elsewhere), bottom-up over the preorder tree (children after parents)."""
    n, players = lowest.shape
    acts = np.zeros((n, players), dtype=np.bool_)
    for node in range(n - 1, -1, -1):
        if kind[node] == 2:  # TERMINAL: as given
            continue
        for p in range(players):
            lowest[node, p] = np.inf
            highest[node, p] = -np.inf
        if kind[node] == 0:  # DECISION
            acts[node, player[node]] = True
        for k in range(child_start[node], child_start[node + 1]):
            c = child_list[k]
            for p in range(players):
                acts[node, p] |= acts[c, p]
                lowest[node, p] = min(lowest[node, p], lowest[c, p])
                highest[node, p] = max(highest[node, p], highest[c, p])
    settled = np.zeros((n, players), dtype=np.bool_)
    value = np.zeros((n, players))
    for node in range(n):
        if kind[node] != 2:
            for p in range(players):
                if not acts[node, p] and lowest[node, p] == highest[node, p]:
                    settled[node, p] = True
                    value[node, p] = lowest[node, p]
    return settled, value
