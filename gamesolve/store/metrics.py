"""Training metrics: a time series in a solve's store, appended while it runs, readable after a crash.

Layout (format ``gamesolve.metrics/1``): a zarr group ``metrics`` inside the store, one 1-D
array per column, pre-allocated (untouched chunks cost nothing) and a ``rows`` attribute
that counts the valid entries::

    metrics/   attrs: format, columns, rows, runs, game, algo
        iteration        int64    iterations done (over every run of a resumed solve)
        seconds          float64  training seconds (over every run; evaluation time excluded)
        run              int32    0 for the first run, 1 after the first --resume, ...
        infosets         int64    information sets with tables (allocated, for MCCFR)
        infoset_actions  int64    table entries (allocated, for MCCFR)
        memory_bytes     int64    resident memory of the solving process
        nash_conv        float64  exact NashConv where measured, else NaN
        exploitability   float64  NashConv / players where measured, else NaN

Appending writes the new entries first (zarr writes each chunk file atomically: a temporary
file renamed into place) and then the ``rows`` attribute: a crash at any moment leaves the
rows counted so far intact, and rows written but not yet counted are simply not read.

Where the series lives: an MCCFR run keeps it in its checkpoint store from the start
(``PATH/metrics``). A tabular solve has no store until it finishes (the policy is written
atomically at the end), so its rows go to ``.NAME.metrics-partial`` beside ``PATH`` while it
runs and into ``PATH/metrics`` when the policy is written; :func:`read_metrics` falls back to
the partial series of a run that crashed. Never pickle: plain arrays and JSON attributes.
"""

from __future__ import annotations

import math
import os
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import zarr

from gamesolve.store.zarr_io import StoreError, open_group

FORMAT = "gamesolve.metrics/1"
GROUP = "metrics"
COLUMNS: dict[str, str] = {
    "iteration": "int64",
    "seconds": "float64",
    "run": "int32",
    "infosets": "int64",
    "infoset_actions": "int64",
    "memory_bytes": "int64",
    "nash_conv": "float64",
    "exploitability": "float64",
}
CAPACITY = 1 << 16  # rows pre-allocated (grown by doubling); a row is about 60 bytes
CHUNK = 4096


def _fill(dtype: str):
    return np.nan if dtype.startswith("float") else 0


def partial_path(store: str | os.PathLike) -> Path:
    """Where a tabular solve writing to ``store`` keeps its series until it finishes."""
    store = Path(store)
    return store.with_name(f".{store.name}.metrics-partial")


class MetricsStore:
    """The ``metrics`` group of a store, opened for appending (created if missing)."""

    def __init__(self, root: str | os.PathLike, attrs: dict[str, Any] | None = None,
                 resume_iteration: int | None = None):
        root = Path(root)
        root.mkdir(parents=True, exist_ok=True)
        parent = zarr.open_group(str(root), mode="a")
        if GROUP in set(parent.group_keys()):
            self.group = parent[GROUP]
            if self.group.attrs.get("format") != FORMAT:
                raise StoreError(f"{root}/{GROUP} is not a gamesolve metrics group")
            self.group.attrs["runs"] = int(self.group.attrs.get("runs", 1)) + 1
            if resume_iteration is not None:  # rows after the checkpoint resumed from are void
                rows = int(self.group.attrs["rows"])
                kept = int(np.searchsorted(self.group["iteration"][:rows], resume_iteration, side="right"))
                self.group.attrs["rows"] = kept
        else:
            self.group = parent.create_group(GROUP)
            for name, dtype in COLUMNS.items():
                self.group.create_array(name, shape=(CAPACITY,), chunks=(CHUNK,), dtype=dtype, fill_value=_fill(dtype))
            self.group.attrs.update({"format": FORMAT, "columns": list(COLUMNS), "rows": 0, "runs": 1, **(attrs or {})})
        self.rows = int(self.group.attrs["rows"])

    @property
    def run(self) -> int:
        return int(self.group.attrs["runs"]) - 1

    def append(self, rows: list[dict[str, float]]) -> None:
        """Write ``rows`` (dicts of column values; missing columns get NaN / 0), then count them."""
        if not rows:
            return
        start, stop = self.rows, self.rows + len(rows)
        for name, dtype in COLUMNS.items():
            array = self.group[name]
            if stop > array.shape[0]:
                array.resize((max(stop, 2 * array.shape[0]),))
            default = self.run if name == "run" else _fill(dtype)
            values = np.array([row.get(name, default) for row in rows], dtype=dtype)
            array[start:stop] = values
        self.rows = stop
        self.group.attrs["rows"] = stop  # the commit point of this append


