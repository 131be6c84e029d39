"""gamesolve: solve and play imperfect-information games with the CFR family."""

from __future__ import annotations

import os as _os
from importlib.metadata import PackageNotFoundError, version as _version

try:
    __version__ = _version("gamesolve")
except PackageNotFoundError:  # running from a source tree without installation
    __version__ = "0.0.0+source"

# numba's on-disk cache does not notice edits to other modules a kernel calls, so the
# cache folder is keyed by version (see CONVENTIONS.md); `gamesolve cache clear` empties it.
if "NUMBA_CACHE_DIR" not in _os.environ:
    _os.environ["NUMBA_CACHE_DIR"] = _os.path.join(
        _os.environ.get("XDG_CACHE_HOME", _os.path.expanduser("~/.cache")), "gamesolve", "numba", __version__
    )

from gamesolve.hookspecs import hookimpl  # noqa: E402

__all__ = ["hookimpl", "__version__"]
