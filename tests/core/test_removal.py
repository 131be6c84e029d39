"""Two-player terminal values with item removal (gamesolve.game.removal) against a
pair-by-pair sum over every compatible opponent state."""

import numpy as np
import pytest

from gamesolve.game.removal import contest_cfv, fixed_cfv

N_ITEMS = 9


def random_states(rng, n, one_item):
    """``n`` states of two different items, or (``one_item``) some of one item (-1 second)."""
    pairs = np.array([(a, b) for a in range(N_ITEMS) for b in range(a + 1, N_ITEMS)], dtype=np.int16)
    items = pairs[rng.choice(len(pairs), n, replace=False)]
    if one_item:
        items[rng.random(n) < 0.3, 1] = -1
    reach = rng.random(n) * (rng.random(n) < 0.7)  # zeros: states the opponent does not reach with
    return items, reach


def compatible(items):
    held = [set(int(i) for i in row if i >= 0) for row in items]
    return np.array([[not (h & g) for g in held] for h in held], dtype=float)


@pytest.mark.parametrize("one_item", [False, True])
@pytest.mark.parametrize("seed", range(3))
def test_a_fixed_payoff_pays_the_compatible_opponent_reach(seed, one_item):
    rng = np.random.default_rng(seed)
    items, reach = random_states(rng, 30, one_item)
    out = np.full(30, 0.5)
    fixed_cfv(reach, items, N_ITEMS, 3.0, out, np.full(N_ITEMS + 1, np.nan))
    assert np.allclose(out, 0.5 + 3.0 * compatible(items) @ reach, atol=1e-12)


@pytest.mark.parametrize("seed", range(3))
def test_a_contest_wins_against_weaker_and_loses_against_stronger_compatible_states(seed):
    rng = np.random.default_rng(seed)
    items, reach = random_states(rng, 30, False)
    strength = rng.integers(0, 8, 30).astype(np.int32)  # ties
    order = np.argsort(strength, kind="stable").astype(np.int32)
    out = np.zeros(30)
    contest_cfv(reach, items, N_ITEMS, strength, order, 2.0, -2.0, out, np.zeros(N_ITEMS + 1))
    sign = np.sign(strength[:, None] - strength[None, :])
    assert np.allclose(out, 2.0 * (sign * compatible(items)) @ reach, atol=1e-12)
