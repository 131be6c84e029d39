"""Where numba keeps a gamesolve kernel's cache files: by module, not by file path.

numba files a cached kernel in a folder named after the absolute path of its source's
directory (``UserProvidedCacheLocator``), so a second clone, a moved checkout or a git
worktree compiled every kernel again, into folders of its own beside the first one's (a
cache holding three copies of each was seen on a developer's machine). The cache folder is
already keyed by the digest of every kernel source (:func:`gamesolve.cache_paths.kernel_cache_dir`),
so the path adds nothing: here a kernel of gamesolve or of a gamesolve plugin (a module named
``gamesolve*``) is filed under its module's package (``gamesolve.solve``,
``gamesolve_nlth.abstraction``). numba's own check stays: each index records its source's
stamp (a hash of the file's text in recent numba, its time and size in older ones) and a kernel
whose stamp differs is compiled again, never loaded stale. Other packages' kernels are filed
as numba files them.

:func:`install` runs from :func:`gamesolve.compile_lock.install`, before a process's first
compilation; kernels decorated before it (every kernel module imported so far) are moved by
:func:`relocate` when they first compile, before numba looks in their cache.
"""

from __future__ import annotations

import os

from numba.core import caching, config

# numba renamed these (0.60: ``_CacheImpl``, ``_UserProvidedCacheLocator``); a numba without
# either files kernels as it always did.
_IMPL = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl", None)
_BASE = getattr(caching, "UserProvidedCacheLocator", None) or getattr(caching, "_UserProvidedCacheLocator", None)


def _folder(py_func, py_file: str) -> str | None:
    """The cache subfolder of a gamesolve kernel (its module's package), or None for others."""
    module = getattr(py_func, "__module__", None) or ""
    if not module.startswith("gamesolve"):
        return None
    return module if os.path.basename(py_file) == "__init__.py" else module.rpartition(".")[0] or module


class ModuleCacheLocator(_BASE or object):
    """numba's locator for ``NUMBA_CACHE_DIR``, with the folder named after the module's
    package instead of the hash of its directory's absolute path."""

    def __init__(self, py_func, py_file):
        super().__init__(py_func, py_file)
        self._cache_path = os.path.join(config.CACHE_DIR, _folder(py_func, py_file))

    @classmethod
    def from_function(cls, py_func, py_file):
        if _folder(py_func, py_file) is None:
            return None
        return super().from_function(py_func, py_file)


def install() -> None:
    """Put :class:`ModuleCacheLocator` first in numba's list of locators (once)."""
    if _IMPL is None or _BASE is None:
        return
    if ModuleCacheLocator not in _IMPL._locator_classes:
        _IMPL._locator_classes.insert(0, ModuleCacheLocator)


def relocate(dispatcher) -> None:
    """Give a gamesolve kernel decorated before :func:`install` its cache in the new place."""
    impl = getattr(getattr(dispatcher, "_cache", None), "_impl", None)
    if _BASE is None or impl is None or isinstance(impl.locator, ModuleCacheLocator):
        return  # not cached (NullCache), or already filed by module
    if config.CACHE_DIR and _folder(dispatcher.py_func, impl.locator._py_file) is not None:
        dispatcher.enable_caching()
        try:  # numba made the folder by path when the kernel was decorated; it stays empty
            os.rmdir(impl.locator.get_cache_path())
        except OSError:
            pass  # not empty (kernels cached there before this module) or already gone
