"""Deals: samples of everything chance decides in a factored game.

A deal gives each player a private state per round and one outcome per public chance level
(the ``k``-th public chance node on any path reads outcome ``k``), plus, for games with
contest terminals, each player's strength. Deal ``i`` of a run depends only on
``(seed, i)``, so results do not depend on how a run is cut into batches or threads.

* :class:`ListedDeals`: every deal with its probability (small games). The list is also the
  compatibility rule between private states: two private states can coexist exactly when
  some deal of positive probability holds both (card removal, for instance).
* Generated deals: :class:`~gamesolve.game.belief_deals.BeliefDeals` (items made of cards,
  drawn from range beliefs), or a plugin object with the same :meth:`batch` method.
"""

from __future__ import annotations

from typing import Protocol

import attrs
import numpy as np
from numba import njit

from gamesolve.rng import categorical_cdf, splitmix, stream


@attrs.frozen(eq=False)
class DealBatch:
    """Deals for consecutive iterations: ``private[i, p, r]``, ``public[i, k]``,
    ``strength[i, p]`` and ``index[i]`` (the listed deal's number, -1 for generated deals);
    for rollout terminals, the continuation game's private states and strengths
    (``cont[i, q, r]``, ``cont_strength[i, q]``; :mod:`gamesolve.game.rollout`)."""

    private: np.ndarray  # int32[C, P, R]
    public: np.ndarray  # int32[C, K]
    strength: np.ndarray  # int32[C, P]
    index: np.ndarray  # int64[C]
    cont: np.ndarray = attrs.field(factory=lambda: np.zeros((0, 0, 0), np.int32))
    cont_strength: np.ndarray = attrs.field(factory=lambda: np.zeros((0, 0), np.int32))

    def __len__(self) -> int:
        return len(self.index)


class Deals(Protocol):
    """What the solvers need from a game's chance."""

    num_players: int
    num_rounds: int
    num_levels: int

    @property
    def listed(self) -> ListedDeals | None:
        """The full list, when the game has one."""

    def batch(self, seed: int, first: int, count: int) -> DealBatch:
        """Deals ``first .. first + count - 1`` of the stream ``seed``."""


@njit(cache=True)
def _sample_listed(seed, first, cdf, private, public, strength, index, out_private, out_public, out_strength):
    """Deals ``first ..`` of stream ``seed`` drawn from the list, each copied into the batch's
    arrays as it is drawn: numpy's fancy indexing of the three arrays afterwards made a Leduc
    deal cost 62-81 ns instead of 50 (a Leduc MCCFR iteration takes about 1.5 us)."""
    for i in range(index.shape[0]):
        _, u = splitmix(stream(seed, first + i))
        d = categorical_cdf(cdf, u)
        index[i] = d
        for p in range(private.shape[1]):
            for r in range(private.shape[2]):
                out_private[i, p, r] = private[d, p, r]
            out_strength[i, p] = strength[d, p]
        for k in range(public.shape[1]):
            out_public[i, k] = public[d, k]


@attrs.frozen(eq=False)
class ListedDeals:
    """Every deal of a small game with its probability."""

    private: np.ndarray  # int32[D, P, R]
    public: np.ndarray  # int32[D, K]: -1 where a deal never reaches level k
    prob: np.ndarray  # float64[D], summing to 1
    strength: np.ndarray = attrs.field(default=None)  # int32[D, P]; zeros when the game has no contests
    _cdf: np.ndarray = attrs.field(init=False, repr=False)

    def __attrs_post_init__(self):
        if self.strength is None:
            object.__setattr__(self, "strength", np.zeros(self.private.shape[:2], dtype=np.int32))
        total = float(self.prob.sum())
        if not np.all(self.prob >= 0) or abs(total - 1.0) > 1e-9:
            raise ValueError(f"deal probabilities must be non-negative and sum to 1 (sum {total})")
        cdf = np.cumsum(self.prob)
        cdf[-1] = np.inf  # rounding can leave the last sum just below 1
        object.__setattr__(self, "_cdf", cdf)

    @property
    def listed(self) -> ListedDeals:
        return self

    @property
    def count(self) -> int:
        return len(self.prob)

    @property
    def num_players(self) -> int:
        return self.private.shape[1]

    def weights(self, reach: np.ndarray, rnd: int, outcomes: tuple[int, ...] = ()) -> np.ndarray:
        """``prob(d) * prod_q reach[q, s_q(d)]`` (private states of round ``rnd``) for every deal
        whose public chance begins with ``outcomes``, 0 for the others."""
        w = self.prob.copy()
        for k, outcome in enumerate(outcomes):
            w[self.public[:, k] != outcome] = 0.0
        for q in range(reach.shape[0]):
            w *= reach[q, self.private[:, q, rnd]]
        return w

    @property
    def num_rounds(self) -> int:
        return self.private.shape[2]

    @property
    def num_levels(self) -> int:
        return self.public.shape[1]

    def batch(self, seed: int, first: int, count: int) -> DealBatch:
        index = np.empty(count, dtype=np.int64)
        private = np.empty((count, *self.private.shape[1:]), self.private.dtype)
        public = np.empty((count, self.public.shape[1]), self.public.dtype)
        strength = np.empty((count, self.strength.shape[1]), self.strength.dtype)
        _sample_listed(np.uint64(seed), np.uint64(first), self._cdf, self.private, self.public, self.strength, index,
                       private, public, strength)  # fmt: skip
        return DealBatch(private, public, strength, index)

    def reweighted(self, weights: np.ndarray) -> ListedDeals:
        """The same deals (same numbering) with probabilities proportional to ``weights`` (a
        subgame's root beliefs); deals of weight 0 are never sampled."""
        total = float(weights.sum())
        if not total > 0:
            raise ValueError("every deal has weight 0")
        return ListedDeals(self.private, self.public, np.asarray(weights, dtype=np.float64) / total, self.strength)
