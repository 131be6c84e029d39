"""Side-by-side benchmarks against open-spiel (a peer measured in the same run)."""

from __future__ import annotations

import statistics
import time
from typing import Any

from gamesolve.evaluate.best_response import evaluate_policy
from gamesolve.game.compile import compiled_tree, factored_form
from gamesolve.game.state import Game
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


def _cpu_seconds_per_iteration(step, calls: int, per_call: int = 1) -> float:
    started = time.process_time()
    for _ in range(calls):
        step()
    return (time.process_time() - started) / (calls * per_call)


def _split(total: int, parts: int) -> list[int]:
    """``total`` iterations in ``parts`` blocks as equal as possible (each at least 1)."""
    return [max(1, total // parts + (1 if k < total % parts else 0)) for k in range(parts)]


def bench_cfr(game: Game, iterations: int = 200, rounds: int = 10, pm=None, order: str = "fast") -> dict[str, Any]:
    """CFR+ CPU seconds per iteration for gamesolve and open-spiel's C++ CFRPlusSolver, and
    gamesolve's vector-form CFR (DCFR, on the factored form ``gamesolve solve`` uses) beside
    them.

    The solvers run in alternating blocks, ``rounds`` rounds of (gamesolve CFR+, vcfr,
    open-spiel), so that a change of load on a shared machine falls on all of them alike;
    each round gives a ratio, and the figures reported are the medians over the rounds.
    Timed two ways: one iteration per call (as open-spiel's ``evaluate_and_update_policy``),
    and, for gamesolve, the round's iterations in one call (as ``gamesolve solve`` runs them;
    a second pair of solvers, so that both pairs run exactly ``iterations``). open-spiel runs
    a tenth of ``iterations`` (at least two per round), since it is far slower. The
    exploitability of both gamesolve solvers is taken after their ``iterations``. ``order``
    is gamesolve CFR+'s summation order (:data:`~gamesolve.solve.cfr.ORDERS`).
    """
    import pyspiel

    rounds = max(1, min(rounds, iterations - 1))
    tree = compiled_tree(game)
    form = factored_form(game, pm)
    ours, ours_batched = (TabularCFR(tree, TABULAR_ALGORITHMS["cfr+"], order=order) for _ in range(2))
    vector, vector_batched = VectorCFR(form), VectorCFR(form)
    os_game = openspiel_counterpart(game)
    solver = pyspiel.CFRPlusSolver(os_game)
    # One warm-up iteration each (compiles the kernels); they count towards ``iterations``.
    for warm in (ours, ours_batched, vector, vector_batched):
        warm.run(1)
    solver.evaluate_and_update_policy()
    blocks = _split(iterations - 1, rounds)
    os_blocks = [max(2, n) for n in _split(max(10, iterations // 10), rounds)]
    per_it: dict[str, list[float]] = {k: [] for k in ("cfr+", "vcfr", "cfr+ batched", "vcfr batched", "openspiel")}
    for n, n_os in zip(blocks, os_blocks):
        per_it["cfr+"].append(_cpu_seconds_per_iteration(lambda: ours.run(1), n))
        per_it["vcfr"].append(_cpu_seconds_per_iteration(lambda: vector.run(1), n))
        per_it["cfr+ batched"].append(_cpu_seconds_per_iteration(lambda: ours_batched.run(n), 1, n))
        per_it["vcfr batched"].append(_cpu_seconds_per_iteration(lambda: vector_batched.run(n), 1, n))
        per_it["openspiel"].append(_cpu_seconds_per_iteration(solver.evaluate_and_update_policy, n_os))

    def median_ratio(slow: str, fast: str) -> float:
        return statistics.median(s / f for s, f in zip(per_it[slow], per_it[fast]))

    rate = {k: 1.0 / statistics.median(v) for k, v in per_it.items()}
    return {
        "game": game.describe(),
        "algo": "cfr+",
        "order": order,
        "rounds": rounds,
        "gamesolve_iterations": ours.iterations,
        "gamesolve_seconds_per_iteration": 1.0 / rate["cfr+"],
        "gamesolve_iterations_per_second": rate["cfr+"],
        "gamesolve_batched_iterations_per_second": rate["cfr+ batched"],
        "openspiel_iterations": 1 + sum(os_blocks),
        "openspiel_seconds_per_iteration": 1.0 / rate["openspiel"],
        "openspiel_iterations_per_second": rate["openspiel"],
        "speedup": median_ratio("openspiel", "cfr+"),
        "speedup_by_round": [o / c for o, c in zip(per_it["openspiel"], per_it["cfr+"])],
        "speedup_batched": median_ratio("openspiel", "cfr+ batched"),
        "gamesolve_exploitability": evaluate_policy(tree, ours.average_policy()).exploitability,
        "vcfr_form": form.describe,
        "vcfr_iterations": vector.iterations,
        "vcfr_iterations_per_second": rate["vcfr"],
        "vcfr_batched_iterations_per_second": rate["vcfr batched"],
        "vcfr_exploitability": evaluate_policy(tree, vector.explicit_policy(tree)).exploitability,
        "vcfr_over_cfr_plus_speed": median_ratio("cfr+", "vcfr"),
        "vcfr_over_cfr_plus_speed_batched": median_ratio("cfr+ batched", "vcfr batched"),
    }
