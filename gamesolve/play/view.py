"""How a person sees and plays a game: the records a table is drawn from, and the view
interface a game plugin implements through the ``gamesolve_play_view`` hook.

A :class:`PlayView` answers four questions about a state of its game:

* :meth:`PlayView.table`: what ``viewer`` sees (a :class:`TableView`: seats with names,
  positions, stacks, bets and cards -- hidden ones as ``"??"`` -- the board, the pot, extra
  public lines). The terminal prints it; the web table draws it from its JSON.
* :meth:`PlayView.menu`: the legal actions of the player to act, as an :class:`ActionMenu`
  (discrete choices, and for games with bet sizes an :class:`AmountRange` with presets).
* :meth:`PlayView.parse`: a typed action (``"f"``, ``"r 600"``, ``"2x5"``) -> the contract
  action, or :class:`IllegalAction` with a message fit to show the player.
* :meth:`PlayView.describe`: how an action reads in the log (``"raises to 600 (3/4 pot, 6 bb)"``).

:class:`GenericView` does this for any game of the contract from ``legal_actions``,
``action_to_string`` and the information-state keys alone; plugins give richer views.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from gamesolve.game.state import CHANCE, TERMINAL, Game, State

HIDDEN = "??"
"""A card (or die) the viewer may not see."""


class IllegalAction(ValueError):
    """A typed action that is not legal here (or not understood); the message says why and
    what is legal, in one line."""


@attrs.frozen
class SeatView:
    """One seat as ``viewer`` sees it. ``cards`` are short strings (``"As"``, ``"K"``,
    ``"⚄"``), :data:`HIDDEN` where not visible; ``status`` is ``""``, ``"folded"`` or
    ``"all-in"`` (or a game's own word)."""

    seat: int
    name: str = ""
    position: str = ""
    stack: float | None = None
    bet: float | None = None
    cards: tuple[str, ...] = ()
    status: str = ""


@attrs.frozen
class TableView:
    """What one player sees of the table: seats, public cards, pot, the stage of the hand
    (``"flop"``, ``"round 2"``) and free lines of public information."""

    seats: tuple[SeatView, ...]
    board: tuple[str, ...] = ()
    pot: float | None = None
    stage: str = ""
    lines: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return attrs.asdict(self)


@attrs.frozen
class Choice:
    """A discrete action: ``key`` is what the player types (or the page sends), ``label``
    how it reads (``"call 200"``), ``action`` the contract action."""

    key: str
    label: str
    action: int


@attrs.frozen
class Preset:
    """A suggested amount in a range: ``label`` (``"1/2 pot"``), the amount, and a note
    (``"8.5 bb"``)."""

    label: str
    amount: int
    note: str = ""


@attrs.frozen
class AmountRange:
    """Actions that take an amount, typed ``KEY AMOUNT`` (``"r 600"``); every integer from
    ``min`` to ``max`` is legal. ``label`` names it (``"raise to"``)."""

    key: str
    label: str
    min: int
    max: int
    presets: tuple[Preset, ...] = ()


@attrs.frozen
class ActionMenu:
    """The legal actions of the player to act, and a one-line reminder of the syntax."""

    choices: tuple[Choice, ...]
    amount: AmountRange | None = None
    help: str = ""

    def as_dict(self) -> dict[str, Any]:
        return attrs.asdict(self)


class PlayView:
    """The view of one game (see the module doc). Subclass it in a plugin and return an
    instance from ``gamesolve_play_view(game)``; anything not overridden falls back to the
    generic behaviour."""

    def __init__(self, game: Game):
        self.game = game

    # -- units ----------------------------------------------------------------------------
    def unit(self) -> tuple[str, float]:
        """``(name, scale)``: session results are reported as ``scale * (mean winnings per
        hand)`` in ``name`` -- poker views use ``("bb/100", 100 / big_blind)``."""
        return "units/hand", 1.0

    def syntax(self) -> list[str]:
        """Lines explaining what to type (the terminal's ``?``)."""
        return ["type an action as the menu lists it (its key or its name); #N plays action number N"]

    def amount_text(self, amount: float) -> str:
        """An amount of the game's units as text (``"1,250"``)."""
        return f"{amount:,.0f}" if float(amount).is_integer() else f"{amount:,.2f}"

    # -- what a player sees ------------------------------------------------------------------
    def table(self, state: State, viewer: int, names: Sequence[str]) -> TableView:
        """The table as ``viewer`` sees it; ``names[s]`` is who sits in seat ``s``. At a
        terminal state the view shows what a showdown reveals."""
        n = self.game.num_players
        lines = [f"you know: {state.information_state_key(viewer)}"] if 0 <= viewer < n else []
        if state.is_terminal():
            lines = [f"seat {s}: {state.information_state_key(s)}" for s in range(n)]
        return TableView(seats=tuple(SeatView(s, names[s]) for s in range(n)), lines=tuple(lines))

    def menu(self, state: State) -> ActionMenu:
        """The legal actions at a decision node, one :class:`Choice` each."""
        choices = []
        seen: set[str] = set()
        for a in state.legal_actions():
            key = _key(state.action_to_string(a))
            if not key or key in seen:
                key = f"#{a}"  # names that clash or are empty: the action number
            seen.add(key)
            choices.append(Choice(key, state.action_to_string(a), int(a)))
        return ActionMenu(tuple(choices), None, "type one of: " + ", ".join(c.key for c in choices))

    def parse(self, state: State, text: str) -> int:
        """The action typed as ``text`` (a choice's key or label, case and spaces ignored;
        ``#N`` for action number N), or :class:`IllegalAction`."""
        if state.current_player() < 0:
            raise IllegalAction("no one is to act here")
        menu = self.menu(state)
        word = _key(text)
        if not word:
            raise IllegalAction(f"type an action; {menu.help}")
        for c in menu.choices:
            if word in (c.key.lower(), _key(c.label)):
                return c.action
        if word.startswith("#") and word[1:].isdigit():
            a = int(word[1:])
            if a in state.legal_actions():
                return a
        raise IllegalAction(f"{text.strip()[:40]!r} is not a legal action here; {menu.help}")

    def describe(self, state: State, action: int) -> str:
        """How ``action`` (taken at ``state``) reads in the log, e.g. ``"bets"``."""
        return state.action_to_string(action)

    # -- helpers ----------------------------------------------------------------------------
    def stage(self, state: State) -> str:
        return self.table(state, -1, [""] * self.game.num_players).stage


def _key(text: str) -> str:
    return "".join(str(text).lower().split())


def who_acts(state: State) -> int | None:
    """The seat to act, or None at chance and terminal nodes."""
    p = state.current_player()
    return None if p in (CHANCE, TERMINAL) or p < 0 else p


class GenericView(PlayView):
    """The default view: any game of the contract, drawn from its own strings."""


def view_for(game: Game, pm=None) -> PlayView:
    """The view a plugin gives ``game`` (hook ``gamesolve_play_view``), else :class:`GenericView`."""
    if pm is not None:
        view = pm.hook.gamesolve_play_view(game=game)
        if view is not None:
            return view
    return GenericView(game)
