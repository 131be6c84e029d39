"""Random numbers for kernels: counter-based splitmix64 (Steele, Lea & Flood 2014) and a
sequential xorshift64* (Vigna 2016).

Every random process of gamesolve takes a seed; kernels draw from splitmix64 streams so
that a result depends only on (seed, iteration), not on batching or threads.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, inline="always")
def splitmix(state):
    """One splitmix64 step: the new state and a float in [0, 1)."""
    state = state + np.uint64(0x9E3779B97F4A7C15)
    z = state
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    return state, float(z >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, inline="always")
def stream(seed, counter):
    """The starting state of stream ``counter`` of ``seed`` (deal ``counter`` of a run)."""
    state, _ = splitmix(np.uint64(seed) * np.uint64(0xD1B54A32D192ED03) + np.uint64(counter))
    return state


@njit(cache=True, inline="always")
def categorical(u, weights, start, n):
    """The index ``a < n`` drawn by ``u`` from the weights ``weights[start + a]``: the first
    whose cumulative sum of positive weights (in index order) exceeds ``u``, else the last.
    ``u`` is uniform on [0, total) (a probability row: [0, 1), a splitmix draw as it is);
    a weight that is not positive is never drawn, but for the last index as the fallback.
    Sampling one action per node (Pluribus supplement, Algorithm 1: the opponents' actions
    at line 37 and UPDATE-STRATEGY's at line 5; frozen information sets, continuation
    strategies and rollouts alike): every kernel's draw from a distribution, one copy so that
    they agree to the bit (the same sum in the same order). Integer weights (MCCFR's int32
    regrets, ``u`` on [0, their positive total)) are summed as integers: exact, and the same
    bits as a double sum, whose partial sums of int32 values are exact below 2^53."""
    acc = 0  # becomes a float with float weights (0 + w is w exactly)
    for a in range(n - 1):
        w = weights[start + a]
        if w > 0:
            acc += w
        if u < acc:
            return a
    return n - 1


@njit(cache=True, inline="always")
def uniform_index(u, n):
    """The index ``a < n`` drawn by a uniform ``u`` on [0, 1), uniformly (the top guards
    against rounding)."""
    return min(int(u * n), n - 1)


@njit(cache=True)
def categorical_cdf(cdf, u):
    """The first index whose cumulative probability exceeds ``u``: a categorical draw by
    bisection over many outcomes (listed deals, hands of a range), ``cdf`` nondecreasing and
    its last entry above any ``u`` in [0, 1). (:func:`categorical` scans a few weights.)"""
    lo, hi = 0, cdf.shape[0] - 1
    while lo < hi:
        mid = (lo + hi) // 2
        if cdf[mid] > u:
            hi = mid
        else:
            lo = mid + 1
    return lo


@njit(cache=True)
def xorshift_state(seed):
    """A one-element uint64 state of :func:`xorshift` from ``seed`` (never zero)."""
    state = np.empty(1, np.uint64)
    state[0] = np.uint64(seed) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(0x632BE59BD9B4E019)
    if state[0] == np.uint64(0):
        state[0] = np.uint64(1)
    return state


@njit(cache=True, inline="always")
def xorshift(state):
    """One xorshift64* step (Vigna 2016) on ``state`` in place: 64 random bits (uint64). For
    kernels that draw many numbers from one seed in sequence (Monte Carlo equities)."""
    x = state[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    state[0] = x
    return x * np.uint64(2685821657736338717)


def mix(x: int) -> int:
    """splitmix64's output function in Python (seeding per-thread streams)."""
    x = (x + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return x ^ (x >> 31)
