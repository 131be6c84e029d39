"""How big a game tree is, estimated without walking it (Knuth's estimator).

Walk from the root to a leaf choosing each child uniformly at random; the products of the
branching factors met along the way, summed (``1 + b1 + b1*b2 + ...``), are an unbiased
estimate of the number of histories (D. E. Knuth, "Estimating the efficiency of backtrack
programs", Math. Comp. 29, 1975). The mean over many seeded paths is what
:meth:`gamesolve.game.state.Game.estimated_histories` returns for games that cannot count
their trees, so that a compiler can refuse a tree far beyond its limit in milliseconds
instead of walking toward it for minutes.
"""

from __future__ import annotations

import gc
import random
from contextlib import contextmanager

from gamesolve.game.state import Game

ESTIMATE_MARGIN = 10.0
"""Compilers refuse a game whose *estimate* exceeds their limit this many times over: the
estimator is unbiased but spread out, and a game near the limit is still stopped exactly
by the walk itself."""


def estimate_histories(game: Game, probes: int = 1000, seed: int = 0, cap: float = float("inf")) -> float:
    """The mean of ``probes`` seeded Knuth estimates of ``game``'s number of histories.

    Stops early once the estimates so far already put the mean above ``cap`` (a huge tree:
    its first path is enough), returning that partial mean (a lower bound above ``cap``).
    """
    rng = random.Random(f"gamesolve-tree-size:{seed}")
    total = 0.0
    for _ in range(probes):
        state = game.new_initial_state()
        product = 1.0
        total += 1.0
        while not state.is_terminal():
            actions = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else list(state.legal_actions())
            if not actions:
                break
            product *= len(actions)
            total += product
            if total > cap * probes:
                return total / probes
            state = state.child(actions[rng.randrange(len(actions))])
    return total / probes


def too_big(game: Game, limit: int, what: str) -> str | None:
    """Why ``game`` is too big for a compiled form of at most ``limit`` histories (one line
    naming ``what``, e.g. "an explicit tree"), or ``None`` if it may fit: from the game's own
    count (:meth:`Game.num_histories`) or its estimate (:meth:`Game.estimated_histories`)."""
    count = getattr(game, "num_histories", None)  # duck-typed games may not have them
    counted = count() if count is not None else None
    if counted is not None and counted > limit:
        return f"{game.describe()} has {counted:,} histories, more than {limit:,}; too big for {what}"
    estimate = getattr(game, "estimated_histories", None)
    estimated = estimate(ESTIMATE_MARGIN * limit) if estimate is not None and counted is None else None
    if estimated is not None and estimated > ESTIMATE_MARGIN * limit:
        return (f"{game.describe()} has about {estimated:.2g} histories (estimated along random paths), "
                f"far more than {limit:,}; too big for {what}")  # fmt: skip
    return None


@contextmanager
def collector_paused():
    """CPython's cycle collector off for a compiler's walk (and back as it was after it).

    A walk keeps millions of states, tuples and lists alive until it ends; every few hundred
    allocations the collector would scan them again, looking for cycles they do not form (a
    third of the generic compilers' time on three-player Leduc). Garbage in cycles is only
    collected later, once the walk is over."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
