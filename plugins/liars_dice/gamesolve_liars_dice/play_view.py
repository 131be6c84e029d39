"""How a person sees and plays Liar's Dice (``gamesolve play --game liars_dice``): their own
dice, the bids so far; a bid is typed ``QxF`` (``2x5``: at least two fives among all the
dice, the highest face wild), or ``liar``."""

from __future__ import annotations

from collections.abc import Sequence

from gamesolve.play.view import HIDDEN, ActionMenu, Choice, IllegalAction, PlayView, SeatView, TableView
from gamesolve_liars_dice.game import LiarsDiceState


class LiarsDiceView(PlayView):
    def table(self, state: LiarsDiceState, viewer: int, names: Sequence[str]) -> TableView:
        rules = state.rules
        d = rules.dice
        over = state.is_terminal()
        seats = []
        for s in range(rules.players):
            rolled = state.rolls[s * d:(s + 1) * d]
            if s == viewer or over:
                cards = tuple(str(x) for x in sorted(rolled))
            else:
                cards = (HIDDEN,) * len(rolled)
            seats.append(SeatView(s, names[s], cards=cards))
        lines = [f"bids: {state.public if state.bids else '-'}", f"face {rules.sides} is wild"]
        if over:
            quantity, face = rules.bids[state.bids[-2]]
            count = sum(1 for x in state.rolls if x == face or x == rules.sides)
            winner = max(range(rules.players), key=lambda p: state.returns()[p])
            lines.append(f"liar on {quantity}x{face}: {count} dice count -> {names[winner]} wins")
        return TableView(tuple(seats), stage=self.stage(state), lines=tuple(lines))

    def stage(self, state: LiarsDiceState) -> str:
        return "dice counted" if state.is_terminal() else "bidding"

    def menu(self, state: LiarsDiceState) -> ActionMenu:
        rules = state.rules
        choices = []
        for a in state.legal_actions():
            if a == rules.liar:
                choices.append(Choice("liar", "call liar", a))
            else:
                choices.append(Choice(rules.bid_names[a], f"bid {rules.bid_names[a]}", a))
        bids = [c.key for c in choices if c.key != "liar"]
        shown = ", ".join(bids[:4]) + (f" .. {bids[-1]}" if len(bids) > 4 else "")
        extra = " or liar" if any(c.key == "liar" for c in choices) else ""
        return ActionMenu(tuple(choices), None, f"bid QxF ({shown}){extra}")

    def parse(self, state: LiarsDiceState, text: str) -> int:
        word = "".join(str(text).lower().split()).replace("*", "x")
        if word in ("l", "liar", "callliar"):
            word = "liar"
        elif word.startswith("bid"):
            word = word[3:]
        for c in self.menu(state).choices:
            if word == c.key:
                return c.action
        if word in state.rules.bid_names or word == "liar":
            raise IllegalAction(f"{word} is not legal here: bid higher than the last bid ({self.menu(state).help})")
        raise IllegalAction(f"{str(text).strip()[:40]!r} is not a bid: {self.menu(state).help}")

    def describe(self, state: LiarsDiceState, action: int) -> str:
        rules = state.rules
        return "calls liar" if action == rules.liar else f"bids {rules.bid_names[action]}"

    def syntax(self) -> list[str]:
        return ["QxF bids that at least Q of all the dice show face F (the highest face is wild), e.g. 2x5; liar calls the last bid"]
