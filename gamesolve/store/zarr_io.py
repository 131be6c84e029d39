"""Writing and reading zarr stores safely: every write sealed, every read verified.

* :func:`atomic_group` writes a group into a hidden temporary sibling folder, seals it (a
  manifest of SHA-256 digests, every file fsynced: :mod:`gamesolve.store.integrity`) and
  renames it into place, so a crash never leaves a half-written store where a complete one
  was expected, and a later read can tell any damage.
* :func:`open_group` checks a store against its manifests before anything reads it, and
  reads it through :class:`~gamesolve.store.integrity.VerifiedStore`, which checks each
  file as zarr reads it.
* A full disk (or a file-size limit) while writing is a :class:`DiskFullError` with one
  readable line, and the partial write is removed.
* ``GAMESOLVE_TEST_SLOW_WRITES=SECONDS`` (a test hook) makes every file of such a write
  wait that long in zarr's I/O thread, so that a test can land a signal inside a write.

Writers do nothing special: any array written with :func:`write_array` into a group from
:func:`atomic_group` (or a checkpoint generation) is covered, and any store opened with
:func:`open_group` is checked.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import json
import os
import shutil
import warnings
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import zarr
from zarr.storage import LocalStore

from gamesolve.errors import DiskFullError, StoreDamagedError, StoreError, is_no_space
from gamesolve.store import integrity

__all__ = [
    "ChunkedReader", "DiskFullError", "QuietGroup", "StoreDamagedError", "StoreError", "atomic_folder",
    "atomic_group", "open_group", "write_array", "writing",
]  # fmt: skip


class QuietGroup:
    """A read-only zarr group whose listings ignore files zarr does not recognise (zarr warns
    about any, such as a checkpoint store's ``LATEST``), and whose reads are verified."""

    def __init__(self, group: zarr.Group):
        self._group = group

    def __getattr__(self, name):
        return getattr(self._group, name)

    def __getitem__(self, key):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                item = self._group[key]
        except KeyError:
            raise StoreError(f"{self.store_path_text()} has no {key!r}") from None
        return QuietGroup(item) if isinstance(item, zarr.Group) else item

    def store_path_text(self) -> str:
        store = self._group.store
        root = getattr(getattr(store, "index", None), "root", None) or getattr(store, "root", "store")
        return str(Path(str(root)) / self._group.path) if self._group.path else str(root)

    def __contains__(self, key) -> bool:
        return key in set(self.group_keys()) | set(self.array_keys())

    def _quiet(self, method):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return list(method())

    def group_keys(self):
        return self._quiet(self._group.group_keys)

    def array_keys(self):
        return self._quiet(self._group.array_keys)


@contextlib.contextmanager
def writing(path: str | os.PathLike, what: str = "store") -> Iterator[None]:
    """Turn running out of space while writing ``path`` into a one-line :class:`DiskFullError`."""
    try:
        yield
    except BaseException as exc:
        if is_no_space(exc) and not isinstance(exc, DiskFullError):
            raise DiskFullError(f"no space left on the device (or over the file-size limit) while writing {what} {path}") from None
        raise


def _tmp_name(path: Path, tag: str) -> Path:
    return path.with_name(f".{path.name}.{tag}-{os.getpid()}")


# Each write gets a folder of its own: a write abandoned by an exception may still be
# finishing in zarr's I/O thread, and must not land in the next attempt's folder.
_attempts = itertools.count()


def _remove(path: Path) -> None:
    """Remove a folder without ever leaving a half-deleted visible one: rename it to a
    hidden name first (readers skip hidden names), then delete it."""
    if not path.exists():
        return
    trash = _tmp_name(path, "trash")
    try:
        os.replace(path, trash)
    except OSError:
        trash = path
    shutil.rmtree(trash, ignore_errors=True)


@contextlib.contextmanager
def atomic_folder(path: str | os.PathLike, what: str = "store") -> Iterator[Path]:
    """Yield a hidden temporary folder that, once the block succeeds, is sealed (manifest,
    fsync) and renamed to ``path``, replacing any previous folder there. On any failure the
    temporary folder is removed and a previous folder at ``path`` is left as it was."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = _tmp_name(path, f"tmp{next(_attempts)}")
    if tmp.exists():
        shutil.rmtree(tmp)
    try:
        with writing(path, what):
            tmp.mkdir()
            yield tmp
            integrity.seal(tmp)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    old = _tmp_name(path, "old")
    if path.exists():
        os.replace(path, old)
    os.replace(tmp, path)
    integrity.fsync_dir(path.parent)
    if old.exists():
        shutil.rmtree(old, ignore_errors=True)


class _SlowStore(LocalStore):
    """A LocalStore whose writes wait first, in zarr's I/O thread (``GAMESOLVE_TEST_SLOW_WRITES``)."""

    pause = 0.0

    async def set(self, key, value) -> None:
        await asyncio.sleep(self.pause)
        await super().set(key, value)


def _write_store(folder: Path) -> LocalStore:
    pause = float(os.environ.get("GAMESOLVE_TEST_SLOW_WRITES", "0") or 0)
    if pause <= 0:
        return LocalStore(folder)
    store = _SlowStore(folder)
    store.pause = pause
    return store


@contextlib.contextmanager
def atomic_group(path: str | os.PathLike, what: str = "store") -> Iterator[zarr.Group]:
    """Yield a new zarr group that appears at ``path``, sealed, only once the block succeeds.

    An existing store at ``path`` is replaced; the old one survives any failure. (Whether
    ``path`` may be replaced is the caller's decision: see :mod:`gamesolve.store.outputs`.)
    """
    with atomic_folder(path, what) as tmp:
        yield zarr.open_group(store=_write_store(tmp), mode="w-")


def write_array(group: zarr.Group, name: str, data: np.ndarray, chunk: int = 1 << 20) -> None:
    """Write ``data`` as a chunked array (chunks along the first axis)."""
    data = np.asarray(data)
    chunks = (max(1, min(chunk, data.shape[0])),) + data.shape[1:] if data.ndim else ()
    if data.dtype.kind in "UO":
        array = group.create_array(name, shape=data.shape, dtype=str, chunks=chunks)
    else:
        array = group.create_array(name, shape=data.shape, dtype=data.dtype, chunks=chunks, fill_value=0)
    if data.size:
        array[...] = data


def open_group(path: str | os.PathLike, what: str = "store", deep: bool | None = None) -> QuietGroup:
    """Open an existing store read-only after checking it against its manifests.

    :class:`StoreError` (one line) if there is none, if it is not a gamesolve store, or if
    any file is missing, unlisted, truncated or altered (naming the file). ``deep``: hash
    every file now (default: stores up to ``integrity.DEEP_LIMIT`` bytes); every file zarr
    reads later is checked in any case."""
    path = Path(path)
    integrity.require_store(path, what)
    if not (path / integrity.MANIFEST).is_file():
        attributes = (integrity.read_json(path / "zarr.json") or {}).get("attributes") or {}
        fmt = str(attributes.get("format", "")) if isinstance(attributes, dict) else ""
        kind = str(attributes.get("kind", "")) if isinstance(attributes, dict) else ""
        if not fmt.startswith("gamesolve.") and not kind.startswith("gamesolve"):
            shown = f" (format {fmt!r})" if fmt else ""
            raise StoreError(f"{path} is not a gamesolve {what}{shown}")
        raise StoreDamagedError(
            f"{path / integrity.MANIFEST} is missing: the store is damaged, or was written by a gamesolve "
            f"without integrity checks (write it again)"
        )
    index = integrity.verify_store(path, deep=deep)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            group = zarr.open_group(store=integrity.VerifiedStore(LocalStore(path, read_only=True), index), mode="r")
    except StoreError:
        raise
    except Exception as exc:  # zarr raises several types for "not a group"
        raise StoreError(f"{path} is not a gamesolve {what} ({_plain(exc)})") from None
    return QuietGroup(group)


def _plain(exc: Exception) -> str:
    """A short reason without library internals."""
    if isinstance(exc, (FileNotFoundError, KeyError)):
        return "no zarr group metadata"
    if isinstance(exc, (json.JSONDecodeError, UnicodeDecodeError)):
        return "unreadable metadata"
    return "unreadable"


class ChunkedReader:
    """Element reads from a large zarr array, a chunk at a time, with a small LRU of chunks:
    random lookups into a store too big to load (strategies, bucket tables)."""

    def __init__(self, array, chunk: int = 1 << 20, cached: int = 16):
        self.array = array
        self.chunk = chunk
        self._read = functools.lru_cache(maxsize=cached)(self._read_chunk)

    def _read_chunk(self, index: int) -> np.ndarray:
        return np.asarray(self.array[index * self.chunk : (index + 1) * self.chunk])

    def __getitem__(self, i: int):
        return self._read(i // self.chunk)[i % self.chunk]

    def take(self, indices: np.ndarray) -> np.ndarray:
        """``self[i]`` for every ``i`` of ``indices`` (int64, any shape): one cached chunk read
        per chunk touched."""
        indices = np.asarray(indices, dtype=np.int64)
        flat = indices.reshape(-1)
        out = None
        chunks = flat // self.chunk
        for c in np.unique(chunks):
            sel = chunks == c
            part = self._read(int(c))[flat[sel] - int(c) * self.chunk]
            if out is None:
                out = np.empty(len(flat), dtype=part.dtype)
            out[sel] = part
        return (out if out is not None else np.empty(0, dtype=np.int64)).reshape(indices.shape)
