"""Hand isomorphism: a perfect index of suit-isomorphism classes of hold'em hands (numba).

After K. Waugh, "A Fast and Optimal Hand Isomorphism Algorithm" (AAAI workshop 2013); the code
is written from the paper's idea, not from its C implementation.

A *hand* for round r of a round structure such as ``(2, 3, 1, 1)`` (hole | flop | turn | river)
is the sequence of card sets dealt in rounds 0..r. Two hands are isomorphic when a permutation of
the four suits maps one onto the other round by round (cards inside one round are unordered).
``HandIndexer`` maps every hand to an index in ``[0, size(r))``, equal for isomorphic hands and
different otherwise, and maps an index back to a canonical hand. Structures:

* ``(2, 3, 1, 1)``: 169; 1,286,792; 55,190,538; 2,428,287,420 (the board by street, as in a game tree)
* ``(2, 5)`` / ``(2, 4)`` / ``(2, 3)``: the whole board as one set: 123,156,254; 13,960,050; 1,286,792.

How the index is built
----------------------
1. Per suit, the hand is a sequence of disjoint rank sets, one per round. Its *shape* is the
   vector of set sizes; the number of suit-sequences of a shape is
   ``M(shape) = prod_i C(13 - sum_{j<i} n_j, n_i)``. A suit-sequence is ranked in ``[0, M)`` by
   mixed radix over rounds (round 0 least significant) of each set's colexicographic rank among
   the ranks not used by earlier rounds.
2. The four suits are sorted by (shape, rank) descending. The sorted shapes (the
   *configuration*) fix the block of indices; configurations are numbered once at set-up and
   each gets an offset (``config_first``). Inside the block, suits with equal shapes form a
   group whose ranks are a multiset (suits with equal shape are interchangeable), ranked among
   the ``C(M + k - 1, k)`` multisets of k values; groups combine by mixed radix.
3. Unindexing inverts each step; suit p of the canonical hand is the p-th suit in sorted order.

The kernels take the per-round tables as an ``IndexTables`` namedtuple of arrays, so one
compiled kernel serves every round and structure.
"""

from __future__ import annotations

from itertools import product
from math import comb
from typing import NamedTuple, Sequence

import numpy as np
from numba import njit

from ._bits import ctz64, popcount64
from .cards import NUM_CARDS, parse_cards

__all__ = ["IndexTables", "HandIndexer", "index_batch", "unindex_batch", "index_hand", "unindex_hand"]

_IDX_BITS = 40  # a suit key is (shape code << 40) | suit rank; suit ranks are < 2**20 here

# C(n, k) for n <= 13, k <= 13: colex ranks of rank sets inside one suit.
_NCR13 = np.array([[comb(n, k) for k in range(14)] for n in range(14)], dtype=np.int64)
_NCR13_FLAT = np.zeros(14 * 16, np.int64)  # C(n, k) at n * 16 + k
for _n in range(14):
    _NCR13_FLAT[_n * 16 : _n * 16 + 14] = _NCR13[_n]


class IndexTables(NamedTuple):
    """Arrays describing one round of one round structure (all int64).

    round_of: round of each card position (length = cards dealt up to this round).
    radix: cards_per_round[i] + 1 for each round i <= this round (shape-code digits).
    round_cards: cards dealt in each round i <= this round.
    shape_size: M(shape) per shape code.
    config_by_key: block number of a configuration, by the combination-with-repetition rank of
        its four sorted shape codes (-1 for impossible configurations).
    config_first: first index of each block; one more entry holding the round's size.
    config_codes: (blocks, 4) sorted (descending) shape codes of each block.
    config_order: (blocks * 4,) for sorted position p in a group of k equal shapes at place j,
        k - j (the order of its binomial term in the multiset rank; 1 for a lone shape).
    config_weight: (blocks * 4,) mixed-radix weight of the group of position p in the block.
    prefix_start, prefix_weight: the weight of round i's set in a suit rank is
        prefix_weight[prefix_start[i] + (shape code of rounds 0..i-1)], the number of ways
        to choose the suit's sets of those earlier rounds.
    """

    round_of: np.ndarray
    radix: np.ndarray
    round_cards: np.ndarray
    shape_size: np.ndarray
    config_by_key: np.ndarray
    config_first: np.ndarray
    config_codes: np.ndarray
    config_order: np.ndarray
    config_weight: np.ndarray
    prefix_start: np.ndarray
    prefix_weight: np.ndarray


