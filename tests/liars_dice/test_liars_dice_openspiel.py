"""Liar's Dice is open-spiel's liars_dice, history for history: the same player to act, legal
actions, chance outcomes and probabilities, returns, and information sets (a bijection between
our keys and open-spiel's information_state_string)."""

import pytest

from tests.oracles.openspiel_walk import assert_same_random_histories, assert_same_tree, liars_dice_key, lockstep_walk

pyspiel = pytest.importorskip("pyspiel")
pytestmark = pytest.mark.oracle


def openspiel_game(dice=1, sides=6, bidding_rule="reset-face"):
    return pyspiel.load_game("liars_dice", {"numdice": dice, "dice_sides": sides, "bidding_rule": bidding_rule})


@pytest.fixture(scope="module")
def default_walk(liars_host):
    """Both default games walked in lockstep over every history (asserting as it goes)."""
    return lockstep_walk(liars_host.games.get("liars_dice").create(), openspiel_game())


def test_open_spiels_defaults_are_ours(liars_dice):
    ours = liars_dice.resolve()
    theirs = pyspiel.load_game("liars_dice").get_parameters()
    assert (ours["players"], ours["dice"], ours["sides"], ours["bidding_rule"]) == (
        theirs["players"], theirs["numdice"], theirs["dice_sides"], theirs["bidding_rule"]
    )  # fmt: skip


def test_the_default_game_is_open_spiels_on_every_history(default_walk):
    nodes, _ = default_walk
    assert nodes == 294_883


def test_information_sets_are_open_spiels_one_to_one(default_walk):
    _, theirs_to_ours = default_walk
    assert len(theirs_to_ours) == len(set(theirs_to_ours.values())) == 24_576


def test_open_spiels_information_state_strings_convert_to_our_keys(default_walk):
    _, theirs_to_ours = default_walk
    assert all(liars_dice_key(theirs) == ours for theirs, ours in theirs_to_ours.items())


@pytest.mark.parametrize(
    "params",
    [
        {"dice": 2, "sides": 2},
        {"dice": 3, "sides": 1},
        {"dice": 1, "sides": 4, "bidding_rule": "reset-quantity"},
        {"dice": 2, "sides": 2, "bidding_rule": "reset-quantity"},
    ],
    ids=["two-dice-of-two-sides", "three-one-sided-dice", "reset-quantity", "reset-quantity-two-dice"],
)
def test_small_settings_are_open_spiels_on_every_history(liars_dice, params):
    game = liars_dice.create(**params)
    assert assert_same_tree(game, openspiel_game(**params)) == game.num_histories()


def mostly_the_lowest_raise(actions, rng):
    """Uniform play calls liar or jumps to a high bid within a few moves; this reaches long bid sequences."""
    return actions[0] if rng.random() < 0.8 else actions[rng.integers(len(actions))]


@pytest.mark.parametrize(
    "params",
    [{"dice": 2, "sides": 6}, {"dice": 3, "sides": 3}, {"dice": 2, "sides": 5, "bidding_rule": "reset-quantity"}],
    ids=["two-dice", "three-dice-of-three-sides", "reset-quantity-two-dice"],
)
def test_bigger_settings_are_open_spiels_on_random_histories(liars_dice, params):
    game, theirs = liars_dice.create(**params), openspiel_game(**params)
    compared = assert_same_random_histories(game, theirs, walks=300, seed=11, sampler=mostly_the_lowest_raise)
    assert compared > 300 * (game.rules.total_dice + 5)
