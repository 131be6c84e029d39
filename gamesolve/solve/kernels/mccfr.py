"""Numba kernels of external-sampling MCCFR with negative-regret pruning (Algorithm 1 of
the Pluribus supplement), over a game in factored form (:mod:`gamesolve.game.factored`).

Tables are one int32 regret arena; a decision node's rows (one per private state of its
round) are allocated on the first visit of the node that owns them (``row_owner``) from a
per-thread reservoir, and ``node_offset[owner]`` points at them (-1 until then). Round-0
rows sit at the start of the arena and are allocated up front, so the round-0 average
``phi`` shares their offsets.

Threads share the arena without locks (Hogwild style): a lost update is possible when two
threads write one regret at once, and two threads allocating the same node at once leave
one orphaned row. Both are rare and harmless to convergence; one thread is deterministic.

Arguments travel in typed bundles (namedtuples of arrays and scalars): the public tree and
the terminals (:class:`~gamesolve.game.factored.TreeArrays`, ``TerminalArrays``), the deals
of the batch (:data:`DealArrays`), the tables (:data:`Tables`), per-thread scratch
(:data:`Scratch`) and the schedule's settings for the batch (:data:`Settings`).

Performance note: every call of a numba function with array arguments updates each
array's reference count atomically (~20 ns each), and so does every array taken from a
bundle inside a loop; ``inline="always"`` does not avoid it. The traversal therefore runs
inside one function for a whole batch of iterations, with the bundles' arrays in locals and
scalar-only helpers; terminals are read in place (``FIXED`` and ``TABLE`` directly, only a
``CONTEST`` calls :func:`~gamesolve.game.terminals.contest_value`). Calling
``terminal_value`` with the terminal bundle cost 1.5x on Liar's Dice (``TABLE`` terminals)
and 1.3x on Leduc: a quarter of the time went to reference counts. (``ROLLOUT`` leaves call
:func:`~gamesolve.game.rollout.rollout_value` with their bundle: a leaf's rollout is long.)

Why the row cache's undo log stays in this kernel's source (issue #35 asked whether it could
leave): a distributed worker with a row cache (:mod:`gamesolve.distribute.row_cache`) must
run the *same* iterations as a replica, so it runs this traversal, with four hooks in its
loop (the allocation point records a miss instead of allocating; a regret update, a sampled
average and a phi entry are logged before they are written; a deferred iteration is rolled
back). The bundle, the log and the roll back are in :mod:`gamesolve.solve.kernels.row_fetch`.
The hooks themselves cannot leave the loop at no cost: a second traversal for caches would
be a copy of the hot loop kept in step by hand (and a cache's iterations equal a replica's
only while the two agree), and hooks passed in as numba functions would be called with the
bundle's arrays, the reference-count cost measured above (1.3-1.5x). Nor can they stay
free where they are: present but off (one test of a local boolean each) they cost one
process's Leduc MCCFR about 5% (``benchmarks/compare_commits.py --what mccfr --game leduc``,
docs/benchmarks.md). So they leave the *compiled* kernel instead: one process's trainer
passes :data:`~gamesolve.solve.kernels.row_fetch.NoFetch`, a bundle type of its own, for
which :func:`~gamesolve.solve.kernels.row_fetch.is_on` is the constant False and numba
compiles the traversal with every hook folded away (the same bits); a row cache's
``Fetch`` gets the other compilation.
"""

from __future__ import annotations

import math
from collections import namedtuple

import numpy as np
from numba import njit

from gamesolve.game.factored import CHANCE, CONTEST, DECISION, FIXED, TABLE, TERMINAL
from gamesolve.game.rollout import rollout_value
from gamesolve.game.terminals import contest_value
from gamesolve.rng import categorical, splitmix, stream, uniform_index
from gamesolve.solve.kernels.regret_matching import regret_matching
from gamesolve.solve.kernels.row_fetch import is_on, roll_back, undo
from gamesolve.solve.kernels.prefetch import prefetch

INT32_MAX = 2147483647

