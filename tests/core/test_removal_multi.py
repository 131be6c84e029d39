"""Three-player terminal values with item removal (gamesolve/game/removal_multi.py) equal a
brute force over every tuple of opponent states that share no item, paid by the scalar showdown."""

import itertools

import numpy as np
import pytest

from gamesolve.game.factored import CONTEST, FIXED, FormError, TerminalArrays
from gamesolve.game.removal import item_removal
from gamesolve.game.removal_multi import check_pair_items, three_player_cfv
from tests.multiway_oracle import brute_force_cfv

DECK = 9  # items; every pair of them is a private state (36), so conflicts are dense


def small_deck(seed, levels):
    """Every pair of a small deck, random strengths in ``levels`` values (many ties), random
    reach with some states out of each range."""
    rng = np.random.default_rng(seed)
    items = np.array(list(itertools.combinations(range(DECK), 2)), dtype=np.int16)
    strength = rng.integers(0, levels, len(items)).astype(np.int32)
    reach = rng.random((3, len(items))) * (rng.random((3, len(items))) < 0.8)
    rm = item_removal(items, DECK, np.zeros(1, np.int32), strength[None, :], np.ones(1))
    return rm, strength, reach


def terminal(kind, payoff, contender):
    return TerminalArrays(
        np.array([kind], np.int8), np.array([payoff], np.float64), np.array([contender], np.bool_),
        np.full(1, -1, np.int32), np.zeros((0, 0, 3)),
    )  # fmt: skip


def assert_equals_brute_force(term, rm, strength, reach):
    states = np.arange(len(strength))
    for p in range(3):
        out = np.zeros(len(states))
        three_player_cfv(term, rm, 0, p, reach, out)
        expected = brute_force_cfv(term.kind[0], term.payoff[0], term.contender[0], p, reach, rm.items, strength, states)
        assert out == pytest.approx(expected, rel=1e-9, abs=1e-9)


@pytest.mark.parametrize("seed", range(3))
def test_a_fixed_terminal_pays_the_joint_compatible_mass(seed):
    rm, strength, reach = small_deck(seed, 4)
    assert_equals_brute_force(terminal(FIXED, [7.0, -3.0, -4.0], [True, False, False]), rm, strength, reach)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("levels", [3, 30])
def test_a_three_way_pot_of_equal_stakes_equals_brute_force(seed, levels):
    rm, strength, reach = small_deck(seed, levels)
    assert_equals_brute_force(terminal(CONTEST, [5.0, 5.0, 5.0], [True, True, True]), rm, strength, reach)


@pytest.mark.parametrize("stakes", [[2.0, 5.0, 9.0], [9.0, 2.0, 5.0], [5.0, 5.0, 2.0], [9.0, 5.0, 9.0]])
def test_side_pots_of_unequal_stakes_equal_brute_force(stakes):
    rm, strength, reach = small_deck(11, 4)
    assert_equals_brute_force(terminal(CONTEST, stakes, [True, True, True]), rm, strength, reach)


@pytest.mark.parametrize("contender", [[True, True, False], [False, True, True], [True, False, True]])
@pytest.mark.parametrize("stakes", [[5.0, 5.0, 2.0], [4.0, 9.0, 9.0], [9.0, 3.0, 3.0]])
def test_a_folded_players_stake_is_dead_money_and_their_cards_still_count(contender, stakes):
    rm, strength, reach = small_deck(5, 4)
    assert_equals_brute_force(terminal(CONTEST, stakes, contender), rm, strength, reach)


@pytest.mark.parametrize("items", [[[0, 1], [2, -1]], [[0, 1], [2, 2]], [[0, 1], [1, 0]]])
def test_states_that_do_not_hold_two_different_items_are_refused(items):
    with pytest.raises(FormError):
        check_pair_items(np.array(items))
