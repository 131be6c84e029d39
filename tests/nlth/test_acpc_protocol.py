"""The ACPC protocol's text, its actions on the engine, and a hand as a client rebuilds it."""

from __future__ import annotations

import pytest

from gamesolve_nlth.acpc.actions import action_of, fixed_action, token_of
from gamesolve_nlth.acpc.dealt_hand import DealtHand
from gamesolve_nlth.acpc.gamedef import gamedef_text
from gamesolve_nlth.acpc.protocol import ProtocolError, parse_action, parse_matchstate, split_response
from gamesolve_nlth.acpc.seen_hand import SeenHand
from gamesolve_nlth.cards import parse_cards
from gamesolve_nlth.state import CHECK_CALL, FOLD, NLTHGame, raise_action


@pytest.mark.parametrize("line", [
    "MATCHSTATE:0:0::AhKd|",
    "MATCHSTATE:1:30:r300c/cr600:|QsQd/2c3c4c",
    "MATCHSTATE:2:7:ccr250ff/r500c//:9s8s||TdTh/2c3c4c/5d/6h",
    "MATCHSTATE:0:999:r20000c///:AsAc|KsKc/2c3c4c/5d/6h",
])  # fmt: skip
def test_matchstate_lines_read_back_as_written(line):
    assert parse_matchstate(line).text() == line


def test_a_matchstate_line_gives_betting_cards_and_board_by_round():
    ms = parse_matchstate("MATCHSTATE:1:30:r300c/cr600:|QsQd/2c3c4c")
    assert (ms.position, ms.hand, ms.round, ms.num_players) == (1, 30, 1, 2)
    assert ms.betting == (("r300", "c"), ("c", "r600"))
    assert ms.hole == ((), tuple(parse_cards("QsQd")))
    assert ms.board == ((), tuple(parse_cards("2c3c4c")))


@pytest.mark.parametrize("line", ["MATCHSTATE:0:0:x:AhKd|", "MATCHSTATE:0:0::AhKz|", "STATE:0:0::AhKd|",
                                  "MATCHSTATE:0::AhKd|", "MATCHSTATE:5:0::AhKd|", "MATCHSTATE:0:0:c/c:AhKd|"])  # fmt: skip
def test_malformed_lines_are_one_line_protocol_errors(line):
    with pytest.raises(ProtocolError) as info:
        parse_matchstate(line)
    assert "\n" not in str(info.value) and line in str(info.value)


def test_actions_read_in_acpc_spellings():
    assert [parse_action(t) for t in ("f", "c", "k", "C", "r300", "b450")] == [
        ("f", 0), ("c", 0), ("c", 0), ("c", 0), ("r", 300), ("r", 450)]  # fmt: skip
    for bad in ("r", "x", "r3x", ""):
        with pytest.raises(ProtocolError):
            parse_action(bad)


def test_a_response_is_the_state_it_answers_and_the_action():
    assert split_response("MATCHSTATE:1:7:r300:|QsQd:c") == ("MATCHSTATE:1:7:r300:|QsQd", "c")
    with pytest.raises(ProtocolError):
        split_response("c")


def _hand(cards="AhKd QsQd 2c3c4c5d6h"):
    return DealtHand(NLTHGame(players=2), 0, parse_cards(cards))


def test_raises_count_chips_over_the_whole_hand():
    hand = _hand()  # heads-up: position 1 (the button) posts 50 and acts first
    hand.play(CHECK_CALL)  # limps to 100
    hand.play(CHECK_CALL)  # the big blind checks: the flop
    assert hand.matchstate(0).text() == "MATCHSTATE:0:0:cc/:AhKd|/2c3c4c"
    state = hand.state
    assert token_of(state, raise_action(300)) == "r400"  # 300 on the flop after 100 preflop
    assert action_of(state, "r400") == raise_action(300)
    assert action_of(state, "c") == CHECK_CALL
    with pytest.raises(ProtocolError, match="nothing to call"):
        action_of(state, "f")


