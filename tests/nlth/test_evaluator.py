"""The 7-card evaluator: a hand value in 1..7462, larger is better, ordered like phevaluator."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamesolve_nlth import evaluator as ev
from gamesolve_nlth.cards import parse_cards


def value(text: str) -> int:
    return ev.evaluate(text)


def assert_order_isomorphic(ours: np.ndarray, theirs_larger_better: np.ndarray) -> None:
    """Sorting by ours leaves theirs non-decreasing, and neighbours tie in one iff in the other."""
    order = np.argsort(ours, kind="stable")
    a = ours[order]
    b = theirs_larger_better[order]
    assert np.all(np.diff(b) >= 0)
    assert np.array_equal(np.diff(a) == 0, np.diff(b) == 0)


# ---------------------------------------------------------------------------------------------
# Construction
# ---------------------------------------------------------------------------------------------
def test_rank_keys_give_every_rank_multiset_of_up_to_seven_cards_a_distinct_sum():
    sums = [0]
    sizes = [0]
    for key in ev.RANK_KEY.tolist():  # extend multisets rank by rank, each rank 0..4 times
        new_sums, new_sizes = [], []
        for s, n in zip(sums, sizes):
            for c in range(0, min(4, 7 - n) + 1):
                new_sums.append(s + c * int(key))
                new_sizes.append(n + c)
        sums, sizes = new_sums, new_sizes
    assert len(sums) == 76155
    assert len(set(sums)) == len(sums)
    assert max(sums) < 2**32  # fits below the suit counters


def test_each_category_has_its_published_number_of_five_card_classes():
    categories = np.array([ev.hand_category(v) for v in range(1, ev.NUM_HAND_VALUES + 1)])
    assert np.bincount(categories).tolist() == [1277, 2860, 858, 858, 10, 1277, 156, 156, 10]


def test_categories_are_contiguous_and_increase_with_value():
    categories = [ev.hand_category(v) for v in range(1, ev.NUM_HAND_VALUES + 1)]
    assert categories == sorted(categories)


# ---------------------------------------------------------------------------------------------
# Known hands
# ---------------------------------------------------------------------------------------------
def test_royal_flush_is_the_best_value_and_seven_high_the_worst():
    assert value("AsKsQsJsTs") == ev.NUM_HAND_VALUES
    assert value("7c5d4h3s2c") == 1


def test_category_ladder_on_seven_cards():
    ladder = [
        ("AsKd9h7c5s3d2c", "high card"),
        ("AsAd9h7c5s3d2c", "pair"),
        ("AsAd9h9c5s3d2c", "two pair"),
        ("AsAdAh9c5s3d2c", "three of a kind"),
        ("9s8d7h6c5s3d2c", "straight"),
        ("As9s7s5s3s3d2c", "flush"),
        ("AsAdAh9c9s3d2c", "full house"),
        ("AsAdAhAc9s3d2c", "four of a kind"),
        ("9s8s7s6s5s3d2c", "straight flush"),
    ]
    values = [value(h) for h, _ in ladder]
    assert values == sorted(values) and len(set(values)) == len(values)
    assert [ev.category_name(v) for v in values] == [name for _, name in ladder]


def test_royal_flush_beats_four_aces():
    assert value("AsKsQsJsTs") > value("AcAdAhAsKc")


def test_wheel_is_the_lowest_straight():
    assert value("As2d3h4c5s") < value("2d3h4c5s6d")
    assert value("As2d3h4c5s") == ev.CATEGORY_FIRST[4]


def test_steel_wheel_is_the_lowest_straight_flush():
    assert value("As2s3s4s5s") == ev.CATEGORY_FIRST[8]


def test_hands_differing_only_in_suits_tie():
    assert value("AsKd9h7c5s") == value("AhKc9d7s5h")


def test_the_board_plays_when_both_hands_are_below_it():
    board = "AsKdQhJcTs"
    assert value("2c3d" + board) == value("4h5h" + board)


def test_sixth_and_seventh_cards_only_count_through_the_best_five():
    assert value("AsAdKhKcQs7d") == value("AsAdKhKcQs")  # 7 does not play
    assert value("AsAdKhKcQsJc2d") == value("AsAdKhKcQs")


def test_second_trips_make_the_full_house_pair():
    assert value("AsAdAh2c2s2dKh") == value("AsAdAh2c2s")
    assert value("AsAdAhKcKs2d2c") == value("AsAdAhKcKs")


def test_a_flush_beats_the_straight_in_the_same_seven_cards():
    assert ev.category_name(value("9s8s7d6s5s2s3c")) == "flush"


def test_a_board_evaluated_once_then_completed_by_each_hole_pair_gives_the_seven_card_value(random_seven_card_hands):
    from numba import njit

    @njit
    def by_board(hands):
        out = np.empty(hands.shape[0], np.int32)
        ranks = np.empty(4, np.int64)
        for i in range(hands.shape[0]):
            b = hands[i].astype(np.int64)
            key5 = ev.board_key(b[2], b[3], b[4], b[5], b[6])
            ev.board_suit_ranks(b[2], b[3], b[4], b[5], b[6], ranks)
            out[i] = ev.evaluate_with_board(key5, ranks, ev.CARD_KEY[b[0]] + ev.CARD_KEY[b[1]], b[0], b[1])
        return out

    hands = random_seven_card_hands[:200_000]
    assert np.array_equal(by_board(hands), ev.evaluate_batch(hands))


def test_evaluate_rejects_repeated_cards_and_wrong_lengths():
    with pytest.raises(ValueError):
        ev.evaluate("AsAsKdQcJh")
    with pytest.raises(ValueError):
        ev.evaluate("AsKd")


# ---------------------------------------------------------------------------------------------
# Consistency of the entry points
# ---------------------------------------------------------------------------------------------
def test_scalar_njit_entry_points_agree_with_the_batch(random_seven_card_hands):
    hands = random_seven_card_hands[:2000].astype(np.int64)
    batch = ev.evaluate_batch(hands)
    assert [ev.evaluate7(*h) for h in hands.tolist()] == batch.tolist()
    assert [ev.evaluate_cards(h) for h in hands] == batch.tolist()
    assert np.array_equal(ev.evaluate_batch_parallel(hands), batch)


def test_card_order_inside_a_hand_does_not_matter(random_seven_card_hands):
    hands = random_seven_card_hands[:20000]
    shuffled = np.random.default_rng(7).permuted(hands, axis=1)
    assert np.array_equal(ev.evaluate_batch(hands), ev.evaluate_batch(shuffled))


@pytest.mark.parametrize("k", [6, 7])
def test_value_is_that_of_the_best_five_card_subset(k):
    hands = ev.deal_random_hands(3000, k, 11 + k).astype(np.int64)
    best = np.zeros(len(hands), np.int32)
    for sub in itertools.combinations(range(k), 5):
        best = np.maximum(best, ev.evaluate_batch(np.ascontiguousarray(hands[:, list(sub)])))
    assert np.array_equal(ev.evaluate_batch(hands), best)


def test_random_hands_are_seeded_and_have_distinct_cards():
    a = ev.deal_random_hands(1000, 7, 5)
    assert np.array_equal(a, ev.deal_random_hands(1000, 7, 5))
    assert not np.array_equal(a, ev.deal_random_hands(1000, 7, 6))
    assert all(len(set(row)) == 7 for row in a.tolist())
    assert a.min() >= 0 and a.max() < 52


# ---------------------------------------------------------------------------------------------
# Oracle: phevaluator (1 = best, 7462 = worst)
# ---------------------------------------------------------------------------------------------
@pytest.mark.oracle
def test_seven_card_values_are_order_isomorphic_to_phevaluator(random_seven_card_hands):
    pheval = pytest.importorskip("phevaluator._pheval")
    hands = random_seven_card_hands
    theirs = np.fromiter(
        itertools.starmap(pheval.evaluate_7cards, hands.astype(np.int64).tolist()), np.int64, len(hands)
    )
    assert_order_isomorphic(ev.evaluate_batch(hands), -theirs)


@pytest.mark.oracle
@pytest.mark.parametrize("k", [5, 6])
def test_five_and_six_card_values_are_order_isomorphic_to_phevaluator(k):
    pheval = pytest.importorskip("phevaluator._pheval")
    fn = {5: pheval.evaluate_5cards, 6: pheval.evaluate_6cards}[k]
    hands = ev.deal_random_hands(200_000, k, 99 + k)
    theirs = np.fromiter(itertools.starmap(fn, hands.astype(np.int64).tolist()), np.int64, len(hands))
    assert_order_isomorphic(ev.evaluate_batch(hands), -theirs)


@pytest.mark.oracle
def test_every_five_card_class_maps_to_phevaluator_reversed():
    """Both scales are dense rankings of the same 7,462 classes: value == 7463 - phevaluator."""
    pheval = pytest.importorskip("phevaluator._pheval")
    hands = ev.deal_random_hands(100_000, 5, 3)
    theirs = np.array(list(itertools.starmap(pheval.evaluate_5cards, hands.astype(np.int64).tolist())))
    assert np.array_equal(ev.evaluate_batch(hands), 7463 - theirs)


# ---------------------------------------------------------------------------------------------
# Exhaustive census (about a second, but excluded by default as the suite's policy for
# whole-space checks)
# ---------------------------------------------------------------------------------------------
@pytest.mark.slow
def test_all_seven_card_hands_have_the_published_category_counts_and_4824_values():
    categories, counts = ev.seven_card_census()
    assert categories.tolist() == [
        23294460,
        58627800,
        31433400,
        6461620,
        6180020,
        4047644,
        3473184,
        224848,
        41584,
    ]
    assert int(categories.sum()) == 133784560
    assert int(np.count_nonzero(counts)) == 4824


# ---------------------------------------------------------------------------------------------
# Exact equity
# ---------------------------------------------------------------------------------------------
def test_aces_against_kings_with_shared_suits_has_the_enumerated_equity():
    assert ev.equity_vs_hand("AsAh", "KsKh") == Fraction(707495, 856152)


def test_suited_ace_king_against_queens_has_the_enumerated_equity():
    assert ev.equity_vs_hand("AsKs", "QdQc") == Fraction(197833, 428076)


def test_equities_of_the_two_hands_sum_to_one():
    a = ev.equity_vs_hand("7c2d", "AhKh")
    b = ev.equity_vs_hand("AhKh", "7c2d")
    assert a + b == 1


def test_showdown_counts_cover_every_board():
    wins, ties, losses = ev.showdown_counts("AsAh", "KsKh")
    assert (wins, ties, wins + ties + losses) == (1410336, 9308, 1712304)


def test_equity_on_a_complete_board_is_zero_half_or_one():
    assert ev.equity_vs_hand("AsAh", "KsKh", "2c7d9hTcJd") == 1
    assert ev.equity_vs_hand("AsAh", "KsKh", "KcKd2h3c4d") == 0
    assert ev.equity_vs_hand("2c3d", "2h3s", "AsKdQhJcTs") == Fraction(1, 2)


def test_equity_on_the_turn_counts_the_44_rivers():
    wins, ties, losses = ev.showdown_counts("AsAh", "KsKh", "2c7d9hTc")
    assert wins + ties + losses == 44
    assert losses == 2  # the two remaining kings


def test_equity_accepts_card_integers_and_rejects_shared_cards():
    assert ev.equity_vs_hand(parse_cards("AsAh"), parse_cards("KsKh")) == Fraction(707495, 856152)
    with pytest.raises(ValueError):
        ev.equity_vs_hand("AsAh", "AsKh")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 12), min_size=1, max_size=300))
def test_buckets_are_placed_largest_first_ties_in_index_order(counts):
    count = np.array(counts, np.int64)
    assert np.array_equal(ev._largest_first(count), np.argsort(-count, kind="mergesort"))
