"""Table-driven 5/6/7-card hold'em hand evaluator (numba).

Scale
-----
A hand value ("rank") is an integer in ``1..7462``; **larger is better**. ``7462`` is a royal
flush, ``1`` is 7-5-4-3-2 of mixed suits; ``0`` is never returned for a valid hand. The scale is
the dense ranking of the 7,462 distinct 5-card hand classes, so ``rank == 7463 - r`` where ``r``
is phevaluator's / treys' Cactus-Kev value (1 = best). A 6- or 7-card hand gets the value of its
best 5-card subset; over all 133,784,560 seven-card hands 4,824 distinct values occur.

Categories (``hand_category``): 0 high card, 1 pair, 2 two pair, 3 trips, 4 straight, 5 flush,
6 full house, 7 quads, 8 straight flush.

How it works (and why it is fast)
---------------------------------
Every card maps to one 64-bit word ``CARD_KEY[card]``:

* bits 0..31: a per-rank key ``RANK_KEY[rank]``. The sum over any multiset of at most 7 ranks
  (each rank at most 4 times) is unique, across multiset sizes too, so the sum of the cards'
  keys identifies the rank multiset. The keys come from a one-off greedy search (each key the
  smallest integer above the previous one that keeps all sums distinct; largest sum
  18,393,157); a test re-checks the property.
* bits 32..47: one 4-bit counter per suit. The sum starts at 3 per suit (``SUIT_BIAS``), so a
  suit's counter reaches 8 (its bit 3 is set) exactly when the suit holds 5 or more cards.

Evaluating is then: seven loads and adds; one AND to detect a flush; if none, a perfect hash of
the rank sum (hash-and-displace: one multiply, two small tables that stay in L2) gives the
value. With a flush (about 3% of random 7-card hands) the suit's 13-bit rank mask indexes an
8,192-entry table; with at most 7 cards a flush excludes quads and full houses, so the flush
table alone decides.

All tables are built once at import by cached numba kernels (well under a second after the
first compile) and are frozen into the evaluation kernels as constants.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Sequence

import numpy as np
from numba import njit

from gamesolve.threads import run_blocks

from .cards import NUM_CARDS, parse_cards

__all__ = [
    "NUM_HAND_VALUES",
    "CATEGORY_NAMES",
    "CATEGORY_FIRST",
    "evaluate5",
    "evaluate6",
    "evaluate7",
    "evaluate_with_board",
    "board_key",
    "board_suit_ranks",
    "evaluate_cards",
    "evaluate_batch",
    "evaluate_batch_parallel",
    "hand_category",
    "evaluate",
    "category_name",
    "showdown_counts",
    "equity_vs_hand",
    "deal_random_hands",
    "seven_card_census",
]

NUM_HAND_VALUES = 7462

CATEGORY_NAMES = (
    "high card",
    "pair",
    "two pair",
    "three of a kind",
    "straight",
    "flush",
    "full house",
    "four of a kind",
    "straight flush",
)
# First value of each category on the 1..7462 scale (index 9 = one past the last value).
# Sizes: 1277 high card, 2860 pair, 858 two pair, 858 trips, 10 straights, 1277 flushes,
# 156 full houses, 156 quads, 10 straight flushes.
CATEGORY_FIRST = np.array([1, 1278, 4138, 4996, 5854, 5864, 7141, 7297, 7453, 7463], dtype=np.int32)

# Greedy unique-sum rank keys (see module docstring); the test suite re-checks uniqueness.
RANK_KEY = np.array(
    [1, 5, 24, 112, 521, 2247, 9244, 30823, 103066, 250154, 667453, 1526359, 3453520],
    dtype=np.int64,
)
RANK_SUM_MASK = np.int64((1 << 32) - 1)
SUIT_SHIFT = 32
SUIT_BIAS = np.int64(0x3333 << SUIT_SHIFT)  # each suit counter starts at 3
FLUSH_BITS = np.int64(0x8888 << SUIT_SHIFT)  # counter >= 8  <=>  >= 5 cards of the suit
# Perfect hash of the 73,775 rank sums of 5..7 cards into 2**17 int16 slots (256 KiB) with
# 2**14 int32 displacements (64 KiB): both stay in L2. Any multiplier for which the build
# succeeds would do (the build checks injectivity).
HASH_MULT = np.int64(0x2545F4914F6CDD1D)
HASH_BUCKET_BITS = 14
HASH_TABLE_BITS = 17
_BUCKET_SHIFT = 64 - HASH_BUCKET_BITS
_BUCKET_MASK = (1 << HASH_BUCKET_BITS) - 1
_H_SHIFT = 64 - HASH_BUCKET_BITS - HASH_TABLE_BITS
_TABLE_MASK = (1 << HASH_TABLE_BITS) - 1

_B13 = 13


# ----------------------------------------------------------------------------------------------
# Table construction (run once at import; cached kernels, so only the first import compiles).
# ----------------------------------------------------------------------------------------------
@njit(cache=True)
def _straight_top(mask):
    """Highest card of the best straight in a 13-bit rank mask, or -1 (wheel A-5 -> 3)."""
    for top in range(12, 3, -1):
        window = 0x1F << (top - 4)
        if mask & window == window:
            return top
    if mask & 0x100F == 0x100F:  # A,2,3,4,5
        return 3
    return -1


@njit(cache=True)
def _top_ranks(mask, k):
    """The k highest ranks of `mask` as a base-13 number, highest first (order-preserving)."""
    value = 0
    taken = 0
    for r in range(12, -1, -1):
        if taken == k:
            break
        if mask >> r & 1:
            value = value * _B13 + r
            taken += 1
    return value


@njit(cache=True)
def _highest(mask):
    for r in range(12, -1, -1):
        if mask >> r & 1:
            return r
    return -1


@njit(cache=True)
def _class_key_counts(counts):
    """Order-preserving key of the best non-flush 5-card hand in a rank multiset (5..7 cards).

    key = category * 13**5 + a within-category lexicographic number below 13**5.
    """
    m1 = 0
    m2 = 0
    m3 = 0
    m4 = 0
    for r in range(13):
        c = counts[r]
        if c >= 1:
            m1 |= 1 << r
        if c >= 2:
            m2 |= 1 << r
        if c >= 3:
            m3 |= 1 << r
        if c >= 4:
            m4 |= 1 << r
    base = _B13**5
    if m4:
        q = _highest(m4)
        return 7 * base + q * _B13 + _highest(m1 & ~(1 << q))
    if m3:
        t = _highest(m3)
        rest = m2 & ~(1 << t)
        if rest:
            return 6 * base + t * _B13 + _highest(rest)
    st = _straight_top(m1)
    if st >= 0:
        return 4 * base + st
    if m3:
        t = _highest(m3)
        return 3 * base + t * _B13**2 + _top_ranks(m1 & ~(1 << t), 2)
    if m2:
        p1 = _highest(m2)
        rest = m2 & ~(1 << p1)
        if rest:
            p2 = _highest(rest)
            kick = _highest(m1 & ~(1 << p1) & ~(1 << p2))
            return 2 * base + (p1 * _B13 + p2) * _B13 + kick
        return 1 * base + p1 * _B13**3 + _top_ranks(m1 & ~(1 << p1), 3)
    return _top_ranks(m1, 5)


@njit(cache=True)
def _class_key_flush(mask):
    """Key of the best 5-card hand inside one suit holding the ranks in `mask` (>= 5 bits)."""
    st = _straight_top(mask)
    if st >= 0:
        return 8 * _B13**5 + st
    return 5 * _B13**5 + _top_ranks(mask, 5)


@njit(cache=True)
def _enumerate_rank_multisets(rank_key):
    """All rank multisets of 5..7 cards (each rank <= 4 times): their key sums, sizes, keys."""
    cap = 80000
    sums = np.empty(cap, np.int64)
    sizes = np.empty(cap, np.int64)
    class_keys = np.empty(cap, np.int64)
    counts = np.zeros(13, np.int64)
    n = 0
    # Odometer over counts[0..12] in 0..4 with total <= 7, iterative (no recursion in cached code).
    while True:
        total = 0
        for r in range(13):
            total += counts[r]
        if 5 <= total <= 7:
            s = 0
            for r in range(13):
                s += counts[r] * rank_key[r]
            sums[n] = s
            sizes[n] = total
            class_keys[n] = _class_key_counts(counts)
            n += 1
        # advance: increment the lowest digit that may grow, zero the ones below it
        r = 0
        while r < 13:
            if counts[r] < 4 and total < 7:
                counts[r] += 1
                break
            total -= counts[r]
            counts[r] = 0
            r += 1
        if r == 13:
            break
    return sums[:n], sizes[:n], class_keys[:n]


@njit(cache=True)
def _flush_class_keys():
    keys = np.zeros(8192, np.int64)
    for mask in range(8192):
        bits = 0
        for r in range(13):
            bits += mask >> r & 1
        if bits >= 5:
            keys[mask] = _class_key_flush(mask)
    return keys


@njit(cache=True)
def _largest_first(count):
    """The buckets by decreasing ``count``, ties in index order: ``np.argsort(-count,
    kind="mergesort")`` as a counting sort (the counts are small), which compiles in a
    fraction of the merge sort's seconds: every hold'em command builds these tables."""
    top = 0
    for b in range(count.shape[0]):
        top = max(top, count[b])
    at = np.zeros(top + 1, np.int64)  # first place of each count, largest counts first
    for b in range(count.shape[0]):
        at[count[b]] += 1
    first = 0
    for c in range(top, -1, -1):
        first, at[c] = first + at[c], first
    order = np.empty(count.shape[0], np.int64)
    for b in range(count.shape[0]):
        order[at[count[b]]] = b
        at[count[b]] += 1
    return order


@njit(cache=True)
def _build_displacements(keys, mult, bucket_bits, table_bits):
    """Perfect hash by hash-and-displace (Belazzougui, Botelho & Dietzfelbinger 2009, "CHD").

    ``m = key * mult`` (wrapping int64); bucket = top ``bucket_bits`` of m, h = the next
    ``table_bits`` bits; slot = (h + disp[bucket]) mod 2**table_bits. Buckets are placed largest
    first, each with the smallest displacement that lands all its keys on free slots.
    Returns (disp, ok); ok is False if some bucket holds two keys with equal h (then pick
    another multiplier).
    """
    n_buckets = 1 << bucket_bits
    size = 1 << table_bits
    n = keys.size
    bucket = np.empty(n, np.int64)
    h = np.empty(n, np.int64)
    for i in range(n):
        m = keys[i] * mult
        bucket[i] = (m >> (64 - bucket_bits)) & (n_buckets - 1)
        h[i] = (m >> (64 - bucket_bits - table_bits)) & (size - 1)
    count = np.zeros(n_buckets, np.int64)
    for i in range(n):
        count[bucket[i]] += 1
    start = np.zeros(n_buckets + 1, np.int64)
    for b in range(n_buckets):
        start[b + 1] = start[b] + count[b]
    fill = start[:-1].copy()
    members = np.empty(n, np.int64)
    for i in range(n):
        members[fill[bucket[i]]] = i
        fill[bucket[i]] += 1
    order = _largest_first(count)
    occupied = np.zeros(size, np.bool_)
    disp = np.zeros(n_buckets, np.int32)
    for b in order:
        if count[b] == 0:
            break
        found = False
        for d in range(size):
            ok = True
            for j in range(start[b], start[b + 1]):
                slot = (h[members[j]] + d) & (size - 1)
                if occupied[slot]:
                    ok = False
                    break
                for j2 in range(start[b], j):  # two keys of the bucket on one slot
                    if (h[members[j2]] + d) & (size - 1) == slot:
                        ok = False
                        break
                if not ok:
                    break
            if ok:
                found = True
                for j in range(start[b], start[b + 1]):
                    occupied[(h[members[j]] + d) & (size - 1)] = True
                disp[b] = d
                break
        if not found:
            return disp, False
    return disp, True


def _build_tables():
    sums, sizes, ckeys = _enumerate_rank_multisets(RANK_KEY)
    fkeys = _flush_class_keys()
    five_card = np.concatenate([ckeys[sizes == 5], fkeys[fkeys > 0]])
    classes = np.unique(five_card)
    if classes.size != NUM_HAND_VALUES:
        raise RuntimeError(f"evaluator tables: {classes.size} 5-card classes, expected 7462")
    if np.unique(sums).size != sums.size:
        raise RuntimeError("evaluator tables: rank keys do not give unique multiset sums")
    values = np.searchsorted(classes, ckeys) + 1
    if not np.array_equal(classes[values - 1], ckeys):  # every 6/7-card best hand is a 5-card class
        raise RuntimeError("evaluator tables: a best-5 key is not a 5-card class")
    disp, ok = _build_displacements(sums, HASH_MULT, HASH_BUCKET_BITS, HASH_TABLE_BITS)
    if not ok:
        raise RuntimeError("evaluator tables: perfect hash failed; choose another HASH_MULT")
    m = sums * HASH_MULT  # wraps like the kernel's int64 product
    bucket = (m >> (64 - HASH_BUCKET_BITS)) & ((1 << HASH_BUCKET_BITS) - 1)
    h = (m >> (64 - HASH_BUCKET_BITS - HASH_TABLE_BITS)) & ((1 << HASH_TABLE_BITS) - 1)
    slots = (h + disp[bucket]) & ((1 << HASH_TABLE_BITS) - 1)
    table = np.zeros(1 << HASH_TABLE_BITS, np.int16)
    table[slots] = values
    if np.count_nonzero(table) != values.size:
        raise RuntimeError("evaluator tables: perfect hash is not injective")
    flush = np.zeros(8192, np.int16)
    has = fkeys > 0
    flush[has] = np.searchsorted(classes, fkeys[has]) + 1
    card_key = np.empty(NUM_CARDS, np.int64)
    for c in range(NUM_CARDS):
        card_key[c] = RANK_KEY[c >> 2] + (np.int64(1) << (SUIT_SHIFT + 4 * (c & 3)))
    return card_key, disp, table, flush


CARD_KEY, HASH_DISP, HASH_VALUES, FLUSH_VALUES = _build_tables()


# ----------------------------------------------------------------------------------------------
# Evaluation kernels
# ----------------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _nonflush(key):
    m = (key & RANK_SUM_MASK) * HASH_MULT  # int64 product wraps, as in the table build
    bucket = (m >> _BUCKET_SHIFT) & _BUCKET_MASK
    slot = (((m >> _H_SHIFT) & _TABLE_MASK) + HASH_DISP[bucket]) & _TABLE_MASK
    return np.int32(HASH_VALUES[slot])


@njit(cache=True, inline="always")
def _flush_suit(key):
    f = (key >> SUIT_SHIFT) & 0x8888
    if f & 0x8:
        return 0
    if f & 0x80:
        return 1
    if f & 0x800:
        return 2
    return 3


@njit(cache=True, inline="always")
def _suit_bit(card, suit):
    # 1 << rank if the card is of `suit`, else 0 (branch-free); int64 so that int8 cards work
    c = np.int64(card)
    return np.int64((c & 3) == suit) << (c >> 2)


@njit(cache=True)
def evaluate7(c0, c1, c2, c3, c4, c5, c6):
    """Value (1..7462, larger is better) of the best 5-card hand among 7 distinct cards."""
    key = (
        SUIT_BIAS
        + CARD_KEY[c0]
        + CARD_KEY[c1]
        + CARD_KEY[c2]
        + CARD_KEY[c3]
        + CARD_KEY[c4]
        + CARD_KEY[c5]
        + CARD_KEY[c6]
    )
    if key & FLUSH_BITS:  # rare (~3%): the flush table decides alone
        s = _flush_suit(key)
        m = (
            _suit_bit(c0, s)
            | _suit_bit(c1, s)
            | _suit_bit(c2, s)
            | _suit_bit(c3, s)
            | _suit_bit(c4, s)
            | _suit_bit(c5, s)
            | _suit_bit(c6, s)
        )
        return np.int32(FLUSH_VALUES[m])
    return _nonflush(key)


@njit(cache=True, inline="always")
def board_key(b0, b1, b2, b3, b4):
    """The key of a 5-card board (suit counters biased, rank sums) that
    :func:`evaluate_with_board` completes with two hole cards."""
    return SUIT_BIAS + CARD_KEY[b0] + CARD_KEY[b1] + CARD_KEY[b2] + CARD_KEY[b3] + CARD_KEY[b4]


@njit(cache=True, inline="always")
def board_suit_ranks(b0, b1, b2, b3, b4, out):
    """``out[s]``: the ranks (bit per rank) of the board's cards of suit ``s``."""
    for s in range(4):
        out[s] = _suit_bit(b0, s) | _suit_bit(b1, s) | _suit_bit(b2, s) | _suit_bit(b3, s) | _suit_bit(b4, s)


