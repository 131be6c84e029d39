"""Vector-form CFR (``--algo vcfr``): the solver real-time search uses for subgames that run
to the end of the game (supplement, "Further details of the real-time search algorithm":
vector-form Linear CFR on small subgames), and a fast full-width solver for any game whose
deals can be listed.

:class:`VectorCFR` keeps one row of regrets per (decision node, private state), like the
MCCFR tables (stored action-major per node: :data:`~gamesolve.solve.kernels.vcfr.VectorTables`),
and runs :mod:`gamesolve.solve.kernels.vcfr`. The CFR variant is a
:class:`~gamesolve.solve.cfr.CFRConfig` (DCFR by default; ``weighting=linear`` for Linear
CFR; the other tabular presets too), so a vector solve and a tabular solve of one game
follow the same schedule.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np

from gamesolve.errors import OptionError, UserError
from gamesolve.game.factored import CHANCE, DECISION, FIXED, FactoredGame, FormError, subtree_ends
from gamesolve.game.form_records import RemovalThree
from gamesolve.game.removal import Removal, fixed_cfv, item_removal, no_removal
from gamesolve.game.removal_multi import check_pair_items, prefix_sweep
from gamesolve.game.symmetry import has_twins, invariant, no_symmetry, restrict
from gamesolve.game.terminals import empty_terminal_deals, terminal_deals
from gamesolve.options import parse_boolean
from gamesolve.solve.kernels import vcfr as K
from gamesolve.solve.cfr import TABULAR_ALGORITHMS, CFRConfig
from gamesolve.solve.rows import explicit_slots
from gamesolve.threads import run_parts

TABLE_DTYPES = (np.float64, np.float32, np.int16)
""":class:`VectorCFR`'s table types (``int16``: 16-bit codes with a scale per node)."""

WEIGHTINGS = {"dcfr": "dcfr", "linear": "lcfr", "lcfr": "lcfr", "cfr+": "cfr+", "cfr": "cfr"}
"""``-o weighting=`` names and the tabular preset each stands for."""


