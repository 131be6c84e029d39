"""Behaviour tests of the NLTH rules engine (gamesolve_nlth.engine) through NLTHState."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from gamesolve.game.state import CHANCE, TERMINAL
from gamesolve_nlth import engine as E
from gamesolve_nlth.cards import parse_cards
from gamesolve_nlth.state import NLTHGame, raise_action


def new(n=6, stacks=10000, button=0, cards=None, sb=50, bb=100):
    game = NLTHGame(players=n, stacks=stacks, small_blind=sb, big_blind=bb, button=button)
    if cards is None:
        deck = list(range(52))
        random.Random(n * 100 + button).shuffle(deck)
        cards = deck[: 2 * n + 5]
    return game.new_initial_state(cards=cards)


def play(st, *actions):
    for a in actions:
        st.apply(a)
    return st


# ---- blinds, positions, button ------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 6, 9])
@pytest.mark.parametrize("button", [0, 1])
def test_blinds_posted(n, button):
    st = new(n, button=button)
    bets = st.bets
    if n == 2:  # heads-up: the button posts the small blind
        assert bets[button] == 50 and bets[(button + 1) % n] == 100
    else:
        assert bets[(button + 1) % n] == 50 and bets[(button + 2) % n] == 100
    assert sum(bets) == 150 and st.pot == 150
    assert st.stacks[(button + 2) % n if n > 2 else (button + 1) % n] == 9900


def test_blind_for_less_posts_whole_stack():
    st = new(3, stacks="10000,10000,30", button=0)  # seat 2 is the big blind with 30 chips
    assert st.bets == [0, 50, 30] and st.stacks[2] == 0
    # the big blind is all-in: first to act is the button, facing 50 (the largest bet)
    assert st.current_player() == 0 and st.call_amount == 50


def test_first_actor_preflop_and_postflop_6_players():
    st = new(6, button=0)
    assert st.current_player() == 3  # UTG, left of the big blind (Pluribus "Player 3")
    play(st, "cc", "cc", "cc", "cc", "cc")  # UTG..button call, SB completes
    assert st.current_player() == 2  # big blind option
    assert st.legal_action_kinds() == ["cc", "cbr"]
    play(st, "cc")
    assert st.street == 1 and len(st.board) == 3
    assert st.current_player() == 1  # first seat left of the button
    play(st, "cc")
    assert st.current_player() == 2


def test_first_actor_postflop_skips_folded_small_blind():
    st = new(6, button=2)
    assert st.current_player() == 5
    play(st, "cc", "f", "cc", "f", "f")  # seat 5 calls, 0 folds, 1 calls, button folds, SB folds
    assert st.current_player() == 4  # big blind
    play(st, "cc")
    assert st.street == 1
    assert st.current_player() == 4  # SB (seat 3) folded: the big blind opens the flop


def test_first_actor_3_players():
    st = new(3, button=1)
    assert st.current_player() == 1  # the button acts first preflop with 3 players
    play(st, "cc", "cc", "cc")
    assert st.current_player() == 2  # small blind first after the flop


def test_first_actor_heads_up():
    st = new(2, button=1)
    assert st.bets == [100, 50]
    assert st.current_player() == 1  # button = small blind acts first preflop
    play(st, "cc")
    assert st.current_player() == 0 and st.legal_action_kinds() == ["cc", "cbr"]
    play(st, "cc")
    assert st.current_player() == 0  # the big blind acts first after the flop


@pytest.mark.parametrize("n", [2, 3, 6])
def test_button_moves(n):
    game = NLTHGame(players=n, button=0)
    firsts = []
    for hand in range(n):
        b = game.button_for_hand(hand)
        assert b == hand % n
        st = game.new_initial_state(button=b)
        assert st.button == b
        sb_seat = b if n == 2 else (b + 1) % n
        assert st.bets[sb_seat] == 50
        while st.is_chance_node():
            st.apply_action(st.legal_actions()[0])
        firsts.append(st.current_player())
    assert sorted(firsts) == list(range(n))  # first actor rotates with the button


def test_batch_kernel_rotates_button_and_conserves_chips():
    stacks = np.full(6, 10000, np.int64)
    out = np.zeros((600, 6), np.int64)
    E.play_random_hands(600, stacks, 50, 100, 7, 0.2, out)
    assert (out.sum(axis=1) == 0).all()
    assert (out >= -10000).all()
    # over many hands every seat pays blinds: each seat's worst loss is at least a blind
    assert (out.min(axis=0) < 0).all()


# ---- raising rules ------------------------------------------------------------------------------------


def test_min_raise_after_a_raise():
    st = new(6, button=0)
    assert st.min_raise_to == 200 and st.max_raise_to == 10000  # opening: big blind + big blind
    play(st, ("cbr", 300))  # raise of 200
    assert st.min_raise_to == 500 and st.call_amount == 300
    play(st, ("cbr", 800))  # re-raise of 500
    assert st.min_raise_to == 1300
    with pytest.raises(ValueError, match="raise to 1299 is not legal.*raise to 1300..10000"):
        st.apply(("cbr", 1299))
    with pytest.raises(ValueError, match="not legal"):
        st.apply(("cbr", 10001))


def test_postflop_min_bet_is_big_blind():
    st = new(3, button=0)
    play(st, "cc", "cc", "cc")
    assert st.street == 1 and st.min_raise_to == 100
    play(st, ("cbr", 150))
    assert st.min_raise_to == 300


def test_short_all_in_does_not_reopen():
    st = new(6, stacks="10000,10000,10000,10000,450,10000", button=0)
    play(st, ("cbr", 300))  # seat 3 raises by 200
    play(st, ("cbr", 450))  # seat 4 all-in: +150, a short raise
    assert st.stacks[4] == 0
    play(st, "f", "f", "f")  # seats 5, 0, 1
    # the big blind has not acted yet: may re-raise, by a full 200 over 450
    assert st.current_player() == 2
    assert st.legal_action_kinds() == ["f", "cc", "cbr"] and st.min_raise_to == 650
    play(st, "cc")
    # seat 3 already acted: only fold or call the extra 150
    assert st.current_player() == 3
    assert st.legal_action_kinds() == ["f", "cc"] and st.call_amount == 150
    assert st.min_raise_to is None
    with pytest.raises(ValueError, match="seat 3 may: fold .*call 150"):
        st.apply(("cbr", 1000))


def test_consecutive_short_all_ins_reopen():
    st = new(6, stacks="10000,10000,10000,10000,400,500", button=0)
    play(st, ("cbr", 300), ("cbr", 400), ("cbr", 500))  # +200, then all-ins of +100 and +100
    play(st, "f", "f", "cc")
    assert st.current_player() == 3
    # the two short all-ins add up to a full raise: seat 3 may raise again (pokerkit's rule)
    assert st.legal_action_kinds() == ["f", "cc", "cbr"] and st.min_raise_to == 700


def test_single_short_all_in_then_call_does_not_reopen():
    st = new(6, stacks="10000,10000,10000,10000,400,10000", button=0)
    play(st, ("cbr", 300), ("cbr", 400), "cc", "f", "f", "cc")
    assert st.current_player() == 3
    assert st.legal_action_kinds() == ["f", "cc"]


def test_no_raise_when_all_others_all_in():
    st = new(3, stacks="10000,10000,10000", button=0)
    play(st, ("cbr", 10000), "cc")  # button jams, small blind calls all-in
    assert st.current_player() == 2
    assert st.legal_action_kinds() == ["f", "cc"] and st.min_raise_to is None


def test_no_raise_when_the_call_is_all_in():
    st = new(3, stacks="10000,2000,10000", button=0)
    play(st, ("cbr", 3000))
    assert st.current_player() == 1
    assert st.legal_action_kinds() == ["f", "cc"] and st.call_amount == 1950


def test_fold_when_check_is_free_is_illegal():
    st = new(6, button=0)
    play(st, "cc", "f", "f", "f", "cc")
    assert st.current_player() == 2 and st.call_amount == 0
    assert "f" not in st.legal_action_kinds() and 0 not in st.legal_actions()
    with pytest.raises(ValueError, match="fold is not legal here.*seat 2 may: check"):
        st.apply("f")
    play(st, "cc")
    assert st.street == 1
    with pytest.raises(ValueError, match="fold is not legal"):
        st.apply("f")


def test_uncalled_bet_returned():
    st = new(3, stacks="10000,10000,10000", button=0)
    play(st, ("cbr", 600), "f", "f")
    assert st.is_terminal()
    assert st.payoffs() == [150, -50, -100]


# ---- pots -----------------------------------------------------------------------------------------------


def test_side_pots_three_unequal_stacks():
    # seat 0 AA (1000 chips), seat 1 KK (3000), seat 2 QQ (6000); dry board
    cards = parse_cards("AcAd KcKd QcQd 2h7d9s3s4c")
    st = new(3, stacks="1000,3000,6000", button=0, cards=cards)
    play(st, ("cbr", 1000), ("cbr", 3000), "cc")
    assert st.is_terminal() and st.board == parse_cards("2h7d9s3s4c")
    # main pot 3000 -> AA; side pot 4000 (seats 1 and 2) -> KK
    assert st.payoffs() == [2000, 1000, -3000]


def test_side_pot_won_by_the_short_stack_only_main():
    cards = parse_cards("AcAd QcQd KcKd 2h7d9s3s4c")  # now the big stack has KK, the middle QQ
    st = new(3, stacks="1000,3000,6000", button=0, cards=cards)
    play(st, ("cbr", 1000), ("cbr", 3000), "cc")
    assert st.payoffs() == [2000, -3000, 1000]


def test_split_pot_odd_chip_to_first_seat_left_of_button():
    # both remaining players play the board (broadway); the pot is 625, odd
    cards = parse_cards("2c3d 4h5s 2d3c AcKdQhJsTc")
    st = new(3, stacks=10000, button=0, cards=cards, sb=25, bb=50)
    play(st, ("cbr", 300), "f", "cc")  # button raises, SB folds, BB calls
    while not st.is_terminal():
        st.apply("cc")
    # seat 2 (big blind) is left of the button before seat 0: it gets the odd chip
    assert st.payoffs() == [12, -25, 13]


def test_split_pot_heads_up_even():
    cards = parse_cards("2c3d 2d3c AcKdQhJsTc")
    st = new(2, stacks=10000, button=0, cards=cards)
    play(st, "cc", "cc")
    while not st.is_terminal():
        st.apply("cc")
    assert st.payoffs() == [0, 0]


def test_all_in_runs_out_the_board_through_chance_nodes():
    game = NLTHGame(players=2)
    st = game.new_initial_state()
    st.deal("AsAh KsKh")
    assert st.current_player() == 0
    play(st, ("cbr", 10000), "cc")
    assert st.current_player() == CHANCE and len(st.board) == 0
    st.deal("2c7d9h3s4c")
    assert st.current_player() == TERMINAL and st.payoffs() == [10000, -10000]


# ---- properties ---------------------------------------------------------------------------------------------


def _random_hand(n, stacks, button, seed, min_bias):
    rng = random.Random(seed)
    game = NLTHGame(players=n, stacks=stacks, button=button)
    st = game.new_initial_state()
    total = sum(stacks)
    for step in range(10_000):
        if st.is_terminal():
            break
        if st.is_chance_node():
            st.apply_action(rng.choice(st.legal_actions()))
            continue
        kinds = st.legal_action_kinds()
        k = rng.choice(kinds)
        if k == "cbr":
            lo, hi = st.min_raise_to, st.max_raise_to
            st.apply(("cbr", lo if rng.random() < min_bias else rng.randint(lo, hi)))
        else:
            st.apply(k)
        assert min(st.stacks) >= 0
        assert sum(st.stacks) + st.pot == total
    else:
        raise AssertionError("hand did not terminate")
    return st


@settings(max_examples=150, deadline=None)
@given(
    n=hs.integers(2, 9),
    data=hs.data(),
    seed=hs.integers(0, 2**31),
    min_bias=hs.sampled_from([0.0, 0.5, 0.9]),
)
def test_property_chips_conserved_stacks_nonnegative_terminates(n, data, seed, min_bias):
    stacks = data.draw(hs.lists(hs.integers(1, 30000), min_size=n, max_size=n))
    button = data.draw(hs.integers(0, n - 1))
    st = _random_hand(n, stacks, button, seed, min_bias)
    pay = st.payoffs()
    assert sum(pay) == 0
    for i in range(n):
        assert -stacks[i] <= pay[i]
        assert st.stacks[i] >= 0
    assert len(st.board) in (0, 3, 4, 5)


# ---- the game contract --------------------------------------------------------------------------------------


def test_contract_keys_and_actions():
    game = NLTHGame(players=3)
    st = game.new_initial_state()
    assert st.current_player() == CHANCE and len(st.chance_outcomes()) == 52
    for c in parse_cards("AsKs QdQh 7c2d"):
        st = st.child(c)
    assert st.current_player() == 0
    acts = st.legal_actions()
    assert acts[:2] == [0, 1] and acts[2] == raise_action(200) and acts[-1] == raise_action(10000)
    assert len(acts) == 2 + 10000 - 200 + 1
    ch = st.child(raise_action(300))
    assert st.current_player() == 0 and ch.current_player() == 1  # receiver unchanged
    k0, k1 = ch.information_state_key(0), ch.information_state_key(1)
    assert "AsKs" in k0 and "QdQh" not in k0 and "QdQh" in k1
    assert ch.public_state_key() in k0 and "AsKs" not in ch.public_state_key()
    assert ch.public_state_key() != st.public_state_key()
    assert ch.action_to_string(raise_action(500)) == "cbr 500"
    with pytest.raises(ValueError):
        st.child(raise_action(10001))


def test_game_conformance_random_walks():
    testing = pytest.importorskip("gamesolve.testing")

    def sampler(actions, rng):
        # uniform over kinds, not over the ~10,000 raise sizes
        small = [a for a in actions if a < 2]
        raises = [a for a in actions if a >= 2]
        kinds = small + ([None] if raises else [])
        a = rng.choice(kinds)
        return a if a is not None else rng.choice(raises)

    report = testing.check_game_conformance(
        NLTHGame(players=3), max_nodes=60, random_walks=30, seed=1, action_sampler=sampler
    )
    assert report["complete"] == 0 and report["states"] > 60


# ---- plugin registration ------------------------------------------------------------------------------------


def test_plugin_registers_nlth():
    import gamesolve_nlth.plugin
    from gamesolve.game import ParameterError
    from gamesolve.plugins import make_plugin_manager

    host = make_plugin_manager(strict=True, entry_points=False, plugins=[gamesolve_nlth.plugin])
    spec = host.games.get("nlth")
    game = spec.create()
    assert game.num_players == 6 and game.stacks == (10000,) * 6
    assert (game.small_blind, game.big_blind, game.button) == (50, 100, 0)
    game = spec.create(players=3, stacks="100,200,300", button="2")
    assert game.stacks == (100, 200, 300) and game.button == 2
    assert spec.create(players=2, stacks=500).stacks == (500, 500)
    with pytest.raises(ParameterError, match="2 to 9 players"):
        spec.create(players=10)
    with pytest.raises(ParameterError, match="stacks"):
        spec.create(players=3, stacks="1,2")
    with pytest.raises(ParameterError, match="button"):
        spec.create(players=3, button=5)


def test_odd_chip_after_losing_hands_are_mucked_and_pots_merge():
    # Found by the pokerkit fuzz (seed 50501423): seats 3 and 4 tie with trip threes. Layers:
    # 1355 (contenders 0,1,3,4), 627 (0,3,4), 2606 (0,4). pokerkit mucks the losing hands of
    # seats 0 and 1 first, so the first two layers merge into one pot of 1982 = 991 + 991 (no odd
    # chip) instead of 678/677 + 314/313.
    cards = parse_cards("Qh2c 5dQs JhQd 8c3d 4c3s 3hQc3c2sJd")
    st = new(5, stacks="17472,271,729,480,1783", button=4, cards=cards)
    for a in (1, 1, 1, 202, 273, 1, 462, 1, 1, 0, 1, 1, 905, 4790, 1, 1):
        st.apply_action(a)
    assert st.is_terminal()
    assert st.payoffs() == [-1783, -271, -271, 511, 1814]
