"""Solving a round's subgame over ranges, the solver picked by the subgame's shape
(supplement, "Further details of the real-time search algorithm": vector-form CFR where the
subgame is small enough to walk over both players' ranges, Monte Carlo Linear CFR where it is
large):

* two players' root reach over private states with the public chance walked whole: vector
  CFR (:class:`~gamesolve.solve.vcfr.VectorCFR`, Linear CFR by default), its strategies read
  node by node when asked;
* the same with public chance too wide to walk (:class:`~gamesolve.search.domain.SampledChance`):
  sampled-chance vector CFR (:class:`~gamesolve.solve.vcfr_sampled.SampledChanceCFR`), each
  iteration one board per thread;
* deals drawn from the beliefs (pots of three or more players, rollout leaves): external-sampling
  Linear MCCFR (:class:`~gamesolve.solve.mccfr.MCCFRTrainer`), regrets and averages discounted
  by t/(t+1) every ``mccfr_iterations / 100`` iterations.

Every solve is anytime: it ends at its iteration cap or its time budget and plays what it has.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import attrs
import numpy as np

from gamesolve.search.domain import RangeSubgame
from gamesolve.search.solve_loop import SolveLimits, solve_until
from gamesolve.solve.cfr import TABULAR_ALGORITHMS
from gamesolve.solve.mccfr import MCCFRConfig, MCCFRTrainer
from gamesolve.solve.vcfr import VectorCFR
from gamesolve.solve.vcfr_sampled import SampledChanceCFR


def _at_least(low: float, strict: bool = False):
    """An attrs validator: the option at least ``low`` (above it when ``strict``; NaN never)."""

    def check(_instance, attribute, value) -> None:
        if not (value > low if strict else value >= low):
            raise ValueError(f"search option {attribute.name} must be {'above' if strict else 'at least'} {low}, got {value}")

    return check


def _one_of(choices: tuple[str, ...]):
    """An attrs validator: the option one of ``choices``."""

    def check(_instance, attribute, value) -> None:
        if value not in choices:
            raise ValueError(f"search option {attribute.name} must be one of {', '.join(choices)}, got {value!r}")

    return check


@attrs.frozen
class RangeSolveConfig:
    """How the agent's subgames are solved and played.

    :ivar seconds: time budget of a decision that searches, building the subgame included (a
        re-solve between decisions gets it whole); 0: none, then the iteration caps decide
        alone and play is reproducible on any machine.
    :ivar iterations: most iterations of a vector CFR solve (a sampled-chance iteration walks
        ``threads`` sampled boards: far cheaper and noisier than a full one).
    :ivar mccfr_iterations: most iterations of a Monte Carlo solve.
    :ivar algorithm: the vector solver's preset (``lcfr``: Linear CFR, as Pluribus; ``dcfr`` ...).
    :ivar play: ``current`` (the final iteration, as Pluribus) or ``average``; sigma, the
        beliefs' profile, is always the average.
    :ivar threads: threads of a solve (boards per sampled iteration; the first chance node's
        outcomes of a vector solve; MCCFR threads).
    :ivar memory: most gigabytes of a sampled-chance solve's tables (they grow with the boards
        reached; the solve stops and plays what it has before passing it).
    :ivar record: a solve log (:mod:`gamesolve.search.solve_log`) the agent appends each solve's
        iterations to ("": none).
    :ivar replay: a solve log whose iterations stop each solve, with no time budget: the
        recorded match played again to the bit ("": none).
    """

    seconds: float = attrs.field(default=5.0, validator=_at_least(0))
    iterations: int = attrs.field(default=1000, validator=_at_least(1))
    mccfr_iterations: int = attrs.field(default=200_000, validator=_at_least(1))
    algorithm: str = attrs.field(default="lcfr", validator=_one_of(tuple(TABULAR_ALGORITHMS)))
    play: str = attrs.field(default="current", validator=_one_of(("current", "average")))
    threads: int = attrs.field(default=1, validator=_at_least(1))
    memory: float = attrs.field(default=2.0, validator=_at_least(0, strict=True))
    record: str = ""
    replay: str = ""


@attrs.frozen(eq=False)
class SolvedSubgame:
    """A solved round: the subgame and its strategies over the ``num_private`` private states."""

    form: object
    num_private: int
    average: np.ndarray | None
    current: np.ndarray | None
    row_offset: np.ndarray
    iterations: int
    #: a vector CFR solver whose nodes are read one at a time (``average`` and ``current`` are
    #: None): expanding every row of a hold'em turn subgame takes 0.2-0.8 s of a decision's
    #: budget, and a decision reads a handful of nodes
    solver: VectorCFR | None = None

    def rows(self, node: int, which: str) -> np.ndarray | None:
        """``[S, actions]`` the strategy at ``node``; None where the solver never reached it (a
        sampling solver allocates rows on the first visit)."""
        n_act = self.form.num_actions_at(node)
        base = int(self.row_offset[self.form.row_owner[node]])
        if base < 0:
            return None
        if self.solver is not None:
            return self.solver.node_strategy(node, which)
        rows = self.average if which == "average" else self.current
        return np.asarray(rows[base : base + self.num_private * n_act], dtype=np.float64).reshape(self.num_private, n_act)


Budget = Callable[[float], "float | None"]
"""``budget(reserve)``: seconds a solve may take, keeping ``reserve`` for reading it out
(None: no time budget)."""


def solve_subgame(subgame: RangeSubgame, config: RangeSolveConfig, num_private: int, frozen: dict,
                  rng: np.random.Generator, budget: Budget, readout: dict[str, float], stop_at: int | None = None) -> SolvedSubgame:  # fmt: skip
    """Solve ``subgame`` with the solver its shape calls for (module docstring), the rows in
    ``frozen`` (``(node, private state) -> probabilities``) held fixed; a sampling solver draws
    its seed from ``rng`` (vector CFR draws nothing). ``readout`` keeps, per
    solver kind, the seconds per node the last read-out of its strategies took, which the next
    solve's budget reserves. ``stop_at``: the solve runs exactly this many iterations, with no
    budget (a replayed solve log); the schedules stay the configuration's."""
    form = subgame.form
    if stop_at is not None:
        budget = _no_budget
    if subgame.root_reach is None:
        return _solve_sampled_deals(form, config, num_private, frozen, int(rng.integers(2**31)), budget, readout, stop_at)
    algorithm = TABULAR_ALGORITHMS[config.algorithm]
    sampled = subgame.chance is not None
    if sampled:
        chance = subgame.chance
        solver = SampledChanceCFR(
            form, algorithm, pool=chance.pool, strengths=chance.strengths, seed=int(rng.integers(2**31)), root_reach=subgame.root_reach,
            frozen=frozen, boards_per_iteration=config.threads, dtype=np.float32, max_bytes=int(config.memory * 2**30),
        )  # fmt: skip
    else:
        solver = VectorCFR(form, algorithm, root_reach=subgame.root_reach, frozen=frozen, threads=config.threads)
    seconds = budget(readout.get("sampled", 0.0) * form.num_nodes if sampled else 0.0)
    # Anytime: no step that would end past the budget is started (the last one's length
    # predicts the next's; a hold'em turn iteration can take a few tenths of a second, a
    # sampled flop iteration milliseconds, so the clock is read every 8 of those). Without a
    # budget vector CFR runs its iterations in one call (a small subgame's iteration is
    # shorter than a call's overhead: Leduc's searches took 3.4x as long one by one).
    cap = config.iterations if stop_at is None else stop_at
    step = 8 if sampled else 1 if seconds is not None else max(cap, 1)
    limits = SolveLimits(cap, seconds=seconds, step=step)
    solve_until(solver, limits, exhausted=lambda: sampled and solver.full)
    if not sampled:
        return SolvedSubgame(form, num_private, None, None, solver.row_offset, solver.iterations, solver)
    read = time.perf_counter()
    solved = SolvedSubgame(form, num_private, solver.average_rows(), solver.current_rows(), solver.row_offset, solver.iterations)
    readout["sampled"] = (time.perf_counter() - read) / form.num_nodes
    return solved


