"""Numba kernels of external-sampling MCCFR with negative-regret pruning (Algorithm 1 of
the Pluribus supplement), over a :class:`~gamesolve.game.poker_tree.PokerTree`.

Tables are one int32 regret arena; a public node's rows (one per bucket of its round) are
allocated on first visit from a per-thread reservoir, and ``node_offset[node]`` points at
them (-1 until then). Round-0 rows sit at the start of the arena and are allocated up
front, so the round-0 average ``phi`` shares their offsets.

Threads share the arena without locks (Hogwild style): a lost update is possible when two
threads write one regret at once, and two threads allocating the same node at once leave
one orphaned row. Both are rare and harmless to convergence; one thread is deterministic.

Performance note: every call of a numba function with array arguments updates each
array's reference count atomically (~20 ns each). The traversal therefore runs inside
one function for a whole batch of iterations, with scalar-only helpers.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, prange

from gamesolve.game.poker_tree import DECISION, FOLD_END, terminal_utility

INT32_MAX = 2147483647


@njit(cache=True, inline="always")
def splitmix(state):
    """One splitmix64 step: the new state and a float in [0, 1)."""
    state = state + np.uint64(0x9E3779B97F4A7C15)
    z = state
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    return state, float(z >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def strategy_from_regrets(regrets, row, n_actions, out):
    """CALCULATE-STRATEGY (Algorithm 1): positive regrets normalised, else uniform."""
    total = 0.0
    if row >= 0:
        for a in range(n_actions):
            r = regrets[row + a]
            if r > 0:
                total += r
    for a in range(n_actions):
        if total > 0.0:
            r = regrets[row + a]
            out[a] = r / total if r > 0 else 0.0
        else:
            out[a] = 1.0 / n_actions


@njit(cache=True)
def update_strategy(
    p, d, node_kind, node_player, node_round, child_start, child_list, folded,
    deal_buckets, node_offset, regrets, phi, state, stack, sig,
):  # fmt: skip
    """UPDATE-STRATEGY (Algorithm 1): on the first betting round, follow one sampled action
    of ``p`` (counting it in ``phi``) and every action of the others. Takes and returns
    the random state."""
    stack[0] = 0
    top = 1
    while top > 0:
        top -= 1
        node = stack[top]
        if node_kind[node] != DECISION or folded[node, p] or node_round[node] > 0:
            continue
        player = node_player[node]
        c0 = child_start[node]
        n_act = child_start[node + 1] - c0
        row = node_offset[node] + deal_buckets[d, player, 0] * n_act
        if player == p:
            strategy_from_regrets(regrets, row, n_act, sig)
            state, u = splitmix(state)
            a = n_act - 1
            acc = 0.0
            for b in range(n_act - 1):
                acc += sig[b]
                if u < acc:
                    a = b
                    break
            phi[row + a] += 1.0
            stack[top] = child_list[c0 + a]
            top += 1
        else:
            for a in range(n_act):
                stack[top] = child_list[c0 + a]
                top += 1
    return state


@njit(cache=True)
def run_thread(
    thread, n_iters, n_players, prune_active, prune_probability, sequential, deal_cursor, deal_end,
    node_kind, node_player, node_round, child_start, child_list, commit, folded,
    num_buckets, last_round, deal_buckets, deal_rank,
    node_offset, regrets, res_next, res_end, rng,
    scale, prune_threshold, regret_floor, avg, accumulate_avg,
    t_start, strategy_every, phi, us_stack, us_sig,
    st_node, st_k, st_row, st_val, st_sig, st_expl, visited,
):  # fmt: skip
    """Iterations of one thread: a traversal per player each (Algorithm 1, lines 8-19).

    Each traversal is TRAVERSE-MCCFR, or TRAVERSE-MCCFR-P when pruning is active and a
    draw falls under ``prune_probability``. Chance is sampled once per traversal (a whole
    deal); a frame is pushed only at the traverser's decision nodes; opponents' actions
    are sampled in place. Returns the iterations completed (fewer when the thread's
    reservoir runs low, so the driver can refill it).
    """
    n_deals = deal_rank.shape[0]
    n_pl = commit.shape[1]
    state = rng[thread]
    count = 0
    done = 0
    for i in range(n_iters):
        if res_end[thread] - res_next[thread] < 1024:
            break
        if strategy_every > 0 and (t_start[thread] + i + 1) % strategy_every == 0:
            # Lines 9-10: UPDATE-STRATEGY for every player every Strategy_Interval iterations.
            for p in range(n_players):
                state, u = splitmix(state)
                ud = deal_cursor[thread] if sequential else int(u * n_deals)
                state = update_strategy(
                    p, ud, node_kind, node_player, node_round, child_start, child_list, folded,
                    deal_buckets, node_offset, regrets, phi, state, us_stack[thread], us_sig[thread],
                )  # fmt: skip
        if sequential:
            # Generated deals: one per iteration, shared by its traversals (each traversal
            # still sees one unbiased sample of chance).
            d = deal_cursor[thread]
            deal_cursor[thread] = d + 1 if d + 1 < deal_end[thread] else deal_end[thread] - 1
        for p in range(n_players):
            if not sequential:
                state, u = splitmix(state)
                d = int(u * n_deals)
            state, u = splitmix(state)
            prune = prune_active and u < prune_probability
            # ---- one traversal for player p on deal d -----------------------------------
            top = -1
            node = 0
            while True:
                count += 1
                kind = node_kind[node]
                if kind != DECISION or folded[node, p]:
                    if kind == DECISION:
                        v = -commit[node, p]  # line 19: P_i is out; the rest is irrelevant
                    elif kind == FOLD_END:
                        v = -commit[node, p]
                        if not folded[node, p]:
                            for q in range(n_pl):
                                v += commit[node, q]
                    else:
                        # Showdown; one pot unless players still in paid different amounts.
                        best = -2147483648
                        level = -1.0
                        single = True
                        pot = 0.0
                        for q in range(n_pl):
                            pot += commit[node, q]
                            if not folded[node, q]:
                                if level < 0.0:
                                    level = commit[node, q]
                                elif commit[node, q] != level:
                                    single = False
                                if deal_rank[d, q] > best:
                                    best = deal_rank[d, q]
                        if not single:
                            v = terminal_utility(node, p, commit, folded, node_kind, deal_rank, d)
                        elif deal_rank[d, p] != best:
                            v = -commit[node, p]
                        else:
                            winners = 0
                            for q in range(n_pl):
                                if not folded[node, q] and deal_rank[d, q] == best:
                                    winners += 1
                            v = pot / winners - commit[node, p]
                    # Climb: hand the value to the traverser's frames until one has more to explore.
                    finished = False
                    while True:
                        if top < 0:
                            finished = True
                            break
                        k = st_k[thread, top]
                        st_val[thread, top, k] = v
                        nd = st_node[thread, top]
                        n_act = child_start[nd + 1] - child_start[nd]
                        k += 1
                        while k < n_act and not st_expl[thread, top, k]:
                            k += 1
                        if k < n_act:
                            st_k[thread, top] = k
                            node = child_list[child_start[nd] + k]
                            break
                        # Lines 29-33 (lines 20-22 with pruning): value and regret update.
                        v = 0.0
                        for a in range(n_act):
                            if st_expl[thread, top, a]:
                                v += st_sig[thread, top, a] * st_val[thread, top, a]
                        row = st_row[thread, top]
                        if row >= 0:
                            for a in range(n_act):
                                if st_expl[thread, top, a]:
                                    r = regrets[row + a] + np.int64(math.floor((st_val[thread, top, a] - v) * scale + 0.5))
                                    # The floor (Pluribus: -310,000,000) lets pruned actions recover
                                    # and, with the cap, keeps int32 from overflowing.
                                    if r < regret_floor:
                                        r = regret_floor
                                    elif r > INT32_MAX:
                                        r = INT32_MAX
                                    regrets[row + a] = r
                        top -= 1
                    if finished:
                        break
                    continue
                player = node_player[node]
                rnd = node_round[node]
                c0 = child_start[node]
                n_act = child_start[node + 1] - c0
                # Lazy allocation: a public node's rows appear when it is first reached.
                off = node_offset[node]
                if off < 0:
                    size = num_buckets[rnd] * n_act
                    start = res_next[thread]
                    if start + size <= res_end[thread]:
                        res_next[thread] = start + size
                        node_offset[node] = start
                        off = start
                row = -1 if off < 0 else off + deal_buckets[d, player, rnd] * n_act
                total = 0.0
                if row >= 0:
                    for a in range(n_act):
                        r = regrets[row + a]
                        if r > 0:
                            total += r
                if player == p:
                    top += 1
                    st_node[thread, top] = node
                    st_row[thread, top] = row
                    any_explored = False
                    for a in range(n_act):
                        if total > 0.0:
                            r = regrets[row + a]
                            st_sig[thread, top, a] = r / total if r > 0 else 0.0
                        else:
                            st_sig[thread, top, a] = 1.0 / n_act
                        explore = True
                        if prune and row >= 0 and rnd != last_round and regrets[row + a] <= prune_threshold:
                            child = child_list[c0 + a]
                            # Actions straight to a terminal (or out of the hand) are never pruned.
                            if node_kind[child] == DECISION and not folded[child, p]:
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
                    node = child_list[c0 + k]
                else:
                    if accumulate_avg and row >= 0:
                        # "Sampled" averaging (open-spiel's SIMPLE): the opponent's policy is
                        # added where sampling reaches it, so in expectation by its reach.
                        for a in range(n_act):
                            if total > 0.0:
                                r = regrets[row + a]
                                if r > 0:
                                    avg[row + a] += r / total
                            else:
                                avg[row + a] += 1.0 / n_act
                    # Sample the opponent's action from regret matching (line 37).
                    state, u = splitmix(state)
                    choice = n_act - 1
                    if total > 0.0:
                        u *= total
                        acc = 0.0
                        for a in range(n_act - 1):
                            r = regrets[row + a]
                            if r > 0:
                                acc += r
                            if u < acc:
                                choice = a
                                break
                    else:
                        choice = min(int(u * n_act), n_act - 1)
                    node = child_list[c0 + choice]
        done += 1
    rng[thread] = state
    visited[thread] += count
    return done


@njit(cache=True, parallel=True)
def run_threads(
    n_threads, n_iters, done, n_players, prune_active, prune_probability, sequential, deal_cursor, deal_end,
    node_kind, node_player, node_round, child_start, child_list, commit, folded,
    num_buckets, last_round, deal_buckets, deal_rank,
    node_offset, regrets, res_next, res_end, rng,
    scale, prune_threshold, regret_floor, avg, accumulate_avg,
    t_start, strategy_every, phi, us_stack, us_sig,
    st_node, st_k, st_row, st_val, st_sig, st_expl, visited,
):  # fmt: skip
    """``n_iters[t]`` iterations on each of ``n_threads`` threads sharing the tables;
    thread ``t``'s first iteration is number ``t_start[t] + 1``."""
    for t in prange(n_threads):
        done[t] = run_thread(
            t, n_iters[t], n_players, prune_active, prune_probability, sequential, deal_cursor, deal_end,
            node_kind, node_player, node_round, child_start, child_list, commit, folded,
            num_buckets, last_round, deal_buckets, deal_rank,
            node_offset, regrets, res_next, res_end, rng,
            scale, prune_threshold, regret_floor, avg, accumulate_avg,
            t_start, strategy_every, phi, us_stack, us_sig,
            st_node, st_k, st_row, st_val, st_sig, st_expl, visited,
        )  # fmt: skip


