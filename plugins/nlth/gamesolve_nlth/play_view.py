"""How a person sees and plays no-limit hold'em (``gamesolve play`` / ``gamesolve serve``).

Typed actions (case and spaces ignored):

=====================  ==============================================================
``f``, ``fold``        fold (only when there is a bet to call: checking is free)
``c``, ``call``        call, or check when there is nothing to call (``k``, ``x``,
                       ``check`` check, and are refused when facing a bet)
``r AMOUNT``           bet / raise **to** AMOUNT: chips (``r 600``, ``r 1,200``), big
                       blinds (``r 3bb``, ``r 2.5bb``), a fraction of the pot
                       (``r 2/3pot``, ``r 0.75pot``, ``r 75%``, ``r pot``), ``r min``
                       or ``r max``; ``b`` / ``bet`` / ``raise`` are the same as ``r``
``allin``, ``a``       all-in (a raise to everything; a call when calling is all-in)
=====================  ==============================================================

A pot fraction sizes the raise itself: raising ``f`` pot means calling first, then adding
``f`` times the pot after the call (``to = current bet + f * (pot + call)``), which is how
the blueprint's betting abstraction (and most players) measure bets.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from fractions import Fraction

from gamesolve.play.view import HIDDEN, ActionMenu, AmountRange, Choice, IllegalAction, PlayView, Preset, SeatView, TableView
from gamesolve_nlth.cards import card_str
from gamesolve_nlth.state import CHECK_CALL, FOLD, NLTHGame, NLTHState, action_raise_to, raise_action

STREETS = ("preflop", "flop", "turn", "river")
POT_PRESETS = (Fraction(1, 3), Fraction(1, 2), Fraction(2, 3), Fraction(3, 4), Fraction(1), Fraction(3, 2), Fraction(2))
_NICE = (Fraction(1, 4), Fraction(1, 3), Fraction(1, 2), Fraction(2, 3), Fraction(3, 4), Fraction(1), Fraction(5, 4),
         Fraction(3, 2), Fraction(2), Fraction(5, 2), Fraction(3), Fraction(4), Fraction(5))  # fmt: skip


def position_names(n: int) -> list[str]:
    """Position names by position index (0 = first seat left of the button ... n-1 = button):
    ``SB BB UTG HJ CO BTN`` for six; heads-up the button posts the small blind."""
    if n == 2:
        return ["BB", "BTN/SB"]
    middle = n - 3
    tail = ["LJ", "HJ", "CO"][3 - min(max(middle - 1, 0), 3):] if middle > 1 else []
    head = ["UTG"] + [f"UTG+{i}" for i in range(1, middle - len(tail))] if middle else []
    return ["SB", "BB", *head, *tail, "BTN"]


def pot_fraction_text(x: float) -> str:
    """``0.667 -> "2/3 pot"``, ``1 -> "pot"``, ``0.83 -> "0.83 pot"``."""
    for f in _NICE:
        if abs(x - float(f)) <= 0.02 * float(f):
            return "pot" if f == 1 else f"{f} pot" if f.denominator > 1 else f"{f.numerator}x pot"
    return f"{x:.2f} pot"


class NLTHView(PlayView):
    """Seats with positions, stacks and bets; hole cards (the viewer's, and those a showdown
    shows), board and pot; bets in chips, pot fractions and big blinds."""

    game: NLTHGame

    # -- units ------------------------------------------------------------------------------
    def unit(self) -> tuple[str, float]:
        return "bb/100", 100.0 / self.game.big_blind

    def bb_text(self, chips: float) -> str:
        bb = chips / self.game.big_blind
        return f"{bb:.1f}".rstrip("0").rstrip(".") + " bb"

    def syntax(self) -> list[str]:
        return [
            "f fold · c call or check · k / x check",
            "r AMOUNT  bet or raise TO an amount: r 600 (chips), r 3bb (big blinds),",
            "          r 2/3pot, r 0.75pot, r 75%, r pot (the raise as a fraction of the pot after calling),",
            "          r min, r max · allin (or a) goes all-in",
        ]

    # -- what a player sees -----------------------------------------------------------------
    def positions(self, state: NLTHState) -> list[str]:
        n = state.num_players
        names = position_names(n)
        return [names[(s - state.button - 1) % n] for s in range(n)]

    def stage(self, state: NLTHState) -> str:
        if state.is_terminal():
            return "showdown" if self._showdown(state) else "hand over"
        return STREETS[min(state.street, 3)]

    def _showdown(self, state: NLTHState) -> bool:
        return state.is_terminal() and sum(state.in_hand) > 1

    def table(self, state: NLTHState, viewer: int, names: Sequence[str]) -> TableView:
        n = state.num_players
        positions = self.positions(state)
        stacks, bets, live = state.stacks, state.bets, state.in_hand
        show = self._showdown(state)
        seats = []
        for s in range(n):
            hole = state.hole_cards(s)
            if not live[s]:
                cards: tuple[str, ...] = ()
            elif s == viewer or show:
                cards = tuple(card_str(c) for c in hole)
            else:
                cards = (HIDDEN,) * len(hole)
            status = "folded" if not live[s] else "all-in" if stacks[s] == 0 else ""
            seats.append(SeatView(s, names[s], positions[s], stacks[s], bets[s], cards, status))
        lines = []
        if state.is_terminal():
            pay = state.payoffs()
            for s in range(n):
                won = pay[s] + state.committed[s]  # chips taken from the pot (a split pot too)
                if won > 0:
                    net = f"+{self.amount_text(pay[s])}" if pay[s] >= 0 else f"-{self.amount_text(-pay[s])}"
                    lines.append(f"{names[s]} ({positions[s]}) wins {self.amount_text(won)} (net {net})")
        board = tuple(card_str(c) for c in state.board)
        return TableView(tuple(seats), board, sum(state.committed), self.stage(state), tuple(lines))

    # -- actions ----------------------------------------------------------------------------
    def _raise_to_for_fraction(self, state: NLTHState, fraction: float) -> int:
        seat = state.current_player()
        call = state.call_amount
        return round(state.bets[seat] + call + fraction * (state.pot + call))

    def menu(self, state: NLTHState) -> ActionMenu:
        seat = state.current_player()
        kinds = state.legal_action_kinds()
        call = state.call_amount
        choices = []
        if "f" in kinds:
            choices.append(Choice("f", "fold", FOLD))
        all_in_call = call > 0 and call >= state.stacks[seat]
        choices.append(Choice("c", "check" if call == 0 else f"call {self.amount_text(call)}" + (" (all-in)" if all_in_call else ""), CHECK_CALL))
        amount = None
        help_parts = [c.key + " " + c.label for c in choices]
        if "cbr" in kinds:
            lo, hi = state.min_raise_to, state.max_raise_to
            presets = [Preset("min", lo, self.bb_text(lo))]
            for f in POT_PRESETS:
                to = self._raise_to_for_fraction(state, float(f))
                if lo < to < hi and to not in (p.amount for p in presets):
                    presets.append(Preset(pot_fraction_text(float(f)), to, self.bb_text(to)))
            presets.append(Preset("all-in", hi, self.bb_text(hi)))
            verb = "bet" if max(state.bets) == 0 else "raise to"
            amount = AmountRange("r", verb, lo, hi, tuple(presets))
            choices.append(Choice("allin", f"all-in {self.amount_text(hi)}", raise_action(hi)))
            help_parts.append(f"r AMOUNT {verb} {self.amount_text(lo)}..{self.amount_text(hi)} (chips, or r 3bb, r 2/3pot, r pot)")
            help_parts.append("allin")
        elif all_in_call:
            choices.append(Choice("allin", "all-in (call)", CHECK_CALL))
            help_parts.append("allin")
        return ActionMenu(tuple(choices), amount, "; ".join(help_parts))

    def parse(self, state: NLTHState, text: str) -> int:
        if state.current_player() < 0:
            raise IllegalAction("no one is to act here")
        words = str(text).strip().lower().replace(",", "").split()
        if not words:
            raise IllegalAction("type an action: " + self.menu(state).help)
        head, rest = words[0], "".join(words[1:])
        kinds = state.legal_action_kinds()
        call = state.call_amount
        if head in ("f", "fold"):
            if rest:
                raise IllegalAction("fold takes no amount")
            if "f" not in kinds:
                raise IllegalAction("there is no bet to fold to: check for free (c)")
            return FOLD
        if head in ("c", "call", "k", "x", "check"):
            if rest:
                raise IllegalAction(f"{head} takes no amount (to raise, type r AMOUNT)")
            if head in ("k", "x", "check") and call > 0:
                raise IllegalAction(f"you cannot check: {self.amount_text(call)} to call (c) or fold (f)")
            return CHECK_CALL
        if head in ("a", "allin", "all-in", "shove", "jam") and not rest:
            if "cbr" in kinds:
                return raise_action(state.max_raise_to)
            if call > 0 and call >= state.stacks[state.current_player()]:
                return CHECK_CALL  # calling puts every chip in
            raise IllegalAction("you cannot go all-in here: " + self.menu(state).help)
        m = re.fullmatch(r"(raise|bet|r|b)([\d./%].*|min|max|pot|allin)?", head)  # "r", "r600", "b3bb", not "banana"
        if m is None:
            raise IllegalAction(f"{str(text).strip()[:40]!r} is not an action; type " + self.menu(state).help)
        amount_text = ((m.group(2) or "") + rest).strip()
        if "cbr" not in kinds:
            raise IllegalAction("you cannot bet or raise here (everyone else is all-in, or you can only call): " + self.menu(state).help)
        lo, hi = state.min_raise_to, state.max_raise_to
        if not amount_text:
            raise IllegalAction(f"r needs an amount: r {lo}..{hi} chips, r 3bb, r 2/3pot, r allin")
        to = self._amount(state, amount_text)
        shown = f"{self.amount_text(to)}" if amount_text == str(to) else f"{amount_text} = {self.amount_text(to)}"
        if to < lo:
            raise IllegalAction(f"raise to {shown} is below the minimum raise to {self.amount_text(lo)} (legal: r {lo}..{hi})")
        if to > hi:
            raise IllegalAction(f"raise to {shown} is more than you have: at most {self.amount_text(hi)}, all-in (legal: r {lo}..{hi})")
        return raise_action(to)

    def _amount(self, state: NLTHState, text: str) -> int:
        """Chips to raise to for an amount as typed (see the module doc)."""
        if text in ("min",):
            return state.min_raise_to
        if text in ("max", "allin", "all-in"):
            return state.max_raise_to
        if text.endswith("bb"):
            return round(_number(text[:-2], text) * self.game.big_blind)
        if text.endswith("%pot") or text.endswith("%"):
            return self._raise_to_for_fraction(state, _number(text.split("%")[0], text) / 100.0)
        if text.endswith("pot"):
            f = text[:-3].rstrip("x*") or "1"
            return self._raise_to_for_fraction(state, _number(f, text))
        if not re.fullmatch(r"\d+", text):
            raise IllegalAction(f"{text[:40]!r} is not an amount: chips as a whole number (600), big blinds (3bb) or a pot fraction (2/3pot)")
        return int(text)

    def describe(self, state: NLTHState, action: int) -> str:
        seat = state.current_player()
        if action == FOLD:
            return "folds"
        call = state.call_amount
        if action == CHECK_CALL:
            if call == 0:
                return "checks"
            allin = " (all-in)" if call >= state.stacks[seat] else ""
            return f"calls {self.amount_text(call)}{allin}"
        to = action_raise_to(action)
        call_to = max(state.bets)
        base = state.pot + (call_to - state.bets[seat])
        verb = "bets" if call_to == 0 else "raises to"
        extras = []
        if state.max_raise_to is not None and to >= state.max_raise_to:
            extras.append("all-in")
        if base > 0:
            extras.append(pot_fraction_text((to - call_to) / base))
        extras.append(self.bb_text(to))
        return f"{verb} {self.amount_text(to)} ({', '.join(extras)})"


def _number(text: str, whole: str) -> float:
    """``"2/3" -> 0.667``, ``"2.5" -> 2.5``; IllegalAction otherwise (or when not positive)."""
    try:
        value = float(Fraction(text.strip())) if text.strip() else float("nan")
    except (ValueError, ZeroDivisionError):
        value = float("nan")
    if not value > 0 or value > 1e9:
        raise IllegalAction(f"{whole[:40]!r} is not an amount: use a positive number, e.g. r 3bb, r 2/3pot, r 600")
    return value

