"""gamesolve: solve and play imperfect-information games with the CFR family."""

from __future__ import annotations

import os as _os
from importlib.metadata import PackageNotFoundError, version as _version

try:
    __version__ = _version("gamesolve")
except PackageNotFoundError:  # running from a source tree without installation
    __version__ = "0.0.0+source"

# numba's on-disk cache does not notice edits to other modules a kernel calls, so the cache
# folder is keyed by the version and the kernels' sources (gamesolve/cache_paths.py,
# CONVENTIONS.md); earlier builds' folders unused for two weeks are deleted, and `gamesolve
# cache clear` empties it.
if "NUMBA_CACHE_DIR" not in _os.environ:
    from gamesolve.cache_paths import kernel_cache_dir as _kernel_cache_dir, mark_and_prune as _mark_and_prune

    _kernels = _kernel_cache_dir(__version__)
    _os.environ["NUMBA_CACHE_DIR"] = str(_kernels)
    _mark_and_prune(_kernels)

from gamesolve.hookspecs import hookimpl  # noqa: E402

__all__ = ["hookimpl", "__version__"]