class VectorCFR:
    """Vector-form CFR on a factored game with listed deals, or with item removal for two or
    three players (:mod:`gamesolve.game.removal`, :mod:`gamesolve.game.removal_multi`).

    Threads run the subtrees under the first public chance nodes when the game has at least
    :attr:`parallel_min` node-private-state pairs. With item removal, private states no
    player can hold at the root (zero reach for everyone) are left out of the tables and the
    path vectors; the public row layout (:attr:`row_offset`, :meth:`average_rows`) keeps every
    state (a state left out plays uniformly).

    :param root_reach: ``[P, S]`` each player's reach over private states at the root (a
        search subgame's range beliefs); ones for a whole game.
    :param frozen: ``{(node, private state): probabilities}`` rows whose strategy is fixed
        (a searcher's own earlier actions with its actual hand).
    :param dtype: of the regret and average tables: ``np.float64`` (the default: iterates
        follow tabular CFR to rounding), ``np.float32`` (half the memory; spots) or
        ``np.int16``: 16-bit tables, a quarter of float64's memory (int16 regrets and uint16
        average sums, one float32 scale per node and table: b-inary/postflop-solver's
        compressed storage, :mod:`gamesolve.solve.kernels.compressed`). The 16-bit tables
        round every update to 1/32767 (regrets) or 1/65535 (averages) of the node's largest
        entry; they take no shared or frozen rows. Best responses read the strategy the codes
        stand for and compute in float64, so exploitability is exact for it.
    """

    parallel_min = 200_000

    def __init__(self, form: FactoredGame, config: CFRConfig = TABULAR_ALGORITHMS["dcfr"], *,
                 sample_chance: bool = False, seed: int = 0, threads: int = 1,
                 root_reach: np.ndarray | None = None,
                 frozen: Mapping[tuple[int, int], np.ndarray] | None = None, dtype=np.float64):  # fmt: skip
        if form.rollout is not None:
            raise FormError("vcfr cannot value rollout leaves (depth-limited subgames): use a sampling solver")
        if form.removal is not None and form.num_players not in (2, 3):
            raise FormError(f"vcfr with item removal is for two or three players, not {form.num_players}")
        if form.removal is not None and form.num_players == 3:
            check_pair_items(form.removal.items)
        if form.removal is None and (form.deals is None or form.deals.listed is None or not form.has_constant_private_states()):
            raise FormError(
                f"vcfr needs a game whose deals can be listed and whose private states stay the same "
                f"through the game ({form.game_name}'s form: {form.describe or 'abstracted'})"
            )
        dtype = np.dtype(dtype)
        if dtype not in TABLE_DTYPES:
            raise ValueError(f"vcfr tables are float32, float64 or int16 (16-bit codes), not {dtype}")
        self.packed = dtype == np.int16
        self.form = form
        self.config = config
        self.threads = int(threads)
        self.iterations = 0
        n, p, full = form.num_nodes, form.num_players, int(form.num_private[0])
        self.num_states = full
        reach = np.ones((p, full)) if root_reach is None else np.ascontiguousarray(root_reach, dtype=np.float64)
        if reach.shape != (p, full):
            raise ValueError(f"root_reach must have shape {(p, full)}, got {reach.shape}")
        keep = reach.any(axis=0)
        self.states = np.flatnonzero(keep) if form.removal is not None and not keep.all() else np.arange(full)
        s = len(self.states)
        owners = (form.node_kind == DECISION) & (form.row_owner == np.arange(n))
        self.row_offset = _offsets(owners, form.num_actions, full)
        offset, total = _offsets(owners, form.num_actions, s), int((form.num_actions[owners].astype(np.int64) * s).sum())
        self._tree = form.tree_arrays()
        depth, widest = K.depth_and_width(self._tree)
        self._cuts, self._no_cuts = self._parallel_cuts(s)
        # Threads a pass runs its cut subtrees on, each with its own path buffers, and their
        # blocks of the balanced job order (the first n % T one job longer: see _balanced_order).
        n_jobs = len(self._cuts.job_cut)
        self._parts = max(1, min(self.threads, n_jobs))
        self._job_blocks = np.cumsum([0] + [n_jobs // self._parts + (i < n_jobs % self._parts) for i in range(self._parts)])
        scratch_bytes = self._parts * 8 * s * (depth + 1) * (p + 1 + 2 * widest)
        cut_bytes = 8 * s * (self._cuts.reach.shape[0] * (p + 1) + len(self._cuts.job_cut))
        # Bytes of the tables (and their scales) and the path and thread buffers.
        self.memory_bytes = 2 * dtype.itemsize * total + scratch_bytes + cut_bytes + (8 * n if self.packed else 0)
        _check_memory(self.memory_bytes, form, s)
        self.tables = K.VectorTables(
            row_offset=offset,
            regrets=np.zeros(total, dtype=dtype),
            avg=np.zeros(total, dtype=np.uint16 if self.packed else dtype),
            root_reach=np.ascontiguousarray(reach[:, self.states]),
            # 16-bit tables: one scale per node (and table), indexed by node.
            regret_scale=np.zeros(n, np.float32) if self.packed else K.NO_SCALES,
            avg_scale=np.zeros(n, np.float32) if self.packed else K.NO_SCALES,
        )
        if form.removal is None:
            self.terminal_deals = terminal_deals(form)
            self.removal = no_removal(n)
        else:
            self.terminal_deals = empty_terminal_deals(n, p)
            self.removal = _restrict_removal(form.removal, self.states)
            if p == 3:  # a type of its own: two-player kernels leave the three-player sums out
                self.removal = RemovalThree(*self.removal)
        sym = form.symmetry if form.symmetry is not None else no_symmetry(len(form.child_list), full)
        if has_twins(sym):
            if not invariant(sym, reach):
                raise FormError("the ranges tell apart suits the spot's symmetry merges: build it without symmetry")
            if frozen:
                raise FormError("frozen rows break the chance symmetry: build the game without symmetry")
        self._symmetry = restrict(sym, self.states)
        self._terminals = form.terminal_arrays()
        self.schedule = K.Schedule(
            bool(config.rm_plus), bool(config.discount), float(config.alpha), float(config.beta),
            float(config.gamma), bool(sample_chance), np.uint64(seed),
        )  # fmt: skip
        self._fixed, self._frozen_rows = self._fixed_rows(offset, frozen or {})
        if self.packed and len(self._fixed.owner):
            # Their regrets are discounted after the pass (_finish_fixed), on the codes.
            raise FormError("16-bit vcfr tables take no shared or frozen rows: use float32 tables")
        self._scratch = self._new_scratch(self._parts)
        self._root_values = np.zeros(s)
        if not self.root_mass() > 0:
            raise FormError("the root's reach holds no deal: every combination of the players' private states "
                            "(ranges) with positive reach shares an item or has probability 0")  # fmt: skip

    def _new_scratch(self, threads: int) -> K.Scratch:
        """Path buffers for ``threads`` threads (:data:`~gamesolve.solve.kernels.vcfr.Scratch`)."""
        depth, widest = K.depth_and_width(self._tree)
        p, s, a = self.form.num_players, len(self.states), max(widest, 1)
        return K.Scratch(
            node=np.zeros((threads, depth + 1), np.int64), k=np.zeros((threads, depth + 1), np.int64),
            reach=np.zeros((threads, depth + 1, p, s)), value=np.zeros((threads, depth + 1, s)),
            act=np.zeros((threads, depth + 1, a, s)), sigma=np.zeros((threads, depth + 1, a, s)),
            chosen=np.zeros((threads, depth + 1), np.int64), sums=np.zeros((threads, self.removal.n_items + 1)),
            at=np.zeros((threads, s + 1), np.int64), val=np.zeros((threads, s)), start=np.zeros((threads, p, s)),
        )  # fmt: skip

    @property
    def parallel_jobs(self) -> int:
        """Subtrees a pass runs on threads (0: one thread walks the whole tree)."""
        return len(self._cuts.job_cut)

    def _parallel_cuts(self, s: int) -> tuple[K.Cuts, K.Cuts]:
        """The first public chance nodes and their outcomes as thread jobs, when more than one
        thread is asked, the game is large enough and no table rows are shared across jobs."""
        form = self.form
        n = form.num_nodes
        none = _cuts(np.full(n, -1, np.int32), np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64), form.num_players, s)
        # Entering a parallel region costs tens of microseconds per pass (far more on a loaded
        # machine): worth it only when the subtrees hold real work.
        if self.threads <= 1 or n * s < self.parallel_min:
            return none, none
        first = np.flatnonzero((form.node_kind == CHANCE) & (form.node_level == 0))
        if len(first) == 0:
            return none, none
        end = subtree_ends(form)
        job_edge = np.concatenate([np.arange(form.child_start[c], form.child_start[c + 1]) for c in first]).astype(np.int64)
        job_cut = np.repeat(np.arange(len(first)), form.num_actions[first]).astype(np.int64)
        label = np.full(n, -1, dtype=np.int64)
        for j, k in enumerate(job_edge):
            child = form.child_list[k]
            label[child : end[child]] = j
        decision = np.flatnonzero(form.node_kind == DECISION)
        if np.any(label[decision] != label[form.row_owner[decision]]):
            return none, none
        cut = np.full(n, -1, np.int32)
        cut[first] = np.arange(len(first), dtype=np.int32)
        heads = form.child_list[job_edge]
        run_order = _balanced_order(end[heads] - heads, min(self.threads, len(job_edge)))
        return _cuts(cut, first.astype(np.int64), job_cut, job_edge, form.num_players, s, run_order), none

    def _fixed_rows(self, offset: np.ndarray, frozen: Mapping[tuple[int, int], np.ndarray],
                    also: np.ndarray | None = None) -> tuple[K.Fixed, np.ndarray]:  # fmt: skip
        """Rows shared by several nodes and rows with frozen states (and the rows of the owner
        nodes ``also`` marks): their strategy is set at the start of each pass; and the frozen
        entries' places in the state-major rows of :meth:`_rows` (the tables' node blocks are
        action-major)."""
        form = self.form
        n, s = form.num_nodes, len(self.states)
        decision = np.flatnonzero(form.node_kind == DECISION)
        owner_of = form.row_owner[decision]
        fixed = np.zeros(n, dtype=bool)
        fixed[owner_of[owner_of != decision]] = True
        if also is not None:
            fixed |= also
        compact = np.full(self.num_states, -1, dtype=np.int64)
        compact[self.states] = np.arange(s)
        for node, _ in frozen:
            fixed[form.row_owner[node]] = True
        owners = np.flatnonzero(fixed)
        sizes = form.num_actions[owners].astype(np.int64) * s
        start = np.cumsum(sizes) - sizes
        index = np.full(n, -1, dtype=np.int64)
        index[owners] = np.arange(len(owners))
        buffer_slots, table_slots, row_slots, probs = [], [], [], []
        for (node, private), dist in frozen.items():
            owner, c = form.row_owner[node], compact[private]
            if c < 0:
                continue  # a state nobody holds: its strategy never matters
            n_act = form.num_actions_at(node)
            buffer_slots.extend(start[index[owner]] + c * n_act + np.arange(n_act))
            table_slots.extend(offset[owner] + np.arange(n_act) * s + c)
            row_slots.extend(offset[owner] + c * n_act + np.arange(n_act))
            probs.extend(np.asarray(dist, dtype=np.float64))
        return K.Fixed(
            index=index, owner=owners.astype(np.int64), start=start.astype(np.int64), sigma=np.zeros(int(sizes.sum())),
            seen=np.zeros(len(owners), dtype=np.bool_), buffer_slots=np.array(buffer_slots, dtype=np.int64),
            table_slots=np.array(table_slots, dtype=np.int64), probs=np.array(probs, dtype=np.float64),
        ), np.array(row_slots, dtype=np.int64)  # fmt: skip

    def _kernel_args(self):
        """The kernels' first two arguments: the game's arrays and the tables."""
        form = K.FormArrays(self._tree, self._terminals, self.terminal_deals, self.removal, self._symmetry)
        return form, self.tables

    def run(self, iterations: int, batch: int = 0, on_batch: Callable[[int], None] | None = None) -> None:
        """Run ``iterations`` more iterations, calling ``on_batch(done)`` after each batch."""
        if iterations <= 0:
            raise ValueError(f"iterations must be positive, got {iterations}")
        batch = batch or max(1, min(iterations, 100))
        done = 0
        while done < iterations:
            step = min(batch, iterations - done)
            self.iterate(self.iterations + 1, self.iterations + step)
            self.iterations += step
            done += step
            if on_batch is not None:
                on_batch(step)

    def iterate(self, t_first: int, t_last: int, players: int | None = None) -> None:
        """Iterations ``t_first..t_last`` of the schedule (no bookkeeping of :attr:`iterations`)
        for the first ``players`` players (all by default): one kernel call on one thread,
        else a threaded pass per player and iteration."""
        players = self.form.num_players if players is None else players
        if self._parts == 1:
            K.run(*self._kernel_args(), self.schedule, self._fixed, self._cuts, self._no_cuts, self._scratch,
                  t_first, t_last, players, self._root_values)  # fmt: skip
            return
        for t in range(t_first, t_last + 1):
            weight, pos_d, neg_d = K.factors(self.schedule, t)
            for p in range(players):
                K._fill_fixed(self._tree, self.tables, self._fixed)
                self._pass(self.schedule, p, t, weight, pos_d, neg_d, K.UPDATE, self.tables.regrets, True, self._root_values)
                K._finish_fixed(self._tree, self.tables, self._fixed, self.schedule, p, pos_d, neg_d)

    def _pass(self, sched, p, t, weight, pos_d, neg_d, mode, src, use_fixed, out) -> None:
        """One pass (:func:`~gamesolve.solve.kernels.vcfr.one_pass`); with several threads,
        its cut subtrees in contiguous blocks of the balanced job order, one block a thread."""
        ps = K.Pass(int(p), int(t), float(weight), float(pos_d), float(neg_d), int(mode), src, bool(use_fixed))
        args = (*self._kernel_args(), sched, self._fixed, self._cuts, self._no_cuts, self._scratch, ps, out)
        if self._parts == 1:
            K.one_pass(*args, K.WHOLE, 0, 0, 0, 0, 0)
            return
        K.one_pass(*args, K.TOP, 0, 0, 0, 0, 0)
        blocks = self._job_blocks
        run_parts(self._parts, lambda i: K.one_pass(*args, K.JOBS, int(blocks[i]), int(blocks[i + 1]), i, 0, 0))
        K.one_pass(*args, K.FINISH, 0, 0, 0, 0, 0)

    def average_rows(self) -> np.ndarray:
        """The average strategy of every row, in the public layout (:attr:`row_offset`)."""
        return self._rows(self.tables.avg)

    def current_rows(self) -> np.ndarray:
        """The strategy of the latest regrets (the final iterate, which search plays)."""
        return self._rows(self.tables.regrets, frozen=True)

    def _rows(self, table: np.ndarray, frozen: bool = False) -> np.ndarray:
        rows = np.empty(len(table))
        K.strategies(self._tree, table, self.tables.row_offset, len(self.states), rows)
        if frozen:
            rows[self._frozen_rows] = self._fixed.probs
        if len(self.states) == self.num_states:
            return rows
        owners = self.row_offset >= 0
        out = np.empty(int((self.form.num_actions[owners].astype(np.int64) * self.num_states).sum()))
        K.expand_rows(self._tree, rows, self.tables.row_offset, self.row_offset, self.states, self.num_states, out)
        return out

    def node_strategy(self, node: int, which: str = "average") -> np.ndarray:
        """``[S, actions]``: one decision node's average (or current) strategy for every
        private state (uniform for states left out)."""
        n_act = self.form.num_actions_at(node)
        owner = self.form.row_owner[node]
        s = len(self.states)
        table = self.tables.avg if which == "average" else self.tables.regrets
        base = self.tables.row_offset[owner]
        # The kernels' own regret matching of a node block: the same bits as the rows of
        # current_rows and average_rows.
        kept = np.empty((n_act, s))
        K._node_strategy(table, np.int64(base), np.int64(n_act), np.int64(s), kept, np.empty(s))
        out = np.full((self.num_states, n_act), 1.0 / n_act)
        out[self.states] = kept.T
        if which != "average":
            for slot, prob in zip(self._fixed.table_slots, self._fixed.probs):
                if base <= slot < base + s * n_act:
                    out[self.states[(slot - base) % s], (slot - base) // s] = prob
        return out

    def exploitability(self, which: str = "average") -> tuple[float, list[float]]:
        """Exploitability of the average (or current) strategy by vector best response:
        ``(mean of BR_p, [BR_0, BR_1, ...])``, each BR_p the expected payoff of a best response of
        ``p`` against the others' strategies, over the root's deals and reach. In a zero-sum
        game the players' values sum to zero, so the sum of the BR_p is the NashConv; with two
        players the mean is the usual exploitability."""
        if self.form.num_players != 2 and not self._zero_sum():
            raise ValueError("vector best response of more than two players is for zero-sum games")
        reach = self.tables.root_reach
        sched = self.schedule._replace(sample_chance=False)
        mass = self.root_mass()
        values = []
        cfv = np.zeros(len(self.states))
        average = which == "average"
        src = self.tables.avg if average else self.tables.regrets
        for p in range(self.form.num_players):
            if not average:
                K._fill_fixed(self._tree, self.tables, self._fixed)
            self._pass(sched, p, 0, 0.0, 1.0, 1.0, K.BEST_RESPONSE, src, not average, cfv)
            values.append(float(reach[p] @ cfv) / mass)
        return sum(values) / len(values), values

    def _zero_sum(self) -> bool:
        """Every terminal's payoffs sum to zero: over the listed deals, or (item removal) at the
        fixed terminals (contests always do)."""
        if self.form.removal is None:
            return bool(np.allclose(self.terminal_deals.payoff.sum(axis=1), 0.0))
        fixed = self.form.term_kind == FIXED
        return bool(np.allclose(self.form.payoff[fixed].sum(axis=1), 0.0))

    def root_mass(self) -> float:
        """The joint probability mass of the root's deals and reach (the normaliser of values)."""
        reach = self.tables.root_reach
        if self.form.removal is None:
            deals = self.form.deals.listed
            rnd = self.form.node_round[0]
            w = deals.prob.copy()
            for q in range(self.form.num_players):
                w *= reach[q, deals.private[:, q, rnd]]
            return float(w.sum())
        rm = self.removal
        mass = np.zeros(reach.shape[1])
        if self.form.num_players == 2:
            fixed_cfv(reach[1], rm.items, rm.n_items, 1.0, mass, np.empty(rm.n_items + 1), np.empty(len(mass) + 1, np.int64))
        else:
            prefix_sweep(reach[1], reach[2], rm.items, rm.n_items, rm.path_strength[0], rm.path_order[0], True, True, 0, 0.0, 0.0, 0.0, 1.0, mass)
        return float(reach[0] @ mass)

    def explicit_policy(self, explicit_tree, which: str = "average") -> np.ndarray:
        rows = self.average_rows() if which == "average" else self.current_rows()
        return explicit_slots(self.form, self.row_offset, rows, explicit_tree)

    def row(self, rows: np.ndarray, node: int, private: int) -> np.ndarray:
        """One (node, private state)'s probabilities from ``rows``."""
        n_act = self.form.num_actions_at(node)
        base = self.row_offset[self.form.row_owner[node]] + private * n_act
        return rows[base : base + n_act]


def _offsets(owners: np.ndarray, num_actions: np.ndarray, states: int) -> np.ndarray:
    """Each owner node's first table entry (``states`` rows of its actions), -1 elsewhere."""
    sizes = np.where(owners, num_actions.astype(np.int64) * states, 0)
    return np.where(owners, np.cumsum(sizes) - sizes, -1).astype(np.int64)


def _balanced_order(sizes: np.ndarray, threads: int) -> np.ndarray:
    """An order of jobs for a parallel loop that gives each thread one contiguous block:
    jobs dealt largest first to the threads in a snake (0, 1, .., T-1, T-1, .., 0, ...), so
    that the blocks hold about equal work. (Jobs differ in size by orders of magnitude: a
    river after check-check or after an all-in; in their natural order one thread gets the
    big ones.) The last, partial lap of smallest jobs goes forward, so the first n % T blocks
    get one job more, as the parallel loop splits n jobs."""
    by_size = np.argsort(-sizes, kind="stable")
    rank = np.arange(len(sizes))
    lap, pos = rank // threads, rank % threads
    forward = (lap % 2 == 0) | (lap == len(sizes) // threads)
    group = np.where(forward, pos, threads - 1 - pos)
    return by_size[np.argsort(group, kind="stable")].astype(np.int64)


def _cuts(cut, nodes, job_cut, job_edge, players: int, states: int, run_order=None) -> K.Cuts:
    c, j = len(nodes), len(job_cut)
    return K.Cuts(
        cut=cut, node=nodes, job_cut=job_cut, job_edge=job_edge,
        job_order=np.arange(j, dtype=np.int64) if run_order is None else run_order, reach=np.zeros((c, players, states)),
        value=np.zeros((c, states)), job_value=np.zeros((j, states)), job_done=np.zeros(j, dtype=np.bool_),
    )  # fmt: skip


def _restrict_removal(rm: Removal, states: np.ndarray) -> Removal:
    """Item removal over the kept states only (their items; strengths and order per path)."""
    if len(states) == rm.items.shape[0]:
        return rm
    # A stable order of the kept states' strengths keeps their order in the whole one.
    return item_removal(rm.items[states], rm.n_items, rm.node_path, rm.path_strength[:, states], rm.chance_weight)


def available_memory() -> int | None:
    """Bytes of memory the system can still give (``MemAvailable``), None where unknown."""
    try:
        with open("/proc/meminfo") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


class TooBig(UserError):
    """The solver's tables and buffers need more memory than the system has free."""


def _check_memory(needed: int, form: FactoredGame, states: int) -> None:
    free = available_memory()
    if free is not None and needed > 0.9 * free:
        raise TooBig(
            f"vcfr on {form.describe or form.game_name} needs {needed / 2**30:.1f} GB "
            f"({form.num_nodes:,} nodes x {states:,} private states); "
            f"{free / 2**30:.1f} GB are free: solve a smaller game (fewer actions, a later round)"
        )


def weighting_config(name: str) -> CFRConfig:
    try:
        return TABULAR_ALGORITHMS[WEIGHTINGS[name]]
    except KeyError:
        raise OptionError("weighting", f"must be one of {', '.join(WEIGHTINGS)}, got {name!r}") from None


VECTOR_OPTIONS = ("weighting", "sample_chance", "seed_chance")


def vector_form(request) -> FactoredGame:
    """The game's factored form for vcfr: its plugin's when that one is lossless with constant
    private states and listed deals, else the generic compiler's."""
    from gamesolve.game.compile import factored_form
    from gamesolve.game.factored_compiler import compile_factored

    if request.preset:
        raise ValueError("vcfr solves the whole game; --preset is for abstracted games")
    from gamesolve.store.form_cache import FormCache

    form = factored_form(request.game, request.pm, lossless=True, cache=FormCache())
    if form.deals.listed is None or not form.has_constant_private_states():
        form = compile_factored(request.game)
    return form


def check_vector_options(options: dict) -> dict:
    """Validate vcfr's ``-o`` options once, before any work starts; the options the run uses:
    ``weighting`` (the CFR preset) and ``sample_chance`` (whether to sample public chance)."""
    unknown = sorted(set(options) - set(VECTOR_OPTIONS))
    if unknown:
        raise UserError(f"unknown vcfr option {unknown[0]!r} (options: {', '.join(VECTOR_OPTIONS)})")
    config = weighting_config(str(options.get("weighting", "dcfr")))
    raw = str(options.get("sample_chance", "false")).lower()
    try:
        sample = parse_boolean(raw, "sample_chance")
    except ValueError:
        raise OptionError("sample_chance", f"expects true or false, got {raw!r}") from None
    return {"weighting": config, "sample_chance": sample}


def run_vcfr(request, progress) -> dict:
    """``gamesolve solve --algo vcfr``: vector-form CFR (DCFR unless ``-o weighting=``)."""
    import time

    from gamesolve.game.compile import compiled_tree
    from gamesolve.game.tree_size import too_big
    from gamesolve.solve.mccfr_solver import EXPLICIT_LIMIT
    from gamesolve.store.policy_store import write_policy

    if request.resume:
        raise ValueError("vcfr cannot --resume: it keeps no checkpoints (it runs to the end in one go); rerun with --force")
    if request.iterations is None:
        raise ValueError("vcfr needs --iterations")
    if request.checkpoint_minutes is not None:
        raise ValueError("vcfr keeps no checkpoints; --checkpoint is for mccfr and mccfr-p")
    options = request.options  # checked by check_vector_options (the solve command calls it)
    config, sample = options["weighting"], options["sample_chance"]
    game = request.game
    big = too_big(game, EXPLICIT_LIMIT, "an explicit tree") is not None
    if big and request.out is not None:  # a policy store is laid out on the explicit tree's information sets
        raise ValueError(f"vcfr writes a policy store for games of at most {EXPLICIT_LIMIT:,} histories; "
                         f"{game.describe()} has more: run it without --out")  # fmt: skip
    progress.note(f"compiling {game.describe()} to its factored form")
    form = vector_form(request)
    solver = VectorCFR(form, config, sample_chance=sample, seed=request.seed, threads=request.threads)
    progress.start(request.iterations, "it", f"vcfr ({config.name}) on {game.describe()}")
    started = time.perf_counter()
    solver.run(request.iterations, batch=max(1, min(1000, 2_000_000 // max(form.num_nodes * solver.num_states, 1))), on_batch=progress.advance)
    seconds = time.perf_counter() - started
    result = {
        "game": game.name, "params": dict(game.params), "players": game.num_players, "algo": "vcfr",
        "weighting": config.name, "iterations": solver.iterations, "seconds": seconds,
        "iterations_per_second": solver.iterations / seconds if seconds > 0 else 0.0,
        "public_nodes": form.num_nodes, "private_states": solver.num_states,
    }  # fmt: skip
    if big:  # exact over the factored form: too many histories for an explicit tree
        evaluate = request.evaluate_form(form, game) if request.evaluate_form is not None else None
        if evaluate is not None:
            result.update(evaluate(solver.row_offset, solver.average_rows()))
        return result
    explicit = compiled_tree(game, request.pm, progress)
    policy = solver.explicit_policy(explicit)
    fields = request.evaluate(explicit)(policy) if request.evaluate is not None else {}
    result.update(fields)
    if request.out is not None:
        write_policy(
            request.out, explicit, policy, solver.explicit_policy(explicit, "current"), algo="vcfr",
            iterations=solver.iterations, seconds=seconds, seed=request.seed, nash_conv=fields.get("nash_conv"),
        )  # fmt: skip
        result["store"] = str(request.out)
    return result


def vcfr_solver_spec():
    from gamesolve.solve.spec import SolverSpec
    from gamesolve.store.policy_store import FORMAT as POLICY_FORMAT

    return SolverSpec(
        name="vcfr",
        run=run_vcfr,
        description="vector-form CFR over the factored form (DCFR; -o weighting=linear|cfr+|cfr, -o sample_chance=true)",
        supports=lambda spec: spec.tabular,
        store_format=POLICY_FORMAT,
        check_options=check_vector_options,
    )
