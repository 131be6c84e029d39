"""MCCFR with linear discounting and negative-regret pruning (Algorithm 1): the driver.

:class:`MCCFRTrainer` owns the tables and runs the numba kernels in batches over a game in
factored form, firing the schedules of Algorithm 1 (discount, prune threshold,
UPDATE-STRATEGY, snapshots) between batches as :class:`~gamesolve.solve.schedule.Clock`
says: at exact iterations for schedules in iterations, at the first batch boundary after the
time for schedules in minutes.
"""

from __future__ import annotations

from typing import Any

import attrs
import numpy as np

from gamesolve.errors import OptionError, UserError
from gamesolve.game.factored import DECISION, FactoredGame
from gamesolve.game.rollout import no_rollout
from gamesolve.options import parse_boolean
from gamesolve.rng import mix
from gamesolve.solve.kernels import mccfr as K
from gamesolve.solve.kernels.row_fetch import no_fetch
from gamesolve.solve.rows import explicit_slots
from gamesolve.solve.schedule import Clock, Schedule
from gamesolve.solve.scheduled_run import Counters, ScheduledRun
from gamesolve.threads import run_parts

RESERVOIR = 1 << 16  # table entries handed to a thread at a time (at least; see headroom)
REFILL_BELOW = 1024  # a thread returns for a fresh reservoir when its own holds fewer entries (at least)
ROWS_PER_ITERATION = 64  # new rows one iteration may allocate without running its reservoir dry
INT32_MIN = -(2**31)
SCHEDULES = ("discount_interval", "lcfr_threshold", "prune_threshold", "strategy_interval", "snapshot_interval", "snapshot_start")


def _schedule(value) -> Schedule:
    return Schedule.parse(value)


def _same_unit(a: Schedule, b: Schedule) -> bool:
    return a.never or b.never or (a.iterations is None) == (b.iterations is None)


