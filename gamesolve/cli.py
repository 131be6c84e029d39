"""The ``gamesolve`` command line: one click group; plugins add commands through a hook."""

from __future__ import annotations

import functools
import math
import os
import shutil
import signal
import sys
import time
from pathlib import Path
from typing import Any

import click

from gamesolve import __version__, json_report
from gamesolve.cli_params import POSITIVE_FLOAT, POSITIVE_INT, SEED, key_values, merge_players
from gamesolve.errors import EXIT_STATUS, InputError, StoreError, UserError, is_no_space
from gamesolve.game.explicit_tree import CompileError
from gamesolve.game.names import with_params
from gamesolve.game.spec import ParameterError
from gamesolve.plugins import HOST_KEY, PluginHost, describe_plugins, local_plugin_paths, make_plugin_manager
from gamesolve.registry import RegistryError

__all__ = ["InputError", "cli"]  # InputError lives in gamesolve.errors; re-exported for older plugins

USER_ERRORS = (UserError, RegistryError, ParameterError, StoreError, CompileError, FileNotFoundError, MemoryError)


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
        if hasattr(signal, "SIGXFSZ") and signal.getsignal(signal.SIGXFSZ) == signal.SIG_DFL:
            # A file-size limit (ulimit -f) then fails the write (EFBIG: a one-line error, the
            # last checkpoint intact) instead of killing the process mid-write.
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        try:
            rv = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except getattr(click.exceptions, "NoArgsIsHelpError", ()) as exc:  # `gamesolve store`: its help
            click.echo(exc.format_message())
            sys.exit(0)
        except click.UsageError as exc:
            click.echo(f"Error: {one_line(exc.format_message())}", err=True)  # click may wrap ("Choose from:\n\t...")
            sys.exit(EXIT_STATUS)
        except click.ClickException as exc:
            exc.show()
            sys.exit(exc.exit_code)
        except (click.exceptions.Abort, KeyboardInterrupt):
            click.echo("Aborted.", err=True)
            sys.exit(130)
        except (UserError, RegistryError, ParameterError, CompileError) as exc:
            # raised outside a command's own handling (a plugin command, a late store check)
            click.echo(f"Error: {one_line(exc)}", err=True)
            sys.exit(EXIT_STATUS)
        except OSError as exc:
            if is_no_space(exc):
                click.echo("Error: no space left on the device (or over the file-size limit)", err=True)
            else:
                click.echo(f"Error: {exc.strerror or exc}{f': {exc.filename}' if exc.filename else ''}", err=True)
            sys.exit(EXIT_STATUS)
        sys.exit(rv if isinstance(rv, int) else 0)


def one_line(exc: BaseException) -> str:
    """An exception's message on one line."""
    return " ".join(str(exc).split()) or type(exc).__name__


@click.group(cls=GamesolveGroup, context_settings={"show_default": True})
@click.version_option(__version__, prog_name="gamesolve")
@click.option(
    "--plugins-dir",
    multiple=True,
    type=click.Path(path_type=Path),
    help="Load a plugin file or folder without installing it (repeatable; also $GAMESOLVE_PLUGINS_DIR).",
)
@click.pass_context
def cli(ctx, plugins_dir):
    """Solve and play imperfect-information games with the CFR family."""
    for path in local_plugin_paths(plugins_dir):
        if not path.exists():
            raise InputError(f"no plugin file or folder at {path}")
    # Plugin commands reach the plugin host through the context, not by importing this module.
    ctx.meta[HOST_KEY] = lambda: host_from(ctx)


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


class AlgoOption(click.Option):
    """``--algo``, whose help lists the solvers the installed plugins register and each
    game's default (known only once the plugins are loaded)."""

    def get_help_record(self, ctx):
        try:
            host = host_from(ctx)
            solvers = ", ".join(spec.name for spec in host.solvers)
            defaults = ", ".join(f"{g.name}: {g.default_algo}" for g in host.games)
            self.help = f"Solver: {solvers}. Default: the game's ({defaults})."
        except Exception:  # help must never fail; fall back to the static text
            pass
        return super().get_help_record(ctx)


@cli.command()
@click.option("--game", "game_name", default=None, help="Game name (see `gamesolve games`). With --resume: read from the store.")
@click.option("--algo", cls=AlgoOption, default=None, help="Solver (see `gamesolve plugins`); default: the game's.")
@click.option("--iterations", type=POSITIVE_INT, default=None,
              help="Iterations to run (tabular solvers need it). With --minutes too, the run stops at whichever comes first.")
