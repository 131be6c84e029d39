"""The exact size of a betting tree, counted without walking every node.

Many betting histories lead to the same betting state: every preflop line that ends with the
same number of players in for the same amounts, the same dead money and the same acting
order starts the same flop subtree, whichever seats folded. The subtree below a state, and so
its size, depends on that state alone, so the count opens each distinct state once and adds
the stored size of a state met again (a memoised count, iterative as numba kernels must be).
The ``pluribus`` preset's 650-million-sequence tree counts in about 15 s of one core.

A state's key (:func:`state_key`) packs what the subtree depends on: the street, the raise
count, the last full raise and pending short all-ins, the dead money of folded players and the
largest folded bet of the street (it bounds what goes back uncalled), and, for the players
still in, in position order, the chips bet on the street and in the hand and the acted /
still-to-act flags, with the actor's place among them. Stacks follow from the chips put in
(the tree is for equal stacks); the cards, fixed, never change the betting. Subtrees of fewer
than :data:`MIN_STORE` nodes are counted again rather than stored (most states are near the
leaves; this keeps the table small at little cost in time). The count is checked against the
full walk of the ``tiny`` and ``small`` presets (tests/nlth/test_betting.py).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gamesolve.array_loops import add_into, copy_into
from gamesolve.game.poker_form import CALL
from gamesolve_nlth import engine as E
from gamesolve_nlth.betting.action_abstraction import ActionAbstraction
from gamesolve_nlth.betting.betting_tree import MAX_ACTIONS, MAX_DEPTH, TreeSize, abstract_actions, new_root, play_action

#: sizes kept per state: nodes, decision nodes per round (4), actions at decision nodes per round (4)
VALUES = 9
AMOUNT_BITS = 28  # chips per seat in a key: stacks below 2**28
MIN_STORE = 16  # subtrees smaller than this are walked again instead of stored
MAX_SLOTS = 1 << 23  # the table stops growing here (1.3 GB for six players); counting goes on
FRONTIER = 256  # subtrees counted one kernel call each (the progress bar's steps)
_EMPTY = np.int64(-1)


@njit(cache=True)
def state_key(s, out):
    """Pack the betting state ``s`` into ``out`` (3 + players words); seats that folded
    count only as dead money, the others are listed in position order."""
    n = s[E.H_N]
    dead = 0
    dead_bet = 0
    k = 0
    actor = 0
    for pos in range(n):
        seat = E.seat_of_pos(s, pos)
        if s[E.ACTIVE + seat] == 0:
            dead += s[E.COMMIT + seat]
            if s[E.BET + seat] > dead_bet:
                dead_bet = s[E.BET + seat]
            continue
        if seat == s[E.H_ACTOR]:
            actor = k
        flags = 1 | (s[E.ACTED + seat] << 1) | (s[E.PENDING + seat] << 2)
        out[3 + k] = s[E.BET + seat] | (s[E.COMMIT + seat] << AMOUNT_BITS) | (flags << (2 * AMOUNT_BITS))
        k += 1
    for j in range(k, n):
        out[3 + j] = 0
    out[0] = s[E.H_STREET] | (s[E.H_RAISES] << 3) | (s[E.H_ALLIN] << 19) | (actor << 20) | (s[E.H_STAGE] << 24)
    out[1] = s[E.H_CBR] | (s[E.H_SHORT] << 31)
    out[2] = dead | (dead_bet << 32)


@njit(cache=True)
def _hash(key):
    """splitmix64's finaliser folded over the key's words."""
    h = np.uint64(0)
    for w in key:
        h = (h ^ np.uint64(w)) + np.uint64(0x9E3779B97F4A7C15)
        h = (h ^ (h >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        h = (h ^ (h >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        h = h ^ (h >> np.uint64(31))
    return h


@njit(cache=True)
def _find(keys, key):
    """The slot holding ``key``, or the free slot where it goes (open addressing)."""
    mask = keys.shape[0] - 1
    slot = np.int64(_hash(key) & np.uint64(mask))
    while True:
        if keys[slot, 0] == _EMPTY:
            return slot
        same = True
        for w in range(key.shape[0]):
            if keys[slot, w] != key[w]:
                same = False
                break
        if same:
            return slot
        slot = (slot + 1) & mask


@njit(cache=True)
def _grow(keys, vals):
    new_keys = np.full((2 * keys.shape[0], keys.shape[1]), _EMPTY, np.int64)
    new_vals = np.zeros((2 * keys.shape[0], VALUES), np.int64)
    for i in range(keys.shape[0]):
        if keys[i, 0] != _EMPTY:
            slot = _find(new_keys, keys[i])
            copy_into(new_keys[slot], keys[i])
            copy_into(new_vals[slot], vals[i])
    return new_keys, new_vals


@njit(cache=True)
def _call_ends_hand(s):
    """A check or call on the river that leaves nobody else to act ends at a showdown."""
    if s[E.H_STREET] != 3:
        return False
    p = s[E.H_ACTOR]
    for i in range(s[E.H_N]):
        if i != p and s[E.PENDING + i]:
            return False
    return True


@njit(cache=True)
def count_memoised(root, fractions, counts, all_in, max_raises, limp, keys, vals, filled, min_store, max_slots, limit):
    """The sizes (:data:`VALUES`) of the tree below ``root``, memoised in the open-addressing
    table ``keys``/``vals`` (``keys[:, 0] == -1``: a free slot; a power-of-two capacity;
    ``filled[0]`` entries), which is reused across calls and grows up to ``max_slots``.
    Returns ``(sizes, keys, vals, stopped)``: ``stopped`` when more than ``limit`` nodes
    were counted (``sizes`` then holds a part of the tree)."""
    states = np.zeros((MAX_DEPTH, root.shape[0]), np.int64)
    kinds = np.zeros((MAX_DEPTH, MAX_ACTIONS), np.int64)
    amounts = np.zeros((MAX_DEPTH, MAX_ACTIONS), np.int64)
    n_act = np.zeros(MAX_DEPTH, np.int64)
    nxt = np.zeros(MAX_DEPTH, np.int64)
    acc = np.zeros((MAX_DEPTH + 1, VALUES), np.int64)  # acc[d + 1]: the open subtree at depth d
    open_keys = np.zeros((MAX_DEPTH, keys.shape[1]), np.int64)
    copy_into(states[0], root)
    d = 0
    pending = True  # states[d] is a node to count
    steps = 0
    while d >= 0:
        steps += 1
        if steps & 0xFFFF == 0 and acc[: d + 2, 0].sum() > limit:
            for i in range(d + 1, 0, -1):
                add_into(acc[i - 1], acc[i])
            return acc[0], keys, vals, True
        if pending:
            pending = False
            s = states[d]
            if s[E.H_ACTOR] < 0:
                acc[d, 0] += 1  # a terminal
                d -= 1
                continue
            state_key(s, open_keys[d])
            slot = _find(keys, open_keys[d])
            if keys[slot, 0] != _EMPTY:
                add_into(acc[d], vals[slot])  # met before
                d -= 1
                continue
            rnd = s[E.H_STREET]
            k = abstract_actions(s, fractions, counts, all_in, max_raises, limp, kinds[d], amounts[d])
            acc[d + 1, :] = 0
            acc[d + 1, 0] = 1
            acc[d + 1, 1 + rnd] = 1
            acc[d + 1, 5 + rnd] = k
            n_act[d] = k
            nxt[d] = 0
        if nxt[d] >= n_act[d]:
            if acc[d + 1, 0] >= min_store:
                if 2 * (filled[0] + 1) > keys.shape[0] and 2 * keys.shape[0] <= max_slots:
                    keys, vals = _grow(keys, vals)
                if 2 * (filled[0] + 1) <= keys.shape[0]:
                    slot = _find(keys, open_keys[d])
                    copy_into(keys[slot], open_keys[d])
                    copy_into(vals[slot], acc[d + 1])
                    filled[0] += 1
            add_into(acc[d], acc[d + 1])
            d -= 1
            continue
        j = nxt[d]
        nxt[d] += 1
        if kinds[d, j] == CALL and _call_ends_hand(states[d]):
            acc[d + 1, 0] += 1  # a showdown, counted without playing it out
            continue
        copy_into(states[d + 1], states[d])
        play_action(states[d + 1], kinds[d, j], amounts[d, j])
        d += 1
        pending = True
    return acc[0], keys, vals, acc[0, 0] > limit


def _top_of_tree(root: np.ndarray, arrays, want: int) -> tuple[np.ndarray, list[np.ndarray]]:
    """Open the tree level by level until at least ``want`` states wait below: the sizes of
    the levels opened and the waiting states."""
    sizes = np.zeros(VALUES, np.int64)
    kinds = np.zeros(MAX_ACTIONS, np.int64)
    amounts = np.zeros(MAX_ACTIONS, np.int64)
    level = [root]
    while level and len(level) < want:
        below = []
        for s in level:
            if s[E.H_ACTOR] < 0:
                sizes[0] += 1
                continue
            k = abstract_actions(s, *arrays, kinds, amounts)
            rnd = s[E.H_STREET]
            sizes[0] += 1
            sizes[1 + rnd] += 1
            sizes[5 + rnd] += k
            for j in range(k):
                child = s.copy()
                play_action(child, kinds[j], amounts[j])
                below.append(child)
        level = below
    return sizes, level


class TreeTooLarge(ValueError):
    """The count passed its limit; ``nodes`` were counted (a lower bound of the tree's size)."""

    def __init__(self, nodes: int):
        super().__init__(f"the betting tree has more than {nodes:,} nodes")
        self.nodes = nodes


def count_betting_tree(abstraction: ActionAbstraction, players: int = 6, stack: int = 10_000, small_blind: int = 50,
                       big_blind: int = 100, progress=None, limit: int | None = None) -> TreeSize:  # fmt: skip
    """Nodes, and decision nodes and their actions per round, of ``abstraction``'s betting
    tree with equal stacks, exactly (:func:`count_memoised`); the work (seconds to a minute
    for ``pluribus``) is shown on ``progress`` (a :class:`gamesolve.solve.spec.Progress`).
    Raises :class:`TreeTooLarge` once more than ``limit`` nodes are counted."""
    if stack >= 2**AMOUNT_BITS:
        raise ValueError(f"stacks of {stack:,} chips are too deep to count (at most {2**AMOUNT_BITS - 1:,})")
    limit = np.iinfo(np.int64).max if limit is None else int(limit)
    arrays = abstraction.as_arrays()
    sizes, waiting = _top_of_tree(new_root(players, stack, small_blind, big_blind), arrays, FRONTIER)
    slots = min(1 << 16, MAX_SLOTS)
    keys = np.full((slots, 3 + players), _EMPTY, np.int64)
    vals = np.zeros((slots, VALUES), np.int64)
    filled = np.zeros(1, np.int64)
    if progress is not None:
        progress.start(len(waiting), "subtrees", f"counting the {abstraction.name} betting tree")
    for s in waiting:
        below, keys, vals, stopped = count_memoised(s, *arrays, keys, vals, filled, MIN_STORE, MAX_SLOTS, limit - sizes[0])
        sizes += below
        if stopped or sizes[0] > limit:
            raise TreeTooLarge(int(sizes[0]))
        if progress is not None:
            progress.advance(1)
    return TreeSize(int(sizes[0]), tuple(int(x) for x in sizes[1:5]), tuple(int(x) for x in sizes[5:9]))
