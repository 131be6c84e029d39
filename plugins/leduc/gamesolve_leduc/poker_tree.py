"""Leduc compiled to the poker-tree form: its public betting tree and every deal.

Bucketings (the ``buckets`` game parameter):

* ``rank`` (default): a private card's rank, then (rank, board rank). Suits never matter
  in Leduc, so this is lossless (suit isomorphism) and pools the two suits' samples.
* ``card``: the exact card, then (card, board card), as open-spiel's information sets.
* ``coarse``: a lossy abstraction for search experiments: the private rank in the first
  round, then only whether the private card pairs the board (2 buckets) in the second;
  the blueprint cannot tell a high unpaired card from a low one after the flop, which is
  what real-time search has to repair.
"""

from __future__ import annotations

import itertools

import numpy as np

from gamesolve.game.poker_tree import TOY_GAME_MCCFR_DEFAULTS, CALL, DECISION, FOLD, FOLD_END, RAISE, SHOWDOWN, PokerTree, PublicNodeInfo, build_public_tree
from gamesolve_leduc.game import LeducGame, LeducState, RAISE_AMOUNTS

BUCKETINGS = ("rank", "card", "coarse")


def describe(state: LeducState) -> PublicNodeInfo:
    if state.is_terminal():
        kind = FOLD_END if state._in_hand() == 1 else SHOWDOWN
        player = -1
    else:
        kind, player = DECISION, state.current_player()
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


def leduc_poker_tree(game: LeducGame, buckets: str = "rank") -> PokerTree:
    if buckets not in BUCKETINGS:
        raise ValueError(f"unknown Leduc bucketing {buckets!r} (choose from {', '.join(BUCKETINGS)})")
    n = game.num_players
    deck = game.deck_size
    ranks = deck // 2

    def deal(state):
        return state.chance_outcomes()[0][0]

    arrays = build_public_tree(game.new_initial_state(), deal, describe, classify, n)
    deals = np.array(list(itertools.permutations(range(deck), n + 1)), dtype=np.int32)
    private, board = deals[:, :n], deals[:, n]
    prank, brank = private // 2, board // 2
    if buckets == "rank":
        b0 = prank
        b1 = prank * ranks + brank[:, None]
        num_buckets = np.array([ranks, ranks * ranks], dtype=np.int32)
    elif buckets == "coarse":
        b0 = prank
        b1 = (prank == brank[:, None]).astype(np.int32)
        num_buckets = np.array([ranks, 2], dtype=np.int32)
    else:
        b0 = private
        b1 = private * deck + board[:, None]
        num_buckets = np.array([deck, deck * deck], dtype=np.int32)
    deal_buckets = np.stack([b0, b1], axis=2).astype(np.int32)
    deal_rank = np.where(prank == brank[:, None], 100 + prank, prank).astype(np.int32)
    index = {key: i for i, key in enumerate(arrays["node_keys"])}

    def locate(key: str) -> tuple[int, int]:
        card, board_card, betting = key.split(":")
        node = index[betting]
        c = int(card)
        if board_card == "?":
            return node, c if buckets == "card" else c // 2
        b = int(board_card)
        if buckets == "coarse":
            return node, int(c // 2 == b // 2)
        return node, (c // 2) * ranks + b // 2 if buckets == "rank" else c * deck + b

    return PokerTree(
        game_name=game.name,
        params=dict(game.params),
        num_players=n,
        num_rounds=2,
        num_buckets=num_buckets,
        deal_buckets=deal_buckets,
        deal_rank=deal_rank,
        regret_scale=1000.0,
        locate=locate,
        mccfr_defaults=dict(TOY_GAME_MCCFR_DEFAULTS),
        **arrays,
    )
