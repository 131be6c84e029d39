"""Multiway hold'em subgames for real-time search: a betting round's root, as the hand stands
(every seat, its chips and the board), to the end of the game, solved by the core's
external-sampling Linear MCCFR with deals drawn from the players' range beliefs.

Supplement, "Further details of the real-time search algorithm": Pluribus solves large
subgames with Monte Carlo Linear CFR. The subgame here is a :class:`FactoredGame` over all
seats of the table (folded seats are settled: their chips are dead money in the pot), with
the search's bet sizes (the walk of :mod:`gamesolve_nlth.betting.subgame`, which spots share),
every later board card as a public chance node, and the 1,326 hole-card pairs as each
player's private state. The root's chance node over histories is the core's sampler
(:class:`~gamesolve.game.belief_deals.BeliefDeals`: disjoint hole cards with probability
proportional to the product of the players' reach, the board cards to come uniformly from the
rest of the deck); hold'em adds each deal's 7-card ranks. Showdowns are the core's
N-player contest terminals (side pots, split pots, dead money) with the deal's 7-card ranks.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

import attrs
import numpy as np
from numba import njit

from gamesolve.game.belief_deals import BeliefDeals
from gamesolve.game.deals import DealBatch
from gamesolve.game.factored import ROLLOUT, FactoredGame
from gamesolve.game.poker_form import POKER_CLASSES
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
        deals = belief_deals(beliefs, in_hand, tuple(board), int(tree.level.max()) + 1, cont)
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
def _strengths(private, full, seats, hand_cards, strength):
    """Every seat in the hand's 7-card rank on each deal's whole board."""
    for i in range(private.shape[0]):
        for seat in seats:
            h = private[i, seat, 0]
            strength[i, seat] = evaluate7(hand_cards[h, 0], hand_cards[h, 1], full[i, 0], full[i, 1], full[i, 2], full[i, 3], full[i, 4])


@attrs.frozen(eq=False)
class _DealtCards:
    """What hold'em reads from a deal's cards: the showdown's ranks, and at rollout leaves the
    blueprint's buckets of every seat in the hand (:class:`BeliefDeals`' ``finish``)."""

    seats: np.ndarray
    leaves: LeafValues | None

    def __call__(self, batch: DealBatch, full: np.ndarray) -> DealBatch:
        _strengths(batch.private, full, self.seats, _HOLES, batch.strength)
        if self.leaves is None:
            return batch
        game, (count, players, _) = self.leaves.game, batch.private.shape
        cont = np.zeros((count, players, 4), np.int32)
        cont_strength = np.zeros((count, players), np.int32)
        blueprint_buckets(batch.private, full, self.seats, self.leaves.tree_seat, *game.indexers, *game.tables, cont, cont_strength)
        return attrs.evolve(batch, cont=cont, cont_strength=cont_strength)


def belief_deals(beliefs: np.ndarray, in_hand: np.ndarray, board: tuple[int, ...], num_levels: int,
                 leaves: LeafValues | None = None) -> BeliefDeals:  # fmt: skip
    """Deals of a multiway subgame from ``beliefs[seat, hand]`` (the core's sampler, see the
    module docstring); ``leaves``: a depth-limited subgame's rollouts need the buckets."""
    seats = np.flatnonzero(in_hand).astype(np.int64)
    return BeliefDeals.build(beliefs, in_hand, HAND_CARDS, 52, board, 4, num_levels, 5 - len(board), _DealtCards(seats, leaves))


_HOLES = HAND_CARDS.astype(np.int64)
