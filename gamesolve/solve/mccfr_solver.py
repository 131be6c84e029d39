"""``mccfr`` and ``mccfr-p`` as registered solvers: train on a game's poker tree with
checkpoints, then evaluate exactly where the game is small enough."""

from __future__ import annotations

import resource
import signal

import attrs
import numpy as np
import psutil
import time
from typing import Any

from gamesolve.evaluate.best_response import TreeEvaluator
from gamesolve.game.compile import compiled_tree
from gamesolve.game.explicit_tree import CompileError
from gamesolve.game.poker_tree import DECISION
from gamesolve.solve.mccfr import MCCFRConfig, MCCFRTrainer
from gamesolve.solve.schedule import Schedule
from gamesolve.solve.spec import Progress, SolveRequest, SolverSpec
from gamesolve.store import checkpoint as ckpt
from gamesolve.store import metrics as M
from gamesolve.store.policy_store import write_policy
from gamesolve.store.strategy_store import write_strategy
from gamesolve.store.zarr_io import StoreError

DEFAULT_CHECKPOINT = "10m"
EXPLICIT_LIMIT = 5_000_000  # evaluate exactly only games with at most this many histories


def poker_tree_of(request: SolveRequest):
    if request.pm is None:
        raise ValueError("MCCFR needs the plugin manager to compile the game")
    options = {"preset": request.preset} if request.preset else {}
    tree = request.pm.hook.gamesolve_compile_game(game=request.game, form="poker_tree", options=options)
    if tree is None:
        hint = "; use a tabular solver (cfr, cfr+, lcfr, dcfr)" if request.game_spec.tabular else ""
        raise ValueError(f"{request.game.name} has no poker-tree form for sampling solvers{hint}")
    return tree


def run_mccfr(request: SolveRequest, progress: Progress) -> dict[str, Any]:
    game = request.game
    progress.note(f"compiling {game.describe()} to its betting tree")
    tree = poker_tree_of(request)
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
        config = MCCFRConfig.from_options(stored["config"])
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
    recorder, explicit = _metrics_recorder(request, tree, trainer, progress)  # training metrics (gamesolve/store/metrics.py)
    table_sizes = _TableSizes(tree, trainer)

    def save() -> None:
        if out is not None:
            arrays, state = trainer.state()
            ckpt.write_checkpoint(out, arrays, state)
        recorder.flush()  # metrics rows up to this checkpoint

    if request.minutes is not None:
        progress.start(request.minutes * 60, "s", f"{request.algo} on {game.describe()}")
    else:
        progress.start(request.iterations, "it", f"{request.algo} on {game.describe()}")

    process = psutil.Process()

    def on_batch(n: int, dt: float) -> None:
        if recorder.due(trainer.counters.iteration, trainer.counters.elapsed):  # metrics row
            recorder.record(trainer.counters.iteration, trainer.counters.elapsed, **table_sizes())
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
    recorder.record(trainer.counters.iteration, trainer.counters.elapsed, final=True, **table_sizes())
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
        "threads": request.threads,
        **trainer.memory_report(),
        "config": config.as_dict(),
    }
    if explicit is not None:
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


def _metrics_recorder(request: SolveRequest, tree, trainer: MCCFRTrainer, progress: Progress):
    """Rows in the checkpoint store (``--out``), with exact exploitability when the game
    compiles to an explicit tree small enough to evaluate; and that tree (or None)."""
    exact = None
    explicit = None
    if tree.locate is not None:
        try:
            explicit = compiled_tree(request.game, request.pm, progress)
        except CompileError:
            explicit = None
        if explicit is not None and explicit.num_nodes > EXPLICIT_LIMIT:
            explicit = None
        if explicit is not None:
            evaluator = TreeEvaluator(explicit)

            def evaluate_exactly() -> tuple[float, float]:
                evaluation = evaluator.evaluate(trainer.explicit_policy(explicit))
                return evaluation.nash_conv, evaluation.exploitability

            exact = evaluate_exactly

    resumed = trainer.counters.iteration if request.resume else None
    attrs = {"game": request.game.name, "algo": request.algo, "params": dict(tree.params)}
    return M.MetricsRecorder(request.out, attrs=attrs, resume_iteration=resumed, exact=exact), explicit


class _TableSizes:
    """Information sets and table entries allocated so far (metrics columns)."""

    def __init__(self, tree, trainer: MCCFRTrainer):
        self.trainer = trainer
        self.sizes = tree.row_sizes()
        self.buckets = tree.num_buckets[tree.node_round].astype(np.int64)
        self.buckets[tree.node_kind != DECISION] = 0

    def __call__(self) -> dict[str, int]:
        allocated = self.trainer.node_offset >= 0
        return {"infosets": int(self.buckets[allocated].sum()), "infoset_actions": int(self.sizes[allocated].sum())}


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
