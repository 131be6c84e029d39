"""How a person sees and plays Kuhn poker (``gamesolve play --game kuhn``): the card, the
chips each player has put in, and ``k`` check / ``b`` bet, ``f`` fold / ``c`` call."""

from __future__ import annotations

from collections.abc import Sequence

from gamesolve.play.view import HIDDEN, ActionMenu, Choice, PlayView, SeatView, TableView
from gamesolve_kuhn.game import BET, PASS, KuhnState


def card_name(card: int, players: int) -> str:
    """J, Q, K (and A with three players) for up to four cards, else the card's number."""
    return "JQKA"[card] if players + 1 <= 4 else str(card)


def _put_in(state: KuhnState) -> tuple[list[int], list[bool]]:
    """Chips each player has put in (ante 1, bet or call 1) and who folded."""
    put, folded = [1] * state.n, [False] * state.n
    first = state._first_bet()
    if first >= 0:
        for i in range(first, len(state.history)):
            if state.history[i] == BET:
                put[i % state.n] += 1
            else:
                folded[i % state.n] = True
    return put, folded


class KuhnView(PlayView):
    def table(self, state: KuhnState, viewer: int, names: Sequence[str]) -> TableView:
        put, folded = _put_in(state)
        showdown = state.is_terminal() and folded.count(False) > 1
        seats = []
        for s in range(state.n):
            if s >= len(state.cards):
                cards: tuple[str, ...] = ()
            elif s == viewer or (showdown and not folded[s]):
                cards = (card_name(state.cards[s], state.n),)
            else:
                cards = (HIDDEN,)
            seats.append(SeatView(s, names[s], bet=put[s], cards=cards, status="folded" if folded[s] else ""))
        lines = []
        if state.is_terminal():
            lines = [f"{names[s]} wins {sum(put)}" for s, r in enumerate(state.returns()) if r > 0]
        return TableView(tuple(seats), pot=sum(put), stage=self.stage(state), lines=tuple(lines))

    def stage(self, state: KuhnState) -> str:
        if not state.is_terminal():
            return "betting"
        return "showdown" if _put_in(state)[1].count(False) > 1 else "hand over"

    def menu(self, state: KuhnState) -> ActionMenu:
        if state._first_bet() >= 0:
            choices = (Choice("f", "fold", PASS), Choice("c", "call 1", BET))
        else:
            choices = (Choice("k", "check", PASS), Choice("b", "bet 1", BET))
        return ActionMenu(choices, None, ", ".join(f"{c.key} {c.label}" for c in choices))

    def describe(self, state: KuhnState, action: int) -> str:
        if state._first_bet() >= 0:
            return "calls 1" if action == BET else "folds"
        return "bets 1" if action == BET else "checks"

    def syntax(self) -> list[str]:
        return ["k check · b bet 1 (before a bet); f fold · c call 1 (facing a bet)"]
