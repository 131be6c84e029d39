"""Option values written as text (``-o KEY=VALUE`` of solvers, agents and searches), read
without click: library code parses its own options here, below the command line
(:mod:`gamesolve.cli_params` holds the command line's click types)."""

from __future__ import annotations

from typing import Any


def parse_boolean(raw: Any, what: str) -> bool:
    """A ``KEY=VALUE`` option's boolean: ``1``/``true``/``yes``/``on`` or ``0``/``false``/``no``/``off``
    (any case; a bool passes through); :class:`ValueError` naming ``what`` otherwise."""
    if isinstance(raw, bool):
        return raw
    text = str(raw).lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"{what} expects true or false, got {raw!r}")
