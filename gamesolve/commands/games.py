"""``gamesolve games``: the games the installed plugins provide."""

from __future__ import annotations

import click

from gamesolve.commands.support import emit, host_from


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def games(ctx, as_json):
    """List the games the installed plugins provide."""
    host = host_from(ctx)
    rows = [
        {
            "name": spec.name,
            "players": [spec.min_players, spec.max_players],
            "description": spec.description,
            "plugin": host.games.owner(spec.name),
            "parameters": {k: p.default for k, p in spec.parameters.items()},
        }
        for spec in host.games
    ]
    lines = [f"{r['name']:<10} {r['players'][0]}-{r['players'][1]} players  {r['description']}  [{r['plugin']}]" for r in rows]
    emit({"games": rows}, as_json, lines or ["no games installed (install gamesolve-kuhn, gamesolve-leduc, ...)"])
