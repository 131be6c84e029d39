"""The public betting tree an action abstraction induces, built by the rules engine.

Every path of the tree is a legal sequence of engine actions (the kernel plays them on the
engine), with the cards fixed: cards never change what may be bet. Seats are positions:
the button is the last seat, so seat 0 is the small blind, seat 1 the big blind and seat 2
acts first preflop.

:func:`build_betting_tree` stores the arrays of poker's factored form
(:mod:`gamesolve.game.poker_form`); :func:`walk_betting_tree` visits every node without storing
it. Trees too large to walk (the ``pluribus`` preset's) are counted by
:mod:`gamesolve_nlth.betting.tree_count`.
"""

from __future__ import annotations

import attrs
import numpy as np
from numba import njit

from gamesolve.array_loops import copy_into
from gamesolve.game.poker_form import CALL, FOLD, FOLD_END, GOES_ON, RAISE, SHOWDOWN
from gamesolve_nlth import engine as E
from gamesolve_nlth.betting.action_abstraction import ActionAbstraction

MAX_ACTIONS = 32
MAX_DEPTH = 128


@njit(cache=True)
def abstract_actions(s, fractions, counts, all_in, max_raises, limp, kinds, amounts):
    """The abstraction's actions at decision state ``s``: fold (if legal), check/call (not an
    open limp where ``limp[round]`` is false and a raise is offered), then raise-to amounts in
    increasing order, clipped to [min raise, all-in] and merged. Writes ``kinds``/``amounts``
    (amount = the player's bet after the action) and returns how many."""
    can_fold, _, call, lo, hi = E.legal(s)
    p = s[E.H_ACTOR]
    rnd = s[E.H_STREET]
    bet = s[E.BET + p]
    raises = s[E.H_RAISES]
    depth = raises if raises < counts.shape[1] else counts.shape[1] - 1
    can_raise = lo >= 0 and raises < max_raises[rnd] and (counts[rnd, depth] > 0 or all_in[rnd])
    k = 0
    if can_fold:
        kinds[k] = FOLD
        amounts[k] = bet
        k += 1
    if limp[rnd] or raises > 0 or call == 0 or not can_raise:
        kinds[k] = CALL
        amounts[k] = bet + call
        k += 1
    if not can_raise:
        return k
    first = k
    mb = E.max_bet(s)
    base = E.pot(s) + (mb - bet)  # the pot after calling
    for j in range(counts[rnd, depth] + (1 if all_in[rnd] else 0)):
        if j < counts[rnd, depth]:
            to = mb + np.int64(fractions[rnd, depth, j] * base + 0.5)
            if to < lo:
                to = lo
            if to > hi:
                to = hi
        else:
            to = hi
        # Insert in order, skipping duplicates (sizes that clip to the same amount).
        pos = first
        while pos < k and amounts[pos] < to:
            pos += 1
        if pos < k and amounts[pos] == to:
            continue
        if k >= kinds.shape[0]:
            break
        for q in range(k, pos, -1):
            kinds[q] = kinds[q - 1]
            amounts[q] = amounts[q - 1]
        kinds[pos] = RAISE
        amounts[pos] = to
        k += 1
    return k


@njit(cache=True)
def play_action(s, kind, amount):
    """Play one of :func:`abstract_actions`' actions on ``s``: fold, check/call, or raise to ``amount``."""
    if kind == FOLD:
        E.apply_fold(s)
    elif kind == CALL:
        E.apply_call(s)
    else:
        E.apply_raise_to(s, amount)


@njit(cache=True)
def walk_tree(root, fractions, counts, all_in, max_raises, limp, store, capacity,
              parent, node_kind, node_player, node_round, in_kind, in_amount, commit, folded,
              per_round_nodes, per_round_actions):  # fmt: skip
    """Depth-first walk in preorder. With ``store`` the node arrays (up to ``capacity``) are
    filled; always counts decision nodes and their actions per round. Returns the node count
    (or -1 when storing and the tree exceeds ``capacity``)."""
    n_players = root[E.H_N]
    states = np.zeros((MAX_DEPTH, root.shape[0]), np.int64)
    kinds = np.zeros((MAX_DEPTH, MAX_ACTIONS), np.int64)
    amounts = np.zeros((MAX_DEPTH, MAX_ACTIONS), np.int64)
    n_act = np.zeros(MAX_DEPTH, np.int64)
    nxt = np.zeros(MAX_DEPTH, np.int64)
    ids = np.zeros(MAX_DEPTH, np.int64)
    copy_into(states[0], root)
    count = 0
    d = 0
    pending = True  # states[d] is a node to record
    par, ik, ia = -1, -1, 0
    while d >= 0:
        if pending:
            s = states[d]
            node = count
            count += 1
            actor = s[E.H_ACTOR]
            rnd = s[E.H_STREET]
            if store:
                if node >= capacity:
                    return -1
                parent[node] = par
                in_kind[node] = ik
                in_amount[node] = ia
                node_round[node] = rnd if rnd < 4 else 3
                for q in range(n_players):
                    commit[node, q] = s[E.COMMIT + q]
                    folded[node, q] = s[E.ACTIVE + q] == 0
            if actor < 0:
                if store:
                    node_player[node] = -1
                    node_kind[node] = FOLD_END if E.num_active(s) == 1 else SHOWDOWN
                pending = False
                d -= 1
                continue
            if store:
                node_player[node] = actor
                node_kind[node] = GOES_ON
            k = abstract_actions(s, fractions, counts, all_in, max_raises, limp, kinds[d], amounts[d])
            per_round_nodes[rnd] += 1
            per_round_actions[rnd] += k
            n_act[d] = k
            nxt[d] = 0
            ids[d] = node
            pending = False
        if nxt[d] >= n_act[d]:
            d -= 1
            continue
        j = nxt[d]
        nxt[d] += 1
        copy_into(states[d + 1], states[d])
        play_action(states[d + 1], kinds[d, j], amounts[d, j])
        par, ik, ia = ids[d], kinds[d, j], amounts[d, j]
        d += 1
        pending = True
    return count


