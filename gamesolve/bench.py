"""Side-by-side benchmarks against open-spiel (a peer measured in the same run)."""

from __future__ import annotations

import time
from typing import Any

from gamesolve.evaluate.best_response import evaluate_policy
from gamesolve.game.compile import compiled_tree
from gamesolve.game.state import Game
from gamesolve.game.factored_compiler import compile_factored
from gamesolve.solve.cfr import TABULAR_ALGORITHMS, TabularCFR
from gamesolve.solve.vcfr import VectorCFR

OPENSPIEL_NAMES = {"kuhn": "kuhn_poker", "leduc": "leduc_poker", "liars_dice": "liars_dice"}
"""gamesolve's own games that open-spiel also has (``openspiel:`` games are open-spiel's)."""


def has_openspiel_counterpart(game: Game) -> bool:
    return game.name in OPENSPIEL_NAMES or hasattr(game, "os_game")


def openspiel_counterpart(game: Game):
    """The open-spiel game that is ``game``: an ``openspiel:`` game's own, or open-spiel's
    version of Kuhn, Leduc or Liar's Dice."""
    import pyspiel

    if hasattr(game, "os_game"):
        return game.os_game
    if game.name not in OPENSPIEL_NAMES:
        raise ValueError(f"no open-spiel counterpart for {game.name}")
    os_params = {"players": game.num_players} if game.name != "liars_dice" else {}
    return pyspiel.load_game(OPENSPIEL_NAMES[game.name], os_params)


def _cpu_seconds_per_iteration(step, iterations: int) -> float:
    started = time.process_time()
    for _ in range(iterations):
        step()
    return (time.process_time() - started) / iterations


def bench_cfr(game: Game, iterations: int = 200) -> dict[str, Any]:
    """CFR+ seconds per iteration (CPU time) for gamesolve and open-spiel's C++ CFRPlusSolver,
    and gamesolve's vector-form CFR (DCFR) beside them.

    All run warm iterations back to back (gamesolve's after one compiling iteration);
    open-spiel runs a tenth of them (at least 10), since it is far slower. Returns the rates,
    the ratio, and the exploitability of both gamesolve solvers after ``iterations``.
    """
    import pyspiel

    os_game = openspiel_counterpart(game)
    tree = compiled_tree(game)
    ours = TabularCFR(tree, TABULAR_ALGORITHMS["cfr+"])
    ours.run(1)  # compile and warm the kernels
    per_it_ours = _cpu_seconds_per_iteration(lambda: ours.run(1), iterations)
    vector = VectorCFR(compile_factored(game))
    vector.run(1)
    per_it_vector = _cpu_seconds_per_iteration(lambda: vector.run(1), iterations)
    solver = pyspiel.CFRPlusSolver(os_game)
    solver.evaluate_and_update_policy()
    os_iterations = max(10, iterations // 10)
    per_it_os = _cpu_seconds_per_iteration(solver.evaluate_and_update_policy, os_iterations)
    return {
        "game": game.describe(),
        "algo": "cfr+",
        "gamesolve_iterations": iterations,
        "gamesolve_seconds_per_iteration": per_it_ours,
        "gamesolve_iterations_per_second": 1.0 / per_it_ours,
        "openspiel_iterations": os_iterations,
        "openspiel_seconds_per_iteration": per_it_os,
        "openspiel_iterations_per_second": 1.0 / per_it_os,
        "speedup": per_it_os / per_it_ours,
        "gamesolve_exploitability": evaluate_policy(tree, ours.average_policy()).exploitability,
        "vcfr_iterations": vector.iterations,
        "vcfr_iterations_per_second": 1.0 / per_it_vector,
        "vcfr_exploitability": evaluate_policy(tree, vector.explicit_policy(tree)).exploitability,
        "vcfr_over_cfr_plus_speed": per_it_ours / per_it_vector,
    }
