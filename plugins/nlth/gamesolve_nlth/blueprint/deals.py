"""Sampled hold'em deals for MCCFR: each player's bucket per round and showdown rank.

Deal ``k`` of a run depends only on (seed, k), through a counter-based generator, so a run's
deals do not depend on how it was cut into batches or threads.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import njit

from gamesolve.game.deals import DealBatch
from gamesolve.rng import splitmix, stream, uniform_index
from gamesolve.threads import run_blocks
from gamesolve_nlth.board_index import WORK_ROWS, board_setup, index_streets
from gamesolve_nlth.evaluator import CARD_KEY, board_key, board_suit_ranks, evaluate_with_board
from gamesolve_nlth.isomorphism import HandIndexer


DEALS_PER_PART = 512
"""Fewest deals worth a thread of their own."""

LOOKUP_BLOCK = 32
"""Deals whose indices are computed before their table lookups."""


@njit(cache=True, nogil=True)
def deal_range(seed, first, lo, hi, n_players, preflop, t_flop, t_turn, t_river,
               flop_table, turn_table, river_table, buckets, ranks):  # fmt: skip
    """Fill ``buckets[i, p, r]`` and ``ranks[i, p]`` for ``i`` in ``lo .. hi - 1``: deal
    ``first + i``.

    Cards are drawn by a partial Fisher-Yates shuffle: 2 hole cards per seat, then 5 board
    cards. Buckets: the preflop canonical class (169: ``preflop``, :func:`preflop_table`), then
    the card abstraction's tables at the canonical index of hole + board so far (board as one
    set).
    """
    need = 2 * n_players + 5
    # Work arrays allocated once per call, not per deal: allocating them per deal took half of
    # a deal's time (4.5 -> 2.0 us per six-player deal, benchmarks/deal_speed.py).
    deck = np.empty(52, np.int64)
    work = np.zeros((WORK_ROWS, 5), np.int64)
    suit_ranks = np.empty(4, np.int64)
    # The tables' lookups (the river's is 123 MB: a cache and TLB miss each) wait until a
    # block's indices are all known, so that they issue back to back and overlap instead of
    # each stalling between two long index computations.
    index = np.empty((LOOKUP_BLOCK, n_players, 3), np.int64)
    board = 2 * n_players
    for b0 in range(lo, hi, LOOKUP_BLOCK):
        b1 = min(b0 + LOOKUP_BLOCK, hi)
        for i in range(b0, b1):
            # Counter-based: deal i's stream starts from (seed, i) alone.
            state = stream(seed, first + i)
            for j in range(52):
                deck[j] = j
            for j in range(need):
                state, u = splitmix(state)
                k = j + uniform_index(u, 52 - j)
                tmp = deck[j]
                deck[j] = deck[k]
                deck[k] = tmp
            # What the seats share is computed once a deal: the board's part of the indices
            # (board_index) and of the 7-card key (1.7x faster deals than per seat).
            board_setup(deck, board, work)
            c0, c1, c2, c3, c4 = deck[board], deck[board + 1], deck[board + 2], deck[board + 3], deck[board + 4]
            key5 = board_key(c0, c1, c2, c3, c4)
            board_suit_ranks(c0, c1, c2, c3, c4, suit_ranks)
            for p in range(n_players):
                h0 = deck[2 * p]
                h1 = deck[2 * p + 1]
                buckets[i, p, 0] = preflop[h0 * 52 + h1]
                index[i - b0, p, 0], index[i - b0, p, 1], index[i - b0, p, 2] = index_streets(h0, h1, work, t_flop, t_turn, t_river)
                ranks[i, p] = evaluate_with_board(key5, suit_ranks, CARD_KEY[h0] + CARD_KEY[h1], h0, h1)
        for i in range(b0, b1):
            for p in range(n_players):
                buckets[i, p, 1] = flop_table[index[i - b0, p, 0]]
                buckets[i, p, 2] = turn_table[index[i - b0, p, 1]]
                buckets[i, p, 3] = river_table[index[i - b0, p, 2]]


def preflop_table() -> np.ndarray:
    """int64[52 * 52]: the preflop canonical class of the hole cards ``a, b`` at ``a * 52 + b``
    (either order; 0 where ``a == b``). A lookup per seat in :func:`deal_range` where an index
    computation was: 1.09-1.15x faster deals (docs/benchmarks.md)."""
    a, b = np.divmod(np.arange(52 * 52), 52)
    two = a != b
    table = np.zeros(52 * 52, np.int64)
    table[two] = HandIndexer((2,)).index_batch(np.stack([a[two], b[two]], axis=1), 0)
    return table


class HoldemDeals:
    """Generated hold'em deals for the factored form (:class:`gamesolve.game.deals.Deals`):
    each player's bucket per round, showdown strength, no public chance levels (the board is
    inside the buckets)."""

    num_rounds = 4
    num_levels = 0
    listed = None

    def __init__(self, n_players: int, tables):
        self.num_players = n_players
        self.n_players = n_players
        self.flop, self.turn, self.river = (np.ascontiguousarray(t) for t in tables[1:])
        self.preflop = preflop_table()
        self.t_flop = HandIndexer((2, 3)).tables[1]
        self.t_turn = HandIndexer((2, 4)).tables[1]
        self.t_river = HandIndexer((2, 5)).tables[1]

    def batch(self, seed: int, first: int, count: int) -> DealBatch:
        buckets = np.empty((count, self.n_players, 4), np.int32)
        ranks = np.empty((count, self.n_players), np.int32)
        # Deals are counter-based: any split of the range gives the same arrays.
        threads = max(1, min(numba.get_num_threads(), count // DEALS_PER_PART))
        run_blocks(count, lambda lo, hi: deal_range(
            seed, first, lo, hi, self.n_players, self.preflop, self.t_flop, self.t_turn, self.t_river,
            self.flop, self.turn, self.river, buckets, ranks), threads=threads)  # fmt: skip
        return DealBatch(buckets, np.zeros((count, 0), np.int32), ranks, np.full(count, -1, np.int64))