DealArrays = namedtuple("DealArrays", "private public strength index cont cont_strength")
"""A batch of deals (:class:`~gamesolve.game.deals.DealBatch`'s arrays), one per iteration."""

Tables = namedtuple("Tables", "node_offset regrets avg phi res_next res_end rng visited dropped saturated touched")
"""The run's tables and per-thread state: row offsets, int32 regrets, sampled averages
(float64, empty unless ``average=sampled``), the round-0 average ``phi``, reservoirs, random
states, counters (nodes visited, row allocations dropped, regrets saturated at int32's top),
and ``touched`` (uint8 per node, or empty: not kept): set to 1 at the row owner of every
regret or average written, so a distributed worker sends only the rows it changed."""

Scratch = namedtuple("Scratch", "st_node st_k st_row st_val st_sig st_expl us_stack us_sig")
"""Per-thread traversal stacks: the traverser's frames and UPDATE-STRATEGY's node stack."""

Frozen = namedtuple("Frozen", "node_slot private start probs")
"""Information sets whose strategy is fixed (a searcher's own earlier actions with its actual
hand): ``node_slot[node]`` (-1: none) indexes the frozen private state and its probabilities
(``probs[start[j]:start[j + 1]]``). They are played like chance, with no regrets."""

Settings = namedtuple(
    "Settings",
    "n_players prune_active prune_probability prune_last_round scale prune_threshold regret_floor "
    "accumulate_avg strategy_every last_round refill_below prefetch",
)
"""Scalars of Algorithm 1 for one batch (pruning active or not, thresholds, the regret unit),
and ``refill_below``: a thread returns for a fresh reservoir when its own holds fewer entries
(0 once the arena is full: the run goes on, and rows that do not fit are dropped and counted).
``prefetch``: the traversal prefetches the children of each decision node (for trees whose node
records do not stay in cache: :data:`PREFETCH_NODES`)."""

PREFETCH_NODES = 1 << 20
"""Trees of at least this many nodes (16 MiB of :data:`NODE_RECORD`) are traversed with
prefetches (``Settings.prefetch``, :data:`EDGE_RECORD`): on hold'em ``small`` (9.6M nodes)
they measured 1.19x (one thread; 1.25x with two, docs/benchmarks.md); ``tiny`` (234k nodes
since open limps left the tree, its tables in the processor's last-level cache) runs about 1.07x
faster without them, and Leduc (240 nodes, all in cache) measured 0.90x with them."""


NODE_RECORD = np.dtype(
    [("kind", np.uint8), ("aux", np.uint8), ("round", np.uint8), ("frozen", np.uint8),
     ("n_act", np.uint16), ("settled", np.uint16), ("c0", np.int32), ("owner", np.int32)]
)
"""What the traversal reads of a node, in one 16-byte record (four to a cache line) instead of
eight arrays (kind, player, round, child_start twice, row_owner, frozen slot, settled, terminal
kind): on hold'em's 1.8M-node tree every field was a cache line of its own. ``aux`` is the
player at a decision, the terminal kind at a terminal and the deal level at public chance;
``frozen`` is 1 where :data:`Frozen` has a slot; ``settled`` has bit ``p`` where
``settled[node, p]``; ``c0`` and ``n_act`` locate the children in ``child_list``."""


def node_records(tree, term_kind, frozen_slot) -> np.ndarray:
    """:data:`NODE_RECORD` of every node of ``tree`` (a :class:`~gamesolve.game.factored.TreeArrays`)."""
    n, players = tree.settled.shape
    n_act = np.diff(tree.child_start)
    aux = np.where(tree.kind == DECISION, tree.player, np.where(tree.kind == TERMINAL, term_kind, tree.level))
    if players > 16 or aux.max(initial=0) > 255 or tree.round.max(initial=0) > 255 or n_act.max(initial=0) > 65535:
        raise ValueError("the node records hold up to 16 players, 255 rounds or levels and 65535 children")
    rec = np.zeros(n, NODE_RECORD)
    rec["kind"], rec["aux"], rec["round"] = tree.kind, aux, tree.round
    rec["frozen"] = frozen_slot >= 0
    rec["n_act"], rec["c0"], rec["owner"] = n_act, tree.child_start[:-1], tree.row_owner
    rec["settled"] = (tree.settled.astype(np.uint16) << np.arange(players, dtype=np.uint16)).sum(axis=1, dtype=np.uint16)
    return rec


