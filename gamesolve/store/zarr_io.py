"""Small helpers for writing zarr groups safely.

A group is written into a temporary sibling folder and renamed into place, so a crash
never leaves a half-written store where a complete one was expected.
"""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import warnings
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import zarr


class StoreError(ValueError):
    """A store is missing, foreign or inconsistent; the message is fit to show a user."""


class QuietGroup:
    """A read-only zarr group whose listings ignore our plain marker files (zarr warns
    about any file it does not recognise, such as a checkpoint store's ``LATEST``)."""

    def __init__(self, group: zarr.Group):
        self._group = group

    def __getattr__(self, name):
        return getattr(self._group, name)

    def __getitem__(self, key):
        item = self._group[key]
        return QuietGroup(item) if isinstance(item, zarr.Group) else item

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
def atomic_group(path: str | os.PathLike) -> Iterator[zarr.Group]:
    """Yield a new zarr group that appears at ``path`` only once the block succeeds.

    An existing store at ``path`` is replaced; the old one survives any failure.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    if tmp.exists():
        shutil.rmtree(tmp)
    group = zarr.open_group(str(tmp), mode="w")
    try:
        yield group
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    old = path.with_name(f".{path.name}.old-{os.getpid()}")
    if path.exists():
        os.replace(path, old)
    os.replace(tmp, path)
    if old.exists():
        shutil.rmtree(old, ignore_errors=True)


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


def open_group(path: str | os.PathLike, what: str = "store") -> zarr.Group:
    """Open an existing zarr group read-only, with a clear error if there is none."""
    path = Path(path)
    if not path.exists():
        raise StoreError(f"no {what} at {path}")
    try:
        return QuietGroup(zarr.open_group(str(path), mode="r"))
    except Exception as exc:  # zarr raises several types for "not a group"
        raise StoreError(f"{path} is not a gamesolve {what} ({type(exc).__name__})") from None


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
