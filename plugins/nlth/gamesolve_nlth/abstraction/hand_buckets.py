"""A dealt hand's bucket in every round, from the card abstraction's tables (a kernel)."""

from __future__ import annotations

from numba import njit

from gamesolve_nlth.isomorphism import index_row


@njit(cache=True, nogil=True)
def hand_buckets(hand, t_pre, t_flop, t_turn, t_river, flop_table, turn_table, river_table, scratch, out):
    """``out[r]``, for the rounds ``r`` = 0..3, is the bucket of the hand ``hand[0]`` (two hole
    cards, then the five board cards): preflop its canonical class (169), later the card
    abstraction's table at the canonical index of hole + board so far (board as one set).
    ``scratch``: int64[4] (:func:`~gamesolve_nlth.isomorphism.index_row`).

    One call site of the inlined indexer in a loop over the rounds, each round's indexer
    reading only its first cards of the row: four call sites (over slices of ``hand``, each
    its own array layout) compiled the indexer four times in every kernel that dealt hands
    (issue 36)."""
    indexers = (t_pre, t_flop, t_turn, t_river)
    for r in range(4):
        index = index_row(hand, 0, indexers[r], scratch)
        if r == 0:
            out[r] = index
        elif r == 1:
            out[r] = flop_table[index]
        elif r == 2:
            out[r] = turn_table[index]
        else:
            out[r] = river_table[index]
