"""The game contract: the Python state API every game plugin implements.

It follows open-spiel's conventions so that figures compare one to one: players are
numbered from 0, ``current_player()`` returns :data:`CHANCE` at chance nodes and
:data:`TERMINAL` at terminal nodes, actions are small non-negative integers.

States are *values*: :meth:`State.child` returns a new state and never mutates the
receiver. That makes tree walks (compilation, best response, search) simple and safe.
"""

from __future__ import annotations

import abc
from collections.abc import Mapping, Sequence
from typing import Any

CHANCE = -1
"""``current_player()`` at a chance node (open-spiel's ``kChancePlayerId``)."""

TERMINAL = -4
"""``current_player()`` at a terminal node (open-spiel's ``kTerminalPlayerId``)."""


class State(abc.ABC):
    """One history of a game.

    A plugin implements the abstract methods; the rest derive from them.
    """

    @abc.abstractmethod
    def current_player(self) -> int:
        """The player to act, :data:`CHANCE` or :data:`TERMINAL`."""

    @abc.abstractmethod
    def legal_actions(self) -> Sequence[int]:
        """Legal actions at a decision node, in increasing order.

        Every history in one information set must return the same list.
        """

    @abc.abstractmethod
    def chance_outcomes(self) -> Sequence[tuple[int, float]]:
        """``(action, probability)`` pairs at a chance node; probabilities sum to 1."""

    @abc.abstractmethod
    def child(self, action: int) -> State:
        """The state after ``action``; the receiver is left unchanged."""

    @abc.abstractmethod
    def returns(self) -> Sequence[float]:
        """Each player's payoff at a terminal node (zero-sum for poker)."""

    @abc.abstractmethod
    def information_state_key(self, player: int) -> str:
        """What ``player`` knows here, as a string; equal strings = one information set."""

    @abc.abstractmethod
    def public_state_key(self) -> str:
        """What every player (and an observer) knows here."""

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def action_to_string(self, action: int) -> str:
        """A human-readable name for ``action`` at this state."""
        return str(action)

    def betting_round(self) -> int:
        """Optional: the round of play this state is in (poker: 0 preflop, 1 flop, ...),
        which match summaries break decision times down by. 0 (the default): no rounds."""
        return 0

    def action_class(self, action: int) -> str | None:
        """Optional: the class of ``action`` (poker: ``"fold"``, ``"call"``, ``"raise"``).

        Real-time search biases its continuation strategies towards each class (Pluribus:
        the blueprint, and the blueprint with folding, calling or raising made 5x as likely).
        ``None`` (the default) lets the core class actions by position: the first legal
        action, the last, and those between."""
        return None


class Game(abc.ABC):
    """A game instance with fixed parameters."""

    #: registry name, e.g. ``"kuhn"``
    name: str = ""
    #: every terminal's returns sum to zero (poker without rake), as the solvers' best responses
    #: assume and :func:`gamesolve.testing.check_game_conformance` checks; a game that is not
    #: says False. A match reports an agent's AIVAT win rate as minus the others' sum only then.
    zero_sum: bool = True

    def __init__(self, num_players: int, params: Mapping[str, Any] | None = None):
        self.num_players = int(num_players)
        self.params: dict[str, Any] = dict(params or {})
        self.params["players"] = self.num_players

    @abc.abstractmethod
    def new_initial_state(self) -> State:
        """The root history (usually a chance node dealing cards)."""

    def num_histories(self) -> int | None:
        """How many histories the whole tree has, if the game can count them without walking
        it; ``None`` if not. Compilers use it to refuse a tree too big before walking it."""
        return None

    def estimated_histories(self, cap: float) -> float | None:
        """Optional, for games that cannot count their trees (``num_histories`` is None) but
        may be far too big for a compiled form: an estimate of the number of histories
        (:func:`gamesolve.game.tree_size.estimate_histories`; it may stop once above ``cap``).
        ``None`` (the default): no estimate, the compilers walk and stop at their limit."""
        return None

    def factored_contract(self):
        """Optional: the game described by its public tree, private states and deals
        (:class:`gamesolve.game.factored_contract.FactoredContract`), which compiles at the
        cost of public nodes instead of histories: a game too big to enumerate gets MCCFR-P,
        vector CFR and exact best response through it. ``None`` (the default): the generic
        compiler walks the State contract."""
        return None

    def describe(self) -> str:
        """One line naming the game and its parameters."""
        extra = ", ".join(f"{k}={v}" for k, v in sorted(self.params.items()) if k != "players")
        return f"{self.name} ({self.num_players} players{', ' + extra if extra else ''})"
