"""Leaf values of depth-limited subgames: k continuation strategies per player.

Supplement, "Leaf node values in imperfect-information subgames": at a leaf every player
still in the hand chooses, once per information set and without seeing the others' choice,
one of k continuation strategies for the rest of the game; Pluribus uses k = 4: the
blueprint, and the blueprint with the probability of folding, of calling, or of every
raise multiplied by 5 and renormalised. A leaf's value is therefore a table over the
players' joint choices, ``values[c_0, ..., c_{n-1}, player]``.

:class:`ExactLeafValues` computes that table by walking the rest of the game (small games);
:class:`SampledLeafValues` estimates it from seeded rollouts (large games: Pluribus samples
rollouts with its compressed continuation strategies).
"""

from __future__ import annotations

import hashlib
import itertools
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
        kinds = np.array(self.adapter.action_kinds(state)) if self.k > 1 else None
        return np.stack([self._biased(base, kinds, bias) for bias in self.biases])

    def strategy(self, index: int, state: State, player: int) -> np.ndarray:
        """Continuation strategy ``index``'s probabilities at ``state`` (one row of :meth:`probs`)."""
        base = np.asarray(self.blueprint.probs(state, player), dtype=np.float64)
        bias = self.biases[index]
        kinds = np.array(self.adapter.action_kinds(state)) if bias != "blueprint" else None
        return self._biased(base, kinds, bias)

    def _biased(self, base: np.ndarray, kinds: np.ndarray | None, bias: str) -> np.ndarray:
        if bias == "blueprint":
            return base
        p = np.where(kinds == _BIASED_KIND[bias], base * self.factor, base)
        total = p.sum()
        return p / total if total > 0 else base


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


class SampledLeafValues:
    """Leaf values estimated by rollouts: the rest of the game is played ``rollouts`` times
    per joint choice, chance and every player's continuation strategy sampled.

    The rollouts of different joint choices share their random numbers (rollout ``r``
    reads the same stream of uniforms whatever the choice), so the *differences* between
    choices, which are what the players' leaf decisions weigh, carry less noise than the
    values. The streams are seeded by ``seed`` and the leaf's history (every player's
    information-state key), so a leaf's value does not depend on the order of evaluation.
    """

    _CHUNK = 32

    def __init__(self, continuations: ContinuationStrategies, num_players: int, rollouts: int = 100,
                 seed: int = 0, leaf_mapping: LeafMapping = identity_mapping):
        if rollouts < 1:
            raise ValueError(f"rollouts must be at least 1, got {rollouts}")
        self.continuations = continuations
        self.k = continuations.k
        self.num_players = num_players
        self.rollouts = rollouts
        self.seed = seed
        self.leaf_mapping = leaf_mapping
        self.leaves_evaluated = 0

    def values(self, state: State) -> np.ndarray:
        self.leaves_evaluated += 1
        n, k = self.num_players, self.k
        start = self.leaf_mapping(state)
        streams = [_UniformStream(self.seed, _history_digest(start, n), r, self._CHUNK) for r in range(self.rollouts)]
        choosers = self.continuations.adapter.in_hand(start)
        out = np.zeros((k,) * n + (n,))
        for joint in itertools.product(range(k), repeat=len(choosers)):
            choice = [0] * n
            for p, c in zip(choosers, joint):
                choice[p] = c
            total = np.zeros(n)
            for stream in streams:
                total += self._rollout(start, choice, stream)
            out[tuple(choice)] = total / self.rollouts
        for p in range(n):  # a player out of the hand chooses nothing: copy index 0
            if p not in choosers:
                index = [slice(None)] * (n + 1)
                index[p] = slice(0, 1)
                out = np.broadcast_to(out[tuple(index)], out.shape).copy()
        return out

    def _rollout(self, state: State, choice: list[int], stream: _UniformStream) -> np.ndarray:
        step = 0
        while True:
            player = state.current_player()
            if player == TERMINAL:
                return np.asarray(state.returns(), dtype=np.float64)
            if player == CHANCE:
                outcomes = state.chance_outcomes()
                actions = [a for a, _ in outcomes]
                probs = np.array([p for _, p in outcomes])
            else:
                actions = list(state.legal_actions())
                probs = self.continuations.strategy(choice[player], state, player)
            state = state.child(actions[_pick(probs, stream.uniform(step))])
            step += 1


def _history_digest(state: State, num_players: int) -> int:
    text = "\x1f".join([state.public_state_key()] + [state.information_state_key(p) for p in range(num_players)])
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")


def _pick(probs: np.ndarray, u: float) -> int:
    cumulative = np.cumsum(probs)
    return min(int(np.searchsorted(cumulative, u * cumulative[-1], side="right")), len(probs) - 1)


class _UniformStream:
    """Rollout ``r``'s uniforms, drawn on demand in chunks from a generator of its own."""

    def __init__(self, seed: int, digest: int, r: int, chunk: int):
        self._rng = np.random.default_rng([seed, digest, r])
        self._chunk = chunk
        self._u = self._rng.random(chunk)

    def uniform(self, i: int) -> float:
        while i >= len(self._u):
            self._u = np.concatenate([self._u, self._rng.random(self._chunk)])
        return float(self._u[i])
