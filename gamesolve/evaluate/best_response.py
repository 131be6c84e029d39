"""Exact best responses, expected values and NashConv over an explicit tree.

For player ``p`` against everyone else's fixed policy, the best response picks, at each of
``p``'s information sets, the action maximising the counterfactual value summed over the
histories of that set. With perfect recall an information set's histories share the
number of ``p``'s earlier actions (its *level*), and every information set below it has a
higher level; so the choices are made level by level from the deepest up, each level with
one backward pass over the preorder arrays.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs
import numpy as np
from numba import njit

from gamesolve.game.explicit_tree import DECISION, ExplicitTree
from gamesolve.game.tree_walks import backward_values, edge_players, forward_reach


@njit(cache=True)
def own_levels(parent, edge_player, player, level):
    """Number of ``player``'s actions on the path to each node."""
    level[0] = 0
    for c in range(1, parent.shape[0]):
        level[c] = level[parent[c]] + (1 if edge_player[c] == player else 0)


@njit(cache=True)
def best_response_value(parent, edge_w, edge_player, node_kind, node_player, node_infoset, slot_start,
                        n_slots, W, utility_p, player, others, own, level, cfv, value, choice):
    """Best-response value of ``player`` at the root; ``choice[infoset]`` gets the chosen slot.

    ``W`` holds everyone's policy; the player's slots are overwritten with the pure best
    response as levels are decided.
    """
    n = parent.shape[0]
    forward_reach(parent, edge_w, edge_player, W, player, own, others)
    own_levels(parent, edge_player, player, level)
    max_level = 0
    for c in range(n):
        if node_kind[c] == DECISION and node_player[c] == player and level[c] > max_level:
            max_level = level[c]
    for lv in range(max_level, -1, -1):
        for s in range(n_slots):
            cfv[s] = 0.0
        for c in range(n):
            value[c] = utility_p[c]
        for c in range(n - 1, 0, -1):
            par = parent[c]
            v = value[c]
            if edge_player[c] == player and level[par] == lv:
                cfv[edge_w[c]] += others[par] * v
            value[par] += W[edge_w[c]] * v
        # Decide this level's information sets and write the pure choice into W.
        for c in range(n):
            if node_kind[c] == DECISION and node_player[c] == player and level[c] == lv:
                info = node_infoset[c]
                if choice[info] >= 0:
                    continue
                s0 = slot_start[info]
                best = s0
                for s in range(s0 + 1, slot_start[info + 1]):
                    if cfv[s] > cfv[best]:
                        best = s
                choice[info] = best
                for s in range(s0, slot_start[info + 1]):
                    W[s] = 1.0 if s == best else 0.0
    backward_values(parent, edge_w, W, utility_p, value)
    return value[0]


@attrs.frozen
class Evaluation:
    """Values of a policy profile and its distance from equilibrium."""

    values: tuple[float, ...]  # each player's expected value under the policy
    best_response_values: tuple[float, ...]  # each player's value when best-responding
    nash_conv: float  # sum over players of (best response value - value)

    @property
    def num_players(self) -> int:
        return len(self.values)

    @property
    def exploitability(self) -> float:
        """NashConv divided by the number of players (open-spiel's convention)."""
        return self.nash_conv / self.num_players

    @property
    def game_value(self) -> float:
        """Player 0's expected value under the policy."""
        return self.values[0]


class TreeEvaluator:
    """Reusable scratch space for evaluating many policies on one tree."""

    def __init__(self, tree: ExplicitTree):
        self.tree = tree
        n = tree.num_nodes
        self._edge_player = edge_players(tree)
        self._utility_t = np.ascontiguousarray(tree.utility.T)
        self._own = np.empty(n)
        self._others = np.empty(n)
        self._value = np.empty(n)
        self._level = np.empty(n, dtype=np.int32)
        self._cfv = np.empty(tree.num_slots)

    def _check(self, policy: np.ndarray) -> np.ndarray:
        policy = np.asarray(policy, dtype=np.float64)
        if policy.shape != (self.tree.num_slots,):
            raise ValueError(f"policy has shape {policy.shape}, the tree has {self.tree.num_slots} slots")
        return policy

    def expected_values(self, policy: np.ndarray) -> np.ndarray:
        """Each player's expected value when everyone plays ``policy``."""
        W = self.tree.weights(self._check(policy))
        out = np.empty(self.tree.num_players)
        for p in range(self.tree.num_players):
            backward_values(self.tree.parent, self.tree.edge_w, W, self._utility_t[p], self._value)
            out[p] = self._value[0]
        return out

    def best_response(self, policy: np.ndarray, player: int) -> tuple[float, np.ndarray]:
        """``player``'s best-response value against ``policy`` and the chosen slot per infoset
        (-1 at other players' infosets)."""
        t = self.tree
        W = t.weights(self._check(policy))
        choice = np.full(t.num_infosets, -1, dtype=np.int64)
        value = best_response_value(
            t.parent, t.edge_w, self._edge_player, t.node_kind, t.node_player, t.node_infoset,
            t.infoset_slot_start, t.num_slots, W, self._utility_t[player], player,
            self._others, self._own, self._level, self._cfv, self._value, choice,
        )  # fmt: skip
        return float(value), choice

    def evaluate(self, policy: np.ndarray) -> Evaluation:
        values = self.expected_values(policy)
        brs = [self.best_response(policy, p)[0] for p in range(self.tree.num_players)]
        nash_conv = float(sum(br - v for br, v in zip(brs, values)))
        return Evaluation(tuple(float(v) for v in values), tuple(brs), nash_conv)


def evaluate_policy(tree: ExplicitTree, policy: np.ndarray) -> Evaluation:
    """Expected values, best-response values and NashConv of a slot-indexed policy."""
    return TreeEvaluator(tree).evaluate(policy)


def evaluation_fields(evaluation: Evaluation) -> dict[str, Any]:
    """The JSON keys every solve reports for an exactly evaluated policy."""
    return {
        "nash_conv": evaluation.nash_conv,
        "game_value": evaluation.game_value,
        "exploitability": evaluation.exploitability,
        "values": list(evaluation.values),
    }


def exact_evaluator(tree: ExplicitTree) -> Callable[[np.ndarray], dict[str, Any]]:
    """``evaluate(policy) -> evaluation_fields`` for slot policies of ``tree``: what the
    command layer hands a solver (``SolveRequest.evaluate``) so that solvers report exact
    figures without depending on this module."""
    evaluator = TreeEvaluator(tree)
    return lambda policy: evaluation_fields(evaluator.evaluate(policy))
