"""Crash-safe MCCFR checkpoints in a zarr store.

Layout (format ``gamesolve.mccfr/1``)::

    PATH/                      root group: format, game, params, config, seed, code version
    PATH/checkpoint-000007/    one complete generation: tables, RNG states, counters
    PATH/LATEST                the name of the newest complete generation
    PATH/policy/               the final strategy as a policy store (explicit-tree games)

A generation is written in full before ``LATEST`` is replaced (an atomic rename), so a
crash at any instant leaves the previous checkpoint loadable; incomplete generations are
removed when the store is next opened for writing.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import zarr

from gamesolve import __version__
from gamesolve.store.zarr_io import StoreError, open_group, write_array

FORMAT = "gamesolve.mccfr/1"
LATEST = "LATEST"
KEEP = 2  # complete generations kept on disk


def create_store(path: str | os.PathLike, meta: dict[str, Any]) -> None:
    """Create an empty checkpoint store with its metadata; refuse to clobber another store."""
    path = Path(path)
    if path.exists() and any(path.iterdir()):
        raise StoreError(f"{path} already exists; use --resume to continue it, or choose another --out")
    group = zarr.open_group(str(path), mode="w")
    group.attrs.update({"format": FORMAT, "code_version": __version__, **meta})


def read_meta(path: str | os.PathLike) -> dict[str, Any]:
    group = open_group(path, "checkpoint store")
    meta = dict(group.attrs)
    if meta.get("format") != FORMAT:
        raise StoreError(f"{path} is not a gamesolve MCCFR checkpoint store (format {meta.get('format')!r})")
    return meta


def _generations(path: Path) -> list[str]:
    return sorted(p.name for p in path.iterdir() if p.is_dir() and p.name.startswith("checkpoint-"))


def latest(path: str | os.PathLike) -> str | None:
    marker = Path(path) / LATEST
    return marker.read_text().strip() if marker.exists() else None


def write_checkpoint(path: str | os.PathLike, arrays: dict[str, np.ndarray], attrs: dict[str, Any]) -> str:
    """Write a new complete generation, then point ``LATEST`` at it; returns its name."""
    path = Path(path)
    current = latest(path)
    number = int(current.split("-")[1]) + 1 if current else 1
    name = f"checkpoint-{number:06d}"
    target = path / name
    if target.exists():  # left over from a crash during a previous write
        shutil.rmtree(target)
    group = zarr.open_group(str(target), mode="w")
    for key, value in arrays.items():
        write_array(group, key, value)
    group.attrs.update(attrs)
    tmp = path / f".{LATEST}.tmp"
    with open(tmp, "w") as fh:
        fh.write(name)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path / LATEST)  # the commit point
    for old in _generations(path):
        if old < name and old not in _generations(path)[-KEEP:]:
            shutil.rmtree(path / old, ignore_errors=True)
    return name


def clean_incomplete(path: str | os.PathLike) -> None:
    """Remove generations newer than ``LATEST`` (a crash interrupted their writing)."""
    path = Path(path)
    current = latest(path)
    for name in _generations(path):
        if current is None or name > current:
            shutil.rmtree(path / name, ignore_errors=True)


def read_checkpoint(path: str | os.PathLike) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """The arrays and attributes of the newest complete generation."""
    path = Path(path)
    read_meta(path)
    name = latest(path)
    if name is None:
        raise StoreError(f"{path} has no complete checkpoint yet")
    group = zarr.open_group(str(path / name), mode="r")
    arrays = {key: group[key][...] for key in group.array_keys()}
    return arrays, dict(group.attrs)


class SnapshotSink:
    """Snapshots of the current strategy as uint16 zarr arrays under ``PATH/snapshots``."""

    def __init__(self, path: str | os.PathLike):
        self.path = Path(path) / "snapshots"

    def write(self, number: int, values: np.ndarray) -> None:
        group = zarr.open_group(str(self.path), mode="a")
        name = f"snapshot-{number:05d}"
        if name in set(group.array_keys()):
            del group[name]  # left by a run that crashed before its next checkpoint
        write_array(group, name, values)

    def add_to(self, number: int, total: np.ndarray, chunk: int = 1 << 22) -> None:
        """Add snapshot ``number`` (probabilities x 65535) to ``total``, a chunk at a time."""
        array = zarr.open_group(str(self.path), mode="r")[f"snapshot-{number:05d}"]
        n = min(array.shape[0], total.shape[0])
        for start in range(0, n, chunk):
            stop = min(n, start + chunk)
            total[start:stop] += np.asarray(array[start:stop], dtype=np.float32)
