"""A small seeded Monte Carlo equity kernel for the baseline agents (numba).

``mc_equity_kernel`` estimates the share of the pot a hand wins at showdown against
``n_opp`` opponents holding uniformly random hands, with the rest of the board drawn at
random. It uses its own xorshift64* generator (:func:`gamesolve.rng.xorshift`; no global numba
random state), so a seed gives the same answer everywhere. :func:`pot_share` scores one showdown
(local best response's sampled equity uses it too).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gamesolve.rng import xorshift, xorshift_state
from gamesolve_nlth.evaluator import evaluate7


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
    state = xorshift_state(seed)
    total = 0.0
    for _ in range(samples):
        for i in range(need):  # partial Fisher-Yates: deck[0:need] is the sample
            j = i + np.int64(xorshift(state) >> np.uint64(11)) % (m - i)
            t = deck[i]
            deck[i] = deck[j]
            deck[j] = t
        k = 2 * n_opp
        for i in range(nb, 5):
            full[i] = deck[k]
            k += 1
        total += pot_share(hole, deck[: 2 * n_opp].reshape((n_opp, 2)), full)
    return total / samples


@njit(cache=True)
def pot_share(hole, hands, full):
    """The share of the pot (ties split) ``hole`` wins at showdown against each row of
    ``hands`` (n x 2 cards) on the 5-card board ``full``."""
    mine = evaluate7(hole[0], hole[1], full[0], full[1], full[2], full[3], full[4])
    best = 0
    ties = 0
    for o in range(hands.shape[0]):
        v = evaluate7(hands[o, 0], hands[o, 1], full[0], full[1], full[2], full[3], full[4])
        if v > best:
            best = v
            ties = 1
        elif v == best:
            ties += 1
    if mine > best:
        return 1.0
    if mine == best:
        return 1.0 / (ties + 1)
    return 0.0
