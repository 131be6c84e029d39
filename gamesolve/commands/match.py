"""``gamesolve match``: agents against each other with duplicate dealing."""

from __future__ import annotations

from pathlib import Path

import click

from gamesolve.cli_params import POSITIVE_INT, SEED, merge_players
from gamesolve.commands.support import check_ray, emit, host_from, make_game, one_line, parse_params, plugin_dirs
from gamesolve.errors import InputError, StoreError, UserError
from gamesolve.registry import RegistryError


@click.command()
@click.option("--game", "game_name", required=True, help="Game name (see `gamesolve games`).")
@click.option("--agents", "agent_list", required=True, help="Comma-separated agents, one per seat: NAME or NAME:KEY=VALUE[:KEY=VALUE].")
@click.option("--hands", type=POSITIVE_INT, default=1000, help="Hands to play (rounded up to whole duplicate deals).")
@click.option("--seed", type=SEED, default=0, help="Random seed (deals and agents).")
@click.option("--players", type=POSITIVE_INT, default=None, help="Number of players (default: the number of agents).")
@click.option("--param", "-p", "params", multiple=True, metavar="KEY=VALUE", help="Game parameter (repeatable).")
@click.option("--hh", "hh_path", type=click.Path(path_type=Path), default=None,
              help="Write hand histories here (NLTH: PHH; PATH.phhs = one file, else a folder of hand-NNNNNN.phh).")
@click.option("--force", is_flag=True, help="Replace existing hand histories at --hh.")
@click.option("--workers", type=click.IntRange(1, 4096), default=None,
              help="Processes to play the deals in (same result as 1); default 1, or 2 with --ray.")
@click.option("--ray", "ray_address", is_flag=False, flag_value="local", default=None, metavar="[ADDRESS|local]",
              help="Play the deals on a Ray cluster's workers (docs/distributed.md); the same result.")
@click.option("--aivat", is_flag=True, help="Also report AIVAT-corrected win rates of agents that expose their strategy (docs/evaluation.md).")
@click.option("--aivat-values", "aivat_values", default=None, metavar="NAME",
              help="AIVAT's value function where the game offers several (implies --aivat; hold'em: check-down, stakes "
                   "(default), river-walk, turn-walk, turn-cross-walk, flop-walk, cross-walk: slower, less variance; docs/evaluation.md).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object as the last line of stdout.")
@click.pass_context
def match(ctx, game_name, agent_list, hands, seed, players, params, hh_path, force, workers, ray_address, aivat, aivat_values, as_json):
    """Play agents against each other with duplicate dealing and report win rates (mbb/game for poker)."""
    from gamesolve.evaluate.aivat import AivatError
    from gamesolve.evaluate.match import MatchError, make_agents, play_match
    from gamesolve.progress import BarProgress
    from gamesolve.store.outputs import check_output_file

    host = host_from(ctx)
    if ray_address is not None:
        check_ray(ray_address, None)
    elif workers is not None and workers > 64:
        raise InputError("--workers above 64 needs --ray (a cluster's workers)")
    workers = workers or (2 if ray_address is not None else 1)
    aivat = aivat or aivat_values is not None
    texts = [t.strip() for t in agent_list.split(",")]
    if not all(texts):
        raise InputError(f"--agents expects a comma-separated list of agent names, got {agent_list!r}")
    players, params = merge_players(players, parse_params(params))
    if players is not None and players != len(texts):
        raise InputError(f"--players {players} needs {players} agents, got {len(texts)} ({agent_list})")
    spec, game = make_game(host, game_name, players if players is not None else len(texts), params)
    if hh_path is not None:
        if host.pm.hook.gamesolve_write_hand_histories(game=game, hands=[], path=hh_path) is None:
            raise InputError(f"no plugin writes hand histories for {game.name}")
        try:  # before the match is played, not after
            check_output_file(hh_path, "--hh", folder=hh_path.suffix == "", force=force, replaceable=_hand_histories)
        except StoreError as exc:
            raise InputError(one_line(exc)) from None
    elif force:
        raise InputError("--force replaces hand histories; it needs --hh PATH")
    try:
        agents, names = make_agents(host.agents, game, texts, seed, plugins=host.pm)
        remote = None
        if ray_address is not None:
            from gamesolve.evaluate.match_ray import TableSpec, ray_runner

            spec = TableSpec(game.name, {k: str(v) for k, v in game.params.items()}, tuple(texts), seed,
                             keep_hands=hh_path is not None, aivat=aivat, aivat_values=aivat_values, plugins_dirs=plugin_dirs(ctx))  # fmt: skip
            remote = ray_runner(spec, ray_address)
        with BarProgress(quiet=as_json) as progress:
            result = play_match(game, agents, hands, seed=seed, names=names, progress=progress, keep_hands=hh_path is not None,
                                workers=workers, aivat=aivat, aivat_values=aivat_values, plugins=host.pm, remote=remote)  # fmt: skip
    except (RegistryError, MatchError, UserError, AivatError) as exc:
        raise InputError(one_line(exc)) from None
    report = result.as_dict()
    lines = result.summary_lines()
    failed = None
    if hh_path is not None:
        try:
            if force and hh_path.is_dir():  # the previous histories go: none of them stays mixed in
                for old in hh_path.iterdir():
                    old.unlink()
            written = host.pm.hook.gamesolve_write_hand_histories(game=game, hands=result.records, path=hh_path)
            report["hand_histories"] = {"path": str(hh_path), "hands": written}
            lines.append(f"hand histories  {written:,} hands -> {hh_path}")
        except OSError as exc:  # e.g. the disk filled during the match: keep its results
            failed = f"could not write hand histories to {hh_path}: {exc.strerror or one_line(exc)}"
    emit(report, as_json, lines)
    if failed:
        raise InputError(failed)


def _hand_histories(path: Path) -> bool:
    """Whether ``path`` looks like hand histories a match wrote (so --force may replace it)."""
    if path.is_file():
        return True
    return all(p.is_file() and p.name.startswith("hand-") for p in path.iterdir())
