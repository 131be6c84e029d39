"""``gamesolve abstraction info``: the size of a preset's betting tree and blueprint."""

from __future__ import annotations

import json

import click

from gamesolve_nlth.betting.action_abstraction import AbstractionError
from gamesolve_nlth.engine import MAX_PLAYERS, MIN_PLAYERS
from gamesolve_nlth.betting.betting_tree import count_betting_tree, estimate_betting_tree
from gamesolve_nlth.betting.action_abstraction import ROUND_NAMES, action_abstraction

EXACT_LIMIT_SECONDS = {"tiny": True, "small": True}


def tree_info(preset_name: str, players: int = 6, exact: bool | None = None, samples: int = 200_000) -> dict:
    """Nodes and infosets per round, and table memory, for a blueprint preset."""
    from gamesolve_nlth.blueprint.presets import blueprint_preset

    preset = blueprint_preset(preset_name)
    abstraction = action_abstraction(preset.actions)
    exact = EXACT_LIMIT_SECONDS.get(preset_name, False) if exact is None else exact
    if exact:
        size, error = count_betting_tree(abstraction, players), None
    else:
        size, error = estimate_betting_tree(abstraction, players, samples=samples)
    buckets = preset.cards.buckets
    infosets = size.infosets(buckets)
    actions = size.infoset_actions(buckets)
    return {
        "preset": preset_name,
        "players": players,
        "exact": bool(exact),
        "public_nodes": size.nodes,
        "buckets": list(buckets),
        "rounds": [
            {
                "round": ROUND_NAMES[r],
                "decision_nodes": size.decision_nodes[r],
                "infosets": infosets[r],
                "infoset_actions": actions[r],
                **({"decision_nodes_se": error.decision_nodes[r]} if error else {}),
            }
            for r in range(4)
        ],
        "blueprint_bytes": 4 * sum(actions) + 4 * actions[0],
    }


@click.command("info")
@click.option("--preset", type=click.Choice(["tiny", "small", "pluribus"]), default="tiny", show_default=True, help="Blueprint preset.")
@click.option("--players", type=click.IntRange(MIN_PLAYERS, MAX_PLAYERS), default=6, show_default=True, help="Players at the table.")
@click.option("--estimate", is_flag=True, help="Estimate (Knuth's method) instead of walking the tree.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def info_command(preset, players, estimate, as_json):
    """Nodes and infosets per round of a preset's betting tree, and the blueprint's memory."""
    from gamesolve.errors import InputError

    try:
        data = tree_info(preset, players, exact=False if estimate else None)
    except (ValueError, AbstractionError) as exc:
        raise InputError(str(exc)) from None
    if as_json:
        click.echo(json.dumps(data))
        return
    how = "exact" if data["exact"] else "estimated from random probes (± one standard error)"
    click.echo(f"preset {preset}, {players} players, buckets {data['buckets']} ({how})")
    click.echo(f"public nodes   {data['public_nodes']:,}")
    for r in data["rounds"]:
        se = f" ± {r['decision_nodes_se']:,}" if "decision_nodes_se" in r else ""
        click.echo(f"  {r['round']:<8} decision nodes {r['decision_nodes']:>14,}{se}   infosets {r['infosets']:>16,}   infoset-actions {r['infoset_actions']:>16,}")
    click.echo(f"blueprint tables if every sequence is reached: {data['blueprint_bytes'] / 2**30:,.1f} GiB "
               f"(int32 regrets + first-round average; lazy allocation needs less)")
