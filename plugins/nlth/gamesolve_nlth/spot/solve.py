"""Solving a spot to a target exploitability, and reading off what a player wants to see:
the root strategy over the range and by hand class, and the same at a line of actions on the
spot's first street (``--line check,bet 500``)."""

from __future__ import annotations

import math
import time

import attrs
import numpy as np

from gamesolve.game.factored import CHANCE, TERMINAL
from gamesolve.game.removal import fixed_cfv
from gamesolve.progress import NullProgress
from gamesolve.solve.spec import Progress
from gamesolve.solve.cfr import TABULAR_ALGORITHMS
from gamesolve.solve.vcfr import VectorCFR
from gamesolve_nlth.spot.hands import HAND_CARDS, NUM_HANDS, hand_class
from gamesolve_nlth.spot.suits import ranges_symmetric
from gamesolve_nlth.spot.tree import Spot, SpotError, StreetSizes, build_spot, why_no_deal, spot_ranges
from gamesolve_nlth.state import CHECK_CALL, FOLD, action_raise_to


SPOT_WEIGHTINGS = {"dcfr": attrs.evolve(TABULAR_ALGORITHMS["dcfr"], gamma=3.0)}
"""DCFR on spots averages with weight t^3 instead of the paper's t^2 (alpha 1.5 and beta 0
kept): the benchmark's turn reaches 0.3% of the pot in about 190 iterations instead of 201,
the river in about 150 instead of 157 (exploitability checked every 10 iterations,
2026-11-26); other weightings are the tabular presets."""


@attrs.frozen
class SpotResult:
    iterations: int
    seconds: float  # solving time (tree building and compiling excluded)
    cpu_seconds: float  # processor time of the same span, over all threads
    exploitability_pct_pot: float
    root: dict[str, float]  # action -> frequency over the out-of-position range
    classes: dict[str, dict[str, float]]  # hand class -> action -> frequency
    nodes: int
    build_seconds: float
    line: tuple[str, ...] = ()  # the actions of --line, as named in the output
    line_player: str | None = None  # "oop" or "ip": who acts at the line's node
    line_strategy: dict[str, float] | None = None  # as root, there (None: the solution never plays the line)
    line_classes: dict[str, dict[str, float]] | None = None

    def as_dict(self) -> dict:
        return attrs.asdict(self)


def action_name(spot: Spot, label: int, facing: bool) -> str:
    if label == FOLD:
        return "fold"
    if label == CHECK_CALL:
        return "call" if facing else "check"
    to = action_raise_to(label)
    if to >= spot.stack:
        return "allin"
    return f"{'raise to' if facing else 'bet'} {to} ({100 * to / spot.pot:.0f}%)"


def solve_spot(spot: Spot, oop: np.ndarray, ip: np.ndarray, target_pct: float = 0.5, threads: int = 1,
               max_iterations: int = 100_000, max_seconds: float | None = None, weighting: str = "dcfr",
               check_every: int = 25, progress: Progress = NullProgress(), line: tuple[str, ...] = ()) -> SpotResult:  # fmt: skip
    """Vector CFR until the exploitability is at most ``target_pct`` % of the pot (checked by
    best response at least ``check_every`` iterations apart: :func:`iterations_to_check`),
    ``max_iterations`` or ``max_seconds``. ``progress`` shows iterations with the latest
    exploitability. ``line``: actions from the root (:func:`walk_line`; checked before solving)
    where the result also shows the strategy of the player to act."""
    started = time.perf_counter()
    reach = spot_ranges(spot, oop, ip)
    if (why := why_no_deal(reach)) is not None:
        raise SpotError(why)
    # Mirror-image turn and river cards are dealt once when the ranges allow it (exact).
    form = build_spot(spot, symmetric=ranges_symmetric(reach, spot.board), progress=progress)
    build = time.perf_counter() - started
    path = walk_line(spot, form, line)
    solver = VectorCFR(form, SPOT_WEIGHTINGS.get(weighting) or TABULAR_ALGORITHMS[weighting], root_reach=reach,
                       threads=threads, dtype=np.float32)  # fmt: skip
    compile_kernels(threads)
    progress.start(max_iterations, "it", f"solving {form.num_nodes:,} nodes")
    started, cpu = time.perf_counter(), time.process_time()
    pct = np.inf
    checks: list[tuple[int, float]] = []
    while True:
        step = min(iterations_to_check(checks, target_pct, check_every), max_iterations - solver.iterations)
        if max_seconds is not None and checks:
            # Not far past the time budget on a prediction: the iterations it leaves room for.
            per_iteration = (time.perf_counter() - started) / solver.iterations
            step = min(step, max(check_every, int((max_seconds - (time.perf_counter() - started)) / per_iteration)))
        solver.run(step)
        pct = 100.0 * solver.exploitability()[0] / spot.pot
        checks.append((solver.iterations, pct))
        elapsed = time.perf_counter() - started
        progress.advance(step, exploitability=f"{pct:.3g}%")
        if pct <= target_pct or solver.iterations >= max_iterations or (max_seconds is not None and elapsed >= max_seconds):
            break
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    _, root, classes = strategy_at(spot, form, solver, reach, [])
    if not line:
        return SpotResult(solver.iterations, seconds, cpu, pct, root, classes, form.num_nodes, build)
    actor, there, there_classes = strategy_at(spot, form, solver, reach, path)
    named = tuple(action_names(spot, form, node)[i] for node, i in path)
    return SpotResult(solver.iterations, seconds, cpu, pct, root, classes, form.num_nodes, build, named,
                      ("oop", "ip")[actor], there, there_classes)  # fmt: skip


