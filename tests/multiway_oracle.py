"""A brute-force oracle of terminal values with card removal for any number of players: every
tuple of opponent private states that share no item is listed, weighted by the product of
their reach, and paid by the scalar showdown (:func:`gamesolve.game.terminals.contest_value`,
the reference semantics). No inclusion-exclusion, no sorting: slow, and obviously right."""

from __future__ import annotations

import itertools

import numpy as np
from numba import njit

from gamesolve.game.factored import CONTEST, FIXED
from gamesolve.game.terminals import contest_value


@njit(cache=True)
def _showdowns(stake, contender, p, strengths, out):
    for i in range(strengths.shape[0]):
        out[i] = contest_value(stake, contender, 0, p, strengths, i)


def brute_force_cfv(kind, payoff, contender, p, reach, items, strength, states):
    """``p``'s counterfactual value of each private state in ``states`` at one terminal.

    :param kind: FIXED or CONTEST; ``payoff[q]`` is the fixed payoff or the stake of ``q``.
    :param reach: ``[P, S]`` every player's reach; ``items[s]``: the items state ``s`` holds;
        ``strength[s]``: its showdown strength."""
    n_players = reach.shape[0]
    opponents = [q for q in range(n_players) if q != p]
    items = np.asarray(items, dtype=np.int64)
    masks = np.bitwise_or.reduce(np.where(items >= 0, np.left_shift(1, items.clip(0)), 0), axis=1)  # items held, as bits
    # Every tuple of opponent states in their ranges that share no item.
    tuples = np.array(list(itertools.product(*[np.flatnonzero(reach[q]) for q in opponents])), dtype=np.int64)
    held = np.zeros(len(tuples), dtype=np.int64)
    disjoint = np.ones(len(tuples), dtype=bool)
    for j in range(len(opponents)):
        disjoint &= (held & masks[tuples[:, j]]) == 0
        held |= masks[tuples[:, j]]
    tuples, held = tuples[disjoint], held[disjoint]
    weight = np.prod([reach[q, tuples[:, j]] for j, q in enumerate(opponents)], axis=0)
    stake = np.asarray(payoff, dtype=np.float64)[None, :]
    contenders = np.asarray(contender, dtype=np.bool_)[None, :]
    out = np.zeros(len(states))
    for i, h in enumerate(states):
        ok = (held & masks[h]) == 0
        if kind == FIXED:
            out[i] = payoff[p] * weight[ok].sum()
            continue
        rows = np.zeros((int(ok.sum()), n_players), dtype=np.int32)
        rows[:, p] = strength[h]
        for j, q in enumerate(opponents):
            rows[:, q] = strength[tuples[ok, j]]
        values = np.empty(len(rows))
        _showdowns(stake, contenders, p, rows, values)
        out[i] = weight[ok] @ values
    return out


def expected_payoffs(beliefs, stake, contender, items, strength) -> np.ndarray:
    """Every contender's expected payoff at one showdown when the players' private states are
    drawn from the product of ``beliefs`` (``[P, S]``) conditioned on sharing no item. Seats
    that do not contend hold no item (an extra state): their stakes are dead money only."""
    n_players, n_states = beliefs.shape
    reach = np.zeros((n_players, n_states + 1))
    reach[:, :n_states] = beliefs
    contender = np.asarray(contender, dtype=bool)
    reach[~contender] = 0.0
    reach[~contender, n_states] = 1.0
    items = np.vstack([np.asarray(items, dtype=np.int64), np.full((1, np.shape(items)[1]), -1)])
    strength = np.append(strength, 0)
    out = np.zeros(n_players)
    for p in np.flatnonzero(contender):
        states = np.flatnonzero(reach[p])
        values = brute_force_cfv(CONTEST, stake, contender, p, reach, items, strength, states)
        mass = brute_force_cfv(FIXED, np.eye(n_players)[p], contender, p, reach, items, strength, states)
        out[p] = reach[p, states] @ values / (reach[p, states] @ mass)
    return out