def _no_budget(reserve: float = 0.0) -> None:
    return None


def _solve_sampled_deals(form, config: RangeSolveConfig, num_private: int, frozen: dict, seed: int, budget: Budget,
                         readout: dict[str, float], stop_at: int | None) -> SolvedSubgame:  # fmt: skip
    """External-sampling Linear MCCFR over deals the form draws from the beliefs (its discount
    schedule the cap's, ``mccfr_iterations``, however many it runs)."""
    total = config.mccfr_iterations
    mccfr = MCCFRConfig(
        prune=False, average="sampled", discount_interval=str(max(1, total // 100)), lcfr_threshold=str(total + 1),
        prune_threshold="off", strategy_interval="off", snapshot_interval="off", snapshot_start="off",
    )  # fmt: skip
    trainer = MCCFRTrainer(form, mccfr, seed=seed, threads=config.threads, frozen=frozen)
    seconds = budget(readout.get("mccfr", 0.0) * form.num_nodes)
    trainer.run(iterations=total if stop_at is None else stop_at, minutes=seconds / 60 if seconds is not None else None)
    read = time.perf_counter()
    offsets = trainer.node_offset.astype(np.int64)
    solved = SolvedSubgame(form, num_private, trainer.average_rows(), trainer.current_rows(), offsets, trainer.counters.iteration)
    readout["mccfr"] = (time.perf_counter() - read) / form.num_nodes
    return solved
