"""Where card abstractions live on disk.

``<root>/abstraction/<hash>/`` with ``<root>`` = the ``cache_dir`` argument, else
``$GAMESOLVE_CACHE_DIR``, else ``~/.cache/gamesolve`` (``$XDG_CACHE_HOME/gamesolve`` if set).
``<hash>`` is :meth:`CardAbstractionParams.key`. A folder is a zarr group written atomically
(``atomic_group``) whose attribute ``complete`` is set, so a folder that exists is complete.
"""

from __future__ import annotations

import os
from pathlib import Path

from gamesolve.cache_paths import cache_root

from .presets import CardAbstractionParams

STORE_KIND = "gamesolve-nlth-card-abstraction"
STORE_FORMAT = 1


def abstraction_path(params: CardAbstractionParams, cache_dir: str | os.PathLike | None = None) -> Path:
    """The folder that holds (or will hold) the tables for ``params``."""
    return cache_root(cache_dir) / "abstraction" / params.key()