@click.option("--minutes", type=POSITIVE_FLOAT, default=None,
              help="Wall-clock budget of a sampling solver (mccfr, mccfr-p); nlth defaults to its preset's (tiny: 3).")
@click.option("--players", type=POSITIVE_INT, default=None, help="Number of players (or -p players=N); default: the game's.")
@click.option("--param", "-p", "params", multiple=True, metavar="KEY=VALUE", help="Game parameter (repeatable; see `gamesolve games --json`).")
@click.option("--out", type=click.Path(path_type=Path), default=None,
              help="Write the strategy (and, for sampling solvers, checkpoints) to this store folder.")
@click.option("--force", is_flag=True, help="Replace the store at --out; only a store this solver writes is ever replaced.")
@click.option("--resume", is_flag=True,
              help="Continue the run in --out: game, algorithm, parameters and options come from the store.")
@click.option("--checkpoint", "checkpoint", default=None, metavar="TIME", show_default=False,
              help="Checkpoint interval of a sampling solver: 30s, 10min, 1h or off (default 10min); the first "
                   "checkpoint comes within a minute, or a tenth of the run if sooner.")
@click.option("--seed", type=SEED, default=0, help="Random seed.")
@click.option("--threads", type=click.IntRange(1, 256), default=1,
              help="Worker threads (sampling solvers; with --ray: per worker). Not given: 1, or the game's own default "
                   "(nlth presets train on every core of this machine).")
@click.option("--ray", "ray_address", is_flag=False, flag_value="local", default=None, metavar="[ADDRESS|local]",
              help="Train on a Ray cluster (mccfr, mccfr-p): the head's ADDRESS, or local (docs/distributed.md).")
@click.option("--workers", type=click.IntRange(1, 4096), default=None, help="Ray worker processes (with --ray; default 2).")
@click.option("--cache-rows", type=POSITIVE_INT, default=None, metavar="N",
              help="With --ray: each worker caches at most N table rows and fetches the others from their "
                   "shards, instead of holding all of them (memory per machine: the tables / workers + the cache).")
@click.option("--preset", default=None, help="Abstraction preset, for games that need one (nlth: tiny, small, pluribus).")
@click.option("--option", "-o", "options", multiple=True, metavar="KEY=VALUE",
              help="Solver option (repeatable), e.g. -o prune_threshold=200min (docs/solvers.md).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object as the last line of stdout.")
