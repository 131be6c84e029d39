"""``gamesolve play``: a person against agents, in the terminal (gamesolve/play/)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import click

from gamesolve.cli_params import POSITIVE_INT
from gamesolve.commands.support import host_from, table_game
from gamesolve.errors import InputError


@click.command()
@click.option("--game", "game_name", required=True, help="Game name (see `gamesolve games`).")
@click.option("--agents", "agent_list", required=True,
              help="Comma-separated agents for the other seats: NAME or NAME:KEY=VALUE[:KEY=VALUE] (see `gamesolve agents`).")
@click.option("--seat", type=str, default="0", show_default=True, help="Your seat in the first hand (everyone moves one seat per hand).")
@click.option("--hands", type=POSITIVE_INT, default=None, help="Hands to play (default: until you type q).")
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed (cards and agents).")
@click.option("--players", type=POSITIVE_INT, default=None, help="Number of players (default: agents + you; one agent fills every other seat).")
@click.option("--param", "-p", "params", multiple=True, help="Game parameter KEY=VALUE (repeatable).")
@click.option("--hh", "hh_path", type=click.Path(path_type=Path), default=None,
              help="Save every hand here as it ends (NLTH: PHH, PATH.phhs one file, else a folder; other games: JSON lines). "
                   "Default: hands-DATE-TIME.phhs (or .jsonl) in the current folder.")
@click.option("--coach", "coach", default="auto", show_default=True,
              help="After each hand, show an agent's strategy at your decisions: auto (the first seated blueprint or policy agent), none, or an agent spec.")
@click.pass_context
def play(ctx, game_name, agent_list, seat, hands, seed, players, params, hh_path, coach):
    """Play against agents in the terminal: f, c, r 600, r 3bb, r 2/3pot, allin (docs/play.md)."""
    from gamesolve.play.history import HandHistories
    from gamesolve.play.table import TableError, TableSpec, build_table
    from gamesolve.play.terminal import TerminalPlayer

    host = host_from(ctx)
    game, texts, seat_no = table_game(host, game_name, players, agent_list, seat, params)
    if hh_path is None:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        hh_path = Path(HandHistories.default_name(host.pm, game).replace("hands", f"hands-{stamp}"))
    try:
        table = build_table(host, TableSpec(game, texts, coach), seat=seat_no, seed=seed, hands=hands, hh_path=hh_path)
    except TableError as exc:
        raise InputError(str(exc)) from None

    def read(prompt: str) -> str | None:
        click.echo(prompt, nl=False)
        line = sys.stdin.readline()
        return line if line else None  # "" is the end of input

    TerminalPlayer(table, read, click.echo).run()
