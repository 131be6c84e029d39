"""A small seeded Monte Carlo equity kernel for the baseline agents (numba).

``mc_equity_kernel`` estimates the share of the pot a hand wins at showdown against
``n_opp`` opponents holding uniformly random hands, with the rest of the board drawn at
random. It uses its own xorshift64* generator (no global numba random state), so a seed
gives the same answer everywhere.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gamesolve_nlth.evaluator import evaluate7


@njit(cache=True)
def _next(state):
    """xorshift64* step on a one-element uint64 array; returns 53 random bits as int64."""
    x = state[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    state[0] = x
    return np.int64((x * np.uint64(2685821657736338717)) >> np.uint64(11))


@njit(cache=True)
def mc_equity_kernel(hole, board, n_opp, samples, seed):
    """Pot share (ties split) of ``hole`` (2 cards) with ``board`` (0..5 cards) vs ``n_opp`` random hands."""
    used = np.zeros(52, np.bool_)
    for c in hole:
        used[c] = True
    for c in board:
        used[c] = True
    deck = np.empty(52, np.int64)
    m = 0
    for c in range(52):
        if not used[c]:
            deck[m] = c
            m += 1
    nb = board.shape[0]
    need = 2 * n_opp + (5 - nb)
    full = np.empty(5, np.int64)
    for i in range(nb):
        full[i] = board[i]
    state = np.empty(1, np.uint64)
    state[0] = np.uint64(seed) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(0x632BE59BD9B4E019)
    if state[0] == np.uint64(0):
        state[0] = np.uint64(1)
    total = 0.0
    for _ in range(samples):
        for i in range(need):  # partial Fisher-Yates: deck[0:need] is the sample
            j = i + _next(state) % (m - i)
            t = deck[i]
            deck[i] = deck[j]
            deck[j] = t
        k = 2 * n_opp
        for i in range(nb, 5):
            full[i] = deck[k]
            k += 1
        mine = evaluate7(hole[0], hole[1], full[0], full[1], full[2], full[3], full[4])
        best = 0
        ties = 0
        for o in range(n_opp):
            v = evaluate7(deck[2 * o], deck[2 * o + 1], full[0], full[1], full[2], full[3], full[4])
            if v > best:
                best = v
                ties = 1
            elif v == best:
                ties += 1
        if mine > best:
            total += 1.0
        elif mine == best:
            total += 1.0 / (ties + 1)
    return total / samples
