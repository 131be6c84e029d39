"""Solving a subgame with the core's CFR kernels.

Supplement, "Further details of the real-time search algorithm": Pluribus solves subgames
with Linear CFR (vector form on small subgames, Monte Carlo Linear CFR on large or early
ones), *plays* the strategy of the final iteration, and updates the profile ``sigma`` used
for later beliefs with the weighted average. A :class:`SearchResult` carries both.

:class:`TabularSubgameSolver` compiles the subgame to an explicit tree and runs
:class:`~gamesolve.solve.cfr.TabularCFR` (Linear CFR by default); :class:`MCCFRSubgameSolver`
runs external-sampling Linear MCCFR (:mod:`gamesolve.solve.explicit_mccfr`) on the same
tree, for subgames whose full-width iterations are too expensive.
"""

from __future__ import annotations

from typing import Protocol

import attrs
import numpy as np

from gamesolve.game.explicit_tree import ExplicitTree, compile_explicit_tree
from gamesolve.search.policy import StrategyTable
from gamesolve.search.subgame import Subgame
from gamesolve.solve.cfr import TABULAR_ALGORITHMS, TabularCFR
from gamesolve.solve.explicit_mccfr import ExplicitLinearMCCFR


@attrs.frozen(eq=False)
class SearchResult:
    """A solved subgame: ``average`` (for beliefs) and ``current`` (final iteration, to play)."""

    root_key: str
    average: StrategyTable
    current: StrategyTable
    iterations: int
    tree_size: dict[str, int]


class SubgameSolver(Protocol):
    def solve(self, subgame: Subgame) -> SearchResult: ...


def _table(tree: ExplicitTree, slots: np.ndarray) -> StrategyTable:
    start = tree.infoset_slot_start
    return StrategyTable({
        key: (tree.slot_action[start[i] : start[i + 1]], slots[start[i] : start[i + 1]])
        for i, key in enumerate(tree.infoset_keys)
    })


def _result(subgame: Subgame, tree: ExplicitTree, solver, iterations: int) -> SearchResult:
    return SearchResult(
        root_key=subgame.spec.root.public_key(),
        average=_table(tree, solver.average_policy()),
        current=_table(tree, solver.current_policy()),
        iterations=iterations,
        tree_size=tree.summary(),
    )


@attrs.frozen
class TabularSubgameSolver:
    """Linear CFR (or another preset of the tabular family) on the compiled subgame."""

    iterations: int = 1000
    algorithm: str = "lcfr"
    max_nodes: int = 5_000_000

    def solve(self, subgame: Subgame) -> SearchResult:
        return self.solve_tree(subgame, compile_explicit_tree(subgame, max_nodes=self.max_nodes))

    def solve_tree(self, subgame: Subgame, tree: ExplicitTree) -> SearchResult:
        cfr = TabularCFR(tree, TABULAR_ALGORITHMS[self.algorithm])
        cfr.run(self.iterations)
        return _result(subgame, tree, cfr, self.iterations)


@attrs.frozen
class MCCFRSubgameSolver:
    """External-sampling Linear MCCFR on the compiled subgame, seeded (same seed, same
    subgame: same result)."""

    iterations: int = 100_000
    seed: int = 0
    max_nodes: int = 5_000_000

    def solve(self, subgame: Subgame) -> SearchResult:
        return self.solve_tree(subgame, compile_explicit_tree(subgame, max_nodes=self.max_nodes))

    def solve_tree(self, subgame: Subgame, tree: ExplicitTree) -> SearchResult:
        mccfr = ExplicitLinearMCCFR(tree, self.seed)
        mccfr.run(self.iterations)
        return _result(subgame, tree, mccfr, self.iterations)


@attrs.frozen
class SizeDependentSolver:
    """Pluribus' choice: full-width Linear CFR for small subgames, Linear MCCFR for those
    with more than ``sampling_above`` nodes."""

    full_width: TabularSubgameSolver
    sampling: MCCFRSubgameSolver
    sampling_above: int

    def solve(self, subgame: Subgame) -> SearchResult:
        tree = compile_explicit_tree(subgame, max_nodes=max(self.full_width.max_nodes, self.sampling.max_nodes))
        chosen = self.sampling if tree.num_nodes > self.sampling_above else self.full_width
        return chosen.solve_tree(subgame, tree)
