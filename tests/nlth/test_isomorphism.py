"""Hand isomorphism: one index per suit-isomorphism class, in [0, size), invertible."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from gamesolve_nlth.cards import parse_cards
from gamesolve_nlth.evaluator import deal_random_hands
from gamesolve_nlth.isomorphism import HandIndexer

PUBLISHED_SIZES = {
    (2, 3, 1, 1): [169, 1_286_792, 55_190_538, 2_428_287_420],
    (2, 5): [169, 123_156_254],
    (2, 4): [169, 13_960_050],
    (2, 3): [169, 1_286_792],
}
SUIT_PERMUTATIONS = list(itertools.permutations(range(4)))


def burnside_count(rounds) -> int:
    """Number of suit-isomorphism classes of deals with `rounds` cards per round (Burnside).

    A deal is fixed by a suit permutation iff every round's set is a union of the permutation's
    card orbits (a suit cycle of length L gives 13 orbits of L cards).
    """
    total = 0
    for perm in SUIT_PERMUTATIONS:
        orbit_sizes = []
        seen = set()
        for s in range(4):
            if s in seen:
                continue
            length, t = 0, s
            while t not in seen:
                seen.add(t)
                t = perm[t]
                length += 1
            orbit_sizes += [length] * 13
        ways = {tuple([0] * len(rounds)): 1}  # filled cards per round -> number of ways
        for size in orbit_sizes:
            nxt = dict(ways)
            for filled, w in ways.items():
                for i, cap in enumerate(rounds):
                    if filled[i] + size <= cap:
                        f = list(filled)
                        f[i] += size
                        nxt[tuple(f)] = nxt.get(tuple(f), 0) + w
            ways = nxt
        total += ways.get(tuple(rounds), 0)
    assert total % 24 == 0
    return total // 24


def canonical_keys(hands: np.ndarray, rounds) -> np.ndarray:
    """An independent class label: the smallest encoding over the 24 suit relabellings of the
    deal with each round's cards sorted."""
    hands = hands.astype(np.int64)
    bounds = np.cumsum([0, *rounds])
    best = None
    for perm in SUIT_PERMUTATIONS:
        relabelled = (hands >> 2) * 4 + np.array(perm)[hands & 3]
        parts = [np.sort(relabelled[:, bounds[i] : bounds[i + 1]], axis=1) for i in range(len(rounds))]
        key = np.zeros(len(hands), np.int64)
        for col in np.concatenate(parts, axis=1).T:
            key = key * 52 + col
        best = key if best is None else np.minimum(best, key)
    return best


# ---------------------------------------------------------------------------------------------
# Sizes
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("rounds", list(PUBLISHED_SIZES))
def test_round_sizes_are_the_published_counts(rounds):
    indexer = HandIndexer(rounds)
    assert [indexer.size(r) for r in range(len(rounds))] == PUBLISHED_SIZES[rounds]


@pytest.mark.parametrize("rounds", [(2,), (2, 3), (2, 3, 1), (2, 3, 1, 1), (2, 4), (2, 5), (1, 1, 1)])
def test_last_round_size_equals_the_burnside_count_of_classes(rounds):
    indexer = HandIndexer(rounds)
    assert indexer.size(len(rounds) - 1) == burnside_count(rounds)


# ---------------------------------------------------------------------------------------------
# Exhaustive preflop and flop
# ---------------------------------------------------------------------------------------------
def test_all_1326_preflop_hands_fill_exactly_the_169_indices(street_indexer):
    hands = np.array(list(itertools.combinations(range(52), 2)), np.int8)
    idx = street_indexer.index_batch(hands, 0)
    assert len(np.unique(idx)) == 169
    assert idx.min() == 0 and idx.max() + 1 == street_indexer.size(0)


def test_preflop_index_separates_pairs_suited_and_offsuit(street_indexer):
    ix = street_indexer
    assert ix.index("AsAh") == ix.index("AdAc")
    assert ix.index("AsKs") == ix.index("AhKh") != ix.index("AsKh")
    assert ix.index("AsKh") == ix.index("KdAc")


