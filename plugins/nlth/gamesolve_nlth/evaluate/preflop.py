"""Exact heads-up preflop equities of every hole-card pair against every other, cached.

``preflop_table()[i, j]`` is pair ``i``'s pot share against pair ``j`` over all 1,712,304
boards (NaN where the pairs share a card). Suit isomorphism leaves 47,008 distinct matchups
up to swapping the hands; each is enumerated once (five nested loops with the evaluator's
additive card keys hoisted) and the table is filled by symmetry. About 10 CPU minutes,
once: ``gamesolve abstraction equity`` builds it (two threads), and it is kept as a zarr
array (7 MB) in the cache folder beside the card abstractions.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
from numba import njit

from gamesolve.threads import run_blocks
from gamesolve_nlth.abstraction.cache import cache_root
from gamesolve_nlth.evaluate.hands import HOLES, NUM_HOLES, hole_index
from gamesolve_nlth.evaluator import CARD_KEY, FLUSH_BITS, SUIT_BIAS, _nonflush, evaluate7

VERSION = 1


def table_path(cache_dir=None) -> Path:
    return cache_root(cache_dir) / "equity" / f"preflop-hu-v{VERSION}"


@njit(cache=True, inline="always")
def _value(key, c0, c1, c2, c3, c4, c5, c6):
    if key & FLUSH_BITS:
        return evaluate7(c0, c1, c2, c3, c4, c5, c6)
    return _nonflush(key)


@njit(cache=True)
def matchup_score(a0, a1, b0, b1):
    """(2 x wins + ties, boards) of hand a against hand b over every 5-card board."""
    deck = np.empty(48, np.int64)
    n = 0
    for c in range(52):
        if c != a0 and c != a1 and c != b0 and c != b1:
            deck[n] = c
            n += 1
    ka = SUIT_BIAS + CARD_KEY[a0] + CARD_KEY[a1]
    kb = SUIT_BIAS + CARD_KEY[b0] + CARD_KEY[b1]
    score = 0
    boards = 0
    for i in range(n - 4):
        c0 = deck[i]
        k0 = CARD_KEY[c0]
        for j in range(i + 1, n - 3):
            c1 = deck[j]
            k1 = k0 + CARD_KEY[c1]
            for l in range(j + 1, n - 2):
                c2 = deck[l]
                k2 = k1 + CARD_KEY[c2]
                for m in range(l + 1, n - 1):
                    c3 = deck[m]
                    k3 = k2 + CARD_KEY[c3]
                    for q in range(m + 1, n):
                        c4 = deck[q]
                        k4 = k3 + CARD_KEY[c4]
                        va = _value(ka + k4, a0, a1, c0, c1, c2, c3, c4)
                        vb = _value(kb + k4, b0, b1, c0, c1, c2, c3, c4)
                        score += 2 if va > vb else (1 if va == vb else 0)
                        boards += 1
    return score, boards


def _scores(reps: np.ndarray, holes: np.ndarray, out: np.ndarray) -> None:
    """``out[r]`` = the exact equity of matchup ``reps[r]``: matchups in blocks on numba's
    threads, each a ``nogil`` kernel on a Python thread (:func:`gamesolve.threads.run_blocks`;
    not ``prange``, whose wrapper compiles ``matchup_score`` again, issue 36)."""
    run_blocks(reps.shape[0], lambda lo, hi: _scores_rows(reps, holes, out, lo, hi))


@njit(cache=True, nogil=True)
def _scores_rows(reps, holes, out, lo, hi):
    for r in range(lo, hi):
        i, j = reps[r, 0], reps[r, 1]
        s, b = matchup_score(holes[i, 0], holes[i, 1], holes[j, 0], holes[j, 1])
        out[r] = s / (2.0 * b)


def _suit_images() -> np.ndarray:
    """int64[24, 1326]: the pair each pair becomes under each permutation of the suits."""
    out = np.empty((24, NUM_HOLES), dtype=np.int64)
    for p, perm in enumerate(itertools.permutations(range(4))):
        perm = np.array(perm)
        mapped = (HOLES >> 2) * 4 + perm[HOLES & 3]
        out[p] = [hole_index(a, b) for a, b in mapped]
    return out


def canonical_matchups() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every unordered pair of disjoint hands ``(i, j)``, ``i < j``, with the index of its
    class and whether the class representative has the hands the other way round; and the
    representatives ``(x, y)``."""
    disjoint = (HOLES[:, None, 0] != HOLES[None, :, 0]) & (HOLES[:, None, 0] != HOLES[None, :, 1])
    disjoint &= (HOLES[:, None, 1] != HOLES[None, :, 0]) & (HOLES[:, None, 1] != HOLES[None, :, 1])
    i, j = np.nonzero(np.triu(disjoint, 1))
    images = _suit_images()
    best = np.full(len(i), np.iinfo(np.int64).max, dtype=np.int64)
    swapped = np.zeros(len(i), dtype=bool)
    for p in range(24):
        x, y = images[p, i], images[p, j]
        flip = x > y
        key = np.where(flip, y * NUM_HOLES + x, x * NUM_HOLES + y)
        better = key < best
        best = np.where(better, key, best)
        swapped = np.where(better, flip, swapped)
    keys, cls = np.unique(best, return_inverse=True)
    reps = np.stack([keys // NUM_HOLES, keys % NUM_HOLES], axis=1)
    return np.stack([i, j], axis=1), cls, swapped, reps


def build_preflop_table(progress=None) -> np.ndarray:
    """Compute the table (float32[1326, 1326]); ``progress`` (a Progress) sees the matchups."""
    pairs, cls, swapped, reps = canonical_matchups()
    eq = np.empty(len(reps))
    chunk = 512
    if progress is not None:
        progress.start(len(reps), "matchups", "exact preflop equities")
    for start in range(0, len(reps), chunk):
        part = np.empty(min(chunk, len(reps) - start))
        _scores(reps[start : start + len(part)], HOLES, part)
        eq[start : start + len(part)] = part
        if progress is not None:
            progress.advance(len(part))
    table = np.full((NUM_HOLES, NUM_HOLES), np.nan, dtype=np.float32)
    e = np.where(swapped, 1.0 - eq[cls], eq[cls])
    table[pairs[:, 0], pairs[:, 1]] = e
    table[pairs[:, 1], pairs[:, 0]] = 1.0 - e
    return table


def save_table(table: np.ndarray, cache_dir=None) -> Path:
    from gamesolve.store.zarr_io import atomic_group, write_array

    path = table_path(cache_dir)
    with atomic_group(path) as group:
        group.attrs.update({"kind": "gamesolve-nlth-preflop-equity", "version": VERSION})
        write_array(group, "equity", table)
    return path


_CACHE: dict[str, np.ndarray] = {}


def preflop_table(cache_dir=None) -> np.ndarray | None:
    """The cached table, or None if it was never built."""
    path = table_path(cache_dir)
    key = str(path)
    if key not in _CACHE:
        if not (path / "zarr.json").exists():
            return None
        from gamesolve.store.zarr_io import open_group

        _CACHE[key] = np.asarray(open_group(path, "preflop equity table")["equity"][...])
    return _CACHE[key]
