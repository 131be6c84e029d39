"""Card removal for three players: exact vector terminal values without listed deals.

The two-player bundle (:mod:`gamesolve.game.removal`) needs the opponent's reach compatible
with one private state. With two opponents ``q1, q2`` a terminal needs, for each of ``p``'s
private states ``h``, sums over *pairs* of opponent states that share no item with ``h`` nor
with each other::

    out[h] += sum over (h1, h2) pairwise disjoint, disjoint from h, of
              reach[q1, h1] * reach[q2, h2] * payoff_p(h, h1, h2)

Every private state holds exactly two items (hold'em: the 1,326 hole-card pairs).

**The payoff depends on three classes only.** At a showdown, ``p`` wins a layer of the stakes
when no eligible contender is stronger, and shares it with those who tie (:func:`contest_value`,
the scalar reference). So ``payoff_p`` depends only on each opponent's *class* relative to
``h``: weaker (W), tied (T) or stronger (S); nine numbers per terminal, read off
:func:`~gamesolve.game.terminals.contest_value` itself (folded players' classes do not matter;
their stakes are dead money the winners take). The value is then
``sum over classes (X1, X2) of payoff(X1, X2) x mass(X1, X2; h)``.

**Class masses from prefix masses.** In order of strength the classes are differences of
prefixes: W = "weaker" (the states before ``h``'s group of equal strength), T = "weaker or
tied" - W, S = "all" - "weaker or tied". The masses are bilinear in the two sets, so nine class
masses are combinations of the masses ``J(P1, P2; h)`` of prefix pairs, and the combination's
coefficients (``prefix_coefficients``) are often zero (one pot: four of the nine). One sweep
gives three of them (weaker/weaker, then with ``h``'s group added to one set, then to both),
and all/all at its end: a pot without side pots takes two sweeps, a fold one.

**Prefix masses in one sweep.** A sweep over ``h``'s strength groups grows the two prefix
sets one state at a time and keeps, for the current sets: the joint mass of disjoint pairs
``J``; per item ``c`` the part of it where ``c`` is in ``h1`` (``Q[0, c]``) or in ``h2``
(``Q[1, c]``); each set's total, per-item sums ``S`` and per-item-pair reach ``T`` (the state
holding both items) and ``C[a, b] = sum over x of T[0, a, x] T[1, b, x]``. Adding a state
costs O(items); the mass for ``h = {a, b}`` is then O(1), by inclusion-exclusion over the
pairs that touch ``a`` or ``b`` (:func:`_query`)::

    J - Q[.., a] - Q[.., b] + (pairs holding both a and b: h1 = {a, b}, h2 = {a, b},
                               a in h1 and b in h2, b in h1 and a in h2)

the last two a product of per-item sums minus ``C[a, b]`` (or ``C[b, a]``). A sweep is
O(n + m x items) for n private states of which m have reach: exact, no sampling;
docs/benchmarks.md has the cost per terminal. Four or more players would need the same
algebra over triples; not done.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.extending import overload

from gamesolve.game.factored import FIXED, FormError
from gamesolve.game.form_records import RemovalThree
from gamesolve.game.terminals import contest_value

WEAKER, WEAKER_OR_TIED, ALL = 0, 1, 2
"""Prefix sets of a sweep, in order of strength (relative to the state being valued)."""

_CLASS_TO_PREFIX = np.array([[1.0, 0.0, 0.0], [-1.0, 1.0, 0.0], [0.0, -1.0, 1.0]])
"""Class (weaker, tied, stronger) as a combination of prefixes (weaker, weaker or tied, all)."""


def check_pair_items(items: np.ndarray) -> None:
    """Refuse item bundles the three-player algebra does not cover: every private state must hold
    exactly two different items, and no two states the same pair."""
    items = np.asarray(items)
    if items.ndim != 2 or items.shape[1] != 2 or np.any(items < 0) or np.any(items[:, 0] == items[:, 1]):
        raise FormError("vcfr with item removal for three players needs every private state to hold exactly two items")
    pairs = np.sort(items, axis=1)
    if len(np.unique(pairs, axis=0)) != len(pairs):
        raise FormError("vcfr with item removal for three players needs a different pair of items in every private state")


@njit(cache=True)
def _insert(k, c, d, r, total, sums, pair, only, cross, joint):
    """Add a state holding items ``c, d`` with reach ``r`` to set ``k`` (0 or 1)."""
    o = 1 - k
    compatible = total[o] - sums[o, c] - sums[o, d] + pair[o, c, d]
    joint[0] += r * compatible
    only[k, c] += r * compatible
    only[k, d] += r * compatible
    # The other set's states holding e but neither c nor d (pair is symmetric: rows, for speed).
    pair_c = pair[o, c]
    pair_d = pair[o, d]
    only_o = only[o]
    sums_o = sums[o]
    for e in range(sums.shape[1]):
        only_o[e] += r * (sums_o[e] - pair_c[e] - pair_d[e])
    only_o[c] -= r * (sums_o[c] - pair_d[c])  # e = c and e = d take no part
    only_o[d] -= r * (sums_o[d] - pair_c[d])
    # cross[k][c, e] += r * pair[o, d, e]: the products pair[0, a, x] * pair[1, b, x] this state
    # completes (cross[0] collects them as [a, b], cross[1] as [b, a]: rows either way).
    row_c = cross[k, c]
    row_d = cross[k, d]
    for e in range(sums.shape[1]):
        row_c[e] += r * pair_d[e]
        row_d[e] += r * pair_c[e]
    total[k] += r
    sums[k, c] += r
    sums[k, d] += r
    pair[k, c, d] = r
    pair[k, d, c] = r


@njit(cache=True)
def _query(a, b, total, sums, pair, only, cross, joint):
    """The joint mass of the disjoint pairs of the two sets that avoid items ``a`` and ``b``."""
    m = joint[0] - only[0, a] - only[1, a] - only[0, b] - only[1, b]
    m += pair[0, a, b] * (total[1] - sums[1, a] - sums[1, b] + pair[1, a, b])
    m += pair[1, a, b] * (total[0] - sums[0, a] - sums[0, b] + pair[0, a, b])
    # sum over x of pair[0, a, x] * pair[1, b, x], and the same with a and b swapped
    ab = cross[0, a, b] + cross[1, b, a]
    ba = cross[0, b, a] + cross[1, a, b]
    m += (sums[0, a] - pair[0, a, b]) * (sums[1, b] - pair[1, a, b]) - ab
    m += (sums[0, b] - pair[0, a, b]) * (sums[1, a] - pair[1, a, b]) - ba
    return m


@njit(cache=True)
def _insert_group(k, reach_k, items, order, lo, hi, total, sums, pair, only, cross, joint):
    for i in range(lo, hi):
        s = order[i]
        if reach_k[s] != 0.0:
            _insert(k, items[s, 0], items[s, 1], reach_k[s], total, sums, pair, only, cross, joint)


@njit(cache=True)
def prefix_sweep(reach_1, reach_2, items, n_items, strength, order, all_1, all_2, first, c_before, c_first, c_both, c_all, out):
    """One sweep over the strength groups, weakest first, adding prefix masses ``J(P1, P2; h)``
    (the joint mass of the disjoint pairs (h1, h2) avoiding ``h``'s items, h1 in opponent 1's
    set, h2 in opponent 2's, weighted by their reach) to ``out[h]`` for every state ``h``.

    Opponent ``k``'s set is all its states if ``all_k``, else the states weaker than ``h``'s
    group; at each group ``out[h]`` gets ``c_before x J`` of those sets, ``c_first x J`` once
    the group joined opponent ``first``'s set (weaker or tied, unless that set is all), and
    ``c_both x J`` once it joined both; at the end, when both sets are all, ``c_all x J``."""
    n = order.shape[0]
    total = np.zeros(2)
    sums = np.zeros((2, n_items))
    pair = np.zeros((2, n_items, n_items))
    only = np.zeros((2, n_items))
    cross = np.zeros((2, n_items, n_items))
    joint = np.zeros(1)
    reach = (reach_1, reach_2)
    grows = (not all_1, not all_2)
    if all_1:
        _insert_group(np.int64(0), reach_1, items, order, np.int64(0), n, total, sums, pair, only, cross, joint)
    if all_2:
        _insert_group(np.int64(1), reach_2, items, order, np.int64(0), n, total, sums, pair, only, cross, joint)
    coef = (c_before, c_first, c_both)
    joins = (first, 1 - first)
    i = 0
    while i < n:
        j = i
        while j < n and strength[order[j]] == strength[order[i]]:
            j += 1
        for stage in range(3):
            if stage > 0 and grows[joins[stage - 1]]:
                k = joins[stage - 1]
                _insert_group(k, reach[k], items, order, i, j, total, sums, pair, only, cross, joint)
            if coef[stage] != 0.0 and total[0] > 0.0 and total[1] > 0.0:  # else no pair at all
                for m in range(i, j):
                    s = order[m]
                    out[s] += coef[stage] * _query(items[s, 0], items[s, 1], total, sums, pair, only, cross, joint)
        i = j
    if c_all != 0.0 and total[0] > 0.0 and total[1] > 0.0:
        for s in range(n):
            out[s] += c_all * _query(items[s, 0], items[s, 1], total, sums, pair, only, cross, joint)


@njit(cache=True)
def class_payoffs(stake, contender, node, p, q1, q2):
    """``payoff[X1, X2]``: ``p``'s payoff at CONTEST terminal ``node`` when opponent ``q1`` is in
    class X1 and ``q2`` in X2 (0 weaker than ``p``, 1 tied, 2 stronger), by the scalar showdown."""
    strength = np.zeros((9, stake.shape[1]), dtype=np.int32)
    out = np.empty((3, 3))
    for x1 in range(3):
        for x2 in range(3):
            row = 3 * x1 + x2
            strength[row, p] = 1
            strength[row, q1] = x1
            strength[row, q2] = x2
            out[x1, x2] = contest_value(stake, contender, node, p, strength, row)
    return out


@njit(cache=True)
def prefix_coefficients(payoff):
    """The payoffs by class (weaker, tied, stronger) per opponent turned into coefficients of
    the prefix masses (weaker, weaker or tied, all)."""
    out = np.zeros((3, 3))
    for x1 in range(3):
        for x2 in range(3):
            for k1 in range(3):
                for k2 in range(3):
                    out[k1, k2] += payoff[x1, x2] * _CLASS_TO_PREFIX[x1, k1] * _CLASS_TO_PREFIX[x2, k2]
    return out


@njit(cache=True)
def three_player_cfv(term, rm, node, p, reach, out):
    """Add player ``p``'s counterfactual values at terminal ``node`` of a three-player game with
    item removal to ``out`` (see the module docstring); ``reach[q, s]`` is every player's reach."""
    q1 = 1 if p == 0 else 0
    q2 = 1 if p == 2 else 2
    path = rm.node_path[node]
    strength = rm.path_strength[path]
    order = rm.path_order[path]
    if term.kind[node] == FIXED:
        prefix_sweep(reach[q1], reach[q2], rm.items, rm.n_items, strength, order, np.bool_(True), np.bool_(True), np.int64(0), 0.0, 0.0, 0.0, term.payoff[node, p], out)
        return
    g = prefix_coefficients(class_payoffs(term.payoff, term.contender, node, p, q1, q2))
    w, t, a = WEAKER, WEAKER_OR_TIED, ALL
    r1, r2, items, m = reach[q1], reach[q2], rm.items, rm.n_items
    # Flags go as np.bool_ / np.int64, not literals: one compilation of the sweep, not five.
    # At most four sweeps cover the nine prefix pairs (both sets are "all" at the end of any);
    # those with no coefficient are skipped. One pot: two sweeps.
    c_all = g[a, a]
    if g[w, w] != 0.0 or g[t, w] != 0.0 or g[t, t] != 0.0:
        prefix_sweep(r1, r2, items, m, strength, order, np.bool_(False), np.bool_(False), np.int64(0), g[w, w], g[t, w], g[t, t], c_all, out)
        c_all = 0.0
    if g[w, t] != 0.0:
        prefix_sweep(r1, r2, items, m, strength, order, np.bool_(False), np.bool_(False), np.int64(1), 0.0, g[w, t], 0.0, c_all, out)
        c_all = 0.0
    if g[w, a] != 0.0 or g[t, a] != 0.0:
        prefix_sweep(r1, r2, items, m, strength, order, np.bool_(False), np.bool_(True), np.int64(0), g[w, a], g[t, a], 0.0, c_all, out)
        c_all = 0.0
    if g[a, w] != 0.0 or g[a, t] != 0.0:
        prefix_sweep(r1, r2, items, m, strength, order, np.bool_(True), np.bool_(False), np.int64(1), g[a, w], g[a, t], 0.0, c_all, out)
        c_all = 0.0
    if c_all != 0.0:
        prefix_sweep(r1, r2, items, m, strength, order, np.bool_(True), np.bool_(True), np.int64(0), 0.0, 0.0, 0.0, c_all, out)


def three_player_terminal(term, rm, node, p, reach, out):
    """:func:`three_player_cfv` for a :data:`~gamesolve.game.form_records.RemovalThree` bundle,
    nothing for a two-player one (inside kernels only). Chosen by the bundle's type when the
    caller is compiled, so a two-player kernel never compiles the three-player sums (about 4 s
    of a cold ``gamesolve spot``'s compile, issue 36)."""
    raise NotImplementedError("three_player_terminal runs inside numba kernels only")


@overload(three_player_terminal, jit_options={"cache": True})
def _three_player_terminal(term, rm, node, p, reach, out):
    if isinstance(rm, types.BaseNamedTuple) and rm.instance_class is RemovalThree:
        return lambda term, rm, node, p, reach, out: three_player_cfv(term, rm, node, p, reach, out)
    return lambda term, rm, node, p, reach, out: None
