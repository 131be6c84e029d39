"""One compilation of a kernel at a time across the processes that share a numba cache.

numba compiles a kernel in every process that needs it before one of them has saved it to
the on-disk cache: the two workers of a test run, a test's command-line subprocess beside
them, the processes of ``gamesolve match --workers 2`` on a fresh install each paid the same
seconds for the same kernel (issue 36: 60-120 processor seconds of a cold test run). Here a
process about to compile a cached kernel first takes an exclusive lock named after the
kernel, in the cache folder; a second process that wants the same kernel meanwhile waits on
the lock, then finds the kernel in the cache and loads it (numba looks in the cache before it
compiles) instead of compiling it again.

The lock is taken inside numba's own compiler lock (one compilation at a time in a process),
so two threads of a process never hold file locks in a different order; compiling a kernel
compiles the kernels it calls, and kernels call one another without cycles, so two processes
never wait on each other. A kernel a process is already compiling (a recursive one, or a
second signature met while typing) is not locked again. A lock not granted within
``WAIT_SECONDS`` is given up on: the process compiles as it would without it. POSIX only
(``fcntl``); elsewhere, and when numba has no cache folder, nothing changes. Only the
kernels of gamesolve and of its plugins (modules named ``gamesolve*``) are locked.

numba calls :func:`install` before its first compilation in a process, through the
``numba_extensions`` entry point (pyproject.toml): a process that never compiles never
imports numba for it.
"""

from __future__ import annotations

import hashlib
import os
import time

#: How long a process waits for another's compilation of the same kernel before compiling it too.
WAIT_SECONDS = 600.0

_installed = False
_held: dict[str, int] = {}  # lock path -> depth, in this process (under numba's compiler lock)


def _lock_path(dispatcher, folder: str) -> str:
    func = dispatcher.py_func
    name = f"{func.__module__}.{func.__qualname__}"
    return os.path.join(folder, ".compile-locks", hashlib.sha1(name.encode()).hexdigest()[:20] + ".lock")


def _ours(dispatcher) -> bool:
    """Whether a kernel is gamesolve's or a gamesolve plugin's (others compile as numba does)."""
    return getattr(dispatcher.py_func, "__module__", "").startswith("gamesolve")


def _acquire(path: str, fcntl) -> int | None:
    """An open descriptor holding ``path`` locked, or None (no lock: could not open or timed out)."""
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:
        return None
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return fd
        except BlockingIOError:
            if time.monotonic() > deadline:
                os.close(fd)
                return None
            time.sleep(0.05)
        except OSError:
            os.close(fd)
            return None


def install() -> None:
    """Wrap numba's ``Dispatcher.compile`` (once per process); see the module docstring."""
    global _installed
    if _installed:
        return
    _installed = True
    try:
        import fcntl

        from numba.core import config, dispatcher, sigutils
        from numba.core.caching import NullCache
        from numba.core.compiler_lock import global_compiler_lock
    except ImportError:  # no fcntl (Windows) or no numba: compile as numba does
        return

    from gamesolve import kernel_locator

    kernel_locator.install()
    original = dispatcher.Dispatcher.compile

    def compile(self, sig):
        folder = config.CACHE_DIR
        if not folder or isinstance(getattr(self, "_cache", None), NullCache) or not _ours(self):
            return original(self, sig)
        kernel_locator.relocate(self)  # filed by module, not by path (before numba reads its cache)
        args, _ = sigutils.normalize_signature(sig)
        if tuple(args) in self.overloads:
            return original(self, sig)
        with global_compiler_lock:
            path = _lock_path(self, folder)
            if path in _held:
                _held[path] += 1
                try:
                    return original(self, sig)
                finally:
                    _held[path] -= 1
            fd = _acquire(path, fcntl)
            _held[path] = 1
            try:
                return original(self, sig)
            finally:
                del _held[path]
                if fd is not None:
                    os.close(fd)  # closing the descriptor releases the lock

    compile.__wrapped__ = original
    dispatcher.Dispatcher.compile = compile
