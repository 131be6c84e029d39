"""Linear Monte Carlo CFR (external sampling) over an :class:`~gamesolve.game.explicit_tree.ExplicitTree`.

The subgame solver Pluribus uses when a subgame is too large for full-width CFR
(supplement, "Further details of the real-time search algorithm": "Monte Carlo Linear CFR
is used just as it was for the blueprint"). Any game the explicit compiler accepts runs
here, including search subgames with their root chance node over weighted histories and
their frozen information sets (chance nodes), which the blueprint kernel's poker-tree form
cannot express.

External sampling (Lanctot et al. 2009): per iteration and per traverser, chance and the
other players' actions are sampled, the traverser's are all explored. Linear CFR's
weighting (Brown & Sandholm 2019) weighs iteration ``t``'s regret and average-strategy
contributions by ``t``, which is the same as discounting both by ``t / (t + 1)`` after each
iteration. The average strategy is accumulated at the sampled non-traverser nodes (the
"simple" averaging of open-spiel's external sampling, unbiased for the average).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gamesolve.game.explicit_tree import CHANCE_NODE, DECISION, ExplicitTree
from gamesolve.solve.tabular_kernels import normalise, regret_matching


@njit(cache=True)
def _pick(weights, first, last, u):
    """Index in ``first..last-1`` drawn from the unnormalised ``weights`` with uniform ``u``."""
    total = 0.0
    for i in range(first, last):
        total += weights[i]
    x = u * total
    acc = 0.0
    for i in range(first, last):
        acc += weights[i]
        if x < acc:
            return i
    for i in range(last - 1, first - 1, -1):  # rounding: the last positive weight
        if weights[i] > 0.0:
            return i
    return last - 1


@njit(cache=True)
def _traverse(traverser, weight, node_kind, node_player, child_start, child_list, node_infoset, utility,
              edge_prob, slot_start, regrets, avg, sigma, stack, order, chosen, value):
    """One external-sampling traversal for ``traverser`` (Lanctot et al. 2009, Alg. 1):
    regrets updated at the traverser's infosets, the average at the others'.

    Iterative (numba cannot cache recursive functions): a depth-first pass lists the
    visited nodes, sampling one child at chance and opponent nodes and computing every
    visited infoset's regret-matching strategy into ``sigma``; a pass over the list in
    reverse computes values children-first and updates regrets.
    """
    stack[0] = 0
    top = 1
    count = 0
    while top > 0:
        top -= 1
        node = stack[top]
        order[count] = node
        count += 1
        kind = node_kind[node]
        c0 = child_start[node]
        c1 = child_start[node + 1]
        if kind == CHANCE_NODE:
            total = 0.0
            for c in range(c0, c1):
                total += edge_prob[child_list[c]]
            x = np.random.random() * total
            acc = 0.0
            j = c1 - 1
            for c in range(c0, c1):
                acc += edge_prob[child_list[c]]
                if x < acc:
                    j = c
                    break
            chosen[node] = child_list[j]
            stack[top] = child_list[j]
            top += 1
        elif kind == DECISION:
            info = node_infoset[node]
            s0 = slot_start[info]
            n = c1 - c0
            total = 0.0
            for a in range(n):
                r = regrets[s0 + a]
                sigma[s0 + a] = r if r > 0.0 else 0.0
                total += sigma[s0 + a]
            for a in range(n):
                sigma[s0 + a] = sigma[s0 + a] / total if total > 0.0 else 1.0 / n
            if node_player[node] == traverser:
                for c in range(c0, c1):
                    stack[top] = child_list[c]
                    top += 1
            else:
                for a in range(n):
                    avg[s0 + a] += weight * sigma[s0 + a]
                j = _pick(sigma, s0, s0 + n, np.random.random()) - s0
                chosen[node] = child_list[c0 + j]
                stack[top] = child_list[c0 + j]
                top += 1
    for i in range(count - 1, -1, -1):
        node = order[i]
        kind = node_kind[node]
        if kind == CHANCE_NODE:
            value[node] = value[chosen[node]]
        elif kind != DECISION:
            value[node] = utility[node, traverser]
        elif node_player[node] != traverser:
            value[node] = value[chosen[node]]
        else:
            c0 = child_start[node]
            s0 = slot_start[node_infoset[node]]
            v = 0.0
            for a in range(child_start[node + 1] - c0):
                v += sigma[s0 + a] * value[child_list[c0 + a]]
            for a in range(child_start[node + 1] - c0):
                regrets[s0 + a] += weight * (value[child_list[c0 + a]] - v)
            value[node] = v


@njit(cache=True)
def _run(seed, first, last, num_players, node_kind, node_player, child_start, child_list, node_infoset,
         utility, edge_prob, slot_start, regrets, avg):
    # numba's generator is per thread and global: seed it on every call so that a run
    # depends only on the seed and the sequence of calls.
    np.random.seed(seed + first)
    n = node_kind.shape[0]
    sigma = np.empty(regrets.shape[0])
    stack = np.empty(n, np.int32)
    order = np.empty(n, np.int32)
    chosen = np.empty(n, np.int32)
    value = np.empty(n)
    for t in range(first, last + 1):
        for p in range(num_players):
            _traverse(p, float(t), node_kind, node_player, child_start, child_list, node_infoset, utility,
                      edge_prob, slot_start, regrets, avg, sigma, stack, order, chosen, value)


class ExplicitLinearMCCFR:
    """External-sampling Linear MCCFR on a compiled tree (see the module docstring).

    ``run`` may be called repeatedly; the same seed and the same sequence of calls give the
    same result.
    """

    def __init__(self, tree: ExplicitTree, seed: int = 0):
        self.tree = tree
        self.seed = int(seed)
        self.iterations = 0
        self.regrets = np.zeros(tree.num_slots)
        self.avg = np.zeros(tree.num_slots)
        # Probability of the edge into each chance child (0 elsewhere).
        self._edge_prob = np.zeros(tree.num_nodes)
        chance_child = tree.edge_w > tree.num_slots
        self._edge_prob[chance_child] = tree.chance_prob[tree.edge_w[chance_child] - tree.num_slots - 1]

    def run(self, iterations: int) -> None:
        if iterations <= 0:
            return
        t = self.tree
        first = self.iterations + 1
        _run(self.seed * 1_000_003, first, self.iterations + iterations, t.num_players, t.node_kind, t.node_player,
             t.child_start, t.child_list, t.node_infoset, t.utility, self._edge_prob, t.infoset_slot_start,
             self.regrets, self.avg)  # fmt: skip
        self.iterations += iterations

    def average_policy(self) -> np.ndarray:
        """Slot-indexed average strategy (uniform where no average was accumulated)."""
        out = np.empty(self.tree.num_slots)
        normalise(self.avg, self.tree.infoset_slot_start, out)
        return out

    def current_policy(self) -> np.ndarray:
        """Slot-indexed strategy of the final iteration (regret matching)."""
        out = np.empty(self.tree.num_slots)
        regret_matching(self.regrets, self.tree.infoset_slot_start, out, 0, self.tree.num_infosets)
        return out