def test_all_25989600_flop_deals_fill_exactly_the_flop_indices(street_indexer):
    size = street_indexer.size(1)
    seen = np.zeros(size, np.bool_)
    flops = np.array(list(itertools.combinations(range(50), 3)), np.int64)  # positions in the rest
    hands = np.empty((len(flops), 5), np.int8)
    low, high = size, -1
    for hole in itertools.combinations(range(52), 2):
        rest = np.setdiff1d(np.arange(52), hole)
        hands[:, :2] = hole
        hands[:, 2:] = rest[flops]
        idx = street_indexer.index_batch(hands, 1)
        low, high = min(low, int(idx.min())), max(high, int(idx.max()))
        seen[idx] = True
    assert low == 0 and high + 1 == size
    assert int(seen.sum()) == 1_286_792


# ---------------------------------------------------------------------------------------------
# Round trips and ranges on samples (turn and river are too large to enumerate in a test)
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("structure", ["street", "board"])
def test_index_of_unindex_is_the_identity_on_sampled_indices(structure, street_indexer, board_indexer):
    ix = street_indexer if structure == "street" else board_indexer
    rng = np.random.default_rng(2024)
    for r in range(ix.num_rounds):
        size = ix.size(r)
        sample = np.concatenate([[0, size - 1], rng.integers(0, size, 20_000)])
        hands = ix.unindex_batch(sample, r)
        assert np.array_equal(ix.index_batch(hands, r), sample)


@pytest.mark.parametrize("structure", ["street", "board"])
def test_unindexed_hands_are_valid_deals(structure, street_indexer, board_indexer):
    ix = street_indexer if structure == "street" else board_indexer
    rng = np.random.default_rng(5)
    for r in range(ix.num_rounds):
        hands = ix.unindex_batch(rng.integers(0, ix.size(r), 5000), r)
        assert hands.shape == (5000, ix.cards_in(r))
        assert hands.min() >= 0 and hands.max() < 52
        assert all(len(set(h)) == len(h) for h in hands.tolist())


@pytest.mark.parametrize("structure", ["street", "board"])
def test_unindex_of_index_is_isomorphic_to_the_hand(structure, street_indexer, board_indexer):
    ix = street_indexer if structure == "street" else board_indexer
    hands = deal_random_hands(20_000, 7, 8)
    for r in range(ix.num_rounds):
        h = np.ascontiguousarray(hands[:, : ix.cards_in(r)])
        canon = ix.unindex_batch(ix.index_batch(h, r), r)
        rounds = ix.rounds[: r + 1]
        assert np.array_equal(canonical_keys(canon, rounds), canonical_keys(h, rounds))


@pytest.mark.parametrize("structure", ["street", "board"])
def test_indices_of_random_deals_lie_in_range(structure, street_indexer, board_indexer):
    ix = street_indexer if structure == "street" else board_indexer
    hands = deal_random_hands(200_000, 7, 9)
    for r in range(ix.num_rounds):
        idx = ix.index_batch(np.ascontiguousarray(hands[:, : ix.cards_in(r)]), r)
        assert idx.min() >= 0 and idx.max() < ix.size(r)


def test_unindex_of_out_of_range_indices_is_refused(street_indexer):
    rows = street_indexer.unindex_batch(np.array([-1, street_indexer.size(3)]), 3)
    assert (rows == -1).all()
    with pytest.raises(ValueError):
        street_indexer.unindex(street_indexer.size(2), 2)


# ---------------------------------------------------------------------------------------------
# Same class <=> same index
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("rounds", "n"), [((2, 3), 300_000), ((2, 3, 1), 200_000), ((2, 4), 200_000)])
def test_hands_get_equal_indices_exactly_when_their_classes_are_equal(rounds, n):
    """On a sample (with many repeated classes for the flop), class label <-> index is 1:1."""
    ix = HandIndexer(rounds)
    hands = deal_random_hands(n, sum(rounds), 17)
    idx = ix.index_batch(hands)
    labels = canonical_keys(hands, rounds)
    pairs = np.unique(np.stack([labels, idx], axis=1), axis=0)
    assert len(pairs) == len(np.unique(labels)) == len(np.unique(idx))


