"""``gamesolve solve``: compute a strategy for a game (tabular or sampling solvers, on this
machine or a Ray cluster), checkpoint it, resume it."""

from __future__ import annotations

import math
from pathlib import Path

import click

from gamesolve.cli_params import POSITIVE_FLOAT, POSITIVE_INT, SEED, merge_players
from gamesolve.commands.support import (
    USER_ERRORS, check_ray, emit, game_name_and_params, host_from, make_game, one_line, option_error, parse_params,
    plugin_dirs, summary_lines,
)  # fmt: skip
from gamesolve.errors import InputError, OptionError, StoreError, UserError, is_no_space
from gamesolve.registry import RegistryError


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


@click.command()
@click.option("--game", "game_name", default=None, help="Game name (see `gamesolve games`). With --resume: read from the store.")
@click.option("--algo", cls=AlgoOption, default=None, help="Solver (see `gamesolve plugins`); default: the game's.")
@click.option("--iterations", type=POSITIVE_INT, default=None,
              help="Iterations to run (tabular solvers need it). With --minutes too, the run stops at whichever comes first. "
                   "With --resume: iterations more, on top of the store's.")
@click.option("--minutes", type=POSITIVE_FLOAT, default=None,
              help="Wall-clock budget of a sampling solver (mccfr, mccfr-p); nlth defaults to its preset's (tiny: 2). "
                   "With --resume: minutes more.")
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
    if "checkpoint" in options:  # its spelling before --checkpoint (issue 35 removed it): say where it went
        raise InputError(f"-o checkpoint={options['checkpoint']}: the checkpoint interval is --checkpoint {options['checkpoint']}")
    checkpoint_minutes = _checkpoint_minutes(checkpoint)
    if (resume or force) and out is None:
        raise InputError(f"{'--resume' if resume else '--force'} needs --out PATH (the store to {'continue' if resume else 'replace'})")
    check_ray(ray_address, workers)
    if cache_rows is not None and ray_address is None:
        raise InputError("--cache-rows needs --ray [ADDRESS|local] (one process holds the whole tables)")
    if resume and force:
        raise InputError("--resume continues the store at --out and --force replaces it; give one")
    if resume:
        if options:
            raise InputError(f"-o {', '.join(sorted(options))}: a run's options are fixed when it starts; "
                             "--resume continues with the store's")  # fmt: skip
        given_seed = None if _not_given(ctx, "seed") else seed
        game_name, algo, players, params, preset = _resumed_run(host, out, game_name, algo, players, params, preset, given_seed)
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
    if solver.check_options is not None:  # the one check of the options: the run takes them as returned
        try:
            checked = solver.check_options(options)
        except OptionError as exc:
            raise option_error(exc) from None
        except ValueError as exc:
            raise InputError(one_line(exc)) from None
        options = options if checked is None else checked  # (a plugin's check that returns nothing: as given)
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
        ray=ray_address, workers=workers or 2, cache_rows=cache_rows or 0, plugins_dirs=plugin_dirs(ctx),
        remote=_remote_trainer(ray_address),
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


def _checkpoint_minutes(raw: str | None) -> float | None:
    """--checkpoint as minutes (math.inf for off), None if not given."""
    if raw is None:
        return None
    from gamesolve.solve.mccfr_solver import checkpoint_interval

    try:
        minutes = checkpoint_interval(raw)
    except OptionError as exc:
        raise option_error(exc, {"checkpoint": "--checkpoint"}) from None
    return math.inf if minutes is None else minutes


def _resumed_run(host, out: Path, game_name, algo, players, params, preset, seed=None):
    """Game, algorithm, parameters and preset of the run stored at ``out`` (``--resume``);
    any the user also gave (``seed``: None if not given) must agree with the store."""
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
    if seed is not None and "seed" in meta and int(meta["seed"]) != seed:
        raise InputError(f"{out} holds a run with --seed {meta['seed']}, not {seed}; --resume continues it as it was")
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


def _remote_trainer(ray_address: str | None):
    """With ``--ray``: the trainer factory the MCCFR solvers train on the cluster with
    (gamesolve/solve/trainer.py; the solvers do not import the distribution package)."""
    if ray_address is None:
        return None
    from gamesolve.distribute.ray_trainer import ray_trainer

    return ray_trainer
