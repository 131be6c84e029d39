"""The core's deal sampler over range beliefs (gamesolve.game.belief_deals): items made of
cards from one deck, drawn with probability proportional to the product of the players' reach
over card-disjoint items (checked against the exact distribution, enumerated), the board to
come uniform over the cards left, and a deal a function of (seed, deal number)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from gamesolve.game.belief_deals import BeliefDeals

DECK = 8
PAIRS = np.array(list(itertools.combinations(range(DECK), 2)), dtype=np.int64)  # 28 two-card items


def sampler(beliefs, in_hand=(True, True, True), board=(6,), n_future=1, finish=None):
    return BeliefDeals.build(np.asarray(beliefs), np.array(in_hand), PAIRS, DECK, board, 2, 1, n_future, finish)


def random_beliefs(seed, players=3):
    return np.random.default_rng(seed).uniform(0.0, 1.0, (players, len(PAIRS)))


def test_items_are_drawn_by_the_product_of_the_reach_over_disjoint_items():
    beliefs = random_beliefs(1)
    board = {6}
    exact = {}
    for triple in itertools.product(range(len(PAIRS)), repeat=3):
        cards = [c for h in triple for c in PAIRS[h]]
        if len(set(cards)) == 6 and not set(cards) & board:
            exact[triple] = np.prod([beliefs[q, h] for q, h in enumerate(triple)])
    total = sum(exact.values())
    n = 60_000
    batch = sampler(beliefs).batch(3, 0, n)
    drawn = [tuple(int(batch.private[i, q, 0]) for q in range(3)) for i in range(n)]
    counts = {t: 0 for t in exact}
    for t in drawn:
        counts[t] += 1  # a KeyError here: a drawn deal shares a card or touches the board
    chi2 = sum((counts[t] - n * p / total) ** 2 / (n * p / total) for t, p in exact.items())
    # len(exact) - 1 degrees of freedom: the mean plus 5 standard deviations (a seeded run).
    dof = len(exact) - 1
    assert chi2 < dof + 5 * np.sqrt(2 * dof)


def test_the_board_to_come_is_uniform_over_the_cards_left():
    beliefs = np.zeros((3, len(PAIRS)))
    for q, pair in enumerate([(0, 1), (2, 3), (4, 5)]):
        beliefs[q, PAIRS.tolist().index(list(pair))] = 1.0
    deals = BeliefDeals.build(beliefs, np.ones(3, bool), PAIRS, DECK, (), 2, 2, 2)
    batch = deals.batch(0, 0, 2000)
    assert set(batch.public[:, 0]) == {6, 7} and (np.sort(batch.public, axis=1) == [6, 7]).all()  # the cards no item holds
    assert abs((batch.public[:, 0] == 6).mean() - 0.5) < 0.05
    with pytest.raises(ValueError, match="seat 2"):
        BeliefDeals.build(beliefs, np.ones(3, bool), PAIRS, DECK, (4,), 2, 1, 1)


def test_a_deal_is_a_function_of_the_seed_and_its_number():
    deals = sampler(random_beliefs(2))
    a, b = deals.batch(9, 100, 50), deals.batch(9, 0, 150)
    assert np.array_equal(a.private, b.private[100:]) and np.array_equal(a.public, b.public[100:])
    assert not np.array_equal(deals.batch(10, 0, 150).private, b.private)


def test_finish_reads_the_whole_board_of_each_deal():
    seen = []

    def finish(batch, full):
        seen.append(full.copy())
        batch.strength[:] = full.sum(axis=1)[:, None]
        return batch

    batch, full = sampler(random_beliefs(3), finish=finish).sample(4, 0, 20)
    assert full.shape == (20, 2) and (full[:, 0] == 6).all() and np.array_equal(seen[0], full)
    assert (batch.strength[:, 0] == full.sum(axis=1)).all()


def test_a_deck_past_64_cards_or_too_small_for_a_deal_is_refused():
    with pytest.raises(ValueError, match="64"):
        BeliefDeals.build(np.ones((2, 2)), np.ones(2, bool), np.array([[0, 1], [2, 70]]), 71, (), 1, 1, 0)
    with pytest.raises(ValueError, match="cannot hold"):
        sampler(random_beliefs(4), n_future=2)  # 3 pairs, a board card and 2 to come: 9 cards of 8