def new_root(players: int, stack: int, small_blind: int, big_blind: int) -> np.ndarray:
    cards = np.arange(2 * players + 5, dtype=np.int64)  # any fixed cards: betting ignores them
    stacks = np.full(players, stack, dtype=np.int64)
    return E.new_hand(stacks, small_blind, big_blind, players - 1, cards, len(cards))


@attrs.frozen
class TreeSize:
    nodes: int
    decision_nodes: tuple[int, ...]  # per round
    actions: tuple[int, ...]  # infoset-actions per round per bucket (sum of actions at decision nodes)

    @property
    def action_sequences(self) -> int:
        """Sequences of actions that end in a player's action: the tree's edges, one per node
        but the root (the count the Pluribus supplement gives for its blueprint abstraction)."""
        return sum(self.actions)

    def infosets(self, buckets: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(n * b for n, b in zip(self.decision_nodes, buckets))

    def infoset_actions(self, buckets: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(a * b for a, b in zip(self.actions, buckets))


def _walk(abstraction, players, stack, small_blind, big_blind, store, capacity):
    fractions, counts, all_in, max_raises, limp = abstraction.as_arrays()
    root = new_root(players, stack, small_blind, big_blind)
    cap = capacity if store else 0
    arrays = {
        "parent": np.zeros(cap, np.int64),
        "node_kind": np.zeros(cap, np.int8),
        "node_player": np.zeros(cap, np.int32),
        "node_round": np.zeros(cap, np.int32),
        "in_kind": np.zeros(cap, np.int8),
        "in_amount": np.zeros(cap, np.int64),
        "commit": np.zeros((cap, players), np.float64),
        "folded": np.zeros((cap, players), np.bool_),
    }
    per_round_nodes = np.zeros(5, np.int64)
    per_round_actions = np.zeros(5, np.int64)
    count = walk_tree(
        root, fractions, counts, all_in, max_raises, limp, store, cap,
        arrays["parent"], arrays["node_kind"], arrays["node_player"], arrays["node_round"],
        arrays["in_kind"], arrays["in_amount"], arrays["commit"], arrays["folded"],
        per_round_nodes, per_round_actions,
    )  # fmt: skip
    size = TreeSize(int(count), tuple(int(x) for x in per_round_nodes[:4]), tuple(int(x) for x in per_round_actions[:4]))
    return size, arrays


def walk_betting_tree(abstraction: ActionAbstraction, players=6, stack=10_000, small_blind=50, big_blind=100) -> TreeSize:
    """Nodes, decision nodes and actions per round by visiting every node (without storing
    them): the reference for :func:`gamesolve_nlth.betting.tree_count.count_betting_tree`,
    which counts large trees."""
    return _walk(abstraction, players, stack, small_blind, big_blind, False, 0)[0]


FIRST_CAPACITY = 1 << 22
"""Nodes :func:`build_betting_tree` makes room for first (the small preset's six-player tree, 9.6 million, grows it once)."""


def build_betting_tree(abstraction: ActionAbstraction, players=6, stack=10_000, small_blind=50, big_blind=100,
                       max_nodes: int = 50_000_000) -> dict:  # fmt: skip
    """The tree's arrays: poker node kinds (``GOES_ON``, ``FOLD_END``, ``SHOWDOWN``), chips
    put in and folds per node, action kind and amount per edge (see :func:`gamesolve_nlth.blueprint.form.nlth_form`)."""
    # One walk that stores, into arrays of a guessed capacity (np.zeros maps pages only where
    # written), walked again four times larger if the tree does not fit; not a counting walk
    # first (a second or two of a hold'em process's start on a tree of millions of nodes).
    capacity = min(FIRST_CAPACITY, max_nodes)
    while True:
        size, a = _walk(abstraction, players, stack, small_blind, big_blind, True, capacity)
        if size.nodes >= 0:
            break
        if capacity >= max_nodes:
            size = walk_betting_tree(abstraction, players, stack, small_blind, big_blind)
            raise ValueError(f"the {abstraction.name} betting tree has {size.nodes:,} nodes (limit {max_nodes:,})")
        capacity = min(4 * capacity, max_nodes)
    n = size.nodes
    a = {name: array[:n] for name, array in a.items()}  # views: the pages past n were never written
    parent = a["parent"]
    # Children were numbered in action order, so a stable sort by parent gives the CSR lists.
    child_list = np.argsort(parent[1:], kind="stable").astype(np.int32) + 1
    child_start = np.zeros(n + 1, dtype=np.int32)
    np.cumsum(np.bincount(parent[1:], minlength=n), out=child_start[1:])
    return {
        "node_kind": a["node_kind"],
        "node_player": a["node_player"],
        "node_round": a["node_round"],
        "child_start": child_start,
        "child_list": child_list,
        "action_kind": a["in_kind"][child_list],
        "action_amount": a["in_amount"][child_list],
        "commit": a["commit"],
        "folded": a["folded"],
        "size": size,
    }
