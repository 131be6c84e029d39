"""Solving a subgame with the core's CFR kernels.

Supplement, "Further details of the real-time search algorithm": Pluribus solves subgames
with Linear CFR (vector form on small subgames, Monte Carlo Linear CFR on large or early
ones), *plays* the strategy of the final iteration, and updates the profile ``sigma`` used
for later beliefs with the weighted average. A :class:`SearchResult` carries both.

:class:`TabularSubgameSolver` compiles the subgame to an explicit tree and runs
:class:`~gamesolve.solve.cfr.TabularCFR` (Linear CFR by default). A sampling solver for large
subgames (MCCFR over a poker-tree form of the subgame) implements :class:`SubgameSolver` too.
"""

from __future__ import annotations

from typing import Protocol

import attrs
import numpy as np

from gamesolve.game.explicit_tree import ExplicitTree, compile_explicit_tree
from gamesolve.search.policy import StrategyTable
from gamesolve.search.subgame import Subgame
from gamesolve.solve.cfr import TABULAR_ALGORITHMS, TabularCFR


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


@attrs.frozen
class TabularSubgameSolver:
    """Linear CFR (or another preset of the tabular family) on the compiled subgame."""

    iterations: int = 1000
    algorithm: str = "lcfr"
    max_nodes: int = 5_000_000

    def solve(self, subgame: Subgame) -> SearchResult:
        tree = compile_explicit_tree(subgame, max_nodes=self.max_nodes)
        cfr = TabularCFR(tree, TABULAR_ALGORITHMS[self.algorithm])
        cfr.run(self.iterations)
        return SearchResult(
            root_key=subgame.spec.root.public_key(),
            average=_table(tree, cfr.average_policy()),
            current=_table(tree, cfr.current_policy()),
            iterations=self.iterations,
            tree_size=tree.summary(),
        )
