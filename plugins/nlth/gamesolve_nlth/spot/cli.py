"""``gamesolve spot``: solve a heads-up postflop spot and show the first player's strategy."""

from __future__ import annotations

import os

import click
import numpy as np

from gamesolve import json_report
from gamesolve.errors import InputError


def _percent(text: str) -> float:
    t = text.strip().rstrip("%")
    try:
        value = float(t)
    except ValueError:
        raise InputError(f"--target: not a percentage: {text!r} (e.g. 0.5%)") from None
    if value <= 0:
        raise InputError(f"--target must be positive, got {text!r}")
    return value


@click.command("spot")
@click.option("--board", required=True, help="3, 4 or 5 cards, e.g. QsJh2h (flop), QsJh2h8d (turn)")
@click.option("--oop-range", required=True, help="out-of-position range, e.g. '22+,A2s+,KTo+:0.5'")
@click.option("--ip-range", required=True, help="in-position range")
@click.option("--pot", type=click.IntRange(8), default=1000, show_default=True, help="chips in the pot (even)")
@click.option("--stack", type=click.IntRange(1), default=9000, show_default=True, help="chips behind each player")
@click.option("--bets", default="50%,100%,allin", show_default=True,
              help="first-bet sizes as pot %, per street as 'flop=33%,75% turn=50%,allin'")
@click.option("--raises", default="100%,allin", show_default=True,
              help="raise sizes as % of the pot after calling, same syntax")
@click.option("--allin-threshold", type=click.FloatRange(0, 1, min_open=True), default=0.67, show_default=True,
              help="a bet committing more than this fraction of the stack becomes all-in")
@click.option("--raise-cap", type=click.IntRange(0), default=3, show_default=True, help="raises after the first bet")
@click.option("--target", default="0.5%", show_default=True, help="stop at this exploitability, in % of the pot")
@click.option("--threads", type=click.IntRange(1), default=None, help="threads (default: all cores)")
@click.option("--max-iterations", type=click.IntRange(1), default=10_000, show_default=True)
@click.option("--seconds", type=click.FloatRange(0, min_open=True), default=None, help="stop after this much solving time")
@click.option("--check-every", type=click.IntRange(1), default=10, show_default=True,
              help="fewest iterations between exploitability checks (more while the target is far)")
@click.option("--line", default=None,
              help="also show the strategy at the end of this line: actions as printed and the cards dealt, "
                   "e.g. 'check,bet 500' or 'check,check,Kd,bet 1000'")
@click.option("--precision", type=click.Choice(["auto", "16", "32"]), default="auto", show_default=True,
              help="bits per regret and average-strategy entry: 16 halves the tables' memory "
                   "(one scale per node, postflop-solver's compressed storage); auto: 32 where it fits in free memory")
@click.option("--json", "as_json", is_flag=True, help="print the result as JSON")
def spot_command(board, oop_range, ip_range, pot, stack, bets, raises, allin_threshold, raise_cap, target,
                 threads, max_iterations, seconds, check_every, line, precision, as_json):  # fmt: skip
    """Solve a heads-up postflop spot (flop, turn or river) with vector CFR to a target
    exploitability, and show the out-of-position player's first decision over the range and by
    hand class. Player 0 (OOP) acts first on every street; cards still to come are dealt with
    their exact card-removal probabilities."""
    from gamesolve_nlth.spot import warm

    # The light checks first: a mistyped card, range, target or line starts no second process.
    inputs = _light_inputs(board, oop_range, ip_range, target, line)
    # The solver's kernels compile in a second process while this one compiles the rules
    # engine and builds the spot (spot/warm.py); the imports below start on the engine.
    child = warm.start(np.int16 if precision == "16" else np.float32)
    try:
        _spot(*inputs, pot, stack, bets, raises, allin_threshold, raise_cap, threads, max_iterations, seconds,
              check_every, precision, as_json)  # fmt: skip
    finally:
        warm.stop_warm(child)


