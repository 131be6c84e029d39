"""Terminal values of the factored form, with two entry points.

* :func:`terminal_value`: one player's payoff at a terminal for one deal (MCCFR);
* :func:`terminal_cfv`: one player's counterfactual values over their private states, given
  every other player's reach over theirs (vector-form CFR, best response over ranges). It
  sums over the listed deals consistent with the terminal's public chance, so card removal
  and any other correlation between private states is exact; the payoffs come from the
  scalar entry point once (:func:`terminal_deals`).

The three kinds (DESIGN.md, principle 1):

* ``FIXED``: ``payoff[n, p]`` whatever the deal (poker: everybody else folded);
* ``CONTEST``: ``payoff[n, p]`` is what ``p`` staked; each layer of stakes goes to the
  strongest contenders (``contender[n, p]``) who staked into it, split evenly on ties; a
  layer no contender reached returns to whoever paid it (poker: a showdown with side pots);
* ``TABLE``: ``table[term_row[n], deal, p]`` (small games such as Liar's Dice); the kernels
  read a deal-major copy, ``table[deal, term_row[n], p]`` (``FactoredGame.terminal_arrays``).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from gamesolve.game.factored import CONTEST, FIXED

NO_STRENGTH = -2147483648


@njit(cache=True)
def contest_layers(stake, contender, node, p, strength, i):
    """``p``'s payoff at CONTEST terminal ``node`` for the strengths ``strength[i]``, layer by
    layer (the general case with unequal stakes among contenders)."""
    n = stake.shape[1]
    won = 0.0
    prev = 0.0
    while True:
        level = 1e300
        for q in range(n):
            c = stake[node, q]
            if c > prev and c < level:
                level = c
        if level == 1e300:
            break
        layer = 0.0
        best = NO_STRENGTH
        for q in range(n):
            c = stake[node, q]
            if c > prev:
                layer += min(c, level) - prev
                if c >= level and contender[node, q] and strength[i, q] > best:
                    best = strength[i, q]
        if best == NO_STRENGTH:
            # No contender reached this layer: it returns to whoever paid it.
            if stake[node, p] >= level:
                payers = 0
                for q in range(n):
                    if stake[node, q] >= level:
                        payers += 1
                won += layer / payers
        else:
            winners = 0
            for q in range(n):
                if stake[node, q] >= level and contender[node, q] and strength[i, q] == best:
                    winners += 1
            if stake[node, p] >= level and contender[node, p] and strength[i, p] == best:
                won += layer / winners
        prev = level
    return won - stake[node, p]


@njit(cache=True, inline="always")
def contest_value(stake, contender, node, p, strength, i):
    """``p``'s payoff at a CONTEST terminal: one pot when every contender staked the same
    (the common case, computed inline), else :func:`contest_layers`."""
    n = stake.shape[1]
    best = NO_STRENGTH
    level = -1.0
    single = True
    pot = 0.0
    for q in range(n):
        pot += stake[node, q]
        if contender[node, q]:
            if level < 0.0:
                level = stake[node, q]
            elif stake[node, q] != level:
                single = False
            if strength[i, q] > best:
                best = strength[i, q]
    if not single:
        return contest_layers(stake, contender, node, p, strength, i)
    if not contender[node, p] or strength[i, p] != best:
        return -stake[node, p]
    winners = 0
    for q in range(n):
        if contender[node, q] and strength[i, q] == best:
            winners += 1
    return pot / winners - stake[node, p]


@njit(cache=True, inline="always")
def terminal_value(term, node, p, strength, index, i):
    """Player ``p``'s payoff at terminal ``node`` on deal ``i`` of a batch (``strength[i]``,
    listed deal number ``index[i]``); ``term`` is a :class:`~gamesolve.game.factored.TerminalArrays`."""
    kind = term.kind[node]
    if kind == FIXED:
        return term.payoff[node, p]
    if kind == CONTEST:
        return contest_value(term.payoff, term.contender, node, p, strength, i)
    return term.table[index[i], term.row[node], p]


TerminalDeals = namedtuple("TerminalDeals", "start prob private payoff")
"""The vector entry point's data: for each terminal (CSR ``start`` over nodes) the listed
deals consistent with its public chance, with their probability, every player's private
state and payoffs (``private[j, p]``, ``payoff[j, p]``), computed once by the scalar entry
point."""


@njit(cache=True)
def _fill(term, kind, nodes, counts, deal_lists, starts, private, strength, index, prob, rnd, out_prob, out_private, out_payoff):
    j = 0
    n_players = out_payoff.shape[1]
    for i in range(nodes.shape[0]):
        node = nodes[i]
        for k in range(starts[i], starts[i] + counts[i]):
            d = deal_lists[k]
            out_prob[j] = prob[d]
            for q in range(n_players):
                out_private[j, q] = private[d, q, rnd[node]]
                out_payoff[j, q] = terminal_value(term, node, q, strength, index, d)
            j += 1


def empty_terminal_deals(num_nodes: int, num_players: int) -> TerminalDeals:
    """No listed deals (a form with item removal evaluates its terminals otherwise)."""
    return TerminalDeals(np.zeros(num_nodes + 1, np.int64), np.zeros(0), np.zeros((0, num_players), np.int32), np.zeros((0, num_players)))


def terminal_deals(form) -> TerminalDeals:
    """Build :data:`TerminalDeals` for a form with listed deals."""
    from gamesolve.game.factored import TERMINAL, chance_paths

    deals = form.deals.listed
    path_of, path_start, path_deals = chance_paths(form)
    nodes = np.flatnonzero(form.node_kind == TERMINAL)
    paths = path_of[nodes]
    counts = (path_start[paths + 1] - path_start[paths]).astype(np.int64)
    start = np.zeros(form.num_nodes + 1, dtype=np.int64)
    per_node = np.zeros(form.num_nodes, dtype=np.int64)
    per_node[nodes] = counts
    np.cumsum(per_node, out=start[1:])
    total = int(counts.sum())
    out = TerminalDeals(start, np.empty(total), np.empty((total, form.num_players), np.int32), np.empty((total, form.num_players)))
    _fill(
        form.terminal_arrays(), form.term_kind, nodes, counts, path_deals, path_start[paths].astype(np.int64),
        deals.private, deals.strength, np.arange(deals.count, dtype=np.int64), deals.prob, form.node_round,
        out.prob, out.private, out.payoff,
    )  # fmt: skip
    return out


@njit(cache=True)
def terminal_cfv(td, node, p, reach, out):
    """Add to ``out[s]`` player ``p``'s counterfactual value at terminal ``node`` for each of
    their private states ``s``: the sum over the terminal's consistent deals of deal
    probability x every other player's reach ``reach[q, private state]`` x payoff."""
    n = reach.shape[0]
    for j in range(td.start[node], td.start[node + 1]):
        w = td.prob[j]
        for q in range(n):
            if q != p:
                w *= reach[q, td.private[j, q]]
        if w != 0.0:
            out[td.private[j, p]] += w * td.payoff[j, p]