def test_invalid_answers_are_corrected_as_acpc_s_dealer_does():
    state = _hand().state  # preflop: the button faces the big blind; raises go to 200..10000
    assert fixed_action(state, "r150") == (raise_action(200), "raise to 150 changed to 200 (legal: 200..10000)")
    assert fixed_action(state, "r99999")[0] == raise_action(10000)
    assert fixed_action(state, "f") == (FOLD, None)
    assert fixed_action(state, "x")[0] == CHECK_CALL
    hand = _hand()
    hand.play(CHECK_CALL)
    action, note = fixed_action(hand.state, "f")  # the big blind may check: no fold
    assert action == CHECK_CALL and "nothing to call" in note


def test_an_all_in_runout_ends_in_the_last_round_with_every_card_shown():
    hand = _hand(cards="AhKd QsQd 2c3c4c9dJh")
    hand.play(raise_action(10000))
    hand.play(CHECK_CALL)
    assert hand.finished and hand.showdown
    assert hand.matchstate(1).text() == "MATCHSTATE:1:0:r10000c///:AhKd|QsQd/2c3c4c/9d/Jh"
    assert hand.log_line(["a", "b"]) == "STATE:0:r10000c///:AhKd|QsQd/2c3c4c/9d/Jh:-10000|10000:a|b"


def test_folded_hands_stay_hidden_at_the_showdown():
    game = NLTHGame(players=3)
    hand = DealtHand(game, 4, parse_cards("AhKd QsQd 9c8c 2c3c4c5d6h"))
    hand.play(FOLD)  # position 2 (the button) acts first and folds
    hand.play(CHECK_CALL)
    for _ in range(7):
        hand.play(CHECK_CALL)
    assert hand.finished
    assert hand.matchstate(2).text() == "MATCHSTATE:2:4:fcc/cc/cc/cc:AhKd|QsQd|9c8c/2c3c4c/5d/6h"
    assert hand.matchstate(0).text().endswith(":AhKd|QsQd|/2c3c4c/5d/6h")


def test_game_definitions_name_positions_as_acpc_does():
    assert "blind = 100 50\nfirstPlayer = 2 1 1 1" in gamedef_text(NLTHGame(players=2))
    six = gamedef_text(NLTHGame(players=6, stacks=20000))
    assert "numPlayers = 6" in six and "stack = 20000 20000 20000 20000 20000 20000" in six
    assert "blind = 50 100 0 0 0 0\nfirstPlayer = 3 1 1 1" in six


def test_a_client_rebuilds_the_hand_with_placeholders_for_hidden_cards():
    game = NLTHGame(players=2)
    seen = SeenHand(game, 0, 0)
    steps = seen.update(parse_matchstate("MATCHSTATE:0:0::AhKd|"))
    assert len(steps) == 4 and seen.state.hole_cards(0) == parse_cards("AhKd")
    placeholder = seen.state.hole_cards(1)
    assert not set(placeholder) & set(parse_cards("AhKd"))
    # the flop holds a placeholder card: the hand is rebuilt around it
    flop = [placeholder[0], *parse_cards("3c4c")]
    line = "MATCHSTATE:0:0:cc/:AhKd|/" + "".join(_card(c) for c in flop)
    steps = seen.update(parse_matchstate(line))
    assert [a for _, a in steps] == [CHECK_CALL, CHECK_CALL, *flop]
    assert seen.state.board == flop and placeholder[0] not in seen.state.hole_cards(1)
    assert seen.state.current_player() == 0  # the big blind acts first after the flop


def test_a_client_refuses_a_line_that_does_not_continue_its_hand():
    seen = SeenHand(NLTHGame(players=2), 0, 0)
    seen.update(parse_matchstate("MATCHSTATE:0:0:r300:AhKd|"))
    with pytest.raises(ProtocolError, match="does not continue"):
        seen.update(parse_matchstate("MATCHSTATE:0:0:c:AhKd|"))


def _card(c: int) -> str:
    from gamesolve_nlth.cards import card_str

    return card_str(c)