@njit(cache=True)
def discount(regrets, used, phi, avg, d):
    """Linear CFR discount (Algorithm 1, lines 20-25): regrets and averages times ``d``."""
    for i in range(used):
        regrets[i] = np.int32(math.floor(regrets[i] * d + 0.5))
    for i in range(phi.shape[0]):
        phi[i] *= d
    for i in range(min(used, avg.shape[0])):
        avg[i] *= d


@njit(cache=True)
def current_strategy(regrets, node_offset, node_kind, node_round, child_start, num_buckets, min_round, out):
    """Regret-matching strategy of every allocated row of rounds >= ``min_round`` into ``out``
    (same offsets as the arena)."""
    for node in range(node_kind.shape[0]):
        off = node_offset[node]
        if off < 0 or node_kind[node] != DECISION or node_round[node] < min_round:
            continue
        n_act = child_start[node + 1] - child_start[node]
        for b in range(num_buckets[node_round[node]]):
            row = off + b * n_act
            strategy_from_regrets(regrets, row, n_act, out[row : row + n_act])


@njit(cache=True)
def add_snapshot(regrets, node_offset, node_kind, node_round, child_start, num_buckets, snap_sum, scratch):
    """Add the current strategy of rounds >= 1 to ``snap_sum`` (snapshot averaging)."""
    for node in range(node_kind.shape[0]):
        off = node_offset[node]
        if off < 0 or node_kind[node] != DECISION or node_round[node] < 1:
            continue
        n_act = child_start[node + 1] - child_start[node]
        for b in range(num_buckets[node_round[node]]):
            row = off + b * n_act
            strategy_from_regrets(regrets, row, n_act, scratch)
            for a in range(n_act):
                snap_sum[row + a] += scratch[a]