@njit(cache=True, inline="always")
def evaluate_with_board(key5, ranks5, hole_key, a, b):
    """:func:`evaluate7` of the hole cards ``a``, ``b`` with a board given by its
    :func:`board_key` and :func:`board_suit_ranks`, and ``hole_key`` = ``CARD_KEY[a] +
    CARD_KEY[b]``: the same value, for loops that evaluate every hole pair on one board
    (the board's five keys and suit bits are summed once, not once per pair)."""
    key = key5 + hole_key
    if key & FLUSH_BITS:
        s = _flush_suit(key)
        return np.int32(FLUSH_VALUES[ranks5[s] | _suit_bit(a, s) | _suit_bit(b, s)])
    return _nonflush(key)


@njit(cache=True)
def evaluate6(c0, c1, c2, c3, c4, c5):
    """Value of the best 5-card hand among 6 distinct cards (same scale as evaluate7)."""
    key = SUIT_BIAS + CARD_KEY[c0] + CARD_KEY[c1] + CARD_KEY[c2] + CARD_KEY[c3] + CARD_KEY[c4] + CARD_KEY[c5]
    if key & FLUSH_BITS:
        s = _flush_suit(key)
        m = (
            _suit_bit(c0, s)
            | _suit_bit(c1, s)
            | _suit_bit(c2, s)
            | _suit_bit(c3, s)
            | _suit_bit(c4, s)
            | _suit_bit(c5, s)
        )
        return np.int32(FLUSH_VALUES[m])
    return _nonflush(key)


