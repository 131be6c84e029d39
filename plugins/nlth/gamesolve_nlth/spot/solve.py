"""Solving a spot to a target exploitability, and reading off what a player wants to see:
the root strategy over the range and by hand class, and the same at the end of a line of
actions and dealt cards (``--line check,bet 500`` or ``--line check,check,Kd,bet 500``)."""

from __future__ import annotations

import time

import attrs
import numpy as np

from gamesolve.game.factored import CHANCE, TERMINAL
from gamesolve.progress import NullProgress
from gamesolve.search.solve_loop import SolveLimits, solve_until
from gamesolve.solve.cfr import TABULAR_ALGORITHMS
from gamesolve.solve.spec import Progress
from gamesolve.solve.vcfr import TooBig, VectorCFR
from gamesolve_nlth.cards import card_str, parse_card
from gamesolve_nlth.spot.hands import HAND_CARDS, hand_class
from gamesolve_nlth.spot.suits import ranges_symmetric
from gamesolve_nlth.spot.tree import (Spot, SpotError, build_spot, compatible_reach, spot_ranges,
                                      why_no_deal)
from gamesolve_nlth.spot.warm import compile_kernels
from gamesolve_nlth.state import CHECK_CALL, FOLD, action_raise_to


PRECISIONS = {32: np.float32, 16: np.int16}
"""``--precision``: bits per table entry. 32: float32 regrets and average sums; 16: 16-bit
codes with one float32 scale per node and table (b-inary/postflop-solver's compressed
storage, :mod:`gamesolve.solve.kernels.compressed`): half the memory, each update rounded to
1/32767 (regrets) or 1/65535 (average) of the node's largest entry. ``"auto"``: 32 where its
tables fit in the memory the system has free (faster, fewer iterations to a target: docs/spot.md,
"16-bit tables"), else 16."""

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
    line: tuple[str, ...] = ()  # the actions and cards of --line, as named in the output
    line_player: str | None = None  # "oop" or "ip": who acts at the line's node
    line_strategy: dict[str, float] | None = None  # as root, there (None: the solution never plays the line)
    line_classes: dict[str, dict[str, float]] | None = None
    precision: int = 32  # bits per table entry (PRECISIONS)

    def as_dict(self) -> dict:
        return attrs.asdict(self)


def action_name(label: int, facing: bool, pot: int, behind: int) -> str:
    """An action's name on a street that started with ``pot`` chips in the middle and
    ``behind`` chips behind each player: bets and raises by the street's chips put in (``bet
    500``, ``raise to 2500``) with that in % of the street's starting pot."""
    if label == FOLD:
        return "fold"
    if label == CHECK_CALL:
        return "call" if facing else "check"
    to = action_raise_to(label)
    if to >= behind:
        return "allin"
    return f"{'raise to' if facing else 'bet'} {to} ({100 * to / pot:.0f}%)"


@attrs.define
class _Chips:
    """Chips along a line from the spot's root: what each player put in on earlier streets
    (``spent``) and on this one (``street``), for naming actions street by street."""

    spot: Spot
    spent: list[int] = attrs.Factory(lambda: [0, 0])
    street: list[int] = attrs.Factory(lambda: [0, 0])

    def names(self, form, node: int) -> list[str]:
        """A decision node's action names (a fold is offered only facing a bet)."""
        labels = [int(a) for a in form.labels(node)]
        pot, behind = self.spot.pot + sum(self.spent), self.spot.stack - self.spent[0]
        return [action_name(a, FOLD in labels, pot, behind) for a in labels]

    def step(self, form, node: int, i: int) -> str:
        """Take child ``i`` of ``node``; its name (an action, or the card dealt)."""
        label = int(form.labels(node)[i])
        if form.node_kind[node] == CHANCE:
            self.spent = [a + b for a, b in zip(self.spent, self.street)]
            self.street = [0, 0]
            return card_str(label)
        name = self.names(form, node)[i]
        actor = int(form.node_player[node])
        if label == CHECK_CALL:
            self.street[actor] = max(self.street)
        elif label != FOLD:
            self.street[actor] = action_raise_to(label)
        return name


def solve_spot(spot: Spot, oop: np.ndarray, ip: np.ndarray, target_pct: float = 0.5, threads: int = 1,
               max_iterations: int = 100_000, max_seconds: float | None = None, weighting: str = "dcfr",
               check_every: int = 25, progress: Progress = NullProgress(), line: tuple[str, ...] = (),
               precision: int | str = 32) -> SpotResult:  # fmt: skip
    """Vector CFR until the exploitability is at most ``target_pct`` % of the pot (checked by
    best response at least ``check_every`` iterations apart: the core's solve loop,
    :func:`~gamesolve.search.solve_loop.solve_until`),
    ``max_iterations`` or ``max_seconds``. ``progress`` shows iterations with the latest
    exploitability. ``line``: actions from the root (:func:`walk_line`; checked before solving)
    where the result also shows the strategy of the player to act. ``precision``: bits per
    table entry (:data:`PRECISIONS`)."""
    if precision not in PRECISIONS and precision != "auto":
        raise SpotError(f"precision is 16 or 32 bits per table entry, or auto, not {precision}")
    started = time.perf_counter()
    reach = spot_ranges(spot, oop, ip)
    if (why := why_no_deal(reach)) is not None:
        raise SpotError(why)
    # Mirror-image turn and river cards are dealt once when the ranges allow it (exact), and
    # a line through a dealt card is read where that card is dealt.
    symmetric = ranges_symmetric(reach, spot.board) and not any(_card(token) is not None for token in line)
    form = build_spot(spot, symmetric=symmetric, progress=progress)
    build = time.perf_counter() - started
    path = walk_line(spot, form, line)
    config = SPOT_WEIGHTINGS.get(weighting) or TABULAR_ALGORITHMS[weighting]
    solver, precision = spot_solver(form, config, reach, threads, precision)
    compile_kernels(threads, PRECISIONS[precision])
    progress.start(max_iterations, "it", f"solving {form.num_nodes:,} nodes")
    limits = SolveLimits(max_iterations, seconds=max_seconds, target=target_pct, check_every=check_every)
    report = solve_until(solver, limits, measure=lambda: 100.0 * solver.exploitability()[0] / spot.pot,
                         progress=progress, label=lambda pct: f"{pct:.3g}%")  # fmt: skip
    seconds, cpu, pct = report.seconds, report.cpu_seconds, report.last
    _, root, classes = strategy_at(spot, form, solver, reach, [])
    if not line:
        return SpotResult(solver.iterations, seconds, cpu, pct, root, classes, form.num_nodes, build, precision=precision)
    actor, there, there_classes = strategy_at(spot, form, solver, reach, path)
    chips = _Chips(spot)
    named = tuple(chips.step(form, node, i) for node, i in path)
    return SpotResult(solver.iterations, seconds, cpu, pct, root, classes, form.num_nodes, build, named,
                      ("oop", "ip")[actor], there, there_classes, precision)  # fmt: skip


