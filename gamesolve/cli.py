"""The ``gamesolve`` command line: one click group; plugins add commands through a hook."""

from __future__ import annotations

import functools
import json
import math
import shutil
import sys
import time
from pathlib import Path
from typing import Any

import click

from gamesolve import __version__
from gamesolve.game.explicit_tree import CompileError
from gamesolve.game.spec import ParameterError
from gamesolve.plugins import PluginHost, describe_plugins, local_plugin_paths, make_plugin_manager
from gamesolve.registry import RegistryError
from gamesolve.store.zarr_io import StoreError


class InputError(click.ClickException):
    """Bad input from the user: one line on stderr and exit status 2."""

    exit_code = 2


USER_ERRORS = (RegistryError, ParameterError, StoreError, CompileError, FileNotFoundError, MemoryError)


@functools.lru_cache(maxsize=8)
def plugin_host(plugins_dirs: tuple[str, ...] = ()) -> PluginHost:
    """The plugin host for this process (built once per set of local plugin folders)."""
    host = make_plugin_manager(plugins_dirs=plugins_dirs, warn=False)
    for name, message in host.failures:
        click.echo(f"warning: plugin {name!r} skipped: {message}", err=True)
    return host


def host_from(ctx: click.Context) -> PluginHost:
    root = ctx.find_root()
    dirs = tuple(str(p) for p in (root.params.get("plugins_dir") or ()))
    return plugin_host(dirs)


class GamesolveGroup(click.Group):
    """Adds plugin commands lazily and prints usage errors as one line with exit status 2."""

    _plugin_commands_added: set[tuple[str, ...]] = set()

    def _add_plugin_commands(self, ctx: click.Context) -> None:
        dirs = tuple(str(p) for p in (ctx.params.get("plugins_dir") or ()))
        if dirs in self._plugin_commands_added:
            return
        self._plugin_commands_added.add(dirs)
        plugin_host(dirs).pm.hook.gamesolve_register_commands(cli=self)

    def list_commands(self, ctx: click.Context) -> list[str]:
        self._add_plugin_commands(ctx)
        return super().list_commands(ctx)

    def get_command(self, ctx: click.Context, cmd_name: str):
        command = super().get_command(ctx, cmd_name)
        if command is None:
            self._add_plugin_commands(ctx)
            command = super().get_command(ctx, cmd_name)
        return command

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        try:
            rv = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.UsageError as exc:
            click.echo(f"Error: {exc.format_message()}", err=True)
            sys.exit(2)
        except click.ClickException as exc:
            exc.show()
            sys.exit(exc.exit_code)
        except (click.exceptions.Abort, KeyboardInterrupt):
            click.echo("Aborted.", err=True)
            sys.exit(130)
        sys.exit(rv if isinstance(rv, int) else 0)


@click.group(cls=GamesolveGroup)
@click.version_option(__version__, prog_name="gamesolve")
@click.option(
    "--plugins-dir",
    multiple=True,
    type=click.Path(path_type=Path),
    help="Load a plugin file or folder without installing it (repeatable; also $GAMESOLVE_PLUGINS_DIR).",
)
def cli(plugins_dir):
    """Solve and play imperfect-information games with the CFR family."""
    for path in local_plugin_paths(plugins_dir):
        if not path.exists():
            raise InputError(f"no plugin file or folder at {path}")


def emit(result: dict[str, Any], as_json: bool, summary: list[str]) -> None:
    """Print a readable summary, or (``--json``) one JSON object as the last stdout line."""
    if as_json:
        click.echo(json.dumps(result, default=_jsonable, sort_keys=True))
    else:
        for line in summary:
            click.echo(line)


def _jsonable(value):
    if hasattr(value, "item"):
        return value.item()
    if isinstance(value, Path):
        return str(value)
    raise TypeError(f"not JSON serialisable: {value!r}")


def parse_params(pairs: tuple[str, ...], flag: str = "--param") -> dict[str, str]:
    params = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise InputError(f"{flag} expects KEY=VALUE, got {pair!r}")
        params[key.strip().replace("-", "_")] = value.strip()
    return params


