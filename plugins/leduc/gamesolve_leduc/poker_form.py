"""Leduc in the core's factored form: its public betting tree and every deal.

Card abstractions (the ``abstraction`` game parameter):

* ``rank`` (default): the private state is the card's rank and the public card a chance
  node over the three ranks. Suits never matter in Leduc, so this is lossless (suit
  isomorphism) and pools the two suits' samples.
* ``card``: the exact card, and the public card a chance node over the cards (open-spiel's
  information sets).
* ``coarse``: a lossy abstraction for search experiments. The public card is not in the
  tree: the private state is the rank in the first round, then only whether the private
  card pairs the board (2 states); the blueprint cannot tell a high unpaired card from a low
  one after the flop, nor which card the board shows, which is what real-time search repairs.
"""

from __future__ import annotations

import itertools
from collections import defaultdict

import numpy as np

from gamesolve.game.deals import ListedDeals
from gamesolve.game.factored import SMALL_GAME_MCCFR_DEFAULTS, FactoredGame
from gamesolve.game.poker_form import (
    CALL, FOLD, FOLD_END, GOES_ON, POKER_CLASSES, RAISE, SHOWDOWN, PublicNodeInfo,
    build_poker_form,
)  # fmt: skip
from gamesolve_leduc.game import BUCKETINGS, RAISE_AMOUNTS, LeducGame, LeducState


def describe(state: LeducState) -> PublicNodeInfo:
    if state.is_terminal():
        kind = FOLD_END if state._in_hand() == 1 else SHOWDOWN
        player = -1
    else:
        kind, player = GOES_ON, state.current_player()
    return PublicNodeInfo(
        key=state._betting(),
        kind=kind,
        player=player,
        round=min(state.round, 1),
        commit=tuple(float(b) for b in state.bets),
        folded=tuple(state.folded),
    )


def classify(state: LeducState, action: int) -> tuple[int, int]:
    top = max(state.bets)
    if action == 0:
        return FOLD, 0
    if action == 1:
        return CALL, top
    return RAISE, top + RAISE_AMOUNTS[state.round]


def _deal(state: LeducState) -> int:
    # Private cards of the representative history: one even card per rank, so that every
    # rank keeps a card for the public chance node.
    return next(c for c, _ in state.chance_outcomes() if c % 2 == 0)


def _public_chance(bucketing: str):
    def branches(state: LeducState):
        if len(state.private) < state.n:
            return None  # a private card
        available = [c for c, _ in state.chance_outcomes()]
        labels = range(state.deck_size // 2) if bucketing == "rank" else range(state.deck_size)
        # Betting never depends on the cards, so a label's subtree may be built from any card.
        out = []
        for label in labels:
            fits = [c for c in available if (c // 2 if bucketing == "rank" else c) == label]
            out.append((label, state.child(fits[0] if fits else available[0])))
        return out

    return None if bucketing == "coarse" else branches


def _strength(card: int, board: int) -> int:
    return 100 + card // 2 if card // 2 == board // 2 else card // 2


def _deals(n: int, deck: int, bucketing: str) -> ListedDeals:
    """Every (private cards, board) permutation, merged where the abstraction cannot tell
    them apart (their probabilities add up)."""
    merged: dict[tuple, float] = defaultdict(float)
    perms = list(itertools.permutations(range(deck), n + 1))
    for cards in perms:
        private, board = cards[:n], cards[n]
        strength = tuple(_strength(c, board) for c in private)
        if bucketing == "rank":
            key = (tuple((c // 2, c // 2) for c in private), (board // 2,), strength)
        elif bucketing == "card":
            key = (tuple((c, c) for c in private), (board,), strength)
        else:
            key = (tuple((c // 2, int(c // 2 == board // 2)) for c in private), (), strength + (board // 2,))
        merged[key] += 1.0 / len(perms)
    keys = sorted(merged)
    return ListedDeals(
        private=np.array([k[0] for k in keys], dtype=np.int32),
        public=np.array([k[1] for k in keys], dtype=np.int32).reshape(len(keys), -1),
        prob=np.array([merged[k] for k in keys]),
        strength=np.array([k[2][:n] for k in keys], dtype=np.int32),
    )


def leduc_form(game: LeducGame, buckets: str = "rank") -> FactoredGame:
    if buckets not in BUCKETINGS:
        raise ValueError(f"unknown Leduc bucketing {buckets!r} (choose from {', '.join(BUCKETINGS)})")
    n = game.num_players
    deck = game.deck_size
    ranks = deck // 2
    arrays = build_poker_form(game.new_initial_state(), _deal, describe, classify, n, _public_chance(buckets))
    outcomes = arrays.pop("node_outcomes")
    index = {(path, key): i for i, (path, key) in enumerate(zip(outcomes, arrays["node_keys"]))}

    def locate(key: str) -> tuple[int, int]:
        card, board_card, betting = key.split(":")
        c = int(card)
        if board_card == "?":
            return index[((), betting)], c if buckets == "card" else c // 2
        b = int(board_card)
        if buckets == "coarse":
            return index[((), betting)], int(c // 2 == b // 2)
        if buckets == "rank":
            return index[((b // 2,), betting)], c // 2
        return index[((b,), betting)], c

    num_private = {"rank": [ranks, ranks], "card": [deck, deck], "coarse": [ranks, 2]}[buckets]
    return FactoredGame(
        game_name=game.name,
        params=dict(game.params),
        num_players=n,
        num_rounds=2,
        num_private=np.array(num_private, dtype=np.int32),
        deals=_deals(n, deck, buckets),
        class_names=POKER_CLASSES,
        regret_scale=1000.0,
        locate=locate,
        mccfr_defaults=dict(SMALL_GAME_MCCFR_DEFAULTS),
        describe=f"{buckets} abstraction",
        lossless=buckets != "coarse",
        **arrays,
    )
