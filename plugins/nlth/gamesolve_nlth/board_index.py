"""Canonical indices of hole pairs on one board, for the flop, the turn and the river at once.

The card abstraction's postflop tables are indexed by the hand indexers of rounds ``(2, n)``:
the hole pair, then the board's first ``n`` cards as one set (n = 3, 4, 5;
:mod:`gamesolve_nlth.isomorphism`). The blueprint's deal generator needs all three indices for
every seat of a deal, on one board. Three calls of ``index_row`` per seat computed the hole
round three times and each board card's rank reduction once per street. Here what depends on
the board alone (each board card's suit, rank and mask of lower ranks in its suit, its
1-based position among its suit's cards of each street, each street's cards per suit) is
computed once per deal (:func:`board_setup`), and per seat only what the hole cards change (a
board card's rank among the ranks the hole leaves in its suit, and its round weight), then
each street's suit ranks and the indexer's common last steps
(:func:`~gamesolve_nlth.isomorphism.index_of_suits`). The indices are ``index_row``'s
(``tests/nlth/test_board_index.py``); six-player deals measured 1.7x faster
(docs/benchmarks.md).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._bits import popcount64
from .isomorphism import _NCR13_FLAT, index_of_suits, lane_counts

SUIT, RANK, BELOW, POSITION, LANES, SUIT_RANKS = 0, 1, 2, 3, 6, 7
"""Rows of :func:`board_work`: per board card (columns 0-4) its suit, rank and mask of lower
ranks of its suit (in its suit's 16-bit lane); rows ``POSITION + street`` (street 0, 1, 2: the
flop, the turn, the river) its 1-based position in its suit among that street's board cards;
row ``LANES``, column ``street``: the street's board cards per suit (16-bit lanes); rows
``SUIT_RANKS + street`` (columns 0-3): one seat's suit ranks on the street."""

WORK_ROWS = SUIT_RANKS + 3
"""The work array of :func:`board_setup` and :func:`index_streets` is int64[WORK_ROWS, 5]."""


@njit(cache=True, inline="always")
def board_setup(cards, at, work):
    """Fill ``work``'s board rows for the board ``cards[at : at + 5]`` (flop, turn, river)."""
    x = np.int64(0)
    for k in range(5):
        c = np.int64(cards[at + k])
        work[SUIT, k] = c & 3
        work[RANK, k] = c >> 2
        work[BELOW, k] = ((np.int64(1) << (c >> 2)) - 1) << (16 * (c & 3))
        x |= np.int64(1) << ((c & 3) * 16 + (c >> 2))
        if k >= 2:  # the street of k + 1 cards is complete: positions among its cards
            for q in range(k + 1):
                work[POSITION + k - 2, q] = popcount64(x & work[BELOW, q]) + 1
            work[LANES, k - 2] = lane_counts(x)


@njit(cache=True, inline="always")
def index_streets(h0, h1, work, t_flop, t_turn, t_river):
    """The indices of hole cards ``h0``, ``h1`` with the board of :func:`board_setup` on the
    flop, turn and river (``t_*``: the tables of the indexers ``(2, 3)``, ``(2, 4)``,
    ``(2, 5)``), as ``index_row`` gives them.

    A suit's rank is the mixed-radix sum of its rounds' colex ranks (the isomorphism module's
    step 1): the hole round's is the same on every street, and a board card adds ``C(r', j) *
    w`` on each street that holds it, with ``r'`` its rank less the hole's lower ranks in its
    suit, ``j`` its position on that street and ``w`` the weight of the hole's shape in its
    suit (the same for the three indexers: ``C(13, hole cards of the suit)``)."""
    used = (np.int64(1) << ((h0 & 3) * 16 + (h0 >> 2))) | (np.int64(1) << ((h1 & 3) * 16 + (h1 >> 2)))
    for s in range(4):
        work[SUIT_RANKS, s] = 0
    for c in (np.int64(h0), np.int64(h1)):
        below = ((np.int64(1) << (c >> 2)) - 1) << (16 * (c & 3))
        # unsigned indices: numba then skips its negative-index wraparound code
        work[SUIT_RANKS, np.uint64(c & 3)] += _NCR13_FLAT[np.uint64((c >> 2) * 16 + popcount64(used & below) + 1)]
    for s in range(4):
        work[SUIT_RANKS + 1, s] = work[SUIT_RANKS, s]
        work[SUIT_RANKS + 2, s] = work[SUIT_RANKS, s]
    code = lane_counts(used)
    weights = t_flop.prefix_weight
    first = t_flop.prefix_start[1]
    for k in range(5):
        s = np.uint64(work[SUIT, k])
        reduced = (work[RANK, k] - popcount64(used & work[BELOW, k])) * 16
        w = weights[np.uint64(first + ((code >> (16 * s)) & 0xFFFF))]
        for street in range(max(k - 2, 0), 3):  # card k is on the streets of k + 1 cards or more
            work[np.uint64(SUIT_RANKS + street), s] += _NCR13_FLAT[np.uint64(reduced + work[POSITION + street, k])] * w
    flop = index_of_suits(work[SUIT_RANKS, 0], work[SUIT_RANKS, 1], work[SUIT_RANKS, 2], work[SUIT_RANKS, 3],
                          code * t_flop.radix[1] + work[LANES, 0], t_flop)  # fmt: skip
    turn = index_of_suits(work[SUIT_RANKS + 1, 0], work[SUIT_RANKS + 1, 1], work[SUIT_RANKS + 1, 2], work[SUIT_RANKS + 1, 3],
                          code * t_turn.radix[1] + work[LANES, 1], t_turn)  # fmt: skip
    river = index_of_suits(work[SUIT_RANKS + 2, 0], work[SUIT_RANKS + 2, 1], work[SUIT_RANKS + 2, 2], work[SUIT_RANKS + 2, 3],
                           code * t_river.radix[1] + work[LANES, 2], t_river)  # fmt: skip
    return flop, turn, river