def read_metrics(path: str | os.PathLike) -> dict[str, np.ndarray]:
    """The series of a store (a solve's ``--out``: checkpoint store, policy store, or the
    blueprint folder inside a checkpoint store), or of a crashed tabular run's partial file.

    Returns ``{column: values}`` plus ``"attrs"`` (a dict). :class:`StoreError` if there is none.
    """
    path = Path(path)
    for root in (path, path.parent, partial_path(path)):
        group = _metrics_group(root)
        if group is not None:
            rows = int(group.attrs.get("rows", 0))
            out: dict[str, Any] = {name: np.asarray(group[name][:rows]) for name in group.attrs["columns"] if name in group}
            out["attrs"] = dict(group.attrs)
            out["attrs"]["partial"] = root == partial_path(path)
            return out
    if not path.exists():
        raise StoreError(f"no store at {path}")
    raise StoreError(f"{path} has no training metrics (solves record them since gamesolve 0.1; was it written by `gamesolve solve --out`?)")


def _metrics_group(root: Path):
    if not (root / GROUP / "zarr.json").exists():
        return None
    group = open_group(root, "store")
    if GROUP not in group:
        return None
    sub = group[GROUP]
    return sub if sub.attrs.get("format") == FORMAT else None


def copy_metrics(source: str | os.PathLike, target_group) -> None:
    """Copy the series of ``source`` (a store holding a ``metrics`` group) into the open zarr
    group ``target_group`` (e.g. a policy store being written)."""
    src = _metrics_group(Path(source))
    if src is None:
        return
    rows = int(src.attrs["rows"])
    dst = target_group.create_group(GROUP)
    for name in src.attrs["columns"]:
        dtype = COLUMNS[name]
        array = dst.create_array(name, shape=(max(rows, 1),), chunks=(CHUNK,), dtype=dtype, fill_value=_fill(dtype))
        if rows:
            array[:rows] = src[name][:rows]
    dst.attrs.update({**dict(src.attrs), "rows": rows})


def clear_partial(store: str | os.PathLike) -> None:
    """Forget the partial series of an earlier run to ``store`` that never finished."""
    shutil.rmtree(partial_path(store), ignore_errors=True)


def move_partial_into(store: str | os.PathLike) -> None:
    """Copy a finished tabular solve's partial series into its store, then delete the partial
    one (a crash in between leaves both readable)."""
    partial = partial_path(store)
    if _metrics_group(partial) is None:
        return
    target = zarr.open_group(str(store), mode="a")
    if GROUP in set(target.group_keys()):
        del target[GROUP]
    copy_metrics(partial, target)
    shutil.rmtree(partial, ignore_errors=True)