@click.pass_context
def solve(ctx, game_name, algo, iterations, minutes, players, params, out, force, resume, checkpoint, seed, threads,
          ray_address, workers, cache_rows, preset, options, as_json):  # fmt: skip
    """Compute a strategy for a game and report how close to equilibrium it is.

    Tabular solvers (cfr, cfr+, lcfr, dcfr) run --iterations over the whole game tree.
    Sampling solvers (mccfr, mccfr-p) run for --minutes or --iterations (whichever ends
    first when both are given) and, with --out, checkpoint early and then every
    --checkpoint interval: `gamesolve solve --out PATH --resume --minutes 30` continues a
    run after a crash or a stop. docs/stores.md describes the stores and their checks.
    """
    from gamesolve.progress import BarProgress
    from gamesolve.solve.spec import SolveRequest
    from gamesolve.store import checkpoint as ckpt
    from gamesolve.store.outputs import claim_store, release_store

    host = host_from(ctx)
    params = parse_params(params)
    options = parse_params(options, "--option")
    if "checkpoint" in options:  # the older spelling, -o checkpoint=TIME
        if checkpoint is not None:
            raise InputError("--checkpoint and -o checkpoint= are the same option; give one")
        checkpoint = options.pop("checkpoint")
    checkpoint_minutes = _checkpoint_minutes(checkpoint)
    if (resume or force) and out is None:
        raise InputError(f"{'--resume' if resume else '--force'} needs --out PATH (the store to {'continue' if resume else 'replace'})")
    _check_ray(ray_address, workers)
    if cache_rows is not None and ray_address is None:
        raise InputError("--cache-rows needs --ray [ADDRESS|local] (one process holds the whole tables)")
    if resume and force:
        raise InputError("--resume continues the store at --out and --force replaces it; give one")
    if resume:
        if options:
            raise InputError(f"-o {', '.join(sorted(options))}: a run's options are fixed when it starts; "
                             "--resume continues with the store's")  # fmt: skip
        game_name, algo, players, params, preset = _resumed_run(host, out, game_name, algo, players, params, preset)
    elif game_name is None:
        raise InputError("Missing option '--game' (or --resume with --out PATH to continue a run)")
    spec, game = make_game(host, game_name, players, params)
    algo = algo or spec.default_algo
    try:
        solver = host.solvers.get(algo)
    except RegistryError as exc:
        raise InputError(str(exc)) from None
    if not solver.supports(spec):
        hint = " (its game tree is too large for tabular solvers; try --algo mccfr-p)" if not spec.tabular else ""
        raise InputError(f"solver {algo!r} cannot solve {spec.name}{hint}")
    if resume and not solver.resumable:
        raise InputError(f"{algo} cannot --resume: it keeps no checkpoints (tabular solvers run to the end in one go); "
                         "rerun with --force to replace the store")  # fmt: skip
    if solver.check_options is not None:
        try:
            solver.check_options(options)
        except ValueError as exc:
            raise InputError(one_line(exc)) from None
    if checkpoint is not None and not solver.resumable:
        raise InputError(f"{algo} keeps no checkpoints; --checkpoint is for resumable solvers (mccfr, mccfr-p)")
    if minutes is not None and not solver.resumable:
        raise InputError(f"{algo} runs --iterations; --minutes bounds the sampling solvers (mccfr, mccfr-p) only")
    if ray_address is not None and solver.store_format != ckpt.FORMAT:
        raise InputError(f"--ray trains mccfr and mccfr-p; {algo} runs in one process")
    lock = None
    if out is not None:
        holds = ckpt.holds_results if solver.store_format == ckpt.FORMAT else None
        lock = claim_store(out, solver.store_format, force=force, resume=resume, holds_results=holds)
    from gamesolve.evaluate.best_response import exact_evaluator
    from gamesolve.evaluate.vector_best_response import vector_evaluator

    request = SolveRequest(
        game_spec=spec, game=game, algo=algo, iterations=iterations, minutes=minutes, seed=seed,
        out=out, threads=threads, auto_threads=_not_given(ctx, "threads"), resume=resume, options=options, preset=preset, pm=host.pm,
        force=force, checkpoint_minutes=checkpoint_minutes, evaluate=exact_evaluator, evaluate_form=vector_evaluator,
        ray=ray_address, workers=workers or 2, cache_rows=cache_rows or 0, plugins_dirs=_plugin_dirs(ctx),
    )  # fmt: skip
    try:
        with BarProgress(quiet=as_json) as progress:
            result = solver.run(request, progress)
    except USER_ERRORS as exc:
        raise InputError(one_line(exc)) from None
    except ValueError as exc:
        raise InputError(one_line(exc)) from None
    except OSError as exc:
        if is_no_space(exc):
            raise InputError(f"no space left on the device writing {out}") from None
        raise
    finally:
        if lock is not None:
            release_store(lock)
    emit(result, as_json, summary_lines(result))


def _not_given(ctx: click.Context, name: str) -> bool:
    """Whether option ``name`` took its default (not typed, nor set by the environment)."""
    return ctx.get_parameter_source(name) in (None, click.core.ParameterSource.DEFAULT)


def _plugin_dirs(ctx: click.Context) -> tuple[str, ...]:
    """The --plugins-dir folders, absolute (for workers on a cluster to load too)."""
    return tuple(str(Path(p).resolve()) for p in ctx.find_root().params.get("plugins_dir") or ())


def _check_ray(address: str | None, workers: int | None) -> None:
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


def _checkpoint_minutes(raw: str | None) -> float | None:
    """--checkpoint as minutes (math.inf for off), None if not given."""
    if raw is None:
        return None
    from gamesolve.solve.mccfr_solver import checkpoint_interval

    try:
        minutes = checkpoint_interval(raw)
    except ValueError as exc:
        raise InputError(one_line(exc)) from None
    return math.inf if minutes is None else minutes


