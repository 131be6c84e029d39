"""Progress display for long work: a rich progress bar on stderr."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Column
from rich.progress import BarColumn, MofNCompleteColumn, Progress as RichProgress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from gamesolve.solve.spec import Progress


BAR_WIDTH = 16


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
        # Short description, a narrow bar, then the numbers that matter (done, rate, time
        # elapsed and left) before the extra fields, which are what an 80-column terminal cuts.
        # (advance() also trims the extra fields to the terminal's width.)
        self._bar = RichProgress(
            TextColumn("{task.description}"),
            BarColumn(bar_width=BAR_WIDTH),
            MofNCompleteColumn() if unit != "s" else TextColumn("{task.percentage:>3.0f}%"),
            TextColumn("{task.fields[rate]}"),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            TextColumn("{task.fields[extra]}", table_column=Column(no_wrap=True)),
            console=self.console,
            transient=False,
        )
        self._bar.start()
        self._task = self._bar.add_task(description, total=total, rate="", extra="")

    def advance(self, amount: float, **fields: Any) -> None:
        if self._bar is None:
            return
        task = self._bar.tasks[0]
        rate = fields.pop("rate", None)  # a number (in units/s) or a ready text, e.g. "1,234 it/s"
        if rate is None and task.speed:
            rate = task.speed
        shown = {"rate": rate if isinstance(rate, str) else (f"{rate:,.0f} {self._unit}/s" if rate else "")}
        if fields:
            shown["extra"] = self._fit(" ".join(f"{k}={v}" for k, v in fields.items()), task, shown["rate"])
        self._bar.update(self._task, advance=amount, **shown)

    def _fit(self, extra: str, task, rate: str) -> str:
        """The extra fields, cut to what the terminal has left after the columns that matter."""
        total = task.total or 0
        count = 4 if self._unit == "s" else 2 * len(f"{int(total):d}") + 1
        used = len(task.description) + BAR_WIDTH + count + len(rate) + 2 * 7 + 7  # times, separators
        room = self.console.width - used - 1
        if room <= 3:
            return ""
        return extra if len(extra) <= room else extra[: room - 1] + "…"

    def note(self, message: str) -> None:
        if not self.quiet:
            self.console.print(f"[dim]{message}[/dim]")
