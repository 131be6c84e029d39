"""Bet sizes as players write them: ``50%,100%,allin`` for every street, or per street as
``flop=33%,75% turn=50%,100%,allin river=75%,allin`` (a street not named takes the sizes
given without a street, else the default)."""

from __future__ import annotations

from gamesolve_nlth.spot.tree import ALLIN, STREETS, SpotError

DEFAULT_BETS = "50%,100%,allin"
DEFAULT_RAISES = "100%,allin"


def _size(text: str) -> float:
    t = text.strip().lower()
    if t in ("allin", "all-in", "a"):
        return ALLIN
    if t.endswith("%"):
        try:
            f = float(t[:-1]) / 100.0
        except ValueError:
            f = -1.0
        if f > 0.0:
            return f
    raise SpotError(f"not a bet size: {text!r} (a pot percentage like 75%, or allin)")


def _sizes(text: str) -> tuple[float, ...]:
    if not text.strip():
        return ()
    out = sorted({_size(t) for t in text.split(",") if t.strip()})
    return tuple(out)


def parse_sizes(text: str, default: str) -> dict[str, tuple[float, ...]]:
    """Street name -> sorted pot fractions (:data:`ALLIN` for the all-in). ``"none"`` or an
    empty list after ``street=`` gives a street no such action."""
    named: dict[str, tuple[float, ...]] = {}
    every: tuple[float, ...] | None = None
    for token in str(text).split():
        street, eq, sizes = token.partition("=")
        if not eq:
            if every is not None:
                raise SpotError(f"sizes given twice for every street: {text!r} (name streets as flop=33%,75%)")
            every = () if token.lower() == "none" else _sizes(token)
            continue
        street = street.lower()
        if street not in STREETS:
            raise SpotError(f"not a street: {street!r} (flop, turn or river)")
        if street in named:
            raise SpotError(f"sizes given twice for the {street}: {text!r}")
        named[street] = () if sizes.lower() == "none" else _sizes(sizes)
    if every is None and len(named) < len(STREETS):
        every = _sizes(default)
    return {s: named[s] if s in named else every for s in STREETS}