def _resumed_run(host, out: Path, game_name, algo, players, params, preset):
    """Game, algorithm, parameters and preset of the run stored at ``out`` (``--resume``);
    any the user also gave must agree with the store."""
    from gamesolve.store import checkpoint as ckpt
    from gamesolve.store.outputs import a, describe, store_format

    fmt = store_format(out) if out.is_dir() else None
    if out.is_dir() and not any(not p.name.startswith(".") for p in out.iterdir()):
        raise InputError(f"{out} holds no run yet (stopped before it began); run the command again without --resume")
    if fmt is not None and fmt != ckpt.FORMAT:
        try:
            from gamesolve.store.zarr_io import open_group

            attrs = dict(open_group(out, "store").attrs)  # checked first: damage is reported as such
        except StoreError as exc:
            raise InputError(one_line(exc)) from None
        made_by = f" written by {attrs['algo']}" if attrs.get("algo") else ""
        raise InputError(f"{out} is {a(describe(fmt))}{made_by}, which cannot be resumed: only mccfr and mccfr-p "
                         "runs keep checkpoints; rerun with --force to replace it")  # fmt: skip
    try:
        meta = ckpt.read_meta(out)
    except StoreError as exc:
        raise InputError(one_line(exc)) from None
    if game_name is not None:
        game_name, params = game_name_and_params(game_name, params)
    if game_name is not None and game_name != meta.get("game"):
        raise InputError(f"{out} holds a {meta.get('game')} run, not {game_name}")
    if algo is not None and algo != meta.get("algo"):
        raise InputError(f"{out} holds an {meta.get('algo')} run, not {algo}")
    try:
        spec = host.game_spec(meta.get("game"))
    except (RegistryError, UserError) as exc:
        raise InputError(f"{out} holds a run of a game no installed plugin provides: {exc}") from None
    stored = meta.get("game_params") or {k: v for k, v in (meta.get("params") or {}).items() if k in spec.parameters}
    stored = {k: str(v) for k, v in stored.items()}
    players, params = merge_players(players, params)
    given = dict(params, **({"players": str(players)} if players is not None else {}))
    for key, value in given.items():
        if key in stored and str(stored[key]) != str(value):
            raise InputError(f"{out} holds a run with {key}={stored[key]}, not {value}; --resume continues it as it was")
    stored_preset = meta.get("preset") or (meta.get("params") or {}).get("preset")
    if preset is not None and stored_preset is not None and preset != stored_preset:
        raise InputError(f"{out} holds a run of preset {stored_preset}, not {preset}")
    players = int(stored.pop("players")) if "players" in stored else players
    return meta["game"], meta.get("algo"), players, {**stored, **params}, preset or meta.get("preset")


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


@cli.command()
@click.option("--game", "game_name", required=True, help="Game name (see `gamesolve games`).")
@click.option("--store", "store_path", required=True, type=click.Path(path_type=Path),
              help="Policy store (`gamesolve solve --out PATH`, tabular or mccfr on a small game).")
@click.option("--players", type=POSITIVE_INT, default=None, help="Number of players (default: the store's).")
@click.option("--param", "-p", "params", multiple=True, metavar="KEY=VALUE", help="Game parameter (default: the store's).")
@click.option("--policy", type=click.Choice(["average", "current"]), default="average", help="Which stored policy to evaluate.")
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
    from gamesolve.evaluate.best_response import TreeEvaluator, evaluation_fields
    from gamesolve.game.compile import compiled_tree
    from gamesolve.progress import BarProgress
    from gamesolve.store.policy_store import read_policy

    host = host_from(ctx)
    game_name, given = game_name_and_params(game_name, parse_params(params))
    try:
        host.game_spec(game_name)
        if _training_store_without_policy(store_path):  # a game too big for a policy store
            return _training_exploitability(host, game_name, given, players, store_path, policy, search or bool(search_options),
                                            search_options, as_json)  # fmt: skip
        store = read_policy(store_path)
    except (RegistryError, StoreError, UserError) as exc:
        raise InputError(one_line(exc)) from None
    if store.game != game_name:
        raise InputError(f"{store_path} holds a strategy for {store.game}, not {game_name}")
    stored = {k: str(v) for k, v in store.params.items() if k != "players"}
    players, given = merge_players(players, given)
    stored.update(given)
    spec, game = make_game(host, game_name, players or store.params.get("players"), stored)
    search = search or bool(search_options)
    if search:
        config = _search_config(search_options)
    try:
        with BarProgress(quiet=as_json) as progress:
            tree = compiled_tree(game, host.pm, progress)
            slots = store.policy_for(tree, policy)
            searched = {}
            if search:
                slots, searched = _search_policy(game, tree, slots, config, progress)
        evaluation = TreeEvaluator(tree).evaluate(slots)
    except (*USER_ERRORS, ValueError) as exc:  # ValueError: a search setting the game cannot take
        raise InputError(one_line(exc)) from None
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


def _training_store_without_policy(path: Path) -> bool:
    """An MCCFR checkpoint store with no policy store inside (its game has too many histories
    for one): evaluated over the factored form instead."""
    from gamesolve.store import checkpoint as ckpt
    from gamesolve.store.integrity import read_json

    attributes = (read_json(path / "zarr.json") or {}).get("attributes") or {} if path.is_dir() else {}
    return isinstance(attributes, dict) and attributes.get("format") == ckpt.FORMAT and not (path / "policy").is_dir()


