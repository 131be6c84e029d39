"""The blueprint as the continuation game of depth-limited hold'em subgames (supplement,
"Depth-limited search"): its betting tree, its four compressed continuation strategies
(the blueprint and the blueprint biased x5 towards folding, calling and raising, written
with the strategy store) and its card abstraction, in memory for the core's rollout
terminals (:mod:`gamesolve.game.rollout`).

A leaf of a subgame is a real betting line; the blueprint agent maps it into the blueprint's
tree (pseudo-harmonic translation, the deterministic one) and that node is where the
rollouts start. Loaded once per blueprint store and process.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numba import njit

from gamesolve.game.rollout import Rollout, make_rollout
from gamesolve.store.zarr_io import open_group
from gamesolve_nlth.board_index import WORK_ROWS, board_setup, index_streets
from gamesolve_nlth.evaluator import CARD_KEY, board_key, board_suit_ranks, evaluate_with_board
from gamesolve_nlth.isomorphism import HandIndexer, index_row


class ContinuationGame:
    """The blueprint's tree, continuation strategies and bucket tables (see the module docstring)."""

    def __init__(self, agent):
        from gamesolve_nlth.abstraction.card_abstraction import build_card_abstraction
        from gamesolve_nlth.blueprint.form import nlth_form
        from gamesolve_nlth.blueprint.presets import blueprint_preset

        store = agent.store
        params = store.attrs["params"]
        preset = blueprint_preset(params["preset"])
        cards = build_card_abstraction(preset.cards)
        self.form = nlth_form(agent.game, preset, card_abstraction=cards)
        if self.form.num_nodes != len(store.node_kind) or not np.array_equal(self.form.child_list, store.child_list):
            raise ValueError(f"{store.path}: the blueprint's tree does not match its preset {preset.name!r}")
        self.infoset_start = np.asarray(store.infoset_start, np.int64)
        group = open_group(store.path, "strategy store")
        packed = [np.asarray(group[f"continuation_{k}"][...], np.uint8) for k in range(len(store.attrs["continuations"]))]
        width = max(len(p) for p in packed)
        self.packed = np.zeros((len(packed), width), np.uint8)
        for k, p in enumerate(packed):
            self.packed[k, : len(p)] = p
        self.bits = int(store.attrs["continuation_bits"])
        self.k = len(packed)
        self.tables = tuple(np.ascontiguousarray(t) for t in cards.tables[1:])
        self.indexers = (
            HandIndexer((2,)).tables[0], HandIndexer((2, 3)).tables[1], HandIndexer((2, 4)).tables[1], HandIndexer((2, 5)).tables[1],
        )  # fmt: skip

    def rollout(self, player_of, entry, choice, ratio, entry_stake) -> Rollout:
        return make_rollout(self.form, self.infoset_start, self.packed, self.bits, player_of, entry, choice, ratio, entry_stake)


_SHARED: dict[tuple[str, int], ContinuationGame] = {}


def continuation_game(agent) -> ContinuationGame:
    """The continuation game of a blueprint agent's store (one per store, seat count and process)."""
    key = (str(Path(agent.store.path).resolve()), agent.game.num_players)
    if key not in _SHARED:
        _SHARED[key] = ContinuationGame(agent)
    return _SHARED[key]


@njit(cache=True)
def blueprint_buckets(private, full, seats, tree_seat, t_pre, t_flop, t_turn, t_river, flop_table, turn_table, river_table,
                      cont, cont_strength):  # fmt: skip
    """For each deal ``i``: the bucket of every seat in the hand in each round
    (``cont[i, tree seat, r]``) and its 7-card rank (``cont_strength[i, tree seat]``), from its
    hole cards (``private[i, seat, 0]``: a hand index into ``holes``) and the whole board ``full[i]``."""
    work = np.zeros((WORK_ROWS, 5), np.int64)
    suit_ranks = np.empty(4, np.int64)
    pre = np.empty((1, 2), np.int64)
    scratch = np.empty(4, np.int64)
    for i in range(private.shape[0]):
        board_setup(full[i], 0, work)  # the board's part of every seat's indices, once a deal
        key5 = board_key(full[i, 0], full[i, 1], full[i, 2], full[i, 3], full[i, 4])
        board_suit_ranks(full[i, 0], full[i, 1], full[i, 2], full[i, 3], full[i, 4], suit_ranks)
        for seat in seats:
            a, b = _hole(private[i, seat, 0])
            pre[0, 0] = a
            pre[0, 1] = b
            t = tree_seat[seat]
            flop, turn, river = index_streets(a, b, work, t_flop, t_turn, t_river)
            cont[i, t, 0] = index_row(pre, 0, t_pre, scratch)
            cont[i, t, 1] = flop_table[flop]
            cont[i, t, 2] = turn_table[turn]
            cont[i, t, 3] = river_table[river]
            cont_strength[i, t] = evaluate_with_board(key5, suit_ranks, CARD_KEY[a] + CARD_KEY[b], a, b)


@njit(cache=True, inline="always")
def _hole(h):
    """The cards of hand index ``h`` (the 1,326 pairs in :func:`itertools.combinations` order)."""
    a = 0
    left = h
    while left >= 51 - a:
        left -= 51 - a
        a += 1
    return a, a + 1 + left