EDGE_RECORD = np.dtype([("row", np.int64), ("c0", np.int32), ("n_act", np.uint16), ("player", np.uint8), ("round", np.uint8)])
"""What a node's parent knows of the child at the end of each edge, one 16-byte record per edge
(``child_list``'s order; kept for trees of :data:`PREFETCH_NODES` or more), so that the
children's regret rows can be asked for before any child is visited: the child's row offset
as last seen (``row``: -1 until a visit finds it allocated; a prefetch hint only, rows are
always located through ``node_offset``), its first edge, its actions (0 at a terminal), and
the player and round that pick its row."""


def edge_records(tree, node_offset) -> np.ndarray:
    """:data:`EDGE_RECORD` of every edge of ``tree``, the row hints from ``node_offset``."""
    child = tree.child_list
    n_act = np.diff(tree.child_start)
    rec = np.zeros(len(child), EDGE_RECORD)
    rec["c0"], rec["n_act"] = tree.child_start[:-1][child], n_act[child]
    rec["player"] = np.where(tree.kind == DECISION, tree.player, 0)[child]
    rec["round"] = tree.round[child]
    rec["row"] = edge_rows(tree, node_offset)
    return rec


def edge_rows(tree, node_offset) -> np.ndarray:
    """Each edge's row hint (see :data:`EDGE_RECORD`) from the offsets in ``node_offset``."""
    child = tree.child_list
    off = node_offset[tree.row_owner[child]].astype(np.int64)
    return np.where(tree.kind[child] == DECISION, off, -1)


@njit(cache=True, inline="always")
def chance_child(tree, deals, node, d):
    """The child of public chance ``node`` that deal ``d`` leads to (its outcome at the node's level)."""
    c0 = tree.child_start[node]
    return outcome_child(tree.child_list, tree.edge_label, c0, tree.child_start[node + 1] - c0, deals.public[d, tree.level[node]])


@njit(cache=True, inline="always")
def outcome_child(child_list, edge_label, c0, n_act, outcome):
    """The child among ``child_list[c0 : c0 + n_act]`` whose edge is labelled ``outcome``."""
    return child_list[outcome_edge(edge_label, c0, n_act, outcome)]


@njit(cache=True, inline="always")
def outcome_edge(edge_label, c0, n_act, outcome):
    """The edge among ``c0 .. c0 + n_act - 1`` labelled ``outcome``."""
    for k in range(c0, c0 + n_act):
        if edge_label[k] == outcome:
            return k
    return c0  # unreachable for a consistent form (checked when compiled)


@njit(cache=True)
def update_strategy(p, d, tree, deals, tables, state, stack, sig, fetch, thread):
    """UPDATE-STRATEGY (Algorithm 1): on the first betting round, follow one sampled action
    of ``p`` (counting it in ``phi``) and every action of the others. Takes and returns
    the random state. (With a row cache, ``fetch``, the phi writes go to ``thread``'s undo log.)"""
    stack[0] = 0
    top = 1
    while top > 0:
        top -= 1
        node = stack[top]
        kind = tree.kind[node]
        if tree.round[node] > 0 or tree.settled[node, p]:
            continue
        if kind == CHANCE:
            stack[top] = chance_child(tree, deals, node, d)
            top += 1
            continue
        if kind != DECISION:
            continue
        player = tree.player[node]
        c0 = tree.child_start[node]
        n_act = tree.child_start[node + 1] - c0
        row = tables.node_offset[tree.row_owner[node]] + deals.private[d, player, 0] * n_act
        if player == p:
            regret_matching(tables.regrets, row, 1, n_act, sig, 0, False)
            state, u = splitmix(state)
            a = categorical(u, sig, 0, n_act)
            if is_on(fetch) and not undo(fetch, thread, d, tables.phi, row + a, 1, 2, -1):
                continue
            tables.phi[row + a] += 1.0
            stack[top] = tree.child_list[c0 + a]
            top += 1
        else:
            for a in range(n_act):
                stack[top] = tree.child_list[c0 + a]
                top += 1
    return state


