"""``gamesolve abstraction info``: the exact size of a preset's betting tree and its blueprint's
memory (the estimate ``gamesolve solve`` checks before training)."""

from __future__ import annotations


import click

from gamesolve import json_report
from gamesolve_nlth.betting.action_abstraction import ROUND_NAMES, AbstractionError
from gamesolve_nlth.seats import MAX_PLAYERS, MIN_PLAYERS


def tree_info(preset_name: str, players: int = 6, progress=None) -> dict:
    """Nodes, action sequences, decision nodes and infosets per round, and memory, of a
    blueprint preset (six players: stacks 10,000, blinds 50/100)."""
    from gamesolve_nlth.blueprint.memory import estimate_memory
    from gamesolve_nlth.blueprint.presets import blueprint_preset

    memory = estimate_memory(blueprint_preset(preset_name), players, progress=progress)
    size = memory.tree
    infosets = size.infosets(memory.buckets)
    actions = memory.infoset_actions
    return {
        "preset": preset_name,
        "players": players,
        "public_nodes": size.nodes,
        "action_sequences": size.action_sequences,
        "decision_nodes": sum(size.decision_nodes),
        "buckets": list(memory.buckets),
        "rounds": [
            {
                "round": ROUND_NAMES[r],
                "decision_nodes": size.decision_nodes[r],
                "action_sequences": size.actions[r],
                "infosets": infosets[r],
                "infoset_actions": actions[r],
            }
            for r in range(4)
        ],
        "memory": memory.to_dict(),
        "memory_summary": memory.describe(),
    }


@click.command("info")
@click.option("--preset", type=click.Choice(["tiny", "small", "pluribus"]), default="tiny", show_default=True, help="Blueprint preset.")
@click.option("--players", type=click.IntRange(MIN_PLAYERS, MAX_PLAYERS), default=6, show_default=True, help="Players at the table.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def info_command(preset, players, as_json):
    """Exact size of a preset's betting tree (decision nodes, action sequences and infosets per
    round) and the blueprint's memory (pluribus: about 20 s)."""
    from gamesolve.errors import InputError
    from gamesolve.progress import BarProgress

    try:
        with BarProgress(quiet=as_json) as progress:
            data = tree_info(preset, players, progress)
    except (ValueError, AbstractionError) as exc:
        raise InputError(str(exc)) from None
    if as_json:
        click.echo(json_report.dumps(data))
        return
    click.echo(f"preset {preset}, {players} players, buckets {data['buckets']} (counted exactly)")
    click.echo(f"public nodes      {data['public_nodes']:>16,}")
    click.echo(f"action sequences  {data['action_sequences']:>16,}   (actions at decision nodes: every node but the root)")
    click.echo(f"decision nodes    {data['decision_nodes']:>16,}")
    for r in data["rounds"]:
        click.echo(f"  {r['round']:<8} decision nodes {r['decision_nodes']:>14,}   action sequences {r['action_sequences']:>14,}   "
                   f"infosets {r['infosets']:>16,}   infoset-actions {r['infoset_actions']:>16,}")  # fmt: skip
    click.echo(f"blueprint memory: {data['memory_summary']}")
