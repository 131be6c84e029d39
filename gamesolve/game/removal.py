"""Card removal without listed deals: the vector entry point of terminal values for two-player
games whose private states are small sets of *items* (cards) drawn without replacement.

Listing every deal (:class:`~gamesolve.game.deals.ListedDeals`) is exact but costs |deals| per
terminal: 1,326 x 1,326 hand pairs per board in hold'em. With items, the compatibility rule is
"no shared item", and both terminal kinds need only O(n) work per terminal (n private states),
by inclusion-exclusion over items (b-inary/postflop-solver's ``evaluate`` follows the same idea):

* the opponent's reach compatible with a private state holding items ``{a, b}`` is
  ``R - S[a] - S[b] + r[{a, b}]`` (``S[i]``: reach of the opponent's states holding item ``i``;
  the state holding both was subtracted twice);
* a contest (showdown) sweeps the states in order of strength, keeping the running reach and
  per-item running sums of the weaker (for wins) or stronger (for losses) states.

Chance between rounds deals public items (board cards); their probability given both players'
states is uniform over the items left, so it is one weight per chance node
(``chance_weight``), and states holding the dealt item lose their reach below it.

Three players: :mod:`gamesolve.game.removal_multi` (same bundle, exact, O(n x items)).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gamesolve.game.form_records import Removal


def item_removal(items: np.ndarray, n_items: int, node_path: np.ndarray, strength: np.ndarray, chance_weight: np.ndarray) -> Removal:
    """The bundle of states holding ``items`` with contest strengths ``strength[path, s]``
    (orders and groups derived)."""
    strength = np.ascontiguousarray(strength, dtype=np.int32)
    items = np.ascontiguousarray(items, dtype=np.int16)
    paths, n = strength.shape
    order = np.argsort(strength, axis=1, kind="stable").astype(np.int32)
    groups = np.zeros(paths, np.int32)
    bounds = np.zeros((paths, n + 1), np.int32)
    sorted_items = np.zeros((paths, n, 2), np.int16)
    for path in range(paths):
        groups[path] = contest_groups(strength[path], order[path], items, n_items, bounds[path], sorted_items[path])
    holders = np.zeros((n_items + 1, len(items)), dtype=np.bool_)
    for m in range(items.shape[1]):
        held = items[:, m] >= 0
        holders[items[held, m], np.flatnonzero(held)] = True
    return Removal(items, n_items, node_path, strength, order, groups, bounds, sorted_items, chance_weight, holders)


@njit(cache=True)
def contest_groups(strength, order, items, n_items, bounds, sorted_items):
    """Cut ``order`` (states by ascending ``strength``) into groups of equal strength, states of
    negative strength left out: the groups' first positions into ``bounds`` (the last group's
    end after them), each position's items into ``sorted_items`` (-1 as ``n_items``). Returns
    the number of groups."""
    n = order.shape[0]
    g = 0
    for k in range(n):
        s = order[k]
        for m in range(2):
            sorted_items[k, m] = items[s, m] if items[s, m] >= 0 else n_items
        if strength[s] >= 0 and (k == 0 or strength[order[k - 1]] != strength[s]):
            bounds[g] = k
            g += 1
    bounds[g] = n
    return g


def no_removal(num_nodes: int) -> Removal:
    """The empty bundle of games with listed deals (chance weights all 1)."""
    return item_removal(np.zeros((0, 2), dtype=np.int16), 0, np.zeros(num_nodes, np.int32), np.zeros((0, 0), np.int32), np.ones(num_nodes))


@njit(cache=True, inline="always")
def uidx(i):
    """An index read from an array, as unsigned: numba wraps signed indices around (a negative
    one counts from the end), a test and select per access that keeps the gathers of these
    sweeps from compiling tight (about 1.3x on :func:`contest_cfv`). Only for indices known to
    be in [0, 2^32): states, items, positions."""
    return np.uint32(i)


@njit(cache=True, inline="always")
def _slot(item, n_items):
    """An item's entry in the sums of :func:`fixed_cfv`; "no item" (-1) has the last one."""
    return uidx(item if item >= 0 else n_items)