def _training_exploitability(host, game_name, given, players, store_path, policy, search, search_options, as_json):
    """``exploitability`` of an MCCFR store's last checkpoint by the vector best response over
    the game's factored form (gamesolve/evaluate/vector_best_response.py); with ``search``, of
    the search agent over the store's blueprint, composed on the form's rows."""
    from gamesolve.evaluate.vector_best_response import vector_evaluator
    from gamesolve.game.compile import factored_form
    from gamesolve.progress import BarProgress
    from gamesolve.solve.mccfr_solver import checkpoint_trainer
    from gamesolve.store import checkpoint as ckpt
    from gamesolve.store.form_cache import FormCache

    config = None
    if search:
        if policy != "average":
            raise InputError("--search plays the blueprint, which a training store holds as the average strategy (--policy average)")
        if not (store_path / "blueprint").is_dir():
            raise InputError(f"{store_path} holds no blueprint strategy store for --search to play over")
        config = _search_config(search_options)
    meta = ckpt.read_meta(store_path)
    if meta["game"] != game_name:
        raise InputError(f"{store_path} holds a run of {meta['game']}, not {game_name}")
    stored = {k: str(v) for k, v in (meta.get("game_params") or meta["params"]).items() if k != "players"}
    players, given = merge_players(players, given)
    stored.update(given)
    _, game = make_game(host, game_name, players or (meta.get("game_params") or {}).get("players"), stored)
    options = {"preset": meta["preset"]} if meta.get("preset") else {}
    with BarProgress(quiet=as_json) as progress:
        form = factored_form(game, host.pm, progress, options, cache=FormCache())
        if dict(form.params) != meta["params"]:
            raise InputError(f"{store_path} holds a run of {meta['game']} {meta['params']}, not {dict(form.params)}")
        evaluate = vector_evaluator(form, game)
        if evaluate is None:
            raise InputError(f"{game.describe()}: no exact evaluation over its factored form (it needs listed deals and "
                             f"fixed or table terminals); its run keeps no policy store to evaluate instead")  # fmt: skip
        if search:
            from gamesolve.store.strategy_store import StrategyStore

            blueprint = StrategyStore(store_path / "blueprint")
            try:
                fields = _search_over_form(game, form, blueprint, config, evaluate, progress)
            except (UserError, ValueError) as exc:  # FormError: a form search cannot walk
                raise InputError(one_line(exc)) from None
            counters = {"iterations": blueprint.attrs.get("iterations"), "seconds": blueprint.attrs.get("seconds")}
        else:
            trainer = checkpoint_trainer(store_path, form)
            progress.note(f"best response over {form.num_nodes:,} public nodes x {len(form.deals.listed.prob):,} deals")
            rows = trainer.average_rows() if policy == "average" else trainer.current_rows()
            fields = evaluate(trainer.node_offset, rows)
            counters = {"iterations": trainer.counters.iteration, "seconds": trainer.counters.elapsed}
    result = {
        "game": game.name, "params": dict(game.params), "players": game.num_players, "algo": meta.get("algo"),
        **counters, "policy": policy, "store": str(store_path), **fields,
    }  # fmt: skip
    emit(result, as_json, summary_lines(result))


def _search_over_form(game, form, store, config, evaluate, progress) -> dict[str, Any]:
    """The search agent over a training store's blueprint (``store``, a strategy store),
    composed on the rows of ``form`` (:func:`~gamesolve.search.compose.compose_form_policy`)
    and evaluated by ``evaluate``; the blueprint itself (the same store, as the agent reads
    it) evaluated beside it."""
    from gamesolve.search import StoredPolicy
    from gamesolve.search.compose import compose_form_policy
    from gamesolve.search.policy import policy_rows, row_layout

    blueprint = StoredPolicy(store, form.locate)
    progress.note(f"the blueprint's best responses over {form.num_nodes:,} public nodes")
    plain = evaluate(*policy_rows(form, blueprint))
    make_agent, report = _search_agents(game, form, blueprint, config)
    progress.start(int((row_layout(form)[0] >= 0).sum()) * int(form.num_private.max()), "rows", _search_label(config))
    offsets, composed = compose_form_policy(game, form, make_agent, on_decision=lambda: progress.advance(1, searches=f"{report()['searches']:,}"))
    fields = evaluate(offsets, composed)
    fields["search"] = {**report(), "blueprint_exploitability": plain["exploitability"], "blueprint_nash_conv": plain["nash_conv"]}
    return fields


