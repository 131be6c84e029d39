"""MCCFR with linear discounting and negative-regret pruning (Algorithm 1): the driver.

:class:`MCCFRTrainer` owns the tables and runs the numba kernels in batches, firing the
schedules of Algorithm 1 (discount, prune threshold, UPDATE-STRATEGY, snapshots) between
batches, at exact iterations for schedules in iterations and at the first batch boundary
after the time for schedules in minutes.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import attrs
import numba
import numpy as np

from gamesolve.game.poker_tree import DECISION, PokerTree
from gamesolve.solve import mccfr_kernels as K
from gamesolve.solve.schedule import Schedule

RESERVOIR = 1 << 16  # table entries handed to a thread at a time


def _schedule(value) -> Schedule:
    return Schedule.parse(value)


@attrs.frozen
class MCCFRConfig:
    """Parameters of Algorithm 1, defaulting to the paper's.

    :ivar prune: use TRAVERSE-MCCFR-P after ``prune_threshold`` (``mccfr-p``); else plain.
    :ivar discount_interval: Linear CFR discount of regrets and phi every interval ...
    :ivar lcfr_threshold: ... until this point (paper: every 10 minutes for 400 minutes).
    :ivar prune_threshold: pruning starts after this point (paper: 200 minutes).
    :ivar strategy_interval: UPDATE-STRATEGY for the first round (paper: 10,000 iterations).
    :ivar snapshot_interval: snapshot of the later rounds' current strategy ...
    :ivar snapshot_start: ... after this point (paper: every 200 minutes after 800).
    :ivar prune_below: C, actions with regret at or below it are skipped (paper: -300,000,000).
    :ivar regret_floor: regrets never go below it (paper: -310,000,000).
    :ivar prune_probability: share of traversals that prune (paper: 0.95).
    :ivar regret_scale: regret units per payoff unit (None: the game's own); int32 regrets
        store ``round(regret * regret_scale)``.
    :ivar average: ``pluribus`` (the paper: the first round's phi from UPDATE-STRATEGY, later
        rounds from averaged snapshots of the current strategy) or ``sampled`` (every round's
        policy accumulated where traversals sample opponents, open-spiel's SIMPLE averaging;
        reach-weighted, so it converges in two-player zero-sum games, at 4 bytes more per
        infoset-action).
    """

    prune: bool = True
    average: str = attrs.field(default="pluribus", validator=attrs.validators.in_(("pluribus", "sampled")))
    discount_interval: Schedule = attrs.field(default="10m", converter=_schedule)
    lcfr_threshold: Schedule = attrs.field(default="400m", converter=_schedule)
    prune_threshold: Schedule = attrs.field(default="200m", converter=_schedule)
    strategy_interval: Schedule = attrs.field(default="10000", converter=_schedule)
    snapshot_interval: Schedule = attrs.field(default="200m", converter=_schedule)
    snapshot_start: Schedule = attrs.field(default="800m", converter=_schedule)
    prune_below: float = -300_000_000.0
    regret_floor: float = -310_000_000.0
    prune_probability: float = 0.95
    regret_scale: float | None = None

    def as_dict(self) -> dict[str, Any]:
        return {k: (str(v) if isinstance(v, Schedule) else v) for k, v in attrs.asdict(self, recurse=False).items()}

    @classmethod
    def from_options(cls, base: dict[str, Any] | None = None, **overrides: Any) -> MCCFRConfig:
        """Build from a game's defaults plus overrides (strings accepted, as from a CLI)."""
        fields = {f.name: f for f in attrs.fields(cls)}
        values: dict[str, Any] = {}
        for key, raw in {**(base or {}), **overrides}.items():
            if key not in fields:
                raise ValueError(f"unknown MCCFR option {key!r} (options: {', '.join(fields)})")
            kind = fields[key].type
            if raw is None or "Schedule" in str(kind) or key == "average":
                values[key] = raw
            elif "bool" in str(kind):
                values[key] = raw if isinstance(raw, bool) else str(raw).lower() in ("1", "true", "yes", "on")
            else:
                try:
                    values[key] = float(raw)
                except ValueError:
                    raise ValueError(f"MCCFR option {key} expects a number, got {raw!r}") from None
        return cls(**values)


@attrs.define
class Counters:
    """Progress of the schedules (part of a checkpoint)."""

    iteration: int = 0
    elapsed: float = 0.0  # seconds of training, summed over runs
    discounts: int = 0
    strategy_updates: int = 0
    snapshots: int = 0
    snapshot_marker: int = -1
    nodes_visited: int = 0


class MCCFRTrainer:
    """Tables and schedules of one MCCFR run on a poker tree."""

    def __init__(self, tree: PokerTree, config: MCCFRConfig, *, threads: int = 1, seed: int = 0,
                 capacity: int | None = None):  # fmt: skip
        self.tree = tree
        self.config = config
        self.threads = int(threads)
        self.seed = int(seed)
        self.scale = float(config.regret_scale or tree.regret_scale)
        self.counters = Counters()
        self.snapshot_sink = None  # where snapshots go (see take_snapshot); None: RAM
        sizes = tree.row_sizes()
        first_round = (tree.node_kind == DECISION) & (tree.node_round == 0)
        self.round0_size = int(sizes[first_round].sum())
        total = int(sizes.sum())
        if capacity is None:
            capacity = total + (self.threads + 1) * RESERVOIR
        self.capacity = int(capacity)
        # The allocation table: int32 offsets while the arena allows (half the bytes per node).
        offset_type = np.int32 if self.capacity < 2**31 - 1 else np.int64
        self.node_offset = np.full(tree.num_nodes, -1, dtype=offset_type)
        offsets = np.cumsum(np.where(first_round, sizes, 0)) - np.where(first_round, sizes, 0)
        self.node_offset[first_round] = offsets[first_round]
        # np.zeros maps fresh pages lazily: capacity costs memory only where rows are used.
        self.regrets = np.zeros(self.capacity, dtype=np.int32)
        self.snap_sum = np.zeros(self.capacity, dtype=np.float32)
        self.phi = np.zeros(self.round0_size, dtype=np.float32)
        sampled = config.average == "sampled"
        # float64: after tens of millions of iterations a float32 sum stops absorbing increments.
        self.avg = np.zeros(self.capacity if sampled else 0, dtype=np.float64)
        self.used = self.round0_size
        self.res_next = np.zeros(self.threads, dtype=np.int64)
        self.res_end = np.zeros(self.threads, dtype=np.int64)
        self.rng = np.array([_mix(self.seed * 1_000_003 + t + 1) for t in range(self.threads)], dtype=np.uint64)
        self.update_rng = np.array([_mix(self.seed * 7_777_777 + 12345)], dtype=np.uint64)
        self._visited = np.zeros(self.threads, dtype=np.int64)
        depth = int(K.tree_depth(tree.child_start, tree.child_list))
        self._max_row = int(sizes.max())
        max_actions = int(tree.num_actions.max())
        self._st_node = np.zeros((self.threads, depth + 1), dtype=np.int32)
        self._st_k = np.zeros((self.threads, depth + 1), dtype=np.int32)
        self._st_row = np.zeros((self.threads, depth + 1), dtype=np.int64)
        self._st_val = np.zeros((self.threads, depth + 1, max_actions))
        self._st_sig = np.zeros((self.threads, depth + 1, max_actions))
        self._st_expl = np.zeros((self.threads, depth + 1, max_actions), dtype=np.bool_)
        self._stack = np.zeros(max(16, tree.num_nodes + 1), dtype=np.int32)
        self._sig = np.zeros(max_actions)
        self._us_stack = np.zeros((self.threads, max(16, tree.num_nodes + 1)), dtype=np.int32)
        self._us_sig = np.zeros((self.threads, max_actions))
        self._deal_cursor = np.zeros(self.threads, dtype=np.int64)
        self._deal_end = np.zeros(self.threads, dtype=np.int64)
        self._batch = 1000

    # -- running -------------------------------------------------------------------------
    def _refill(self) -> None:
        for t in range(self.threads):
            if self.res_end[t] - self.res_next[t] < 1024 + self._max_row:
                size = min(RESERVOIR, self.capacity - self.used)
                if size <= 1024:
                    raise MemoryError(
                        f"MCCFR tables are full ({self.capacity:,} entries); give a larger capacity"
                    )
                self.res_next[t] = self.used
                self.res_end[t] = self.used + size
                self.used += size

    def _run_batch(self, n: int) -> None:
        tree = self.tree
        c = self.config
        prune_active = c.prune and c.prune_threshold.passed(self.counters.iteration, self.counters.elapsed / 60)
        left = np.full(self.threads, n // self.threads, dtype=np.int64)
        left[: n % self.threads] += 1
        done = np.zeros(self.threads, dtype=np.int64)
        # Thread t runs global iterations t_start[t] + 1, ... (for in-kernel UPDATE-STRATEGY).
        t_start = self.counters.iteration + np.concatenate([[0], np.cumsum(left)[:-1]]).astype(np.int64)
        every = c.strategy_interval.iterations if c.average == "pluribus" and c.strategy_interval.iterations else 0
        args = (
            tree.node_kind, tree.node_player, tree.node_round, tree.child_start, tree.child_list,
            tree.commit, tree.folded, tree.num_buckets, np.int64(tree.num_rounds - 1),
            tree.deal_buckets, tree.deal_rank,
            self.node_offset, self.regrets, self.res_next, self.res_end, self.rng,
            self.scale, np.int64(c.prune_below), np.int64(c.regret_floor),
            self.avg, c.average == "sampled",
            t_start, np.int64(every), self.phi, self._us_stack, self._us_sig,
            self._st_node, self._st_k, self._st_row, self._st_val, self._st_sig, self._st_expl,
            self._visited,
        )  # fmt: skip
        sequential = tree.deal_source is not None
        if sequential:
            # One generated deal per iteration, numbered by iteration so that results do not
            # depend on how the run was cut into batches.
            buckets, ranks = tree.deal_source(self.seed, self.counters.iteration, n)
            args = args[:9] + (buckets, ranks) + args[11:]
            self._deal_cursor[:] = t_start - self.counters.iteration
            self._deal_end[:] = self._deal_cursor + left
        while left.sum() > 0:
            self._refill()
            t_start[:] = t_start + done
            done[:] = 0
            if self.threads == 1:
                got = K.run_thread(
                    0, left[0], tree.num_players, prune_active, c.prune_probability, sequential,
                    self._deal_cursor, self._deal_end, *args,
                )  # fmt: skip
                done[0] = got
            else:
                numba.set_num_threads(min(self.threads, numba.config.NUMBA_NUM_THREADS))
                K.run_threads(
                    self.threads, left, done, tree.num_players, prune_active, c.prune_probability, sequential,
                    self._deal_cursor, self._deal_end, *args,
                )  # fmt: skip
            left -= done

    def _events(self) -> None:
        """Fire the schedules due at the current iteration and time (Algorithm 1)."""
        c = self.config
        k = self.counters
        minutes = k.elapsed / 60
        if c.average == "pluribus" and c.strategy_interval.minutes is not None:
            count = c.strategy_interval.count(k.iteration, minutes)
            if count > k.strategy_updates:
                k.strategy_updates = count
                self.update_strategy()
        count = c.discount_interval.count(k.iteration, minutes)
        if count > k.discounts and not c.lcfr_threshold.passed(k.iteration, minutes):
            k.discounts = count
            d = count / (count + 1.0)  # (t / I) / (t / I + 1), line 20
            K.discount(self.regrets, self.used, self.phi, self.avg, d)
        if c.average == "pluribus" and c.snapshot_start.passed(k.iteration, minutes) and not c.snapshot_interval.never:
            count = c.snapshot_interval.count(k.iteration, minutes)
            if k.snapshot_marker < 0:
                k.snapshot_marker = count
            elif count > k.snapshot_marker:
                k.snapshot_marker = count
                self.take_snapshot()

    def update_strategy(self) -> None:
        """UPDATE-STRATEGY for every player on one sampled deal each."""
        tree = self.tree
        for p in range(tree.num_players):
            state, u = K.splitmix(self.update_rng[0])
            d = int(u * len(tree.deal_rank))
            self.update_rng[0] = K.update_strategy(
                p, d, tree.node_kind, tree.node_player, tree.node_round, tree.child_start, tree.child_list,
                tree.folded, tree.deal_buckets, self.node_offset, self.regrets, self.phi,
                state, self._stack, self._sig,
            )  # fmt: skip

    def take_snapshot(self) -> None:
        """Snapshot the later rounds' current strategy: to disk (uint8, one byte per action)
        when the run has a store, so the tables stay at four bytes per action in RAM; else
        into an in-memory sum."""
        t = self.tree
        if self.snapshot_sink is not None:
            out = np.zeros(self.used, dtype=np.uint8)
            K.quantised_snapshot(
                self.regrets, self.node_offset, t.node_kind, t.node_round, t.child_start, t.num_buckets,
                out, self._sig.copy(),
            )  # fmt: skip
            self.snapshot_sink.write(self.counters.snapshots, out)
        else:
            K.add_snapshot(
                self.regrets, self.node_offset, t.node_kind, t.node_round, t.child_start, t.num_buckets,
                self.snap_sum, self._sig.copy(),
            )  # fmt: skip
        self.counters.snapshots += 1

    def snapshot_sum(self) -> np.ndarray:
        """The sum of all snapshots so far (table layout, float32)."""
        if self.snapshot_sink is None:
            return self.snap_sum[: self.used]
        total = np.zeros(self.used, dtype=np.float32)
        for k in range(self.counters.snapshots):
            self.snapshot_sink.add_to(k, total)
        return total

    def _next_stop(self, target: int | None) -> int:
        k = self.counters.iteration
        stop = k + self._batch
        if target is not None:
            stop = min(stop, target)
        c = self.config
        schedules = [c.discount_interval]
        if c.average == "pluribus":
            schedules.append(c.snapshot_interval)
        for sched in schedules:
            nxt = sched.next_iteration(k)
            if nxt is not None:
                stop = min(stop, nxt)
        for threshold in (c.prune_threshold, c.snapshot_start):
            if threshold.iterations is not None and k < threshold.iterations:
                stop = min(stop, threshold.iterations)
        return max(stop, k + 1)

    def run(
        self,
        iterations: int | None = None,
        minutes: float | None = None,
        on_batch: Callable[[int, float], None] | None = None,
        on_checkpoint: Callable[[], None] | None = None,
        checkpoint_minutes: float | None = None,
    ) -> None:
        """Train for ``iterations`` more iterations or ``minutes`` of wall time (or both:
        whichever comes first). ``on_batch(iterations_done, seconds)`` after each batch;
        ``on_checkpoint()`` every ``checkpoint_minutes``."""
        if iterations is None and minutes is None:
            raise ValueError("MCCFR needs --iterations or --minutes")
        target = None if iterations is None else self.counters.iteration + int(iterations)
        started = time.perf_counter()
        deadline = None if minutes is None else started + minutes * 60
        last_checkpoint = started
        while True:
            now = time.perf_counter()
            if target is not None and self.counters.iteration >= target:
                break
            if deadline is not None and now >= deadline:
                break
            stop = self._next_stop(target)
            n = stop - self.counters.iteration
            t0 = time.perf_counter()
            self._run_batch(n)
            dt = time.perf_counter() - t0
            self.counters.iteration += n
            self.counters.elapsed += dt
            self._events()
            # Aim at batches of about 0.2 s so progress, time limits and schedules stay sharp.
            if dt > 0 and n == self._batch:
                self._batch = int(min(max(self._batch * min(4.0, 0.2 / dt), 100), 5_000_000))
            if on_batch is not None:
                on_batch(n, dt)
            if on_checkpoint and checkpoint_minutes and time.perf_counter() - last_checkpoint >= checkpoint_minutes * 60:
                on_checkpoint()
                last_checkpoint = time.perf_counter()
        self.counters.nodes_visited = int(self._visited.sum())

    # -- checkpoints ---------------------------------------------------------------------
    def state(self) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Everything needed to resume: arrays and JSON attributes."""
        u = self.used
        arrays = {
            "regrets": self.regrets[:u],
            "node_offset": self.node_offset,
            "phi": self.phi,
            "rng": self.rng,
            "update_rng": self.update_rng,
            "res_next": self.res_next,
            "res_end": self.res_end,
        }
        if len(self.avg):
            arrays["avg"] = self.avg[:u]
        if self.counters.snapshots and self.snapshot_sink is None:
            arrays["snap_sum"] = self.snap_sum[:u]
        attrs_ = {
            "counters": attrs.asdict(self.counters),
            "used": int(u),
            "threads": self.threads,
            "batch": self._batch,
            "visited": int(self._visited.sum()),
        }
        return arrays, attrs_

    def load_state(self, arrays: dict[str, np.ndarray], meta: dict[str, Any]) -> None:
        """Restore a checkpoint written by :meth:`state` (the same tree and config)."""
        u = int(meta["used"])
        if u > self.capacity or len(arrays["node_offset"]) != self.tree.num_nodes:
            raise ValueError("the checkpoint does not fit this game's tree")
        self.used = u
        self.regrets[:u] = arrays["regrets"]
        self.node_offset[:] = arrays["node_offset"]
        self.phi[:] = arrays["phi"]
        self.update_rng[:] = arrays["update_rng"]
        if "avg" in arrays and len(self.avg):
            self.avg[:u] = arrays["avg"]
        if "snap_sum" in arrays:
            self.snap_sum[:u] = arrays["snap_sum"]
        self.counters = Counters(**meta["counters"])
        self._batch = int(meta.get("batch", self._batch))
        if int(meta["threads"]) == self.threads:
            self.rng[:] = arrays["rng"]
            self.res_next[:] = arrays["res_next"]
            self.res_end[:] = arrays["res_end"]
        else:  # a different thread count: fresh streams, fresh reservoirs
            base = self.seed * 1_000_003 + self.counters.iteration
            self.rng[:] = [_mix(base + t + 1) for t in range(self.threads)]
            self.res_next[:] = 0
            self.res_end[:] = 0
        self._visited[:] = 0
        self._visited[0] = int(meta.get("visited", 0))

    # -- results -------------------------------------------------------------------------
    def current_rows(self) -> np.ndarray:
        """Regret-matching strategy of every allocated row (arena layout, float32: this is
        the size of the tables themselves)."""
        t = self.tree
        out = np.zeros(self.used, dtype=np.float32)
        K.current_strategy(self.regrets, self.node_offset, t.node_kind, t.node_round, t.child_start, t.num_buckets, 0, out)
        return out

    def average_rows(self) -> np.ndarray:
        """The blueprint (arena layout). ``pluribus``: the first round's phi average and the
        later rounds' averaged snapshots; ``sampled``: every row's sampled average. Rows
        with nothing accumulated yet fall back to the current strategy."""
        out = self.current_rows()
        t = self.tree
        blend = lambda values, lo, hi: K.blend_normalised(  # noqa: E731
            values, self.node_offset, t.node_kind, t.node_round, t.child_start, t.num_buckets, lo, hi, out
        )
        if self.config.average == "sampled":
            blend(self.avg[: self.used], 0, t.num_rounds)
            return out
        if self.counters.snapshots > 0:
            blend(self.snapshot_sum(), 1, t.num_rounds)
        blend(self.phi, 0, 0)
        return out

    def explicit_policy(self, explicit_tree, which: str = "average") -> np.ndarray:
        """The strategy laid out on an explicit tree's slots, via the game's ``locate``."""
        if self.tree.locate is None:
            raise ValueError(f"{self.tree.game_name} does not map its infosets to the poker tree")
        rows = self.average_rows() if which == "average" else self.current_rows()
        out = np.empty(explicit_tree.num_slots)
        n_actions = self.tree.num_actions
        for i, key in enumerate(explicit_tree.infoset_keys):
            node, bucket = self.tree.locate(key)
            s0, s1 = explicit_tree.infoset_slot_start[i], explicit_tree.infoset_slot_start[i + 1]
            a = n_actions[node]
            if a != s1 - s0:
                raise ValueError(f"infoset {key!r}: {s1 - s0} actions in the game, {a} in the poker tree")
            off = self.node_offset[node]
            out[s0:s1] = 1.0 / a if off < 0 else rows[off + bucket * a : off + (bucket + 1) * a]
        return out

    def memory_report(self) -> dict[str, float]:
        """Table bytes and bytes per allocated infoset-action."""
        sizes = self.tree.row_sizes()
        allocated = self.node_offset >= 0
        actions = int(sizes[allocated].sum())
        later = int(sizes[allocated & (self.tree.node_round > 0)].sum())
        table_bytes = actions * 4 + self.phi.nbytes + self.node_offset.nbytes
        if self.counters.snapshots > 0 and self.snapshot_sink is None:
            table_bytes += later * 4  # snapshot sums of the later rounds (on disk with a store)
        if len(self.avg):
            table_bytes += actions * 8  # sampled averages
        return {
            "allocated_infoset_actions": actions,
            "allocated_action_sequences": int(allocated.sum()),
            "table_bytes": table_bytes,
            "bytes_per_infoset_action": table_bytes / max(actions, 1),
        }


def _mix(x: int) -> int:
    x = (x + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return x ^ (x >> 31)
