"""Deals of a subgame drawn from the players' range beliefs, for games whose private items
are made of cards from one deck with the public board (hold'em's hole-card pairs, Omaha's
four cards, a short deck's pairs).

Supplement, "Structure of imperfect-information subgames": the root's chance node deals each
history with probability proportional to the players' reach. When the histories are too many
to list (:class:`~gamesolve.game.deals.ListedDeals`), they are sampled: the items of the
players in the hand by rejection from the product of their ranges (exact, card removal
included: a draw whose items share a card is thrown away whole), then the board cards still
to come uniformly from the rest of the deck. What a deal's cards are worth (strengths at a
showdown, a blueprint's buckets at rollout leaves) is the game's: ``finish``.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs
import numpy as np
from numba import njit

from gamesolve.game.deals import DealBatch
from gamesolve.rng import categorical_cdf, splitmix, stream, uniform_index

_RETRIES = 1000  # whole-deal rejections before each player redraws alone (see _sample)


@njit(cache=True)
def _item_bits(parts, item):
    bits = np.uint64(0)
    for c in parts[item]:
        bits |= np.uint64(1) << np.uint64(c)
    return bits


@njit(cache=True)
def _sample(seed, first, count, seats, cdf, parts, deck, board, n_future, n_rounds, private, public, full):
    """Deals ``first .. first+count-1``: the items of the ``seats`` in the hand by rejection
    from the product of their ranges (``cdf[j]``: seat ``seats[j]``'s cumulative range), then
    ``n_future`` board cards uniformly from the rest of the ``deck``."""
    n_in = seats.shape[0]
    for i in range(count):
        state = stream(seed, first + i)
        attempt = 0
        while True:  # rejection: the exact joint distribution of disjoint items
            attempt += 1
            used = np.uint64(0)
            for c in board:
                used |= np.uint64(1) << np.uint64(c)
            ok = True
            for j in range(n_in):
                h = -1
                # Ranges that (almost) always collide: after many rejections each player
                # redraws until its item fits the others' (an approximation of last resort).
                bits = np.uint64(0)
                for _ in range(1 if attempt <= _RETRIES else 100_000):
                    state, u = splitmix(state)
                    h = categorical_cdf(cdf[j], u)
                    bits = _item_bits(parts, h)
                    if not used & bits:
                        break
                if used & bits:
                    ok = False
                    break
                used |= bits
                for r in range(n_rounds):
                    private[i, seats[j], r] = h
            if ok or attempt > _RETRIES + 10:
                break
        for k in range(board.shape[0]):
            full[i, k] = board[k]
        for k in range(n_future):
            while True:
                state, u = splitmix(state)
                c = uniform_index(u, deck)
                if not used & (np.uint64(1) << np.uint64(c)):
                    break
            used |= np.uint64(1) << np.uint64(c)
            if k < public.shape[1]:
                public[i, k] = c
            full[i, board.shape[0] + k] = c


@attrs.frozen(eq=False)
class BeliefDeals:
    """Deals drawn from range beliefs (see the module docstring); deal ``i`` depends only on
    ``(seed, i)``. ``finish(batch, full)`` returns the batch with what the game reads from a
    deal's cards (strengths, rollout buckets); ``full[i]`` is deal ``i``'s whole board."""

    num_players: int
    num_rounds: int
    num_levels: int
    seats: np.ndarray  # int64: the seats in the hand
    cdf: np.ndarray  # float64[len(seats), items]
    parts: np.ndarray  # int64[items, cards]: each item's cards
    deck: int  # cards in the deck (at most 64)
    board: np.ndarray  # int64: the board at the root
    n_future: int  # board cards still to come
    finish: Callable[[DealBatch, np.ndarray], DealBatch] | None = None

    @classmethod
    def build(cls, beliefs: np.ndarray, in_hand: np.ndarray, parts: np.ndarray, deck: int, board: tuple[int, ...],
              num_rounds: int, num_levels: int, n_future: int, finish=None) -> BeliefDeals:  # fmt: skip
        """From ``beliefs[seat, item]`` (reach at the root) of the seats ``in_hand``; items
        touching the ``board`` are removed. :class:`ValueError` names a seat whose range the
        board empties."""
        if deck > 64:
            raise ValueError(f"a deck of at most 64 cards is sampled by bit masks, got {deck}")
        seats = np.flatnonzero(in_hand).astype(np.int64)
        parts = np.asarray(parts, dtype=np.int64)
        if len(seats) * parts.shape[1] + len(board) + n_future > deck:
            raise ValueError(f"a deck of {deck} cards cannot hold {len(seats)} items of {parts.shape[1]}, "
                             f"a board of {len(board)} and {n_future} cards to come")  # fmt: skip
        cdf = np.zeros((len(seats), len(parts)))
        touching = np.isin(parts, np.asarray(board, dtype=np.int64)).any(axis=1)
        for j, seat in enumerate(seats):
            w = np.where(touching, 0.0, np.asarray(beliefs[seat], dtype=np.float64))
            if not w.sum() > 0:
                raise ValueError(f"seat {seat}'s range holds nothing the board leaves")
            cdf[j] = np.cumsum(w / w.sum())
            cdf[j, -1] = np.inf
        return cls(len(in_hand), num_rounds, max(num_levels, 1), seats, cdf, parts, deck, np.array(board, dtype=np.int64),
                   n_future, finish)  # fmt: skip

    @property
    def listed(self):
        return None

    def batch(self, seed: int, first: int, count: int) -> DealBatch:
        return self.sample(seed, first, count)[0]

    def sample(self, seed: int, first: int, count: int) -> tuple[DealBatch, np.ndarray]:
        """The batch and each deal's whole board (``[count, len(board) + n_future]``)."""
        private = np.zeros((count, self.num_players, self.num_rounds), dtype=np.int32)
        public = np.full((count, self.num_levels), -1, dtype=np.int32)
        full = np.zeros((count, len(self.board) + self.n_future), dtype=np.int64)
        _sample(np.uint64(seed), np.uint64(first), count, self.seats, self.cdf, self.parts, self.deck, self.board,
                self.n_future, self.num_rounds, private, public, full)  # fmt: skip
        batch = DealBatch(private, public, np.zeros((count, self.num_players), dtype=np.int32), np.full(count, -1, dtype=np.int64))
        return (batch if self.finish is None else self.finish(batch, full)), full
