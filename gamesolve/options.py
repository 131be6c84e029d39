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


def typed_options(options: dict[str, Any], known: dict[str, Any], what: str = "search option",
                  known_names: str | None = None) -> dict[str, Any]:  # fmt: skip
    """``{key: text}`` options converted by ``known`` (key -> a function of the text);
    :class:`ValueError` naming an unknown key (listing ``known_names``, by default ``known``'s
    keys) or a value its function refuses."""
    values = {}
    for key, raw in options.items():
        if key not in known:
            raise ValueError(f"unknown {what} {key!r} (known: {known_names or ', '.join(known)})")
        try:
            values[key] = known[key](str(raw))
        except ValueError as exc:
            # A converter of ours says what the value should be (``depth must be ...``); a
            # builtin's message (``invalid literal for int()``) says nothing more than this one.
            said = str(exc)
            raise ValueError(f"search option {key}={raw!r} is not valid" + (f": {said}" if said.startswith(key) else "")) from None
    return values
