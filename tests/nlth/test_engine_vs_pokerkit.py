"""Differential test of the NLTH rules engine against pokerkit 0.7.7 (the oracle).

Both sides get the same cards (pokerkit: manual hole/board dealing, burn cards '??') and the same
random actions; at every decision we compare the actor, the legal action kinds, the call amount,
min/max raise-to, the pot, stacks and bets, and at the end every player's payoff.
pokerkit runs in ``Mode.TOURNAMENT`` (folding when checking is free is illegal, as in the engine).
"""

from __future__ import annotations

import random

import pytest

from gamesolve_nlth import engine as E
from gamesolve_nlth.cards import cards_str
from gamesolve_nlth.state import NLTHGame, raise_action

pokerkit = pytest.importorskip("pokerkit")

pytestmark = pytest.mark.oracle

SB, BB = 50, 100


def _automations():
    A = pokerkit.Automation
    return (
        A.ANTE_POSTING,
        A.BET_COLLECTION,
        A.BLIND_OR_STRADDLE_POSTING,
        A.RUNOUT_COUNT_SELECTION,
        A.HOLE_CARDS_SHOWING_OR_MUCKING,
        A.HAND_KILLING,
        A.CHIPS_PUSHING,
        A.CHIPS_PULLING,
    )


def random_stacks(rng: random.Random, n: int, equal: bool) -> list[int]:
    if equal:
        return [10000] * n
    out = []
    for _ in range(n):
        r = rng.random()
        if r < 0.3:
            out.append(rng.randint(1, 700))  # short: blinds for less, short all-ins
        elif r < 0.6:
            out.append(rng.randint(200, 3000))
        else:
            out.append(rng.randint(2000, 20000))
    return out


def choose_action(rng: random.Random, st) -> int:
    """Random kind, then a raise size biased toward min raise, all-in and small raises."""
    kinds = st.legal_action_kinds()
    kind = rng.choice(kinds)
    if kind == "f":
        return 0
    if kind == "cc":
        return 1
    lo, hi = st.min_raise_to, st.max_raise_to
    r = rng.random()
    if r < 0.3:
        a = lo
    elif r < 0.45:
        a = hi
    elif r < 0.6:
        a = rng.randint(lo, min(hi, lo + BB))
    else:
        a = rng.randint(lo, hi)
    return raise_action(a)


class Coverage:
    def __init__(self):
        self.counts: dict[str, int] = {}

    def add(self, key: str) -> None:
        self.counts[key] = self.counts.get(key, 0) + 1