@attrs.frozen
class MCCFRConfig:
    """Parameters of Algorithm 1, defaulting to the paper's.

    :ivar prune: use TRAVERSE-MCCFR-P after ``prune_threshold`` (``mccfr-p``); else plain.
    :ivar discount_interval: Linear CFR discount of regrets and phi every interval ...
    :ivar lcfr_threshold: ... while before this point (paper: every 10 minutes before 400).
    :ivar prune_threshold: pruning in iterations after this point (paper: 200 minutes).
    :ivar strategy_interval: UPDATE-STRATEGY for the first round (paper: 10,000 iterations).
    :ivar snapshot_interval: snapshot of the later rounds' current strategy every interval ...
    :ivar snapshot_start: ... from this point (paper: every 200 minutes from 800).
    :ivar prune_below: C, actions with regret at or below it are skipped (paper: -300,000,000).
    :ivar regret_floor: regrets never go below it (paper: -310,000,000); inside int32.
    :ivar prune_probability: share of traversals that prune (paper: 0.95).
    :ivar prune_last_round: also prune on the last round (the paper does not).
    :ivar regret_scale: regret units per payoff unit (None: the game's own); int32 regrets
        store ``round(regret * regret_scale)``.
    :ivar average: ``pluribus`` (the paper: the first round's phi from UPDATE-STRATEGY, later
        rounds from averaged snapshots of the current strategy) or ``sampled`` (every round's
        policy accumulated where traversals sample opponents, open-spiel's SIMPLE averaging;
        reach-weighted, so it converges in two-player zero-sum games, at 8 bytes more per
        infoset-action).
    :ivar strategy_update: how UPDATE-STRATEGY (``average=pluribus``) adds to the first
        round's average: ``sampled`` (the paper: one deal, one sampled action of the player
        counted per visited information set) or ``exact`` (its expectation: every private state
        of the player weighted by its own reach times the current strategy, every action
        followed; the reach-weighted average of CFR, without the sampling noise of a few
        thousand updates in a short run).
    """

    prune: bool = True
    average: str = attrs.field(default="pluribus", validator=attrs.validators.in_(("pluribus", "sampled")))
    strategy_update: str = attrs.field(default="sampled", validator=attrs.validators.in_(("sampled", "exact")))
    discount_interval: Schedule = attrs.field(default="10min", converter=_schedule)
    lcfr_threshold: Schedule = attrs.field(default="400min", converter=_schedule)
    prune_threshold: Schedule = attrs.field(default="200min", converter=_schedule)
    strategy_interval: Schedule = attrs.field(default="10000", converter=_schedule)
    snapshot_interval: Schedule = attrs.field(default="200min", converter=_schedule)
    snapshot_start: Schedule = attrs.field(default="800min", converter=_schedule)
    prune_below: float = -300_000_000.0
    regret_floor: float = -310_000_000.0
    prune_probability: float = 0.95
    prune_last_round: bool = False
    regret_scale: float | None = None

    def __attrs_post_init__(self):
        if not INT32_MIN <= self.regret_floor < 0:
            raise ValueError(f"regret_floor must be negative and at least {INT32_MIN:,} (int32), got {self.regret_floor:g}")
        if self.regret_floor != int(self.regret_floor) or self.prune_below != int(self.prune_below):
            raise ValueError("regret_floor and prune_below are whole regret units")
        if self.prune_below < self.regret_floor:
            raise ValueError(f"prune_below ({self.prune_below:g}) must be at least regret_floor ({self.regret_floor:g}), or nothing is ever pruned")
        if not 0.0 <= self.prune_probability <= 1.0:
            raise ValueError(f"prune_probability must be in [0, 1], got {self.prune_probability:g}")
        if self.regret_scale is not None and not self.regret_scale > 0:
            raise ValueError(f"regret_scale must be positive, got {self.regret_scale:g}")
        if not _same_unit(self.discount_interval, self.lcfr_threshold):
            raise ValueError("discount_interval and lcfr_threshold must both be iterations or both be times")
        if not _same_unit(self.snapshot_interval, self.snapshot_start):
            raise ValueError("snapshot_interval and snapshot_start must both be iterations or both be times")

    def as_dict(self) -> dict[str, Any]:
        return {k: (str(v) if isinstance(v, Schedule) else v) for k, v in attrs.asdict(self, recurse=False).items()}

    @property
    def clock(self) -> Clock:
        return Clock(*(getattr(self, name) for name in SCHEDULES))

    @classmethod
    def parse_option(cls, key: str, raw: Any, legacy: bool = False) -> Any:
        """One option's value from a string (as from a CLI), checked on its own; the checks
        across options (units, floor) come when the config is built with the game's defaults.
        A bad value is an :class:`~gamesolve.errors.OptionError` naming ``key``; an unknown
        key a :class:`~gamesolve.errors.UserError`."""
        fields = {f.name: f for f in attrs.fields(cls)}
        if key not in fields:
            raise UserError(f"unknown MCCFR option {key!r} (options: {', '.join(fields)})")
        kind = str(fields[key].type)
        if raw is None:
            return None
        if key == "average":
            if raw not in ("pluribus", "sampled"):
                raise OptionError(key, f"must be pluribus or sampled, got {raw!r}")
            return raw
        if key == "strategy_update":
            if raw not in ("sampled", "exact"):
                raise OptionError(key, f"must be sampled or exact, got {raw!r}")
            return raw
        if "Schedule" in kind:
            try:
                return Schedule.parse(raw, legacy=legacy)
            except ValueError as exc:
                raise OptionError(key, str(exc), value=raw) from None
            except (TypeError, OverflowError):
                raise OptionError(key, f"is out of range, got {raw!r}") from None
        if "bool" in kind:
            try:
                return parse_boolean(raw, key)
            except ValueError:
                raise OptionError(key, f"expects true or false, got {raw!r}") from None
        try:
            return float(raw)
        except ValueError:
            raise OptionError(key, f"expects a number, got {raw!r}") from None

    @classmethod
    def from_options(cls, base: dict[str, Any] | None = None, *, legacy: bool = False, **overrides: Any) -> MCCFRConfig:
        """Build from a game's defaults plus overrides (strings accepted, as from a CLI);
        ``legacy`` reads stored configs written before ``10m`` meant anything but an error."""
        values = {key: cls.parse_option(key, raw, legacy) for key, raw in {**(base or {}), **overrides}.items()}
        return cls(**values)


