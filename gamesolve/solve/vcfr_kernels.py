"""Numba kernels of vector-form CFR over a factored game (:mod:`gamesolve.game.factored`).

Each public node carries, for every player, a vector of reach probabilities over their
private states, and for the updating player a vector of counterfactual values. One pass for
player ``p`` (alternating updates, as :mod:`gamesolve.solve.tabular_kernels`):

1. forward, in preorder: a decision node multiplies its actor's reach by the current
   strategy of each private state; chance nodes pass every vector on unchanged (the chance
   probabilities live in the deal weights, so card removal is exact);
2. backward, in reverse preorder: terminals evaluate ``p``'s values against the others'
   reach over the consistent listed deals (:func:`gamesolve.game.terminals.terminal_cfv`);
   ``p``'s decision nodes take the strategy-weighted sum and add each action's advantage
   to the regrets; other nodes sum their children;
3. ``p``'s rows add reach-weighted strategies to the average, then regrets are discounted
   (DCFR / Linear CFR) or clipped (CFR+), with the same schedule as the tabular kernel.

Nodes of one subtree range are independent, so the subtrees under public chance run on
threads (``prange``), each writing only its own nodes and rows. With ``sample_chance`` each
chance node follows one uniformly sampled outcome per iteration and scales its value by the
number of outcomes (public chance sampling: unbiased, cheaper iterations).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit, prange

from gamesolve.game.factored import CHANCE, DECISION, FIXED, TERMINAL
from gamesolve.game.removal import contest_cfv, fixed_cfv, holds
from gamesolve.game.removal_multi import three_player_cfv
from gamesolve.game.terminals import terminal_cfv
from gamesolve.rng import splitmix, stream

VectorTables = namedtuple("VectorTables", "row_offset regrets avg sigma reach cfv active root_reach")
"""Rows of each owner node (``row_offset``, -1 elsewhere), regrets, average, current strategy,
reach ``[N, P, S]``, values ``[N, S]``, the nodes a sampled iteration visits, and the root's reach."""

Schedule = namedtuple("Schedule", "rm_plus discount alpha beta gamma sample_chance seed")


@njit(cache=True)
def regret_matching(tree, tables, n_states):
    """The current strategy of every row (positive regrets normalised, else uniform)."""
    regrets, sigma, off = tables.regrets, tables.sigma, tables.row_offset
    for node in range(tree.kind.shape[0]):
        if off[node] < 0:
            continue
        n_act = tree.child_start[node + 1] - tree.child_start[node]
        for s in range(n_states):
            row = off[node] + s * n_act
            total = 0.0
            for a in range(n_act):
                if regrets[row + a] > 0.0:
                    total += regrets[row + a]
            for a in range(n_act):
                if total > 0.0:
                    sigma[row + a] = regrets[row + a] / total if regrets[row + a] > 0.0 else 0.0
                else:
                    sigma[row + a] = 1.0 / n_act


@njit(cache=True)
def _sampled_child(tree, node, t, seed):
    c0 = tree.child_start[node]
    n = tree.child_start[node + 1] - c0
    _, u = splitmix(stream(seed, np.uint64(t) * np.uint64(0x100000001B3) + np.uint64(node)))
    return tree.child_list[c0 + min(int(u * n), n - 1)]


@njit(cache=True)
def forward(tree, rm, tables, lo, hi, skip, t, sample_chance, seed):
    """Reach vectors of the children of nodes ``lo..hi-1`` (preorder), nodes flagged in
    ``skip`` excepted; marks the nodes this iteration visits. With item removal (``rm``), a
    chance outcome zeroes the reach of the states holding the dealt item."""
    reach, sigma, off, active = tables.reach, tables.sigma, tables.row_offset, tables.active
    n_states = reach.shape[2]
    for node in range(lo, hi):
        if skip[node]:
            continue
        kind = tree.kind[node]
        if kind == TERMINAL:
            continue
        c0 = tree.child_start[node]
        c1 = tree.child_start[node + 1]
        if not active[node]:  # an unsampled subtree: nothing below is visited either
            for k in range(c0, c1):
                active[tree.child_list[k]] = False
            continue
        n_players = reach.shape[1]
        if kind == CHANCE:
            chosen = _sampled_child(tree, node, t, seed) if sample_chance else -1
            for k in range(c0, c1):
                child = tree.child_list[k]
                active[child] = chosen < 0 or child == chosen
                item = tree.edge_label[k] if rm.n_items > 0 else -1
                for q in range(n_players):
                    for s in range(n_states):
                        reach[child, q, s] = 0.0 if item >= 0 and holds(rm.items, s, item) else reach[node, q, s]
            continue
        actor = tree.player[node]
        row0 = off[tree.row_owner[node]]
        n_act = c1 - c0
        for k in range(c0, c1):
            child = tree.child_list[k]
            active[child] = True
            a = k - c0
            for q in range(n_players):
                if q == actor:
                    for s in range(n_states):
                        reach[child, q, s] = reach[node, q, s] * sigma[row0 + s * n_act + a]
                else:
                    for s in range(n_states):
                        reach[child, q, s] = reach[node, q, s]


