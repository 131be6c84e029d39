"""Checkpoints of a run on a Ray cluster: each shard writes its part of a generation
(``part-NNN``, a sealed group of its own) and the head seals the generation; a worker reads
every part back (or the one part of a checkpoint written by one process)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import attrs
import numpy as np

from gamesolve.solve.scheduled_run import Counters

PART = "part-{:03d}"


def read_parts(path: str | os.PathLike):
    """The parts ``(arrays, part, parts)`` of the newest checkpoint at ``path``: those its
    shards wrote, or the single part of a one-process checkpoint (with the sum of its
    snapshots, which one process keeps on disk), one at a time."""
    from gamesolve.store import checkpoint as ckpt
    from gamesolve.store.zarr_io import open_group

    name = ckpt.latest(path)
    group = open_group(Path(path) / name, "checkpoint")
    meta = dict(group.attrs)
    if "parts" in meta:
        for i in range(int(meta["parts"])):
            g = group[PART.format(i)]
            yield {key: g[key][...] for key in g.array_keys()}, i, int(meta["parts"])
        return
    arrays = {key: group[key][...] for key in ("regrets", "node_offset", "phi", "avg", "snap_sum") if key in group}
    snapshots = int(meta["counters"].get("snapshots", 0))
    if snapshots and "snap_sum" not in arrays:
        sink = ckpt.SnapshotSink(path)
        total = np.zeros(int(meta["used"]), dtype=np.float32)
        for k in range(snapshots):
            sink.add_to(k, total)
        arrays["snap_sum"] = total
    yield arrays, 0, 1


def checkpoint_counters(path: str | os.PathLike) -> tuple[Counters, dict[str, Any]]:
    """The counters and attributes of the newest checkpoint at ``path``."""
    from gamesolve.store import checkpoint as ckpt
    from gamesolve.store.zarr_io import open_group

    meta = dict(open_group(Path(path) / ckpt.latest(path), "checkpoint").attrs)
    names = {f.name for f in attrs.fields(Counters)}
    return Counters(**{k: v for k, v in meta["counters"].items() if k in names}), meta