def make_game(host: PluginHost, name: str, players: int | None, params: dict[str, str]):
    try:
        spec = host.games.get(name)
        return spec, spec.create(players, **params)
    except (RegistryError, ParameterError) as exc:
        raise InputError(str(exc)) from None


@cli.command()
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


@cli.command()
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


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def plugins(ctx, as_json):
    """List loaded plugins and the hooks each implements (and any that failed to load)."""
    host = host_from(ctx)
    rows = describe_plugins(host)
    lines = [f"{name}: {', '.join(hooks) or '-'}" for name, hooks in rows]
    lines += [f"FAILED {name}: {why}" for name, why in host.failures]
    emit({"plugins": [{"name": n, "hooks": h} for n, h in rows], "failures": host.failures}, as_json, lines)


@cli.command()
@click.option("--game", "game_name", required=True, help="Game name (see `gamesolve games`).")
@click.option("--algo", default=None, help="Solver (cfr, cfr+, lcfr, dcfr, ...); default: the game's.")
@click.option("--iterations", type=str, default=None, help="Number of iterations.")
@click.option("--minutes", type=str, default=None, help="Wall-clock budget (sampling solvers).")
@click.option("--players", type=str, default=None, help="Number of players.")
@click.option("--param", "-p", "params", multiple=True, help="Game parameter KEY=VALUE (repeatable).")
@click.option("--out", type=click.Path(path_type=Path), default=None, help="Write the strategy to this zarr store.")
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed.")
@click.option("--threads", type=int, default=1, show_default=True, help="Worker threads (sampling solvers).")
@click.option("--resume", is_flag=True, help="Continue from the checkpoint in --out.")
@click.option("--preset", default=None, help="Abstraction preset, for games that need one (nlth: tiny, small, pluribus).")
@click.option("--option", "-o", "options", multiple=True, help="Solver option KEY=VALUE (repeatable), e.g. -o prune_threshold=200m.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object as the last line of stdout.")
@click.pass_context
def solve(ctx, game_name, algo, iterations, minutes, players, params, out, seed, threads, resume, preset, options, as_json):
    """Compute a strategy for a game and report how close to equilibrium it is."""
    from gamesolve.progress import BarProgress
    from gamesolve.solve.spec import SolveRequest

    host = host_from(ctx)
    spec, game = make_game(host, game_name, players, parse_params(params))
    algo = algo or spec.default_algo
    try:
        solver = host.solvers.get(algo)
    except RegistryError as exc:
        raise InputError(str(exc)) from None
    if not solver.supports(spec):
        hint = " (its game tree is too large for tabular solvers; try --algo mccfr-p)" if not spec.tabular else ""
        raise InputError(f"solver {algo!r} cannot solve {spec.name}{hint}")
    n_iter = _positive(iterations, "iterations", int)
    n_min = _positive(minutes, "minutes", float)
    if threads < 1:
        raise InputError(f"--threads must be at least 1, got {threads}")
    if resume and out is None:
        raise InputError("--resume needs --out PATH (the checkpoint to continue)")
    request = SolveRequest(
        game_spec=spec, game=game, algo=algo, iterations=n_iter, minutes=n_min, seed=seed,
        out=out, threads=threads, resume=resume, options=parse_params(options, "--option"), preset=preset, pm=host.pm,
    )  # fmt: skip
    try:
        with BarProgress(quiet=as_json) as progress:
            result = solver.run(request, progress)
    except USER_ERRORS as exc:
        raise InputError(str(exc)) from None
    except ValueError as exc:
        raise InputError(str(exc)) from None
    emit(result, as_json, summary_lines(result))


def _positive(raw: str | None, name: str, kind):
    if raw is None:
        return None
    try:
        value = kind(raw)
    except ValueError:
        raise InputError(f"--{name} must be a positive number, got {raw!r}") from None
    if not value > 0 or (isinstance(value, float) and not math.isfinite(value)):
        raise InputError(f"--{name} must be positive, got {raw}")
    return value


