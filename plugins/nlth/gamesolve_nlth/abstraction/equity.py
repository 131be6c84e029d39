"""Hand strength tables and next-round features (numba kernels).

Equity is always against **one uniformly random opponent hand** (the two unknown cards drawn
from the cards not in our hand and not on the board), with ties counting one half.

River equity is exact: for a river board the 1,081 hole pairs drawn from the 47 other cards are
evaluated once, sorted, and each pair's wins and ties against the 990 opponent hands disjoint
from it come from running counts (card removal handled by per-card counts, see
:func:`_board_values`). It is stored as the integer ``2 * wins + ties`` in ``0..1980``
(``RIVER_SCALE``), so ``equity = value / 1980``.

Turn equity is the mean of the 46 river equities of its completions and flop equity the mean of
the 47 turn equities: with a uniformly random opponent this equals the all-in equity over the
remaining board cards (the opponent's cards and the runout are exchangeable).

Canonical hands come from ``isomorphism``'s njit-level ``unindex_row`` / ``index_row``
(imported here: they are the allocation-free row kernels behind ``index_batch``).

Threads: each kernel below is a ``nogil=True`` loop over rows ``lo .. hi - 1``, run on Python
threads by a small wrapper of the old name (:func:`gamesolve.threads.run_blocks`), not a
``parallel=True`` ``prange`` loop: numba compiles a ``prange`` body a second time, inlined with
everything it calls, in the parfor wrapper, and that was most of a cold ``abstraction build``:
this module's compilation in a cold tiny build went from 67 to 30 processor seconds, the
build's from 109 to 61, with the warm build unchanged (issue 36; docs/benchmarks.md, "The
card abstraction's parallel kernels on Python threads").
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gamesolve.threads import run_blocks

from ..evaluator import evaluate7
from ..isomorphism import index_row, unindex_row

RIVER_SCALE = 1980  # 2 * C(45, 2): river equity values are integers 0..1980
NUM_HOLE_PAIRS = 1326
#: Blocks per call of the per-board kernels, pulled by the threads as they finish one: a
#: board's cost varies (suit symmetry), and the machine's other jobs slow one thread or another.
BOARD_BLOCKS = 32


def hole_pair_index(a: int, b: int) -> int:
    """Index 0..1325 of the unordered hole pair {a, b} (colex: hi * (hi - 1) / 2 + lo)."""
    lo, hi = (a, b) if a < b else (b, a)
    return hi * (hi - 1) // 2 + lo


@njit(cache=True, inline="always")
def _pair_index(a, b):
    lo = min(a, b)
    hi = max(a, b)
    return hi * (hi - 1) // 2 + lo


@njit(cache=True)
def _board_values(board, h0, h1, out, scratch_rank, card_below, card_group):
    """River equity values (2 * wins + ties) of every hole pair for one 5-card board.

    Fills ``h0[:1081], h1[:1081]`` with the pairs (from the 47 cards off the board) and
    ``out[:1081]`` with their values. For a pair {a, b} with rank r: wins = #pairs below r
    - #pairs below r holding a - #pairs below r holding b (no lower pair holds both a and b);
    ties likewise over the equal-rank group, plus one for the pair itself.
    """
    b0, b1, b2, b3, b4 = board[0], board[1], board[2], board[3], board[4]
    used = np.int64(0)
    for i in range(5):
        used |= np.int64(1) << board[i]
    n = 0
    for a in range(52):
        if (used >> a) & 1:
            continue
        for b in range(a + 1, 52):
            if (used >> b) & 1:
                continue
            h0[n] = a
            h1[n] = b
            scratch_rank[n] = evaluate7(a, b, b0, b1, b2, b3, b4)
            n += 1
    order = np.argsort(scratch_rank[:n])
    for c in range(52):
        card_below[c] = 0
        card_group[c] = 0
    below = 0
    i = 0
    while i < n:
        j = i
        r = scratch_rank[order[i]]
        while j < n and scratch_rank[order[j]] == r:
            p = order[j]
            card_group[h0[p]] += 1
            card_group[h1[p]] += 1
            j += 1
        g = j - i
        for k in range(i, j):
            p = order[k]
            a = h0[p]
            b = h1[p]
            wins = below - card_below[a] - card_below[b]
            ties = g - card_group[a] - card_group[b] + 1
            out[p] = 2 * wins + ties
        for k in range(i, j):
            p = order[k]
            card_below[h0[p]] += card_group[h0[p]]
            card_group[h0[p]] = 0
            card_below[h1[p]] += card_group[h1[p]]
            card_group[h1[p]] = 0
        below += g
        i = j
    return n


@njit(cache=True)
def board_values(board):
    """(h0, h1, values) for one 5-card board: all 1,081 hole pairs and their 2*wins+ties."""
    h0 = np.empty(1081, np.int64)
    h1 = np.empty(1081, np.int64)
    out = np.empty(1081, np.int64)
    rank = np.empty(1081, np.int64)
    cb = np.zeros(52, np.int64)
    cg = np.zeros(52, np.int64)
    _board_values(board, h0, h1, out, rank, cb, cg)
    return h0, h1, out


@njit(cache=True, inline="always")
def _suit_normalizer(cards, n, perm):
    """Fill ``perm[4]`` with a suit permutation taking ``cards[:n]`` (a board) to its normal form.

    Suits are renamed in order of decreasing rank mask (ties by suit), so two suit-isomorphic
    boards have the same normal form card for card. Suits with equal masks are interchangeable
    on the board, which is why any tie order gives the same values for every hole pair.
    """
    mask = np.zeros(4, np.int64)
    for k in range(n):
        mask[cards[k] & 3] |= np.int64(1) << (cards[k] >> 2)
    order = np.arange(4)
    for i in range(1, 4):  # insertion sort of 4 suits, stable: ties keep suit order
        j = i
        while j > 0 and mask[order[j - 1]] < mask[order[j]]:
            order[j - 1], order[j] = order[j], order[j - 1]
            j -= 1
    for p in range(4):
        perm[order[p]] = p


@njit(cache=True, inline="always")
def _renamed(card, perm):
    return (card & ~3) | perm[card & 3]


def river_values_for_boards(boards: np.ndarray, t_river: np.ndarray, out: np.ndarray, by_board: np.ndarray) -> None:
    """For each board row of ``boards`` (int8[nb, 5]), write the equity value of every hole
    pair into ``out[index(hole + board)]`` (``t_river`` = tables of the (2, 5) indexer), and
    into ``by_board[row, pair]`` with the pair's suits renamed as the board's normal form
    (:func:`_suit_normalizer`; 1,326 colex pair slots per board, those clashing with it unset).

    Boards that are suit-isomorphic write identical values to identical indices, so running
    over the canonical 5-card boards covers every canonical river hand. ``by_board`` lets the
    turn stage read all of a board's values without one ``index_row`` per hand.

    Boards in blocks pulled by numba's threads (:func:`_river_values_rows`).
    """
    run_blocks(boards.shape[0], lambda lo, hi: _river_values_rows(boards, t_river, out, by_board, lo, hi),
               blocks=BOARD_BLOCKS)


@njit(cache=True, nogil=True)
def _river_values_rows(boards, t_river, out, by_board, lo, hi):
    """:func:`river_values_for_boards` on the board rows ``lo .. hi - 1``."""
    for bi in range(lo, hi):
        h0 = np.empty(1081, np.int64)
        h1 = np.empty(1081, np.int64)
        vals = np.empty(1081, np.int64)
        rank = np.empty(1081, np.int64)
        cb = np.zeros(52, np.int64)
        cg = np.zeros(52, np.int64)
        board = np.empty(5, np.int64)
        for k in range(5):
            board[k] = boards[bi, k]
        n = _board_values(board, h0, h1, vals, rank, cb, cg)
        perm = np.empty(4, np.int64)
        _suit_normalizer(board, 5, perm)
        row = np.empty((1, 7), np.int64)
        scratch = np.empty(4, np.int64)
        for k in range(5):
            row[0, 2 + k] = board[k]
        for p in range(n):
            row[0, 0] = h0[p]
            row[0, 1] = h1[p]
            out[index_row(row, 0, t_river, scratch)] = vals[p]
            by_board[bi, _pair_index(_renamed(h0[p], perm), _renamed(h1[p], perm))] = vals[p]


def river_value_counts(values: np.ndarray, n_values: int) -> np.ndarray:
    """Histogram (int64[n_values]) of a large integer table: one histogram per block of the
    table on numba's threads, added in block order (integer counts: exact in any order)."""
    parts = run_blocks(values.shape[0], lambda lo, hi: _value_counts_rows(values, n_values, lo, hi))
    total = np.zeros(n_values, np.int64)
    for part in parts:
        total += part
    return total


