"""Sampled deals for blueprint training: per-round buckets and showdown ranks."""

import numpy as np
import pytest

from gamesolve.rng import splitmix, stream, uniform_index
from gamesolve_nlth.blueprint.deals import HoldemDeals, preflop_table
from gamesolve_nlth.evaluator import evaluate7
from gamesolve_nlth.isomorphism import HandIndexer


@pytest.fixture(scope="module")
def source():
    # Tables that return the canonical index mod 251, so buckets can be checked against the
    # indexer directly.
    sizes = (169, 1_286_792, 13_960_050, 123_156_254)
    deals = HoldemDeals(3, [np.resize(np.arange(251, dtype=np.uint8), n) for n in sizes])
    return lambda seed, first, count: (lambda b: (b.private, b.strength))(deals.batch(seed, first, count))


def test_a_deal_depends_only_on_seed_and_number(source):
    buckets, ranks = source(7, 0, 50)
    again, again_ranks = source(7, 20, 10)
    assert np.array_equal(buckets[20:30], again) and np.array_equal(ranks[20:30], again_ranks)
    assert not np.array_equal(source(8, 0, 50)[0], buckets)


def test_preflop_buckets_follow_the_card_frequencies(source):
    buckets, _ = source(1, 0, 30_000)
    pre = buckets[:, :, 0].ravel()
    assert pre.min() >= 0 and pre.max() < 169
    indexer = HandIndexer((2,))
    pairs = [i for i in range(169) if len({c >> 2 for c in indexer.unindex(i, 0)}) == 1]
    share = np.isin(pre, pairs).mean()
    assert share == pytest.approx(78 / 1326, abs=0.01)  # 13 pairs x 6 combinations


def test_the_preflop_lookup_is_the_indexers_class_of_the_two_cards_in_either_order():
    indexer, table = HandIndexer((2,)), preflop_table()
    for a in range(52):
        for b in range(52):
            if a != b:
                assert table[a * 52 + b] == indexer.index([a, b], 0), (a, b)


def dealt_cards(seed: int, number: int, players: int) -> list[int]:
    """Deal ``number``'s cards (holes seat by seat, then the board), by the generator's
    partial Fisher-Yates shuffle from its counter-based stream."""
    # the state as uint64 throughout: a Python int would reach the kernels as int64 when it fits
    state, deck = np.uint64(stream(np.uint64(seed), np.uint64(number))), list(range(52))
    for j in range(2 * players + 5):
        state, u = splitmix(state)
        state = np.uint64(state)
        k = j + int(uniform_index(u, 52 - j))
        deck[j], deck[k] = deck[k], deck[j]
    return deck[: 2 * players + 5]


def test_postflop_buckets_look_up_the_canonical_index_of_hole_and_board(source):
    buckets, _ = source(4, 0, 40)
    indexers = {street: HandIndexer((2, street)) for street in (3, 4, 5)}
    for d in range(40):
        cards = dealt_cards(4, d, 3)
        for p in range(3):
            hand = cards[2 * p : 2 * p + 2] + cards[6:]
            for r, street in ((1, 3), (2, 4), (3, 5)):
                assert buckets[d, p, r] == indexers[street].index(hand[: 2 + street], 1) % 251, (d, p, r)


def test_ranks_are_the_seven_card_values_of_hole_and_board(source):
    _, ranks = source(4, 0, 40)
    for d in range(40):
        cards = dealt_cards(4, d, 3)
        for p in range(3):
            assert ranks[d, p] == evaluate7(*cards[2 * p : 2 * p + 2], *cards[6:]), (d, p)