@njit(cache=True)
def blend_normalised(values, node_offset, node_kind, node_round, child_start, num_buckets, min_round, max_round, out):
    """For rows of rounds ``min_round..max_round`` whose ``values`` have mass, write the
    normalised values into ``out``; other rows keep what ``out`` holds."""
    for node in range(node_kind.shape[0]):
        off = node_offset[node]
        rnd = node_round[node]
        if off < 0 or node_kind[node] != DECISION or rnd < min_round or rnd > max_round:
            continue
        n_act = child_start[node + 1] - child_start[node]
        for b in range(num_buckets[rnd]):
            row = off + b * n_act
            if row + n_act > values.shape[0]:
                continue
            total = 0.0
            for a in range(n_act):
                total += values[row + a]
            if total > 0.0:
                for a in range(n_act):
                    out[row + a] = values[row + a] / total


@njit(cache=True)
def quantised_snapshot(regrets, node_offset, node_kind, node_round, child_start, num_buckets, out, scratch):
    """The current strategy of rounds >= 1 as uint8 (probability x 255) in table layout: a
    snapshot that costs one byte per infoset-action on disk."""
    for node in range(node_kind.shape[0]):
        off = node_offset[node]
        if off < 0 or node_kind[node] != DECISION or node_round[node] < 1:
            continue
        n_act = child_start[node + 1] - child_start[node]
        for b in range(num_buckets[node_round[node]]):
            row = off + b * n_act
            if row + n_act > out.shape[0]:
                continue
            strategy_from_regrets(regrets, row, n_act, scratch)
            for a in range(n_act):
                out[row + a] = np.uint8(math.floor(scratch[a] * 255.0 + 0.5))


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
