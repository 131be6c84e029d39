"""Vector-form CFR (``--algo vcfr``): the solver real-time search uses for subgames that run
to the end of the game (supplement, "Further details of the real-time search algorithm":
vector-form Linear CFR on small subgames), and a fast full-width solver for any game whose
deals can be listed.

:class:`VectorCFR` keeps one row of regrets per (decision node, private state), like the
MCCFR tables, and runs :mod:`gamesolve.solve.vcfr_kernels`. The CFR variant is a
:class:`~gamesolve.solve.cfr.CFRConfig` (DCFR by default; ``weighting=linear`` for Linear
CFR; the other tabular presets too), so a vector solve and a tabular solve of one game
follow the same schedule.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numba
import numpy as np

from gamesolve.errors import UserError
from gamesolve.game.factored import CHANCE, DECISION, FIXED, FactoredGame, FormError, subtree_ends
from gamesolve.game.removal import fixed_cfv, no_removal
from gamesolve.game.removal_multi import check_pair_items, prefix_sweep
from gamesolve.game.terminals import empty_terminal_deals, terminal_deals
from gamesolve.solve import vcfr_kernels as K
from gamesolve.solve.cfr import TABULAR_ALGORITHMS, CFRConfig
from gamesolve.solve.rows import explicit_slots

WEIGHTINGS = {"dcfr": "dcfr", "linear": "lcfr", "lcfr": "lcfr", "cfr+": "cfr+", "cfr": "cfr"}
"""``-o weighting=`` names and the tabular preset each stands for."""


class VectorCFR:
    """Vector-form CFR on a factored game with listed deals, or with item removal for two or
    three players (:mod:`gamesolve.game.removal`, :mod:`gamesolve.game.removal_multi`).

    Threads run the subtrees under the first public chance nodes when the game has at least
    :attr:`parallel_min` node-private-state pairs.

    :param root_reach: ``[P, S]`` each player's reach over private states at the root (a
        search subgame's range beliefs); ones for a whole game.
    :param frozen: ``{(node, private state): probabilities}`` rows whose strategy is fixed
        (a searcher's own earlier actions with its actual hand).
    """

    parallel_min = 200_000

    def __init__(self, form: FactoredGame, config: CFRConfig = TABULAR_ALGORITHMS["dcfr"], *,
                 sample_chance: bool = False, seed: int = 0, threads: int = 1,
                 root_reach: np.ndarray | None = None,
                 frozen: Mapping[tuple[int, int], np.ndarray] | None = None):  # fmt: skip
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
        self.form = form
        self.config = config
        self.threads = int(threads)
        self.iterations = 0
        n, p, s = form.num_nodes, form.num_players, int(form.num_private[0])
        self.num_states = s
        owners = (form.node_kind == DECISION) & (form.row_owner == np.arange(n))
        sizes = np.where(owners, form.num_actions * s, 0).astype(np.int64)
        self.row_offset = np.where(owners, np.cumsum(sizes) - sizes, -1).astype(np.int64)
        total = int(sizes.sum())
        _check_memory(8 * (3 * total + n * (p + 1) * s), form)
        reach = np.ones((p, s)) if root_reach is None else np.ascontiguousarray(root_reach, dtype=np.float64)
        if reach.shape != (p, s):
            raise ValueError(f"root_reach must have shape {(p, s)}, got {reach.shape}")
        self.tables = K.VectorTables(
            row_offset=self.row_offset,
            regrets=np.zeros(total),
            avg=np.zeros(total),
            sigma=np.zeros(total),
            reach=np.zeros((n, p, s)),
            cfv=np.zeros((n, s)),
            active=np.zeros(n, dtype=np.bool_),
            root_reach=reach,
        )
        if form.removal is None:
            self.terminal_deals = terminal_deals(form)
            self.removal = no_removal(n)
        else:
            self.terminal_deals = empty_terminal_deals(n, p)
            self.removal = form.removal
        self._terminals = form.terminal_arrays()
        self.schedule = K.Schedule(
            bool(config.rm_plus), bool(config.discount), float(config.alpha), float(config.beta),
            float(config.gamma), bool(sample_chance), np.uint64(seed),
        )  # fmt: skip
        self._tree = form.tree_arrays()
        slots, probs = [], []
        for (node, private), dist in (frozen or {}).items():
            owner = form.row_owner[node]
            n_act = form.num_actions[node]
            base = self.row_offset[owner] + private * n_act
            slots.extend(range(base, base + n_act))
            probs.extend(np.asarray(dist, dtype=np.float64))
        self._frozen_slots = np.array(slots, dtype=np.int64)
        self._frozen_probs = np.array(probs, dtype=np.float64)
        self._ranges, self._in_range = self._parallel_ranges()
        self._no_skip = np.zeros(n, dtype=np.bool_)

    def _parallel_ranges(self) -> tuple[np.ndarray, np.ndarray]:
        """The subtrees under the first public chance nodes, when they can run on threads:
        more than one thread and no table rows shared across them."""
        form = self.form
        in_range = np.zeros(form.num_nodes, dtype=np.bool_)
        # Entering a parallel region costs tens of microseconds per pass (far more on a loaded
        # machine): worth it only when the subtrees hold real work.
        if self.threads <= 1 or form.num_nodes * self.num_states < self.parallel_min:
            return np.zeros((0, 2), dtype=np.int64), in_range
        end = subtree_ends(form)
        first = np.flatnonzero((form.node_kind == CHANCE) & (form.node_level == 0))
        ranges = np.array([(c, end[c]) for node in first for c in form.children(node)], dtype=np.int64).reshape(-1, 2)
        label = np.full(form.num_nodes, -1, dtype=np.int64)
        for j, (lo, hi) in enumerate(ranges):
            label[lo:hi] = j
        decision = np.flatnonzero(form.node_kind == DECISION)
        if np.any(label[decision] != label[form.row_owner[decision]]):
            return np.zeros((0, 2), dtype=np.int64), in_range
        in_range[label >= 0] = True
        return ranges, in_range

    def run(self, iterations: int, batch: int = 0, on_batch: Callable[[int], None] | None = None) -> None:
        """Run ``iterations`` more iterations, calling ``on_batch(done)`` after each batch."""
        if iterations <= 0:
            raise ValueError(f"iterations must be positive, got {iterations}")
        if len(self._ranges):
            numba.set_num_threads(min(self.threads, numba.config.NUMBA_NUM_THREADS))
        batch = batch or max(1, min(iterations, 100))
        done = 0
        while done < iterations:
            step = min(batch, iterations - done)
            K.run(
                self._tree, self._terminals, self.terminal_deals, self.removal, self.tables, self.schedule, self._ranges, self._in_range,
                self._no_skip, self._frozen_slots, self._frozen_probs, self.iterations + 1, self.iterations + step,
                self.form.num_players, self.threads,
            )  # fmt: skip
            self.iterations += step
            done += step
            if on_batch is not None:
                on_batch(step)

    def average_rows(self) -> np.ndarray:
        out = np.empty_like(self.tables.avg)
        K.normalise(self._tree, self.tables.avg, self.row_offset, self.num_states, out)
        return out

    def current_rows(self) -> np.ndarray:
        """The strategy of the latest regrets (the final iterate, which search plays)."""
        K.regret_matching(self._tree, self.tables, self.num_states)
        out = self.tables.sigma.copy()
        out[self._frozen_slots] = self._frozen_probs
        return out

    def exploitability(self, which: str = "average") -> tuple[float, list[float]]:
        """Exploitability of the average (or current) strategy by vector best response:
        ``(mean of BR_p, [BR_0, BR_1, ...])``, each BR_p the expected payoff of a best response of
        ``p`` against the others' strategies, over the root's deals and reach. In a zero-sum
        game the players' values sum to zero, so the sum of the BR_p is the NashConv; with two
        players the mean is the usual exploitability."""
        rows = self.average_rows() if which == "average" else self.current_rows()
        if self.form.num_players != 2 and not self._zero_sum():
            raise ValueError("vector best response of more than two players is for zero-sum games")
        reach = self.tables.root_reach
        mass = self.root_mass()
        values = []
        for p in range(self.form.num_players):
            cfv = K.best_response_values(self._tree, self._terminals, self.terminal_deals, self.removal, self.tables, p, rows)
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
            fixed_cfv(reach[1], rm.items, rm.n_items, 1.0, mass, np.empty(rm.n_items))
        else:
            prefix_sweep(reach[1], reach[2], rm.items, rm.n_items, rm.path_strength[0], rm.path_order[0], True, True, 0, 0.0, 0.0, 0.0, 1.0, mass)
        return float(reach[0] @ mass)

    def explicit_policy(self, explicit_tree, which: str = "average") -> np.ndarray:
        rows = self.average_rows() if which == "average" else self.current_rows()
        return explicit_slots(self.form, self.row_offset, rows, explicit_tree)

    def row(self, rows: np.ndarray, node: int, private: int) -> np.ndarray:
        """One (node, private state)'s probabilities from ``rows``."""
        n_act = self.form.num_actions[node]
        base = self.row_offset[self.form.row_owner[node]] + private * n_act
        return rows[base : base + n_act]


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


def _check_memory(needed: int, form: FactoredGame) -> None:
    free = available_memory()
    if free is not None and needed > 0.9 * free:
        raise UserError(
            f"vcfr on {form.describe or form.game_name} needs {needed / 2**30:.1f} GB "
            f"({form.num_nodes:,} nodes x {int(form.num_private[0]):,} private states); "
            f"{free / 2**30:.1f} GB are free: solve a smaller game (fewer actions, a later round)"
        )


def weighting_config(name: str) -> CFRConfig:
    try:
        return TABULAR_ALGORITHMS[WEIGHTINGS[name]]
    except KeyError:
        raise ValueError(f"vcfr weighting must be one of {', '.join(WEIGHTINGS)}, got {name!r}") from None


VECTOR_OPTIONS = ("weighting", "sample_chance", "seed_chance")


def vector_form(request) -> FactoredGame:
    """The game's factored form for vcfr: its plugin's when that one is lossless with constant
    private states and listed deals, else the generic compiler's."""
    from gamesolve.game.compile import factored_form
    from gamesolve.game.factored_compiler import compile_factored

    if request.preset:
        raise ValueError("vcfr solves the whole game; --preset is for abstracted games")
    form = factored_form(request.game, request.pm, lossless=True)
    if form.deals.listed is None or not form.has_constant_private_states():
        form = compile_factored(request.game)
    return form


def check_vector_options(options: dict) -> tuple[CFRConfig, bool]:
    """The CFR preset and whether to sample public chance, from ``-o`` options (before work)."""
    unknown = sorted(set(options) - set(VECTOR_OPTIONS))
    if unknown:
        raise ValueError(f"unknown vcfr option {unknown[0]!r} (options: {', '.join(VECTOR_OPTIONS)})")
    config = weighting_config(str(options.get("weighting", "dcfr")))
    sample = str(options.get("sample_chance", "false")).lower()
    if sample not in ("true", "false", "1", "0", "yes", "no", "on", "off"):
        raise ValueError(f"vcfr option sample_chance expects true or false, got {sample!r}")
    return config, sample in ("true", "1", "yes", "on")


def run_vcfr(request, progress) -> dict:
    """``gamesolve solve --algo vcfr``: vector-form CFR (DCFR unless ``-o weighting=``)."""
    import time

    from gamesolve.game.compile import compiled_tree
    from gamesolve.store.policy_store import write_policy

    if request.resume:
        raise ValueError("vcfr cannot --resume: it keeps no checkpoints (it runs to the end in one go); rerun with --force")
    if request.iterations is None:
        raise ValueError("vcfr needs --iterations")
    if request.checkpoint_minutes is not None:
        raise ValueError("vcfr keeps no checkpoints; --checkpoint is for mccfr and mccfr-p")
    config, sample = check_vector_options(request.options)
    game = request.game
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