def test_hands_of_different_classes_get_different_river_indices(street_indexer):
    hands = deal_random_hands(100_000, 7, 21)
    idx = street_indexer.index_batch(hands, 3)
    labels = canonical_keys(hands, (2, 3, 1, 1))
    assert len(np.unique(idx)) == len(np.unique(labels))


def test_moving_a_card_between_streets_changes_the_class(street_indexer, board_indexer):
    # same seven cards, turn and river swapped: isomorphic only when the board is one set
    a = "AsKd" + "Qh7c2s" + "9d" + "3c"
    b = "AsKd" + "Qh7c2s" + "3c" + "9d"
    assert street_indexer.index(a) != street_indexer.index(b)
    assert board_indexer.index(a) == board_indexer.index(b)


# ---------------------------------------------------------------------------------------------
# Invariances (property tests)
# ---------------------------------------------------------------------------------------------
deals = hs.permutations(range(52)).map(lambda p: p[:7])


@settings(max_examples=150, deadline=None)
@given(deal=deals, perm=hs.permutations(range(4)))
def test_index_is_invariant_under_any_suit_permutation(deal, perm, street_indexer, board_indexer):
    relabelled = [(c >> 2) * 4 + perm[c & 3] for c in deal]
    for ix in (street_indexer, board_indexer):
        for r in range(ix.num_rounds):
            k = ix.cards_in(r)
            assert ix.index(deal[:k], r) == ix.index(relabelled[:k], r)


@settings(max_examples=150, deadline=None)
@given(deal=deals, rng=hs.randoms(use_true_random=False))
def test_index_is_invariant_under_reordering_cards_within_a_street(deal, rng, street_indexer, board_indexer):
    for ix in (street_indexer, board_indexer):
        bounds = list(itertools.accumulate([0, *ix.rounds]))
        shuffled = []
        for i in range(ix.num_rounds):
            part = list(deal[bounds[i] : bounds[i + 1]])
            rng.shuffle(part)
            shuffled += part
        for r in range(ix.num_rounds):
            k = ix.cards_in(r)
            assert ix.index(deal[:k], r) == ix.index(shuffled[:k], r)


# ---------------------------------------------------------------------------------------------
# Wrapper behaviour
# ---------------------------------------------------------------------------------------------
def test_round_defaults_to_the_one_the_card_count_implies(street_indexer):
    assert street_indexer.index("AsKdQh7c2s") == street_indexer.index("AsKdQh7c2s", 1)
    assert street_indexer.index_batch(np.array([parse_cards("AsKdQh7c2s")])).tolist() == [
        street_indexer.index("AsKdQh7c2s")
    ]


def test_bad_hands_are_refused(street_indexer):
    with pytest.raises(ValueError):
        street_indexer.index("AsAs")
    with pytest.raises(ValueError):
        street_indexer.index("AsKdQh")  # no round has 3 cards
    with pytest.raises(ValueError):
        street_indexer.index("AsKd", 1)
    with pytest.raises(ValueError):
        HandIndexer((2, 3, 3))  # more than 7 cards


def test_batch_index_marks_hands_with_a_repeated_card_with_minus_one(street_indexer):
    hands = np.array([parse_cards("AsAsKdQh7c2s9d"), parse_cards("AsAhKdQh7c2s9d")])
    idx = street_indexer.index_batch(hands, 3)
    assert idx[0] == -1 and 0 <= idx[1] < street_indexer.size(3)


def test_unindex_returns_a_hand_of_the_class(street_indexer):
    i = street_indexer.index("AsKd Qh7c2s 9d")
    hand = street_indexer.unindex(i, 2)
    assert len(hand) == 6 and street_indexer.index(hand, 2) == i

