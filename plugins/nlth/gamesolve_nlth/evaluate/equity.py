"""Exact heads-up equities of one hand against every hole-card pair (numba).

``showdown_scores(h0, h1, board, holes)`` enumerates every completion of the board (0 to 2
cards to come: river, turn or flop boards; a preflop board is 1.7 M completions, see
:mod:`gamesolve_nlth.evaluate.preflop`) and scores the hero against each pair ``k`` that
shares no card with it: 1 for a win, 1/2 for a tie, over the completions that avoid ``k``'s
cards. :func:`equity_vector` turns that into ``eq[k]`` = the hero's pot share against ``k``
(NaN where ``k`` is impossible). Used by AIVAT's check-down values and by local best
response's win probability.
"""

from __future__ import annotations

import functools

import numpy as np
from numba import njit

from gamesolve_nlth.evaluate.hands import HOLES, NUM_HOLES
from gamesolve_nlth.evaluator import CARD_KEY, board_key, board_suit_ranks, evaluate7, evaluate_with_board


@njit(cache=True)
def hole_parts(holes):
    """Each pair's :func:`~gamesolve_nlth.evaluator.evaluate_with_board` key and its card
    mask (bit per card): a pair is evaluated on a board with one addition and tested against
    the cards in use with one ``and``."""
    n = holes.shape[0]
    keys = np.empty(n, np.int64)
    masks = np.empty(n, np.int64)
    for k in range(n):
        a, b = holes[k, 0], holes[k, 1]
        keys[k] = CARD_KEY[a] + CARD_KEY[b]
        masks[k] = (np.int64(1) << a) | (np.int64(1) << b)
    return keys, masks


@njit(cache=True)
def showdown_scores(h0, h1, board, holes, score, count):
    """Add, for every pair ``k`` disjoint from the hero and the board, the hero's score
    (win 1, tie 0.5) summed over the board's completions avoiding ``k``, and their number."""
    used = np.zeros(52, np.bool_)
    used[h0] = True
    used[h1] = True
    nb = board.shape[0]
    for i in range(nb):
        used[board[i]] = True
    deck = np.empty(52, np.int64)
    m = 0
    for c in range(52):
        if not used[c]:
            deck[m] = c
            m += 1
    need = 5 - nb
    full = np.empty(5, np.int64)
    for i in range(nb):
        full[i] = board[i]
    keys, masks = hole_parts(holes)
    fixed = np.int64(0)  # the hero's and the board's cards
    for c in range(52):
        if used[c]:
            fixed |= np.int64(1) << c
    ranks = np.empty(4, np.int64)
    idx = np.arange(need)
    while True:
        for j in range(need):
            full[nb + j] = deck[idx[j]]
        mine = evaluate7(h0, h1, full[0], full[1], full[2], full[3], full[4])
        key5 = board_key(full[0], full[1], full[2], full[3], full[4])
        board_suit_ranks(full[0], full[1], full[2], full[3], full[4], ranks)
        forbid = fixed
        for j in range(need):
            forbid |= np.int64(1) << full[nb + j]
        for k in range(holes.shape[0]):
            if masks[k] & forbid:
                continue
            v = evaluate_with_board(key5, ranks, keys[k], holes[k, 0], holes[k, 1])
            if mine > v:
                score[k] += 1.0
            elif mine == v:
                score[k] += 0.5
            count[k] += 1.0
        # next combination of `need` deck positions
        j = need - 1
        while j >= 0 and idx[j] == m - need + j:
            j -= 1
        if j < 0:
            break
        idx[j] += 1
        for t in range(j + 1, need):
            idx[t] = idx[t - 1] + 1


def equity_vector(hero, board) -> np.ndarray:
    """float64[1326]: the hero's exact pot share against each pair (NaN where impossible);
    the board has 3, 4 or 5 cards (0 via :func:`gamesolve_nlth.evaluate.preflop.preflop_equity`)."""
    board = np.asarray(board, dtype=np.int64).reshape(-1)
    if board.shape[0] not in (3, 4, 5):
        raise ValueError(f"equity_vector enumerates flop, turn and river boards, not {board.shape[0]} cards")
    score = np.zeros(NUM_HOLES)
    count = np.zeros(NUM_HOLES)
    showdown_scores(int(hero[0]), int(hero[1]), board, HOLES, score, count)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(count > 0, score / np.maximum(count, 1.0), np.nan)


@functools.lru_cache(maxsize=64)
def cached_equity_vector(hero: tuple[int, ...], board: tuple[int, ...]) -> np.ndarray:
    """:func:`equity_vector`, memoised and read-only (a hand asks for the same board at
    every decision of a street)."""
    out = equity_vector(hero, board)
    out.setflags(write=False)
    return out


@njit(cache=True)
def _next_card_scores(h0, h1, board, deck, holes, score, count):
    """For every card ``deck[i]`` added to the flop ``board``: ``score[i, k]`` / ``count[i, k]``
    = pair ``k``'s pot share against the hero over the rivers (each unordered pair of deck
    cards is one full board, shared by the two turn cards it holds)."""
    n = deck.shape[0]
    b0, b1, b2 = board[0], board[1], board[2]
    keys, masks = hole_parts(holes)
    one = np.int64(1)
    fixed = (one << h0) | (one << h1) | (one << b0) | (one << b1) | (one << b2)
    ranks = np.empty(4, np.int64)
    for i in range(n):
        for j in range(i + 1, n):
            c, r = deck[i], deck[j]
            mine = evaluate7(h0, h1, b0, b1, b2, c, r)
            key5 = board_key(b0, b1, b2, c, r)
            board_suit_ranks(b0, b1, b2, c, r, ranks)
            forbid = fixed | (one << c) | (one << r)
            for k in range(holes.shape[0]):
                if masks[k] & forbid:
                    continue
                v = evaluate_with_board(key5, ranks, keys[k], holes[k, 0], holes[k, 1])
                s = 1.0 if v > mine else (0.5 if v == mine else 0.0)
                score[i, k] += s
                score[j, k] += s
                count[i, k] += 1.0
                count[j, k] += 1.0


def turn_equities(hero, flop, deck) -> np.ndarray:
    """float64[len(deck), 1326]: each pair's exact pot share against ``hero`` on the flop plus
    each card of ``deck`` (the cards not held by the hero nor on the flop), over every river:
    ``1 - equity_vector(hero, flop + [c])`` for all turn cards ``c`` at once (NaN where
    impossible)."""
    deck = np.asarray(deck, dtype=np.int64)
    score = np.zeros((len(deck), NUM_HOLES))
    count = np.zeros((len(deck), NUM_HOLES))
    _next_card_scores(int(hero[0]), int(hero[1]), np.asarray(flop, dtype=np.int64), deck, HOLES, score, count)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = np.where(count > 0, score / np.maximum(count, 1.0), np.nan)
    return out
