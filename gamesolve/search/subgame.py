"""Depth-limited imperfect-information subgames as small games of their own.

A :class:`Subgame` is a :class:`~gamesolve.game.state.Game`, so the core compiles it to an
explicit tree and solves it with the ordinary CFR kernels (no search-only solver code):

* its root is a chance node over the histories of the root public state, weighted by
  their normalised reach (supplement, "Structure of imperfect-information subgames");
* below it the real game is played with the subgame's action abstraction (plus any action
  the nested search added, Algorithm 2 lines 5-7);
* a history where the depth limit is reached is a *leaf*: each player still in the hand
  then chooses one of k continuation strategies at a decision node whose information set
  is the player's own information set at the leaf (suffixed ``|continuation:<player>``), so nobody
  sees the others' choice and the choice is the same across histories the player cannot
  tell apart; a terminal with the leaf's exact continuation value follows (supplement,
  "Leaf node values in imperfect-information subgames");
* an information set whose probabilities are *frozen* (the searcher's own earlier actions
  in this round with its actual hand, Algorithm 2 line 13) becomes a chance node with
  those probabilities: the solver cannot change it, and everyone else best-responds to it.
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs
import numpy as np

from gamesolve.game.state import CHANCE, TERMINAL, Game, State
from gamesolve.search.adapter import RAISE, ActionAbstraction, PokerAdapter
from gamesolve.search.beliefs import PublicBeliefState
from gamesolve.search.leaves import LeafEvaluator

CONTINUATION_SUFFIX = "|continuation"


@attrs.frozen
class DepthLimit:
    """Where a subgame's leaves are.

    :ivar end_of_round: leaves at the first history of the next betting round.
    :ivar actions: also a leaf after this many actions below the root (None: no limit).
    :ivar raises: also a leaf right after this many raises below the root (Pluribus on the
        second round with more than two players: "immediately after the second raise").
    """

    end_of_round: bool = True
    actions: int | None = None
    raises: int | None = None

    @classmethod
    def end_of_game(cls) -> DepthLimit:
        return cls(end_of_round=False)

    @property
    def unlimited(self) -> bool:
        return not self.end_of_round and self.actions is None and self.raises is None

    def __str__(self) -> str:
        if self.unlimited:
            return "end of game"
        parts = ["end of round"] if self.end_of_round else []
        if self.actions is not None:
            parts.append(f"{self.actions} actions")
        if self.raises is not None:
            parts.append(f"{self.raises} raises")
        return " or ".join(parts)


@attrs.frozen(eq=False)
class SubgameSpec:
    """Everything that defines one subgame (also the cache key's ingredients)."""

    root: PublicBeliefState
    adapter: PokerAdapter
    abstraction: ActionAbstraction
    depth: DepthLimit
    leaf_values: LeafEvaluator | None  # None only with an unlimited depth
    added: frozenset[tuple[str, int]] = frozenset()  # (public state key, action) added by the search
    frozen: Mapping[str, Mapping[int, float]] = attrs.field(factory=dict)  # infoset key -> {action: prob}
    frozen_player: int = -1  # whose information sets ``frozen`` names (the searcher)


class Subgame(Game):
    """The subgame of a :class:`SubgameSpec` as a game (see the module docstring)."""

    name = "subgame"

    def __init__(self, spec: SubgameSpec):
        root = spec.root
        super().__init__(root.num_players, {"root": root.public_key(), "depth": str(spec.depth)})
        if spec.leaf_values is None and not spec.depth.unlimited:
            raise ValueError("a depth-limited subgame needs leaf values")
        self.spec = spec
        weights = root.weights()
        # Unsafe search needs no strategy for histories of probability 0 (supplement, same section).
        keep = np.flatnonzero(weights > 0)
        self.root_states = [root.states[i] for i in keep]
        self.root_weights = weights[keep] / weights[keep].sum()
        self.root_round = spec.adapter.betting_round(root.representative)
        self.leaves = 0

    def new_initial_state(self) -> SubgameState:
        return SubgameState(self, None, 0, 0, (), None)

    def describe(self) -> str:
        return f"subgame at {self.spec.root.public_key()!r} ({len(self.root_states)} histories, depth: {self.spec.depth})"

    # -- used by the states -------------------------------------------------------------
    def offered(self, state: State) -> list[int]:
        """The subgame's actions at a real decision node: the abstraction plus added actions."""
        actions = set(self.spec.abstraction.actions(state))
        key = state.public_state_key()
        actions.update(a for (k, a) in self.spec.added if k == key)
        legal = state.legal_actions()
        return [a for a in legal if a in actions]

    def is_leaf(self, state: State, actions: int, raises: int) -> bool:
        d = self.spec.depth
        if state.current_player() == TERMINAL or d.unlimited:
            return False
        if d.end_of_round and self.spec.adapter.betting_round(state) > self.root_round:
            return True
        if d.actions is not None and actions >= d.actions:
            return True
        return d.raises is not None and raises >= d.raises


class SubgameState(State):
    """A history of a :class:`Subgame`: the root, a real history, or a leaf's choice stage."""

    __slots__ = ("game", "inner", "actions", "raises", "choices", "leaf_values")

    def __init__(self, game: Subgame, inner: State | None, actions: int, raises: int,
                 choices: tuple[int, ...], leaf_values: np.ndarray | None):
        self.game = game
        self.inner = inner  # None at the root chance node
        self.actions = actions  # actions since the root (depth limits)
        self.raises = raises
        self.choices = choices  # continuation choices made so far at a leaf
        self.leaf_values = leaf_values  # float[k, ..., k, P] once the leaf is reached

    # -- stage helpers ------------------------------------------------------------------
    def _choosers(self) -> list[int]:
        return self.game.spec.adapter.in_hand(self.inner)

    def _frozen(self) -> Mapping[int, float] | None:
        p = self.inner.current_player()
        if p != self.game.spec.frozen_player or not self.game.spec.frozen:
            return None
        return self.game.spec.frozen.get(self.inner.information_state_key(p))

    def current_player(self) -> int:
        if self.inner is None:
            return CHANCE
        if self.leaf_values is not None:
            choosers = self._choosers()
            return choosers[len(self.choices)] if len(self.choices) < len(choosers) else TERMINAL
        p = self.inner.current_player()
        if p >= 0 and self._frozen() is not None:
            return CHANCE
        return p

    def legal_actions(self):
        if self.current_player() < 0:
            return []
        if self.leaf_values is not None:
            return list(range(self.leaf_values.shape[0]))
        return self.game.offered(self.inner)

    def chance_outcomes(self):
        if self.inner is None:
            return list(enumerate(self.game.root_weights.tolist()))
        frozen = self._frozen()
        if frozen is not None:
            offered = self.game.offered(self.inner)
            p = np.array([frozen.get(a, 0.0) for a in offered])
            if p.sum() <= 0:
                raise ValueError(f"frozen probabilities at {self.inner!r} give no offered action positive weight")
            return list(zip(offered, (p / p.sum()).tolist()))
        return list(self.inner.chance_outcomes())

    def child(self, action: int) -> SubgameState:
        g = self.game
        if self.inner is None:
            return self._enter(g.root_states[action], 0, 0)
        if self.leaf_values is not None:
            return SubgameState(g, self.inner, self.actions, self.raises, self.choices + (int(action),), self.leaf_values)
        p = self.inner.current_player()
        if p == CHANCE:
            return self._enter(self.inner.child(action), self.actions, self.raises)
        raised = g.spec.adapter.classify(self.inner, action)[0] == RAISE
        return self._enter(self.inner.child(action), self.actions + 1, self.raises + int(raised))

    def _enter(self, inner: State, actions: int, raises: int) -> SubgameState:
        g = self.game
        if g.is_leaf(inner, actions, raises):
            g.leaves += 1
            values = g.spec.leaf_values.values(inner)
            state = SubgameState(g, inner, actions, raises, (), values)
            if values.shape[0] == 1:  # k = 1: nothing to choose, the leaf is a terminal
                state.choices = tuple(0 for _ in state._choosers())
            return state
        return SubgameState(g, inner, actions, raises, (), None)

    def returns(self):
        if self.leaf_values is None:
            return list(self.inner.returns())
        index = [0] * self.game.num_players
        for p, c in zip(self._choosers(), self.choices):
            index[p] = c
        return self.leaf_values[tuple(index)].tolist()

    def information_state_key(self, player: int) -> str:
        if self.inner is None:
            return "subgame-root"
        key = self.inner.information_state_key(player)
        # Keys of different players may coincide (Leduc's omit the seat); a leaf's choice
        # nodes hold several players, so their keys name the player.
        return f"{key}{CONTINUATION_SUFFIX}:{player}" if self.leaf_values is not None else key

    def public_state_key(self) -> str:
        if self.inner is None:
            return "subgame-root"
        key = self.inner.public_state_key()
        return key + CONTINUATION_SUFFIX if self.leaf_values is not None else key

    def __repr__(self) -> str:
        return f"SubgameState({self.inner!r}, choices={self.choices})"
