"""Pseudo-harmonic action translation (Ganzfried & Sandholm, IJCAI 2013).

An opponent's bet of ``x`` (as a fraction of the pot) that is not in the abstraction is
mapped to its neighbours ``A < x < B``: to ``A`` with probability

    f_{A,B}(x) = ((B - x)(1 + A)) / ((B - A)(1 + x))

and to ``B`` otherwise. f(A) = 1, f(B) = 0 and f decreases in between. The deterministic
variant maps to ``A`` when f >= 1/2, i.e. when ``x <= (A + B + 2AB) / (A + B + 2)``.
Bets below the smallest size map to it, above the largest to the largest.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence

import numpy as np


def pseudo_harmonic(a: float, b: float, x: float) -> float:
    """Probability of mapping bet ``x`` to the smaller size ``a`` (sizes as pot fractions)."""
    if not a < b:
        raise ValueError(f"need a < b, got a={a}, b={b}")
    if x <= a:
        return 1.0
    if x >= b:
        return 0.0
    return ((b - x) * (1.0 + a)) / ((b - a) * (1.0 + x))


def threshold(a: float, b: float) -> float:
    """The bet at which the deterministic mapping switches from ``a`` to ``b`` (f = 1/2)."""
    return (a + b + 2.0 * a * b) / (a + b + 2.0)


def translate(x: float, sizes: Sequence[float], rng: np.random.Generator | None = None) -> int:
    """Index into ascending ``sizes`` that bet ``x`` maps to: randomised with ``rng``,
    deterministic (the nearer size by the formula) without."""
    if not len(sizes):
        raise ValueError("no sizes to translate to")
    j = bisect.bisect_left(sizes, x)
    if j < len(sizes) and sizes[j] == x:
        return j
    if j == 0:
        return 0
    if j == len(sizes):
        return len(sizes) - 1
    p = pseudo_harmonic(sizes[j - 1], sizes[j], x)
    if rng is None:
        return j - 1 if p >= 0.5 else j
    return j - 1 if rng.random() < p else j
