"""Regret matching of one row, the one copy every solver family's kernels inline.

CALCULATE-STRATEGY of the Pluribus supplement (Brown & Sandholm 2019, Algorithm 1, lines
34-38 in MCCFR's numbering): a row's positive regrets normalised, uniform when none is
positive. Tabular CFR (:mod:`gamesolve.solve.kernels.tabular`), vector-form CFR
(:mod:`gamesolve.solve.kernels.vcfr`) and MCCFR (:mod:`gamesolve.solve.kernels.mccfr`, on
int32 regrets, whose floor keeps pruned actions recoverable) all call it. Two hot loops write
it out, with the same results, and say why: vector CFR's node-at-once loop
(``vcfr._node_strategy``, vectorised over private states, the same operations in the same
order) and MCCFR's traversal (``mccfr.run_thread``: the int32 row's positive total summed as
integers, exact, so the same bits; one sum serves the strategy, the average and the draw).

Bits are part of the contract (golden figures are held): the sum runs in action order and
skips non-positive entries; an entry is ``r / total`` (tabular CFR and MCCFR: open-spiel's
operation, which tabular CFR+ follows bit for bit) or ``r * (1 / total)`` (``reciprocal``:
vector CFR's, one division per row). Both are plain functions over arrays and scalars,
``inline="always"``: no extra compilation, and the hot loops keep their arrays in locals.
"""

from __future__ import annotations

from numba import njit


@njit(cache=True, inline="always")
def positive_total(regrets, row, stride, n_act):
    """The sum of the positive entries of ``regrets[row + a * stride]`` for ``a < n_act``,
    in action order (0 for ``row < 0``: a row never allocated, which plays uniformly)."""
    total = 0.0
    if row >= 0:
        for a in range(n_act):
            r = regrets[row + a * stride]
            if r > 0:
                total += r
    return total


@njit(cache=True, inline="always")
def matched_strategy(regrets, row, stride, n_act, total, out, at, reciprocal):
    """Write the regret-matching strategy of the row into ``out[at + a]``, given its
    :func:`positive_total`: ``r / total`` (``r * (1 / total)`` with ``reciprocal``) for a
    positive ``r``, else 0, or ``1 / n_act`` everywhere when ``total`` is 0. Each entry is read
    before the same entry is written, so ``out`` may be the row's own memory."""
    scale = 1.0 / total if reciprocal and total > 0.0 else 0.0
    for a in range(n_act):
        if total > 0.0:
            r = regrets[row + a * stride]
            if r > 0:
                out[at + a] = r * scale if reciprocal else r / total
            else:
                out[at + a] = 0.0
        else:
            out[at + a] = 1.0 / n_act


@njit(cache=True, inline="always")
def regret_matching(regrets, row, stride, n_act, out, at, reciprocal):
    """:func:`matched_strategy` of the row's :func:`positive_total` (the sum first, then the
    entries); returns the total."""
    total = positive_total(regrets, row, stride, n_act)
    matched_strategy(regrets, row, stride, n_act, total, out, at, reciprocal)
    return total


@njit(cache=True, inline="always")
def discount_factors(t, discount, alpha, beta, gamma):
    """Iteration ``t``'s average weight ``t^gamma`` and its positive and negative regret
    discounts ``t^alpha / (t^alpha + 1)`` and ``t^beta / (t^beta + 1)`` (1 without
    ``discount``): Discounted CFR (Brown & Sandholm 2019, section 3), of which Linear CFR is
    ``alpha = beta = gamma = 1``."""
    weight = float(t) ** gamma
    pos_d = 1.0
    neg_d = 1.0
    if discount:
        ta = float(t) ** alpha
        tb = float(t) ** beta
        pos_d = ta / (ta + 1.0)
        neg_d = tb / (tb + 1.0)
    return weight, pos_d, neg_d


@njit(cache=True, inline="always")
def updated_regret(r, clip, scaled, pos_d, neg_d):
    """A regret at the end of its iteration: a negative one clipped to 0 with ``clip``
    (regret matching+, CFR+), else times ``pos_d`` or ``neg_d`` by its sign with ``scaled``
    (Linear CFR, DCFR), else as it is."""
    if clip and r < 0.0:
        return 0.0
    if scaled:
        return r * (pos_d if r > 0.0 else neg_d)
    return r
