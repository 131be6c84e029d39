"""Kuhn poker in the core's factored form: its public betting tree and every deal."""

from __future__ import annotations

import itertools

import numpy as np

from gamesolve.game.deals import ListedDeals
from gamesolve.game.factored import SMALL_GAME_MCCFR_DEFAULTS, FactoredGame
from gamesolve.game.poker_form import (
    CALL, FOLD, FOLD_END, GOES_ON, POKER_CLASSES, RAISE, SHOWDOWN, PublicNodeInfo,
    build_poker_form,
)  # fmt: skip
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
        kind, player = GOES_ON, state.current_player()
    return PublicNodeInfo(
        key=state.public_state_key(), kind=kind, player=player, round=0,
        commit=tuple(commit), folded=tuple(folded),
    )  # fmt: skip


def classify(state: KuhnState, action: int) -> tuple[int, int]:
    facing_bet = state._first_bet() >= 0
    if action == BET:
        return (CALL, 2) if facing_bet else (RAISE, 2)
    return (FOLD, 0) if facing_bet else (CALL, 1)


def kuhn_form(game: KuhnGame) -> FactoredGame:
    """Private state = the card; strength = the card; every deal listed."""
    n = game.num_players
    arrays = build_poker_form(game.new_initial_state(), lambda s: s.chance_outcomes()[0][0], describe, classify, n)
    arrays.pop("node_outcomes")
    cards = np.array(list(itertools.permutations(range(n + 1), n)), dtype=np.int32)
    deals = ListedDeals(
        private=cards[:, :, None].copy(),
        public=np.zeros((len(cards), 0), dtype=np.int32),
        prob=np.full(len(cards), 1.0 / len(cards)),
        strength=cards.copy(),
    )
    index = {key: i for i, key in enumerate(arrays["node_keys"])}

    def locate(key: str) -> tuple[int, int]:
        card, history = key[0], key[1:]
        return index[history or "-"], int(card)

    return FactoredGame(
        game_name=game.name,
        params=dict(game.params),
        num_players=n,
        num_rounds=1,
        num_private=np.array([n + 1], dtype=np.int32),
        deals=deals,
        class_names=POKER_CLASSES,
        regret_scale=1000.0,
        locate=locate,
        mccfr_defaults=dict(SMALL_GAME_MCCFR_DEFAULTS),
        describe="lossless: the card",
        lossless=True,
        **arrays,
    )
