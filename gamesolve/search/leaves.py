"""Leaf values of depth-limited subgames: k continuation strategies per player.

Supplement, "Leaf node values in imperfect-information subgames": at a leaf every player
still in play chooses, once per information set and without seeing the others' choice, one
of k continuation strategies for the rest of the game; Pluribus uses k = 4: the blueprint,
and the blueprint with the probability of folding, of calling, or of every raise multiplied
by 5 and renormalised. Other games bias their own action classes (``State.action_class``).

Everything here works on the game's lossless factored form: :class:`ContinuationStrategies`
holds every strategy's probabilities for every (node, private state), and a leaf's value is
an array ``[joint choice, deal, player]`` over the listed deals (the deal fixes every chance
outcome below the leaf). :class:`ExactLeafValues` computes it by a backward pass over the
rest of the game; :class:`SampledLeafValues` estimates it from seeded rollouts (Pluribus
samples rollouts with its compressed continuation strategies). Values depend only on the
leaf and the blueprint, so each leaf is computed once.
"""

from __future__ import annotations

import itertools
from typing import Protocol

import numpy as np
from numba import njit

from gamesolve.game.continuation import continuation_names, packed_action
from gamesolve.game.factored import CHANCE, DECISION, TERMINAL, FactoredGame, chance_paths, subtree_ends
from gamesolve.game.terminals import terminal_value
from gamesolve.rng import categorical, splitmix, stream
from gamesolve.solve.kernels.mccfr import DealArrays, chance_child
from gamesolve.search.policy import Policy, policy_rows


class ContinuationStrategies:
    """The blueprint and its biased variants at every (node, private state) of ``form``.

    :ivar rows: ``float[k, total]``: strategy ``i``'s probabilities, one row of ``n_actions``
        per (owner node, private state) at ``row_offset[owner] + state * n_actions``.
    """

    def __init__(self, form: FactoredGame, blueprint: Policy, k: int, factor: float = 5.0):
        names = continuation_names(form.class_names)
        if not 1 <= k <= len(names):
            raise ValueError(f"k must be between 1 and {len(names)} for {form.game_name} (strategies: {', '.join(names)})")
        self.form = form
        self.names = names[:k]
        self.k = k
        self.factor = factor
        n_states = int(form.num_private.max())
        owners = (form.node_kind == DECISION) & (form.row_owner == np.arange(form.num_nodes))
        self.row_offset, base = policy_rows(form, blueprint)
        self.rows = np.empty((k, len(base)))
        self.rows[0] = base
        for i in range(1, k):
            self.rows[i] = self._biased(base, i - 1, owners, n_states)

    def _biased(self, base: np.ndarray, cls: int, owners: np.ndarray, n_states: int) -> np.ndarray:
        form = self.form
        out = base.copy()
        for node in np.flatnonzero(owners):
            c0, n_act = form.child_start[node], form.num_actions_at(node)
            boost = np.where(form.edge_class[c0 : c0 + n_act] == cls, self.factor, 1.0)
            for s in range(n_states):
                row = slice(self.row_offset[node] + s * n_act, self.row_offset[node] + (s + 1) * n_act)
                p = base[row] * boost
                total = p.sum()
                out[row] = p / total if total > 0 else base[row]
        return out

    def probs(self, node: int, private: int) -> np.ndarray:
        """``(k, actions)``: each continuation strategy's probabilities at (node, private state)."""
        n_act = self.form.num_actions_at(node)
        row = self.row_offset[self.form.row_owner[node]] + private * n_act
        return self.rows[:, row : row + n_act]


class LeafEvaluator(Protocol):
    k: int

    def values(self, leaf: int, choosers: list[int]) -> np.ndarray:
        """``float[k ** len(choosers), deals, players]``: the leaf's value on every listed deal
        for every joint choice of the choosers (lexicographic, the first chooser slowest)."""


def joint_choices(k: int, choosers: list[int], num_players: int) -> np.ndarray:
    """``int[k ** m, players]``: every joint choice, non-choosers at 0."""
    combos = np.zeros((k ** len(choosers), num_players), dtype=np.int64)
    for i, joint in enumerate(itertools.product(range(k), repeat=len(choosers))):
        combos[i, choosers] = joint
    return combos


@njit(cache=True)
def _reached(lo, hi, tree, ends, deals, d, order, pick, stack):
    """The nodes of the subtree ``lo..hi-1`` that deal ``d`` reaches, in preorder, into
    ``order`` (their count returned); at a public chance node ``i``, ``pick[i - lo]`` is the
    child the deal takes. Only that child's subtree is walked: the others' values would be
    computed and never read (a Leduc board card: one child of up to six)."""
    n = 0
    top = 0  # stack[t] = (end of the chosen child's subtree, end of its chance node's subtree)
    node = lo
    while node < hi:
        while top > 0 and node == stack[top - 1, 0]:
            node = stack[top - 1, 1]
            top -= 1
        if node >= hi:
            break
        order[n] = node
        n += 1
        if tree.kind[node] == CHANCE:
            child = chance_child(tree, deals, node, d)
            pick[node - lo] = child
            stack[top, 0] = ends[child]
            stack[top, 1] = ends[node]
            top += 1
            node = child
        else:
            node += 1
    return n