@njit(cache=True, nogil=True)
def _value_counts_rows(values, n_values, lo, hi):
    """Histogram of ``values[lo:hi]``."""
    part = np.zeros(n_values, np.int64)
    for i in range(lo, hi):
        part[values[i]] += 1
    return part


def map_values(values: np.ndarray, table: np.ndarray, out: np.ndarray) -> None:
    """out[i] = table[values[i]] (e.g. river equity value -> river bucket), in blocks on numba's threads."""
    run_blocks(values.shape[0], lambda lo, hi: _map_values_rows(values, table, out, lo, hi))


@njit(cache=True, nogil=True)
def _map_values_rows(values, table, out, lo, hi):
    for i in range(lo, hi):
        out[i] = table[values[i]]


def turn_features(indices: np.ndarray, t_turn: np.ndarray, t_river: np.ndarray, river_values: np.ndarray,
                  value_bucket: np.ndarray, atoms: np.ndarray, equity: np.ndarray) -> None:
    """Features of canonical turn hands (``t_turn`` = (2, 4) tables; ``t_river`` = (2, 5)).

    For the hand of ``indices[i]`` (a canonical turn index), writes the river bucket of each of
    its 46 river completions into ``atoms[i, :46]`` (via ``value_bucket[river_values[...]]``)
    and its equity (mean river equity, 0..1) into ``equity[i]``. Rows in blocks on numba's threads.
    """
    run_blocks(indices.shape[0], lambda lo, hi: _turn_features_rows(
        indices, t_turn, t_river, river_values, value_bucket, atoms, equity, lo, hi))  # fmt: skip


