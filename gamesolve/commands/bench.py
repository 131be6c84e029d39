"""``gamesolve bench cfr``: CFR+ timed beside open-spiel's."""

from __future__ import annotations

import click

from gamesolve.commands.support import emit, host_from, make_game
from gamesolve.errors import InputError


@click.command()
@click.argument("what", type=click.Choice(["cfr"]), default="cfr")
@click.option("--game", "game_name", default="leduc", help="Game to time, one open-spiel also has: kuhn, leduc, liars_dice or openspiel:NAME.")
@click.option("--iterations", type=click.IntRange(1, 1_000_000), default=200,
              help="CFR+ iterations gamesolve times (open-spiel runs a tenth, at least 10).")
@click.option("--rounds", type=click.IntRange(1, 1000), default=10, show_default=True,
              help="Alternating timed blocks of each solver; the ratios reported are the medians over the rounds.")
@click.option("--order", type=click.Choice(["fast", "openspiel"]), default="fast", show_default=True,
              help="gamesolve CFR+'s summation order (as `solve -o order=...`): fast, or open-spiel's (its iterates through exact ties).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object as the last line of stdout.")
@click.pass_context
def bench(ctx, what, game_name, iterations, rounds, order, as_json):
    """Time CFR+ per iteration: gamesolve and open-spiel's C++ side by side (needs open-spiel),
    in alternating blocks so that the machine's load falls on both alike."""
    from gamesolve.bench import OPENSPIEL_NAMES, bench_cfr, has_openspiel_counterpart

    host = host_from(ctx)
    spec, game = make_game(host, game_name, None, {})
    if not has_openspiel_counterpart(game):
        raise InputError(f"bench cfr compares with open-spiel on {', '.join(OPENSPIEL_NAMES)} or an openspiel: game, not {game.name}")
    try:
        result = bench_cfr(game, iterations, rounds, host.pm, order=order)
    except ImportError as exc:
        raise InputError(f"the benchmark needs open-spiel: pip install open-spiel ({exc})") from None

    def shown(v):
        if isinstance(v, list):
            return " ".join(f"{x:,.4g}" for x in v)
        return f"{v:,.6g}" if isinstance(v, float) else str(v)

    emit(result, as_json, [f"{k:<34} {shown(v)}" for k, v in result.items()])