@njit(cache=True)
def _exact(lo, hi, tree, ends, term, deals, rows, row_offset, combos, out, v):
    """Values at node ``lo`` for every consistent deal and joint choice: a backward pass over
    the nodes of the subtree ``lo..hi-1`` that the deal reaches (:func:`_reached`)."""
    n_players = out.shape[2]
    order = np.empty(hi - lo, np.int64)
    pick = np.empty(hi - lo, np.int64)
    stack = np.empty((hi - lo, 2), np.int64)
    for d in range(deals.private.shape[0]):
        if deals.index[d] < 0:  # a deal inconsistent with the leaf's public chance
            continue
        n = _reached(lo, hi, tree, ends, deals, d, order, pick, stack)
        for c in range(combos.shape[0]):
            for k in range(n - 1, -1, -1):
                node = order[k]
                i = node - lo
                kind = tree.kind[node]
                if kind == TERMINAL:
                    for p in range(n_players):
                        v[i, p] = terminal_value(term, node, p, deals.strength, deals.index, d)
                    continue
                if kind == CHANCE:
                    j = pick[i] - lo
                    for p in range(n_players):
                        v[i, p] = v[j, p]
                    continue
                c0 = tree.child_start[node]
                n_act = tree.child_start[node + 1] - c0
                actor = tree.player[node]
                row = row_offset[tree.row_owner[node]] + deals.private[d, actor, tree.round[node]] * n_act
                for p in range(n_players):
                    v[i, p] = 0.0
                for a in range(n_act):
                    w = rows[combos[c, actor], row + a]
                    if w != 0.0:
                        j = tree.child_list[c0 + a] - lo
                        for p in range(n_players):
                            v[i, p] += w * v[j, p]
            for p in range(n_players):
                out[c, d, p] = v[0, p]


@njit(cache=True)
def _sampled(lo, tree, term, deals, rows, row_offset, combos, rollouts, seed, out):
    """Rollout estimates: from ``lo`` play every continuation strategy's sampled actions,
    chance following the deal; rollout ``r`` of deal ``d`` reads the same random stream for
    every joint choice (common random numbers: the choices' differences carry less noise)."""
    n_players = out.shape[2]
    for d in range(deals.private.shape[0]):
        if deals.index[d] < 0:
            continue
        for c in range(combos.shape[0]):
            for r in range(rollouts):
                state = stream(seed, (np.uint64(lo) << np.uint64(32)) + np.uint64(d) * np.uint64(rollouts) + np.uint64(r))
                node = lo
                while True:
                    kind = tree.kind[node]
                    if kind == TERMINAL:
                        for p in range(n_players):
                            out[c, d, p] += terminal_value(term, node, p, deals.strength, deals.index, d) / rollouts
                        break
                    if kind == CHANCE:
                        node = chance_child(tree, deals, node, d)
                        continue
                    c0 = tree.child_start[node]
                    n_act = tree.child_start[node + 1] - c0
                    actor = tree.player[node]
                    row = row_offset[tree.row_owner[node]] + deals.private[d, actor, tree.round[node]] * n_act
                    state, u = splitmix(state)
                    node = tree.child_list[c0 + categorical(u, rows[combos[c, actor]], row, n_act)]


class _CachedLeaves:
    """:meth:`LeafEvaluator.values` computed once per leaf and joint choosers
    (``_compute(leaf, combos, out)``), the most recent ``KEPT`` kept (None: all)."""

    KEPT: int | None = None

    def __init__(self, form: FactoredGame, k: int):
        self.form = form
        self.k = k
        self._tree = form.tree_arrays()
        self._terminals = form.terminal_arrays()  # TABLE payoffs deal-major, as terminal_value reads them
        self._cache: dict[tuple[int, tuple[int, ...]], np.ndarray] = {}
        self.leaves_evaluated = 0

    def values(self, leaf: int, choosers: list[int]) -> np.ndarray:
        key = (int(leaf), tuple(choosers))
        out = self._cache.get(key)
        if out is None:
            self.leaves_evaluated += 1
            combos = joint_choices(self.k, choosers, self.form.num_players)
            out = np.zeros((len(combos), self.form.deals.listed.count, self.form.num_players))
            self._compute(int(leaf), combos, out)
            while self.KEPT is not None and len(self._cache) >= self.KEPT:
                del self._cache[next(iter(self._cache))]
            self._cache[key] = out
        return out


