"""Training metrics: a time series in a solve's store, appended while it runs, readable after a crash.

Layout (format ``gamesolve.metrics/2``): the series is cut into *parts*, sealed zarr groups
``metrics-NNNNNN`` at the root of the store, one per flush (every half minute, at each
checkpoint and at the end), each written whole under a hidden name and renamed into place
like every unit of a store (docs/stores.md), so a crash at any moment leaves every visible
part complete and checked. A part holds one 1-D array per column::

    metrics-000003/   attrs: format, columns, rows, run, resume_iteration?, game, algo
        iteration        int64    iterations done (over every run of a resumed solve)
        seconds          float64  training seconds (over every run; evaluation time excluded)
        run              int32    0 for the first run, 1 after the first --resume, ...
        infosets         int64    information sets with tables (allocated, for MCCFR)
        infoset_actions  int64    table entries (allocated, for MCCFR)
        memory_bytes     int64    resident memory of the solving process
        nash_conv        float64  exact NashConv where measured, else NaN
        exploitability   float64  NashConv / players where measured, else NaN

Reading concatenates the parts in order. The first part of a resumed run carries the
iteration of the checkpoint it resumed from: rows after it (recorded by the run that
crashed) are dropped; a row recorded again at the same iteration replaces the earlier one.

Where the series lives: an MCCFR run keeps it in its checkpoint store from the start. A
tabular solve has no store until it finishes (the policy is written atomically at the end),
so its parts go to ``.NAME.metrics-partial`` beside ``PATH`` while it runs and move into the
store when the policy is written; :func:`read_metrics` falls back to the partial series of a
run that crashed. Never pickle: plain arrays and JSON attributes.
"""

from __future__ import annotations

import math
import os
import re
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from gamesolve.store.zarr_io import StoreError, atomic_group, open_group, write_array

FORMAT = "gamesolve.metrics/2"
PART = re.compile(r"metrics-(\d{6})")
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


def _fill(dtype: str):
    return np.nan if dtype.startswith("float") else 0


def partial_path(store: str | os.PathLike) -> Path:
    """Where a tabular solve writing to ``store`` keeps its series until it finishes."""
    store = Path(store)
    return store.with_name(f".{store.name}.metrics-partial")


def parts(root: str | os.PathLike) -> list[Path]:
    """The metrics parts of a store, in order."""
    root = Path(root)
    try:
        return sorted(p for p in root.iterdir() if PART.fullmatch(p.name) and p.is_dir())
    except OSError:
        return []


class MetricsStore:
    """The series of a store, opened for appending (a new run of it)."""

    def __init__(self, root: str | os.PathLike, attrs: dict[str, Any] | None = None,
                 resume_iteration: int | None = None):  # fmt: skip
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        existing = parts(self.root)
        self.next = int(PART.fullmatch(existing[-1].name).group(1)) + 1 if existing else 0
        runs = {int(open_group(p, "training metrics").attrs.get("run", 0)) for p in existing}
        self.run = max(runs) + 1 if runs else 0
        self.attrs = dict(attrs or {})
        self._resume = resume_iteration if existing else None

    def append(self, rows: list[dict[str, float]]) -> None:
        """Write ``rows`` (dicts of column values; missing columns get NaN / 0) as a new part."""
        if not rows:
            return
        with atomic_group(self.root / f"metrics-{self.next:06d}", "training metrics in") as group:
            for name, dtype in COLUMNS.items():
                default = self.run if name == "run" else _fill(dtype)
                write_array(group, name, np.array([row.get(name, default) for row in rows], dtype=dtype))
            extra = {} if self._resume is None else {"resume_iteration": int(self._resume)}
            group.attrs.update({"format": FORMAT, "columns": list(COLUMNS), "rows": len(rows), "run": self.run, **self.attrs, **extra})
        self.next += 1
        self._resume = None


def read_metrics(path: str | os.PathLike) -> dict[str, np.ndarray]:
    """The series of a store (a solve's ``--out``: checkpoint store, policy store, or the
    blueprint folder inside a checkpoint store), or of a crashed tabular run's partial file.

    Returns ``{column: values}`` plus ``"attrs"`` (a dict). :class:`StoreError` if there is none.
    """
    path = Path(path)
    for root in (path, path.parent, partial_path(path)):
        found = parts(root)
        if found:
            return _concatenate(found, partial=root == partial_path(path))
    if not path.exists():
        raise StoreError(f"no store at {path}")
    raise StoreError(f"{path} has no training metrics (was it written by `gamesolve solve --out`?)")


def _concatenate(found: list[Path], partial: bool) -> dict[str, Any]:
    columns: dict[str, list] = {name: [] for name in COLUMNS}
    attrs: dict[str, Any] = {}
    for part in found:
        group = open_group(part, "training metrics")
        attrs = dict(group.attrs)
        if attrs.get("format") != FORMAT:
            raise StoreError(f"{part} is not a gamesolve metrics part")
        resume = attrs.get("resume_iteration")
        if resume is not None:  # rows the crashed run recorded after its checkpoint are void
            keep = [i for i, it in enumerate(columns["iteration"]) if it <= resume]
            columns = {name: [values[i] for i in keep] for name, values in columns.items()}
        for name in COLUMNS:
            for value in np.asarray(group[name][...]).tolist():
                columns[name].append(value)
    # A row recorded again at the same iteration (the final row) replaces the earlier one.
    last = {it: i for i, it in enumerate(columns["iteration"])}
    keep = sorted(last.values())
    out: dict[str, Any] = {name: np.array([values[i] for i in keep], dtype=COLUMNS[name]) for name, values in columns.items()}
    out["attrs"] = {**attrs, "rows": len(keep), "runs": int(max(out["run"], default=0)) + 1, "partial": partial}
    out["attrs"].pop("resume_iteration", None)
    return out


def clear_partial(store: str | os.PathLike) -> None:
    """Forget the partial series of an earlier run to ``store`` that never finished."""
    shutil.rmtree(partial_path(store), ignore_errors=True)


def move_partial_into(store: str | os.PathLike) -> None:
    """Move a finished tabular solve's sealed parts into its store (each a rename: a crash in
    between leaves every part readable in one place or the other), then drop the partial folder."""
    partial = partial_path(store)
    for part in parts(partial):
        os.replace(part, Path(store) / part.name)
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
        # (a row already written stays; reading keeps the later row of an iteration)
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
