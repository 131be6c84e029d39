"""Crash-safe MCCFR checkpoints in a zarr store.

Layout (format ``gamesolve.mccfr/1``)::

    PATH/                      root group: format, game, params, algo, config, seed, code version
    PATH/manifest.json         digests of the root metadata (every unit below has its own)
    PATH/checkpoint-000007/    one complete generation: tables, RNG states, counters (sealed)
    PATH/checkpoint-000007/part-003/   ... of a run on Ray: each shard's tables, sealed by it
    PATH/LATEST                the newest complete generation and its manifest's SHA-256
    PATH/snapshots/snapshot-00003/   strategy snapshots, one sealed group each
    PATH/policy/               the final strategy as a policy store (explicit-tree games)
    PATH/blueprint/            the final strategy as a poker strategy store
    PATH/.lock                 held by the process writing the store

A generation is written under a hidden name, sealed (every file hashed into its manifest
and fsynced), renamed into place, and only then does ``LATEST`` (written to a temporary
file, fsynced, renamed, folder fsynced) point at it: a crash or a full disk at any instant
leaves the previous checkpoint current and intact. The two newest generations are kept.

When to checkpoint is :class:`CheckpointClock`'s decision: early (within a minute, or a
tenth of the run if sooner), then every interval (``--checkpoint``, default 10 minutes).
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import zarr
from zarr.storage import LocalStore

from gamesolve.errors import DiskFullError, StoreError
from gamesolve.provenance import code_attributes
from gamesolve.store import integrity
from gamesolve.store.zarr_io import _remove, atomic_group, open_group, write_array, writing

FORMAT = "gamesolve.mccfr/1"
LATEST = "LATEST"
KEEP = 2  # complete generations kept on disk
DEFAULT_INTERVAL_MINUTES = 10.0
FIRST_CHECKPOINT_SECONDS = 60.0


def _visible(path: Path) -> list[str]:
    return sorted(p.name for p in path.iterdir() if not integrity.is_hidden(p.name)) if path.is_dir() else []


def generations(path: str | os.PathLike) -> list[str]:
    """The visible (hence complete and sealed) checkpoint generations, oldest first."""
    return integrity.units(Path(path), LATEST)


def holds_results(path: str | os.PathLike) -> bool:
    """Whether the store holds anything a fresh run would lose: a checkpoint or a result.
    A store killed before its first checkpoint holds only its metadata, and a plain rerun
    reuses it."""
    path = Path(path)
    return bool(generations(path)) or any(n not in ("zarr.json", integrity.MANIFEST, "snapshots") for n in _visible(path))


def create_store(path: str | os.PathLike, meta: dict[str, Any], replace: bool = False) -> None:
    """Create the checkpoint store's metadata at ``path`` (a folder that may already hold the
    write lock). A store holding checkpoints is refused unless ``replace``; one killed before
    its first checkpoint is reused."""
    path = Path(path)
    if path.exists() and _visible(path):
        from gamesolve.store.outputs import store_format

        if store_format(path) != FORMAT:
            raise StoreError(f"{path} exists and is not an MCCFR checkpoint store; choose another --out")
        if holds_results(path) and not replace:
            raise StoreError(f"{path} already holds a run; use --resume to continue it, or --force to start over")
        for name in _visible(path):  # hidden entries (the lock) stay
            target = path / name
            if target.is_dir():
                _remove(target)
            else:
                target.unlink()
    path.mkdir(parents=True, exist_ok=True)
    with writing(path, "checkpoint store"):
        # mode "a" on a folder emptied above (but for its hidden lock, which "w" would delete)
        group = zarr.open_group(store=LocalStore(path), mode="a")
        group.attrs.update({"format": FORMAT, **code_attributes(), **meta})
        integrity.seal(path)


def read_meta(path: str | os.PathLike) -> dict[str, Any]:
    """The run's metadata, after checking the whole store against its manifests."""
    group = open_group(path, "checkpoint store")
    meta = dict(group.attrs)
    if meta.get("format") != FORMAT:
        raise StoreError(f"{path} is not a gamesolve MCCFR checkpoint store (format {meta.get('format')!r})")
    latest(path)  # LATEST is checked too, whoever reads the store
    return meta


def latest(path: str | os.PathLike) -> str | None:
    """The newest complete generation, or None before the first checkpoint;
    :class:`StoreDamagedError` if ``LATEST`` is damaged (see :func:`integrity.read_pointer`)."""
    return integrity.read_pointer(Path(path), LATEST)


def is_sharded(path: str | os.PathLike) -> bool:
    """Whether the newest checkpoint at ``path`` was written by a cluster's shards, in parts
    (:mod:`gamesolve.distribute.parts`): one process cannot read it, a run on Ray can."""
    return "parts" in open_group(Path(path) / latest(path), "checkpoint").attrs


