"""Suit isomorphism of dealt cards: on a board that does not tell some suits apart (QsJh2h:
clubs and diamonds), a turn or river card and its images under those suit swaps lead to
mirror-image subtrees, so a spot deals one card of each class and the core adds the others'
values by permuting hands (:mod:`gamesolve.game.symmetry`). Valid while both ranges are
unchanged by the swaps, which the usual range syntax (hand classes) guarantees.

A card is ``rank * 4 + suit``; a suit permutation ``pi`` is a tuple with ``pi[suit]`` the image.
"""

from __future__ import annotations

import itertools
from functools import cache

import numpy as np

from gamesolve_nlth.spot.hands import HAND_CARDS, hand_index

PERMUTATIONS = tuple(itertools.permutations(range(4)))


def apply(pi: tuple[int, ...], card: int) -> int:
    return (card >> 2) * 4 + pi[card & 3]


def board_symmetries(board: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The suit permutations that map the board onto itself (as a set of cards)."""
    cards = set(board)
    return [pi for pi in PERMUTATIONS if {apply(pi, c) for c in cards} == cards]


def card_classes(board: tuple[int, ...], spot_board: tuple[int, ...]) -> list[tuple[int, list[tuple[int, tuple[int, ...]]]]]:
    """The cards left by ``board`` in classes of mirror images: ``(kept card, [(twin card,
    permutation mapping the kept card to it), ...])``, kept cards in increasing order.

    Only symmetries of the spot's own board count (the ranges, and so the reach, are
    invariant under those alone): a turn card can make the board symmetric in suits the flop
    told apart (QsJh2h then Qc: clubs and spades), and those stay apart."""
    spot_group = set(board_symmetries(spot_board))
    group = [pi for pi in board_symmetries(board) if pi in spot_group]
    seen: set[int] = set()
    out = []
    for card in range(52):
        if card in board or card in seen:
            continue
        twins = []
        for pi in group:
            image = apply(pi, card)
            if image != card and image not in seen:
                seen.add(image)
                twins.append((image, pi))
        seen.add(card)
        out.append((card, twins))
    return out


@cache
def hand_permutation(pi: tuple[int, ...]) -> np.ndarray:
    """``perm[h]``: the hand that ``pi`` maps to hand ``h`` (so a twin card's value for ``h``
    is the kept card's value for ``perm[h]``)."""
    inverse = tuple(int(i) for i in np.argsort(pi))
    perm = np.empty(len(HAND_CARDS), dtype=np.int32)
    for h, (a, b) in enumerate(HAND_CARDS):
        perm[h] = hand_index(apply(inverse, int(a)), apply(inverse, int(b)))
    return perm


def ranges_symmetric(reach: np.ndarray, board: tuple[int, ...]) -> bool:
    """Whether every range ``[P, 1326]`` is unchanged by the board's suit symmetries."""
    return all(np.array_equal(reach[:, hand_permutation(pi)], reach) for pi in board_symmetries(board))