@njit(cache=True)
def evaluate5(c0, c1, c2, c3, c4):
    """Value of a 5-card hand (same scale as evaluate7)."""
    key = SUIT_BIAS + CARD_KEY[c0] + CARD_KEY[c1] + CARD_KEY[c2] + CARD_KEY[c3] + CARD_KEY[c4]
    if key & FLUSH_BITS:
        s = _flush_suit(key)
        m = _suit_bit(c0, s) | _suit_bit(c1, s) | _suit_bit(c2, s) | _suit_bit(c3, s) | _suit_bit(c4, s)
        return np.int32(FLUSH_VALUES[m])
    return _nonflush(key)


@njit(cache=True)
def evaluate_cards(cards):
    """Value of 5, 6 or 7 distinct cards given as a 1-d integer array (0 if the length is wrong)."""
    n = cards.shape[0]
    if n < 5 or n > 7:
        return np.int32(0)
    key = SUIT_BIAS
    for i in range(n):
        key += CARD_KEY[cards[i]]
    if key & FLUSH_BITS:
        s = _flush_suit(key)
        m = 0
        for i in range(n):
            m |= _suit_bit(cards[i], s)
        return np.int32(FLUSH_VALUES[m])
    return _nonflush(key)


@njit(cache=True)
def evaluate_batch(cards):
    """Values of n hands given as an (n, k) integer array, k in 5..7. Returns int32[n].

    Single-threaded, so that throughput figures are per core; see evaluate_batch_parallel.
    No validation (hot path): cards must be distinct and in 0..51, else the value is
    meaningless (but memory-safe for repeated cards). ``evaluate`` checks its input.
    """
    out = np.zeros(cards.shape[0], np.int32)
    _evaluate_rows(cards, out, 0, cards.shape[0])
    return out


