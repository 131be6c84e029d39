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

from collections import namedtuple

import numpy as np
from numba import njit

Removal = namedtuple("Removal", "items n_items node_path path_strength path_order chance_weight")
"""Item removal as the vector kernels read it: ``items[s]`` (up to 2 item numbers, -1 for
none), the number of items, each node's public chance path, each path's contest strength of
every private state (``path_strength[path, s]``; larger is better) and the states in order of
strength (``path_order[path]``), and each node's chance weight (1 elsewhere)."""


def no_removal(num_nodes: int) -> Removal:
    """The empty bundle of games with listed deals (chance weights all 1)."""
    empty = np.zeros((0, 2), dtype=np.int16)
    return Removal(empty, 0, np.zeros(num_nodes, np.int32), np.zeros((0, 0), np.int32), np.zeros((0, 0), np.int32), np.ones(num_nodes))


@njit(cache=True)
def holds(items, s, item):
    """Whether private state ``s`` holds ``item``."""
    return items[s, 0] == item or items[s, 1] == item


@njit(cache=True, inline="always")
def _slot(item, n_items):
    """An item's entry in the sums of :func:`fixed_cfv`; "no item" (-1) has the last one."""
    return item if item >= 0 else n_items


@njit(cache=True)
def fixed_cfv(reach_q, items, n_items, payoff, out, sums):
    """Add ``payoff`` x the opponent's compatible reach to ``out[s]`` for every state ``s``.
    ``sums`` holds at least ``n_items + 1`` entries (the last for "no item", kept at 0).

    Branch-free, zero reach or not: about 3x faster than skipping zeros and absent items."""
    for i in range(n_items + 1):
        sums[i] = 0.0
    total = 0.0
    n = out.shape[0]
    for s in range(n):
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
def contest_cfv(reach_q, items, n_items, strength, order, win, lose, out, sums):
    """Add to ``out[s]`` ``win`` x the compatible reach of weaker opponent states plus ``lose``
    x that of stronger ones (ties pay nothing: a two-player pot split evenly)."""
    n = order.shape[0]
    for i in range(n_items):
        sums[i] = 0.0
    # Ascending: states strictly weaker than each group of equal strength.
    total = 0.0
    i = 0
    while i < n:
        j = i
        while j < n and strength[order[j]] == strength[order[i]]:
            j += 1
        for k in range(i, j):
            s = order[k]
            mass = total
            a, b = items[s, 0], items[s, 1]
            if a >= 0:
                mass -= sums[a]
            if b >= 0:
                mass -= sums[b]
            out[s] += win * mass
        for k in range(i, j):
            s = order[k]
            r = reach_q[s]
            if r != 0.0:  # often: a range's hands that do not get here
                total += r
                for m in range(2):
                    if items[s, m] >= 0:
                        sums[items[s, m]] += r
        i = j
    # Descending: states strictly stronger.
    for m in range(n_items):
        sums[m] = 0.0
    total = 0.0
    i = n - 1
    while i >= 0:
        j = i
        while j >= 0 and strength[order[j]] == strength[order[i]]:
            j -= 1
        for k in range(i, j, -1):
            s = order[k]
            mass = total
            a, b = items[s, 0], items[s, 1]
            if a >= 0:
                mass -= sums[a]
            if b >= 0:
                mass -= sums[b]
            out[s] += lose * mass
        for k in range(i, j, -1):
            s = order[k]
            r = reach_q[s]
            if r != 0.0:  # often: a range's hands that do not get here
                total += r
                for m in range(2):
                    if items[s, m] >= 0:
                        sums[items[s, m]] += r
        i = j
