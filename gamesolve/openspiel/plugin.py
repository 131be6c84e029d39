"""Resolves ``openspiel:NAME`` game names (a core plugin, in ``DEFAULT_PLUGINS``); open-spiel
is imported only when such a name is asked for."""

from __future__ import annotations

from gamesolve.hookspecs import hookimpl
from gamesolve.openspiel import PREFIX


@hookimpl
def gamesolve_resolve_game(name):
    if not name.startswith(PREFIX):
        return None
    from gamesolve.openspiel.game import openspiel_spec

    return openspiel_spec(name[len(PREFIX):])