def frozen_arrays(num_nodes: int, frozen: dict[tuple[int, int], np.ndarray]) -> K.Frozen:
    """The kernel's view of ``{(node, private state): probabilities}`` (one private state per node)."""
    node_slot = np.full(num_nodes, -1, dtype=np.int32)
    private, start, probs = [], [0], []
    for j, ((node, s), dist) in enumerate(sorted(frozen.items())):
        if node_slot[node] >= 0:
            raise ValueError(f"node {node} has more than one frozen private state")
        node_slot[node] = j
        private.append(s)
        probs.extend(float(x) for x in dist)
        start.append(len(probs))
    return K.Frozen(node_slot, np.array(private, dtype=np.int32), np.array(start, dtype=np.int64), np.array(probs, dtype=np.float64))


def headroom(max_row: int, per_iteration: int = 0) -> tuple[int, int]:
    """(refill_below, reservoir) for rows of at most ``max_row`` entries, where one iteration
    allocates at most ``per_iteration`` entries (see :func:`iteration_allocation_bound`). A
    thread stops for a fresh reservoir only between iterations, so its reservoir must hold what
    one iteration allocates: a fixed 1,024 entries is under two rows of the six-player
    ``small`` preset (200 buckets x up to 6 actions), and 20M iterations dropped 49,307 row
    allocations (rows that did not fit were skipped by that traversal) with the tables
    two-thirds empty. 64 of the largest rows were not always enough either: an iteration of
    the six-player ``tiny`` preset may allocate 52,288 entries, 77 of its largest rows."""
    refill_below = max(REFILL_BELOW, ROWS_PER_ITERATION * max_row, int(per_iteration))
    return refill_below, max(RESERVOIR, 16 * refill_below)


def iteration_allocation_bound(form: FactoredGame, sizes: np.ndarray, first_round: np.ndarray) -> int:
    """The most table entries one iteration on ``form`` can allocate (rows of ``sizes`` per
    owner node, those of ``first_round`` allocated up front): the headroom a reservoir keeps."""
    new_entries = np.where(first_round, 0, sizes).astype(np.int64)
    return int(K.iteration_allocation_bound(form.node_kind, form.node_player, form.child_start, form.child_list,
                                            form.row_owner, new_entries, form.num_players))  # fmt: skip