def summary_lines(result: dict[str, Any]) -> list[str]:
    """A readable summary of a solve or evaluation result."""
    lines = [f"game        {result['game']} ({result['players']} players)"]
    if "algo" in result:
        lines.append(f"algorithm   {result['algo']}, {result.get('iterations', 0):,} iterations in {result.get('seconds', 0):.2f} s")
    if "search" in result:
        s = result["search"]
        lines.append(f"search      k={s['k']}, leaves at {s['depth']}, {s['iterations']:,} {s['algorithm']} iterations per search, "
                     f"plays the {s['play']} strategy; {s['searches']:,} searches in {s['seconds']:.1f} s")
    if "nash_conv" in result:
        lines.append(f"NashConv    {result['nash_conv']:.6g}")
        lines.append(f"exploitability {result['exploitability']:.6g}  (NashConv / players)")
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
    for extra in result.get("summary", []):
        lines.append(extra)
    if "store" in result:
        lines.append(f"store       {result['store']}")
    return lines


@cli.command()
@click.option("--game", "game_name", required=True, help="Game name.")
@click.option("--store", "store_path", required=True, type=click.Path(path_type=Path), help="Policy store.")
@click.option("--players", type=str, default=None, help="Number of players (default: the store's).")
@click.option("--param", "-p", "params", multiple=True, help="Game parameter KEY=VALUE (default: the store's).")
@click.option("--policy", type=click.Choice(["average", "current"]), default="average", show_default=True)
@click.option("--search", "search", is_flag=True,
              help="Evaluate the real-time search agent (Algorithm 2) playing over the stored policy as its blueprint.")
@click.option("--search-option", "-s", "search_options", multiple=True, metavar="KEY=VALUE",
              help="Search setting, e.g. -s k=1 -s play=average -s depth=game (docs/search.md). Implies --search.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object as the last line of stdout.")
@click.pass_context
def exploitability(ctx, game_name, store_path, players, params, policy, search, search_options, as_json):
    """Exact NashConv and exploitability of a stored policy (best response for every player).

    With --search, of the strategy the real-time search agent plays with that policy as its
    blueprint: the search is run at every root the agent can reach, from every seat."""
    from gamesolve.evaluate.best_response import TreeEvaluator
    from gamesolve.game.compile import compiled_tree
    from gamesolve.progress import BarProgress
    from gamesolve.search import SearchConfig
    from gamesolve.solve.tabular import evaluation_fields
    from gamesolve.store.policy_store import read_policy

    host = host_from(ctx)
    try:
        host.games.get(game_name)
        store = read_policy(store_path)
    except (RegistryError, StoreError) as exc:
        raise InputError(str(exc)) from None
    if store.game != game_name:
        raise InputError(f"{store_path} holds a strategy for {store.game}, not {game_name}")
    stored = {k: str(v) for k, v in store.params.items() if k != "players"}
    stored.update(parse_params(params))
    spec, game = make_game(host, game_name, players or store.params.get("players"), stored)
    search = search or bool(search_options)
    if search:
        try:
            config = SearchConfig.from_options(parse_params(search_options, "--search-option"))
        except ValueError as exc:
            raise InputError(str(exc)) from None
        adapter = host.pm.hook.gamesolve_search_adapter(game=game)
        if adapter is None:
            raise InputError(f"no plugin supports real-time search for {game.name}")
    try:
        with BarProgress(quiet=as_json) as progress:
            tree = compiled_tree(game, host.pm, progress)
            slots = store.policy_for(tree, policy)
            searched = {}
            if search:
                slots, searched = _search_policy(game, tree, slots, adapter, config, progress)
        evaluation = TreeEvaluator(tree).evaluate(slots)
    except USER_ERRORS as exc:
        raise InputError(str(exc)) from None
    result = {
        "game": game.name,
        "params": dict(game.params),
        "players": game.num_players,
        "algo": store.attrs.get("algo"),
        "iterations": store.attrs.get("iterations"),
        "seconds": store.attrs.get("seconds"),
        "policy": policy,
        "store": str(store_path),
        **searched,
        **evaluation_fields(evaluation),
    }
    emit(result, as_json, summary_lines(result))