@njit(cache=True)
def update_strategy_exact(p, tree, node_offset, regrets, phi, weight, stack, reach, sig):
    """UPDATE-STRATEGY without sampling (``strategy_update=exact``): on the first betting
    round, add to ``phi`` ``weight`` times ``p``'s reach times the current strategy, for every
    private state of ``p`` at once, following every action of everyone. This is the
    expectation of what :func:`update_strategy` adds on a sampled deal and action (per row,
    up to the deal's probability of the state, which a row's normalisation removes): the
    reach-weighted average of CFR. ``stack`` (int32) and ``reach`` (rows of the round's
    private states) hold one entry per pending node: at least depth x widest node + 1."""
    n_states = reach.shape[1]
    stack[0] = 0
    for s in range(n_states):
        reach[0, s] = 1.0
    top = 1
    while top > 0:
        top -= 1
        node = stack[top]
        if tree.round[node] > 0 or tree.settled[node, p]:
            continue
        kind = tree.kind[node]
        if kind != DECISION and kind != CHANCE:
            continue
        c0 = tree.child_start[node]
        n_act = tree.child_start[node + 1] - c0
        if kind == CHANCE or tree.player[node] != p:
            # public chance or another player: every child, with p's reach unchanged
            for a in range(n_act - 1, -1, -1):
                stack[top + a] = tree.child_list[c0 + a]
                if a > 0:
                    for s in range(n_states):
                        reach[top + a, s] = reach[top, s]
            top += n_act
            continue
        base = node_offset[tree.row_owner[node]]
        # children go to top .. top + n_act - 1; the node's own reach (at top) is read first
        for s in range(n_states):
            r = reach[top, s]
            row = base + s * n_act
            regret_matching(regrets, row, 1, n_act, sig, 0, False)
            for a in range(n_act - 1, -1, -1):
                if r > 0.0:
                    phi[row + a] += np.float32(weight * r * sig[a])
                reach[top + a, s] = r * sig[a]
        for a in range(n_act):
            stack[top + a] = tree.child_list[c0 + a]
        top += n_act