@njit(cache=True, inline="always")
def _nonzero(reach_q, order, lo, hi, at):
    """The positions ``k`` in ``lo:hi`` whose state ``order[k]`` has nonzero reach, into ``at``
    (which has room for one more); returns their count. Branch-free: a range's hands that do not
    get somewhere are often most of the vector (about 3/4 on the turn spot), in no predictable
    pattern."""
    cnt = 0
    for k in range(lo, hi):
        at[cnt] = k
        cnt += reach_q[uidx(order[k])] != 0.0
    return cnt


@njit(cache=True)
def fixed_cfv(reach_q, items, n_items, payoff, out, sums, at):
    """Add ``payoff`` x the opponent's compatible reach to ``out[s]`` for every state ``s``.
    ``sums`` holds at least ``n_items + 1`` entries (the last for "no item", kept at 0), ``at``
    (int64) at least one more than the states: scratch.

    Only the opponent's states of nonzero reach are summed (zeros would add nothing), then
    every state's value is taken branch-free (compacted as :func:`_nonzero` does)."""
    for i in range(n_items + 1):
        sums[i] = 0.0
    n = out.shape[0]
    cnt = 0
    for s in range(n):
        at[cnt] = s
        cnt += reach_q[s] != 0.0
    total = 0.0
    for c in range(cnt):
        s = uidx(at[c])
        r = reach_q[s]
        total += r
        sums[_slot(items[s, 0], n_items)] += r
        sums[_slot(items[s, 1], n_items)] += r
    sums[n_items] = 0.0
    for s in range(n):
        # The state holding both items was subtracted twice.
        both = reach_q[s] if items[s, 1] >= 0 else 0.0
        out[s] += payoff * (total - sums[_slot(items[s, 0], n_items)] - sums[_slot(items[s, 1], n_items)] + both)


@njit(cache=True)
def contest_cfv(reach_q, order, groups, bounds, sorted_items, n_items, win, lose, out, sums, at, val):
    """Add to ``out[s]`` ``win`` x the compatible reach of weaker opponent states plus ``lose``
    x that of stronger ones (ties pay nothing: a two-player pot split evenly), over one path's
    groups of equal strength (:data:`Removal`: ``order``, ``groups``, ``bounds``,
    ``sorted_items``); states left out of the groups get nothing and must have zero reach.

    ``sums`` (``n_items + 1``), ``at`` (int64, one more than the states) and ``val`` (the
    states) are scratch. Each sweep adds only the opponent's states of nonzero reach, in the
    same order as a sweep over every state, so the values are the same bits."""
    first, end = bounds[0], bounds[groups]
    cnt = _nonzero(reach_q, order, first, end, at)
    # Ascending: states strictly weaker than each group.
    for i in range(n_items + 1):
        sums[i] = 0.0
    total = 0.0
    q = 0
    for g in range(groups):
        i, j = bounds[g], bounds[g + 1]
        for k in range(i, j):
            val[k] = win * (total - sums[uidx(sorted_items[k, 0])] - sums[uidx(sorted_items[k, 1])])
        while q < cnt and at[q] < j:
            k = uidx(at[q])
            r = reach_q[uidx(order[k])]
            total += r
            sums[uidx(sorted_items[k, 0])] += r
            sums[uidx(sorted_items[k, 1])] += r
            q += 1
        sums[n_items] = 0.0
    # Descending: states strictly stronger.
    for i in range(n_items + 1):
        sums[i] = 0.0
    total = 0.0
    q = cnt - 1
    for g in range(groups - 1, -1, -1):
        i, j = bounds[g], bounds[g + 1]
        for k in range(j - 1, i - 1, -1):
            val[k] += lose * (total - sums[uidx(sorted_items[k, 0])] - sums[uidx(sorted_items[k, 1])])
        while q >= 0 and at[q] >= i:
            k = uidx(at[q])
            r = reach_q[uidx(order[k])]
            total += r
            sums[uidx(sorted_items[k, 0])] += r
            sums[uidx(sorted_items[k, 1])] += r
            q -= 1
        sums[n_items] = 0.0
    for k in range(first, end):
        out[uidx(order[k])] += val[k]