def evaluate_batch_parallel(cards: np.ndarray) -> np.ndarray:
    """evaluate_batch spread over numba's threads (each row is independent): rows in blocks,
    each a ``nogil`` kernel on a Python thread (:func:`gamesolve.threads.run_blocks`; not
    ``prange``, whose wrapper compiles the body again, see docs/benchmarks.md, issue 36)."""
    out = np.zeros(cards.shape[0], np.int32)
    run_blocks(cards.shape[0], lambda lo, hi: _evaluate_rows(cards, out, lo, hi))
    return out


@njit(cache=True, nogil=True)
def _evaluate_rows(cards, out, lo, hi):
    """:func:`evaluate_batch_parallel` of the rows ``lo .. hi - 1`` into ``out``."""
    k = cards.shape[1]
    if k == 7:  # the hot case, fully unrolled
        for i in range(lo, hi):
            out[i] = evaluate7(
                cards[i, 0], cards[i, 1], cards[i, 2], cards[i, 3], cards[i, 4], cards[i, 5], cards[i, 6]
            )
    else:
        for i in range(lo, hi):
            out[i] = evaluate_cards(cards[i])


@njit(cache=True)
def hand_category(value):
    """Category of a hand value: 0 high card, 1 pair, ..., 7 quads, 8 straight flush."""
    c = 8
    while c > 0 and value < CATEGORY_FIRST[c]:
        c -= 1
    return c