@njit(cache=True, nogil=True)
def run_thread(thread, n_iters, t_start, cursor, tree, nodes, edges, term, deals, tables, scratch, cfg, frozen, ro, fetch):
    """Iterations of one thread: a traversal per player each (Algorithm 1, lines 8-19).

    Iteration ``i`` of the thread is global iteration ``t_start[thread] + i + 1`` and uses
    deal ``cursor[thread] + i`` of the batch (one deal per iteration, shared by its
    traversals: each traversal still sees one unbiased sample of chance). Each traversal is
    TRAVERSE-MCCFR, or TRAVERSE-MCCFR-P when pruning is active and a draw falls under
    ``prune_probability``. A frame is pushed only at the traverser's decision nodes;
    opponents' actions and public chance are sampled in place. Returns the iterations
    completed (fewer when the thread's reservoir runs low, so the driver can refill it). A
    node whose rows do not fit the reservoir is played uniformly, unlearned, and counted in
    ``tables.dropped``. With a row cache (``fetch.on``, see :data:`~gamesolve.solve.kernels.row_fetch.Fetch`) deal ``d`` is
    global iteration ``fetch.number[d]``, absent rows are recorded instead of allocated, and
    an iteration that meets one is undone and marked deferred.
    """
    st_node, st_k, st_row, st_val, st_sig, st_expl = (
        scratch.st_node, scratch.st_k, scratch.st_row, scratch.st_val, scratch.st_sig, scratch.st_expl,
    )  # fmt: skip
    # Locals rather than tuple fields in the hot loop: hold'em trained 1.2x faster than with
    # tuple fields (benchmarks/compare_commits.py).
    # A node's own fields come from its record (``nodes``, :data:`NODE_RECORD`): one cache line
    # where the tree's arrays took one each.
    child_list, edge_label, public = tree.child_list, tree.edge_label, deals.public
    settled_value, num_private = tree.settled_value, tree.num_private
    private, strength, index, cont, cont_strength = deals.private, deals.strength, deals.index, deals.cont, deals.cont_strength
    term_payoff, term_contender, term_row, term_table = term.payoff, term.contender, term.row, term.table
    frozen_slot, frozen_private, frozen_start, frozen_probs = frozen.node_slot, frozen.private, frozen.start, frozen.probs
    regrets, avg, dropped, saturated = tables.regrets, tables.avg, tables.dropped, tables.saturated
    node_offset = tables.node_offset
    touched = tables.touched
    mark = touched.shape[0] > 0
    res_next, res_end = tables.res_next, tables.res_end
    scale, regret_floor, prune_threshold = cfg.scale, cfg.regret_floor, cfg.prune_threshold
    prefetching = cfg.prefetch
    payoff_flat, payoff_cols = term_payoff.reshape(-1), term_payoff.shape[1]  # a terminal's payoffs, for prefetches
    fetching = is_on(fetch)  # a constant False for one process's bundle (row_fetch.NoFetch)
    deferred, seen = fetch.deferred, fetch.seen
    state = tables.rng[thread]
    count = 0
    done = 0
    for i in range(n_iters):
        if res_end[thread] - res_next[thread] < cfg.refill_below:
            break
        d = cursor[thread] + i
        number = t_start[thread] + i + 1
        count_before = count
        if fetching:
            number = fetch.number[d]
            state = stream(fetch.seed, number)  # the iteration's own stream: a rerun is the same iteration
            fetch.undo_n[thread] = 0
        if cfg.strategy_every > 0 and number % cfg.strategy_every == 0:
            # Lines 9-10: UPDATE-STRATEGY for every player every Strategy_Interval iterations.
            for p in range(cfg.n_players):
                state = update_strategy(p, d, tree, deals, tables, state, scratch.us_stack[thread], scratch.us_sig[thread], fetch, thread)
        for p in range(cfg.n_players):
            state, u = splitmix(state)
            prune = cfg.prune_active and u < cfg.prune_probability
            # ---- one traversal for player p on deal d -----------------------------------
            top = -1
            # typed, not the literal 0: numba would also compile the leaves' callees
            # (rollout_value, contest_layers) for node Literal[int](0), never run (issue 36)
            node = np.int64(0)
            via = np.int64(-1)  # the edge that led to node (-1: the root)
            pbit = 1 << p
            while True:
                count += 1
                rec = nodes[node]
                kind = rec.kind
                if kind == CHANCE:  # chance_child, with the record's fields
                    via = outcome_edge(edge_label, rec.c0, rec.n_act, public[d, rec.aux])
                    node = child_list[via]
                    continue
                if kind != DECISION or rec.settled & pbit:
                    tk = rec.aux
                    if kind == DECISION:
                        v = settled_value[node, p]  # line 19: P_i's result is fixed from here
                    elif tk == FIXED:  # gamesolve.game.terminals.terminal_value, in place
                        v = term_payoff[node, p]
                    elif tk == TABLE:
                        v = term_table[index[d], term_row[node], p]
                    elif tk == CONTEST:
                        v = contest_value(term_payoff, term_contender, node, p, strength, d)
                    else:  # ROLLOUT: a depth-limited subgame's leaf
                        v = rollout_value(ro, term_payoff, node, p, cont, cont_strength, d)
                    # Climb: hand the value to the traverser's frames until one has more to explore.
                    finished = False
                    while True:
                        if top < 0:
                            finished = True
                            break
                        k = st_k[thread, top]
                        st_val[thread, top, k] = v
                        nd = st_node[thread, top]
                        n_act = nodes[nd].n_act
                        k += 1
                        while k < n_act and not st_expl[thread, top, k]:
                            k += 1
                        if k < n_act:
                            st_k[thread, top] = k
                            via = nodes[nd].c0 + k
                            node = child_list[via]
                            break
                        # Lines 29-33 (lines 20-22 with pruning): value and regret update.
                        v = 0.0
                        for a in range(n_act):
                            if st_expl[thread, top, a]:
                                v += st_sig[thread, top, a] * st_val[thread, top, a]
                        row = st_row[thread, top]
                        if row >= 0 and fetching and not undo(fetch, thread, d, regrets, row, n_act, 0, nodes[nd].owner):
                            row = -1  # a deferred iteration writes nothing more
                        if row >= 0:
                            if mark and not fetching:
                                touched[nodes[nd].owner] = 1
                            for a in range(n_act):
                                if st_expl[thread, top, a]:
                                    r = regrets[row + a] + np.int64(math.floor((st_val[thread, top, a] - v) * scale + 0.5))
                                    # The floor (Pluribus: -310,000,000) lets pruned actions recover
                                    # and, with the cap, keeps int32 from overflowing.
                                    if r < regret_floor:
                                        r = regret_floor
                                    elif r > INT32_MAX:
                                        r = INT32_MAX
                                        saturated[thread] += 1
                                    regrets[row + a] = r
                        top -= 1
                    if finished:
                        break
                    continue
                player = rec.aux
                rnd = rec.round
                c0 = rec.c0
                n_act = np.int64(rec.n_act)
                if rec.frozen and private[d, player, rnd] == frozen_private[frozen_slot[node]]:
                    # A frozen information set acts as chance for everyone (Algorithm 2, line 13).
                    j = frozen_slot[node]
                    state, u = splitmix(state)
                    via = c0 + categorical(u, frozen_probs, frozen_start[j], n_act)
                    node = child_list[via]
                    continue
                owner = rec.owner
                # Lazy allocation: a node's rows appear when it (or a node sharing them) is first reached.
                off = node_offset[owner]
                if fetching:
                    if off >= 0:
                        seen[owner] = 1
                    else:  # not in the cache: fetch it and run the iteration again
                        deferred[d] |= 1
                        if fetch.miss_n[thread] < fetch.miss.shape[1]:
                            fetch.miss[thread, fetch.miss_n[thread]] = owner
                            fetch.miss_n[thread] += 1
                elif off < 0:
                    size = num_private[rnd] * n_act
                    start = res_next[thread]
                    if start + size <= res_end[thread]:
                        res_next[thread] = start + size
                        node_offset[owner] = start
                        off = start
                    else:
                        dropped[thread] += 1
                row = -1 if off < 0 else off + private[d, player, rnd] * n_act
                if prefetching:
                    # A large tree (cfg.prefetch): for each child, its record, its own edges and,
                    # where an earlier visit left its row offset on the edge (as this visit does
                    # just below), its regret row (else its row offset; a terminal's payoffs) are
                    # asked for while this node's row comes in, so whichever child is next has its
                    # misses under way. Hold'em (session 23's 1.8M-node tree) spent ~60% of the
                    # traversal waiting on record -> offset -> row, one after the other.
                    if via >= 0 and off >= 0 and edges[via].row != off:
                        edges[via].row = off
                    for a in range(n_act):
                        child = child_list[c0 + a]
                        e = edges[c0 + a]
                        prefetch(nodes, child)
                        if e.n_act == 0:
                            prefetch(payoff_flat, child * payoff_cols)
                        else:
                            prefetch(edges, e.c0)
                            if e.row >= 0:
                                prefetch(regrets, e.row + private[d, e.player, e.round] * e.n_act)
                            else:
                                prefetch(node_offset, child)
                # Regret matching (gamesolve.solve.kernels.regret_matching) is written out in this
                # loop, with the same results: its sum shares the opponent's and the traverser's
                # loops below. The opponent's draw is the shared rng.categorical (issue #35: with
                # integer sums it measured 1.15x Leduc, 1.11x Liar's Dice against the written-out
                # draw, in-process A/B, session 23; docs/benchmarks.md).
                # The positive regrets are summed as integers, without a branch: a double sum of
                # int32 values is exact below 2^53, so ``total`` has the bits of the double sum
                # (regret_matching.positive_total) at a quarter of its latency per action.
                itotal = 0
                if row >= 0:
                    for a in range(n_act):
                        itotal += max(regrets[row + a], 0)
                total = float(itotal)
                if player == p:
                    top += 1
                    st_node[thread, top] = node
                    st_row[thread, top] = row
                    prunable = prune and row >= 0 and (cfg.prune_last_round or rnd != cfg.last_round)
                    any_explored = False
                    for a in range(n_act):
                        if total > 0.0:
                            r = regrets[row + a]
                            st_sig[thread, top, a] = r / total if r > 0 else 0.0
                        else:
                            st_sig[thread, top, a] = 1.0 / n_act
                        explore = True
                        if prunable and regrets[row + a] <= prune_threshold:
                            child = child_list[c0 + a]
                            # Actions straight to a terminal (or out of the game) are never pruned.
                            if nodes[child].kind != TERMINAL and not nodes[child].settled & pbit:
                                explore = False
                        st_expl[thread, top, a] = explore
                        any_explored = any_explored or explore
                    if not any_explored:
                        for a in range(n_act):
                            st_expl[thread, top, a] = True
                    k = 0
                    while not st_expl[thread, top, k]:
                        k += 1
                    st_k[thread, top] = k
                    via = c0 + k
                    node = child_list[via]
                else:
                    if cfg.accumulate_avg and row >= 0 and (not fetching or undo(fetch, thread, d, avg, row, n_act, 1, owner)):
                        # "Sampled" averaging (open-spiel's SIMPLE): the opponent's policy is
                        # added where sampling reaches it, so in expectation by its reach.
                        if mark and not fetching:
                            touched[owner] = 1
                        for a in range(n_act):
                            if total > 0.0:
                                r = regrets[row + a]
                                if r > 0:
                                    avg[row + a] += r / total
                            else:
                                avg[row + a] += 1.0 / n_act
                    # Sample the opponent's action from regret matching (line 37).
                    state, u = splitmix(state)
                    if total > 0.0:
                        choice = categorical(u * total, regrets, row, n_act)
                    else:
                        choice = uniform_index(u, n_act)
                    via = c0 + choice
                    node = child_list[via]
        if fetching and deferred[d] != 0:
            roll_back(fetch, thread, regrets, avg, tables.phi)
            count = count_before
        elif fetching and mark:
            for k in range(fetch.undo_n[thread]):
                if fetch.undo_owner[thread, k] >= 0:
                    touched[fetch.undo_owner[thread, k]] = 1
        done += 1
    tables.rng[thread] = state
    tables.visited[thread] += count
    return done