@njit(cache=True, nogil=True)
def _turn_features_rows(indices, t_turn, t_river, river_values, value_bucket, atoms, equity, lo, hi):
    """:func:`turn_features` on the rows ``lo .. hi - 1``."""
    # Work arrays allocated once per call, not per hand (see blueprint/deals.py's deal_range).
    hand = np.empty((1, 6), np.int8)
    counts = np.empty(2, np.int64)
    fill = np.empty(2, np.int64)
    row = np.empty((1, 7), np.int64)
    scratch = np.empty(4, np.int64)
    for i in range(lo, hi):
        unindex_row(indices[i], t_turn, hand, 0, counts, fill)
        used = np.int64(0)
        for k in range(6):
            row[0, k] = hand[0, k]
            used |= np.int64(1) << hand[0, k]
        total = 0
        m = 0
        for c in range(52):
            if (used >> c) & 1:
                continue
            row[0, 6] = c
            v = river_values[index_row(row, 0, t_river, scratch)]
            total += v
            atoms[i, m] = value_bucket[v]
            m += 1
        equity[i] = total / (46.0 * 1980.0)


def turn_board_features(boards: np.ndarray, t_turn: np.ndarray, t_board: np.ndarray, by_board: np.ndarray,
                        value_bucket: np.ndarray, index: np.ndarray, atoms: np.ndarray, equity: np.ndarray) -> None:
    """Features of every turn hand on the 4-card boards ``boards`` (int8[nb, 4]).

    ``t_turn`` = tables of the (2, 4) indexer, ``t_board`` = those of the (5,) board indexer
    (whose index is the row of ``by_board``, as filled by :func:`river_values_for_boards`).
    Row ``b * 1128 + q`` of the outputs is the q-th hole pair (lexicographic over the 48 cards off
    board b): ``index`` its canonical turn index, or -1 if an earlier pair of the same board has the
    same index (boards with suit symmetry reach a hand several times; such rows get no features);
    ``atoms[., :46]`` the river buckets of its 46 river cards and ``equity`` its mean river
    equity: what :func:`turn_features` computes for that index, up to the order of the atoms
    (the river cards are taken in card order on this board, whose suits may be named otherwise
    than in the canonical hand; histograms of the atoms are the same).

    Why per board: one ``index_row`` per (board, river card) finds the river board's row and a
    suit renaming, after which each hole pair's river value is a read in a 2.6 kB row (the 48
    rows of a board stay in cache) instead of an ``index_row`` per (hand, river card).

    Boards in blocks pulled by numba's threads (boards with suit symmetry skip their repeats:
    uneven costs).
    """
    run_blocks(boards.shape[0], lambda lo, hi: _turn_board_rows(
        boards, t_turn, t_board, by_board, value_bucket, index, atoms, equity, lo, hi),
        blocks=BOARD_BLOCKS)  # fmt: skip