class _LeafValues(_CachedLeaves):
    """Shared by the exact and sampled evaluators: the continuation strategies' rows."""

    def __init__(self, continuations: ContinuationStrategies):
        super().__init__(continuations.form, continuations.k)
        self.continuations = continuations
        self._ends = subtree_ends(self.form)
        self._paths = chance_paths(self.form)

    def _deals(self, leaf: int) -> DealArrays:
        """The listed deals, those inconsistent with the leaf's public chance marked -1."""
        listed = self.form.deals.listed
        path_of, start, members = self._paths
        path = path_of[leaf]
        index = np.full(listed.count, -1, dtype=np.int64)
        consistent = members[start[path] : start[path + 1]]
        index[consistent] = consistent
        return DealArrays(listed.private, listed.public, listed.strength, index, np.zeros((0, 0, 0), np.int32), np.zeros((0, 0), np.int32))


class ExactLeafValues(_LeafValues):
    """Exact leaf values: the rest of the game, walked with every player's continuations."""

    def _compute(self, leaf, combos, out):
        deals = self._deals(leaf)
        hi = int(self._ends[leaf])
        scratch = np.zeros((hi - leaf, self.form.num_players))
        c = self.continuations
        _exact(leaf, hi, self._tree, self._ends, self._terminals, deals, c.rows, c.row_offset, combos, out, scratch)


class SampledLeafValues(_LeafValues):
    """Leaf values estimated by ``rollouts`` rollouts per deal and joint choice (seeded: the
    same seed and leaf give the same values in any order of evaluation)."""

    def __init__(self, continuations: ContinuationStrategies, rollouts: int = 100, seed: int = 0):
        if rollouts < 1:
            raise ValueError(f"rollouts must be at least 1, got {rollouts}")
        super().__init__(continuations)
        self.rollouts = rollouts
        self.seed = seed

    def _compute(self, leaf, combos, out):
        c = self.continuations
        _sampled(leaf, self._tree, self._terminals, self._deals(leaf), c.rows, c.row_offset, combos, self.rollouts, np.uint64(self.seed), out)


@njit(cache=True)
def _stored(lo, tree, term, deals, infoset_start, packed, bits, combos, out):
    """One rollout per deal and joint choice from ``lo``: each player follows its chosen
    stored continuation strategy (one action per information set, so the rollout is the
    value of those strategies on the deal, not an estimate of it)."""
    n_players = out.shape[2]
    for d in range(deals.private.shape[0]):
        for c in range(combos.shape[0]):
            node = lo
            while tree.kind[node] != TERMINAL:
                actor = tree.player[node]
                start = infoset_start[tree.row_owner[node]]
                a = 0  # a row training never reached: its first action, as the store reads it
                if start >= 0:
                    a = packed_action(packed, combos[c, actor], bits, start + deals.private[d, actor, tree.round[node]])
                node = tree.child_list[tree.child_start[node] + a]
            for p in range(n_players):
                out[c, d, p] = terminal_value(term, node, p, deals.strength, deals.index, d)


class StoredLeafValues(_CachedLeaves):
    """Leaf values of a blueprint in a strategy store, on the form it was trained on, for
    forms too large to hold every continuation strategy's probabilities
    (:class:`ContinuationStrategies`: Liar's Dice 2x6 has 700 million rows): the store's
    continuation strategies are one sampled action per information set (Pluribus' compressed
    continuations), so one rollout per deal and joint choice is the leaf's exact value under
    them. Forms without public chance only (every listed deal reaches every leaf)."""

    def __init__(self, form: FactoredGame, store, k: int = 4):
        names = list(store.attrs["continuations"])
        if not 1 <= k <= len(names):
            raise ValueError(f"k must be between 1 and {len(names)} for {form.game_name} (strategies: {', '.join(names)})")
        if (form.node_kind == CHANCE).any():
            raise ValueError(f"{form.game_name}: stored continuation leaves need a form without public chance")
        super().__init__(form, k)
        self.names = names[:k]
        self._bits = int(store.attrs["continuation_bits"])
        groups = [store.continuation_array(i) for i in range(k)]
        self._packed = np.zeros((k, max(len(g) for g in groups)), dtype=np.uint8)
        for i, g in enumerate(groups):
            self._packed[i, : len(g)] = g
        self._infoset_start = np.asarray(store.infoset_start, dtype=np.int64)
        listed = form.deals.listed
        self._deals = DealArrays(listed.private, listed.public, listed.strength, np.arange(listed.count, dtype=np.int64),
                                 np.zeros((0, 0, 0), np.int32), np.zeros((0, 0), np.int32))  # fmt: skip

    KEPT = 4096
    """Leaves whose values are kept (Liar's Dice 2x6, k = 4: 110 kB each)."""

    def _compute(self, leaf, combos, out):
        _stored(leaf, self._tree, self._terminals, self._deals, self._infoset_start, self._packed, self._bits, combos, out)