@njit(cache=True)
def discount(regrets, used, phi, avg, d):
    """Linear CFR discount (Algorithm 1, lines 20-25): regrets and averages times ``d``."""
    for i in range(used):
        regrets[i] = np.int32(math.floor(regrets[i] * d + 0.5))
    for i in range(phi.shape[0]):
        phi[i] *= d
    for i in range(min(used, avg.shape[0])):
        avg[i] *= d


@njit(cache=True, inline="always")
def _row_span(tree, node_offset, node, min_round, max_round):
    """``node``'s rows in the arena as ``range(first, end, step)`` arguments: its rows (one
    per private state of its round, ``step`` = its actions apart) if it owns allocated rows of
    rounds ``min_round..max_round``, else an empty range. The owners' rows of a whole-table
    kernel are ``for node ...: for row in range(*_row_span(...))``: the selection written once."""
    rnd = tree.round[node]
    off = node_offset[node]
    n_act = tree.child_start[node + 1] - tree.child_start[node]
    if tree.kind[node] != DECISION or tree.row_owner[node] != node or off < 0 or not min_round <= rnd <= max_round:
        return off, off, max(n_act, 1)
    return off, off + tree.num_private[rnd] * n_act, n_act


WRITE, ADD, QUANTISE = 0, 1, 2
"""What :func:`strategy_rows` does with each row's strategy: writes it (the current strategy),
adds it (snapshot sums in RAM) or writes it as uint16 (snapshots on disk, :data:`SNAPSHOT_SCALE`)."""

