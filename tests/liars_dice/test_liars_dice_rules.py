"""Liar's Dice rules as open-spiel's liars_dice.cc states them, one behaviour per test.

Chance action ``i`` rolls face ``i + 1``; under the default "reset-face" rule bid action
``(q - 1) * sides + (f - 1)`` means "q x f"; action ``total_dice * sides`` calls liar.
"""

import pytest

from gamesolve.game import CHANCE, TERMINAL
from gamesolve.game.explicit_tree import compile_explicit_tree
from gamesolve_liars_dice import LiarsDiceGame

LIAR = 12  # default game: 2 dice in all, 6 sides


def play(game, *actions):
    state = game.new_initial_state()
    for action in actions:
        state = state.child(action)
    return state


def roll(*faces):
    """Chance actions rolling these faces."""
    return [face - 1 for face in faces]


def bid(quantity, face, sides=6):
    return (quantity - 1) * sides + (face - 1)


def test_each_die_is_rolled_by_chance_with_equal_probability_before_anyone_bids():
    game = LiarsDiceGame()
    for state in (play(game), play(game, 0)):
        assert state.current_player() == CHANCE
        assert [a for a, _ in state.chance_outcomes()] == [0, 1, 2, 3, 4, 5]
        assert all(p == pytest.approx(1 / 6, abs=0) for _, p in state.chance_outcomes())
    assert play(game, *roll(3, 5)).current_player() == 0


def test_player_zero_opens_and_cannot_call_liar_before_a_bid():
    state = play(LiarsDiceGame(), *roll(3, 5))
    assert state.legal_actions() == list(range(12))
    with pytest.raises(ValueError):
        state.child(LIAR)


def test_each_bid_must_be_higher_and_liar_becomes_legal():
    state = play(LiarsDiceGame(), *roll(3, 5), bid(1, 4))
    assert state.current_player() == 1
    assert state.legal_actions() == [bid(1, 5), bid(1, 6), *range(bid(2, 1), bid(2, 6) + 1), LIAR]
    with pytest.raises(ValueError):
        state.child(bid(1, 4))


def test_after_the_highest_bid_only_liar_is_left():
    state = play(LiarsDiceGame(), *roll(3, 5), bid(2, 6))
    assert state.legal_actions() == [LIAR]
    assert play(LiarsDiceGame(), *roll(3, 5), bid(2, 6), LIAR).is_terminal()


def test_a_true_bid_wins_for_the_bidder_and_the_highest_face_is_wild():
    # Dice 3 and 6: the 6 is wild, so "2 x 3" holds; player 0 bid it, player 1 called.
    state = play(LiarsDiceGame(), *roll(3, 6), bid(2, 3), LIAR)
    assert state.current_player() == TERMINAL
    assert state.returns() == [1.0, -1.0]


def test_a_false_bid_wins_for_the_caller():
    # Dice 3 and 5, no wild: "2 x 3" fails; player 1 bid it, player 0 called.
    state = play(LiarsDiceGame(), *roll(3, 5), bid(1, 2), bid(2, 3), LIAR)
    assert state.returns() == [1.0, -1.0]


def test_a_bid_on_the_wild_face_counts_each_die_once():
    assert play(LiarsDiceGame(), *roll(6, 6), bid(2, 6), LIAR).returns() == [1.0, -1.0]
    assert play(LiarsDiceGame(), *roll(6, 2), bid(2, 6), LIAR).returns() == [-1.0, 1.0]


def test_a_player_knows_their_own_dice_sorted_and_every_bid_but_not_the_other_dice():
    game = LiarsDiceGame(dice=2)
    state = play(game, *roll(5, 2, 4, 4), bid(1, 3), bid(2, 1))
    assert state.information_state_key(0) == "2,5|1x3 2x1"
    assert state.information_state_key(1) == "4,4|1x3 2x1"
    assert play(game, *roll(2, 5, 1, 1), bid(1, 3), bid(2, 1)).information_state_key(0) == "2,5|1x3 2x1"


def test_the_public_state_is_the_bids_alone():
    game = LiarsDiceGame()
    first = play(game, *roll(1, 2), bid(1, 4), bid(2, 2))
    second = play(game, *roll(6, 6), bid(1, 4), bid(2, 2))
    assert first.public_state_key() == second.public_state_key() == "1x4 2x2"
    assert play(game, *roll(1, 2)).public_state_key() == "-"


def test_actions_read_as_quantity_x_face_and_liar():
    state = play(LiarsDiceGame(), *roll(3, 5))
    assert state.action_to_string(bid(2, 5)) == "2x5"
    assert state.action_to_string(LIAR) == "liar"
    assert play(LiarsDiceGame()).action_to_string(2) == "roll 3"


def test_reset_quantity_orders_bids_by_face_first():
    game = LiarsDiceGame(bidding_rule="reset-quantity")
    state = play(game, *roll(3, 5))
    assert [state.action_to_string(a) for a in state.legal_actions()[:4]] == ["1x1", "2x1", "1x2", "2x2"]


def test_states_are_values():
    state = play(LiarsDiceGame(), *roll(3, 5))
    state.child(bid(1, 1))
    assert state.public_state_key() == "-" and state.current_player() == 0


@pytest.fixture(scope="module")
def default_tree():
    return compile_explicit_tree(LiarsDiceGame())


def test_the_counted_tree_size_is_the_compiled_one(default_tree):
    assert default_tree.num_nodes == LiarsDiceGame().num_histories() == 294_883
    for params in ({"dice": 2, "sides": 2}, {"sides": 4, "bidding_rule": "reset-quantity"}):
        game = LiarsDiceGame(**params)
        assert compile_explicit_tree(game).num_nodes == game.num_histories()


def test_the_default_game_has_open_spiels_24576_information_sets(default_tree):
    # six own dice times 2 ** 12 bid sequences
    assert default_tree.num_infosets == 6 * 2**12


def test_two_dice_each_is_too_big_for_an_explicit_tree():
    assert LiarsDiceGame(dice=2).num_histories() > 4 * 10**10
