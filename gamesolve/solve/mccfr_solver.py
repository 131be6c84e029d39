"""``mccfr`` and ``mccfr-p`` as registered solvers: train on a game's factored form with
checkpoints, then evaluate exactly where the game is small enough."""

from __future__ import annotations

import resource

import attrs
import numpy as np
import psutil
import time
from typing import Any

from gamesolve.game.compile import compiled_tree, factored_form
from gamesolve.game.explicit_tree import CompileError
from gamesolve.game.factored import FormError
from gamesolve.game.tree_size import too_big
from gamesolve.solve.mccfr import MCCFRConfig, MCCFRTrainer
from gamesolve.solve.schedule import Schedule
from gamesolve.solve.spec import Progress, SolveRequest, SolverSpec
from gamesolve.solve.stop import DeferredStop, StopRequested
from gamesolve.solve.tabular import exact_pair
from gamesolve.solve.trainer import RemoteRun
from gamesolve.solve.warm import start_warm, stop_warm
from gamesolve.store import checkpoint as ckpt
from gamesolve.store import metrics as M
from gamesolve.store.form_cache import FormCache
from gamesolve.store.policy_store import write_policy
from gamesolve.store.strategy_store import write_strategy
from gamesolve.errors import DiskFullError, OptionError, StoreError

EXPLICIT_LIMIT = 5_000_000  # evaluate exactly only games with at most this many histories
VECTOR_METRICS_LIMIT = 500_000_000  # public nodes x deals up to which the vector best response also gives metrics rows
SEQUENCES_EVERY = 2.0  # seconds between two counts of the allocated action sequences the progress bar shows


def form_of(request: SolveRequest, progress: Progress | None = None):
    """The game's factored form: its plugin's (an abstraction preset) or the generic compiler's."""
    options = {"preset": request.preset} if request.preset else {}
    if progress is not None:
        options["progress"] = progress  # a plugin may build tables first (nlth: the card abstraction)
    try:
        return factored_form(request.game, request.pm, progress, options, cache=FormCache())
    except FormError as exc:
        hint = "; use a tabular solver (cfr, cfr+, lcfr, dcfr)" if request.game_spec.tabular else ""
        raise ValueError(f"{exc}{hint}") from None


def check_options(options: dict[str, str]) -> dict[str, Any]:
    """Validate ``-o KEY=VALUE`` options once, before any work starts (known keys, numbers as
    numbers, schedules as schedules, intervals positive, probabilities in [0, 1]), and return
    them parsed: the run builds its config from these (:class:`~gamesolve.errors.OptionError`
    naming the option at fault)."""
    import math

    if "prune" in options:
        raise OptionError("prune", "is set by --algo (mccfr-p prunes, mccfr does not)")
    parsed = {key: MCCFRConfig.parse_option(key, raw) for key, raw in options.items()}
    for field in attrs.fields(MCCFRConfig):
        if field.name not in parsed:
            continue
        value, raw = parsed[field.name], options[field.name]
        if isinstance(value, Schedule):
            if value.minutes is not None and not math.isfinite(value.minutes):
                raise OptionError(field.name, f"must be finite, got {raw!r}")
            if field.name.endswith("_interval") and not value.never and not (value.iterations or value.minutes):
                raise OptionError(field.name, f"must be positive (or off), got {raw!r}")
        elif isinstance(value, float):
            if not math.isfinite(value):
                raise OptionError(field.name, f"must be a finite number, got {raw!r}")
            if field.name.endswith("_probability") and not 0.0 <= value <= 1.0:
                raise OptionError(field.name, f"is a probability, in [0, 1]; got {raw!r}")
            if field.name == "regret_scale" and value <= 0:
                raise OptionError(field.name, f"must be positive, got {raw!r}")
    return parsed