SNAPSHOT_SCALE = 65535.0
"""Snapshots store probabilities as uint16 (x 65535): 1e-4 survives (uint8 zeroed anything
below 1/510), at two bytes per infoset-action on disk."""


@njit(cache=True)
def strategy_rows(tree, regrets, node_offset, min_round, out, scratch, how):
    """The regret-matching strategy of every allocated row of rounds >= ``min_round``, into
    ``out`` in table layout (same offsets as the arena) as ``how`` says (:data:`WRITE`,
    :data:`ADD` or :data:`QUANTISE`); rows past ``out``'s end are left out. One walk over the
    owners' rows for the current strategy and both kinds of snapshot. Each row is matched into
    ``scratch`` before ``out`` is written, so ``out`` may be the regrets' own memory
    (``MCCFRTrainer.release_average_rows``)."""
    for node in range(tree.kind.shape[0]):
        first, end, n_act = _row_span(tree, node_offset, node, min_round, 1 << 30)
        for row in range(first, end, n_act):
            if row + n_act > out.shape[0]:
                continue
            regret_matching(regrets, row, 1, n_act, scratch, 0, False)
            for a in range(n_act):
                if how == QUANTISE:
                    out[row + a] = np.uint16(math.floor(scratch[a] * SNAPSHOT_SCALE + 0.5))
                elif how == ADD:
                    out[row + a] += scratch[a]
                else:
                    out[row + a] = scratch[a]


