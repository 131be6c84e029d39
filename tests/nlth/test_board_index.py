"""The flop, turn and river indices of hole pairs on a shared board, all at once."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from gamesolve_nlth.board_index import WORK_ROWS, board_setup, index_streets
from gamesolve_nlth.isomorphism import HandIndexer

STREETS = {street: HandIndexer((2, street)) for street in (3, 4, 5)}


@pytest.fixture(scope="module")
def tables():
    return tuple(STREETS[street].tables[1] for street in (3, 4, 5))


def streets_of(cards, tables):
    work = np.zeros((WORK_ROWS, 5), np.int64)
    board_setup(np.asarray(cards[2:], np.int64), 0, work)
    return index_streets(np.int64(cards[0]), np.int64(cards[1]), work, *tables)


@settings(max_examples=300, deadline=None)
@given(cards=hs.permutations(range(52)).map(lambda deck: deck[:7]))
def test_each_street_gets_the_indexers_index_of_hole_and_board(cards, tables):
    expected = tuple(STREETS[n].index(cards[: 2 + n], 1) for n in (3, 4, 5))
    assert streets_of(cards, tables) == expected


def test_one_board_serves_every_seat(tables):
    deck = np.random.default_rng(5).permutation(52)
    work = np.zeros((WORK_ROWS, 5), np.int64)
    board_setup(deck.astype(np.int64), 40, work)
    for seat in range(6):
        h0, h1 = (int(c) for c in deck[2 * seat : 2 * seat + 2])
        hand = [h0, h1, *(int(c) for c in deck[40:45])]
        assert index_streets(np.int64(h0), np.int64(h1), work, *tables) == tuple(STREETS[n].index(hand[: 2 + n], 1) for n in (3, 4, 5))


def test_the_hole_rounds_weights_are_the_same_in_the_three_indexers(tables):
    # index_streets weighs every street's board by the flop indexer's table
    weights = [t.prefix_weight[t.prefix_start[1] :] for t in tables]
    assert all(np.array_equal(w, weights[0]) for w in weights)