def spot_solver(form, config, reach: np.ndarray, threads: int, precision: int | str) -> tuple[VectorCFR, int]:
    """The spot's solver with tables of ``precision`` bits (:data:`PRECISIONS`), and the bits;
    ``"auto"`` tries float32 first and takes 16-bit tables only when float32's do not fit."""
    if precision == "auto":
        try:
            return VectorCFR(form, config, root_reach=reach, threads=threads, dtype=np.float32), 32
        except TooBig:
            precision = 16
    return VectorCFR(form, config, root_reach=reach, threads=threads, dtype=PRECISIONS[precision]), precision


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


def _card(token: str) -> int | None:
    """The card a line's token names (``Kd``), or None when it names none."""
    try:
        return parse_card(token.strip())
    except ValueError:
        return None


def action_names(spot: Spot, form, path: list[tuple[int, int]] = ()) -> list[str]:
    """The names of the actions at the decision node ``path`` leads to (the root: none)."""
    chips, node = _Chips(spot), 0
    for node, i in path:
        chips.step(form, node, i)
    if path:
        node = int(form.child_list[form.child_start[node] + path[-1][1]])
    return chips.names(form, node)


def walk_line(spot: Spot, form, line: tuple[str, ...]) -> list[tuple[int, int]]:
    """``(node, child index)`` of each step of ``line`` from the root: actions named as the
    output names them (``check``, ``bet 500``, ``raise to 2000``, ``call``, ``fold``,
    ``allin``) and, where a street ends, the card dealt next (``Kd``). The line must end where
    a player acts (:class:`SpotError` says why not, with the choices where a name matches none).
    A card is found only in a form built without suit symmetry (mirror-image cards are dealt once)."""
    node, path, done, chips = 0, [], [], _Chips(spot)
    for token in line:
        where = f"after {', '.join(done)}" if done else "at the root"
        if form.node_kind[node] == CHANCE:
            cards = [int(c) for c in form.labels(node)]
            card = _card(token)
            if card is None or card not in cards:
                raise SpotError(f"--line: {token.strip()!r} {where}: the street ends there, name a card the board "
                                f"leaves (e.g. {card_str(cards[-1])})")  # fmt: skip
            i = cards.index(card)
        else:
            names = chips.names(form, node)
            typed = " ".join(token.lower().split())
            i = next((i for i, name in enumerate(names) if typed in _aliases(name)), None)
            if i is None:
                raise SpotError(f"--line: no action {token.strip()!r} {where}; the choices are {', '.join(names)}")
        path.append((node, i))
        done.append(chips.step(form, node, i))
        node = int(form.child_list[form.child_start[node] + i])
        if form.node_kind[node] == TERMINAL:
            raise SpotError(f"--line {', '.join(done)} ends the hand: nobody acts there")
    if form.node_kind[node] == CHANCE:
        raise SpotError(f"--line {', '.join(done)} ends the street: add the card dealt next (e.g. {', '.join(done)}, "
                        f"{card_str(int(form.labels(node)[-1]))})")  # fmt: skip
    return path


def strategy_at(spot: Spot, form, solver: VectorCFR, reach: np.ndarray, path: list[tuple[int, int]]):
    """``(player, strategy, by class)`` at the node ``path`` leads to: the acting player's
    average strategy weighted by how likely each hand is there (its range weight times its own
    probabilities of the line's actions, times the opponent's compatible weight, likewise),
    overall and by hand class; ``None, None`` for the strategy when the solution never plays the line."""
    reach = reach.copy()
    node = 0
    for node, i in path:
        if form.node_kind[node] == CHANCE:  # the dealt card leaves both ranges
            reach[:, (HAND_CARDS == int(form.labels(node)[i])).any(axis=1)] = 0.0
            continue
        actor = int(form.node_player[node])
        reach[actor] = reach[actor] * solver.node_strategy(node)[:, i]
    if path:
        node = int(form.child_list[form.child_start[node] + path[-1][1]])
    actor = int(form.node_player[node])
    probs = solver.node_strategy(node)
    weight = reach[actor] * compatible_reach(reach[1 - actor])
    total = weight.sum()
    if not total > 0:
        return actor, None, None
    names = action_names(spot, form, path)
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