def iterations_to_check(checks: list[tuple[int, float]], target_pct: float, check_every: int) -> int:
    """Iterations to run before the next exploitability check, given the earlier checks
    (iterations, exploitability): ``check_every``, or more while the target is far.

    DCFR's exploitability falls about as a power of the iterations (t^-2 early, t^-1.8 near
    0.3% on the turn spot), so the last two checks predict the iteration the target is reached
    at; the next check comes 90% of the way there (early checks predict too late, so at most
    half the iterations so far ahead), never sooner than ``check_every``. A check costs about
    one iteration: on the turn spot 21 checks become 9 (it stops at 203 iterations, not 210)."""
    if len(checks) < 2:
        return check_every
    (t0, e0), (t1, e1) = checks[-2:]
    if not (target_pct < e1 < e0):
        return check_every
    power = math.log(e0 / e1) / math.log(t1 / t0)
    predicted = t1 * (e1 / target_pct) ** (1.0 / power)
    return max(check_every, int(min(0.9 * (predicted - t1), 0.5 * t1)))


def compile_kernels(threads: int) -> None:
    """Run the solver once on a tiny river spot, so that compiling its kernels (or loading
    them from numba's cache) is not counted as solving time."""
    sizes = StreetSizes(bets=(1.0,), raises=())
    tiny = Spot((0, 5, 10, 15, 20), 8, 8, sizes, sizes, sizes, raise_cap=0)
    hands = np.ones(NUM_HANDS)
    solver = VectorCFR(build_spot(tiny), root_reach=spot_ranges(tiny, hands, hands), threads=threads, dtype=np.float32)
    solver.run(1)
    solver.exploitability()


def action_names(spot: Spot, form, node: int) -> list[str]:
    """The names of a decision node's actions (a fold is offered only facing a bet)."""
    labels = [int(a) for a in form.labels(node)]
    return [action_name(spot, a, facing=FOLD in labels) for a in labels]


def _aliases(name: str) -> set[str]:
    """What a user may type for an action: its name, without the pot percentage, a raise
    without "to", all-in with a hyphen."""
    short = name.split(" (")[0]
    out = {name, short}
    if short.startswith("raise to "):
        out.add("raise " + short[len("raise to "):])
    if name == "allin":
        out.add("all-in")
    return out


def walk_line(spot: Spot, form, line: tuple[str, ...]) -> list[tuple[int, int]]:
    """``(node, action index)`` of each action of ``line`` from the root, named as the output
    names them (``check``, ``bet 500``, ``raise to 2000``, ``call``, ``fold``, ``allin``); the
    line must stay on the spot's first street and end where a player acts (:class:`SpotError`
    says why not, with the choices where a name matches none)."""
    node, path, done = 0, [], []
    for token in line:
        names = action_names(spot, form, node)
        typed = " ".join(token.lower().split())
        i = next((i for i, name in enumerate(names) if typed in _aliases(name)), None)
        if i is None:
            where = f"after {', '.join(done)}" if done else "at the root"
            raise SpotError(f"--line: no action {token.strip()!r} {where}; the choices are {', '.join(names)}")
        path.append((node, i))
        done.append(names[i])
        node = int(form.child_list[form.child_start[node] + i])
        if form.node_kind[node] == TERMINAL:
            raise SpotError(f"--line {', '.join(done)} ends the hand: nobody acts there")
        if form.node_kind[node] == CHANCE:
            raise SpotError(f"--line {', '.join(done)} ends the street: lines stay on the spot's first street")
    return path


def strategy_at(spot: Spot, form, solver: VectorCFR, reach: np.ndarray, path: list[tuple[int, int]]):
    """``(player, strategy, by class)`` at the node ``path`` leads to: the acting player's
    average strategy weighted by how likely each hand is there (its range weight times its own
    probabilities of the line's actions, times the opponent's compatible weight, likewise),
    overall and by hand class; ``None, None`` for the strategy when the solution never plays the line."""
    reach = reach.copy()
    node = 0
    for node, i in path:
        actor = int(form.node_player[node])
        reach[actor] = reach[actor] * solver.node_strategy(node)[:, i]
    if path:
        node = int(form.child_list[form.child_start[node] + path[-1][1]])
    actor = int(form.node_player[node])
    probs = solver.node_strategy(node)
    opponent = np.zeros(NUM_HANDS)
    fixed_cfv(reach[1 - actor], HAND_CARDS, 52, 1.0, opponent, np.empty(53), np.empty(NUM_HANDS + 1, np.int64))
    weight = reach[actor] * opponent
    total = weight.sum()
    if not total > 0:
        return actor, None, None
    names = action_names(spot, form, node)
    overall = {name: float(weight @ probs[:, i] / total) for i, name in enumerate(names)}
    classes: dict[str, dict[str, float]] = {}
    mass: dict[str, float] = {}
    for h in np.flatnonzero(weight > 0):
        c = hand_class(h)
        entry = classes.setdefault(c, dict.fromkeys(names, 0.0))
        for i, name in enumerate(names):
            entry[name] += weight[h] * probs[h, i]
        mass[c] = mass.get(c, 0.0) + weight[h]
    return actor, overall, {c: {k: v / mass[c] for k, v in entry.items()} for c, entry in classes.items()}
