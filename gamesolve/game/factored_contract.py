"""The factored contract: a game described by its public tree, in plain Python.

The State contract (:mod:`gamesolve.game.state`) describes histories, and the generic
compiler walks every one of them with all deals side by side: its cost is histories. A game
too big for that (Liar's Dice with two dice: 33 million histories and more) can describe
itself *factored* instead, and compiling it costs public nodes only
(:mod:`gamesolve.game.contract_compiler`):

* **the public tree**: who acts (:meth:`player`), the public actions (:meth:`actions`,
  :meth:`child`), public chance with its probabilities (:meth:`chance_outcomes`), each
  public state a value of the plugin's choosing (a tuple is fine) with a printable
  :meth:`public_key`;
* **private states**: each player's, as labels (:meth:`private_states`), fixed for the whole
  game (a hand, the dice rolled);
* **the deal**: every joint private state with its probability (:meth:`deals`). Joint
  states never listed cannot coexist (card removal); a public chance outcome's probability
  may depend on the deal (a board card that a player holds cannot come);
* **terminal values over private states**, vectorised: one array per terminal public state
  (:meth:`terminal_values`), its rows the listed deals. Terminals whose values are the
  same share one row when they give the same :meth:`terminal_key` (Liar's Dice: the last
  bid and who called it), which keeps the compiled form small.

A game offers it through :meth:`gamesolve.game.state.Game.factored_contract`; it is optional,
beside the State contract, which tests and play still use. docs/writing-a-game-plugin.md walks
through Liar's Dice's.
"""

from __future__ import annotations

import abc
from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np

from gamesolve.game.state import CHANCE, TERMINAL

__all__ = ["CHANCE", "TERMINAL", "FactoredContract"]


class FactoredContract(abc.ABC):
    """A game as a public tree, private states and a deal distribution (module docstring).

    Public states are the plugin's own values, passed back to its methods; they are never
    stored by the compiler beyond the walk, so they can be small (a tuple of ints).
    """

    num_players: int

    # -- private states and the deal ---------------------------------------------------------
    @abc.abstractmethod
    def private_states(self, player: int) -> Sequence[str]:
        """``player``'s private states, as labels (part of its information-state keys)."""

    @abc.abstractmethod
    def deals(self) -> tuple[np.ndarray, np.ndarray]:
        """Every joint private state with its probability: ``private`` int[D, P] (indices
        into :meth:`private_states`) and ``prob`` float[D], summing to 1."""

    # -- the public tree ------------------------------------------------------------------------
    @abc.abstractmethod
    def root(self) -> Any:
        """The public state before the first action (after the deal)."""

    @abc.abstractmethod
    def player(self, state: Any) -> int:
        """The player to act, :data:`CHANCE` (a public chance node) or :data:`TERMINAL`."""

    @abc.abstractmethod
    def actions(self, state: Any) -> Sequence[int]:
        """The legal actions at a decision node, in increasing order (the same whatever the
        private states: legal actions are public)."""

    @abc.abstractmethod
    def child(self, state: Any, action: int) -> Any:
        """The public state after ``action`` (or after the chance outcome ``action``)."""

    def chance_outcomes(self, state: Any) -> Sequence[tuple[int, float | np.ndarray]]:
        """At a public chance node: ``(outcome, probability)`` pairs. A probability is a
        number, or an array over the listed deals (float[D]) where it depends on them; for
        every deal the probabilities sum to 1 or to 0 (a deal this node never sees).
        Needed only by games with public chance."""
        raise NotImplementedError(f"{type(self).__name__} has public chance nodes but no chance_outcomes")

    @abc.abstractmethod
    def terminal_values(self, state: Any) -> np.ndarray:
        """Each player's payoff at a terminal: float[P] when it does not depend on the deal
        (a fold), else float[D, P], row ``d`` for listed deal ``d``."""

    @abc.abstractmethod
    def public_key(self, state: Any) -> str:
        """What everybody knows here, as a string (equal strings: one public state)."""

    # -- optional ---------------------------------------------------------------------------------
    def terminal_key(self, state: Any) -> Hashable | None:
        """Terminals with equal keys (and the same public chance outcomes above them) have the
        same :meth:`terminal_values` and share one table row; ``None``: a row of its own."""
        return None

    def action_class(self, state: Any, action: int) -> str | None:
        """The class of ``action`` for biased continuation strategies (see
        :meth:`gamesolve.game.state.State.action_class`); ``None``: by position."""
        return None

    def public_path(self, state) -> Sequence[int]:
        """The edge labels from :meth:`root` to the public state of the game's history
        ``state`` (a :class:`~gamesolve.game.state.State`): its public actions and public
        chance outcomes in order. Agents use it to find a history's node in a compiled form
        that names no public states (above the compiler's key limit); forms that keep keys
        find it by key and never call it."""
        raise NotImplementedError(
            f"{type(self).__name__} does not implement public_path(state): agents that play a form above the factored "
            f"contract's key limit need it to find a history's public node"
        )

    def information_state_key(self, public_key: str, player: int, private_label: str) -> str:
        """``player``'s information-state key with ``private_label`` at a public state. It
        must equal the State contract's key where both exist (policies are read by key);
        the default is ``"LABEL|PUBLIC"``."""
        return f"{private_label}|{public_key}"
