"""Kuhn poker compiled to the poker-tree form: its public betting tree and every deal."""

from __future__ import annotations

import itertools

import numpy as np

from gamesolve.game.poker_tree import TOY_GAME_MCCFR_DEFAULTS, CALL, DECISION, FOLD, FOLD_END, RAISE, SHOWDOWN, PokerTree, PublicNodeInfo, build_public_tree
from gamesolve_kuhn.game import BET, KuhnGame, KuhnState


def _commit_and_folded(state: KuhnState) -> tuple[list[float], list[bool]]:
    n = state.n
    commit = [1.0] * n
    folded = [False] * n
    first = state._first_bet()
    if first >= 0:
        for i in range(first, len(state.history)):
            player = i % n
            if state.history[i] == BET:
                commit[player] += 1.0
            else:
                folded[player] = True
    return commit, folded


def describe(state: KuhnState) -> PublicNodeInfo:
    commit, folded = _commit_and_folded(state)
    if state.is_terminal():
        kind = FOLD_END if folded.count(False) == 1 else SHOWDOWN
        player = -1
    else:
        kind, player = DECISION, state.current_player()
    return PublicNodeInfo(
        key=state.public_state_key(), kind=kind, player=player, round=0,
        commit=tuple(commit), folded=tuple(folded),
    )  # fmt: skip


def classify(state: KuhnState, action: int) -> tuple[int, int]:
    facing_bet = state._first_bet() >= 0
    if action == BET:
        return (CALL, 2) if facing_bet else (RAISE, 2)
    return (FOLD, 0) if facing_bet else (CALL, 1)


def kuhn_poker_tree(game: KuhnGame) -> PokerTree:
    n = game.num_players
    arrays = build_public_tree(game.new_initial_state(), lambda s: s.chance_outcomes()[0][0], describe, classify, n)
    deals = np.array(list(itertools.permutations(range(n + 1), n)), dtype=np.int32)
    index = {key: i for i, key in enumerate(arrays["node_keys"])}

    def locate(key: str) -> tuple[int, int]:
        card, history = key[0], key[1:]
        return index[history or "-"], int(card)

    return PokerTree(
        game_name=game.name,
        params=dict(game.params),
        num_players=n,
        num_rounds=1,
        num_buckets=np.array([n + 1], dtype=np.int32),
        deal_buckets=deals[:, :, None].copy(),
        deal_rank=deals.copy(),
        regret_scale=1000.0,
        locate=locate,
        mccfr_defaults=dict(TOY_GAME_MCCFR_DEFAULTS),
        **arrays,
    )
