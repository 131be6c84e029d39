"""open-spiel game names and parameters: checked and typed in Python before open-spiel sees
them, so that a bad name or value is one line (open-spiel's own errors are C++ aborts turned
into exceptions, printed on stderr as they are raised)."""

from __future__ import annotations

import contextlib
import difflib
import os
import sys
import tempfile
from typing import Any

from gamesolve.errors import UserError
from gamesolve.game.names import parse_game_text
from gamesolve.game.spec import ParameterError
from gamesolve.registry import RegistryError

INSTALL_HINT = "pip install 'gamesolve[openspiel]'"


def import_pyspiel():
    """The ``pyspiel`` module, or a :class:`UserError` saying how to install it."""
    try:
        import pyspiel
    except ImportError:
        raise UserError(f"open-spiel games need open-spiel, which is not installed: {INSTALL_HINT}") from None
    return pyspiel


def game_type(short_name: str):
    """open-spiel's ``GameType`` of ``short_name``; a :class:`RegistryError` suggesting close
    names if open-spiel has no such game."""
    pyspiel = import_pyspiel()
    types = {t.short_name: t for t in pyspiel.registered_games()}
    if short_name in types:
        return types[short_name]
    close = difflib.get_close_matches(short_name, list(types), n=3)
    hint = f"; did you mean {', '.join(close)}?" if close else f" ({len(types)} games: pyspiel.registered_games())"
    raise RegistryError(f"open-spiel has no game {short_name!r}{hint}")


def canonical(value: Any) -> str:
    """A parameter value as gamesolve stores it: ``true``/``false`` for booleans, nested games
    as ``name(key=value,...)``, anything else as ``str``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        inner = ",".join(f"{k}={canonical(v)}" for k, v in sorted(value.items()) if k != "name")
        return f"{value.get('name', '')}({inner})"
    return str(value)


def typed_params(short_name: str, raw: dict[str, str]) -> dict[str, Any]:
    """``raw`` string values typed as ``short_name``'s parameter specification says (int,
    float, bool, str, or a nested game ``name(key=value,...)``); a :class:`ParameterError`
    naming the first unknown key or bad value."""
    spec = game_type(short_name).parameter_specification
    out: dict[str, Any] = {}
    for key, text in raw.items():
        if key not in spec:
            known = ", ".join(sorted(spec)) or "none"
            raise ParameterError(f"open-spiel {short_name} has no parameter {key!r} (parameters: {known})")
        out[key] = _typed_value(short_name, key, str(text).strip(), spec[key])
    return out


def _typed_value(short_name: str, key: str, text: str, default: Any) -> Any:
    def bad(kind: str) -> ParameterError:
        return ParameterError(f"open-spiel {short_name} parameter {key!r} expects {kind}, got {text!r}")

    if isinstance(default, bool):
        if text.lower() not in ("true", "false"):
            raise bad("true or false")
        return text.lower() == "true"
    if isinstance(default, int):
        try:
            return int(text)
        except ValueError:
            raise bad("an integer") from None
    if isinstance(default, float):
        try:
            return float(text)
        except ValueError:
            raise bad("a number") from None
    if isinstance(default, dict):  # a nested game: name(key=value,...)
        try:
            name, params = parse_game_text(text)
        except UserError:
            raise bad("a game, name(key=value,...)") from None
        return {"name": name, **typed_params(name, params)}
    return text


def load_game(short_name: str, params: dict[str, Any]):
    """``pyspiel.load_game(short_name, params)``, with open-spiel's complaint (if any) as one
    :class:`ParameterError` line instead of a C++ message on stderr."""
    pyspiel = import_pyspiel()
    with _captured_stderr() as captured:
        try:
            return pyspiel.load_game(short_name, params)
        except pyspiel.SpielError as exc:
            message = " ".join(str(exc).split()) or " ".join(captured().split())
    # open-spiel's checks read "path/file.cc:123 condition | values": keep what follows the location
    message = message.split(".cc:", 1)[-1].split(" ", 1)[-1] if ".cc:" in message else message
    raise ParameterError(f"open-spiel {short_name}: {message}")


@contextlib.contextmanager
def _captured_stderr():
    """Send file descriptor 2 (where open-spiel's C++ code reports errors) to a temporary
    file for the duration; yields a function returning what was written."""
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile(mode="w+b") as sink:
        os.dup2(sink.fileno(), 2)
        try:
            yield lambda: (sink.seek(0), sink.read().decode("utf-8", "replace"))[1]
        finally:
            os.dup2(saved, 2)
            os.close(saved)
