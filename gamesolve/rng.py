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
