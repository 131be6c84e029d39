"""``gamesolve agents``: the agents ``gamesolve match`` can seat."""

from __future__ import annotations

import click

from gamesolve.commands.support import emit, host_from


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def agents(ctx, as_json):
    """List the agents `gamesolve match` can seat, and the games they play."""
    host = host_from(ctx)
    rows = [
        {"name": spec.name, "games": list(spec.games) or "any", "description": spec.description,
         "plugin": host.agents.owner(spec.name)}
        for spec in host.agents
    ]  # fmt: skip
    lines = [f"{r['name']:<10} {', '.join(r['games']) if r['games'] != 'any' else 'any game':<10} {r['description']}  [{r['plugin']}]"
             for r in rows]  # fmt: skip
    emit({"agents": rows}, as_json, lines or ["no agents installed"])
