"""What several commands of the ``gamesolve`` line share: the plugin host of the running
command, game names and ``KEY=VALUE`` options read, results printed, one-line errors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from gamesolve import json_report
from gamesolve.cli_params import key_values, merge_players
from gamesolve.errors import InputError, OptionError, StoreError, UserError
from gamesolve.game.explicit_tree import CompileError
from gamesolve.game.names import with_params
from gamesolve.game.spec import ParameterError
from gamesolve.plugins import HOST_KEY, PluginHost
from gamesolve.registry import RegistryError

USER_ERRORS = (UserError, RegistryError, ParameterError, StoreError, CompileError, FileNotFoundError, MemoryError)


def host_from(ctx: click.Context) -> PluginHost:
    """The plugin host of the running command: the one the ``gamesolve`` group put in the
    context (``ctx.meta[HOST_KEY]``), as plugin commands reach it."""
    return ctx.meta[HOST_KEY]()


def one_line(exc: BaseException) -> str:
    """An exception's message on one line."""
    return " ".join(str(exc).split()) or type(exc).__name__


def option_error(exc: OptionError, flags: dict[str, str] | None = None, prefix: str = "-o") -> InputError:
    """A library's :class:`OptionError` as this command's one-line error, naming the flag the
    user typed: ``flags[field]`` (e.g. ``{"checkpoint": "--checkpoint"}``), else ``PREFIX FIELD``
    (``-o prune_threshold``)."""
    flag = (flags or {}).get(exc.field) or f"{prefix} {exc.field}"
    return InputError(" ".join(exc.shown(flag).split()))


def emit(result: dict[str, Any], as_json: bool, summary: list[str]) -> None:
    """Print a readable summary, or (``--json``) one JSON object as the last stdout line."""
    if as_json:
        click.echo(json_report.dumps(result, sort_keys=True))
    else:
        for line in summary:
            click.echo(line)


def parse_params(pairs: tuple[str, ...], flag: str = "--param") -> dict[str, str]:
    """``KEY=VALUE`` options to a dict; malformed or repeated keys are an :class:`InputError`."""
    return key_values(pairs, flag)


def game_name_and_params(text: str, params: dict[str, str]) -> tuple[str, dict[str, str]]:
    """``--game NAME(KEY=VALUE,...)`` and ``-p KEY=VALUE`` together: the name and all the
    parameters (a parameter given both ways is an error)."""
    try:
        return with_params(text, params)
    except UserError as exc:
        raise InputError(one_line(exc)) from None


def make_game(host: PluginHost, name: str, players: int | None, params: dict[str, str]):
    """The spec and game for ``--game`` (``NAME`` or ``NAME(KEY=VALUE,...)``), ``--players``
    and ``-p`` parameters; bad input is an :class:`InputError`."""
    name, params = game_name_and_params(name, params)
    players, params = merge_players(players, params)
    try:
        return host.game(name, players, params)
    except UserError as exc:
        raise InputError(one_line(exc)) from None


def plugin_dirs(ctx: click.Context) -> tuple[str, ...]:
    """The --plugins-dir folders, absolute (for workers on a cluster to load too)."""
    return tuple(str(Path(p).resolve()) for p in ctx.find_root().params.get("plugins_dir") or ())


def check_ray(address: str | None, workers: int | None) -> None:
    """``--ray`` and ``--workers`` together, and Ray installed, before any work starts."""
    if address is None:
        if workers is not None:
            raise InputError("--workers needs --ray [ADDRESS|local] (threads on this machine: --threads)")
        return
    from gamesolve.ray_cluster import require_ray

    try:
        require_ray()
    except UserError as exc:
        raise InputError(str(exc)) from None


def summary_lines(result: dict[str, Any]) -> list[str]:
    """A readable summary of a solve or evaluation result."""
    lines = [f"game        {result['game']} ({result['players']} players)"]
    if "algo" in result:
        total, this_run = result.get("iterations") or 0, result.get("iterations_this_run")
        if this_run is not None and this_run != total and "training_seconds" in result:
            # a resumed run: total iterations with total training time, then this run's share
            lines.append(f"algorithm   {result['algo']}, {total:,} iterations in {result['training_seconds']:.2f} s of training "
                         f"in all runs (this run: {this_run:,} in {result.get('seconds') or 0:.2f} s)")
        else:
            lines.append(f"algorithm   {result['algo']}, {total:,} iterations in {result.get('seconds') or 0:.2f} s")
    if "search" in result:
        s = result["search"]
        if s.get("agent") == "range":
            settings = ", ".join(f"{k}={v}" for k, v in s.items() if k not in ("agent", "seconds"))
            lines.append(f"search      the range agent ({settings or 'its defaults'}), composed in {s['seconds']:.1f} s")
        else:
            lines.append(f"search      k={s['k']}, leaves at {s['depth']}, {s['iterations']:,} {s['algorithm']} iterations per search, "
                         f"plays the {s['play']} strategy; {s['searches']:,} searches in {s['seconds']:.1f} s")
    if "nash_conv" in result:
        lines.append(f"NashConv    {result['nash_conv']:.6g}")
        lines.append(f"exploitability {result['exploitability']:.6g}  (NashConv / players)")
        if "blueprint_exploitability" in result.get("search", {}):
            lines.append(f"blueprint   exploitability {result['search']['blueprint_exploitability']:.6g} (the store the search plays over)")
        whose = "the search agent's strategy" if "search" in result else f"{result.get('policy', 'average')} policy"
        lines.append(f"game value  {result['game_value']:+.6f}  (player 0, {whose})")
    if "allocated_infoset_actions" in result:
        lines.append(
            f"tables      {result['allocated_infoset_actions']:,} infoset-actions in "
            f"{result['allocated_action_sequences']:,} action sequences, "
            f"{result['bytes_per_infoset_action']:.2f} bytes each; "
            f"{result.get('iterations_per_second', 0):,.0f} iterations/s; "
            f"peak memory {result.get('peak_memory_bytes', 0) / 2**30:.2f} GiB"
        )
    if "ray_rounds" in result:
        replaced = f", {result['ray_workers_replaced']} replaced" if result.get("ray_workers_replaced") else ""
        lines.append(
            f"ray         {result['ray_workers']} workers{replaced}: {result['ray_training_seconds']:.2f} s training, "
            f"{result['ray_merging_seconds']:.2f} s merging ({result['ray_merging_share']:.0%}) in {result['ray_rounds']:,} rounds; "
            f"Ray and its workers started in {result['ray_start_seconds']:.1f} s"
        )
    if result.get("dropped_rows") or result.get("saturated_regrets"):
        lines.append(
            f"warning     {result.get('dropped_rows', 0):,} row allocations dropped (tables or a thread's reservoir full), "
            f"{result.get('saturated_regrets', 0):,} regret updates clipped at int32's top"
        )
    for extra in result.get("summary", []):
        lines.append(extra)
    if "store" in result:
        lines.append(f"store       {result['store']}")
    return lines


def table_game(host, game_name: str, players, agent_list: str, seat: str, params):
    """What ``play`` and ``serve`` both read first: the game, the agents' texts and the person's seat."""
    from gamesolve.play.table import TableError, seat_agents

    try:
        n, texts = seat_agents(players, agent_list)
    except TableError as exc:
        raise InputError(str(exc)) from None
    try:
        seat_no = int(seat)
    except ValueError:
        raise InputError(f"--seat must be a seat number, got {seat!r}") from None
    _, game = make_game(host, game_name, n, parse_params(params))
    return game, texts, seat_no


def mb(n: int) -> str:
    return f"{n / 2**20:,.1f} MB"
