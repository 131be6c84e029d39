"""Card encoding shared by every NLTH module.

A card is an integer ``rank * 4 + suit`` with ranks 0..12 for 2..A and suits 0..3 for
clubs, diamonds, hearts, spades (``"2c" == 0``, ``"As" == 51``). Masks are 52-bit
integers with bit ``card`` set.
"""

from __future__ import annotations

RANKS = "23456789TJQKA"
SUITS = "cdhs"
NUM_CARDS = 52


def card_rank(card: int) -> int:
    return card >> 2


def card_suit(card: int) -> int:
    return card & 3


def parse_card(text: str) -> int:
    """``"As"`` -> 51. Raises ValueError on anything else."""
    if len(text) != 2 or text[0].upper() not in RANKS or text[1].lower() not in SUITS:
        raise ValueError(f"not a card: {text!r} (expected rank 2-9TJQKA and suit cdhs, e.g. 'As')")
    return RANKS.index(text[0].upper()) * 4 + SUITS.index(text[1].lower())


def parse_cards(text: str) -> list[int]:
    """``"AsKd"`` or ``"As Kd"`` -> [51, 46]."""
    compact = text.replace(" ", "").replace(",", "")
    if len(compact) % 2:
        raise ValueError(f"not a list of cards: {text!r}")
    return [parse_card(compact[i : i + 2]) for i in range(0, len(compact), 2)]


def card_str(card: int) -> str:
    if not 0 <= card < NUM_CARDS:
        raise ValueError(f"not a card index: {card}")
    return RANKS[card >> 2] + SUITS[card & 3]


def cards_str(cards) -> str:
    return "".join(card_str(int(c)) for c in cards)
