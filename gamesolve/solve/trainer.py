"""The trainer interface of a run that trains elsewhere than in this process (a Ray cluster):
what the MCCFR solver (:mod:`gamesolve.solve.mccfr_solver`) hands such a trainer's factory
and what it calls on the trainer it gets back.

The solver layer does not import the distribution package (:mod:`gamesolve.distribute`,
above it: docs/architecture.md). The ``solve`` command, which may import every layer, puts
the factory in :attr:`~gamesolve.solve.spec.SolveRequest.remote` with ``--ray``
(:func:`gamesolve.distribute.ray_trainer.ray_trainer`), as it puts the exact evaluators in
``evaluate``; the solver calls ``request.remote(RemoteRun(...))``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

import attrs
import numpy as np

from gamesolve.solve.mccfr import MCCFRConfig, MCCFRTrainer
from gamesolve.solve.scheduled_run import Counters


@attrs.frozen
class RemoteRun:
    """What a remote trainer needs of a run: the form the head trains on, the config and seed,
    what each worker needs to rebuild the game in its own process (name, parameters as text,
    preset, local plugin folders), the cluster's shape, the store, and where notes go."""

    form: Any  # the game's FactoredGame, as the head compiled it
    config: MCCFRConfig
    seed: int
    game: str
    params: dict[str, str]
    preset: str | None
    plugins_dirs: tuple[str, ...]
    address: str  # a Ray cluster's address, or "local"
    workers: int
    threads: int = 1  # per worker
    cache_rows: int = 0  # > 0: each worker holds at most this many rows instead of a replica
    out: Path | None = None
    resume: bool = False  # continue from the newest checkpoint at ``out``
    note: Callable[[str], None] = lambda message: None


class RemoteTrainer(Protocol):
    """What the MCCFR solver calls on a remote trainer (besides what it calls on any
    trainer: ``counters``, ``run``, ``allocated`` and ``explicit_policy``)."""

    counters: Counters

    def run(self, iterations: int | None = None, minutes: float | None = None,
            on_batch: Callable[[int, float], None] | None = None) -> None: ...  # fmt: skip

    def allocated(self) -> np.ndarray: ...

    def explicit_policy(self, explicit_tree, which: str = "average") -> np.ndarray: ...

    def checkpoint(self, out: Path) -> None:
        """A checkpoint generation in ``out`` (the run continues)."""

    def cluster_report(self) -> dict[str, Any]:
        """The summary's figures of the cluster (``ray_*`` keys)."""

    def gather(self) -> MCCFRTrainer:
        """After :meth:`run`: the whole tables in one process's trainer (the final strategy)."""

    def close(self) -> None:
        """Let the cluster's workers go."""


RemoteTrainerFactory = Callable[[RemoteRun], RemoteTrainer]
