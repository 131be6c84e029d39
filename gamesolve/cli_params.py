"""Typed, validated command-line values: click parameter types and KEY=VALUE options.

Every option of the ``gamesolve`` command is parsed here into a number, a probability or a
``{key: value}`` dict before any work starts; a bad value is one line naming the option, with
exit status 2 (click's usage errors), never a traceback later in the run.
"""

from __future__ import annotations

import math
from typing import Any

import click

from gamesolve.errors import InputError

SEED_MAX = 2**32 - 1


class Positive(click.ParamType):
    """A positive int (``kind=int``) or a positive finite number (``kind=float``)."""

    def __init__(self, kind: type = int, maximum: float | None = None):
        self.kind = kind
        self.maximum = maximum
        self.name = "integer" if kind is int else "number"

    def get_metavar(self, param, ctx=None) -> str:  # click 8.1 and 8.2 signatures
        return "INTEGER" if self.kind is int else "NUMBER"

    def fail(self, message: str, param=None, ctx=None):
        """``--hands must be positive, got 0``: the option's name, then what is wrong."""
        name = max(param.opts, key=len) if param is not None and getattr(param, "opts", None) else "value"
        raise click.UsageError(f"{name} {message}", ctx)

    def convert(self, value: Any, param, ctx) -> int | float:
        if isinstance(value, self.kind) and not isinstance(value, bool):
            number = value
        else:
            text = str(value).strip().replace("_", "")
            try:
                number = self.kind(text)
            except (TypeError, ValueError, OverflowError):
                self.fail(f"must be a positive number{' (an integer)' if self.kind is int else ''}, got {value!r}", param, ctx)
        if isinstance(number, float) and not math.isfinite(number):
            self.fail(f"must be a finite number, got {value!r}", param, ctx)
        if not number > 0:
            self.fail(f"must be positive, got {value}", param, ctx)
        if self.maximum is not None and number > self.maximum:
            self.fail(f"must be at most {self.maximum:,g}, got {value}", param, ctx)
        return number


POSITIVE_INT = Positive(int)
POSITIVE_FLOAT = Positive(float)
SEED = click.IntRange(0, SEED_MAX)


def key_values(pairs: tuple[str, ...] | list[str], flag: str) -> dict[str, str]:
    """``KEY=VALUE`` strings to a dict (keys with ``-`` spelt ``_``); a malformed pair or a
    key given twice is an :class:`InputError`."""
    params: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = str(pair).partition("=")
        key = key.strip().replace("-", "_")
        if not sep or not key:
            raise InputError(f"{flag} expects KEY=VALUE, got {pair!r}")
        if key in params:
            raise InputError(f"{flag} {key} is given twice ({key}={params[key]} and {key}={value.strip()})")
        params[key] = value.strip()
    return params


def merge_players(players: int | None, params: dict[str, str], flag: str = "--param") -> tuple[int | None, dict[str, str]]:
    """``--players N`` and ``-p players=N`` name one thing: accept either, or both if equal."""
    params = dict(params)
    if "players" not in params:
        return players, params
    raw = params.pop("players")
    try:
        value = int(raw)
    except ValueError:
        raise InputError(f"{flag} players expects a whole number, got {raw!r}") from None
    if players is not None and players != value:
        raise InputError(f"--players {players} and {flag} players={raw} disagree; give one")
    return value, params