def play_and_compare(seed: int, n: int, equal: bool, cov: Coverage | None = None) -> None:
    rng = random.Random(seed)
    stacks = random_stacks(rng, n, equal)
    button = rng.randrange(n)
    deck = list(range(52))
    rng.shuffle(deck)
    cards = deck[: 2 * n + 5]
    game = NLTHGame(players=n, stacks=",".join(map(str, stacks)), small_blind=SB, big_blind=BB, button=button)
    st = game.new_initial_state()
    seat_of = [(button + 1 + i) % n for i in range(n)]  # pokerkit player i -> seat
    pk = pokerkit.NoLimitTexasHoldem.create_state(
        _automations(), True, 0, (SB, BB), BB, tuple(stacks[seat_of[i]] for i in range(n)), n,
        mode=pokerkit.Mode.TOURNAMENT,
    )
    ctx = f"seed={seed} n={n} stacks={stacks} button={button}"
    # deal our hole cards through chance nodes (exercises the contract path)
    for c in cards[: 2 * n]:
        assert st.is_chance_node(), ctx
        st.apply_action(c)
    for i in range(n):
        pk.deal_hole(cards_str(cards[2 * seat_of[i] : 2 * seat_of[i] + 2]), i)
    board = cards[2 * n :]
    steps = 0
    while True:
        # pokerkit: burn and deal the board when it asks
        while pk.status and pk.actor_index is None:
            if pk.can_burn_card():
                pk.burn_card("??")
            elif pk.can_deal_board():
                k = len(list(pk.get_board_cards(0)))
                m = 3 if k == 0 else 1
                pk.deal_board(cards_str(board[k : k + m]))
            else:
                break
        while st.is_chance_node():
            st.apply_action(board[len(st.board)])
        if st.is_terminal():
            assert not pk.status, f"{ctx}: engine terminal but pokerkit not, step {steps}"
            break
        assert pk.status, f"{ctx}: pokerkit terminal but engine not, step {steps}"
        seat = st.current_player()
        where = f"{ctx} step={steps} history={st.log}"
        assert seat_of[pk.actor_index] == seat, where
        can_fold, _, call, lo, hi = E.legal(st.s)
        assert pk.can_fold() == can_fold, where
        assert pk.can_check_or_call(), where
        assert pk.checking_or_calling_amount == call, where
        pk_can_raise = pk.can_complete_bet_or_raise_to()
        assert pk_can_raise == (lo >= 0), where
        if pk_can_raise:
            assert pk.min_completion_betting_or_raising_to_amount == lo, where
            assert pk.max_completion_betting_or_raising_to_amount == hi, where
        assert pk.total_pot_amount == st.pot, where
        assert [pk.stacks[i] for i in range(n)] == [st.stacks[seat_of[i]] for i in range(n)], where
        assert [pk.bets[i] for i in range(n)] == [st.bets[seat_of[i]] for i in range(n)], where
        if cov is not None:
            if st.s[E.H_SHORT] > 0:
                cov.add("short_all_in_pending")
                if st.s[E.ACTED + seat] and lo >= 0:
                    cov.add("acted_may_raise_over_short")  # not expected: would be a bug
                if st.s[E.ACTED + seat] and lo < 0:
                    cov.add("short_all_in_no_reopen")
        action = choose_action(rng, st)
        short_before = int(st.s[E.H_SHORT])
        st.apply_action(action)
        if action == 0:
            pk.fold()
        elif action == 1:
            pk.check_or_call()
        else:
            pk.complete_bet_or_raise_to(action - 2)
        if cov is not None and action >= 2 and short_before > 0 and st.s[E.STACK + seat] == 0 and st.s[E.H_SHORT] == 0:
            cov.add("consecutive_short_all_ins_reopen")
        steps += 1
    pay = st.payoffs()
    assert list(pk.payoffs) == [pay[seat_of[i]] for i in range(n)], f"{ctx} history={st.log}"
    assert sum(pay) == 0
    if cov is not None:
        cov.add("hands")
        if st.s[E.H_SHOWDOWN]:
            cov.add("showdown")
            if len({p for p in pay if p > 0}) and sum(1 for p in pay if p > 0) > 1:
                cov.add("split_or_side")


CASES = [(6, True, 450), (6, False, 450), (3, True, 250), (3, False, 300), (2, True, 250), (2, False, 300)]


@pytest.mark.parametrize("n,equal,count", CASES, ids=[f"{n}p-{'equal' if e else 'unequal'}" for n, e, _ in CASES])
def test_random_hands_match_pokerkit(n, equal, count):
    cov = Coverage()
    base = 1_000_000 * n + (0 if equal else 500_000)
    for k in range(count):
        play_and_compare(base + k, n, equal, cov)
    assert cov.counts["hands"] == count
    assert cov.counts.get("acted_may_raise_over_short", 0) == 0
    if not equal:
        assert cov.counts.get("short_all_in_pending", 0) > 0, cov.counts


def test_short_all_in_cases_are_exercised():
    """The fuzz hits short all-ins that do not reopen and consecutive ones that do."""
    cov = Coverage()
    for k in range(400):
        play_and_compare(7_000_000 + k, 6, False, cov)
    assert cov.counts.get("short_all_in_no_reopen", 0) > 0, cov.counts
    assert cov.counts.get("consecutive_short_all_ins_reopen", 0) > 0, cov.counts


@pytest.mark.slow
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 8, 9])
def test_many_random_hands_match_pokerkit(n):
    for k in range(3000):
        play_and_compare(50_000_000 + 100_000 * n + k, n, k % 2 == 0)
