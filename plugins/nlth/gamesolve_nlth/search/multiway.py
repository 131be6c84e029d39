"""Multiway hold'em subgames for real-time search: a betting round's root, as the hand stands
(every seat, its chips and the board), to the end of the game, solved by the core's
external-sampling Linear MCCFR with deals drawn from the players' range beliefs.

Supplement, "Further details of the real-time search algorithm": Pluribus solves large
subgames with Monte Carlo Linear CFR. The subgame here is a :class:`FactoredGame` over all
seats of the table (folded seats are settled: their chips are dead money in the pot), with
the search's bet sizes (the walk of :mod:`gamesolve_nlth.betting.subgame`, which spots share),
every later board card as a public chance node, and the 1,326
hole-card pairs as each player's private state. What the root's chance node over histories
needs (supplement, "Structure of imperfect-information subgames": each history weighted by
the players' reach) is the deal sampler :class:`BeliefDeals`: a deal gives the players in the
hand disjoint hole cards with probability proportional to the product of their reach
(rejection sampling from the product of the ranges: exact, card removal included) and the
board cards still to come uniformly from the rest of the deck. Showdowns are the core's
N-player contest terminals (side pots, split pots, dead money) with the deal's 7-card ranks.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

import attrs
import numpy as np
from numba import njit

from gamesolve.game.deals import DealBatch
from gamesolve.game.factored import ROLLOUT, FactoredGame
from gamesolve.game.poker_form import POKER_CLASSES
from gamesolve.rng import splitmix, stream
from gamesolve_nlth import engine as E
from gamesolve_nlth.betting.subgame import DepthLimit, SubgameSizes, walk_subgame
from gamesolve_nlth.evaluator import evaluate7
from gamesolve_nlth.search.continuation import blueprint_buckets
from gamesolve_nlth.spot.hands import HAND_CARDS, NUM_HANDS


@attrs.frozen(eq=False)
class LeafValues:
    """How a subgame's leaves enter the continuation game: ``game`` (a
    :class:`~gamesolve_nlth.search.continuation.ContinuationGame`), ``player_of[q]`` (its player
    ``q``'s seat), ``tree_seat[seat]`` (the inverse), and per leaf the entry node, the ratio of
    the real pot to the continuation game's, and each seat's chips in the continuation game."""

    game: object
    player_of: np.ndarray
    tree_seat: np.ndarray
    entry: np.ndarray
    ratio: np.ndarray
    entry_stake: np.ndarray


def build_multiway(root: np.ndarray, sizes: SubgameSizes, added: Mapping[tuple[int, ...], Collection[int]] | None = None,
                   beliefs: np.ndarray | None = None, board: tuple[int, ...] = (), depth: DepthLimit | None = None,
                   leaves=None) -> FactoredGame:  # fmt: skip
    """The subgame from the engine state ``root`` (a decision at the start of a betting round)
    to the end of the game, or to the leaves of ``depth``, over every seat.

    :param leaves: with ``depth``: ``leaves(list of (engine state, path)) -> LeafValues``,
        where each leaf enters the continuation game (see :class:`LeafValues`).

    :param added: raise-to amounts to offer besides the sizes, by the path of edge labels
        (actions and cards) from the root to the decision node.
    :param beliefs: ``[seats, 1326]`` reach over hole-card pairs at the root; with it the form
        carries :class:`BeliefDeals` (without: no deals, the tree alone).
    :param board: the board at the root (the engine's own cards are placeholders).
    """
    tree, leaf_states = walk_subgame(root, sizes, tuple(board), added, depth)
    fields = tree.form_fields()
    in_hand = np.array([E.in_hand(root, q) for q in range(E.num_seats(root))])
    rollout, cont = None, None
    if leaf_states:
        values = leaves(leaf_states)
        terminals = tree.leaf >= 0
        fields["term_kind"][terminals] = ROLLOUT
        fields["payoff"][terminals] = tree.commit[terminals]  # the stakes (see gamesolve.game.rollout)
        at = np.maximum(tree.leaf, 0)
        rollout = values.game.rollout(
            values.player_of, np.where(terminals, values.entry[at], -1), tree.choice, values.ratio[at], values.entry_stake[at],
        )  # fmt: skip
        cont = values
    deals = None
    if beliefs is not None:
        deals = BeliefDeals.build(beliefs, in_hand, tuple(board), int(tree.level.max()) + 1, cont)
    return FactoredGame(
        game_name="nlth",
        params={"players": len(in_hand), "search": "multiway"},
        num_players=len(in_hand),
        num_rounds=4,
        num_private=np.full(4, NUM_HANDS, dtype=np.int32),
        deals=deals,
        rollout=rollout,
        class_names=POKER_CLASSES,
        describe=f"{int(in_hand.sum())}-player subgame from street {E.street(root)}",
        lossless=True,
        **fields,
    )


@njit(cache=True)
def _pick(cdf, u):
    lo, hi = 0, cdf.shape[0] - 1
    while lo < hi:
        mid = (lo + hi) // 2
        if cdf[mid] > u:
            hi = mid
        else:
            lo = mid + 1
    return lo


@njit(cache=True)
def _sample(seed, first, count, seats, cdf, hand_cards, board, n_future, n_rounds, private, public, strength, full):
    """Deals ``first .. first+count-1``: hole cards of the ``seats`` in the hand by rejection
    from the product of their ranges (``cdf[j]``: seat ``seats[j]``'s cumulative range), then
    ``n_future`` board cards uniformly from the rest, and every seat's 7-card rank."""
    n_in = seats.shape[0]
    cards = np.zeros(7, dtype=np.int64)
    for i in range(count):
        state = stream(seed, first + i)
        attempt = 0
        while True:  # rejection: the exact joint distribution of disjoint hands
            attempt += 1
            used = np.uint64(0)
            for c in board:
                used |= np.uint64(1) << np.uint64(c)
            ok = True
            for j in range(n_in):
                h = -1
                # Ranges that (almost) always collide: after many rejections each player
                # redraws until its hand fits the others' (an approximation of last resort).
                for _ in range(1 if attempt <= 1000 else 100_000):
                    state, u = splitmix(state)
                    h = _pick(cdf[j], u)
                    if not used & ((np.uint64(1) << np.uint64(hand_cards[h, 0])) | (np.uint64(1) << np.uint64(hand_cards[h, 1]))):
                        break
                bits = (np.uint64(1) << np.uint64(hand_cards[h, 0])) | (np.uint64(1) << np.uint64(hand_cards[h, 1]))
                if used & bits:
                    ok = False
                    break
                used |= bits
                for r in range(n_rounds):
                    private[i, seats[j], r] = h
            if ok or attempt > 1010:
                break
        for k in range(board.shape[0]):
            full[i, k] = board[k]
        for k in range(n_future):
            while True:
                state, u = splitmix(state)
                c = min(int(u * 52), 51)
                if not used & (np.uint64(1) << np.uint64(c)):
                    break
            used |= np.uint64(1) << np.uint64(c)
            if k < public.shape[1]:
                public[i, k] = c
            full[i, board.shape[0] + k] = c
        for j in range(n_in):
            h = private[i, seats[j], 0]
            cards[0] = hand_cards[h, 0]
            cards[1] = hand_cards[h, 1]
            strength[i, seats[j]] = evaluate7(cards[0], cards[1], full[i, 0], full[i, 1], full[i, 2], full[i, 3], full[i, 4])


@attrs.frozen(eq=False)
class BeliefDeals:
    """Deals of a multiway subgame drawn from range beliefs (see the module docstring); deal
    ``i`` depends only on ``(seed, i)``."""

    num_players: int
    num_rounds: int
    num_levels: int
    seats: np.ndarray  # int64: the seats in the hand
    cdf: np.ndarray  # float64[len(seats), 1326]
    board: np.ndarray  # int64: the board at the root
    n_future: int  # board cards still to come
    leaves: LeafValues | None = None  # rollouts need the blueprint's buckets of every deal

    @classmethod
    def build(cls, beliefs: np.ndarray, in_hand: np.ndarray, board: tuple[int, ...], num_levels: int,
              leaves: LeafValues | None = None) -> BeliefDeals:  # fmt: skip
        seats = np.flatnonzero(in_hand).astype(np.int64)
        cdf = np.zeros((len(seats), NUM_HANDS))
        touching = np.array([any(int(c) in board for c in HAND_CARDS[h]) for h in range(NUM_HANDS)])
        for j, seat in enumerate(seats):
            w = np.where(touching, 0.0, np.asarray(beliefs[seat], dtype=np.float64))
            if not w.sum() > 0:
                raise ValueError(f"seat {seat}'s range holds no hand the board leaves")
            cdf[j] = np.cumsum(w / w.sum())
            cdf[j, -1] = np.inf
        return cls(len(in_hand), 4, max(num_levels, 1), seats, cdf, np.array(board, dtype=np.int64), 5 - len(board), leaves)

    @property
    def listed(self):
        return None

    def batch(self, seed: int, first: int, count: int) -> DealBatch:
        return self.sample(seed, first, count)[0]

    def sample(self, seed: int, first: int, count: int) -> tuple[DealBatch, np.ndarray]:
        """The batch and each deal's whole board (``[count, 5]``)."""
        private = np.zeros((count, self.num_players, self.num_rounds), dtype=np.int32)
        public = np.full((count, self.num_levels), -1, dtype=np.int32)
        strength = np.zeros((count, self.num_players), dtype=np.int32)
        full = np.zeros((count, 5), dtype=np.int64)
        _sample(np.uint64(seed), np.uint64(first), count, self.seats, self.cdf, HAND_CARDS.astype(np.int64),
                self.board, self.n_future, self.num_rounds, private, public, strength, full)  # fmt: skip
        batch = DealBatch(private, public, strength, np.full(count, -1, dtype=np.int64))
        if self.leaves is None:
            return batch, full
        game = self.leaves.game
        cont = np.zeros((count, self.num_players, 4), np.int32)
        cont_strength = np.zeros((count, self.num_players), np.int32)
        blueprint_buckets(private, full, self.seats, self.leaves.tree_seat, *game.indexers, *game.tables, cont, cont_strength)
        return attrs.evolve(batch, cont=cont, cont_strength=cont_strength), full