@njit(cache=True, nogil=True)
def _turn_board_rows(boards, t_turn, t_board, by_board, value_bucket, index, atoms, equity, lo, hi):
    """:func:`turn_board_features` on the board rows ``lo .. hi - 1``."""
    for b in range(lo, hi):
        used = np.int64(0)
        for k in range(4):
            used |= np.int64(1) << boards[b, k]
        off = np.empty(48, np.int64)
        n_off = 0
        for c in range(52):
            if not (used >> c) & 1:
                off[n_off] = c
                n_off += 1
        # per river card: the river board's row of by_board and its suit renaming
        board5 = np.empty((1, 5), np.int64)
        for k in range(4):
            board5[0, k] = boards[b, k]
        scratch = np.empty(4, np.int64)
        river_row = np.empty(52, np.int64)
        perms = np.empty((52, 4), np.int64)
        for r in range(48):
            c = off[r]
            board5[0, 4] = c
            river_row[c] = index_row(board5, 0, t_board, scratch)
            _suit_normalizer(board5[0], 5, perms[c])
        hand = np.empty((1, 6), np.int64)
        for k in range(4):
            hand[0, 2 + k] = boards[b, k]
        base = b * 1128
        q = 0
        for x in range(48):
            for y in range(x + 1, 48):
                hand[0, 0] = off[x]
                hand[0, 1] = off[y]
                index[base + q] = index_row(hand, 0, t_turn, scratch)
                q += 1
        # keep the first pair of each index (order the board's indices, blank repeats): over
        # the 16,432 canonical boards 18.5 M pairs reach 13.96 M hands, repeats are skipped below
        order = np.argsort(index[base : base + 1128], kind="mergesort")
        prev = index[base + order[0]]
        for k in range(1, 1128):
            cur = index[base + order[k]]
            if cur == prev:
                index[base + order[k]] = -1
            prev = cur
        q = 0
        for x in range(48):
            for y in range(x + 1, 48):
                if index[base + q] >= 0:
                    h0 = off[x]
                    h1 = off[y]
                    total = 0
                    m = 0
                    for r in range(48):
                        if r == x or r == y:
                            continue
                        c = off[r]
                        p = perms[c]
                        v = by_board[river_row[c], _pair_index(_renamed(h0, p), _renamed(h1, p))]
                        total += v
                        atoms[base + q, m] = value_bucket[v]
                        m += 1
                    equity[base + q] = total / (46.0 * 1980.0)
                q += 1


def flop_features(indices: np.ndarray, t_flop: np.ndarray, t_turn: np.ndarray, turn_bucket: np.ndarray,
                  turn_equity: np.ndarray, atoms: np.ndarray, equity: np.ndarray) -> None:
    """Features of canonical flop hands (``t_flop`` = (2, 3) tables; ``t_turn`` = (2, 4)).

    Writes the turn bucket of each of the 47 turn completions into ``atoms[i, :47]`` and the
    flop equity (mean of the completions' turn equities) into ``equity[i]``. Rows in blocks on
    numba's threads.
    """
    run_blocks(indices.shape[0], lambda lo, hi: _flop_features_rows(
        indices, t_flop, t_turn, turn_bucket, turn_equity, atoms, equity, lo, hi))  # fmt: skip


@njit(cache=True, nogil=True)
def _flop_features_rows(indices, t_flop, t_turn, turn_bucket, turn_equity, atoms, equity, lo, hi):
    """:func:`flop_features` on the rows ``lo .. hi - 1``."""
    # Work arrays allocated once per call, not per hand (see blueprint/deals.py's deal_range).
    hand = np.empty((1, 5), np.int8)
    counts = np.empty(2, np.int64)
    fill = np.empty(2, np.int64)
    row = np.empty((1, 6), np.int64)
    scratch = np.empty(4, np.int64)
    for i in range(lo, hi):
        unindex_row(indices[i], t_flop, hand, 0, counts, fill)
        used = np.int64(0)
        for k in range(5):
            row[0, k] = hand[0, k]
            used |= np.int64(1) << hand[0, k]
        total = 0.0
        m = 0
        for c in range(52):
            if (used >> c) & 1:
                continue
            row[0, 5] = c
            j = index_row(row, 0, t_turn, scratch)
            total += turn_equity[j]
            atoms[i, m] = turn_bucket[j]
            m += 1
        equity[i] = total / 47.0