def checkpoint_interval(raw: str) -> float | None:
    """Minutes between checkpoints from ``--checkpoint`` (e.g. 30s, 10m, 1h, off -> None);
    :class:`~gamesolve.errors.OptionError` naming ``checkpoint`` otherwise."""
    try:
        # A checkpoint interval is always a time, so a bare "m" can only mean minutes.
        schedule = Schedule.parse(raw, legacy=True)
    except (ValueError, OverflowError) as exc:
        kind = "positive time" if "positive" in str(exc) else "time"
        raise OptionError("checkpoint", f"expects a {kind} such as 30s, 10min, 1h or off, got {raw!r}") from None
    if schedule.never:
        return None
    if schedule.minutes is None or not 0 < schedule.minutes < float("inf"):
        raise OptionError("checkpoint", f"expects a positive time such as 30s, 10min or 1h (or off), got {raw!r}")
    return schedule.minutes


def run_mccfr(request: SolveRequest, progress: Progress) -> dict[str, Any]:
    # SIGTERM and a first SIGINT from here on only request a stop, honoured between
    # batches: a signal never lands inside a checkpoint or store write (gamesolve/solve/stop.py).
    # The training's kernels compile in a second process while the form is built (warm.py).
    child = start_warm(request, request.pm) if request.pm is not None else None
    try:
        with DeferredStop() as stop:
            result = _train(request, progress, stop)
            stop.check()  # a request during the final writes: they are complete; exit 130 all the same
            return result
    except DiskFullError as exc:  # (a snapshot, the final stores): say what is kept
        if request.out is None:
            raise
        raise DiskFullError(ckpt.after_full_disk(str(exc), request.out)) from None
    finally:
        stop_warm(child)


def _train(request: SolveRequest, progress: Progress, stop: DeferredStop) -> dict[str, Any]:
    game = request.game
    options = dict(request.options)  # parsed by check_options (the solve command calls it before the run)
    interval = request.checkpoint_minutes if request.checkpoint_minutes is not None else ckpt.DEFAULT_INTERVAL_MINUTES
    if interval == float("inf"):
        interval = None  # --checkpoint off
    progress.note(f"compiling {game.describe()} to its factored form")
    tree = form_of(request, progress)
    if request.iterations is None and request.minutes is None:
        if tree.default_minutes is None:
            raise ValueError(f"{request.algo} needs --iterations or --minutes")
        request = attrs.evolve(request, minutes=tree.default_minutes)
    if request.auto_threads and request.ray is None and tree.default_threads:
        request = attrs.evolve(request, threads=int(tree.default_threads))
    options["prune"] = request.algo == "mccfr-p"
    meta = {"game": game.name, "params": dict(tree.params), "game_params": dict(game.params),
            "preset": request.preset, "algo": request.algo, "seed": request.seed}  # fmt: skip
    out = request.out
    if request.resume:
        stored = ckpt.read_meta(out)
        if stored["game"] != game.name or stored["params"] != dict(tree.params):
            raise StoreError(f"{out} holds a {stored['game']} {stored['params']} run, not {game.name} {dict(tree.params)}")
        if stored.get("algo") != request.algo:
            raise StoreError(f"{out} holds an {stored.get('algo')} run, not {request.algo}")
        config = MCCFRConfig.from_options(stored["config"], legacy=True)  # legacy: a store on disk may say 10m
        # The run's seed, for everything seeded after the training too (the strategy store's
        # continuation strategies), not the command line's default.
        request = attrs.evolve(request, seed=int(stored["seed"]))
        ckpt.clean_incomplete(out)
        resumable = ckpt.latest(out) is not None
        if not resumable:  # killed before its first checkpoint: start it afresh
            progress.note(f"{out} holds no checkpoint yet: its run starts from the beginning")
        if request.ray is not None:
            trainer = _ray_trainer(request, tree, config, request.seed, progress, resume=resumable)
        else:
            trainer = MCCFRTrainer(tree, config, threads=request.threads, seed=request.seed)
            if resumable:
                if ckpt.is_sharded(out):
                    raise StoreError(f"{out} was trained on a Ray cluster; continue it with --ray (--ray local --workers 1 "
                                     "runs it in one process of this machine)")  # fmt: skip
                arrays, state = ckpt.read_checkpoint(out)
                trainer.load_state(arrays, state)
        if resumable:
            progress.note(f"resumed {out} at iteration {trainer.counters.iteration:,}")
    else:
        config = attrs.evolve(MCCFRConfig.from_options(tree.mccfr_defaults), **options)  # (options: parsed already)
        if request.ray is not None:
            trainer = _ray_trainer(request, tree, config, request.seed, progress, resume=False)
        else:
            trainer = MCCFRTrainer(tree, config, threads=request.threads, seed=request.seed)
        if out is not None:
            ckpt.create_store(out, {**meta, "config": config.as_dict()}, replace=request.force)

    if out is not None and request.ray is None:
        trainer.snapshot_sink = ckpt.SnapshotSink(out)
    try:
        return _run(request, progress, tree, trainer, config, interval, stop)
    finally:
        if request.ray is not None:
            trainer.close()


