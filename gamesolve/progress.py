"""Progress display for long work: a rich progress bar on stderr."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress as RichProgress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from gamesolve.solve.spec import Progress


class NullProgress(Progress):
    """Reports nothing (library use and tests)."""


class BarProgress(Progress):
    """A rich progress bar on stderr with a rate column; ``fields`` show beside it."""

    def __init__(self, console: Console | None = None, quiet: bool = False):
        self.console = console or Console(stderr=True)
        self.quiet = quiet
        self._bar: RichProgress | None = None
        self._task = None
        self._unit = "it"

    def __enter__(self) -> BarProgress:
        return self

    def __exit__(self, *exc) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None

    def start(self, total: float | None, unit: str, description: str) -> None:
        if self.quiet:
            return
        if self._bar is not None:
            self._bar.stop()
        self._unit = unit
        self._bar = RichProgress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn() if unit != "s" else TextColumn("{task.percentage:>3.0f}%"),
            TextColumn("{task.fields[rate]}"),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            TextColumn("{task.fields[extra]}"),
            console=self.console,
            transient=False,
        )
        self._bar.start()
        self._task = self._bar.add_task(description, total=total, rate="", extra="")

    def advance(self, amount: float, **fields: Any) -> None:
        if self._bar is None:
            return
        task = self._bar.tasks[0]
        rate = fields.pop("rate", None)
        if rate is None and task.speed:
            rate = task.speed
        shown = {"rate": f"{rate:,.0f} {self._unit}/s" if rate else ""}
        if fields:
            shown["extra"] = " ".join(f"{k}={v}" for k, v in fields.items())
        self._bar.update(self._task, advance=amount, **shown)

    def note(self, message: str) -> None:
        if not self.quiet:
            self.console.print(f"[dim]{message}[/dim]")
