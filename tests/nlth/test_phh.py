"""PHH round trips: engine -> PHH -> pokerkit replay (same payoffs) and PHH -> engine."""

from __future__ import annotations

import random
import tomllib

import pytest

from gamesolve_nlth import phh
from gamesolve_nlth.state import NLTHGame


def random_hand(seed: int, n: int, stacks, button: int):
    rng = random.Random(seed)
    game = NLTHGame(players=n, stacks=stacks, button=button)
    st = game.new_initial_state()
    while not st.is_terminal():
        if st.is_chance_node():
            st.apply_action(rng.choice(st.legal_actions()))
            continue
        k = rng.choice(st.legal_action_kinds())
        if k == "cbr":
            lo, hi = st.min_raise_to, st.max_raise_to
            r = rng.random()
            st.apply(("cbr", lo if r < 0.4 else hi if r < 0.55 else rng.randint(lo, hi)))
        else:
            st.apply(k)
    return st


def _cases(count):
    out = []
    for k in range(count):
        rng = random.Random(k)
        n = [2, 3, 6, 9][k % 4]
        stacks = 10000 if k % 2 == 0 else ",".join(str(rng.randint(1, 20000)) for _ in range(n))
        out.append((k, n, stacks, rng.randrange(n)))
    return out


def test_dumps_fields_and_seat_order():
    game = NLTHGame(players=3, button=1)
    st = game.new_initial_state(cards=list(range(6)) + [20, 24, 28, 32, 36])
    st.apply(("cbr", 300)).apply("f").apply("cc")
    text = phh.dumps(st, players=["ann", "bob", "cy"], hand=7)
    data = tomllib.loads(text)
    assert data["variant"] == "NT" and data["min_bet"] == 100
    assert data["blinds_or_straddles"] == [50, 100, 0]
    assert data["seats"] == [3, 1, 2]  # p1 = seat 2 (small blind), p3 = seat 1 (button)
    assert data["players"] == ["cy", "ann", "bob"]
    assert data["actions"][:3] == ["d dh p1 3c3d", "d dh p2 2c2d", "d dh p3 2h2s"]
    assert data["actions"][3:] == ["p3 cbr 300", "p1 f", "p2 cc", "d db 7c8c9c"]
    assert data["hand"] == 7


@pytest.mark.parametrize("seed,n,stacks,button", _cases(24))
def test_engine_phh_round_trip(seed, n, stacks, button):
    st = random_hand(seed, n, stacks, button)
    text = phh.dumps(st)
    back = phh.loads(text)
    assert back.payoffs() == st.payoffs()
    assert back.log == st.log and back.board == st.board and back.button == st.button
    assert phh.dumps(back) == text


@pytest.mark.oracle
@pytest.mark.parametrize("seed,n,stacks,button", _cases(80))
def test_engine_phh_replays_in_pokerkit(seed, n, stacks, button):
    pokerkit = pytest.importorskip("pokerkit")
    st = random_hand(seed, n, stacks, button)
    text = phh.dumps(st)
    hh = pokerkit.HandHistory.loads(text)
    final = None
    for final in hh:
        pass
    seat_of = [(button + 1 + k) % n for k in range(n)]
    pay = st.payoffs()
    assert list(final.payoffs) == [pay[seat_of[k]] for k in range(n)], text
    assert list(final.stacks) == tomllib.loads(text)["finishing_stacks"]


def test_reads_a_pokerkit_written_history():
    pokerkit = pytest.importorskip("pokerkit")
    A = pokerkit.Automation
    state = pokerkit.NoLimitTexasHoldem.create_state(
        (A.ANTE_POSTING, A.BET_COLLECTION, A.BLIND_OR_STRADDLE_POSTING, A.CARD_BURNING,
         A.HOLE_CARDS_SHOWING_OR_MUCKING, A.HAND_KILLING, A.CHIPS_PUSHING, A.CHIPS_PULLING),
        True, 0, (50, 100), 100, (10000, 8000, 10000, 3000), 4,
    )
    for cards in ("AcAd", "KcKd", "7h2s", "QhQs"):
        state.deal_hole(cards)
    state.complete_bet_or_raise_to(300)  # p3
    state.check_or_call()  # p4
    state.fold()  # p1
    state.check_or_call()  # p2
    state.deal_board("2c3d9h")
    state.check_or_call()  # p2
    state.complete_bet_or_raise_to(500)  # p3
    state.complete_bet_or_raise_to(2700)  # p4 all-in
    state.fold()  # p2
    state.check_or_call()  # p3
    state.deal_board("Td")
    state.deal_board("4s")
    assert not state.status
    hh = pokerkit.HandHistory.from_game_state(
        pokerkit.NoLimitTexasHoldem(
            (), True, 0, (50, 100), 100,
        ),
        state,
    )
    text = hh.dumps()
    st = phh.loads(text)
    assert st.is_terminal()
    # p1..p4 = seats 0..3 (button = seat 3 without 'seats')
    assert st.payoffs() == list(state.payoffs)


def test_unknown_hole_cards_need_a_seed():
    text = (
        "variant = 'NT'\nantes = [0, 0, 0]\nblinds_or_straddles = [50, 100, 0]\nmin_bet = 100\n"
        "starting_stacks = [10000, 10000, 10000]\n"
        "actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 AsKs', 'p3 cbr 250', 'p1 f', 'p2 f']\n"
    )
    with pytest.raises(ValueError, match="unknown_seed"):
        phh.loads(text)
    st = phh.loads(text, unknown_seed=3)
    assert st.payoffs() == [-50, -100, 150]
    assert st.hole_cards(2) == [51, 47]


def test_bad_phh_is_rejected_with_a_message():
    base = (
        "variant = 'NT'\nantes = [0, 0, 0]\nblinds_or_straddles = [50, 100, 0]\nmin_bet = 100\n"
        "starting_stacks = [10000, 10000, 10000]\n"
    )
    with pytest.raises(ValueError, match="out of turn"):
        phh.loads(base + "actions = ['d dh p1 2c2d', 'd dh p2 3c3d', 'd dh p3 AsKs', 'p1 cbr 250']\n")
    with pytest.raises(ValueError, match="raise to 150 is not legal"):
        phh.loads(base + "actions = ['d dh p1 2c2d', 'd dh p2 3c3d', 'd dh p3 AsKs', 'p3 cbr 150']\n")
    with pytest.raises(ValueError, match="variant"):
        phh.loads(base.replace("'NT'", "'FT'") + "actions = []\n")
