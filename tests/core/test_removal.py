"""Two-player terminal values with item removal (gamesolve.game.removal) against a
pair-by-pair sum over every compatible opponent state."""

import numpy as np
import pytest

from gamesolve.game.removal import contest_cfv, fixed_cfv, item_removal

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
    fixed_cfv(reach, items, N_ITEMS, 3.0, out, np.full(N_ITEMS + 1, np.nan), np.full(31, -7, np.int64))
    assert np.allclose(out, 0.5 + 3.0 * compatible(items) @ reach, atol=1e-12)


def contest(items, reach, strength, win, lose):
    """The contest's values over a one-path bundle, scratch filled with junk first."""
    n = len(items)
    rm = item_removal(items, N_ITEMS, np.zeros(1, np.int32), strength[None, :], np.ones(1))
    out = np.zeros(n)
    scratch = np.full(N_ITEMS + 1, np.nan), np.full(n + 1, -7, np.int64), np.full(n, np.nan)
    contest_cfv(reach, rm.path_order[0], rm.path_groups[0], rm.path_bounds[0], rm.path_items[0], N_ITEMS, win, lose, out, *scratch)
    return out


@pytest.mark.parametrize("one_item", [False, True])
@pytest.mark.parametrize("seed", range(3))
def test_a_contest_wins_against_weaker_and_loses_against_stronger_compatible_states(seed, one_item):
    rng = np.random.default_rng(seed)
    items, reach = random_states(rng, 30, one_item)
    strength = rng.integers(0, 8, 30).astype(np.int32)  # ties
    sign = np.sign(strength[:, None] - strength[None, :])
    assert np.allclose(contest(items, reach, strength, 2.0, -2.0), 2.0 * (sign * compatible(items)) @ reach, atol=1e-12)


@pytest.mark.parametrize("seed", range(3))
def test_a_contest_pays_unequal_win_and_loss(seed):
    rng = np.random.default_rng(seed)
    items, reach = random_states(rng, 30, False)
    strength = rng.integers(0, 5, 30).astype(np.int32)
    weaker = (strength[:, None] > strength[None, :]) * compatible(items)
    stronger = (strength[:, None] < strength[None, :]) * compatible(items)
    assert np.allclose(contest(items, reach, strength, 3.0, -1.5), (3.0 * weaker - 1.5 * stronger) @ reach, atol=1e-12)


@pytest.mark.parametrize("seed", range(3))
def test_a_contest_leaves_out_states_of_negative_strength(seed):
    """States holding a public item (negative strength, zero reach) get nothing and count for
    nobody; the others are paid as if they were not there."""
    rng = np.random.default_rng(seed)
    items, reach = random_states(rng, 30, False)
    strength = rng.integers(0, 8, 30).astype(np.int32)
    blocked = rng.random(30) < 0.3
    strength[blocked] = -1
    reach[blocked] = 0.0
    sign = np.sign(strength[:, None] - strength[None, :]) * ~blocked[:, None]
    out = contest(items, reach, strength, 2.0, -2.0)
    assert np.all(out[blocked] == 0.0)
    assert np.allclose(out, 2.0 * (sign * compatible(items)) @ reach, atol=1e-12)


def test_a_contest_skips_zero_reach_without_changing_a_bit():
    """Equal to a sweep over every state in the same order (zeros add nothing), on a sparse
    reach like a range's deep in the tree."""
    rng = np.random.default_rng(5)
    items, _ = random_states(rng, 36, False)
    strength = rng.integers(0, 6, 36).astype(np.int32)
    reach = rng.random(36) * (rng.random(36) < 0.25)
    out = contest(items, reach, strength, 2.0, -2.0)
    order = np.argsort(strength, kind="stable")
    expected = np.zeros(36)
    for sign, positions in ((1.0, order), (-1.0, order[::-1])):
        sums, total, values = np.zeros(N_ITEMS), 0.0, np.zeros(36)
        for level in (np.unique(strength) if sign > 0 else np.unique(strength)[::-1]):
            group = [s for s in positions if strength[s] == level]
            for s in group:
                values[s] = 2.0 * sign * (total - sums[items[s, 0]] - sums[items[s, 1]])
            for s in group:
                total += reach[s]
                sums[items[s]] += reach[s]
        expected = expected + values if sign < 0 else values
    assert np.array_equal(out, expected)


@pytest.mark.parametrize("one_item", [False, True])
def test_holders_mark_the_states_holding_each_item_and_nobody_for_no_item(one_item):
    items, _ = random_states(np.random.default_rng(5), 30, one_item)
    rm = item_removal(items, N_ITEMS, np.zeros(1, np.int32), np.zeros((1, 30), np.int32), np.ones(1))
    expected = np.array([[item in row for row in items.tolist()] for item in range(N_ITEMS)])
    assert rm.holders.shape == (N_ITEMS + 1, 30)
    assert np.array_equal(rm.holders[:N_ITEMS], expected)
    assert not rm.holders[N_ITEMS].any()