@njit(cache=True)
def deal_random_hands(n, k, seed):
    """n hands of k distinct cards each (int8[n, k]), from a seeded partial Fisher-Yates shuffle.

    Deterministic for a given seed (numba's own Mersenne Twister, seeded inside the kernel).
    """
    np.random.seed(seed)
    out = np.empty((n, k), np.int8)
    deck = np.arange(NUM_CARDS)
    for i in range(n):
        for j in range(k):
            t = j + np.random.randint(0, NUM_CARDS - j)
            tmp = deck[j]
            deck[j] = deck[t]
            deck[t] = tmp
            out[i, j] = deck[j]
    return out


@njit(cache=True)
def seven_card_census():
    """Evaluate all C(52, 7) = 133,784,560 seven-card hands.

    Returns (category_counts int64[9], value_counts int64[7463]); the number of distinct
    values is ``(value_counts > 0).sum()`` (4,824). Nested loops with partial key sums, so
    most of the work per hand is one add and the lookup.
    """
    cat = np.zeros(9, np.int64)
    counts = np.zeros(NUM_HAND_VALUES + 1, np.int64)
    for a in range(46):
        for b in range(a + 1, 47):
            for c in range(b + 1, 48):
                for d in range(c + 1, 49):
                    for e in range(d + 1, 50):
                        for f in range(e + 1, 51):
                            for g in range(f + 1, 52):
                                counts[evaluate7(a, b, c, d, e, f, g)] += 1
    for v in range(1, NUM_HAND_VALUES + 1):
        cat[hand_category(v)] += counts[v]
    return cat, counts


