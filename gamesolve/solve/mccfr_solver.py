"""``mccfr`` and ``mccfr-p`` as registered solvers: train on a game's factored form with
checkpoints, then evaluate exactly where the game is small enough."""

from __future__ import annotations

import resource
import signal

import attrs
import psutil
import time
from typing import Any

from gamesolve.evaluate.best_response import TreeEvaluator
from gamesolve.game.compile import compiled_tree, factored_form
from gamesolve.game.explicit_tree import CompileError
from gamesolve.game.factored import FormError
from gamesolve.solve.mccfr import MCCFRConfig, MCCFRTrainer
from gamesolve.solve.schedule import Schedule
from gamesolve.solve.spec import Progress, SolveRequest, SolverSpec
from gamesolve.store import checkpoint as ckpt
from gamesolve.store.policy_store import write_policy
from gamesolve.store.strategy_store import write_strategy
from gamesolve.store.zarr_io import StoreError

DEFAULT_CHECKPOINT = "10min"
EXPLICIT_LIMIT = 5_000_000  # evaluate exactly only games with at most this many histories


def form_of(request: SolveRequest, progress: Progress):
    """The game's factored form: its plugin's (an abstraction preset) or the generic compiler's."""
    options = {"preset": request.preset} if request.preset else {}
    try:
        return factored_form(request.game, request.pm, progress, options)
    except FormError as exc:
        hint = "; use a tabular solver (cfr, cfr+, lcfr, dcfr)" if request.game_spec.tabular else ""
        raise ValueError(f"{exc}{hint}") from None


def run_mccfr(request: SolveRequest, progress: Progress) -> dict[str, Any]:
    game = request.game
    progress.note(f"compiling {game.describe()} to its factored form")
    tree = form_of(request, progress)
    if request.iterations is None and request.minutes is None:
        if tree.default_minutes is None:
            raise ValueError(f"{request.algo} needs --iterations or --minutes")
        request = attrs.evolve(request, minutes=tree.default_minutes)
    options = dict(request.options)
    checkpoint_every = Schedule.parse(options.pop("checkpoint", DEFAULT_CHECKPOINT))
    options["prune"] = request.algo == "mccfr-p"
    meta = {"game": game.name, "params": dict(tree.params), "algo": request.algo, "seed": request.seed}
    out = request.out
    if request.resume:
        stored = ckpt.read_meta(out)
        if stored["game"] != game.name or stored["params"] != dict(tree.params):
            raise StoreError(f"{out} holds a {stored['game']} {stored['params']} run, not {game.name} {dict(tree.params)}")
        if stored.get("algo") != request.algo:
            raise StoreError(f"{out} holds an {stored.get('algo')} run, not {request.algo}")
        config = MCCFRConfig.from_options(stored["config"], legacy=True)
        trainer = MCCFRTrainer(tree, config, threads=request.threads, seed=int(stored["seed"]))
        ckpt.clean_incomplete(out)
        arrays, state = ckpt.read_checkpoint(out)
        trainer.load_state(arrays, state)
        progress.note(f"resumed {out} at iteration {trainer.counters.iteration:,}")
    else:
        config = MCCFRConfig.from_options(tree.mccfr_defaults, **options)
        trainer = MCCFRTrainer(tree, config, threads=request.threads, seed=request.seed)
        if out is not None:
            ckpt.create_store(out, {**meta, "config": config.as_dict()})

    if out is not None:
        trainer.snapshot_sink = ckpt.SnapshotSink(out)

    def save() -> None:
        if out is not None:
            arrays, state = trainer.state()
            ckpt.write_checkpoint(out, arrays, state)

    if request.minutes is not None:
        progress.start(request.minutes * 60, "s", f"{request.algo} on {game.describe()}")
    else:
        progress.start(request.iterations, "it", f"{request.algo} on {game.describe()}")

    process = psutil.Process()

    def on_batch(n: int, dt: float) -> None:
        rate = n / dt if dt > 0 else 0.0
        amount = dt if request.minutes is not None else n
        progress.advance(
            amount, rate=rate, it=f"{trainer.counters.iteration:,}",
            mem=f"{process.memory_info().rss / 2**20:,.0f}MiB",
            sequences=f"{int((trainer.node_offset >= 0).sum()):,}",
        )  # fmt: skip

    started = time.perf_counter()
    start_iteration = trainer.counters.iteration
    previous = signal.getsignal(signal.SIGTERM)
    signal.signal(signal.SIGTERM, _raise_interrupt)
    try:
        trainer.run(
            iterations=request.iterations, minutes=request.minutes, on_batch=on_batch,
            on_checkpoint=save, checkpoint_minutes=_minutes(checkpoint_every),
        )  # fmt: skip
    except KeyboardInterrupt:
        save()  # nothing lost: the run continues with --resume
        raise
    finally:
        signal.signal(signal.SIGTERM, previous)
    seconds = time.perf_counter() - started
    save()
    done = trainer.counters.iteration - start_iteration
    result: dict[str, Any] = {
        "game": game.name,
        "params": dict(game.params),
        "players": game.num_players,
        "algo": request.algo,
        "iterations": trainer.counters.iteration,
        "iterations_this_run": done,
        "seconds": seconds,
        "iterations_per_second": done / seconds if seconds > 0 else 0.0,
        "nodes_visited": trainer.counters.nodes_visited,
        "dropped_rows": trainer.counters.dropped_rows,
        "saturated_regrets": trainer.counters.saturated_regrets,
        "threads": request.threads,
        **trainer.memory_report(),
        "config": config.as_dict(),
    }
    if tree.locate is not None:
        try:
            explicit = compiled_tree(game, request.pm, progress)
        except CompileError:
            explicit = None
        if explicit is not None and explicit.num_nodes <= EXPLICIT_LIMIT:
            from gamesolve.solve.tabular import evaluation_fields

            policy = trainer.explicit_policy(explicit)
            evaluation = TreeEvaluator(explicit).evaluate(policy)
            result.update(evaluation_fields(evaluation))
            if out is not None:
                write_policy(
                    out / "policy", explicit, policy, trainer.explicit_policy(explicit, "current"),
                    algo=request.algo, iterations=trainer.counters.iteration, seconds=trainer.counters.elapsed,
                    seed=request.seed, nash_conv=evaluation.nash_conv,
                )  # fmt: skip
    rows = trainer.average_rows()
    summary = request.pm.hook.gamesolve_summarize_strategy(game=game, tree=tree, rows=rows, node_offset=trainer.node_offset)
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


def _raise_interrupt(signum, frame):
    raise KeyboardInterrupt


def _minutes(schedule: Schedule) -> float | None:
    if schedule.never:
        return None
    if schedule.minutes is None:
        raise ValueError("the checkpoint interval is a time, e.g. checkpoint=5m")
    return schedule.minutes


def mccfr_solver_specs() -> list[SolverSpec]:
    return [
        SolverSpec(
            name="mccfr",
            run=run_mccfr,
            description="external-sampling MCCFR with linear discounting (Algorithm 1 without pruning)",
        ),
        SolverSpec(
            name="mccfr-p",
            run=run_mccfr,
            description="external-sampling MCCFR with linear discounting and negative-regret pruning (Algorithm 1)",
        ),
    ]
