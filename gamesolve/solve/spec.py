"""What a solver plugin registers, and what the ``solve`` command hands it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs

from gamesolve.game.spec import GameSpec
from gamesolve.game.state import Game


@attrs.frozen
class SolveRequest:
    """Everything ``gamesolve solve`` was asked, validated.

    ``iterations`` or ``minutes`` bounds the run (a solver may require one of them).
    """

    game_spec: GameSpec
    game: Game
    algo: str
    iterations: int | None = None
    minutes: float | None = None
    seed: int = 0
    out: Path | None = None
    threads: int = 1
    auto_threads: bool = False  # --threads not given: a sampling solver may take the form's default_threads
    resume: bool = False
    options: dict[str, Any] = attrs.field(factory=dict)  # as the solver's check_options returned them
    preset: str | None = None  # an abstraction preset, for games that need one
    pm: Any = None  # the plugin manager, for compile hooks
    # Exact evaluation, supplied by the command layer (which owns evaluation):
    # ``evaluate(explicit_tree)`` gives ``f(slot_policy) -> {"nash_conv", "exploitability",
    # "game_value", "values"}``. None: solvers report no exact figures.
    evaluate: Callable[[Any], Callable[[Any], dict[str, Any]]] | None = None
    # ... and over a factored form too big for an explicit tree: ``evaluate_form(form, game)``
    # gives ``f(node_offset, rows) -> the same keys``, or None where it cannot evaluate the form.
    evaluate_form: Callable[[Any, Any], Callable[[Any, Any], dict[str, Any]] | None] | None = None
    force: bool = False  # replace a store of the same kind at ``out`` (checked by the CLI)
    checkpoint_minutes: float | None = None  # interval between checkpoints; None: the solver's default
    ray: str | None = None  # train on a Ray cluster: its address, or "local" (docs/distributed.md)
    workers: int = 1  # Ray workers (with ``ray``)
    cache_rows: int = 0  # with ``ray``: > 0, each worker caches at most this many rows instead of a replica of the tables
    plugins_dirs: tuple[str, ...] = ()  # local plugin folders, for workers to load too
    # With ``ray``, the factory of the trainer that runs on the cluster, supplied by the command
    # layer (which may import the distribution package; the solvers may not): see
    # gamesolve/solve/trainer.py. ``remote(RemoteRun) -> RemoteTrainer``.
    remote: Callable[[Any], Any] | None = None


class Progress:
    """What a solver reports progress to; the CLI shows it as a bar."""

    def start(self, total: float | None, unit: str, description: str) -> None:  # pragma: no cover - interface
        pass

    def advance(self, amount: float, **fields: Any) -> None:  # pragma: no cover - interface
        pass

    def note(self, message: str) -> None:  # pragma: no cover - interface
        pass


@attrs.frozen
class SolverSpec:
    """A registered solver.

    ``run(request, progress)`` returns a JSON-serialisable result dict with at least
    ``game``, ``players``, ``algo``, ``iterations``, ``seconds`` and, where it can be
    computed exactly, ``nash_conv``, ``exploitability`` and ``game_value``; plus
    ``store`` if one was written. ``supports(game_spec)`` says whether it can solve a game.

    ``store_format`` is the ``format`` attribute of the stores it writes with ``--out`` (the
    command replaces only a store of that kind, and only with ``--force``); ``resumable``
    says whether ``--resume`` continues such a store; ``check_options(options)`` validates
    ``-o KEY=VALUE`` options once, before any work starts, and returns them parsed: the
    command hands the run what it returned (``SolveRequest.options``), and the run does not
    check them again (a check that returns None leaves them as given). A bad value raises :class:`~gamesolve.errors.OptionError` with the
    option's name (the command shows the flag), an unknown key a
    :class:`~gamesolve.errors.UserError` listing the known ones.
    """

    name: str
    run: Callable[[SolveRequest, Progress], dict[str, Any]]
    description: str = ""
    supports: Callable[[GameSpec], bool] = lambda spec: True
    store_format: str | None = None
    resumable: bool = False
    check_options: Callable[[dict[str, str]], dict[str, Any] | None] | None = None