def checkpoint_trainer(path, form, threads: int = 1) -> MCCFRTrainer:
    """A trainer holding the last checkpoint of the MCCFR store at ``path``, whose run trained
    on ``form`` (its strategy: ``average_rows()``, ``current_rows()``)."""
    meta = ckpt.read_meta(path)
    if ckpt.is_sharded(path):
        raise StoreError(f"{path} was trained on a Ray cluster (its tables are in shard parts); it cannot be read here")
    arrays, state = ckpt.read_checkpoint(path)
    config = MCCFRConfig.from_options(meta["config"], legacy=True)  # legacy: a store on disk may say 10m
    trainer = MCCFRTrainer(form, config, threads=threads, seed=int(meta["seed"]))
    trainer.load_state(arrays, state)
    trainer.snapshot_sink = ckpt.SnapshotSink(path)  # snapshots a long run kept on disk
    return trainer


def _ray_trainer(request: SolveRequest, tree, config: MCCFRConfig, seed: int, progress: Progress, resume: bool):
    """The head of a run on a Ray cluster (docs/distributed.md), from the factory the command
    layer supplies (``request.remote``: :mod:`gamesolve.solve.trainer`)."""
    if request.remote is None:
        raise ValueError("--ray needs a remote trainer: the solve command supplies gamesolve.distribute's")
    run = RemoteRun(
        form=tree, config=config, seed=seed, game=request.game.name, params={k: str(v) for k, v in request.game.params.items()},
        preset=request.preset, plugins_dirs=tuple(request.plugins_dirs), address=request.ray, workers=request.workers,
        threads=request.threads, cache_rows=request.cache_rows, out=request.out, resume=resume, note=progress.note,
    )  # fmt: skip
    progress.note(f"starting {request.workers} Ray workers of {request.threads} thread(s) ({request.ray})")
    return request.remote(run)


