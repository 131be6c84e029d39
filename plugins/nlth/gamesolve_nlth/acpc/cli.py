"""``gamesolve acpc dealer`` and ``gamesolve acpc play``: hold'em over the ACPC protocol."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from gamesolve import json_report
from gamesolve.cli_params import POSITIVE_FLOAT, POSITIVE_INT, SEED
from gamesolve.errors import InputError, StoreError, UserError
from gamesolve.plugins import HOST_KEY


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())


def _emit(report: dict, as_json: bool, lines: list[str]) -> None:
    """A readable summary, or (``--json``) one JSON object as the last line of stdout."""
    click.echo(json_report.dumps(report, sort_keys=True) if as_json else "\n".join(lines))


def _nlth_game(ctx, game_name: str, players, params):
    from gamesolve.cli_params import key_values, merge_players
    from gamesolve_nlth.state import NLTHGame

    host = ctx.meta[HOST_KEY]()
    players, params = merge_players(players, key_values(params, "--param"))
    try:
        _, game = host.game(game_name, players, params)
    except UserError as exc:
        raise InputError(_one_line(exc)) from None
    if not isinstance(game, NLTHGame):
        raise InputError(f"the ACPC protocol plays no-limit hold'em (--game nlth), not {game.name}")
    return host, game


@click.group("acpc")
def acpc_group():
    """Play no-limit hold'em over the ACPC protocol (version 2.0.0): a dealer, and any agent as
    a client, with each other or with other ACPC programs (docs/interop.md)."""


@acpc_group.command("dealer")
@click.option("--game", "game_name", default="nlth", show_default=True, help="The game (nlth; its stacks and blinds).")
@click.option("--players", type=POSITIVE_INT, default=None, help="Number of players (or -p players=N); default: the game's.")
@click.option("--param", "-p", "params", multiple=True, metavar="KEY=VALUE", help="Game parameter, e.g. -p players=2.")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True, help="Port (0: any free port; printed).")
@click.option("--hands", type=POSITIVE_INT, default=1000, show_default=True, help="Hands to deal.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of the cards.")
@click.option("--names", default=None, help="Comma-separated names of the seats, in connection order (default seat1, seat2, ...).")
@click.option("--log", "log_base", type=click.Path(path_type=Path), default=Path("acpc-match"), show_default=True,
              help="Write LOG.log (ACPC's log), LOG.phhs (PHH hand histories) and LOG.game (the ACPC game definition).")
@click.option("--force", is_flag=True, help="Replace the log files of an earlier match.")
@click.option("--timeout", type=POSITIVE_FLOAT, default=600.0, show_default=True,
              help="Seconds to wait for the clients to connect, and for each answer.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object as the last line of stdout.")
@click.pass_context
def dealer_command(ctx, game_name, players, params, host, port, hands, seed, names, log_base, force, timeout, as_json):
    """Deal HANDS hands to the clients that connect (seated in the order they connect; seats
    rotate one position per hand, stacks reset every hand) and report each seat's winnings."""
    from gamesolve.progress import BarProgress
    from gamesolve.store.outputs import check_output_file
    from gamesolve_nlth.acpc.dealer import Dealer, DealerConfig, log_paths

    _, game = _nlth_game(ctx, game_name, players, params)
    seat_names = tuple(x.strip() for x in names.split(",")) if names else ()
    if seat_names and (len(seat_names) != game.num_players or not all(seat_names)):
        raise InputError(f"--names needs {game.num_players} names, got {names!r}")
    try:
        for path in log_paths(log_base):
            check_output_file(path, "--log", folder=False, force=force, replaceable=_dealer_log)
    except StoreError as exc:
        raise InputError(_one_line(exc)) from None
    config = DealerConfig(game, hands, seed, host, port, seat_names, timeout, log_base)

    def listening(address: str, bound: int) -> None:
        click.echo(f"gamesolve acpc dealer: listening on {address}:{bound} for {game.num_players} clients "
                   f"({game.describe()}, {hands:,} hands)", nl=True)  # fmt: skip
        sys.stdout.flush()

    def seated(seat: int) -> None:
        name = seat_names[seat] if seat_names else f"seat{seat + 1}"
        click.echo(f"gamesolve acpc dealer: seat {seat + 1} ({name}) connected")
        sys.stdout.flush()

    try:
        with BarProgress(quiet=as_json) as progress:
            result = Dealer(config, on_listen=listening, on_seat=seated, progress=progress).run()
    except UserError as exc:
        raise InputError(_one_line(exc)) from None
    except OSError as exc:
        raise InputError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    report = {"game": game.name, "params": dict(game.params), "seed": seed,
              "log": [str(p) for p in log_paths(log_base)], **result.as_dict()}  # fmt: skip
    _emit(report, as_json, result.summary_lines() + [f"logs        {', '.join(report['log'])}"])


def _dealer_log(path: Path) -> bool:
    """Whether ``path`` is a file an earlier dealer wrote (so --force may replace it)."""
    try:
        with path.open(encoding="utf-8", errors="replace") as f:
            first = f.readline()
    except OSError:
        return False
    return first == "" or first.startswith(("STATE:", "SCORE:", "[", "GAMEDEF"))


@acpc_group.command("play")
@click.option("--host", default="127.0.0.1", show_default=True, help="The dealer's address.")
@click.option("--port", type=click.IntRange(1, 65535), required=True, help="The dealer's port.")
@click.option("--agent", "agent_text", required=True, help="The agent: NAME or NAME:KEY=VALUE[:KEY=VALUE] (see `gamesolve agents`).")
@click.option("--game", "game_name", default="nlth", show_default=True, help="The game (nlth; its stacks and blinds).")
@click.option("--players", type=POSITIVE_INT, default=None, help="Number of players (or -p players=N); default: the game's.")
@click.option("--param", "-p", "params", multiple=True, metavar="KEY=VALUE", help="Game parameter, e.g. -p players=2.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="The agent's seed.")
@click.option("--timeout", type=POSITIVE_FLOAT, default=None, help="Seconds to wait for the dealer (default: no limit).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object as the last line of stdout.")
@click.pass_context
def play_command(ctx, host, port, agent_text, game_name, players, params, seed, timeout, as_json):
    """Play AGENT at an ACPC dealer until it ends the match; report the agent's winnings."""
    from gamesolve.evaluate.match import MatchError, make_agents
    from gamesolve.progress import BarProgress
    from gamesolve.registry import RegistryError
    from gamesolve_nlth.acpc.client import connect, play

    plugin_host, game = _nlth_game(ctx, game_name, players, params)
    try:
        agents, names = make_agents(plugin_host.agents, game, [agent_text.strip()], seed, plugins=plugin_host.pm)
        connection = connect(host, port, timeout)
    except (RegistryError, MatchError, UserError) as exc:
        raise InputError(_one_line(exc)) from None
    try:
        with BarProgress(quiet=as_json) as progress:
            progress.start(None, "hands", f"{names[0]} at {host}:{port}")
            result = play(game, agents[0], connection, on_hand=lambda chips: progress.advance(1))
    except UserError as exc:
        raise InputError(_one_line(exc)) from None
    _emit({"agent": names[0], "game": game.name, "params": dict(game.params), **result.as_dict()}, as_json,
          result.summary_lines())  # fmt: skip
