"""Compiling the spot solver's kernels before the solve, and ahead of it (issue 36).

The vector CFR kernels' types depend on the form's array types, not on its tree: a river spot
of nine nodes (check or bet the pot, no raise) compiles what a flop of a million solves with.
:func:`stand_in_form` is that spot written down, so that a process can build it without the
rules engine (whose kernels, and the evaluator's tables, take a cold start about 12 s to
compile). ``gamesolve spot`` starts a child (:func:`start`) that solves the stand-in, filling
numba's on-disk cache with the solver's kernels while the parent compiles the engine and builds
the real spot; the parent then loads them (:mod:`gamesolve.compile_lock`: whichever process
comes second to a kernel waits for the first and loads its result). The child runs once per
table type and kernel cache (:func:`gamesolve.solve.warm.child_main`'s marker);
``GAMESOLVE_WARM=0`` turns it off.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np

from gamesolve.game.factored import FactoredGame
from gamesolve.solve.vcfr import VectorCFR
from gamesolve.solve.warm import child_main, start_child, stop_warm, warm_marker
from gamesolve_nlth.betting.subgame_tree import SubgameTree
from gamesolve_nlth.spot.form import node_boards, spot_form
from gamesolve_nlth.spot.hands import NUM_HANDS, touching

__all__ = ["compile_kernels", "stand_in_form", "start", "stop_warm"]

STAND_IN_BOARD = (0, 5, 10, 15, 20)  # 2c 3d 4h 5s 7c: a river
STAND_IN_POT = STAND_IN_STACK = 8

# The public tree of the stand-in, as walk_subgame builds it (tests/nlth/test_spot_warm.py checks
# that it still does): the out-of-position player checks or bets 8 (all-in), the other checks,
# bets, folds or calls. Nine nodes in preorder, eight edges.
_TREE = dict(
    kind=np.array([0, 0, 2, 0, 2, 2, 0, 2, 2], np.int8),
    player=np.array([0, 1, -1, 0, -1, -1, 1, -1, -1], np.int32),
    round=np.full(9, 3, np.int32),
    level=np.zeros(9, np.int32),
    commit=np.array([[4, 4], [4, 4], [4, 4], [4, 12], [4, 4], [12, 12], [12, 4], [4, 4], [12, 12]], np.float64),
    folded=np.array([[0, 0], [0, 0], [0, 0], [0, 0], [1, 0], [0, 0], [0, 0], [0, 1], [0, 0]], np.bool_),
    poker=np.array([0, 0, 2, 0, 1, 2, 0, 1, 2], np.int8),
    parent=np.array([0, 0, 1, 1, 3, 3, 6, 6], np.int64),
    child=np.array([1, 6, 2, 3, 4, 5, 7, 8], np.int64),
    label=np.array([1, 10, 1, 10, 0, 1, 0, 1], np.int64),
    cls=np.array([1, 2, 1, 2, 0, 1, 0, 1], np.int8),
    has_chance=False,
    row_owner=np.arange(9, dtype=np.int64),
    leaf=np.full(9, -1, np.int64),
    choice=np.full((9, 2), -1, np.int8),
)


def stand_in_tree() -> SubgameTree:
    """The stand-in's public tree."""
    return SubgameTree(**{k: v.copy() if isinstance(v, np.ndarray) else v for k, v in _TREE.items()})


def stand_in_form() -> FactoredGame:
    """A heads-up river spot with the array types of every spot ``gamesolve spot`` builds; every
    hand's strength is 0 (ties only: the types, not the values, decide the kernels)."""
    tree = stand_in_tree()
    return spot_form(STAND_IN_BOARD, STAND_IN_POT, STAND_IN_STACK, 2, tree, node_boards(tree, STAND_IN_BOARD), None,
                     lambda board: np.zeros(NUM_HANDS, np.int32))  # fmt: skip


def compile_kernels(threads: int, dtype) -> None:
    """Solve the stand-in once with ``dtype`` tables (a best response and the root's strategy
    read included), so that compiling the solver's kernels (or loading them from numba's
    cache) happens here and not in a timed solve."""
    # Every hand but those touching the board, as a spot's ranges leave them.
    reach = np.ones((2, NUM_HANDS))
    reach[:, touching(STAND_IN_BOARD)] = 0.0
    solver = VectorCFR(stand_in_form(), root_reach=reach, threads=threads, dtype=dtype)
    solver.run(1)
    solver.exploitability()
    solver.node_strategy(0)


def _marker(spec: dict[str, Any]) -> Path | None:
    return warm_marker("spot", {"dtype": spec["dtype"]})


def _work(spec: dict[str, Any]) -> None:
    compile_kernels(1, np.dtype(spec["dtype"]))


def start(dtype) -> subprocess.Popen | None:
    """The child compiling the solver's kernels for ``dtype`` tables, or None (turned off, or a
    child finished before for this kernel cache: see the module docstring)."""
    spec = {"dtype": np.dtype(dtype).name}
    return start_child("gamesolve_nlth.spot.warm", spec, _marker(spec))


def main(argv: list[str]) -> int:
    return child_main(argv, _work, _marker)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