# ----------------------------------------------------------------------------------------------
# One flop at a time (for the search: buckets computed separately per flop)
# ----------------------------------------------------------------------------------------------
def flop_river_values(flop: np.ndarray) -> np.ndarray:
    """River equity values of every (turn, river, hole) consistent with one flop.

    Returns int16[52, 52, 1326] indexed ``[turn, river, hole_pair]`` (both orders of turn and
    river filled), -1 where the cards clash. (Turn, river) pairs in blocks on numba's threads.
    """
    out = np.full((52, 52, 1326), -1, np.int16)
    pairs = _flop_off_pairs(flop)
    run_blocks(pairs.shape[0], lambda lo, hi: _flop_river_rows(flop, pairs, out, lo, hi))
    return out


@njit(cache=True)
def _flop_off_pairs(flop):
    """The 1,176 (turn, river) card pairs off the flop, ``a < b``: int64[1176, 2]."""
    used = np.int64(0)
    for k in range(3):
        used |= np.int64(1) << flop[k]
    pairs = np.empty((1176, 2), np.int64)
    n = 0
    for a in range(52):
        if (used >> a) & 1:
            continue
        for b in range(a + 1, 52):
            if (used >> b) & 1:
                continue
            pairs[n, 0] = a
            pairs[n, 1] = b
            n += 1
    return pairs[:n]


@njit(cache=True, nogil=True)
def _flop_river_rows(flop, pairs, out, lo, hi):
    """:func:`flop_river_values` for the (turn, river) pairs ``lo .. hi - 1``."""
    for q in range(lo, hi):
        h0 = np.empty(1081, np.int64)
        h1 = np.empty(1081, np.int64)
        vals = np.empty(1081, np.int64)
        rank = np.empty(1081, np.int64)
        cb = np.zeros(52, np.int64)
        cg = np.zeros(52, np.int64)
        board = np.empty(5, np.int64)
        board[0] = flop[0]
        board[1] = flop[1]
        board[2] = flop[2]
        board[3] = pairs[q, 0]
        board[4] = pairs[q, 1]
        m = _board_values(board, h0, h1, vals, rank, cb, cg)
        for p in range(m):
            hp = _pair_index(h0[p], h1[p])
            out[board[3], board[4], hp] = vals[p]
            out[board[4], board[3], hp] = vals[p]


def flop_turn_features(flop: np.ndarray, river_values: np.ndarray, value_bucket: np.ndarray) -> tuple[
        np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Turn hands consistent with one flop and their features.

    Returns ``(turn_cards, holes, atoms, equity)``: for each of the 49 * 1128 = 55,272 (turn,
    hole pair) combinations, the turn card, the hole pair index, the river buckets of its 46
    river completions and its equity. Rows in blocks on numba's threads.
    """
    used, turn_cards, holes, cards_a, cards_b = _flop_turn_hands(flop)
    n = turn_cards.shape[0]
    atoms = np.empty((n, 46), np.int32)
    equity = np.empty(n, np.float64)
    run_blocks(n, lambda lo, hi: _flop_turn_rows(
        used, turn_cards, holes, cards_a, cards_b, river_values, value_bucket, atoms, equity, lo, hi))  # fmt: skip
    return turn_cards, holes, atoms, equity


@njit(cache=True)
def _flop_turn_hands(flop):
    """The flop's card mask and its (turn card, hole pair index, hole cards) rows."""
    used = np.int64(0)
    for k in range(3):
        used |= np.int64(1) << flop[k]
    n = 49 * 1128
    turn_cards = np.empty(n, np.int64)
    holes = np.empty(n, np.int64)
    cards_a = np.empty(n, np.int64)
    cards_b = np.empty(n, np.int64)
    i = 0
    for t in range(52):
        if (used >> t) & 1:
            continue
        for a in range(52):
            if (used >> a) & 1 or a == t:
                continue
            for b in range(a + 1, 52):
                if (used >> b) & 1 or b == t:
                    continue
                turn_cards[i] = t
                holes[i] = _pair_index(a, b)
                cards_a[i] = a
                cards_b[i] = b
                i += 1
    return used, turn_cards, holes, cards_a, cards_b


@njit(cache=True, nogil=True)
def _flop_turn_rows(used, turn_cards, holes, cards_a, cards_b, river_values, value_bucket, atoms, equity, lo, hi):
    """:func:`flop_turn_features` on the rows ``lo .. hi - 1``."""
    for i in range(lo, hi):
        t = turn_cards[i]
        u = used | (np.int64(1) << t) | (np.int64(1) << cards_a[i]) | (np.int64(1) << cards_b[i])
        total = 0
        m = 0
        for r in range(52):
            if (u >> r) & 1:
                continue
            v = river_values[t, r, holes[i]]
            total += v
            atoms[i, m] = value_bucket[v]
            m += 1
        equity[i] = total / (46.0 * 1980.0)
