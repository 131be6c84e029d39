"""The tabular solvers as registered solvers: compile, iterate, evaluate exactly, store."""

from __future__ import annotations

import time
from typing import Any

from gamesolve.errors import UserError
from gamesolve.game.compile import compiled_tree
from gamesolve.solve.cfr import TABULAR_ALGORITHMS, TabularCFR, summation_order
from gamesolve.solve.spec import Progress, SolveRequest, SolverSpec
from gamesolve.store import metrics as M
from gamesolve.store.policy_store import FORMAT as POLICY_FORMAT, write_policy


def run_tabular(request: SolveRequest, progress: Progress) -> dict[str, Any]:
    if request.resume:
        raise ValueError(
            f"{request.algo} cannot --resume: tabular solvers keep no checkpoints (they run to the end in one go); "
            "rerun with --force to replace the store, or use --algo mccfr-p for a resumable run"
        )
    if request.iterations is None:
        raise ValueError(f"{request.algo} needs --iterations")
    if request.checkpoint_minutes is not None:
        raise ValueError(f"{request.algo} keeps no checkpoints; --checkpoint is for mccfr and mccfr-p")
    options = {"order": "fast", **request.options}  # checked by the spec's check_options (the solve command calls it)
    if request.preset:
        raise ValueError(f"{request.algo} solves the whole game; --preset is for abstracted games")
    config = TABULAR_ALGORITHMS[request.algo]
    game = request.game
    tree = compiled_tree(game, request.pm, progress)
    solver = TabularCFR(tree, config, order=options["order"])
    exact = request.evaluate(tree) if request.evaluate is not None else None
    progress.start(request.iterations, "it", f"{config.name} on {game.describe()}")
    # Training metrics (gamesolve/store/metrics.py): rows with exact exploitability at
    # log-spaced iterations, kept beside --out until the policy is written.
    if request.out is not None:
        M.clear_partial(request.out)
    recorder = M.MetricsRecorder(
        M.partial_path(request.out) if request.out is not None else None,
        attrs={"game": game.name, "algo": config.name, "params": dict(game.params)},
        exact=None if exact is None else lambda: exact_pair(exact(solver.average_policy())),
    )
    solver.warm_up()
    seconds = 0.0
    batch = _batch_size(tree)
    while solver.iterations < request.iterations:
        step = min(batch, request.iterations - solver.iterations, recorder.next_iteration(solver.iterations) - solver.iterations)
        started = time.perf_counter()
        solver.run(step, batch=step)
        seconds += time.perf_counter() - started
        progress.advance(step)
        last = solver.iterations >= request.iterations
        if last or recorder.due(solver.iterations, seconds):
            recorder.record(solver.iterations, seconds, final=last, infosets=tree.num_infosets, infoset_actions=tree.num_slots)
    recorder.flush()
    policy = solver.average_policy()
    fields = exact(policy) if exact is not None else {}
    result: dict[str, Any] = {
        "game": game.name,
        "params": dict(game.params),
        "players": game.num_players,
        "algo": config.name,
        "iterations": solver.iterations,
        "seconds": seconds,
        **fields,
        "infosets": tree.num_infosets,
        "nodes": tree.num_nodes,
    }
    if request.out is not None:
        write_policy(
            request.out, tree, policy, solver.current_policy(),
            algo=config.name, iterations=solver.iterations, seconds=seconds, seed=request.seed,
            nash_conv=fields.get("nash_conv"),
        )  # fmt: skip
        M.move_partial_into(request.out)
        result["store"] = str(request.out)
    return result


TABULAR_OPTIONS = {"order": summation_order}
"""``-o KEY=VALUE`` options of the tabular solvers: ``order=fast|openspiel``, the summation
order of node values (:data:`~gamesolve.solve.cfr.ORDERS`; ``fast`` by default)."""


def _check_options(name: str):
    """Validate a tabular solver's ``-o`` options once, before the run (:class:`UserError`
    naming an unknown key and the known ones, :class:`OptionError` naming the option and its
    allowed values); the checked options returned, which the run uses."""

    def check(options: dict[str, str]) -> dict[str, str]:
        unknown = sorted(options.keys() - TABULAR_OPTIONS.keys())
        if unknown:
            raise UserError(f"{name} has no solver option {', '.join(unknown)} (its options: {', '.join(TABULAR_OPTIONS)})")
        return {key: TABULAR_OPTIONS[key](str(value)) for key, value in options.items()}

    return check


def exact_pair(fields: dict[str, Any]) -> tuple[float, float]:
    """(NashConv, exploitability) of exact evaluation fields (a training-metrics row)."""
    return fields["nash_conv"], fields["exploitability"]


def _batch_size(tree) -> int:
    """About a tenth of a second of work per batch, so progress moves smoothly."""
    return max(1, min(1000, 2_000_000 // max(tree.num_nodes, 1)))


def tabular_solver_specs() -> list[SolverSpec]:
    return [
        SolverSpec(
            name=name,
            run=run_tabular,
            description=f"tabular {name.upper()} over the explicit game tree (alternating updates)",
            supports=lambda spec: spec.tabular,
            store_format=POLICY_FORMAT,
            check_options=_check_options(name),
        )
        for name in TABULAR_ALGORITHMS
    ]