def _search_policy(game, tree, blueprint_slots, adapter, config, progress) -> tuple[Any, dict[str, Any]]:
    """The search agent's composed strategy over a blueprint, and what to report of it."""
    from gamesolve.search import SearchAgent, SearchCache, TabularPolicy, compose_agent_policy

    blueprint = TabularPolicy.from_slots(tree, blueprint_slots)
    cache = SearchCache()
    progress.start(tree.num_infosets, "infosets", f"search agent (k={config.k}, leaves at {config.depth})")
    started = time.perf_counter()
    slots = compose_agent_policy(
        game, tree, lambda seat: SearchAgent(game, blueprint, adapter, seat, config, cache=cache),
        on_infoset=lambda: progress.advance(1, searches=f"{cache.solves:,}"),
    )
    report = {
        "search": {
            "k": config.k, "depth": str(config.depth), "iterations": config.iterations, "algorithm": config.algorithm,
            "play": config.play, "first_round": config.first_round, "rollouts": config.rollouts,
            "sampling_above": config.sampling_above, "searches": cache.solves,
            "seconds": time.perf_counter() - started,
        }
    }  # fmt: skip
    return slots, report


@cli.command()
@click.option("--game", "game_name", required=True, help="Game name (see `gamesolve games`).")
@click.option("--agents", "agent_list", required=True, help="Comma-separated agents, one per seat: NAME or NAME:KEY=VALUE[:KEY=VALUE].")
@click.option("--hands", type=str, default="1000", show_default=True, help="Hands to play (rounded up to whole duplicate deals).")
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed (deals and agents).")
@click.option("--players", type=str, default=None, help="Number of players (default: the number of agents).")
@click.option("--param", "-p", "params", multiple=True, help="Game parameter KEY=VALUE (repeatable).")
@click.option("--hh", "hh_path", type=click.Path(path_type=Path), default=None, help="Write hand histories here (NLTH: PHH; PATH.phhs = one file, else a folder).")
@click.option("--workers", type=str, default="1", show_default=True, help="Processes to play the deals in (same result as 1).")
@click.option("--aivat", is_flag=True, help="Also report AIVAT-corrected win rates of agents that expose their strategy (docs/evaluation.md).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object as the last line of stdout.")
@click.pass_context
def match(ctx, game_name, agent_list, hands, seed, players, params, hh_path, workers, aivat, as_json):
    """Play agents against each other with duplicate dealing and report win rates (mbb/game for poker)."""
    from gamesolve.evaluate.aivat import AivatError
    from gamesolve.evaluate.match import MatchError, make_agents, play_match
    from gamesolve.progress import BarProgress

    host = host_from(ctx)
    texts = [t.strip() for t in agent_list.split(",")]
    if not all(texts):
        raise InputError(f"--agents expects a comma-separated list of agent names, got {agent_list!r}")
    n_hands = _positive(hands, "hands", int)
    n_workers = _positive(workers, "workers", int)
    if players is not None:
        count = _positive(players, "players", int)
        if count != len(texts):
            raise InputError(f"--players {count} needs {count} agents, got {len(texts)} ({agent_list})")
    spec, game = make_game(host, game_name, players if players is not None else len(texts), parse_params(params))
    if hh_path is not None and host.pm.hook.gamesolve_write_hand_histories(game=game, hands=[], path=hh_path) is None:
        raise InputError(f"no plugin writes hand histories for {game.name}")
    try:
        agents, names = make_agents(host.agents, game, texts, seed, plugins=host.pm)
        with BarProgress(quiet=as_json) as progress:
            result = play_match(game, agents, n_hands, seed=seed, names=names, progress=progress,
                                keep_hands=hh_path is not None, workers=n_workers, aivat=aivat, plugins=host.pm)
    except (RegistryError, MatchError, AivatError) as exc:
        raise InputError(str(exc)) from None
    report = result.as_dict()
    lines = result.summary_lines()
    if hh_path is not None:
        written = host.pm.hook.gamesolve_write_hand_histories(game=game, hands=result.records, path=hh_path)
        report["hand_histories"] = {"path": str(hh_path), "hands": written}
        lines.append(f"hand histories  {written:,} hands -> {hh_path}")
    emit(report, as_json, lines)


