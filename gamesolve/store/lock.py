"""One writer per store: an exclusive ``flock`` on ``PATH/.lock``.

The lock belongs to the open file, so the kernel releases it when the process ends, however
it ends (``kill -9`` included): a crashed run never leaves a stale lock behind. The file
holds the writer's process id, for the message the second writer gets. Readers take no
lock: a checkpoint store is always readable (generations become visible complete), and a
store replaced by :func:`gamesolve.store.zarr_io.atomic_group` is swapped in by a rename.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from gamesolve.errors import StoreError, StoreLockedError

LOCK = ".lock"


class StoreLock:
    """Hold the write lock of the store folder ``path`` (which must exist) while in a ``with``.

    ``lock_file``: lock this file instead of ``PATH/.lock`` (for a store that is replaced as
    a whole, such as a cache entry: its lock must outlive the folder)."""

    def __init__(self, path: str | os.PathLike, lock_file: str | os.PathLike | None = None):
        self.path = Path(path)
        self.lock_file = Path(lock_file) if lock_file is not None else self.path / LOCK
        self._fd: int | None = None
        self.created = False  # whether the writer created the folder (see outputs.release_store)

    def acquire(self, wait: bool = False) -> StoreLock:
        """Take the lock; :class:`StoreLockedError` if another process holds it (with
        ``wait``, block until it is released instead)."""
        try:
            fd = os.open(self.lock_file, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise StoreError(f"cannot write to {self.path}: {exc.strerror}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode(errors="replace").strip()
            os.close(fd)
            who = f" (process {holder})" if holder.isdigit() else ""
            raise StoreLockedError(
                f"{self.path} is being written by another gamesolve process{who}; wait for it to finish, or choose another --out"
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self._fd = fd
        return self

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the file releases the lock
            self._fd = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def __enter__(self) -> StoreLock:
        return self.acquire() if self._fd is None else self

    def __exit__(self, *exc) -> None:
        self.release()