def default_capacity(total: int, max_row: int, threads: int, per_iteration: int = 0) -> int:
    """Table entries that hold every row of ``total`` entries: a thread leaves the rest of its
    reservoir (fewer than ``refill_below`` entries) unused when it takes a fresh one, so each
    reservoir carries slack for it, counted with a row's more as a margin (``np.zeros`` maps
    pages lazily: slack costs memory only where used)."""
    refill_below, reservoir = headroom(max_row, per_iteration)
    waste = refill_below + max_row
    reservoirs = -(-total // (reservoir - waste)) + threads + 1
    return total + reservoirs * waste + (threads + 1) * reservoir


class MCCFRTrainer(ScheduledRun):
    """Tables and schedules of one MCCFR run on a game in factored form."""

    def __init__(self, form: FactoredGame, config: MCCFRConfig, *, threads: int = 1, seed: int = 0,
                 capacity: int | None = None, frozen: dict[tuple[int, int], np.ndarray] | None = None):  # fmt: skip
        self.form = form
        self.config = config
        self.threads = int(threads)
        self.seed = int(seed)
        self.scale = float(config.regret_scale or form.regret_scale)
        self.counters = Counters()
        self.snapshot_sink = None  # where snapshots go (see take_snapshot); None: RAM
        self._tree = form.tree_arrays()
        self._terminals = form.terminal_arrays()
        self._rollout = form.rollout if form.rollout is not None else no_rollout(form)
        self._frozen = frozen_arrays(form.num_nodes, frozen or {})
        self._nodes = K.node_records(self._tree, self._terminals.kind, self._frozen.node_slot)  # the traversal's node fields
        sizes = self.sizes = form.row_sizes()  # table entries of each owner node
        first_round = (sizes > 0) & (form.node_round == 0)
        self.round0_size = int(sizes[first_round].sum())
        total = int(sizes.sum())
        self._max_row = int(sizes.max(initial=1))
        self.per_iteration = iteration_allocation_bound(form, sizes, first_round)
        self._refill_below, self._reservoir = headroom(self._max_row, self.per_iteration)
        if capacity is None:
            capacity = default_capacity(total, self._max_row, self.threads, self.per_iteration)
        if capacity < self.round0_size:
            raise ValueError(f"capacity {capacity:,} cannot hold the first round's {self.round0_size:,} table entries")
        self.capacity = int(capacity)
        # The allocation table: int32 offsets while the arena allows (half the bytes per node).
        offset_type = np.int32 if self.capacity < 2**31 - 1 else np.int64
        node_offset = np.full(form.num_nodes, -1, dtype=offset_type)
        offsets = np.cumsum(np.where(first_round, sizes, 0)) - np.where(first_round, sizes, 0)
        node_offset[first_round] = offsets[first_round]
        # The traversal's prefetch hints, for trees too large for the processor's caches.
        self._prefetch = form.num_nodes >= K.PREFETCH_NODES
        self._edges = K.edge_records(self._tree, node_offset) if self._prefetch else np.zeros(0, K.EDGE_RECORD)
        sampled = config.average == "sampled"
        t = self.threads
        self.tables = K.Tables(
            node_offset=node_offset,
            # np.zeros maps fresh pages lazily: capacity costs memory only where rows are used.
            regrets=np.zeros(self.capacity, dtype=np.int32),
            # float64: after tens of millions of iterations a float32 sum stops absorbing increments.
            avg=np.zeros(self.capacity if sampled else 0, dtype=np.float64),
            phi=np.zeros(self.round0_size, dtype=np.float32),
            res_next=np.zeros(t, dtype=np.int64),
            res_end=np.zeros(t, dtype=np.int64),
            rng=np.array([mix(self.seed * 1_000_003 + i + 1) for i in range(t)], dtype=np.uint64),
            visited=np.zeros(t, dtype=np.int64),
            dropped=np.zeros(t, dtype=np.int64),
            saturated=np.zeros(t, dtype=np.int64),
            touched=np.zeros(0, dtype=np.uint8),
        )
        self.snap_sum = np.zeros(self.capacity, dtype=np.float32)
        self.used = self.round0_size
        self.full = False  # the arena has no reservoir left to hand out (see _refill)
        self.update_rng = np.array([mix(self.seed * 7_777_777 + 12345)], dtype=np.uint64)
        depth = int(K.tree_depth(form.child_start, form.child_list))
        max_actions = int(form.num_actions.max())
        self.scratch = K.Scratch(
            st_node=np.zeros((t, depth + 1), dtype=np.int32),
            st_k=np.zeros((t, depth + 1), dtype=np.int32),
            st_row=np.zeros((t, depth + 1), dtype=np.int64),
            st_val=np.zeros((t, depth + 1, max_actions)),
            st_sig=np.zeros((t, depth + 1, max_actions)),
            st_expl=np.zeros((t, depth + 1, max_actions), dtype=np.bool_),
            us_stack=np.zeros((t, max(16, form.num_nodes + 1)), dtype=np.int32),
            us_sig=np.zeros((t, max_actions)),
        )
        self._stack = np.zeros(max(16, form.num_nodes + 1), dtype=np.int32)
        self._sig = np.zeros(max_actions)
        self._batch = 1000
        self._exact_reach = None  # strategy_update=exact's buffers, made on its first update
        self._exact_stack = None
        self.fetch = no_fetch()  # a row cache's bundle (gamesolve.distribute.row_cache); off: rows are allocated here

    # The tables by their old names. Kept: the trainer's own methods, the cluster's workers,
    # the solver, the search, tests and benchmarks still read them (about 80 places).
    @property
    def node_offset(self) -> np.ndarray:
        return self.tables.node_offset

    @property
    def regrets(self) -> np.ndarray:
        return self.tables.regrets

    @property
    def avg(self) -> np.ndarray:
        return self.tables.avg

    @property
    def phi(self) -> np.ndarray:
        return self.tables.phi

    # -- running -------------------------------------------------------------------------
    def _refill(self) -> None:
        """Fresh reservoirs for the threads running low. Once the arena cannot give one, the
        run goes on with what the threads hold: rows that do not fit are dropped (their nodes
        play uniformly) and counted, and the summary says so."""
        tb = self.tables
        for t in range(self.threads):
            # Only where the kernel itself stops for one: a reservoir taken because a batch
            # happened to end would move every later row, and batches end where the clock says.
            if tb.res_end[t] - tb.res_next[t] < self._refill_below:
                size = min(self._reservoir, self.capacity - self.used)
                if size <= self._refill_below:
                    self.full = True
                    continue
                tb.res_next[t] = self.used
                tb.res_end[t] = self.used + size
                self.used += size

    def _settings(self, prune_active: bool) -> K.Settings:
        c = self.config
        in_kernel = c.average == "pluribus" and c.strategy_update == "sampled"
        every = c.strategy_interval.iterations if in_kernel and c.strategy_interval.iterations else 0
        return K.Settings(
            n_players=self.form.num_players, prune_active=prune_active, prune_probability=float(c.prune_probability),
            prune_last_round=bool(c.prune_last_round), scale=self.scale, prune_threshold=np.int64(c.prune_below),
            regret_floor=np.int64(c.regret_floor), accumulate_avg=c.average == "sampled",
            strategy_every=np.int64(every), last_round=np.int64(self.form.num_rounds - 1),
            refill_below=np.int64(0 if self.full or self.fetch.on else self._refill_below),
            prefetch=self._prefetch,
        )  # fmt: skip

    def _run_batch(self, n: int, prune_active: bool | None = None) -> int:
        """Iterations ``counters.iteration + 1 .. + n`` (the counters are the caller's to
        advance); ``prune_active``: whether they prune (default: as the schedule says)."""
        k = self.counters
        if prune_active is None:
            prune_active = self.config.prune and self.config.clock.prune_active(k.iteration + 1, k.elapsed / 60)
        # One deal per iteration, numbered by iteration so that results do not depend on how
        # the run was cut into batches or threads.
        self.run_deals(self.deal_arrays(k.iteration, n), k.iteration, prune_active)
        return n

    def deal_arrays(self, first: int, n: int, seed: int | None = None) -> K.DealArrays:
        """The deals of iterations ``first + 1 .. first + n`` (of another stream with ``seed``)."""
        batch = self.form.deals.batch(self.seed if seed is None else seed, first, n)
        return K.DealArrays(batch.private, batch.public, batch.strength, batch.index, batch.cont, batch.cont_strength)

    def run_deals(self, deals: K.DealArrays, first: int, prune_active: bool) -> None:
        """One iteration per deal, split over the threads: deal ``j`` is global iteration
        ``first + j + 1`` (with a row cache, :attr:`fetch`, the iteration its ``number`` says)."""
        n = len(deals.private)
        left = np.full(self.threads, n // self.threads, dtype=np.int64)
        left[: n % self.threads] += 1
        done = np.zeros(self.threads, dtype=np.int64)
        # Thread t runs global iterations t_start[t] + 1, ... with the batch's deals from cursor[t].
        cursor = np.concatenate([[0], np.cumsum(left)[:-1]]).astype(np.int64)
        t_start = first + cursor
        while left.sum() > 0:
            if not self.fetch.on:  # a row cache never allocates: it fetches
                self._refill()
            cfg = self._settings(prune_active)
            t_start += done
            cursor += done
            done[:] = 0
            done[:] = run_parts(self.threads, lambda t: K.run_thread(
                t, left[t], t_start, cursor, self._tree, self._nodes, self._edges, self._terminals, deals, self.tables, self.scratch, cfg,
                self._frozen, self._rollout, self.fetch))  # fmt: skip
            left -= done

    def allocated(self) -> np.ndarray:
        """Which nodes have rows (bool per node)."""
        return self.node_offset >= 0

    def discount(self, d: float) -> None:
        """Linear CFR discount: regrets and averages times ``d`` (Algorithm 1, lines 20-25)."""
        # phi holds nothing unless the average is the paper's: its pages (every first-round
        # entry: the whole table of a one-round game) stay unmapped.
        phi = self.phi if self.config.average == "pluribus" else self.phi[:0]
        K.discount(self.regrets, self.used, phi, self.avg, d)

    def update_strategy(self, weight: float = 1.0) -> None:
        """UPDATE-STRATEGY for every player, each on a fresh deal (a stream of its own); with
        ``strategy_update=exact``, its expectation, ``weight`` times (no deal is drawn)."""
        n = self.form.num_players
        if self.config.strategy_update == "exact":
            if self._exact_reach is None:
                depth = int(K.tree_depth(self.form.child_start, self.form.child_list))
                pending = depth * int(self.form.num_actions.max()) + 2
                self._exact_reach = np.zeros((pending, int(self.form.num_private[0])))
                self._exact_stack = np.zeros(pending, dtype=np.int32)
            for p in range(n):
                K.update_strategy_exact(p, self._tree, self.node_offset, self.regrets, self.phi, float(weight),
                                        self._exact_stack, self._exact_reach, self._sig)  # fmt: skip
            return
        deals = self.deal_arrays(self.counters.strategy_updates * n, n, seed=self.seed ^ 0x5EED5EED)
        for p in range(n):
            self.update_rng[0] = K.update_strategy(p, p, self._tree, deals, self.tables, self.update_rng[0], self._stack, self._sig, self.fetch, 0)

    def take_snapshot(self) -> None:
        """Snapshot the later rounds' current strategy: to disk (uint16 per action) when the
        run has a store, so the tables stay at four bytes per action in RAM; else into an
        in-memory sum."""
        if self.snapshot_sink is not None:
            out = np.zeros(self.used, dtype=np.uint16)
            K.strategy_rows(self._tree, self.regrets, self.node_offset, 1, out, self._sig.copy(), K.QUANTISE)
            self.snapshot_sink.write(self.counters.snapshots, out)
        else:
            K.strategy_rows(self._tree, self.regrets, self.node_offset, 1, self.snap_sum, self._sig.copy(), K.ADD)
        self.counters.snapshots += 1

    def snapshot_sum(self) -> np.ndarray:
        """The sum of all snapshots so far (table layout, float32; a scale per row does not matter)."""
        if self.snapshot_sink is None:
            return self.snap_sum[: self.used]
        total = np.zeros(self.used, dtype=np.float32)
        for k in range(self.counters.snapshots):
            self.snapshot_sink.add_to(k, total)
        return total

    def _sync_counters(self) -> None:
        tb = self.tables
        self.counters.nodes_visited = int(tb.visited.sum())
        self.counters.dropped_rows = int(tb.dropped.sum())
        self.counters.saturated_regrets = int(tb.saturated.sum())

    # -- checkpoints ---------------------------------------------------------------------
    def state(self) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Everything needed to resume: arrays and JSON attributes."""
        u = self.used
        tb = self.tables
        arrays = {
            "regrets": tb.regrets[:u],
            "node_offset": tb.node_offset,
            "phi": tb.phi,
            "rng": tb.rng,
            "update_rng": self.update_rng,
            "res_next": tb.res_next,
            "res_end": tb.res_end,
        }
        if len(tb.avg):
            arrays["avg"] = tb.avg[:u]
        if self.counters.snapshots and self.snapshot_sink is None:
            arrays["snap_sum"] = self.snap_sum[:u]
        self._sync_counters()
        attrs_ = {"counters": attrs.asdict(self.counters), "used": int(u), "threads": self.threads, "batch": self._batch}
        return arrays, attrs_

    def load_state(self, arrays: dict[str, np.ndarray], meta: dict[str, Any]) -> None:
        """Restore a checkpoint written by :meth:`state` (the same form and config)."""
        u = int(meta["used"])
        tb = self.tables
        if u > self.capacity or len(arrays["node_offset"]) != self.form.num_nodes:
            raise ValueError("the checkpoint does not fit this game's tree")
        self.used = u
        tb.regrets[:u] = arrays["regrets"]
        tb.node_offset[:] = arrays["node_offset"]
        if self._prefetch:
            self._edges["row"] = K.edge_rows(self._tree, tb.node_offset)
        if self.config.average == "pluribus":  # (else zeros, and its pages stay unmapped)
            tb.phi[:] = arrays["phi"]
        self.update_rng[:] = arrays["update_rng"]
        if "avg" in arrays and len(tb.avg):
            tb.avg[:u] = arrays["avg"]
        if "snap_sum" in arrays:
            self.snap_sum[:u] = arrays["snap_sum"]
        counters = {f.name for f in attrs.fields(Counters)}
        self.counters = Counters(**{k: v for k, v in meta["counters"].items() if k in counters})
        self._batch = int(meta.get("batch", self._batch))
        if int(meta["threads"]) == self.threads:
            tb.rng[:] = arrays["rng"]
            tb.res_next[:] = arrays["res_next"]
            tb.res_end[:] = arrays["res_end"]
        else:  # a different thread count: fresh streams, fresh reservoirs
            base = self.seed * 1_000_003 + self.counters.iteration
            tb.rng[:] = [mix(base + t + 1) for t in range(self.threads)]
            tb.res_next[:] = 0
            tb.res_end[:] = 0
        tb.visited[:] = 0
        tb.visited[0] = self.counters.nodes_visited
        tb.dropped[:] = 0
        tb.dropped[0] = self.counters.dropped_rows
        tb.saturated[:] = 0
        tb.saturated[0] = self.counters.saturated_regrets

    # -- results -------------------------------------------------------------------------
    def current_rows(self, out: np.ndarray | None = None) -> np.ndarray:
        """Regret-matching strategy of every allocated row (arena layout, float32: this is
        the size of the tables themselves), into ``out`` if given."""
        if out is None:
            out = np.zeros(self.used, dtype=np.float32)
        K.strategy_rows(self._tree, self.regrets, self.node_offset, 0, out, self._sig.copy(), K.WRITE)
        return out

    def average_rows(self, out: np.ndarray | None = None) -> np.ndarray:
        """The blueprint (arena layout), into ``out`` if given. ``pluribus``: the first round's
        phi average and the later rounds' averaged snapshots; ``sampled``: every row's sampled
        average. Rows with nothing accumulated yet fall back to the current strategy."""
        out = self.current_rows(out)
        rounds = self.form.num_rounds

        def blend(values, lo, hi):
            K.blend_normalised(self._tree, values, self.node_offset, lo, hi, out)

        if self.config.average == "sampled":
            blend(self.avg[: self.used], 0, rounds)
            return out
        if self.counters.snapshots > 0:
            blend(self.snapshot_sum(), 1, rounds)
        blend(self.phi, 0, 0)
        return out

    def release_average_rows(self) -> np.ndarray:
        """:meth:`average_rows` for the last time, written into the regret table's own memory
        (a float32 view), and the training tables let go. For the run's end, after its last
        checkpoint: a big game's final evaluation then has the memory the tables held (Liar's
        Dice 2x6: 2.8 GB of averages instead of 2.8 GB more, and the 5.6 GB of sums freed).
        The trainer cannot train or save after this.

        The view is safe because regret matching (:mod:`gamesolve.solve.kernels.regret_matching`)
        sums a row's regrets before it writes, and reads each entry before writing that same
        entry; the blends that follow read the average sums, never the regrets."""
        rows = self.average_rows(out=self.regrets[: self.used].view(np.float32))
        empty = np.zeros(0, dtype=np.float32)
        self.tables = self.tables._replace(regrets=np.zeros(0, dtype=np.int32), avg=np.zeros(0), phi=empty)
        self.snap_sum = empty
        return rows

    def explicit_policy(self, explicit_tree, which: str = "average") -> np.ndarray:
        """The strategy laid out on an explicit tree's slots, via the form's ``locate``."""
        rows = self.average_rows() if which == "average" else self.current_rows()
        return explicit_slots(self.form, self.node_offset, rows, explicit_tree)

    def memory_report(self) -> dict[str, float]:
        """Table bytes and bytes per allocated infoset-action."""
        form = self.form
        sizes = form.row_sizes()
        allocated = self.node_offset >= 0
        actions = int(sizes[allocated].sum())
        later = int(sizes[allocated & (form.node_round > 0)].sum())
        table_bytes = actions * 4 + self.phi.nbytes + self.node_offset.nbytes
        if self.counters.snapshots > 0 and self.snapshot_sink is None:
            table_bytes += later * 4  # snapshot sums of the later rounds (on disk with a store)
        if len(self.avg):
            table_bytes += actions * 8  # sampled averages
        return {
            "allocated_infoset_actions": actions,
            "allocated_action_sequences": int((allocated & (form.node_kind == DECISION)).sum()),
            "table_bytes": table_bytes,
            "bytes_per_infoset_action": table_bytes / max(actions, 1),
        }
