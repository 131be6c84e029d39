"""Numba kernels of vector-form CFR over a factored game (:mod:`gamesolve.game.factored`).

One pass for player ``p`` (alternating updates, as :mod:`gamesolve.solve.kernels.tabular`)
walks the public tree depth first with an explicit stack (no recursion: DESIGN.md, principle
4). Only the current path carries vectors over private states, so memory is
O(depth x states) besides the tables (b-inary/postflop-solver's layout):

* entering a node, every player's reach vector comes from its parent's: a decision node's
  actor multiplies by the current strategy of each private state (regret matching of the
  node's rows, computed on entry); a public chance outcome zeroes the reach of the states
  that hold the dealt item (card removal);
* ``p``'s decision nodes add their reach-weighted strategy to the average on entry;
* leaving a node, its values for ``p`` go to its parent: terminals evaluate ``p``'s values
  against the others' reach (listed deals: :func:`gamesolve.game.terminals.terminal_cfv`;
  item removal: :func:`item_terminal`); ``p``'s decision nodes take the strategy-weighted sum,
  add each action's advantage to the regrets and discount (DCFR / Linear CFR) or clip (CFR+)
  them, with the same schedule as the tabular kernel; chance nodes add their outcomes' values
  times the outcome weight (and the permuted values of symmetric twins:
  :mod:`gamesolve.game.symmetry`); other nodes sum their children.

A row's strategy is fixed for the whole pass because it is read before the row changes.
Rows shared by several nodes (``row_owner``) and frozen rows take their strategy from a buffer
filled at the start of the pass (:data:`Fixed`) and are discounted at its end.

Threads: the subtrees under the first public chance nodes are independent (own nodes, own
rows). A pass then walks the tree above them once to collect their reach, runs blocks of the
outcomes' subtrees on Python threads (:func:`one_pass` is ``nogil``), combines the outcomes,
and walks the top again with those values. With ``sample_chance`` each chance node follows one uniformly sampled outcome per
iteration and scales its value by the number of outcomes (public chance sampling).

Tables (regrets, average) are float32 or float64, or 16-bit codes with a scale per node
(:mod:`gamesolve.solve.kernels.compressed`; the caller's choice); path vectors are float64.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from gamesolve.array_loops import copy_into
from gamesolve.game.factored import CHANCE, DECISION, FIXED, TERMINAL
from gamesolve.game.removal import contest_cfv, fixed_cfv, uidx
from gamesolve.game.removal_multi import three_player_terminal
from gamesolve.game.terminals import terminal_cfv
from gamesolve.rng import splitmix, stream, uniform_index
from gamesolve.solve.kernels.compressed import add_average, add_regrets
from gamesolve.solve.kernels.regret_matching import discount_factors, regret_matching, updated_regret

UPDATE, BEST_RESPONSE, COLLECT = 0, 1, 2
"""Pass modes: CFR updates; best-response values (no updates); reach at the cut nodes only."""

NO_SCALES = np.zeros(0, np.float32)
"""The scales of float tables: none (:data:`VectorTables`)."""

VectorTables = namedtuple("VectorTables", "row_offset regrets avg root_reach regret_scale avg_scale",
                          defaults=(NO_SCALES, NO_SCALES))  # fmt: skip
"""Rows of each owner node (``row_offset``, -1 elsewhere), regrets and average strategy sums
(float32 or float64), and every player's reach ``[P, S]`` at the root. A node's block is
action-major, ``[row_offset + a * S + s]`` for action ``a`` and private state ``s``, so that
regret matching and the updates of a node run over contiguous states (the public rows of
:meth:`~gamesolve.solve.vcfr.VectorCFR.average_rows` are state-major).