# ----------------------------------------------------------------------------------------------
# Exact heads-up equity by enumerating every board completion
# ----------------------------------------------------------------------------------------------
@njit(cache=True)
def _showdown_counts(a0, a1, b0, b1, board, deck):
    """(wins, ties, losses) of hand a against hand b over all completions of `board` from `deck`.

    Boards are enumerated as k-combinations of deck indices with an explicit index array
    (iterative, no recursion).
    """
    need = 5 - board.shape[0]
    full = np.empty(5, np.int64)
    for i in range(board.shape[0]):
        full[i] = board[i]
    idx = np.arange(need)
    nd = deck.shape[0]
    wins = 0
    ties = 0
    losses = 0
    while True:
        for j in range(need):
            full[board.shape[0] + j] = deck[idx[j]]
        va = evaluate7(a0, a1, full[0], full[1], full[2], full[3], full[4])
        vb = evaluate7(b0, b1, full[0], full[1], full[2], full[3], full[4])
        if va > vb:
            wins += 1
        elif va == vb:
            ties += 1
        else:
            losses += 1
        # next combination in lexicographic order
        j = need - 1
        while j >= 0 and idx[j] == nd - need + j:
            j -= 1
        if j < 0:
            break
        idx[j] += 1
        for t in range(j + 1, need):
            idx[t] = idx[t - 1] + 1
    return wins, ties, losses


