"""Rollout terminals: the leaves of a depth-limited subgame, valued by playing each player's
chosen continuation strategy to the end of a *continuation game* (supplement, "Depth-limited
search": at a leaf every player still in play picks one of k strategies for the rest of the
game; Pluribus estimates the leaf's value by rollouts).

A leaf of kind ``ROLLOUT`` (:data:`gamesolve.game.factored.ROLLOUT`) names where the
continuation game starts (``entry[n]``, a node of that game's own public tree, usually the
blueprint's), which continuation strategy each player chose (``choice[n, p]``) and how its
payoffs convert to the subgame's (``ratio[n]``, ``entry_stake[n, p]``): a subgame can reach a
leaf along a line the continuation game only approximates (other bet sizes), so a payoff
``v`` there counts as ``ratio * (v + entry_stake) - stake`` in the subgame, ``stake`` being what
the player put in on the subgame's line (the terminal's ``payoff[n, p]``): the same
proportions of the pot, scaled to the subgame's pot.

A rollout is deterministic given the deal: the continuation strategies are stored as one
action per information set (:mod:`gamesolve.game.continuation`, bit-packed), the deal carries
each player's private state in every round of the continuation game (``cont[i, q, r]``, by the
continuation game's player numbering) and contest strengths (``cont_strength[i, q]``), and
``player_of[q]`` maps that numbering to the subgame's players. Sampling the deal is the only
randomness, so a sampling solver (MCCFR) gets an unbiased estimate of the leaf's value per visit.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gamesolve.game.continuation import packed_action
from gamesolve.game.factored import DECISION, TERMINAL, FactoredGame, TerminalArrays
from gamesolve.game.form_records import Rollout
from gamesolve.game.terminals import terminal_value


def make_rollout(game: FactoredGame, infoset_start, packed, bits, player_of, entry, choice, ratio, entry_stake) -> Rollout:
    """The bundle for a continuation game ``game`` (typically the blueprint's tree) and a
    subgame's leaves (``entry``, ``choice``, ``ratio``, ``entry_stake``, indexed by subgame node)."""
    return Rollout(
        np.ascontiguousarray(game.node_kind, np.int8), np.ascontiguousarray(game.node_player, np.int32),
        np.ascontiguousarray(game.node_round, np.int32), np.ascontiguousarray(game.child_start, np.int32),
        np.ascontiguousarray(game.child_list, np.int32), np.ascontiguousarray(game.row_owner, np.int32),
        np.ascontiguousarray(game.settled, np.bool_), np.ascontiguousarray(game.settled_value, np.float64),
        np.ascontiguousarray(game.term_kind, np.int8), np.ascontiguousarray(game.payoff, np.float64),
        np.ascontiguousarray(game.contender, np.bool_), np.ascontiguousarray(game.term_row, np.int32),
        np.ascontiguousarray(game.terminal_arrays().table, np.float64),  # deal-major, as terminal_value reads it
        np.ascontiguousarray(infoset_start, np.int64), np.ascontiguousarray(packed, np.uint8), int(bits),
        np.ascontiguousarray(player_of, np.int64), np.ascontiguousarray(entry, np.int64),
        np.ascontiguousarray(choice, np.int8), np.ascontiguousarray(ratio, np.float64),
        np.ascontiguousarray(entry_stake, np.float64),
    )  # fmt: skip


def no_rollout(form: FactoredGame) -> Rollout:
    """The empty bundle of forms without rollout terminals (typed like a real one)."""
    n, p = form.num_nodes, form.num_players
    return make_rollout(form, np.zeros(0), np.zeros((0, 0)), 1, np.zeros(0), np.full(n, -1), np.zeros((0, p)), np.zeros(0), np.zeros((0, p)))


@njit(cache=True)
def rollout_value(ro, stake, node, p, cont, cont_strength, d):
    """Player ``p``'s payoff at rollout terminal ``node`` on deal ``d`` (see the module docstring)."""
    term = TerminalArrays(ro.t_kind, ro.t_payoff, ro.t_contender, ro.t_row, ro.t_table)
    q = np.int64(0)  # p in the continuation game's numbering (typed: a literal 0 compiled contest_layers for Literal[int](0) too)
    for j in range(ro.player_of.shape[0]):
        if ro.player_of[j] == p:
            q = j
    c = ro.entry[node]
    index = np.zeros(1, np.int64)
    while True:
        kind = ro.kind[c]
        if kind == TERMINAL:
            v = terminal_value(term, c, q, cont_strength[d : d + 1], index, np.int64(0))  # typed: no Literal[int] recompilation
            break
        if ro.settled[c, q]:
            v = ro.settled_value[c, q]
            break
        c0 = ro.child_start[c]
        if kind != DECISION:  # no public chance in a continuation game: the deal carries it
            c = ro.child_list[c0]
            continue
        actor = ro.player[c]
        start = ro.infoset_start[ro.row_owner[c]]
        a = 0
        if start >= 0:
            a = packed_action(ro.packed, ro.choice[node, ro.player_of[actor]], ro.bits, start + cont[d, actor, ro.round[c]])
        c = ro.child_list[c0 + min(a, ro.child_start[c + 1] - c0 - 1)]
    return ro.ratio[node] * (v + ro.entry_stake[node, p]) - stake[node, p]
