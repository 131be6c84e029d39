"""Liar's Dice honours the game contract (gamesolve.testing), whole trees where they are small."""

import pytest

from gamesolve.testing import check_game_conformance

DEFAULT_NODES = 294_883


def test_the_default_game_honours_the_contract_on_every_history(liars_dice):
    report = check_game_conformance(liars_dice.create(), max_nodes=DEFAULT_NODES)
    assert report == {"states": DEFAULT_NODES, "complete": 1, "infosets": 24_576}


@pytest.mark.parametrize(
    "params",
    [{"dice": 2, "sides": 2}, {"dice": 3, "sides": 1}, {"sides": 4, "bidding_rule": "reset-quantity"}],
    ids=["two-dice-of-two-sides", "three-one-sided-dice", "reset-quantity"],
)
def test_small_settings_honour_the_contract_on_every_history(liars_dice, params):
    game = liars_dice.create(**params)
    assert check_game_conformance(game)["states"] == game.num_histories()


def test_two_six_sided_dice_each_honour_the_contract_on_random_histories(liars_dice):
    report = check_game_conformance(liars_dice.create(dice="2"), max_nodes=5_000, random_walks=300)
    assert report["complete"] == 0 and report["states"] > 5_000