def write_checkpoint(path: str | os.PathLike, arrays: dict[str, np.ndarray], attrs: dict[str, Any],
                     parts: Callable[[Path], None] | None = None) -> str:  # fmt: skip
    """Write a new complete generation, then point ``LATEST`` at it; returns its name.
    ``parts(folder)``, if given, has other writers (a cluster's shards) write sealed groups
    of their own into the generation's folder before it is sealed.

    :class:`DiskFullError` if the disk fills: the partial generation is removed and the
    previous checkpoint stays current."""
    path = Path(path)
    current = latest(path)
    newest = generations(path)
    number = max([int(n.split("-")[1]) for n in newest + ([current] if current else [])] + [0]) + 1
    name = f"checkpoint-{number:06d}"
    tmp = path / f".{LATEST}.tmp"
    try:
        with atomic_group(path / name, f"checkpoint {number} of") as group:
            for key, value in arrays.items():
                write_array(group, key, value)
            group.attrs.update(attrs)
            if parts is not None:
                parts(Path(group.store.root))
        with writing(path, "the checkpoint marker of"):
            integrity.write_pointer(path, name, LATEST)  # the commit point
    except BaseException as exc:
        _remove(path / name)  # never leave a sealed generation newer than LATEST after a failure
        tmp.unlink(missing_ok=True)
        if isinstance(exc, DiskFullError):
            raise DiskFullError(after_full_disk(str(exc), path, current)) from None
        raise
    for old in generations(path)[:-KEEP]:
        _remove(path / old)
    return name


def after_full_disk(message: str, path: str | os.PathLike, current: str | None = None) -> str:
    """A full-disk message completed with what the store still holds and what to do."""
    if "is intact" in message or "no checkpoint was written" in message:
        return message
    try:
        current = current or latest(path)
    except StoreError:
        current = None
    kept = f"the last checkpoint ({current}) is intact" if current else "no checkpoint was written yet"
    return f"{message}; {kept}: free some space, then continue with `gamesolve solve --out {path} --resume`"


def clean_incomplete(path: str | os.PathLike) -> None:
    """Remove what a crash left: hidden work folders, and generations newer than ``LATEST``."""
    path = Path(path)
    current = latest(path)
    for name in generations(path):
        if current is None or name > current:
            _remove(path / name)
    for entry in path.iterdir():
        if entry.is_dir() and integrity.is_hidden(entry.name):
            shutil.rmtree(entry, ignore_errors=True)


def read_checkpoint(path: str | os.PathLike) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """The arrays and attributes of the newest complete generation (every byte checked)."""
    path = Path(path)
    read_meta(path)
    name = latest(path)
    if name is None:
        raise StoreError(f"{path} has no complete checkpoint yet")
    group = open_group(path / name, "checkpoint")
    arrays = {key: group[key][...] for key in group.array_keys()}
    return arrays, dict(group.attrs)


def checkpoint_attrs(path: str | os.PathLike) -> dict[str, Any] | None:
    """The attributes of the newest complete generation (its counters: how far the run got),
    without reading its arrays; None before the first checkpoint."""
    name = latest(path)
    return None if name is None else dict(open_group(Path(path) / name, "checkpoint").attrs)


class SnapshotSink:
    """Snapshots of the current strategy as uint16 zarr arrays, one sealed group per
    snapshot under ``PATH/snapshots``."""

    def __init__(self, path: str | os.PathLike):
        self.path = Path(path) / "snapshots"

    def write(self, number: int, values: np.ndarray) -> None:
        # A snapshot left by a run that crashed before its next checkpoint is replaced.
        with atomic_group(self.path / f"snapshot-{number:05d}", "a strategy snapshot in") as group:
            write_array(group, "values", values)

    def add_to(self, number: int, total: np.ndarray, chunk: int = 1 << 22) -> None:
        """Add snapshot ``number`` (probabilities x 65535) to ``total``, a chunk at a time."""
        array = open_group(self.path / f"snapshot-{number:05d}", "strategy snapshot")["values"]
        n = min(array.shape[0], total.shape[0])
        for start in range(0, n, chunk):
            stop = min(n, start + chunk)
            total[start:stop] += np.asarray(array[start:stop], dtype=np.float32)


class CheckpointClock:
    """When a run checkpoints: first within a minute of training, or within a tenth of the
    run if that is sooner (so a short run is never lost whole), then every ``interval_minutes``
    (None: only at the end). Asked after every batch of iterations."""

    def __init__(self, interval_minutes: float | None, run_minutes: float | None = None,
                 run_iterations: int | None = None, start_iteration: int = 0, now: float | None = None):  # fmt: skip
        self.interval = None if interval_minutes is None else interval_minutes * 60.0
        self.started = time.perf_counter() if now is None else now
        self.last: float | None = None
        first = FIRST_CHECKPOINT_SECONDS
        if run_minutes is not None:
            first = min(first, run_minutes * 6.0)  # a tenth of the run, in seconds
        if self.interval is not None:
            first = min(first, self.interval)
        self.first_seconds = first
        self.first_iteration = None if run_iterations is None else start_iteration + max(1, run_iterations // 10)

    def due(self, iteration: int, now: float | None = None) -> bool:
        if self.interval is None:
            return False
        now = time.perf_counter() if now is None else now
        if self.last is None:
            return now - self.started >= self.first_seconds or (
                self.first_iteration is not None and iteration >= self.first_iteration
            )
        return now - self.last >= self.interval

    def done(self, now: float | None = None) -> None:
        self.last = time.perf_counter() if now is None else now