16-bit tables (:mod:`gamesolve.solve.kernels.compressed`, postflop-solver's scheme): regrets
``int16`` and average sums ``uint16``, each owner node's block with one float32 scale per
table (``regret_scale[node]``, ``avg_scale[node]``: an entry stands for code x scale). Float
tables have no scales (empty arrays, :data:`NO_SCALES`): the pass tells them apart by that."""

Schedule = namedtuple("Schedule", "rm_plus discount alpha beta gamma sample_chance seed")

FormArrays = namedtuple("FormArrays", "tree term td rm sym")
"""The game's arrays a pass reads: the public tree and the terminals
(:class:`~gamesolve.game.factored.TreeArrays`, ``TerminalArrays``), the terminals' listed deals
(:func:`gamesolve.game.terminals.terminal_cfv`), item removal (:mod:`gamesolve.game.removal`)
and chance symmetry (:mod:`gamesolve.game.symmetry`)."""

Pass = namedtuple("Pass", "p t weight pos_d neg_d mode src use_fixed")
"""One pass: its player and iteration, the iteration's average weight and regret discounts
(:func:`factors`), the mode (UPDATE, BEST_RESPONSE or COLLECT), the table whose regret
matching gives the strategies (``src``: the regrets, or the average for a best response to it)
and whether the rows of :data:`Fixed` take theirs from its buffer. Built with ``p``, ``t`` and
``mode`` as int64 and ``use_fixed`` as a bool wherever it is built (Python or a kernel), so
that every pass shares one compilation."""

Fixed = namedtuple("Fixed", "index owner start sigma seen buffer_slots table_slots probs")
"""Rows whose strategy is set at the start of a pass: ``index[node]`` numbers the owner node
(-1 for rows computed on entry), ``owner[j]`` and ``start[j]`` (its rows in ``sigma``), whether
a pass ``seen`` it, and the frozen entries (``buffer_slots`` in ``sigma``, ``table_slots`` in
the tables, fixed ``probs``)."""

Scratch = namedtuple("Scratch", "node k reach value act sigma chosen sums at val start")
"""Per-thread path buffers (first axis: thread): node and next child per depth, reach
``[D, P, S]``, values ``[D, S]``, action values and strategies ``[D, A, S]``, the sampled
outcome per depth, the terminals' scratch (item sums, positions ``[S + 1]``, values ``[S]``),
and a subtree's starting reach ``[P, S]``."""

Cuts = namedtuple("Cuts", "cut node job_cut job_edge job_order reach value job_value job_done")
"""The threaded split: ``cut[n]`` numbers the first public chance nodes (-1 elsewhere), their
``node``, the jobs (one per outcome: its cut and edge; ``job_order``: the order threads take
them in, values being combined in job order whatever it is), the reach and values at each cut,
each job's values and whether it ran."""


@njit(cache=True, inline="always")
def _block(table, row0, a, n_states):
    """Action ``a``'s entries of the node block at ``row0`` (action-major), as a view. Loops
    index views with their own counter: an index computed from a loaded offset gets numba's
    negative-index wraparound test on every access, which keeps these loops from vectorising
    (regret matching ran about 2x slower)."""
    return table[row0 + a * n_states : row0 + (a + 1) * n_states]


@njit(cache=True, inline="always")
def _node_strategy(table, row0, n_act, n_states, out, scale):
    """Regret matching of a node's block (action-major: ``table[row0 + a * n_states + s]``)
    into ``out[a, s]`` for every private state at once, as
    :func:`~gamesolve.solve.kernels.regret_matching.regret_matching` (``reciprocal``) per state (the
    same operations in the same order, so the same bits), in loops over contiguous states
    that the compiler vectorises (the hottest loop of a pass). ``scale[S]`` is scratch."""
    for s in range(n_states):
        scale[s] = 0.0
    for a in range(n_act):
        blk = _block(table, row0, a, n_states)
        for s in range(n_states):
            v = blk[s]
            scale[s] += v if v > 0.0 else 0.0
    for s in range(n_states):
        total = scale[s]
        scale[s] = 1.0 / total if total > 0.0 else 0.0
    uniform = 1.0 / n_act
    for a in range(n_act):
        blk = _block(table, row0, a, n_states)
        o = out[a]
        for s in range(n_states):
            v = blk[s]
            x = scale[s]
            o[s] = (v if v > 0.0 else 0.0) * x if x > 0.0 else uniform


@njit(cache=True)
def strategies(tree, table, row_offset, n_states, out):
    """The strategy (regret matching, or the normalised average) of every row of ``table``."""
    for node in range(tree.kind.shape[0]):
        if row_offset[node] < 0:
            continue
        n_act = tree.child_start[node + 1] - tree.child_start[node]
        for s in range(n_states):
            regret_matching(table, row_offset[node] + s, n_states, n_act, out, row_offset[node] + s * n_act, True)


@njit(cache=True)
def expand_rows(tree, rows, offset, public_offset, states, n_public, out):
    """Rows over the kept ``states`` into the public layout over ``n_public`` states; states
    left out play uniformly."""
    n_kept = states.shape[0]
    for node in range(tree.kind.shape[0]):
        if offset[node] < 0:
            continue
        n_act = tree.child_start[node + 1] - tree.child_start[node]
        base = public_offset[node]
        for i in range(n_public * n_act):
            out[base + i] = 1.0 / n_act
        for c in range(n_kept):
            for a in range(n_act):
                out[base + states[c] * n_act + a] = rows[offset[node] + c * n_act + a]


@njit(cache=True)
def depth_and_width(tree):
    """The deepest node's depth and the most actions at a decision node (preorder tree)."""
    n = tree.kind.shape[0]
    depth = np.zeros(n, np.int64)
    deepest = 0
    widest = 0
    for node in range(n):
        c0 = tree.child_start[node]
        c1 = tree.child_start[node + 1]
        if tree.kind[node] == DECISION and c1 - c0 > widest:
            widest = c1 - c0
        for k in range(c0, c1):
            depth[tree.child_list[k]] = depth[node] + 1
        if depth[node] > deepest:
            deepest = depth[node]
    return deepest, widest


@njit(cache=True)
def _sampled_child(tree, node, t, seed):
    c0 = tree.child_start[node]
    n = tree.child_start[node + 1] - c0
    _, u = splitmix(stream(seed, np.uint64(t) * np.uint64(0x100000001B3) + np.uint64(node)))
    return uniform_index(u, n)


@njit(cache=True)
def item_terminal(term, rm, node, p, reach_node, out, sums, at, val):
    """Add player ``p``'s values at a terminal with item removal to ``out``, given every
    player's reach ``reach_node[P, S]`` (``sums``, ``at``, ``val``: scratch, see
    :func:`contest_cfv`). Two players: a fixed payoff, or a contest where the winner takes the
    smaller stake (a larger one's excess goes back to its payer); three players (a
    ``RemovalThree`` bundle, :func:`~gamesolve.game.removal_multi.three_player_terminal`):
    :func:`~gamesolve.game.removal_multi.three_player_cfv`."""
    if reach_node.shape[0] != 2:
        three_player_terminal(term, rm, node, p, reach_node, out)
    elif term.kind[node] == FIXED:
        fixed_cfv(reach_node[1 - p], rm.items, rm.n_items, term.payoff[node, p], out, sums, at)
    else:
        path = rm.node_path[node]
        stake = min(term.payoff[node, 0], term.payoff[node, 1])
        contest_cfv(reach_node[1 - p], rm.path_order[path], rm.path_groups[path], rm.path_bounds[path], rm.path_items[path],
                    rm.n_items, stake, -stake, out, sums, at, val)  # fmt: skip


@njit(cache=True)
def _deal(tree, rm, k, reach, out):
    """Every player's reach below chance edge ``k``: the states holding its item lose theirs."""
    item = tree.edge_label[k] if rm.n_items > 0 else -1
    if item < 0:
        for q in range(reach.shape[0]):
            copy_into(out[q], reach[q])
        return
    held = rm.holders[uidx(item)]
    for q in range(reach.shape[0]):
        above, below = reach[q], out[q]
        for s in range(reach.shape[1]):
            below[s] = 0.0 if held[s] else above[s]


@njit(cache=True)
def _add_outcome(tree, rm, sym, k, w, child, out):
    """Add chance edge ``k``'s values ``child`` times ``w`` to ``out`` (states holding its
    item cannot see it), and its twins' permuted values."""
    item = tree.edge_label[k] if rm.n_items > 0 else -1
    n_states = out.shape[0]
    if item < 0:
        for s in range(n_states):
            out[s] += w * child[s]
    else:
        held = rm.holders[uidx(item)]
        for s in range(n_states):
            out[s] = out[s] if held[s] else out[s] + w * child[s]
    for j in range(sym.twin_start[k], sym.twin_start[k + 1]):
        held = rm.holders[uidx(sym.twin_item[j])]
        perm = sym.perms[sym.twin_perm[j]]
        for s in range(n_states):
            out[s] = out[s] if held[s] else out[s] + w * child[uidx(perm[s])]


@njit(cache=True)
def _chance_weight(tree, rm, node, sample_chance):
    """A chance outcome's weight: 1 with listed deals (their probabilities carry chance), the
    dealt item's probability with item removal; a sampled outcome stands for all."""
    n = tree.child_start[node + 1] - tree.child_start[node]
    return rm.chance_weight[node] * (n if sample_chance else 1.0)


@njit(cache=True)
def _discount(regrets, row, n, rm_plus, discount, pos_d, neg_d):
    """Clip (CFR+) or discount (DCFR, Linear CFR) ``n`` regrets from ``row``."""
    for i in range(row, row + n):
        regrets[i] = updated_regret(regrets[i], rm_plus, discount, pos_d, neg_d)


@njit(cache=True, inline="always")
def traverse(form, tables, sched, fixed, cuts, sc, ps, tid, root, out):
    """One depth-first pass (:data:`Pass` ``ps``) for player ``ps.p`` over ``root``'s subtree
    from the reach in ``sc.start[tid]``; the player's values at ``root`` go to ``out``. Cut
    nodes are leaves: COLLECT stores their reach, the other modes read their values from
    ``cuts.value``.

    Inlined (numba IR) into :func:`one_pass`, its only caller, at one call site: as a kernel
    of its own it compiled once, and then again inside every kernel that called it, because
    numba links a callee's LLVM module into the caller's and optimises the whole again
    (issue 36: traverse, one_pass and the old iteration loop took about 10 s each per table
    type)."""
    tree, term, td, rm, sym = form.tree, form.term, form.td, form.rm, form.sym
    p, t, weight, pos_d, neg_d, mode, src, use_fixed = ps.p, ps.t, ps.weight, ps.pos_d, ps.neg_d, ps.mode, ps.src, ps.use_fixed
    seed = sched.seed
    node_at, k_at, R, V, act, sig, chosen, sums, at, val = (
        sc.node[tid], sc.k[tid], sc.reach[tid], sc.value[tid], sc.act[tid], sc.sigma[tid], sc.chosen[tid], sc.sums[tid],
        sc.at[tid], sc.val[tid],
    )  # fmt: skip
    n_players = R.shape[1]
    n_states = R.shape[2]
    off = tables.row_offset
    rm_plus, discount, sample = sched.rm_plus, sched.discount, sched.sample_chance
    packed = tables.regret_scale.shape[0] > 0  # 16-bit tables
    for q in range(n_players):
        for s in range(n_states):
            R[0, q, s] = sc.start[tid, q, s]
    node_at[0] = root
    d = 0
    entering = True
    while True:
        node = node_at[d]
        kind = tree.kind[node]
        c0 = tree.child_start[node]
        n = tree.child_start[node + 1] - c0
        if entering:
            entering = False
            k_at[d] = 0
            c = cuts.cut[node]
            if c >= 0:
                if mode == COLLECT:
                    for q in range(n_players):
                        for s in range(n_states):
                            cuts.reach[c, q, s] = R[d, q, s]
                for s in range(n_states):
                    V[d, s] = cuts.value[c, s] if mode != COLLECT else 0.0
                k_at[d] = n
            elif kind == TERMINAL:
                V[d, :] = 0.0
                if mode != COLLECT:
                    if rm.n_items == 0:
                        terminal_cfv(td, node, p, R[d], V[d])
                    else:
                        item_terminal(term, rm, node, p, R[d], V[d], sums, at, val)
            elif kind == CHANCE:
                V[d, :] = 0.0
                chosen[d] = _sampled_child(tree, node, t, seed) if sample else -1
            else:
                owner = tree.row_owner[node]
                own = tree.player[node] == p
                for s in range(n_states):
                    V[d, s] = -np.inf if own and mode == BEST_RESPONSE else 0.0
                j = fixed.index[owner] if use_fixed else -1
                if j >= 0:
                    base = fixed.start[j]
                    for s in range(n_states):
                        for a in range(n):
                            sig[d, a, s] = fixed.sigma[base + s * n + a]
                else:
                    # act[d] is free until the first child returns: its first row is scratch.
                    _node_strategy(src, off[owner], n, n_states, sig[d], act[d, 0])
                if own and mode == UPDATE and owner == node and packed:
                    # act[d] is free until the first child returns: the decoded block.
                    add_average(tables.avg, tables.avg_scale, node, off[node], n, n_states, R[d, p], weight, sig[d], act[d])
                elif own and mode == UPDATE and owner == node:
                    reach_p = R[d, p]
                    for a in range(n):
                        blk = _block(tables.avg, off[node], a, n_states)
                        sig_a = sig[d, a]
                        for s in range(n_states):
                            blk[s] += reach_p[s] * weight * sig_a[s]
                if own and mode == UPDATE and j >= 0:
                    fixed.seen[j] = True
        k = k_at[d]
        if k < n and kind == CHANCE and chosen[d] >= 0 and k != chosen[d]:
            k_at[d] = k + 1
            continue
        if k < n:
            # Down to child k.
            if kind == CHANCE:
                _deal(tree, rm, c0 + k, R[d], R[d + 1])
            else:
                actor = tree.player[node]
                for q in range(n_players):
                    above, below = R[d, q], R[d + 1, q]
                    if q == actor:
                        sig_k = sig[d, k]
                        for s in range(n_states):
                            below[s] = above[s] * sig_k[s]
                    else:
                        copy_into(below, above)
            node_at[d + 1] = tree.child_list[c0 + k]
            d += 1
            entering = True
            continue
        # Leaving: decision nodes of p finish their values and regrets.
        if kind == DECISION and tree.player[node] == p and mode == UPDATE:
            row0 = off[tree.row_owner[node]]
            # Shared and frozen rows are discounted once, after the pass.
            now = fixed.index[tree.row_owner[node]] < 0
            clip, scaled = now and rm_plus, now and discount
            value = V[d]
            if packed:
                add_regrets(tables.regrets, tables.regret_scale, tree.row_owner[node], row0, n, n_states, act[d], value,
                            clip, scaled, pos_d, neg_d)  # fmt: skip
            else:
                for a in range(n):
                    blk = _block(tables.regrets, row0, a, n_states)
                    act_a = act[d, a]
                    for s in range(n_states):
                        blk[s] = updated_regret(blk[s] + (act_a[s] - value[s]), clip, scaled, pos_d, neg_d)
        if d == 0:
            break
        # Up: the parent takes this node's values.
        d -= 1
        parent = node_at[d]
        k = k_at[d]
        pk = tree.kind[parent]
        if pk == CHANCE:
            _add_outcome(tree, rm, sym, tree.child_start[parent] + k, _chance_weight(tree, rm, parent, sample), V[d + 1], V[d])
        else:
            value, child = V[d], V[d + 1]
            if tree.player[parent] == p and mode == BEST_RESPONSE:
                for s in range(n_states):
                    if child[s] > value[s]:
                        value[s] = child[s]
            elif tree.player[parent] == p:
                act_k, sig_k = act[d, k], sig[d, k]
                for s in range(n_states):
                    act_k[s] = child[s]
                    value[s] += sig_k[s] * child[s]
            else:
                for s in range(n_states):
                    value[s] += child[s]
        k_at[d] = k + 1
    for s in range(n_states):
        out[s] = V[0, s]


@njit(cache=True)
def _root_start(tables, sc):
    for q in range(tables.root_reach.shape[0]):
        for s in range(tables.root_reach.shape[1]):
            sc.start[0, q, s] = tables.root_reach[q, s]


WHOLE, TOP, JOBS, FINISH, RUN = 0, 1, 2, 3, 4
"""Phases of :func:`one_pass`: the whole pass on one thread, or, threaded from Python
(:meth:`gamesolve.solve.vcfr.VectorCFR`), the walk above the cuts collecting their reach, a
block of the cut subtrees (one per thread), and the combination and the walk above them;
``RUN``: whole passes for iterations ``ps.t..t_last``, one per player each (:func:`run`)."""


@njit(cache=True, nogil=True)
def one_pass(form, tables, sched, fixed, cuts, no_cuts, sc, ps, out, phase, lo, hi, tid, t_last, n_players):
    """A pass (:data:`Pass` ``ps``) from the root (see :func:`traverse`), or one phase of it;
    the player's root values go to ``out``. With cut nodes the pass walks the tree above them (collecting their
    reach), runs the jobs ``job_order[lo:hi]`` (every job for ``WHOLE``) with thread
    ``tid``'s buffers, combines the outcomes in job order and walks the top again with them.
    Threads are Python's (:func:`gamesolve.threads.run_parts` over ``JOBS`` blocks), not a
    ``prange``: a parallel kernel compiles the whole pass again for its loop.

    ``RUN`` runs iterations ``ps.t..t_last`` here, ``n_players`` whole passes each, each pass
    between :func:`_fill_fixed` and :func:`_finish_fixed` (its :data:`Pass` made from ``ps``:
    ``src`` the regrets, ``use_fixed`` true). One kernel serves every phase and every walk
    of a pass calls :func:`traverse` at the one site below, so that the walk is compiled once
    (see :func:`traverse`)."""
    tree, rm, sym = form.tree, form.rm, form.sym
    n_states = tables.root_reach.shape[1]
    n_jobs = cuts.job_cut.shape[0]
    seed = sched.seed
    # Every walk passes thread, root and mode as plain int64 (not literals, not int32).
    zero = np.int64(0)
    iterating = phase == RUN
    whole = phase == WHOLE or iterating
    # The walks of a pass, by number: -1 the walk above the cuts collecting their reach,
    # 0..n_jobs-1 the jobs in job order, n_jobs the walk from the root with the jobs' values.
    if n_jobs == 0:
        first, last = n_jobs, n_jobs
    elif whole:
        first, last = -1, n_jobs
    elif phase == TOP:
        first, last = -1, -1
    elif phase == JOBS:
        first, last = lo, hi - 1
    else:
        first, last = n_jobs, n_jobs
    thread = tid if phase == JOBS else zero
    for t in range(ps.t, (t_last if iterating else ps.t) + 1):
        weight, pos_d, neg_d = factors(sched, t)
        for p in range(n_players if iterating else 1):
            cur = ps
            if iterating:
                _fill_fixed(tree, tables, fixed)
                cur = Pass(np.int64(p), np.int64(t), weight, pos_d, neg_d, np.int64(UPDATE), ps.src, ps.use_fixed)
            for w in range(first, last + 1):
                q, walk_cuts, walk_thread, root, dest = cur, cuts, zero, zero, out
                if w == -1:
                    _root_start(tables, sc)
                    q = Pass(cur.p, cur.t, cur.weight, cur.pos_d, cur.neg_d, np.int64(COLLECT), cur.src, cur.use_fixed)
                elif w < n_jobs:
                    j = cuts.job_order[w]
                    node = cuts.node[cuts.job_cut[j]]
                    k = cuts.job_edge[j]
                    run_it = not sched.sample_chance or k - tree.child_start[node] == _sampled_child(tree, node, cur.t, seed)
                    cuts.job_done[j] = run_it
                    if not run_it:
                        continue
                    _deal(tree, rm, k, cuts.reach[cuts.job_cut[j]], sc.start[thread])
                    walk_cuts, walk_thread, root, dest = no_cuts, thread, np.int64(tree.child_list[k]), cuts.job_value[j]
                elif n_jobs == 0:
                    _root_start(tables, sc)
                    walk_cuts = no_cuts
                else:
                    for c in range(cuts.node.shape[0]):
                        for s in range(n_states):
                            cuts.value[c, s] = 0.0
                    for j in range(n_jobs):
                        if cuts.job_done[j]:
                            c = cuts.job_cut[j]
                            cw = _chance_weight(tree, rm, cuts.node[c], sched.sample_chance)
                            _add_outcome(tree, rm, sym, cuts.job_edge[j], cw, cuts.job_value[j], cuts.value[c])
                    _root_start(tables, sc)  # thread 0 started jobs from it
                traverse(form, tables, sched, fixed, walk_cuts, sc, q, walk_thread, root, dest)
            if iterating:
                _finish_fixed(tree, tables, fixed, sched, p, pos_d, neg_d)


@njit(cache=True)
def _fill_fixed(tree, tables, fixed):
    """The pass-start strategy of shared and frozen rows."""
    n_states = tables.root_reach.shape[1]
    for j in range(fixed.owner.shape[0]):
        node = fixed.owner[j]
        n_act = tree.child_start[node + 1] - tree.child_start[node]
        for s in range(n_states):
            regret_matching(tables.regrets, tables.row_offset[node] + s, n_states, n_act, fixed.sigma, fixed.start[j] + s * n_act, True)
        fixed.seen[j] = False
    for i in range(fixed.buffer_slots.shape[0]):
        fixed.sigma[fixed.buffer_slots[i]] = fixed.probs[i]


@njit(cache=True)
def _finish_fixed(tree, tables, fixed, sched, p, pos_d, neg_d):
    """Discount the shared and frozen rows ``p``'s pass saw; frozen regrets stay 0."""
    n_states = tables.root_reach.shape[1]
    for j in range(fixed.owner.shape[0]):
        node = fixed.owner[j]
        if fixed.seen[j] and tree.player[node] == p:
            n_act = tree.child_start[node + 1] - tree.child_start[node]
            _discount(tables.regrets, tables.row_offset[node], n_states * n_act, sched.rm_plus, sched.discount, pos_d, neg_d)
    for i in range(fixed.table_slots.shape[0]):
        tables.regrets[fixed.table_slots[i]] = 0.0


@njit(cache=True)
def add_mean(table, n, bases):
    """Add to ``table[:n]`` the mean of the blocks ``table[b : b + n]`` for ``b`` in
    ``bases`` (summed in that order, in float64), and zero those blocks."""
    k = bases.shape[0]
    for i in range(n):
        total = 0.0
        for j in range(k):
            total += table[bases[j] + i]
            table[bases[j] + i] = 0.0
        table[i] += total / k


@njit(cache=True)
def factors(sched, t):
    """Iteration ``t``'s average weight and positive / negative regret discounts."""
    return discount_factors(t, sched.discount, sched.alpha, sched.beta, sched.gamma)


def run(form, tables, sched, fixed, cuts, no_cuts, sc, t_first, t_last, n_players, out) -> None:
    """Iterations ``t_first..t_last`` (1-based), one pass per player each, on one thread: one
    call of :func:`one_pass` (``RUN``)."""
    ps = Pass(0, int(t_first), 0.0, 1.0, 1.0, UPDATE, tables.regrets, True)
    one_pass(form, tables, sched, fixed, cuts, no_cuts, sc, ps, out, RUN, 0, 0, 0, int(t_last), int(n_players))
