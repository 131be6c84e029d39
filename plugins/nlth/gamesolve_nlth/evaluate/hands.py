"""The 1,326 hole-card pairs as arrays: what a player's *range* is indexed by.

Pair ``k`` holds cards ``HOLES[k] = (a, b)`` with ``a < b``, in lexicographic order
(``k`` = :func:`hole_index`). ``HOLE_MASKS[k]`` is its 52-bit card mask, so a pair is
possible next to the cards ``used`` (a mask) when ``HOLE_MASKS[k] & used == 0``.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

import numpy as np

NUM_HOLES = 1326


def _holes() -> np.ndarray:
    return np.array([(a, b) for a in range(52) for b in range(a + 1, 52)], dtype=np.int64)


HOLES = _holes()
HOLE_MASKS = (np.uint64(1) << HOLES[:, 0].astype(np.uint64)) | (np.uint64(1) << HOLES[:, 1].astype(np.uint64))


def hole_index(a: int, b: int) -> int:
    """The index of the pair ``{a, b}``."""
    a, b = (int(a), int(b)) if a < b else (int(b), int(a))
    if not 0 <= a < b < 52:
        raise ValueError(f"not a pair of distinct cards: {a}, {b}")
    return a * 51 - a * (a - 1) // 2 + (b - a - 1)


def hole_indices(holes: np.ndarray) -> np.ndarray:
    """int64[n]: :func:`hole_index` of every pair of ``holes`` (int64[n, 2])."""
    holes = np.asarray(holes, dtype=np.int64).reshape(-1, 2)
    a, b = holes.min(axis=1), holes.max(axis=1)
    return a * 51 - a * (a - 1) // 2 + (b - a - 1)


def card_mask(cards: Iterable[int]) -> np.uint64:
    m = np.uint64(0)
    for c in cards:
        m |= np.uint64(1) << np.uint64(int(c))
    return m


def possible(used: Iterable[int]) -> np.ndarray:
    """bool[1326]: the pairs that share no card with ``used``."""
    return (HOLE_MASKS & card_mask(used)) == 0


@functools.lru_cache(maxsize=1)
def preflop_classes() -> np.ndarray:
    """int64[1326]: the preflop canonical class (0..168, the card abstraction's preflop
    bucket) of every pair."""
    from gamesolve_nlth.isomorphism import HandIndexer

    return np.asarray(HandIndexer((2,)).index_batch(HOLES.copy(), 0), dtype=np.int64)
