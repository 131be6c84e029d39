"""How a person sees and plays Leduc poker (``gamesolve play --game leduc``): the private and
public cards, the chips each player has put in, ``f`` fold, ``c`` check or call, ``r`` raise
(2 chips in the first round, 4 in the second)."""

from __future__ import annotations

from collections.abc import Sequence

from gamesolve.play.view import HIDDEN, ActionMenu, Choice, PlayView, SeatView, TableView
from gamesolve_leduc.game import CALL, FOLD, RAISE, RAISE_AMOUNTS, LeducState

SUITS = "sh"


def card_name(card: int, players: int) -> str:
    """``"Js"``: rank (J, Q, K for two players; more ranks below them for more) and suit."""
    ranks = "JQK" if players + 1 == 3 else "23456789TJQKA"[-(players + 1):]
    return ranks[card // 2] + SUITS[card % 2]


class LeducView(PlayView):
    def table(self, state: LeducState, viewer: int, names: Sequence[str]) -> TableView:
        n = state.n
        showdown = state.is_terminal() and state._in_hand() > 1
        seats = []
        for s in range(n):
            if s >= len(state.private):
                cards: tuple[str, ...] = ()
            elif s == viewer or (showdown and not state.folded[s]):
                cards = (card_name(state.private[s], n),)
            else:
                cards = (HIDDEN,)
            seats.append(SeatView(s, names[s], bet=state.bets[s], cards=cards, status="folded" if state.folded[s] else ""))
        board = (card_name(state.public, n),) if state.public >= 0 else ()
        lines = []
        if state.is_terminal():
            lines = [f"{names[s]} wins {r + state.bets[s]:g}" for s, r in enumerate(state.returns()) if r > 0]
        return TableView(tuple(seats), board, sum(state.bets), self.stage(state), tuple(lines))

    def stage(self, state: LeducState) -> str:
        if state.is_terminal():
            return "showdown" if state._in_hand() > 1 else "hand over"
        return f"round {min(state.round, 1) + 1}"

    def menu(self, state: LeducState) -> ActionMenu:
        legal = state.legal_actions()
        to_call = max(state.bets) - state.bets[state.current_player()]
        choices = []
        if FOLD in legal:
            choices.append(Choice("f", "fold", FOLD))
        choices.append(Choice("c", f"call {to_call}" if to_call else "check", CALL))
        if RAISE in legal:
            choices.append(Choice("r", f"raise to {max(state.bets) + RAISE_AMOUNTS[state.round]}", RAISE))
        return ActionMenu(tuple(choices), None, ", ".join(f"{c.key} {c.label}" for c in choices))

    def describe(self, state: LeducState, action: int) -> str:
        to_call = max(state.bets) - state.bets[state.current_player()]
        if action == FOLD:
            return "folds"
        if action == CALL:
            return f"calls {to_call}" if to_call else "checks"
        return f"raises to {max(state.bets) + RAISE_AMOUNTS[state.round]}"

    def syntax(self) -> list[str]:
        return ["f fold · c check or call · r raise (by 2 in round 1, by 4 in round 2; two raises a round at most)"]