def _as_cards(cards) -> list[int]:
    if isinstance(cards, str):
        return parse_cards(cards)
    out = [int(c) for c in cards]
    for c in out:
        if not 0 <= c < NUM_CARDS:
            raise ValueError(f"not a card index: {c}")
    return out


def showdown_counts(hole_a, hole_b, board=()) -> tuple[int, int, int]:
    """(wins, ties, losses) for hole_a against hole_b over every completion of the board.

    Cards are strings like ``"AsAh"`` or sequences of card integers; the board has 0, 3, 4 or
    5 cards.
    """
    a, b, bd = _as_cards(hole_a), _as_cards(hole_b), _as_cards(board)
    if len(a) != 2 or len(b) != 2:
        raise ValueError("each hole holds exactly 2 cards")
    if len(bd) not in (0, 3, 4, 5):
        raise ValueError(f"a board has 0, 3, 4 or 5 cards, not {len(bd)}")
    used = a + b + bd
    if len(set(used)) != len(used):
        raise ValueError("cards repeat between the holes and the board")
    deck = np.array([c for c in range(NUM_CARDS) if c not in set(used)], dtype=np.int64)
    w, t, l = _showdown_counts(a[0], a[1], b[0], b[1], np.array(bd, dtype=np.int64), deck)
    return int(w), int(t), int(l)


def equity_vs_hand(hole_a, hole_b, board=()) -> Fraction:
    """Exact equity of hole_a against hole_b: (wins + ties/2) / showdowns, as a Fraction.

    >>> equity_vs_hand("AsAh", "KsKh")
    Fraction(707495, 856152)
    """
    w, t, l = showdown_counts(hole_a, hole_b, board)
    return Fraction(2 * w + t, 2 * (w + t + l))


# ----------------------------------------------------------------------------------------------
# Python conveniences
# ----------------------------------------------------------------------------------------------
def evaluate(cards: str | Sequence[int]) -> int:
    """Value (1..7462, larger is better) of 5, 6 or 7 distinct cards, e.g. ``evaluate("AsKsQsJsTs2c3d")``."""
    cs = _as_cards(cards)
    if not 5 <= len(cs) <= 7:
        raise ValueError(f"evaluate takes 5 to 7 cards, not {len(cs)}")
    if len(set(cs)) != len(cs):
        raise ValueError("cards repeat")
    return int(evaluate_cards(np.array(cs, dtype=np.int64)))


def category_name(value: int) -> str:
    """Name of the category of a hand value, e.g. ``"full house"``."""
    if not 1 <= value <= NUM_HAND_VALUES:
        raise ValueError(f"not a hand value: {value}")
    return CATEGORY_NAMES[int(hand_category(value))]