def _search_agents(game, form, blueprint, config: dict[str, str]):
    """``(make_agent, report)``: the range search agent of ``config`` (its options) over
    ``blueprint`` on ``form``, for each seat of the composing walk, and a function that reports
    what it did. It is one agent for every seat, so the seats share its leaf values and kept
    solves (all of them: the composition asks for each many times)."""
    from gamesolve.search.compose import RangeSeat
    from gamesolve.search.player import keyed_range_search_player
    from gamesolve.search.range_agent import SolveMemo

    started = time.perf_counter()
    agent = keyed_range_search_player(game, form, blueprint, config, 0, SolveMemo(max_bytes=None))
    return (lambda seat: RangeSeat(agent, seat)), lambda: {
        "agent": "range", **agent.settings, "searches": agent.memo.solves, "seconds": time.perf_counter() - started}


def _search_label(config: dict[str, str]) -> str:
    return "range search agent" + "".join(f" {k}={v}" for k, v in config.items())


def _search_config(search_options: tuple[str, ...]) -> dict[str, str]:
    """The ``-s KEY=VALUE`` options of the range search agent (checked here before the game is
    compiled, and where it is built against the game); a bad one is an :class:`InputError`
    naming it."""
    from gamesolve.search.player import RangeSearchOptions

    try:
        options = _finite(parse_params(search_options, "--search-option"), "--search-option")
        if RangeSearchOptions.parse(options).solve.seconds != 0:
            raise ValueError("--search composes the agent's strategy exactly: it takes no time budget (seconds=0)")
        return options
    except (ValueError, TypeError, OverflowError) as exc:
        raise InputError(one_line(exc)) from None


def _finite(options: dict[str, str], flag: str) -> dict[str, str]:
    """Reject ``nan`` and infinite numbers, which no option means."""
    for key, value in options.items():
        try:
            number = float(value)
        except ValueError:
            continue
        if not math.isfinite(number):
            raise InputError(f"{flag} {key} must be a finite number, got {value!r}")
    return options


def _search_policy(game, tree, blueprint_slots, config, progress) -> tuple[Any, dict[str, Any]]:
    """The search agent's composed strategy over a blueprint, and what to report of it."""
    from gamesolve.game.factored_compiler import compile_factored
    from gamesolve.search import TabularPolicy, compose_agent_policy

    blueprint = TabularPolicy.from_slots(tree, blueprint_slots)
    progress.start(None, "nodes", f"factoring {game.describe()} for search")
    form = compile_factored(game, on_nodes=progress.advance)
    make_agent, report = _search_agents(game, form, blueprint, config)
    progress.start(tree.num_infosets, "infosets", _search_label(config))
    slots = compose_agent_policy(game, tree, make_agent, on_infoset=lambda: progress.advance(1, searches=f"{report()['searches']:,}"))
    return slots, {"search": report()}


@cli.command()
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
        _check_ray(ray_address, None)
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
                             keep_hands=hh_path is not None, aivat=aivat, aivat_values=aivat_values, plugins_dirs=_plugin_dirs(ctx))  # fmt: skip
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


def _table_game(host, game_name: str, players, agent_list: str, seat: str, params):
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


# ---- play: a person against agents, in the terminal (gamesolve/play/) ---------------------------
@cli.command()
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
    game, texts, seat_no = _table_game(host, game_name, players, agent_list, seat, params)
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


# ---- serve: the web table, one table per browser session (gamesolve/play/server.py) -----------
@cli.command()
@click.option("--game", "game_name", required=True, help="Game name (see `gamesolve games`).")
@click.option("--agents", "agent_list", required=True,
              help="Comma-separated agents for the other seats of every table (see `gamesolve agents`).")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on (localhost only unless told otherwise).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="Port (0: any free port).")
@click.option("--data", "data_dir", type=click.Path(path_type=Path), default=Path("gamesolve-play"), show_default=True,
              help="Folder for the tables' hand histories; the server reads and writes nothing else.")
