"""Solving a subgame with the core's solvers.

Supplement, "Further details of the real-time search algorithm": Pluribus solves subgames
with Linear CFR (vector form on small subgames, Monte Carlo Linear CFR on large or early
ones), *plays* the strategy of the final iteration, and updates the profile ``sigma`` used
for later beliefs with the weighted average. A :class:`SearchResult` carries both.

:class:`VectorSubgameSolver` runs :class:`~gamesolve.solve.vcfr.VectorCFR` (Linear CFR by
default) with the root's reach vectors; :class:`MCCFRSubgameSolver` runs the MCCFR trainer
(external sampling, linear discounting) with the root's deal weights; both keep the frozen
information sets fixed.
"""

from __future__ import annotations

from typing import Protocol

import attrs
import numpy as np

from gamesolve.search.solve_loop import SolveLimits, solve_until
from gamesolve.search.subgame import Subgame
from gamesolve.solve.cfr import TABULAR_ALGORITHMS
from gamesolve.solve.mccfr import MCCFRConfig, MCCFRTrainer
from gamesolve.solve.vcfr import VectorCFR


@attrs.frozen(eq=False)
class SearchResult:
    """A solved subgame: ``average`` (for beliefs) and ``current`` (final iteration, to play)
    rows, read by the game's information-state keys."""

    subgame: Subgame
    average: np.ndarray
    current: np.ndarray
    row_offset: np.ndarray  # first row entry of each subgame node's rows (row owners), -1 elsewhere
    support: np.ndarray  # bool[n, S]: (node, private state) that occur given the root's beliefs
    iterations: int

    @property
    def root_key(self) -> str:
        return self.subgame.spec.form.node_keys[self.subgame.spec.root]

    def distribution(self, key: str, which: str = "average") -> dict[int, float] | None:
        """``{action: probability}`` at the game's information set ``key``, or None where the
        subgame does not cover it (outside the subgame, or never reached given the beliefs)."""
        node, private = self.subgame.spec.form.locate(key)
        sub = self.subgame.node_of.get(node)
        if sub is None or not self.support[sub, private]:
            return None
        form = self.subgame.form
        offset = self.row_offset[form.row_owner[sub]]
        if offset < 0:
            return None
        n_act = form.num_actions_at(sub)
        rows = self.average if which == "average" else self.current
        probs = rows[offset + private * n_act : offset + (private + 1) * n_act]
        return {int(a): float(p) for a, p in zip(form.labels(sub), probs)}


class SubgameSolver(Protocol):
    def solve(self, subgame: Subgame) -> SearchResult: ...


@attrs.frozen
class VectorSubgameSolver:
    """Vector-form CFR (Linear CFR or another preset of the tabular family) on the subgame."""

    iterations: int = 1000
    algorithm: str = "lcfr"
    seconds: float | None = None  # the time budget (anytime: :mod:`gamesolve.search.solve_loop`)

    def solve(self, subgame: Subgame) -> SearchResult:
        solver = VectorCFR(
            subgame.form, TABULAR_ALGORITHMS[self.algorithm], root_reach=subgame.spec.root_reach, frozen=subgame.frozen
        )
        # Without a budget the iterations run in one call; with one the clock is read after each.
        limits = SolveLimits(self.iterations, seconds=self.seconds, step=1 if self.seconds is not None else max(self.iterations, 1))
        solve_until(solver, limits)
        return SearchResult(
            subgame, solver.average_rows(), solver.current_rows(), solver.row_offset, subgame.support(), solver.iterations
        )


@attrs.frozen
class MCCFRSubgameSolver:
    """External-sampling Linear MCCFR on the subgame: deals sampled by their root weights,
    regrets and averages discounted Linear-CFR style at a hundred intervals of the run; seeded
    (same seed, same subgame: same result)."""

    iterations: int = 100_000
    seed: int = 0

    def solve(self, subgame: Subgame) -> SearchResult:
        weights = subgame.root_weights()
        form = attrs.evolve(subgame.form, deals=subgame.form.deals.listed.reweighted(weights))
        interval = max(1, self.iterations // 100)
        config = MCCFRConfig(
            prune=False, average="sampled", discount_interval=str(interval), lcfr_threshold=str(self.iterations + 1),
            prune_threshold="off", strategy_interval="off", snapshot_interval="off", snapshot_start="off",
        )  # fmt: skip
        trainer = MCCFRTrainer(form, config, seed=self.seed, frozen=subgame.frozen)
        trainer.run(iterations=self.iterations)
        offsets = trainer.node_offset.astype(np.int64)
        return SearchResult(
            subgame, trainer.average_rows(), trainer.current_rows(), offsets, subgame.support(), self.iterations
        )


@attrs.frozen
class SizeDependentSolver:
    """Pluribus' choice: full-width Linear CFR for small subgames, Linear MCCFR for those
    with more than ``sampling_above`` public nodes."""

    full_width: VectorSubgameSolver
    sampling: MCCFRSubgameSolver
    sampling_above: int

    def solve(self, subgame: Subgame) -> SearchResult:
        chosen = self.sampling if subgame.form.num_nodes > self.sampling_above else self.full_width
        return chosen.solve(subgame)
