"""Schedules of Algorithm 1, settable in iterations or in wall-clock time.

``"10m"`` is ten minutes, ``"30s"`` thirty seconds, ``"10000"`` or ``"10k"`` ten thousand
iterations, ``"off"`` never. The paper's schedules are in minutes of an 8-day run.
"""

from __future__ import annotations

import math
import re

import attrs

_UNITS = {"s": 1 / 60, "sec": 1 / 60, "m": 1.0, "min": 1.0, "h": 60.0}
_MULT = {"": 1, "k": 1_000, "M": 1_000_000}


@attrs.frozen
class Schedule:
    """Either ``iterations`` or ``minutes`` (the other is None); both None means never."""

    iterations: int | None = None
    minutes: float | None = None

    @classmethod
    def parse(cls, text: str | int | float | Schedule) -> Schedule:
        if isinstance(text, Schedule):
            return text
        if isinstance(text, (int, float)):
            return cls(iterations=int(text))
        raw = str(text).strip()
        if raw.lower() in ("off", "never", "none"):
            return cls()
        m = re.fullmatch(r"([0-9]*\.?[0-9]+(?:e[0-9]+)?)\s*(s|sec|m|min|h)", raw)
        if m:
            return cls(minutes=float(m.group(1)) * _UNITS[m.group(2)])
        m = re.fullmatch(r"([0-9]*\.?[0-9]+(?:e[0-9]+)?)\s*(k|M)?", raw)
        if m:
            value = float(m.group(1)) * _MULT[m.group(2) or ""]
            if value != int(value):
                raise ValueError(f"a schedule in iterations must be whole, got {text!r}")
            return cls(iterations=int(value))
        raise ValueError(f"not a schedule: {text!r} (use e.g. 10000, 10k, 30s, 10m, 2h or off)")

    @property
    def never(self) -> bool:
        return self.iterations is None and self.minutes is None

    def count(self, iteration: int, minutes: float) -> int:
        """How many whole intervals have passed at this point of the run."""
        if self.iterations:
            return iteration // self.iterations
        if self.minutes:
            return int(math.floor(minutes / self.minutes + 1e-12))
        return 0

    def passed(self, iteration: int, minutes: float) -> bool:
        """Whether this point of the run is past the schedule (used as a threshold)."""
        if self.iterations is not None:
            return iteration > self.iterations
        if self.minutes is not None:
            return minutes > self.minutes
        return False

    def next_iteration(self, iteration: int) -> int | None:
        """The next iteration (> ``iteration``) where an iteration schedule fires."""
        if not self.iterations:
            return None
        return (iteration // self.iterations + 1) * self.iterations

    def __str__(self) -> str:
        """The parseable form: ``"10000"`` (iterations), ``"10m"`` (minutes) or ``"off"``."""
        if self.iterations is not None:
            return str(self.iterations)
        if self.minutes is not None:
            if self.minutes < 1 and abs(self.minutes * 60 - round(self.minutes * 60)) < 1e-9:
                return f"{round(self.minutes * 60)}s"
            return f"{self.minutes:g}m"
        return "off"