@click.option("--seat", type=str, default="0", show_default=True, help="The person's seat in a table's first hand.")
@click.option("--hands", type=POSITIVE_INT, default=None, help="Hands per table (default: no limit).")
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed (each table gets its own, derived from it).")
@click.option("--players", type=POSITIVE_INT, default=None, help="Number of players (default: agents + 1).")
@click.option("--param", "-p", "params", multiple=True, help="Game parameter KEY=VALUE (repeatable).")
@click.option("--coach", "coach", default="auto", show_default=True, help="auto, none, or an agent spec (see `gamesolve play`).")
@click.option("--max-tables", type=click.IntRange(1, 10000), default=64, show_default=True, help="Tables open at once.")
@click.option("--workers", type=click.IntRange(1, 64), default=4, show_default=True, help="Threads the agents think in.")
@click.pass_context
def serve(ctx, game_name, agent_list, host, port, data_dir, seat, hands, seed, players, params, coach, max_tables, workers):
    """Serve a web table: play against agents in the browser (docs/play.md)."""
    try:
        import uvicorn

        from gamesolve.play.server import ServerConfig, create_app
    except ImportError as exc:
        raise InputError(f"gamesolve serve needs the play extra: pip install 'gamesolve[play]' ({exc})") from None
    from gamesolve.play.table import TableError, TableSpec, build_table

    plugin_host_ = host_from(ctx)
    game, texts, seat_no = _table_game(plugin_host_, game_name, players, agent_list, seat, params)
    spec = TableSpec(game, texts, coach)
    try:  # one table built up front: a wrong agent or store fails here, in one line
        build_table(plugin_host_, spec, seat=seat_no, seed=seed, hands=hands, hh_path=None)
    except TableError as exc:
        raise InputError(str(exc)) from None
    if data_dir.exists() and not data_dir.is_dir():
        raise InputError(f"--data {data_dir} is not a folder")
    _check_listen(host, port)  # uvicorn would log a bind failure over several lines and exit 1 or 3
    data_dir.mkdir(parents=True, exist_ok=True)
    config = ServerConfig(spec, data_dir.resolve(), seat=seat_no, seed=seed, hands=hands, max_tables=max_tables, workers=workers)
    app = create_app(config, plugin_host_)
    click.echo(f"gamesolve: {game.describe()} against {', '.join(texts)}; hand histories in {config.data_dir}")
    click.echo(f"gamesolve: open http://{host if ':' not in host else f'[{host}]'}:{port}/ (Ctrl-C stops)")
    uvicorn.run(app, host=host, port=port, log_level="info", ws_max_size=65536)


def _check_listen(host: str, port: int) -> None:
    """That the server can listen on ``host``:``port`` (a name that resolves, an address of
    this machine, a free port): bound once and released, else one :class:`InputError` line."""
    import socket

    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does
            probe.bind(address)
    except OSError as exc:  # socket.gaierror included
        raise InputError(f"cannot listen on {host or repr(host)}:{port}: {exc.strerror or one_line(exc)}") from None


@cli.group()
def cache():
    """Manage gamesolve's caches: compiled kernels and tables plugins build (card abstractions)."""


def _cache_root() -> Path:
    """The root of gamesolve's caches ($GAMESOLVE_CACHE_DIR, else $XDG_CACHE_HOME/gamesolve)."""
    from gamesolve.cache_paths import cache_root

    return cache_root()


def _size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file()) if path.is_dir() else 0


def _mb(n: int) -> str:
    return f"{n / 2**20:,.1f} MB"


