"""What a person sees and types: the NLTH view (sizes in chips, pot fractions, big blinds;
illegal amounts refused with a message), the toy games' views, the generic fallback."""

import pytest

from gamesolve.play.view import HIDDEN, GenericView, IllegalAction, view_for
from gamesolve_nlth.play_view import NLTHView, position_names, pot_fraction_text
from gamesolve_nlth.state import CHECK_CALL, FOLD, NLTHGame, raise_action


@pytest.fixture
def nlth():
    return NLTHGame(players=6)


def preflop(game, actions=()):
    """Seat 0 is the button: seat 3 (UTG) acts first; cards dealt in order (board too)."""
    state = game.new_initial_state(cards=list(range(17)))
    for a in actions:
        state = state.child(a)
    return state


def test_position_names_follow_the_button():
    assert position_names(6) == ["SB", "BB", "UTG", "HJ", "CO", "BTN"]
    assert position_names(2) == ["BB", "BTN/SB"]
    assert position_names(9) == ["SB", "BB", "UTG", "UTG+1", "UTG+2", "LJ", "HJ", "CO", "BTN"]
    assert position_names(3) == ["SB", "BB", "BTN"]


def test_nlth_view_is_the_plugins_and_hides_other_players_cards(play_host, nlth):
    view = view_for(nlth, play_host.pm)
    assert isinstance(view, NLTHView)
    state = preflop(nlth)
    table = view.table(state, 3, [f"p{s}" for s in range(6)])
    assert [s.position for s in table.seats] == ["BTN", "SB", "BB", "UTG", "HJ", "CO"]
    assert table.seats[3].cards == ("3h", "3s") and table.seats[4].cards == (HIDDEN, HIDDEN)
    assert table.pot == 150 and [s.bet for s in table.seats][:3] == [0, 50, 100]
    assert [s.stack for s in table.seats][:3] == [10000, 9950, 9900]
    assert table.stage == "preflop" and table.board == ()


def test_typed_sizes_in_chips_big_blinds_and_pot_fractions(nlth):
    view = NLTHView(nlth)
    state = preflop(nlth)  # UTG to act: 100 to call, pot 150
    assert view.parse(state, "r 600") == raise_action(600) == view.parse(state, "r600") == view.parse(state, "bet 600")
    assert view.parse(state, "R 1,200") == raise_action(1200)
    assert view.parse(state, "r 3bb") == raise_action(300)
    assert view.parse(state, "r 2.5bb") == raise_action(250)
    # a pot-sized raise: call 100, then raise the pot after the call (250): to 350
    assert view.parse(state, "r pot") == raise_action(350)
    assert view.parse(state, "r 1/2pot") == raise_action(225)
    assert view.parse(state, "r 50%") == raise_action(225)
    assert view.parse(state, "raise 2/3 pot") == raise_action(267)
    assert view.parse(state, "r min") == raise_action(200)
    assert view.parse(state, "allin") == raise_action(10000) == view.parse(state, "r max")
    assert view.parse(state, "f") == FOLD and view.parse(state, "c") == CHECK_CALL and view.parse(state, "call") == CHECK_CALL


@pytest.mark.parametrize("text, words", [
    ("r 150", "below the minimum raise to 200"),
    ("r 1bb", "below the minimum"),
    ("r 20000", "more than you have: at most 10,000"),
    ("r", "r needs an amount"),
    ("r -5", "not an amount"),
    ("r 0.5", "not an amount"),
    ("r abc", "not an amount"),
    ("r 0pot", "not an amount"),
    ("k", "you cannot check: 100 to call"),
    ("hello", "is not an action"),
    ("banana", "is not an action"),
    ("", "type an action"),
    ("f 100", "fold takes no amount"),
])  # fmt: skip
def test_illegal_amounts_and_words_are_refused_with_a_reason(nlth, text, words):
    with pytest.raises(IllegalAction, match=words):
        NLTHView(nlth).parse(preflop(nlth), text)


def test_fold_is_refused_when_checking_is_free(nlth):
    view = NLTHView(nlth)
    # everyone calls to the big blind, who may check
    state = preflop(nlth, [CHECK_CALL] * 5)
    assert state.current_player() == 2 and state.call_amount == 0
    with pytest.raises(IllegalAction, match="check for free"):
        view.parse(state, "f")
    assert view.parse(state, "k") == CHECK_CALL


