"""What a game plugin supplies so that the core's range search agent
(:class:`~gamesolve.search.range_agent.RangeSearchAgent`, Algorithm 2 of the supplement) plays
its game: a :class:`SearchDomain`, and for each betting round it searches a :class:`RoundPlan`.

The agent owns the algorithm: range beliefs and their Bayes updates with sigma, the round's
root, actions added where an opponent left the subgame's abstraction and the re-solve, its own
probabilities frozen for the hand it holds, the per-decision budget, the decision record and
the choice of solver (:func:`~gamesolve.search.range_solve.solve_subgame`). The plugin owns
what is its game's: which rounds search and from where, the subgame's action abstraction and
where it ends (both inside the subgame it builds), how leaves are valued, and the translation
between real actions and the subgame's labels.

Private states are numbered ``0 .. S-1`` the same way for every player (hold'em: the 1,326
hole-card pairs) and may hold public items (cards) that remove them once dealt
(:class:`~gamesolve.search.beliefs.ItemRanges`). docs/writing-a-game-plugin.md walks through
an implementation.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Protocol

import attrs
import numpy as np

from gamesolve.game.factored import FactoredGame
from gamesolve.game.state import State
from gamesolve.search.beliefs import ItemRanges

Path = tuple[int, ...]
"""The subgame labels of the actions from the round's root to a state."""


@attrs.frozen(eq=False)
class SampledChance:
    """Public chance too wide to walk every iteration (a flop's 1,176 turn and river pairs):
    each iteration draws its cards from ``pool`` and relabels the form's one-board template;
    ``strengths(cards)`` ranks every private state at showdown on that board."""

    pool: list[int]
    strengths: Callable[[tuple[int, ...]], np.ndarray]


@attrs.frozen(eq=False)
class RangeSubgame:
    """A round's subgame as the plugin built it; the core picks the solver from its shape.

    :ivar form: a factored game whose decision rows are ``S * actions`` per node.
    :ivar root_reach: ``float[2, S]`` both players' reach at the root, over which the form's
        terminals remove items (vector CFR); None: the form's deals are drawn from the beliefs
        it was built with (Monte Carlo: external-sampling Linear MCCFR).
    :ivar chance: set where the public chance is sampled (see :class:`SampledChance`).
    """

    form: FactoredGame
    root_reach: np.ndarray | None = None
    chance: SampledChance | None = None


class RoundPlan(Protocol):
    """How one round is searched from its root (the plugin builds it at the root).

    Two optional attributes: ``memo_key``, what the round's subgame depends on besides the
    ranges, added actions and frozen rows (the agent then keeps its solves across hands without
    a time budget: :class:`~gamesolve.search.range_agent.SolveMemo`); ``offers_every_action``,
    true where the subgame has no action abstraction (an opponent's action is never added)."""

    def label(self, state: State, action: int) -> int:
        """The subgame's label of real ``action`` at ``state`` (e.g. a raise past the effective
        stack as the subgame's all-in); at a chance node inside the round (a round whose
        subgame spans public chance), the subgame's label of that outcome."""

    def subgame(self, added: Mapping[Path, set[int]], ranges: ItemRanges) -> RangeSubgame | None:
        """The round's subgame with the labels ``added`` where opponents left its abstraction
        (path of the state -> labels), for the beliefs at the root; None where the beliefs
        hold no deal (the agent then plays the blueprint)."""


class SearchDomain(Protocol):
    """A game as the range search agent sees it (see the module docstring).

    One optional method: ``initial_ranges()``, the beliefs at the start of a hand where they
    are not :class:`~gamesolve.search.beliefs.ItemRanges` over :attr:`items` (the exact check,
    :class:`~gamesolve.search.beliefs.HistoryRanges`): an object with ``reach`` (``float[P,
    S]``), ``after_action(player, probs, action)``, ``after_chance(state, action)`` and
    ``after_item(item)``."""

    items: np.ndarray
    """``int[S, k]`` the public items each private state holds (-1 for none)."""

    def round_of(self, state: State) -> int:
        """The betting round of a decision state (a new one moves the root)."""

    def public_items(self, state: State) -> tuple[int, ...]:
        """The items dealt face up at ``state``, in the order dealt (they remove the private
        states holding them)."""

    def private_index(self, state: State, seat: int) -> int:
        """The private state ``seat`` holds at ``state``."""

    def private_indices(self, privates: np.ndarray) -> np.ndarray:
        """The private states of ``privates`` as the plugin's agents name them (hold'em:
        ``int[n, 2]`` hole cards) for :meth:`RangeSearchAgent.range_probabilities`."""

    def plan(self, root: State, seat: int, triggered: bool) -> RoundPlan | None:
        """Whether and how the round starting at ``root`` is searched (None: the blueprint
        plays it); ``triggered``: the root was moved there by :meth:`triggers`."""

    def triggers(self, state: State, player: int, action: int, seat: int) -> bool:
        """Whether an opponent's ``action`` makes ``seat`` search the rest of a round it
        plays by the blueprint, from the state after it (hold'em: a first-round raise far
        from every blueprint size)."""

    def blueprint_probs(self, state: State, player: int, action: int) -> np.ndarray:
        """``float[S]`` the blueprint's probability of ``action`` at ``state`` for every
        private state of ``player`` (0 for those the public items remove)."""

    def real_action(self, state: State, label: int) -> int:
        """The real action the agent takes for the subgame's ``label`` at ``state``."""