@cache.command("clear")
@click.option("--all", "clear_all", is_flag=True,
              help="Also delete the tables plugins cached (NLTH card abstractions: minutes to rebuild).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def cache_clear(clear_all, as_json):
    """Delete numba's compiled kernels for this version of gamesolve (rebuilt on next use);
    with --all, the cached card-abstraction tables as well. Says what it cleared and kept."""
    kernels = Path(os.environ["NUMBA_CACHE_DIR"])
    cleared, kept = [], []
    size = _size(kernels)
    if kernels.exists():
        shutil.rmtree(kernels)
    cleared.append({"what": "compiled kernels (numba)", "path": str(kernels), "bytes": size})
    root = _cache_root()
    for entry in sorted(root.iterdir()) if root.is_dir() else []:
        if not entry.is_dir() or entry.name == "numba" or entry.name.startswith("."):
            continue
        names = {"abstraction": "card-abstraction tables", "forms": "compiled forms of large games"}
        item = {"what": names.get(entry.name, f"{entry.name} tables"),
                "path": str(entry), "bytes": _size(entry)}  # fmt: skip
        if clear_all:
            shutil.rmtree(entry)
            cleared.append(item)
        else:
            kept.append(item)
    lines = [f"cleared {c['what']}: {c['path']} ({_mb(c['bytes'])})" for c in cleared]
    lines += [f"kept {k['what']}: {k['path']} ({_mb(k['bytes'])}); `gamesolve cache clear --all` deletes them too"
              for k in kept]  # fmt: skip
    emit({"cleared": cleared, "kept": kept}, as_json, lines)


@cli.command()
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


@cli.group()
def store():
    """Check gamesolve stores (policy stores, MCCFR checkpoints, blueprints, cached tables)."""


@store.command("check")
@click.argument("path", type=click.Path(path_type=Path))
@click.option("--quick", is_flag=True, help="Check sizes and metadata only, not every file's digest.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object as the last line of stdout.")
def store_check(path, quick, as_json):
    """Verify every file of the store at PATH against its manifests (SHA-256 digests).

    Lists each problem (a missing, truncated, altered or unexpected file; a damaged
    checkpoint marker) and exits with status 2 if there is any, 0 if the store is sound."""
    from gamesolve.store.integrity import check_store, require_store
    from gamesolve.store.outputs import describe, store_format

    try:
        require_store(path, "store")
    except StoreError as exc:
        raise InputError(one_line(exc)) from None
    index, problems = check_store(path, deep=not quick, fresh=True)
    fmt = store_format(path)
    kind = describe(fmt) if fmt else (index.root.name if not index.files else "gamesolve store")
    report = {"path": str(path), "kind": kind, "files": len(index.files), "bytes": index.total_bytes,
              "manifests": len(index.sealed), "digests_checked": not quick, "problems": problems}  # fmt: skip
    if as_json:
        click.echo(json_report.dumps(report))
    else:
        for problem in problems:
            click.echo(f"problem: {problem}")
        if not problems:
            how = "sizes and metadata checked" if quick else "every SHA-256 digest checked"
            click.echo(f"ok: {path} ({kind}): {len(index.files):,} files, {_mb(index.total_bytes)}, "
                       f"{len(index.sealed):,} manifests; {how}")  # fmt: skip
    if problems:
        more = f" (and {len(problems) - 1:,} more)" if len(problems) > 1 else ""
        raise InputError(f"{path} is damaged: {problems[0]}{more}")




@cli.command()
@click.option("--game", "game_name", required=True, help="Game name (nlth).")
@click.option("--agent", "agent_text", required=True, help="The agent to exploit: NAME or NAME:KEY=VALUE[:KEY=VALUE] (it must expose its strategy).")
@click.option("--hands", type=POSITIVE_INT, default=1000, help="Hands to play (whole duplicate deals).")
@click.option("--seed", type=SEED, default=0, help="Random seed (deals, agents, LBR).")
@click.option("--players", type=POSITIVE_INT, default=None, help="Number of players (default: the game's; -p players=2 also works).")
@click.option("--param", "-p", "params", multiple=True, help="Game parameter KEY=VALUE, e.g. -p players=2.")
@click.option("--option", "-o", "options", multiple=True, metavar="KEY=VALUE",
              help="LBR setting, e.g. -o sizes=fcpa|fc|fchpa|wide|0.5,1/1/1/1 -o preflop=call|lbr (docs/evaluation.md).")
@click.option("--workers", type=click.IntRange(1, 64), default=1, help="Processes to play the deals in (same result as 1).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (mbb_per_game, se, hands, ...) as the last line.")
@click.pass_context
def lbr(ctx, game_name, agent_text, hands, seed, players, params, options, workers, as_json):
    """Local best response against an agent: a lower bound on its exploitability (mbb/game for poker)."""
    from gamesolve.evaluate.lbr import run_lbr
    from gamesolve.evaluate.match import MatchError
    from gamesolve.progress import BarProgress

    host = host_from(ctx)
    n_hands = hands
    n_workers = workers
    game_params = parse_params(params)
    n_players = players if players is not None else game_params.pop("players", None)
    spec, game = make_game(host, game_name, n_players, game_params)
    try:
        with BarProgress(quiet=as_json) as progress:
            result = run_lbr(host, game, agent_text.strip(), n_hands, seed=seed, options=parse_params(options, "--option"),
                             workers=n_workers, progress=progress)  # fmt: skip
    except (RegistryError, MatchError, UserError) as exc:
        raise InputError(one_line(exc)) from None
    emit(result.as_dict(), as_json, result.summary_lines())


def _add_evaluation_commands() -> None:
    """Commands of the evaluation modules (issue 13): plot."""
    from gamesolve.plot.cli import plot_command

    cli.add_command(plot_command)


_add_evaluation_commands()

if __name__ == "__main__":  # python -m gamesolve.cli
    cli()