@njit(cache=True)
def blend_normalised(tree, values, node_offset, min_round, max_round, out):
    """For rows of rounds ``min_round..max_round`` whose ``values`` have mass, write the
    normalised values into ``out``; other rows keep what ``out`` holds."""
    for node in range(tree.kind.shape[0]):
        first, end, n_act = _row_span(tree, node_offset, node, min_round, max_round)
        for row in range(first, end, n_act):
            if row + n_act > values.shape[0]:
                continue
            total = 0.0
            for a in range(n_act):
                total += values[row + a]
            if total > 0.0:
                for a in range(n_act):
                    out[row + a] = values[row + a] / total


@njit(cache=True)
def iteration_allocation_bound(node_kind, node_player, child_start, child_list, row_owner, new_entries, n_players):
    """The most table entries one iteration can allocate: for each traverser, the rows of
    every node it may reach that are not allocated at the start (``new_entries`` of each row
    owner: 0 for rows allocated up front), exploring all of its own actions and one of
    everyone else's and of chance (pruning only skips), summed over the traversers. Shared rows
    are counted at each node: an upper bound. Preorder tree (parents before children)."""
    n = child_start.shape[0] - 1
    best = np.zeros(n, np.int64)
    total = 0
    for p in range(n_players):
        for node in range(n - 1, -1, -1):
            kind = node_kind[node]
            if kind == TERMINAL:
                best[node] = 0
                continue
            every, most = 0, 0
            for k in range(child_start[node], child_start[node + 1]):
                b = best[child_list[k]]
                every += b
                if b > most:
                    most = b
            if kind == DECISION:
                best[node] = new_entries[row_owner[node]] + (every if node_player[node] == p else most)
            else:
                best[node] = most
        total += best[0]
    return total


@njit(cache=True)
def tree_depth(child_start, child_list):
    """Largest depth of a preorder tree (parents come before children)."""
    n = child_start.shape[0] - 1
    depth = np.zeros(n, np.int64)
    deepest = 0
    for node in range(n):
        for k in range(child_start[node], child_start[node + 1]):
            c = child_list[k]
            depth[c] = depth[node] + 1
            if depth[c] > deepest:
                deepest = depth[c]
    return deepest
