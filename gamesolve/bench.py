"""Side-by-side benchmarks against open-spiel (a peer measured in the same run)."""

from __future__ import annotations

import statistics
import time
from typing import Any

from gamesolve.evaluate.best_response import evaluate_policy
from gamesolve.game.compile import compiled_tree
from gamesolve.game.factored_compiler import compile_factored
from gamesolve.game.state import Game
from gamesolve.solve.cfr import TABULAR_ALGORITHMS, TabularCFR
from gamesolve.solve.vcfr import VectorCFR

OPENSPIEL_NAMES = {"kuhn": "kuhn_poker", "leduc": "leduc_poker", "liars_dice": "liars_dice"}


def _cpu_seconds_per_iteration(step, iterations: int) -> float:
    started = time.process_time()
    for _ in range(iterations):
        step()
    return (time.process_time() - started) / iterations


def _split(total: int, parts: int) -> list[int]:
    """``total`` iterations in ``parts`` blocks as equal as possible."""
    return [total // parts + (1 if k < total % parts else 0) for k in range(parts)]


def bench_cfr(game: Game, iterations: int = 200, rounds: int = 5) -> dict[str, Any]:
    """CFR+ CPU seconds per iteration for gamesolve and open-spiel's C++ CFRPlusSolver, and
    gamesolve's vector-form CFR (DCFR) beside them, one iteration per call for all three.

    The solvers run in alternating blocks, ``rounds`` rounds of (gamesolve CFR+, vcfr,
    open-spiel), so that a change of load on a shared machine falls on all three alike; each
    round gives a ratio, and the figures reported are the medians over the rounds. gamesolve's
    solvers run ``iterations`` in all (after one compiling iteration), open-spiel a tenth (at
    least two per round), since it is far slower. The exploitability of both gamesolve
    solvers is taken after their ``iterations``.
    """
    import pyspiel

    if game.name not in OPENSPIEL_NAMES:
        raise ValueError(f"no open-spiel counterpart for {game.name}")
    rounds = max(1, min(rounds, iterations - 1))
    tree = compiled_tree(game)
    ours = TabularCFR(tree, TABULAR_ALGORITHMS["cfr+"])
    vector = VectorCFR(compile_factored(game))
    os_params = {"players": game.num_players} if game.name != "liars_dice" else {}
    os_game = pyspiel.load_game(OPENSPIEL_NAMES[game.name], os_params)
    solver = pyspiel.CFRPlusSolver(os_game)
    # One warm-up iteration each (compiles the kernels); they count towards ``iterations``.
    ours.run(1)
    vector.run(1)
    solver.evaluate_and_update_policy()
    blocks = _split(iterations - 1, rounds)
    os_blocks = [max(2, n) for n in _split(max(10, iterations // 10), rounds)]
    per_it = {"cfr+": [], "vcfr": [], "openspiel": []}
    for n, n_os in zip(blocks, os_blocks):
        per_it["cfr+"].append(_cpu_seconds_per_iteration(lambda: ours.run(1), max(n, 1)))
        per_it["vcfr"].append(_cpu_seconds_per_iteration(lambda: vector.run(1), max(n, 1)))
        per_it["openspiel"].append(_cpu_seconds_per_iteration(solver.evaluate_and_update_policy, n_os))
    speedups = [o / c for o, c in zip(per_it["openspiel"], per_it["cfr+"])]
    vcfr_over = [c / v for c, v in zip(per_it["cfr+"], per_it["vcfr"])]
    ours_s, vector_s, os_s = (statistics.median(per_it[k]) for k in ("cfr+", "vcfr", "openspiel"))
    return {
        "game": game.describe(),
        "algo": "cfr+",
        "rounds": rounds,
        "gamesolve_iterations": ours.iterations,
        "gamesolve_seconds_per_iteration": ours_s,
        "gamesolve_iterations_per_second": 1.0 / ours_s,
        "openspiel_iterations": 1 + sum(os_blocks),
        "openspiel_seconds_per_iteration": os_s,
        "openspiel_iterations_per_second": 1.0 / os_s,
        "speedup": statistics.median(speedups),
        "speedup_by_round": speedups,
        "gamesolve_exploitability": evaluate_policy(tree, ours.average_policy()).exploitability,
        "vcfr_iterations": vector.iterations,
        "vcfr_iterations_per_second": 1.0 / vector_s,
        "vcfr_exploitability": evaluate_policy(tree, vector.explicit_policy(tree)).exploitability,
        "vcfr_over_cfr_plus_speed": statistics.median(vcfr_over),
        "vcfr_over_cfr_plus_speed_by_round": vcfr_over,
    }