class MetricsRecorder:
    """Decides when a solve records a row, measures what it can, and appends to a store.

    :param store: the store root (None: keep rows in memory only).
    :param resume_iteration: the iteration of the checkpoint a resumed run starts from: rows
        recorded after it (by the run that crashed) are dropped, so the series stays monotone.
    :param exact: a callable returning ``(nash_conv, exploitability)`` of the current average
        strategy, for games solved exactly; evaluated at logarithmically spaced iterations
        while its cost stays under ``exact_budget`` of the training time so far, and always
        at the final row.
    :param gap_seconds: a row at least this often (training seconds).
    :param per_decade: rows per tenfold increase in iterations.
    :param flush_seconds: append buffered rows to the store at least this often (wall time);
        :meth:`flush` also writes them (call it at checkpoints and at the end).
    """

    def __init__(self, store: str | os.PathLike | None = None, *, attrs: dict[str, Any] | None = None,
                 resume_iteration: int | None = None, exact: Callable[[], tuple[float, float]] | None = None, exact_budget: float = 0.25,
                 gap_seconds: float = 10.0, per_decade: int = 10, flush_seconds: float = 30.0):
        self.store = MetricsStore(store, attrs, resume_iteration) if store is not None else None
        self.exact = exact
        self.exact_budget = float(exact_budget)
        self.gap_seconds = float(gap_seconds)
        self.ratio = 10.0 ** (1.0 / per_decade)
        self.flush_seconds = float(flush_seconds)
        self.rows: list[dict[str, float]] = []  # every row of this run
        self._pending: list[dict[str, float]] = []
        self._last: dict[str, float] | None = None
        self._last_exact_iteration = 0
        self._exact_cost = 0.0
        self._last_flush = time.monotonic()
        try:
            import psutil

            self._process = psutil.Process()
        except ImportError:  # pragma: no cover - psutil is a dependency
            self._process = None

    def due(self, iteration: int, seconds: float) -> bool:
        """Whether a row should be recorded now (the first, then log-spaced or every gap)."""
        last = self._last
        if last is None:
            return True
        return iteration >= last["iteration"] * self.ratio or seconds - last["seconds"] >= self.gap_seconds

    def next_iteration(self, iteration: int) -> int:
        """The next iteration at which a row is due by the logarithmic rule (for solvers that
        can stop there, so curves start with small iteration counts)."""
        if self._last is None:
            return max(1, iteration)
        return max(iteration + 1, math.ceil(self._last["iteration"] * self.ratio))

    def record(self, iteration: int, seconds: float, *, final: bool = False, **values: float) -> dict[str, float]:
        """Record a row now (``values``: infosets, infoset_actions, ...); it replaces the last
        row if that was recorded at the same iteration."""
        if self._last is not None and self._last["iteration"] == int(iteration):
            self._drop_last()
        row: dict[str, float] = {"iteration": int(iteration), "seconds": float(seconds), **values}
        row["run"] = self.store.run if self.store is not None else 0
        if self._process is not None and "memory_bytes" not in row:
            row["memory_bytes"] = int(self._process.memory_info().rss)
        if self.exact is not None and (final or self._exact_due(iteration, seconds)):
            started = time.perf_counter()
            nash_conv, exploitability = self.exact()
            self._exact_cost += time.perf_counter() - started
            self._last_exact_iteration = iteration
            row["nash_conv"], row["exploitability"] = float(nash_conv), float(exploitability)
        self.rows.append(row)
        self._pending.append(row)
        self._last = row
        if time.monotonic() - self._last_flush >= self.flush_seconds:
            self.flush()
        return row

    def _drop_last(self) -> None:
        self.rows.pop()
        if self._pending:
            self._pending.pop()
        elif self.store is not None:
            self.store.rows -= 1  # the next append overwrites it
        self._last = self.rows[-1] if self.rows else None

    def _exact_due(self, iteration: int, seconds: float) -> bool:
        if self._last_exact_iteration and iteration < self._last_exact_iteration * self.ratio:
            return False
        # A second of evaluation is free (short solves of small games get a full curve);
        # beyond it, evaluation may take at most ``exact_budget`` of the training time.
        return self._exact_cost <= 1.0 + self.exact_budget * seconds

    def flush(self) -> None:
        if self.store is not None and self._pending:
            self.store.append(self._pending)
        self._pending = []
        self._last_flush = time.monotonic()