def _run(request: SolveRequest, progress: Progress, tree, trainer, config: MCCFRConfig, interval: float | None,
         stop: DeferredStop) -> dict[str, Any]:  # fmt: skip
    """Train, checkpoint, then write and summarise the strategy. A stop request ends the
    training between two batches with a checkpoint (:class:`StopRequested`)."""
    game = request.game
    out = request.out
    recorder, explicit, exact, vector = _metrics_recorder(request, tree, trainer, progress)  # training metrics (gamesolve/store/metrics.py)
    table_sizes = _TableSizes(tree, trainer)

    saved_at = [None]  # the iteration of the last checkpoint this run wrote

    def save() -> None:
        if saved_at[0] == trainer.counters.iteration:
            return  # (a stop right after a scheduled checkpoint)
        if out is not None:
            if request.ray is not None:
                trainer.checkpoint(out)  # its shards write their parts
            else:
                ckpt.write_checkpoint(out, *trainer.state())
        recorder.flush()  # metrics rows up to this checkpoint
        saved_at[0] = trainer.counters.iteration

    # The long description goes on a line of its own, so that the bar, its percentage and
    # the time left fit an 80-column terminal.
    progress.note(f"training {request.algo} on {game.describe()}")
    if request.minutes is not None:
        progress.start(request.minutes * 60, "s", f"{request.algo} {game.name}")
    else:
        progress.start(request.iterations, "it", f"{request.algo} {game.name}")
    clock = None if out is None else ckpt.CheckpointClock(interval, request.minutes, request.iterations, trainer.counters.iteration)

    process = psutil.Process()
    # Counting the allocated action sequences reads every node (Liar's Dice 2x6: 20 ms, a
    # tenth of a 0.2 s batch while the training threads wait): the bar's figure is refreshed
    # every few seconds, not every batch.
    sequences = [0, -float("inf")]  # (count, when counted)

    def allocated_sequences() -> int:
        if time.perf_counter() - sequences[1] >= SEQUENCES_EVERY:
            sequences[:] = [int(trainer.allocated().sum()), time.perf_counter()]
        return sequences[0]

    def on_batch(n: int, dt: float) -> None:
        if recorder.due(trainer.counters.iteration, trainer.counters.elapsed):  # metrics row
            recorder.record(trainer.counters.iteration, trainer.counters.elapsed, **table_sizes())
        rate = n / dt if dt > 0 else 0.0
        amount = dt if request.minutes is not None else n
        progress.advance(
            amount, rate=f"{rate:,.0f} it/s", it=f"{trainer.counters.iteration:,}",
            mem=f"{process.memory_info().rss / 2**20:,.0f}MiB",
            sequences=f"{allocated_sequences():,}",
        )  # fmt: skip
        if clock is not None and clock.due(trainer.counters.iteration):
            save()
            clock.done()
        stop.check()  # between batches, after this batch's checkpoint is sealed

    started = time.perf_counter()
    start_iteration = trainer.counters.iteration
    try:
        stop.check()  # requested while the game compiled
        # Checkpoints are taken in on_batch (ckpt.CheckpointClock: early, then every interval).
        trainer.run(iterations=request.iterations, minutes=request.minutes, on_batch=on_batch)
    except StopRequested:
        save()  # nothing lost: the run continues with --resume
        raise
    seconds = time.perf_counter() - started
    recorder.record(trainer.counters.iteration, trainer.counters.elapsed, final=True, **table_sizes())
    if request.ray is None:
        save()
    else:  # its run ended with the last checkpoint and the whole tables gathered here
        recorder.flush()
        cluster = trainer.cluster_report()
        trainer = trainer.gather()
    done = trainer.counters.iteration - start_iteration
    result: dict[str, Any] = {
        "game": game.name,
        "params": dict(game.params),
        "players": game.num_players,
        "algo": request.algo,
        "iterations": trainer.counters.iteration,
        "iterations_this_run": done,
        "seconds": seconds,
        "training_seconds": trainer.counters.elapsed,  # over every run of this store, paired with iterations
        "iterations_per_second": done / seconds if seconds > 0 else 0.0,
        "nodes_visited": trainer.counters.nodes_visited,
        "dropped_rows": trainer.counters.dropped_rows,
        "saturated_regrets": trainer.counters.saturated_regrets,
        "threads": request.threads,
        **(cluster if request.ray is not None else {}),
        **trainer.memory_report(),
        "config": config.as_dict(),
    }
    # The final strategy: exact figures, summary and store read it. Without an explicit tree
    # (a big game) the training tables are let go as it is read: the evaluation needs room.
    rows = trainer.average_rows() if explicit is not None else trainer.release_average_rows()
    if explicit is not None:
        policy = trainer.explicit_policy(explicit)
        fields = exact(policy) if exact is not None else {}
        result.update(fields)
        if out is not None:
            write_policy(
                out / "policy", explicit, policy, trainer.explicit_policy(explicit, "current"),
                algo=request.algo, iterations=trainer.counters.iteration, seconds=trainer.counters.elapsed,
                seed=request.seed, nash_conv=fields.get("nash_conv"),
            )  # fmt: skip
    elif vector is not None:  # exact over the factored form (too big for an explicit tree)
        result.update(vector(trainer.node_offset, rows))
    summary = request.pm.hook.gamesolve_summarize_strategy(
        game=game, tree=tree, rows=rows, node_offset=trainer.node_offset,
        iterations=trainer.counters.iteration, seconds=trainer.counters.elapsed,
    )  # fmt: skip
    if summary:
        result.update(summary)
    if out is not None:
        write_strategy(
            out / "blueprint", tree, rows, trainer.node_offset, seed=request.seed,
            algo=request.algo, iterations=trainer.counters.iteration, seconds=trainer.counters.elapsed,
        )  # fmt: skip
        result["store"] = str(out)
    result["peak_memory_bytes"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    return result


def _metrics_recorder(request: SolveRequest, tree, trainer: MCCFRTrainer, progress: Progress):
    """Rows in the checkpoint store (``--out``), with exact exploitability where the game can
    be evaluated exactly: through an explicit tree when its histories are few enough
    (``EXPLICIT_LIMIT``), else over the factored form (``request.evaluate_form``). Returns the
    recorder, that tree (or None), its evaluator (or None) and the form's (or None)."""
    evaluate = None
    explicit = None
    if tree.locate is not None and too_big(request.game, EXPLICIT_LIMIT, "an explicit tree") is None:
        try:
            explicit = compiled_tree(request.game, request.pm, progress)
        except CompileError:
            explicit = None
        if explicit is not None and explicit.num_nodes > EXPLICIT_LIMIT:
            explicit = None
        if explicit is not None and request.evaluate is not None:
            evaluate = request.evaluate(explicit)
    vector = None
    if evaluate is None and request.evaluate_form is not None:
        vector = request.evaluate_form(tree, request.game)
    # Rows while training only where an evaluation is cheap: the vector best response costs
    # public nodes x deals (Liar's Dice 2x6: 1.5e10, minutes), which the final result pays once.
    cheap = evaluate is not None or (vector is not None and tree.num_nodes * len(tree.deals.listed.prob) <= VECTOR_METRICS_LIMIT)

    def exact():
        if evaluate is not None:
            return exact_pair(evaluate(trainer.explicit_policy(explicit)))
        return exact_pair(vector(trainer.node_offset, trainer.average_rows()))

    resumed = trainer.counters.iteration if request.resume else None
    attrs = {"game": request.game.name, "algo": request.algo, "params": dict(tree.params)}
    recorder = M.MetricsRecorder(request.out, attrs=attrs, resume_iteration=resumed, exact=exact if cheap else None)
    return recorder, explicit, evaluate, vector


class _TableSizes:
    """Information sets and table entries allocated so far (metrics columns)."""

    def __init__(self, tree, trainer: MCCFRTrainer):
        self.trainer = trainer
        self.sizes = tree.row_sizes()
        self.buckets = np.where(self.sizes > 0, tree.num_private[tree.node_round], 0).astype(np.int64)

    def __call__(self) -> dict[str, int]:
        allocated = self.trainer.allocated()
        return {"infosets": int(self.buckets[allocated].sum()), "infoset_actions": int(self.sizes[allocated].sum())}


def mccfr_solver_specs() -> list[SolverSpec]:
    return [
        SolverSpec(
            name="mccfr",
            run=run_mccfr,
            description="external-sampling MCCFR with linear discounting (Algorithm 1 without pruning)",
            store_format=ckpt.FORMAT, resumable=True, check_options=check_options,
        ),
        SolverSpec(
            name="mccfr-p",
            run=run_mccfr,
            description="external-sampling MCCFR with linear discounting and negative-regret pruning (Algorithm 1)",
            store_format=ckpt.FORMAT, resumable=True, check_options=check_options,
        ),
    ]