@njit(cache=True)
def backward(tree, term, td, rm, tables, lo, hi, skip, p, sample_chance, best_response=False):
    """Values of player ``p`` at nodes ``hi-1..lo`` (reverse preorder) and their regrets; with
    ``best_response``, ``p`` takes the best action for each private state instead (no regrets)."""
    reach, cfv, sigma, regrets, off, active = (
        tables.reach, tables.cfv, tables.sigma, tables.regrets, tables.row_offset, tables.active,
    )  # fmt: skip
    n_states = cfv.shape[1]
    sums = np.empty(max(rm.n_items, 1))
    for node in range(hi - 1, lo - 1, -1):
        if skip[node] or not active[node]:
            continue
        kind = tree.kind[node]
        for s in range(n_states):
            cfv[node, s] = 0.0
        c0 = tree.child_start[node]
        c1 = tree.child_start[node + 1]
        if kind == TERMINAL:
            if rm.n_items == 0:
                terminal_cfv(td, node, p, reach[node], cfv[node])
            else:
                item_terminal(term, rm, node, p, reach[node], cfv[node], sums)
        elif kind == DECISION and tree.player[node] == p and best_response:
            for s in range(n_states):
                cfv[node, s] = -np.inf
            for k in range(c0, c1):
                child = tree.child_list[k]
                for s in range(n_states):
                    if cfv[child, s] > cfv[node, s]:
                        cfv[node, s] = cfv[child, s]
        elif kind == DECISION and tree.player[node] == p:
            row0 = off[tree.row_owner[node]]
            n_act = c1 - c0
            for k in range(c0, c1):
                child = tree.child_list[k]
                a = k - c0
                for s in range(n_states):
                    cfv[node, s] += sigma[row0 + s * n_act + a] * cfv[child, s]
            for k in range(c0, c1):
                child = tree.child_list[k]
                a = k - c0
                for s in range(n_states):
                    regrets[row0 + s * n_act + a] += cfv[child, s] - cfv[node, s]
        elif kind == CHANCE:
            # Chance weights: 1 with listed deals (their probabilities carry chance), the
            # probability of each dealt item with item removal; a sampled outcome stands for all.
            w = rm.chance_weight[node] * ((c1 - c0) if sample_chance else 1.0)
            for k in range(c0, c1):
                child = tree.child_list[k]
                if active[child]:
                    item = tree.edge_label[k] if rm.n_items > 0 else -1
                    for s in range(n_states):
                        # A state holding the dealt item cannot see this outcome.
                        if item < 0 or not holds(rm.items, s, item):
                            cfv[node, s] += w * cfv[child, s]
        else:
            for k in range(c0, c1):
                child = tree.child_list[k]
                for s in range(n_states):
                    cfv[node, s] += cfv[child, s]


@njit(cache=True)
def item_terminal(term, rm, node, p, reach_node, out, sums):
    """A terminal with item removal, given every player's reach ``reach_node[q, s]``. Two
    players: a fixed payoff, or a contest where the winner takes the smaller stake (a larger
    one's excess goes back to its payer); three players: :func:`three_player_cfv`."""
    if reach_node.shape[0] != 2:
        three_player_cfv(term, rm, node, p, reach_node, out)
    elif term.kind[node] == FIXED:
        fixed_cfv(reach_node[1 - p], rm.items, rm.n_items, term.payoff[node, p], out, sums)
    else:
        path = rm.node_path[node]
        stake = min(term.payoff[node, 0], term.payoff[node, 1])
        contest_cfv(reach_node[1 - p], rm.items, rm.n_items, rm.path_strength[path], rm.path_order[path], stake, -stake, out, sums)