def _light_inputs(board, oop_range, ip_range, target, line):
    """(board cards, OOP range, IP range, target %, line actions), checked without the rules
    engine (whose import builds the evaluator's tables); an :class:`InputError` line if bad."""
    from gamesolve_nlth.cards import parse_cards
    from gamesolve_nlth.spot.hands import RangeError, parse_range

    target_pct = _percent(target)
    actions = () if line is None else tuple(a.strip() for a in line.split(","))
    if any(not a for a in actions):
        raise InputError(f"--line: an empty action in {line!r} (actions are separated by commas, e.g. 'check,bet 500')")
    try:
        return tuple(parse_cards(board)), parse_range(oop_range), parse_range(ip_range), target_pct, actions
    except (RangeError, ValueError) as exc:
        raise InputError(str(exc)) from None


def _spot(cards, oop, ip, target_pct, actions, pot, stack, bets, raises, allin_threshold, raise_cap,
          threads, max_iterations, seconds, check_every, precision, as_json):  # fmt: skip
    from gamesolve.progress import BarProgress
    from gamesolve_nlth.spot.sizes import DEFAULT_BETS, DEFAULT_RAISES, parse_sizes
    from gamesolve_nlth.spot.solve import solve_spot
    from gamesolve_nlth.spot.tree import Spot, SpotError, StreetSizes

    try:
        first, then = parse_sizes(bets, DEFAULT_BETS), parse_sizes(raises, DEFAULT_RAISES)
        spot = Spot(cards, pot, stack, *(StreetSizes(first[s], then[s]) for s in ("flop", "turn", "river")),
                    allin_threshold=allin_threshold, raise_cap=raise_cap)  # fmt: skip
    except (SpotError, ValueError) as exc:
        raise InputError(str(exc)) from None
    threads = threads or os.cpu_count() or 1
    with BarProgress(quiet=as_json) as progress:
        try:
            result = solve_spot(spot, oop, ip, target_pct, threads, max_iterations, seconds,
                                check_every=check_every, progress=progress, line=actions, precision=precision if precision == "auto" else int(precision))  # fmt: skip
        except SpotError as exc:
            raise InputError(str(exc)) from None
    if as_json:
        click.echo(json_report.dumps(result.as_dict(), indent=2))
        return
    click.echo(f"spot: {spot.pot} in the pot, {spot.stack} behind; {result.nodes:,} nodes (built in {result.build_seconds:.1f} s)")
    tables = "" if result.precision == 32 else f" ({result.precision}-bit tables)"
    click.echo(f"solved: {result.iterations} iterations in {result.seconds:.2f} s{tables}, "
               f"exploitability {result.exploitability_pct_pot:.3f}% of the pot (target {target_pct:g}%)")  # fmt: skip
    _show("out-of-position first action", result.root, result.classes)
    if result.line:
        who = {"oop": "out of position", "ip": "in position"}[result.line_player]
        title = f"{who} after {', '.join(result.line)}"
        if result.line_strategy is None:
            click.echo(f"\n{title}: the solution never plays this line")
        else:
            _show(title, result.line_strategy, result.line_classes)


def _show(title: str, overall: dict[str, float], classes: dict[str, dict[str, float]]) -> None:
    names = list(overall)
    width = max(len(n) for n in names) + 2
    click.echo(f"\n{title}, over the range:")
    for name in names:
        click.echo(f"  {name:<{width}}{100 * overall[name]:6.1f}%")
    click.echo("\nby hand class:")
    click.echo("  " + " " * 5 + "".join(f"{n:>{width}}" for n in names))
    for cls, freqs in sorted(classes.items(), key=lambda kv: _class_order(kv[0])):
        click.echo(f"  {cls:<5}" + "".join(f"{100 * freqs[n]:>{width - 1}.0f}%" for n in names))


def _class_order(cls: str) -> tuple:
    from gamesolve_nlth.cards import RANKS

    ranks = [-RANKS.index(c) for c in cls[:2]]
    return (0 if len(cls) == 2 else 1 if cls[2] == "s" else 2, *ranks)
