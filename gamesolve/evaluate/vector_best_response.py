"""Exact best response over the factored form: one walk of the public tree with a vector over
the listed deals, so that exploitability is exact for any game in the factored form that fits
in memory, not only for those whose histories can be enumerated (an explicit tree).

For a responder ``b`` the walk carries, per deal ``d``, the probability that chance and every
other player bring the play to the node (``reach[d]``, the deal's own probability included)
and returns, per deal, the reach-weighted payoff of everyone below it. At ``b``'s decision
nodes the action is chosen per information set, i.e. per private state ``s`` of ``b``: the
action whose child has the largest sum of ``b``'s values over the deals that give ``b`` the
state ``s`` (those values already carry the opponents' reach, so the sum is the counterfactual
value). Everyone else plays the strategy; public chance keeps the deals whose outcome at that
level is the edge's. The cost is public nodes x deals, with no per-history work.

Terminal kinds FIXED and TABLE are read here (every form the generic compiler and the factored
contract produce); poker's CONTEST forms are evaluated by their own vector code.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import attrs
import numpy as np
from numba import njit

from gamesolve.array_loops import copy_into
from gamesolve.game.factored import DECISION, FIXED, TABLE, TERMINAL, FactoredGame, FormError


@njit(cache=True, nogil=True)
def _walk(kind, player, node_round, level, child_start, child_list, edge_label, row_owner, term_kind, payoff,
          term_row, table, private, public, prob, n_private, node_offset, rows, responder, payee):  # fmt: skip
    """``payee``'s expected payoff when ``responder`` (-1: nobody; else ``payee`` itself)
    best-responds and everyone else plays ``rows``. An explicit stack, one level per depth of
    the tree, each level a vector over the deals."""
    n_deals = prob.shape[0]
    depth_max = 1
    # The deepest path bounds the stack: a node's depth is its parent's plus one.
    depth = np.zeros(kind.shape[0], dtype=np.int32)
    for n in range(kind.shape[0]):
        for k in range(child_start[n], child_start[n + 1]):
            depth[child_list[k]] = depth[n] + 1
            if depth[n] + 2 > depth_max:
                depth_max = depth[n] + 2
    reach = np.zeros((depth_max, n_deals))
    value = np.zeros((depth_max, n_deals))
    best = np.full((depth_max, n_private), -np.inf)
    score = np.zeros(n_private)
    node_at = np.zeros(depth_max, dtype=np.int64)
    next_k = np.zeros(depth_max, dtype=np.int64)
    copy_into(reach[0], prob)
    node_at[0] = 0
    next_k[0] = child_start[0]
    top = 0
    while top >= 0:
        n = node_at[top]
        if kind[n] == 2:  # TERMINAL: the reach-weighted payoff
            if term_kind[n] == 0:  # FIXED
                for d in range(n_deals):
                    value[top, d] = reach[top, d] * payoff[n, payee]
            else:  # TABLE
                row = term_row[n]
                for d in range(n_deals):
                    value[top, d] = reach[top, d] * table[d, row, payee]
        elif next_k[top] < child_start[n + 1]:
            k = next_k[top]
            next_k[top] += 1
            c = child_list[k]
            a = k - child_start[n]
            alive = False
            if kind[n] == 1:  # public CHANCE: the deals whose outcome at this level is the edge's
                lv = level[n]
                for d in range(n_deals):
                    if public[d, lv] == edge_label[k]:
                        reach[top + 1, d] = reach[top, d]
                        if reach[top, d] > 0:
                            alive = True
                    else:
                        reach[top + 1, d] = 0.0
            elif player[n] == responder:  # the responder tries every action
                for d in range(n_deals):
                    reach[top + 1, d] = reach[top, d]
                alive = True
            else:
                q = player[n]
                n_act = child_start[n + 1] - child_start[n]
                off = node_offset[row_owner[n]]
                rd = node_round[n]
                for d in range(n_deals):
                    if reach[top, d] == 0.0:
                        reach[top + 1, d] = 0.0
                        continue
                    w = 1.0 / n_act if off < 0 else rows[off + private[d, q, rd] * n_act + a]
                    reach[top + 1, d] = reach[top, d] * w
                    if w > 0:
                        alive = True
            if alive:  # (a child no deal reaches is worth nothing: skipped)
                top += 1
                node_at[top] = c
                next_k[top] = child_start[c]
                value[top, :] = 0.0
                if kind[c] == 0 and player[c] == responder:
                    best[top, :] = -np.inf
            continue
        # n is done: merge its values into its parent
        if top == 0:
            break
        parent = node_at[top - 1]
        if kind[parent] == 0 and player[parent] == responder:
            # Per information set (the responder's private state), the action whose deals'
            # values sum highest: those values carry the others' reach already.
            rd = node_round[parent]
            score[:] = 0.0
            for d in range(n_deals):
                score[private[d, responder, rd]] += value[top, d]
            for d in range(n_deals):
                if score[private[d, responder, rd]] > best[top - 1, private[d, responder, rd]]:
                    value[top - 1, d] = value[top, d]
            for s in range(n_private):
                if score[s] > best[top - 1, s]:
                    best[top - 1, s] = score[s]
        else:
            for d in range(n_deals):
                value[top - 1, d] += value[top, d]
        top -= 1
    total = 0.0
    for d in range(n_deals):
        total += value[0, d]
    return total


@attrs.frozen
class VectorEvaluation:
    """Exact values of a strategy profile in a factored form."""

    values: np.ndarray  # float[P]: each player's expected payoff under the strategy
    best_response: np.ndarray  # float[P]: each player's best-response value against the others
    nash_conv: float  # sum over players of best response minus value

    @property
    def exploitability(self) -> float:
        return self.nash_conv / len(self.values)


def check_supported(form: FactoredGame) -> None:
    """:class:`FormError` unless the vector best response can evaluate ``form`` exactly."""
    if form.deals is None or form.deals.listed is None:
        raise FormError(f"{form.game_name}: exact best response over the factored form needs listed deals")
    terminal = form.node_kind == TERMINAL
    if np.any((form.term_kind[terminal] != FIXED) & (form.term_kind[terminal] != TABLE)):
        raise FormError(f"{form.game_name}: the vector best response reads FIXED and TABLE terminals only")
    decision = form.node_kind == DECISION
    if np.any(form.row_owner[decision] != np.flatnonzero(decision)):
        raise FormError(f"{form.game_name}: nodes sharing table rows (hidden actions) need the explicit-tree evaluator")


def _floats(rows) -> np.ndarray:
    """Rows as they are when float32 (MCCFR's tables: a float64 copy of a large game's would
    double the memory), else float64."""
    rows = np.asarray(rows)
    return rows if rows.dtype == np.float32 else rows.astype(np.float64, copy=False)


def evaluate_rows(form: FactoredGame, node_offset: np.ndarray, rows: np.ndarray, zero_sum: bool = False) -> VectorEvaluation:
    """Values, best responses and NashConv of the strategy ``rows`` (table layout: row
    ``(node, s)`` at ``node_offset[node] + s * actions``; offset -1 plays uniformly).
    ``zero_sum``: payoffs sum to zero (two players: the second's value is minus the first's)."""
    check_supported(form)
    listed = form.deals.listed
    terminals = form.terminal_arrays()
    args = (
        form.node_kind, form.node_player, form.node_round, form.node_level, form.child_start, form.child_list,
        form.edge_label, form.row_owner, form.term_kind, form.payoff, form.term_row, terminals.table,
        listed.private, listed.public if listed.public.shape[1] else np.zeros((len(listed.prob), 1), np.int32),
        listed.prob, int(form.num_private.max()), np.asarray(node_offset, dtype=np.int64), _floats(rows),
    )  # fmt: skip
    n = form.num_players
    # One walk per best response and, unless the game is zero-sum with two players (whose
    # values are then v and -v), one per player's value: independent, released from the GIL,
    # side by side on the machine's cores.
    walks = [(p, p) for p in range(n)] + [(-1, p) for p in range(1 if zero_sum and n == 2 else n)]
    with ThreadPoolExecutor(max_workers=max(1, min(len(walks), os.cpu_count() or 1))) as pool:
        totals = list(pool.map(lambda w: _walk(*args, *w), walks))
    best = np.array(totals[:n])
    values = np.array(totals[n:])
    if len(values) < n:
        values = np.array([values[0], -values[0]])
    return VectorEvaluation(values=values, best_response=best, nash_conv=float(best.sum() - values.sum()))


def vector_evaluator(form: FactoredGame, game=None):
    """``f(node_offset, rows) -> {"nash_conv", "exploitability", "game_value", "values"}`` for
    strategies over ``form``, or None where the vector best response cannot evaluate it: what
    the command layer hands a solver (``SolveRequest.evaluate_form``)."""
    try:
        check_supported(form)
    except FormError:
        return None

    zero_sum = bool(getattr(game, "zero_sum", False))

    def evaluate(node_offset: np.ndarray, rows: np.ndarray) -> dict:
        ev = evaluate_rows(form, node_offset, rows, zero_sum=zero_sum)
        return {"nash_conv": ev.nash_conv, "game_value": float(ev.values[0]), "exploitability": ev.exploitability,
                "values": ev.values.tolist(), "evaluation": "vector best response over the factored form"}  # fmt: skip

    return evaluate