# ----------------------------------------------------------------------------------------------
# Small combinatorics shared by the kernels
# ----------------------------------------------------------------------------------------------
# C(n, k) for n < 2048, k <= 4: multiset ranks of 2..4 suits with equal shapes. With at most 7
# cards, k >= 2 suits can share a shape only if it has at most 3 cards, so M <= 13*12*11 = 1716.
_CHOOSE_N = 2048
_NCR_SMALL_K = np.array([[comb(n, k) for k in range(5)] for n in range(_CHOOSE_N)], dtype=np.int64)


@njit(cache=True, inline="always")
def _choose(n, k):
    """C(n, k) for k <= 4: k == 1 directly (n may be large), else a table (no divisions:
    a 64-bit idiv costs tens of cycles, more than the rest of an index)."""
    if k == 1:
        return n
    if n < k:
        return 0
    return _NCR_SMALL_K[np.uint64(n), np.uint64(k)]


@njit(cache=True, inline="always")
def _config_key(a, b, c, d):
    """Rank of a >= b >= c >= d among 4-multisets of shape codes (combination with repetition)."""
    return _choose(a + 3, 4) + _choose(b + 2, 3) + _choose(c + 1, 2) + d


@njit(cache=True, inline="always")
def _group_term(v, order, weight):
    """Term of one sorted suit in its block's index: C(v + order - 1, order) * group weight."""
    return _choose(v + order - 1, order) * weight


# ----------------------------------------------------------------------------------------------
# index
# ----------------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def index_row(cards, row, t, scratch):
    """Index of hand ``cards[row]`` for the round described by tables ``t``.

    ``scratch`` (int64[4]) is caller-owned: allocating inside a per-hand kernel
    would cost more than the whole computation. All four suits are handled at once in 16-bit
    lanes of one int64 (SWAR), the loops have data-independent trip counts (rounds, cards) so
    branches predict well, and the per-block group structure comes from tables.
    """
    R = t.radix.shape[0]
    # Everything per round stays in registers (masks, used ranks, lane codes): going through
    # memory made each card wait on the previous card's store (store-forwarding chains).
    for s in range(4):
        scratch[s] = 0  # per suit: the suit's rank
    used = np.int64(0)  # ranks of earlier rounds, suit s in bits 16*s..16*s+12
    code = np.int64(0)  # per 16-bit lane: the suit's shape code of earlier rounds
    start = 0
    for i in range(R):
        stop = start + t.round_cards[i]
        x = np.int64(0)  # this round's four 13-bit rank masks
        for p in range(start, stop):
            c = np.int64(cards[row, p])
            x |= np.int64(1) << ((c & 3) * 16 + (c >> 2))
        # Suit rank: per round, the colex rank of the round's rank set among the suit's ranks
        # unused before, i.e. the sum over its cards of C(r', j) with r' = rank minus used ranks
        # below it and j its 1-based position in the set; rounds combine by mixed radix (round
        # 0 least significant) whose weight depends only on the earlier shape: a table.
        for p in range(start, stop):
            c = np.int64(cards[row, p])
            s = c & 3
            r = c >> 2
            below = ((np.int64(1) << r) - 1) << (16 * s)
            reduced = r - popcount64(used & below)
            j = popcount64(x & below) + 1
            weight = t.prefix_weight[np.uint64(t.prefix_start[i] + ((code >> (16 * s)) & 0xFFFF))]
            # unsigned indices: numba then skips its negative-index wraparound code
            scratch[np.uint64(s)] += _NCR13_FLAT[np.uint64(reduced * 16 + j)] * weight
        used |= x
        code = code * t.radix[i] + lane_counts(x)  # lane codes stay below 2**16 (at most 7 cards)
        start = stop
    return index_of_suits(scratch[0], scratch[1], scratch[2], scratch[3], code, t)


