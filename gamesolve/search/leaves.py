"""Leaf values of depth-limited subgames: k continuation strategies per player.

Supplement, "Leaf node values in imperfect-information subgames": at a leaf every player
still in the hand chooses, once per information set and without seeing the others' choice,
one of k continuation strategies for the rest of the game; Pluribus uses k = 4: the
blueprint, and the blueprint with the probability of folding, of calling, or of every
raise multiplied by 5 and renormalised. A leaf's value is therefore a table over the
players' joint choices, ``values[c_0, ..., c_{n-1}, player]``.

:class:`ExactLeafValues` computes that table by walking the rest of the game (small games).
Large games plug in a sampled-rollout evaluator with the same :class:`LeafEvaluator`
interface (Pluribus samples rollouts with compressed continuation strategies).
"""

from __future__ import annotations

from typing import Protocol

import attrs
import numpy as np

from gamesolve.game.state import CHANCE, TERMINAL, State
from gamesolve.search.adapter import CALL, FOLD, RAISE, LeafMapping, PokerAdapter, identity_mapping
from gamesolve.search.policy import Policy

BIASES = ("blueprint", "fold", "call", "raise")
"""Pluribus' four continuation strategies, in the order the choice actions number them."""

_BIASED_KIND = {"fold": FOLD, "call": CALL, "raise": RAISE}


@attrs.frozen(eq=False)
class ContinuationStrategies:
    """The blueprint and its biased variants.

    :ivar biases: names from :data:`BIASES`; ``k`` is their number (``BIASES[:k]``).
    :ivar factor: the multiplier of the favoured action kind (paper: 5).
    """

    blueprint: Policy
    adapter: PokerAdapter
    biases: tuple[str, ...] = BIASES
    factor: float = 5.0

    @classmethod
    def first(cls, k: int, blueprint: Policy, adapter: PokerAdapter, factor: float = 5.0) -> ContinuationStrategies:
        if not 1 <= k <= len(BIASES):
            raise ValueError(f"k must be between 1 and {len(BIASES)}, got {k}")
        return cls(blueprint, adapter, BIASES[:k], factor)

    @property
    def k(self) -> int:
        return len(self.biases)

    def probs(self, state: State, player: int) -> np.ndarray:
        """``(k, actions)``: each continuation strategy's probabilities at ``state``."""
        base = np.asarray(self.blueprint.probs(state, player), dtype=np.float64)
        out = np.empty((self.k, len(base)))
        kinds = None
        for i, bias in enumerate(self.biases):
            if bias == "blueprint":
                out[i] = base
                continue
            if kinds is None:
                kinds = np.array(self.adapter.action_kinds(state))
            p = np.where(kinds == _BIASED_KIND[bias], base * self.factor, base)
            total = p.sum()
            out[i] = p / total if total > 0 else base
        return out


class LeafEvaluator(Protocol):
    """Values of a leaf for every joint choice of continuation strategies."""

    k: int

    def values(self, state: State) -> np.ndarray:
        """``float[k, ..., k, players]`` (one axis per player; a player who has folded
        makes no choice, and only index 0 of their axis is read)."""


class ExactLeafValues:
    """Exact leaf values: the rest of the game, walked with every player's continuations.

    One walk serves all ``k^n`` joint choices: the value array carries one axis per player
    and a player's decision mixes their children along their own axis only.
    """

    def __init__(self, continuations: ContinuationStrategies, num_players: int,
                 leaf_mapping: LeafMapping = identity_mapping):
        self.continuations = continuations
        self.k = continuations.k
        self.num_players = num_players
        self.leaf_mapping = leaf_mapping
        self.leaves_evaluated = 0

    def values(self, state: State) -> np.ndarray:
        self.leaves_evaluated += 1
        n, k = self.num_players, self.k
        v = self._walk(self.leaf_mapping(state))
        return np.broadcast_to(v, (k,) * n + (n,)).copy()

    def _walk(self, state: State) -> np.ndarray:
        n = self.num_players
        player = state.current_player()
        if player == TERMINAL:
            return np.asarray(state.returns(), dtype=np.float64).reshape((1,) * n + (n,))
        if player == CHANCE:
            return sum(p * self._walk(state.child(a)) for a, p in state.chance_outcomes())
        probs = self.continuations.probs(state, player)  # (k, A)
        shape = [1] * (n + 1)
        shape[player] = self.k
        total = 0.0
        for j, a in enumerate(state.legal_actions()):
            w = probs[:, j]
            if not w.any():
                continue
            total = total + w.reshape(shape) * self._walk(state.child(a))
        return total
