"""open-spiel's convergence curve on the same game, for comparison (``gamesolve plot --openspiel``).

Runs open-spiel's C++ solver (``cfr``, ``cfr+`` or external-sampling ``mccfr``) and measures
its exact exploitability (``pyspiel.exploitability``) at logarithmically spaced iterations;
the time axis counts solver time only, as gamesolve's metrics do. Needs open-spiel (the
``oracles`` extra).
"""

from __future__ import annotations

import math
import time

import numpy as np

OPENSPIEL_GAMES = {"kuhn": "kuhn_poker", "leduc": "leduc_poker"}
ALGORITHMS = ("cfr", "cfr+", "mccfr")


def openspiel_curve(game: str, players: int, algo: str, iterations: int, seconds: float = 60.0,
                    seed: int = 1, per_decade: int = 10, progress=None) -> dict[str, np.ndarray]:
    """``{"iteration", "seconds", "exploitability"}`` of open-spiel's ``algo`` on ``game``:
    up to ``iterations`` iterations or ``seconds`` of solver time, whichever comes first.
    ``progress`` (a :class:`gamesolve.solve.spec.Progress`) sees the solver seconds."""
    import pyspiel

    if game not in OPENSPIEL_GAMES:
        raise ValueError(f"open-spiel has no counterpart of {game} here (known: {', '.join(OPENSPIEL_GAMES)})")
    if algo not in ALGORITHMS:
        raise ValueError(f"open-spiel algorithm must be one of {', '.join(ALGORITHMS)}, got {algo!r}")
    os_game = pyspiel.load_game(OPENSPIEL_GAMES[game], {"players": int(players)})
    if algo == "cfr":
        solver = pyspiel.CFRSolver(os_game)
        step = solver.evaluate_and_update_policy
    elif algo == "cfr+":
        solver = pyspiel.CFRPlusSolver(os_game)
        step = solver.evaluate_and_update_policy
    else:
        solver = pyspiel.ExternalSamplingMCCFRSolver(os_game, seed=seed, avg_type=pyspiel.MCCFRAverageType.SIMPLE)
        step = solver.run_iteration
    ratio = 10.0 ** (1.0 / per_decade)
    done, spent, target = 0, 0.0, 1
    rows: list[tuple[int, float, float]] = []
    if progress is not None:
        progress.start(seconds, "s", f"open-spiel {algo} on {game}")
    while done < iterations and spent < seconds:
        started = time.perf_counter()
        for _ in range(target - done):
            step()
        elapsed = time.perf_counter() - started
        spent += elapsed
        if progress is not None:
            progress.advance(min(elapsed, max(0.0, seconds - spent + elapsed)), it=f"{target:,}")
        done = target
        rows.append((done, spent, pyspiel.exploitability(os_game, solver.average_policy())))
        target = min(iterations, max(done + 1, math.ceil(done * ratio)))
    arr = np.array(rows, dtype=float).reshape(-1, 3)
    return {"iteration": arr[:, 0], "seconds": arr[:, 1], "exploitability": arr[:, 2]}