@njit(cache=True, inline="always")
def lane_counts(x):
    """The number of set bits in each 16-bit lane of ``x`` (a round's cards per suit, from its
    four rank masks), in the same lanes: lanes never carry."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x + (x >> 8)) & 0x00FF00FF00FF00FF


@njit(cache=True, inline="always")
def index_of_suits(rank0, rank1, rank2, rank3, code, t):
    """The index of a hand from its four suits' ranks (suit-sequence ranks, step 1 of the
    module's text) and their shape codes (16-bit lanes of ``code``, suit 0 lowest): steps 2
    and 3 of the text. -1 for an impossible configuration (a repeated card)."""
    k0 = rank0 | ((code & 0xFFFF) << _IDX_BITS)
    k1 = rank1 | (((code >> 16) & 0xFFFF) << _IDX_BITS)
    k2 = rank2 | (((code >> 32) & 0xFFFF) << _IDX_BITS)
    k3 = rank3 | (((code >> 48) & 0xFFFF) << _IDX_BITS)
    # sort the four suit keys descending (min/max network: compiles to branch-free selects)
    k0, k1 = max(k0, k1), min(k0, k1)
    k2, k3 = max(k2, k3), min(k2, k3)
    k0, k2 = max(k0, k2), min(k0, k2)
    k1, k3 = max(k1, k3), min(k1, k3)
    k1, k2 = max(k1, k2), min(k1, k2)
    block = t.config_by_key[
        np.uint64(_config_key(k0 >> _IDX_BITS, k1 >> _IDX_BITS, k2 >> _IDX_BITS, k3 >> _IDX_BITS))
    ]
    invalid = block < 0  # impossible shapes: a repeated card (never for a valid hand)
    block = max(block, 0)  # a select, not an early return: that made the kernel 3x slower
    low = (np.int64(1) << _IDX_BITS) - 1
    # Inside the block: suits with equal shapes form groups whose descending ranks
    # v_0 >= ... >= v_{k-1} are ranked as a multiset: sum_j C(v_j + k-1-j, k-j). Position p's
    # term order (k-j) and its group's mixed-radix weight are per-block tables (flat, 4 a block).
    b0 = np.uint64(4 * block)
    b1 = b0 + np.uint64(1)
    b2 = b0 + np.uint64(2)
    b3 = b0 + np.uint64(3)
    order = t.config_order
    weight = t.config_weight
    index = t.config_first[np.uint64(block)]
    index += _group_term(k0 & low, order[b0], weight[b0])
    index += _group_term(k1 & low, order[b1], weight[b1])
    index += _group_term(k2 & low, order[b2], weight[b2])
    index += _group_term(k3 & low, order[b3], weight[b3])
    return np.int64(-1) if invalid else index


@njit(cache=True)
def index_batch(cards, t):
    """Indices (int64[n]) of the hands in ``cards`` (n, cards dealt up to the round of ``t``).

    No validation (hot path): cards must lie in 0..51; a hand with a repeated card gets -1.
    """
    n = cards.shape[0]
    out = np.empty(n, np.int64)
    scratch = np.empty(4, np.int64)
    for i in range(n):
        out[i] = index_row(cards, i, t, scratch)
    return out


@njit(cache=True)
def index_hand(cards, t):
    """Index of one hand given as a 1-d card array (for use inside other kernels)."""
    return index_batch(cards.reshape((1, cards.shape[0])), t)[0]


# ----------------------------------------------------------------------------------------------
# unindex
# ----------------------------------------------------------------------------------------------
@njit(cache=True)
def _nth_free(used, b):
    """The b-th (0-based) rank in 0..12 not in `used`."""
    for r in range(13):
        if not (used >> r) & 1:
            if b == 0:
                return r
            b -= 1
    return -1


@njit(cache=True)
def _unrank_group_value(r, k, j, upper):
    """Largest w in [k-1-j, upper] with C(w, k-j) <= r (binary search)."""
    if k - j == 1:
        return r if r < upper else upper
    lo = k - 1 - j
    hi = upper
    while lo < hi:
        mid = (lo + hi + 1) >> 1
        if _choose(mid, k - j) <= r:
            lo = mid
        else:
            hi = mid - 1
    return lo


@njit(cache=True)
def unindex_row(index, t, out, row, counts, fill):
    """Write the canonical hand of ``index`` into ``out[row]``; returns False if out of range."""
    n_rounds = t.radix.shape[0]
    n_blocks = t.config_first.shape[0] - 1
    if index < 0 or index >= t.config_first[n_blocks]:
        return False
    # block: last b with config_first[b] <= index
    lo = 0
    hi = n_blocks - 1
    while lo < hi:
        mid = (lo + hi + 1) >> 1
        if t.config_first[mid] <= index:
            lo = mid
        else:
            hi = mid - 1
    block = lo
    within = index - t.config_first[block]
    # positions of each round's first card
    start = 0
    for i in range(n_rounds):
        fill[i] = start
        start += t.round_cards[i]
    p = 0
    while p < 4:
        code = t.config_codes[block, p]
        q = p + 1
        while q < 4 and t.config_codes[block, q] == code:
            q += 1
        k = q - p
        size_m = t.shape_size[code]
        group_size = _choose(size_m + k - 1, k)
        r = within % group_size
        within //= group_size
        # shape digits n_i of this code
        cc = code
        for i in range(n_rounds - 1, -1, -1):
            counts[i] = cc % t.radix[i]
            cc //= t.radix[i]
        for j in range(k):
            w = _unrank_group_value(r, k, j, size_m - 1 + k - 1 - j)
            r -= _choose(w, k - j)
            v = w - (k - 1 - j)
            suit = p + j
            used = np.int64(0)
            for i in range(n_rounds):
                n = counts[i]
                free = 13 - popcount64(used)
                base = _NCR13[free, n]
                rk = v % base
                v //= base
                # colex unrank of rk as an n-subset of the free ranks, largest element first
                m = np.int64(0)
                top = free - 1
                for jj in range(n, 0, -1):
                    while _NCR13[top, jj] > rk:
                        top -= 1
                    rk -= _NCR13[top, jj]
                    m |= np.int64(1) << _nth_free(used, top)
                    top -= 1
                used |= m
                mm = m
                while mm:
                    b = ctz64(mm)
                    mm &= mm - 1
                    out[row, fill[i]] = b * 4 + suit
                    fill[i] += 1
        p = q
    return True


@njit(cache=True)
def unindex_batch(indices, t):
    """Canonical hands (int8[n, cards]) for ``indices``; rows of -1 for out-of-range indices."""
    n = indices.shape[0]
    out = np.full((n, t.round_of.shape[0]), -1, np.int8)
    counts = np.empty(t.radix.shape[0], np.int64)
    fill = np.empty(t.radix.shape[0], np.int64)
    for i in range(n):
        unindex_row(indices[i], t, out, i, counts, fill)
    return out


@njit(cache=True)
def unindex_hand(index, t):
    """Canonical hand of one index as int8[cards] (all -1 if out of range)."""
    return unindex_batch(np.array([index], dtype=np.int64), t)[0]


# ----------------------------------------------------------------------------------------------
# Set-up (Python, once per indexer; a few milliseconds)
# ----------------------------------------------------------------------------------------------
def _compositions(total: int, parts: int = 4):
    """All ways to write `total` as an ordered sum of `parts` non-negative integers."""
    return [c for c in product(range(total + 1), repeat=parts) if sum(c) == total]


def _build_tables(rounds: Sequence[int], r: int) -> IndexTables:
    cards = list(rounds[: r + 1])
    radix = [c + 1 for c in cards]
    n_codes = int(np.prod(radix))
    shape_size = np.zeros(n_codes, np.int64)
    for digits in product(*[range(x) for x in radix]):
        code = 0
        for d, x in zip(digits, radix):
            code = code * x + d
        size, used = 1, 0
        for n in digits:
            size *= comb(13 - used, n)
            used += n
        shape_size[code] = size
    configs = set()
    for per_round in product(*[_compositions(c) for c in cards]):
        codes = []
        for s in range(4):
            code = 0
            for i, x in enumerate(radix):
                code = code * x + per_round[i][s]
            codes.append(code)
        configs.add(tuple(sorted(codes, reverse=True)))
    configs = sorted(configs)

    def key(a, b, c, d):
        return comb(a + 3, 4) + comb(b + 2, 3) + comb(c + 1, 2) + d

    by_key = np.full(key(n_codes - 1, n_codes - 1, n_codes - 1, n_codes - 1) + 1, -1, np.int64)
    first = np.zeros(len(configs) + 1, np.int64)
    order = np.zeros((len(configs), 4), np.int64)
    weight = np.zeros((len(configs), 4), np.int64)
    for b, cfg in enumerate(configs):
        by_key[key(*cfg)] = b
        size = 1
        p = 0
        while p < 4:  # groups of equal codes, in sorted order; first group least significant
            k = cfg.count(cfg[p])
            for j in range(k):
                order[b, p + j] = k - j
                weight[b, p + j] = size
            size *= comb(int(shape_size[cfg[p]]) + k - 1, k)
            p += k
        first[b + 1] = first[b] + size
    prefix_start = np.zeros(len(cards), np.int64)
    prefix_weight = []
    for i in range(len(cards)):
        prefix_start[i] = len(prefix_weight)
        for digits in product(*[range(x) for x in radix[:i]]):  # codes in increasing order
            w, used = 1, 0
            for n in digits:
                w *= comb(13 - used, n)
                used += n
            prefix_weight.append(w)
    round_of = np.repeat(np.arange(len(cards), dtype=np.int64), cards)
    return IndexTables(
        round_of=round_of,
        radix=np.array(radix, np.int64),
        round_cards=np.array(cards, np.int64),
        shape_size=shape_size,
        config_by_key=by_key,
        config_first=first,
        config_codes=np.array(configs, np.int64).reshape(-1, 4),
        config_order=order.ravel(),
        config_weight=weight.ravel(),
        prefix_start=prefix_start,
        prefix_weight=np.array(prefix_weight, np.int64),
    )


class HandIndexer:
    """Suit-isomorphism indexer for a round structure, e.g. ``HandIndexer((2, 3, 1, 1))``.

    Rounds are numbered from 0. A hand for round r lists the cards of rounds 0..r in order
    (any order inside a round), as card integers or a string like ``"AsKd Qh7c2s"``.

    >>> ix = HandIndexer((2, 3, 1, 1))
    >>> ix.size(0), ix.size(1)
    (169, 1286792)
    """

    def __init__(self, rounds: Sequence[int] = (2, 3, 1, 1)):
        rounds = tuple(int(c) for c in rounds)
        if not rounds or any(c < 1 for c in rounds) or sum(rounds) > 7:
            # suit ranks must fit 40 bits and group ranks int64: hold'em needs at most 7 cards
            raise ValueError(f"rounds must be positive card counts totalling at most 7, not {rounds}")
        if 3 + int(np.prod([c + 1 for c in rounds])) >= _CHOOSE_N:
            raise ValueError(f"too many rounds for the configuration tables: {rounds}")
        self.rounds = rounds
        self.tables = [_build_tables(rounds, r) for r in range(len(rounds))]

    @property
    def num_rounds(self) -> int:
        return len(self.rounds)

    def cards_in(self, round: int) -> int:
        """Number of cards in a hand of `round` (all rounds up to it)."""
        return sum(self.rounds[: round + 1])

    def size(self, round: int) -> int:
        """Number of isomorphism classes (= indices) in `round`."""
        return int(self.tables[self._check_round(round)].config_first[-1])

    def _check_round(self, round: int) -> int:
        if not 0 <= round < len(self.rounds):
            raise ValueError(f"round must be in 0..{len(self.rounds) - 1}, not {round}")
        return round

    def _round_for(self, n_cards: int, round: int | None) -> int:
        if round is None:
            for r in range(len(self.rounds)):
                if self.cards_in(r) == n_cards:
                    return r
            raise ValueError(f"no round of {self.rounds} has {n_cards} cards")
        self._check_round(round)
        if self.cards_in(round) != n_cards:
            need = self.cards_in(round)
            raise ValueError(f"round {round} of {self.rounds} needs {need} cards, got {n_cards}")
        return round

    def index(self, cards: str | Sequence[int], round: int | None = None) -> int:
        """Index of one hand; `round` defaults to the round its card count implies."""
        cs = parse_cards(cards) if isinstance(cards, str) else [int(c) for c in cards]
        if any(not 0 <= c < NUM_CARDS for c in cs) or len(set(cs)) != len(cs):
            raise ValueError(f"cards must be distinct integers in 0..51: {cs}")
        r = self._round_for(len(cs), round)
        return int(index_batch(np.array([cs], dtype=np.int8), self.tables[r])[0])

    def index_batch(self, cards: np.ndarray, round: int | None = None) -> np.ndarray:
        """Indices (int64[n]) of an (n, k) integer card array.

        No validity checks (hot path): cards must lie in 0..51; rows with a repeated card get -1.
        """
        # One dtype and layout for the kernel: each other one would be another compilation.
        cards = np.ascontiguousarray(cards, dtype=np.int8)
        if cards.ndim != 2:
            raise ValueError("cards must be a 2-d (hands, cards) array")
        return index_batch(cards, self.tables[self._round_for(cards.shape[1], round)])

    def unindex(self, index: int, round: int) -> list[int]:
        """A canonical hand (list of card integers, by round) of the class `index`."""
        r = self._check_round(round)
        if not 0 <= index < self.size(r):
            raise ValueError(f"index must be in [0, {self.size(r)}), not {index}")
        return [int(c) for c in unindex_hand(np.int64(index), self.tables[r])]

    def unindex_batch(self, indices: np.ndarray, round: int) -> np.ndarray:
        """Canonical hands (int8[n, cards]); rows of -1 mark indices out of range."""
        return unindex_batch(np.asarray(indices, dtype=np.int64), self.tables[self._check_round(round)])