def test_menu_lists_sizes_as_chips_pot_fractions_and_big_blinds(nlth):
    view = NLTHView(nlth)
    menu = view.menu(preflop(nlth))
    assert [c.key for c in menu.choices] == ["f", "c", "allin"]
    assert menu.choices[1].label == "call 100"
    a = menu.amount
    assert (a.key, a.label, a.min, a.max) == ("r", "raise to", 200, 10000)
    presets = {p.label: (p.amount, p.note) for p in a.presets}
    assert presets["min"] == (200, "2 bb") and presets["pot"] == (350, "3.5 bb") and presets["all-in"] == (10000, "100 bb")
    assert presets["1/2 pot"] == (225, "2.2 bb")
    assert "r AMOUNT raise to 200..10,000" in menu.help


def test_actions_are_described_with_their_size(nlth):
    view = NLTHView(nlth)
    state = preflop(nlth)
    assert view.describe(state, raise_action(350)) == "raises to 350 (pot, 3.5 bb)"
    assert view.describe(state, raise_action(10000)).startswith("raises to 10,000 (all-in")
    assert view.describe(state, CHECK_CALL) == "calls 100"
    assert view.describe(state, FOLD) == "folds"
    flop = preflop(nlth, [CHECK_CALL] * 6)
    assert flop.street == 1 and view.describe(flop, raise_action(400)) == "bets 400 (2/3 pot, 4 bb)"
    assert view.describe(flop, CHECK_CALL) == "checks"


def test_pot_fraction_text():
    assert pot_fraction_text(0.5) == "1/2 pot" and pot_fraction_text(1.0) == "pot" and pot_fraction_text(2.0) == "2x pot"
    assert pot_fraction_text(0.83) == "0.83 pot"


def test_showdown_reveals_the_cards_still_in(nlth):
    view = NLTHView(nlth)
    state = preflop(nlth, [FOLD, FOLD, FOLD, CHECK_CALL, CHECK_CALL])  # SB calls, BB checks
    while not state.is_terminal():
        state = state.child(CHECK_CALL)
    table = view.table(state, 1, [f"p{s}" for s in range(6)])
    assert table.stage == "showdown" and len(table.board) == 5
    assert table.seats[2].cards != (HIDDEN, HIDDEN) and table.seats[3].cards == ()  # BB shown, UTG folded
    assert any("wins" in line for line in table.lines)


def test_kuhn_leduc_and_liars_dice_views(play_host):
    kuhn = play_host.games.get("kuhn").create(2)
    view = view_for(kuhn, play_host.pm)
    state = kuhn.new_initial_state().child(2).child(0)
    assert view.table(state, 0, ["a", "b"]).seats[0].cards == ("K",)
    assert view.table(state, 0, ["a", "b"]).seats[1].cards == (HIDDEN,)
    assert [c.key for c in view.menu(state).choices] == ["k", "b"]
    assert view.parse(state, "b") == 1 and view.describe(state, 1) == "bets 1"
    with pytest.raises(IllegalAction):
        view.parse(state, "f")

    leduc = play_host.games.get("leduc").create(2)
    view = view_for(leduc, play_host.pm)
    state = leduc.new_initial_state().child(0).child(5)
    assert view.table(state, 1, ["a", "b"]).seats[1].cards == ("Kh",)
    assert view.describe(state, 2) == "raises to 3" and view.parse(state, "r") == 2

    dice = play_host.games.get("liars_dice").create(2)
    view = view_for(dice, play_host.pm)
    state = dice.new_initial_state().child(4).child(1)
    assert view.table(state, 0, ["a", "b"]).seats[0].cards == ("5",)
    assert view.parse(state, "2x5") == dice.rules.bid_names.index("2x5")
    state = state.child(view.parse(state, "2 x 5"))
    with pytest.raises(IllegalAction, match="bid higher"):
        view.parse(state, "1x3")
    assert view.parse(state, "liar") == dice.rules.liar


def test_generic_view_plays_any_game_from_its_own_strings(example_plugin_path):
    from gamesolve.plugins import make_plugin_manager

    host = make_plugin_manager(strict=True, entry_points=False, plugins_dirs=[example_plugin_path])
    game = host.games.get("biased-rps").create(2)
    view = view_for(game, host.pm)
    assert isinstance(view, GenericView)
    state = game.new_initial_state()
    assert [c.key for c in view.menu(state).choices] == ["rock", "paper", "scissors"]
    assert view.parse(state, " Paper ") == 1 and view.parse(state, "#2") == 2
    with pytest.raises(IllegalAction, match="not a legal action"):
        view.parse(state, "lizard")
    assert "p0:-" in view.table(state, 0, ["a", "b"]).lines[0]
