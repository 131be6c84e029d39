"""A brute-force oracle of terminal values with card removal for any number of players: every
tuple of opponent private states that share no item is listed, weighted by the product of
their reach, and paid by the scalar showdown (:func:`gamesolve.game.terminals.contest_value`,
the reference semantics). No inclusion-exclusion, no sorting: slow, and obviously right."""

from __future__ import annotations

import functools
import itertools

import numpy as np

from gamesolve.game.factored import FIXED
from gamesolve.game.terminals import contest_value


def brute_force_cfv(kind, payoff, contender, p, reach, items, strength, states):
    """``p``'s counterfactual value of each private state in ``states`` at one terminal.

    :param kind: FIXED or CONTEST; ``payoff[q]`` is the fixed payoff or the stake of ``q``.
    :param reach: ``[P, S]`` every player's reach; ``items[s]``: the items state ``s`` holds;
        ``strength[s]``: its showdown strength."""
    n_players = reach.shape[0]
    opponents = [q for q in range(n_players) if q != p]
    masks = np.array([sum(1 << int(c) for c in set(row) if c >= 0) for row in items], dtype=np.int64)
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

    @functools.cache
    def showdown(strengths):
        return contest_value(stake, contenders, 0, p, np.array([strengths], dtype=np.int32), 0)

    out = np.zeros(len(states))
    for i, h in enumerate(states):
        for j in np.flatnonzero((held & masks[h]) == 0):
            if kind == FIXED:
                value = payoff[p]
            else:
                row = [0] * n_players
                row[p] = int(strength[h])
                for k, q in enumerate(opponents):
                    row[q] = int(strength[tuples[j, k]])
                value = showdown(tuple(row))
            out[i] += weight[j] * value
    return out