@cli.group()
def cache():
    """Manage gamesolve's caches."""


@cache.command("clear")
def cache_clear():
    """Delete numba's compiled-kernel cache for this version of gamesolve."""
    import os

    folder = Path(os.environ["NUMBA_CACHE_DIR"])
    if folder.exists():
        shutil.rmtree(folder)
    click.echo(f"cleared {folder}")


@cli.command()
@click.argument("what", type=click.Choice(["cfr"]), default="cfr")
@click.option("--game", "game_name", default="leduc", show_default=True)
@click.option("--iterations", type=int, default=200, show_default=True)
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def bench(ctx, what, game_name, iterations, as_json):
    """Benchmark gamesolve against open-spiel side by side (needs open-spiel installed)."""
    from gamesolve.bench import bench_cfr

    host = host_from(ctx)
    spec, game = make_game(host, game_name, None, {})
    try:
        result = bench_cfr(game, iterations)
    except ImportError as exc:
        raise InputError(f"the benchmark needs open-spiel: pip install open-spiel ({exc})") from None
    lines = [f"{k:<28} {v:,.6g}" if isinstance(v, float) else f"{k:<28} {v}" for k, v in result.items()]
    emit(result, as_json, lines)


@cli.command()
@click.option("--game", "game_name", required=True, help="Game name (nlth).")
@click.option("--agent", "agent_text", required=True, help="The agent to exploit: NAME or NAME:KEY=VALUE[:KEY=VALUE] (it must expose its strategy).")
@click.option("--hands", type=str, default="1000", show_default=True, help="Hands to play (whole duplicate deals).")
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed (deals, agents, LBR).")
@click.option("--players", type=str, default=None, help="Number of players (default: the game's; -p players=2 also works).")
@click.option("--param", "-p", "params", multiple=True, help="Game parameter KEY=VALUE, e.g. -p players=2.")
@click.option("--option", "-o", "options", multiple=True, metavar="KEY=VALUE",
              help="LBR setting, e.g. -o sizes=fcpa|fc|fchpa|wide|0.5,1/1/1/1 -o preflop=call|lbr (docs/evaluation.md).")
@click.option("--workers", type=str, default="1", show_default=True, help="Processes to play the deals in (same result as 1).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (mbb_per_game, se, hands, ...) as the last line.")
@click.pass_context
def lbr(ctx, game_name, agent_text, hands, seed, players, params, options, workers, as_json):
    """Local best response against an agent: a lower bound on its exploitability (mbb/game for poker)."""
    from gamesolve.evaluate.lbr import run_lbr
    from gamesolve.evaluate.match import MatchError
    from gamesolve.progress import BarProgress

    host = host_from(ctx)
    n_hands = _positive(hands, "hands", int)
    n_workers = _positive(workers, "workers", int)
    game_params = parse_params(params)
    n_players = players if players is not None else game_params.pop("players", None)
    spec, game = make_game(host, game_name, n_players, game_params)
    try:
        with BarProgress(quiet=as_json) as progress:
            result = run_lbr(host, game, agent_text.strip(), n_hands, seed=seed, options=parse_params(options, "--option"),
                             workers=n_workers, progress=progress)  # fmt: skip
    except (RegistryError, MatchError, StoreError) as exc:
        raise InputError(str(exc)) from None
    emit(result.as_dict(), as_json, result.summary_lines())


def _add_evaluation_commands() -> None:
    """Commands of the evaluation modules (issue 13): plot."""
    from gamesolve.plot.cli import plot_command

    cli.add_command(plot_command)


_add_evaluation_commands()

if __name__ == "__main__":  # python -m gamesolve.cli
    cli()
