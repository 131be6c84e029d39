"""Schedules of Algorithm 1, settable in iterations or in wall-clock time, and the one clock
that says when each fires.

``"10min"`` is ten minutes, ``"30s"`` thirty seconds, ``"2h"`` two hours; ``"10000"``,
``"10k"`` or ``"2M"`` are iterations; ``"off"`` never. A bare ``m`` is refused: it reads as
minutes to some and millions to others. The paper's schedules are in minutes of an 8-day run.
"""

from __future__ import annotations

import math
import re

import attrs

_UNITS = {"s": 1 / 60, "sec": 1 / 60, "min": 1.0, "h": 60.0}
_MULT = {"": 1, "k": 1_000, "M": 1_000_000}
_NUMBER = r"([0-9]*\.?[0-9]+(?:e[0-9]+)?)"


@attrs.frozen
class Schedule:
    """Either ``iterations`` or ``minutes`` (the other is None); both None means never."""

    iterations: int | None = None
    minutes: float | None = None

    @classmethod
    def parse(cls, text: str | int | float | Schedule, *, legacy: bool = False) -> Schedule:
        """Parse a schedule; ``legacy`` also reads ``"10m"`` as minutes. Kept: checkpoint stores
        written before ``m`` was refused hold it in their config (``--resume`` and the readers
        of a store pass it), and ``--checkpoint`` is always a time, where ``m`` means minutes."""
        if isinstance(text, Schedule):
            return text
        if isinstance(text, (int, float)):
            if text != int(text) or text < 0:
                raise ValueError(f"a schedule in iterations must be a whole number, got {text!r}")
            return cls(iterations=int(text))
        raw = str(text).strip()
        if raw.lower() in ("off", "never", "none"):
            return cls()
        if legacy and re.fullmatch(_NUMBER + r"\s*m", raw):
            raw = raw[:-1] + "min"
        m = re.fullmatch(_NUMBER + r"\s*(s|sec|min|h)", raw)
        if m:
            minutes = float(m.group(1)) * _UNITS[m.group(2)]
            if minutes <= 0:
                raise ValueError(f"a schedule must be positive, got {text!r}")
            return cls(minutes=minutes)
        if re.fullmatch(_NUMBER + r"\s*m", raw):
            raise ValueError(f"{text!r} is ambiguous: write {raw[:-1]}min for minutes or {raw[:-1]}M for millions of iterations")
        m = re.fullmatch(_NUMBER + r"\s*(k|M)?", raw)
        if m:
            value = float(m.group(1)) * _MULT[m.group(2) or ""]
            if value != int(value):
                raise ValueError(f"a schedule in iterations must be whole, got {text!r}")
            if value <= 0:
                raise ValueError(f"a schedule must be positive, got {text!r}")
            return cls(iterations=int(value))
        raise ValueError(f"not a schedule: {text!r} (use e.g. 10000, 10k, 2M, 30s, 10min, 2h or off)")

    @property
    def never(self) -> bool:
        return self.iterations is None and self.minutes is None

    def position(self, iteration: int, minutes: float) -> float:
        """Where the run is, in this schedule's unit."""
        return float(iteration) if self.iterations is not None else minutes

    @property
    def length(self) -> float:
        """The schedule's amount in its own unit (infinite for ``off``)."""
        if self.iterations is not None:
            return float(self.iterations)
        return self.minutes if self.minutes is not None else math.inf

    def count(self, iteration: int, minutes: float) -> int:
        """How many whole intervals have passed at this point of the run."""
        if self.never:
            return 0
        return int(math.floor(self.position(iteration, minutes) / self.length + 1e-12))

    def passed(self, iteration: int, minutes: float) -> bool:
        """Whether this point of the run is strictly past the schedule (a threshold)."""
        return not self.never and self.position(iteration, minutes) > self.length

    def next_iteration(self, iteration: int) -> int | None:
        """The next iteration (> ``iteration``) where an iteration schedule fires."""
        if not self.iterations:
            return None
        return (iteration // self.iterations + 1) * self.iterations

    def __str__(self) -> str:
        """The parseable form: ``"10000"`` (iterations), ``"10min"`` / ``"30s"`` or ``"off"``."""
        if self.iterations is not None:
            return str(self.iterations)
        if self.minutes is not None:
            if self.minutes < 1 and abs(self.minutes * 60 - round(self.minutes * 60)) < 1e-9:
                return f"{round(self.minutes * 60)}s"
            return f"{self.minutes:g}min"
        return "off"


@attrs.frozen
class Clock:
    """When Algorithm 1's schedules fire (supplement, Algorithm 1 and "Blueprint computation").

    * Linear CFR discounts at ``t = k * discount_interval`` while ``t < lcfr_threshold``, with
      factor ``k / (k + 1)`` (the paper's 10 and 400 minutes give 39 discounts);
    * pruning in iterations ``t > prune_threshold``;
    * snapshots at ``snapshot_start``, then every ``snapshot_interval``;
    * UPDATE-STRATEGY every ``strategy_interval``.

    The driver asks after each batch of iterations; schedules in iterations fall exactly on
    batch ends (:meth:`next_stop`), schedules in time at the first batch end after the time.
    """

    discount_interval: Schedule
    lcfr_threshold: Schedule
    prune_threshold: Schedule
    strategy_interval: Schedule
    snapshot_interval: Schedule
    snapshot_start: Schedule

    def discount_due(self, k: int, iteration: int, minutes: float) -> bool | None:
        """Whether discount number ``k`` (1-based) is due now: True, False (not yet), or None
        (never: it would fall at or after the LCFR threshold). The two schedules share a unit
        (:class:`~gamesolve.solve.mccfr.MCCFRConfig` checks)."""
        interval = self.discount_interval
        if interval.never:
            return None
        at = k * interval.length
        if at >= self.lcfr_threshold.length:
            return None
        return interval.position(iteration, minutes) >= at - 1e-12

    def prune_active(self, first_iteration: int, minutes: float) -> bool:
        """Whether iteration ``first_iteration`` (1-based; at ``minutes`` of training) prunes."""
        t = self.prune_threshold
        return not t.never and t.position(first_iteration, minutes) > t.length

    def snapshot_due(self, k: int, iteration: int, minutes: float) -> bool:
        """Whether snapshot number ``k`` (0-based) is due: at ``snapshot_start + k * interval``
        (one unit for both, checked by the config)."""
        start, interval = self.snapshot_start, self.snapshot_interval
        if start.never or (k > 0 and interval.never):
            return False
        at = start.length + (k * interval.length if k else 0.0)
        return start.position(iteration, minutes) >= at - 1e-12

    def strategy_updates_due(self, iteration: int, minutes: float) -> int:
        """UPDATE-STRATEGY passes due so far (time-based intervals; iteration-based ones run
        inside the kernel)."""
        return self.strategy_interval.count(iteration, minutes)

    def next_stop(self, iteration: int, discounts: int, snapshots: int) -> int | None:
        """The next iteration (> ``iteration``) where a schedule in iterations fires, if any."""
        stops = []
        if self.discount_interval.iterations:
            k = discounts + 1
            at = k * self.discount_interval.iterations
            if self.lcfr_threshold.iterations is None or at < self.lcfr_threshold.iterations:
                stops.append(max(at, iteration + 1))
        if self.prune_threshold.iterations is not None and iteration < self.prune_threshold.iterations:
            stops.append(self.prune_threshold.iterations)
        if self.snapshot_start.iterations is not None:
            if snapshots == 0:
                at = self.snapshot_start.iterations
            elif self.snapshot_interval.iterations:
                at = self.snapshot_start.iterations + snapshots * self.snapshot_interval.iterations
            else:
                at = None
            if at is not None:
                stops.append(max(at, iteration + 1))
        return min(stops) if stops else None
