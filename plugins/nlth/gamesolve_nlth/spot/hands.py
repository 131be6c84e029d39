"""The 1,326 hole-card pairs: their numbering, their cards, and ranges over them.

A range is the usual text: comma-separated entries, each optionally ``:weight`` (default 1;
a later entry overrides an earlier one for the same hands):

* ``AA``, ``AKs``, ``AKo``, ``AK`` (suited and offsuit): hand classes;
* ``22+`` (pairs from 22 up), ``ATs+`` / ``KTo+`` / ``QT+`` (the kicker up to one below the top card);
* ``99-66``, ``A5s-A2s``, ``KTo-K7o``: a span of one shape;
* ``AsKs``: one combination; ``any`` (or ``*``): every hand.
"""

from __future__ import annotations

import itertools
import re

import numpy as np

from gamesolve_nlth.cards import RANKS, parse_card

NUM_HANDS = 1326
HAND_CARDS = np.array(list(itertools.combinations(range(52), 2)), dtype=np.int16)  # [1326, 2], low card first
HAND_INDEX = {(int(a), int(b)): i for i, (a, b) in enumerate(HAND_CARDS)}


class RangeError(ValueError):
    """A range that does not parse; the message is fit to show a user."""


def hand_index(a: int, b: int) -> int:
    return HAND_INDEX[(min(a, b), max(a, b))]


def touching(board) -> np.ndarray:
    """``bool[1326]``: the hands holding a card of ``board`` (a range loses them on that board)."""
    return np.isin(HAND_CARDS, np.asarray(board, dtype=np.int64)).any(axis=1)


def hand_class(h: int) -> str:
    """``"AKs"``, ``"72o"``, ``"QQ"``."""
    a, b = (int(c) for c in HAND_CARDS[h])
    hi, lo = max(a, b), min(a, b)
    if hi >> 2 == lo >> 2:
        return RANKS[hi >> 2] * 2
    return RANKS[hi >> 2] + RANKS[lo >> 2] + ("s" if (hi & 3) == (lo & 3) else "o")


def _class_hands(hi: int, lo: int, kind: str) -> list[int]:
    """Hands of ranks ``hi`` >= ``lo`` and kind ``"s"``, ``"o"`` or ``""`` (both; pairs)."""
    out = []
    for sa in range(4):
        for sb in range(4):
            a, b = hi * 4 + sa, lo * 4 + sb
            if a == b:
                continue
            if hi == lo and sa >= sb:
                continue
            if hi != lo and ((kind == "s" and sa != sb) or (kind == "o" and sa == sb)):
                continue
            out.append(hand_index(a, b))
    return out


_SHAPE = re.compile(r"([2-9TJQKA])([2-9TJQKA])([so]?)")


def _shape(text: str) -> tuple[int, int, str]:
    m = _SHAPE.fullmatch(text)
    if not m:
        raise RangeError(f"not a hand class: {text!r} (e.g. AA, AKs, T9o)")
    a, b = RANKS.index(m.group(1)), RANKS.index(m.group(2))
    if a < b:
        a, b = b, a
    if a == b and m.group(3):
        raise RangeError(f"a pair is neither suited nor offsuit: {text!r}")
    return a, b, m.group(3)


def _entry(text: str) -> list[int]:
    if text in ("any", "*"):
        return list(range(NUM_HANDS))
    if len(text) == 4 and text[1] in "cdhs" and text[3] in "cdhs":
        try:
            a, b = parse_card(text[:2]), parse_card(text[2:])
        except ValueError as exc:
            raise RangeError(str(exc)) from None
        if a == b:
            raise RangeError(f"a hand holds two different cards: {text!r}")
        return [hand_index(a, b)]
    if "-" in text:
        first, last = (_shape(t) for t in text.split("-", 1))
        if first[0] == first[1] and last[0] == last[1]:  # 99-66
            lo, hi = sorted((first[0], last[0]))
            return [h for r in range(lo, hi + 1) for h in _class_hands(r, r, "")]
        if first[0] != last[0] or first[2] != last[2]:
            raise RangeError(f"a span keeps its top card and kind: {text!r} (e.g. A5s-A2s)")
        lo, hi = sorted((first[1], last[1]))
        return [h for r in range(lo, hi + 1) for h in _class_hands(first[0], r, first[2])]
    if text.endswith("+"):
        hi, lo, kind = _shape(text[:-1])
        if hi == lo:  # 22+
            return [h for r in range(lo, 13) for h in _class_hands(r, r, "")]
        return [h for r in range(lo, hi) for h in _class_hands(hi, r, kind)]
    hi, lo, kind = _shape(text)
    return _class_hands(hi, lo, kind)


def parse_range(text: str) -> np.ndarray:
    """Weights over the 1,326 hands (see the module docstring)."""
    weights = np.zeros(NUM_HANDS)
    entries = [e.strip() for e in str(text).split(",") if e.strip()]
    if not entries:
        raise RangeError("an empty range")
    for entry in entries:
        hands, _, weight = entry.partition(":")
        try:
            w = float(weight) if weight else 1.0
        except ValueError:
            raise RangeError(f"not a weight: {entry!r} (e.g. AKs:0.5)") from None
        if not 0.0 <= w <= 1.0:
            raise RangeError(f"a weight is in [0, 1]: {entry!r}")
        weights[_entry(hands.strip())] = w
    return weights
