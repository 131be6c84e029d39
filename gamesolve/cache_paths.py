"""Where gamesolve keeps what it can rebuild: ``$GAMESOLVE_CACHE_DIR``, else
``$XDG_CACHE_HOME/gamesolve``, else ``~/.cache/gamesolve`` (compiled forms of large games,
plugins' tables such as NLTH card abstractions; ``gamesolve cache clear`` empties it)."""

from __future__ import annotations

import os
from pathlib import Path


def cache_root(cache_dir: str | os.PathLike | None = None) -> Path:
    """The root cache folder: ``cache_dir`` if given, else as the module docstring says."""
    if cache_dir is not None:
        return Path(cache_dir).expanduser()
    env = os.environ.get("GAMESOLVE_CACHE_DIR")
    if env:
        return Path(env).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "gamesolve"
