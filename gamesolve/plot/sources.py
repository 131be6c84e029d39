"""Figures from what gamesolve writes: training metrics of stores, ``match --json`` files.

* :func:`exploitability_figure`: exploitability against training time and iterations, log
  scales, one curve per store (exact exploitability is recorded for games small enough).
* :func:`training_figure`: iterations, allocated infoset-actions and memory against time
  (for abstracted games such as hold'em, where exploitability cannot be computed).
* :func:`match_figure`: win rates with 95% confidence intervals (1.96 standard errors), one
  bar per agent and match file, AIVAT-corrected beside raw where the match measured it.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from gamesolve.plot.figures import Bar, BarPanel, Figure, LinePanel, Series
from gamesolve.store.metrics import read_metrics
from gamesolve.store.zarr_io import StoreError

Z95 = 1.959963984540054


class PlotError(ValueError):
    """Inputs that cannot be plotted; the message is fit to show a user."""


def load_series(paths: list[Path]) -> list[tuple[str, dict]]:
    """``(label, metrics)`` for each store; labels are the store names (with the algorithm)."""
    out = []
    for path in paths:
        try:
            series = read_metrics(path)
        except StoreError as exc:
            raise PlotError(str(exc)) from None
        attrs = series["attrs"]
        name = path.name if path.name != "blueprint" else path.parent.name
        label = f"{name} ({attrs.get('algo', '?')})" + (" [crashed run]" if attrs.get("partial") else "")
        out.append((label, series))
    return out


def has_exploitability(series: dict) -> bool:
    ex = series.get("exploitability")
    return ex is not None and bool(np.isfinite(ex).any())


def _finite(x, y) -> tuple[list[float], list[float]]:
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    keep = np.isfinite(x) & np.isfinite(y) & (y > 0) & (x > 0)
    return x[keep].tolist(), y[keep].tolist()


def exploitability_figure(stores: list[tuple[str, dict]], extra: list[tuple[str, dict]] = ()) -> Figure:
    """Exploitability vs training seconds and vs iterations (log-log). ``extra``: curves
    measured elsewhere (open-spiel's), as ``(label, {"iteration", "seconds", "exploitability"})``."""
    by_time, by_iteration = [], []
    games = set()
    for label, s in list(stores) + list(extra):
        if not has_exploitability(s):
            raise PlotError(f"{label}: no exact exploitability recorded (an abstracted game? try --kind training)")
        dashed = label.startswith("open-spiel")
        by_time.append(Series(label, *_finite(s["seconds"], s["exploitability"]), dashed=dashed))
        by_iteration.append(Series(label, *_finite(s["iteration"], s["exploitability"]), dashed=dashed))
        if "attrs" in s:
            games.add(s["attrs"].get("game", "?"))
    ylabel = "exploitability (NashConv / players)"
    return Figure(
        title=f"Exploitability of the average strategy ({', '.join(sorted(games))})",
        panels=[
            LinePanel("against training time", "seconds", ylabel, by_time, xlog=True, ylog=True),
            LinePanel("against iterations", "iterations", ylabel, by_iteration, xlog=True, ylog=True),
        ],
    )


def training_figure(stores: list[tuple[str, dict]]) -> Figure:
    """Iterations, allocated infoset-actions and memory against training minutes."""
    iterations, tables, memory, rate = [], [], [], []
    for label, s in stores:
        minutes = (np.asarray(s["seconds"], dtype=float) / 60.0).tolist()
        iterations.append(Series(label, minutes, np.asarray(s["iteration"], dtype=float).tolist()))
        tables.append(Series(label, minutes, np.asarray(s["infoset_actions"], dtype=float).tolist()))
        memory.append(Series(label, minutes, (np.asarray(s["memory_bytes"], dtype=float) / 2**30).tolist()))
        it, sec = np.asarray(s["iteration"], dtype=float), np.asarray(s["seconds"], dtype=float)
        if len(it) > 1:
            d_it, d_sec = np.diff(it), np.diff(sec)
            ok = d_sec > 0
            rate.append(Series(label, (sec[1:][ok] / 60).tolist(), (d_it[ok] / d_sec[ok]).tolist()))
    return Figure(
        title="Training",
        panels=[
            LinePanel("iterations", "training minutes", "iterations", iterations),
            LinePanel("speed", "training minutes", "iterations per second", rate),
            LinePanel("tables allocated", "training minutes", "infoset-actions", tables),
            LinePanel("memory", "training minutes", "resident memory (GiB)", memory),
        ],
    )


def read_match_json(path: Path) -> dict:
    """A ``gamesolve match --json`` result: the file's last non-empty line (or the whole file)."""
    try:
        text = path.read_text()
    except OSError as exc:
        raise PlotError(f"cannot read {path}: {exc.strerror}") from None
    lines = [line for line in text.splitlines() if line.strip()]
    for candidate in (lines[-1] if lines else "", text):
        try:
            data = json.loads(candidate)
        except json.JSONDecodeError:
            continue
        if isinstance(data, dict) and isinstance(data.get("agents"), list):
            return data
    raise PlotError(f"{path} is not the output of `gamesolve match --json`")


def match_figure(results: list[tuple[str, dict]]) -> Figure:
    """Win rates ± 95% intervals; with several files, one bar per file within each agent."""
    bars = []
    units = set()
    notes = []
    for label, data in results:
        units.add(data.get("unit", "units/game"))
        for agent in data["agents"]:
            value, se = float(agent["win_rate"]), float(agent["stderr"])
            suffix = f" {label}" if len(results) > 1 else ""
            bars.append(Bar(agent["name"], f"raw{suffix}", value, value - Z95 * se, value + Z95 * se))
            aivat = agent.get("aivat")
            if aivat:
                v, s = float(aivat["win_rate"]), float(aivat["stderr"])
                bars.append(Bar(agent["name"], f"AIVAT{suffix}", v, v - Z95 * s, v + Z95 * s))
        notes.append(f"{label}: {data.get('hands', '?'):,} hands, {data.get('game', '?')} ({data.get('players', '?')} players), seed {data.get('seed', '?')}")
    unit = ", ".join(sorted(units))
    return Figure("Match results (95% confidence intervals)", [BarPanel("win rate per agent", unit, bars)], notes)


def nice_label(path: Path) -> str:
    return path.stem if path.suffix else path.name