@njit(cache=True)
def _update_rows(tree, tables, p, weight, sched, pos_d, neg_d, frozen):
    """Average and discount (or clip) player ``p``'s rows after their pass."""
    reach, sigma, regrets, avg, off, active = (
        tables.reach, tables.sigma, tables.regrets, tables.avg, tables.row_offset, tables.active,
    )  # fmt: skip
    n_states = reach.shape[2]
    for node in range(tree.kind.shape[0]):
        if off[node] < 0 or tree.player[node] != p or not active[node]:
            continue
        n_act = tree.child_start[node + 1] - tree.child_start[node]
        for s in range(n_states):
            row = off[node] + s * n_act
            own = reach[node, p, s] * weight
            for a in range(n_act):
                avg[row + a] += own * sigma[row + a]
                r = regrets[row + a]
                if sched.rm_plus and r < 0.0:
                    regrets[row + a] = 0.0
                elif sched.discount:
                    regrets[row + a] = r * (pos_d if r > 0.0 else neg_d)
    for i in range(frozen.shape[0]):
        # Frozen rows (a searcher's own earlier actions) keep their strategy: regrets stay 0
        # and the strategy is re-imposed after each regret matching.
        regrets[frozen[i]] = 0.0


@njit(cache=True, parallel=True)
def run(tree, term, td, rm, tables, sched, ranges, in_range, no_skip, frozen_slots, frozen_probs,
        t_first, t_last, n_players, threads):  # fmt: skip
    """Iterations ``t_first..t_last`` (1-based). ``ranges[j] = (lo, hi)`` are subtrees under
    public chance run in parallel (``in_range`` flags their nodes for the sequential part)."""
    n = tree.kind.shape[0]
    n_ranges = ranges.shape[0]
    n_states = tables.cfv.shape[1]
    sample_chance = sched.sample_chance
    seed = sched.seed
    for t in range(t_first, t_last + 1):
        weight = float(t) ** sched.gamma
        pos_d = 1.0
        neg_d = 1.0
        if sched.discount:
            ta = float(t) ** sched.alpha
            tb = float(t) ** sched.beta
            pos_d = ta / (ta + 1.0)
            neg_d = tb / (tb + 1.0)
        for p in range(n_players):
            regret_matching(tree, tables, n_states)
            for i in range(frozen_slots.shape[0]):
                tables.sigma[frozen_slots[i]] = frozen_probs[i]
            tables.active[0] = True
            for q in range(n_players):
                for s in range(n_states):
                    tables.reach[0, q, s] = tables.root_reach[q, s]
            forward(tree, rm, tables, 0, n, in_range, t, sample_chance, seed)
            if n_ranges > 0:
                for j in prange(n_ranges):
                    lo = ranges[j, 0]
                    hi = ranges[j, 1]
                    if tables.active[lo]:
                        forward(tree, rm, tables, lo, hi, no_skip, t, sample_chance, seed)
                        backward(tree, term, td, rm, tables, lo, hi, no_skip, p, sample_chance)
            backward(tree, term, td, rm, tables, 0, n, in_range, p, sample_chance)
            _update_rows(tree, tables, p, weight, sched, pos_d, neg_d, frozen_slots)


@njit(cache=True)
def normalise(tree, avg, row_offset, n_states, out):
    """The average strategy of every row; uniform where nothing accumulated."""
    for node in range(tree.kind.shape[0]):
        if row_offset[node] < 0:
            continue
        n_act = tree.child_start[node + 1] - tree.child_start[node]
        for s in range(n_states):
            row = row_offset[node] + s * n_act
            total = 0.0
            for a in range(n_act):
                total += avg[row + a]
            for a in range(n_act):
                out[row + a] = avg[row + a] / total if total > 0.0 else 1.0 / n_act


@njit(cache=True)
def best_response_values(tree, term, td, rm, tables, p, average):
    """Player ``p``'s counterfactual best-response value per private state at the root against
    everyone else playing ``average`` (rows, as ``sigma``); ``sigma`` is overwritten."""
    n = tree.kind.shape[0]
    n_states = tables.cfv.shape[1]
    n_players = tables.reach.shape[1]
    for i in range(average.shape[0]):
        tables.sigma[i] = average[i]
    skip = np.zeros(n, np.bool_)
    tables.active[0] = True
    for q in range(n_players):
        for s in range(n_states):
            tables.reach[0, q, s] = tables.root_reach[q, s]
    forward(tree, rm, tables, 0, n, skip, 0, False, np.uint64(0))
    backward(tree, term, td, rm, tables, 0, n, skip, p, False, True)
    return tables.cfv[0].copy()
