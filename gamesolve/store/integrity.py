"""Integrity of stores: a manifest of SHA-256 digests written with every store and checked
whenever one is read.

A *sealed folder* holds ``manifest.json``: the size and SHA-256 digest of every file below
it (files in sealed subfolders excepted: they have their own manifest), and the digest of
that list itself. Every unit the store layer writes is sealed before it becomes visible: a
store written with :func:`gamesolve.store.zarr_io.atomic_group`, each MCCFR checkpoint
generation, each strategy snapshot, the root metadata of a checkpoint store. Units are
written under a hidden name (``.NAME...``), sealed, then renamed into place, so every
visible folder of a store is complete; hidden names are ignored when checking.

:func:`check_store` walks a store and reports, by file:

* a manifest that is unreadable or does not match its own digest;
* a listed file that is missing, or whose size differs from the manifest's;
* a file no manifest lists (outside hidden names and the plain markers in ``MARKERS``);
* a metadata file (``*.json``, small) whose bytes do not match its digest;
* with ``deep``, any file whose bytes do not match its digest.

:class:`VerifiedStore` then checks every file zarr reads against its digest (and a listed
file zarr finds missing is an error, never the fill value), so a damaged chunk is never used
even in a store too big to hash in full on every open.

Digests are plain SHA-256 of the file bytes: ``sha256sum`` checks them by hand.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import AsyncGenerator, Iterable
from pathlib import Path
from typing import Any

import attrs
from zarr.abc.store import ByteRequest, OffsetByteRequest, RangeByteRequest, SuffixByteRequest
from zarr.core.buffer import Buffer, BufferPrototype
from zarr.storage import LocalStore, WrapperStore

from gamesolve.errors import StoreDamagedError, StoreError

MANIFEST = "manifest.json"
FORMAT = "gamesolve.manifest/1"
MARKERS = frozenset({"LATEST"})
"""Plain files a store may hold outside any manifest; their owner checks their content
(``LATEST`` names the newest checkpoint and carries that checkpoint's manifest digest)."""
DEEP_LIMIT = 256 * 2**20
"""Stores up to this size have every file hashed whenever they are opened (about 0.15 s at
this size here); bigger ones have their structure and metadata checked on open and each
chunk checked as it is read. ``gamesolve store check`` always hashes everything."""
_BLOCK = 1 << 20


def fsync_enabled() -> bool:
    """Whether writes are forced to disk. ``GAMESOLVE_FSYNC=0`` turns it off, for test suites
    on a shared disk only: a killed process loses nothing without it (the page cache
    survives), a power cut may."""
    return os.environ.get("GAMESOLVE_FSYNC", "1").lower() not in ("0", "off", "false", "no")


def is_hidden(name: str) -> bool:
    """Hidden names are work in progress (``.NAME.tmp-PID``, ``.checkpoint-...``) or locks."""
    return name.startswith(".")


def file_digest(path: Path, fsync: bool = False) -> tuple[int, str]:
    """Size and SHA-256 of a file; with ``fsync``, its data is forced to disk as well."""
    h = hashlib.sha256()
    size = 0
    with open(path, "rb") as fh:
        while block := fh.read(_BLOCK):
            h.update(block)
            size += len(block)
        if fsync:
            os.fsync(fh.fileno())
    return size, h.hexdigest()


def _list_digest(files: dict[str, list]) -> str:
    return hashlib.sha256(json.dumps(files, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def fsync_dir(path: Path) -> None:
    """Make a folder's entries (created, renamed files) durable."""
    if not fsync_enabled():
        return
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def seal(folder: str | os.PathLike, fsync: bool | None = None) -> str:
    """Write ``folder/manifest.json`` listing every file below ``folder`` (except hidden
    ones and those in sealed subfolders) with its size and SHA-256; with ``fsync`` (default:
    :func:`fsync_enabled`), every listed file and folder is forced to disk first. Returns
    the manifest's own SHA-256."""
    folder = Path(folder)
    fsync = fsync_enabled() if fsync is None else fsync
    files: dict[str, list] = {}
    dirs = []
    for dirpath, dirnames, filenames in os.walk(folder):
        here = Path(dirpath)
        dirs.append(here)
        dirnames[:] = sorted(d for d in dirnames if not is_hidden(d) and not (here / d / MANIFEST).exists())
        for name in sorted(filenames):
            if is_hidden(name) or (here == folder and (name == MANIFEST or name in MARKERS)):
                continue
            path = here / name
            size, digest = file_digest(path, fsync=fsync)
            files[path.relative_to(folder).as_posix()] = [size, digest]
    # Plain JSON, one file per line, so that a person (or sha256sum) can read it.
    listing = ",\n".join(f"  {json.dumps(k)}: [{size}, {json.dumps(digest)}]" for k, (size, digest) in files.items())
    text = (f'{{\n "format": {json.dumps(FORMAT)},\n "algorithm": "sha256",\n "digest": {json.dumps(_list_digest(files))},\n'
            f' "files": {{\n{listing}\n }}\n}}\n')  # fmt: skip
    tmp = folder / f".{MANIFEST}.tmp"
    with open(tmp, "w") as fh:
        fh.write(text)
        fh.flush()
        if fsync:
            os.fsync(fh.fileno())
    os.replace(tmp, folder / MANIFEST)
    if fsync:
        for d in dirs:
            fsync_dir(d)
    return hashlib.sha256(text.encode()).hexdigest()


def manifest_digest(folder: str | os.PathLike) -> str | None:
    """SHA-256 of ``folder``'s manifest file, or None if it has none."""
    path = Path(folder) / MANIFEST
    if not path.is_file():
        return None
    return hashlib.sha256(path.read_bytes()).hexdigest()


@attrs.frozen
class Entry:
    size: int
    digest: str


@attrs.define
class StoreIndex:
    """What the manifests of a store vouch for: ``files`` maps a path relative to ``root``
    to its :class:`Entry`; ``sealed`` holds the (relative) folders that have a manifest."""

    root: Path
    files: dict[str, Entry] = attrs.field(factory=dict)
    sealed: set[str] = attrs.field(factory=set)

    @property
    def total_bytes(self) -> int:
        return sum(e.size for e in self.files.values())

    def covered(self, key: str) -> bool:
        """Whether ``key`` lies in a sealed folder (so it must be listed to be read)."""
        parts = key.split("/")
        return any("/".join(parts[:i]) in self.sealed for i in range(len(parts)))


def _load_manifest(path: Path, shown: str) -> dict[str, list]:
    try:
        data = json.loads(path.read_bytes())
        files = data["files"]
        ok = data.get("format") == FORMAT and isinstance(files, dict) and data.get("digest") == _list_digest(files)
        ok = ok and all(isinstance(v, list) and len(v) == 2 for v in files.values())
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        ok = False
    if not ok:
        raise StoreDamagedError(f"{shown} is damaged: it is not a valid manifest or does not match its own digest")
    return files


def check_store(root: str | os.PathLike, deep: bool | None = None, limit: int | None = None,
                fresh: bool = False) -> tuple[StoreIndex, list[str]]:  # fmt: skip
    """Walk the store at ``root``; return its index and every problem found (empty: sound).

    ``deep``: hash every file (None: only if the store holds at most ``DEEP_LIMIT`` bytes);
    unless ``fresh``, not again if this process hashed the very same files before.
    ``limit``: stop after this many problems. Problems name files by their path."""
    root = Path(root)
    index = StoreIndex(root)
    problems: list[str] = []
    shown = lambda rel: str(root / rel) if rel else str(root)  # noqa: E731
    if not (root / MANIFEST).is_file():
        problems.append(f"{shown(MANIFEST)} is missing: not a gamesolve store, or a damaged one")
        return index, problems
    listed_by: dict[str, str] = {}
    seen: list[tuple[str, str | None]] = []  # (file, its nearest sealed folder)
    nearest: dict[str, str | None] = {"": None}
    unreadable: set[str] = set()
    for dirpath, dirnames, filenames in os.walk(root):
        here = Path(dirpath)
        rel_dir = here.relative_to(root).as_posix()
        rel_dir = "" if rel_dir == "." else rel_dir
        dirnames[:] = sorted(d for d in dirnames if not is_hidden(d))
        owner = nearest[rel_dir]
        if MANIFEST in filenames:
            manifest_rel = f"{rel_dir}/{MANIFEST}" if rel_dir else MANIFEST
            try:
                files = _load_manifest(here / MANIFEST, shown(manifest_rel))
            except StoreDamagedError as exc:
                problems.append(str(exc))
                files = {}
                unreadable.add(rel_dir)  # its files are not reported one by one as unlisted
            owner = rel_dir
            index.sealed.add(rel_dir)
            for rel, (size, digest) in files.items():
                key = f"{rel_dir}/{rel}" if rel_dir else rel
                index.files[key] = Entry(int(size), str(digest))
                listed_by[key] = manifest_rel
        for d in dirnames:
            nearest[f"{rel_dir}/{d}" if rel_dir else d] = owner
        for name in filenames:
            if is_hidden(name) or name == MANIFEST:
                continue
            key = f"{rel_dir}/{name}" if rel_dir else name
            seen.append((key, owner))
    present = set()
    unlisted: dict[str, list[str]] = {}  # the zarr node (unit) an unlisted file belongs to -> its files
    for key, owner in seen:
        present.add(key)
        if key in index.files:
            continue
        if key.rsplit("/", 1)[-1] in MARKERS or owner in unreadable:
            continue
        unlisted.setdefault(_unit_of(root, key, owner) or key, []).append(key)
    for unit, keys in unlisted.items():
        if unit not in keys and not any(k.startswith(unit + "/") for k in index.files):
            # a whole unit whose own manifest is gone: name the missing manifest
            problems.append(f"{shown(unit + '/' + MANIFEST)} is missing ({len(keys):,} files below it are listed in no manifest)")
        else:
            problems.extend(f"{shown(k)} is not listed in any manifest (an unexpected file)" for k in keys)
    for folder in sorted({k.rsplit("/", 1)[0] if "/" in k else "" for k, _ in seen} | {""}):
        try:
            read_pointer(root / folder if folder else root)
        except StoreDamagedError as exc:
            problems.append(str(exc).removeprefix("damaged store: "))
    total = index.total_bytes
    deep = total <= DEEP_LIMIT if deep is None else deep
    stats = []
    hashing = []
    for key, entry in sorted(index.files.items()):
        if limit is not None and len(problems) >= limit:
            break
        path = root / key
        if key not in present:
            problems.append(f"{shown(key)} is missing (listed in {shown(listed_by[key])})")
            continue
        try:
            stat = path.stat()
        except OSError as exc:
            problems.append(f"{shown(key)} cannot be read ({exc.strerror})")
            continue
        if stat.st_size != entry.size:
            problems.append(f"{shown(key)} has {stat.st_size:,} bytes, its manifest says {entry.size:,}")
            continue
        stats.append((key, stat.st_size, stat.st_mtime_ns, stat.st_ino, entry.digest))
        if deep or key.endswith(".json"):
            hashing.append((key, path, entry))
    # A store hashed whole by this process, not written since (same files, sizes, times and
    # inodes), is not hashed again: a resume opens its store three times. Reads still check
    # every file they use.
    signature = hash(tuple(stats))
    if deep and not fresh and not problems and _HASHED.get(root.resolve()) == signature:
        return index, problems
    for key, path, entry in hashing:
        if limit is not None and len(problems) >= limit:
            break
        try:
            if file_digest(path)[1] != entry.digest:
                problems.append(f"{shown(key)} does not match its SHA-256 digest (its bytes changed)")
        except OSError as exc:
            problems.append(f"{shown(key)} cannot be read ({exc.strerror})")
    if deep and not problems:
        _HASHED[root.resolve()] = signature
    return index, problems


_HASHED: dict[Path, int] = {}  # store root -> signature of the files last hashed whole and sound


def _unit_of(root: Path, key: str, owner: str | None) -> str | None:
    """The outermost folder below ``owner`` on ``key``'s path that is a zarr node (holds a
    ``zarr.json``): the unit a sealed write would have made of it."""
    parts = key.split("/")
    start = len(owner.split("/")) if owner else 0
    for i in range(start + 1, len(parts)):
        folder = "/".join(parts[:i])
        if (root / folder / "zarr.json").is_file():
            return folder
    return None


POINTERS = {"LATEST": re.compile(r"checkpoint-\d{6}")}
"""Pointer markers: a plain file naming the newest of a family of sealed sibling units (an
MCCFR store's ``LATEST`` and its ``checkpoint-NNNNNN`` generations), with that unit's
manifest digest, so that the marker cannot silently point at another unit's content."""


def units(folder: Path, marker: str = "LATEST") -> list[str]:
    """The visible (hence complete) units a pointer marker in ``folder`` chooses among."""
    pattern = POINTERS[marker]
    try:
        return sorted(p.name for p in folder.iterdir() if pattern.fullmatch(p.name) and p.is_dir())
    except OSError:
        return []


def write_pointer(folder: Path, name: str, marker: str = "LATEST") -> None:
    """Point ``folder/marker`` at the sealed unit ``name``: written to a temporary file,
    fsynced, renamed (the commit point), folder fsynced."""
    tmp = folder / f".{marker}.tmp"
    with open(tmp, "w") as fh:
        fh.write(f"{name}\nsha256:{manifest_digest(folder / name)}\n")
        fh.flush()
        if fsync_enabled():
            os.fsync(fh.fileno())
    os.replace(tmp, folder / marker)
    fsync_dir(folder)


def read_pointer(folder: Path, marker: str = "LATEST") -> str | None:
    """The unit ``folder/marker`` names, or None if there is no marker and no unit.

    :class:`StoreDamagedError` if the marker is unreadable, names no sealed unit, does not
    match that unit's manifest, or is missing while several units exist. (Missing with only
    the first unit present is the instant between that unit's rename and the first marker:
    the unit is complete, and is used.)"""
    path = folder / marker
    found = units(folder, marker)
    if not path.exists():
        if not found:
            return None
        if len(found) == 1 and int(re.sub(r"\D", "", found[0]) or 0) == 1:
            return found[0]
        raise StoreDamagedError(f"damaged store: {path} is missing while {', '.join(found)} exist")
    try:
        lines = path.read_text().split()
    except (OSError, UnicodeDecodeError):
        lines = []
    name = lines[0] if lines else ""
    digest = lines[1].removeprefix("sha256:") if len(lines) == 2 and lines[1].startswith("sha256:") else None
    if not POINTERS[marker].fullmatch(name) or digest is None:
        raise StoreDamagedError(f"damaged store: {path} is not a valid {marker} marker")
    actual = manifest_digest(folder / name)
    if actual is None:
        raise StoreDamagedError(f"damaged store: {path} names {name}, which is missing or has no manifest")
    if actual != digest:
        raise StoreDamagedError(f"damaged store: {path} does not match {folder / name / MANIFEST}")
    return name


def verify_store(root: str | os.PathLike, deep: bool | None = None) -> StoreIndex:
    """The index of a sound store; :class:`StoreDamagedError` naming the first damaged file
    (and how many other problems there are) otherwise."""
    index, problems = check_store(root, deep=deep, limit=50)
    if problems:
        more = f" (and {len(problems) - 1:,}{'+' if len(problems) >= 50 else ''} more problems)" if len(problems) > 1 else ""
        if len(problems) == 1 and problems[0].endswith("not a gamesolve store, or a damaged one"):
            raise StoreDamagedError(problems[0])
        raise StoreDamagedError(f"damaged store: {problems[0]}{more}; `gamesolve store check {root}` lists them")
    return index


def _slice(data: bytes, byte_range: ByteRequest | None) -> bytes:
    if byte_range is None:
        return data
    if isinstance(byte_range, RangeByteRequest):
        return data[byte_range.start : byte_range.end]
    if isinstance(byte_range, OffsetByteRequest):
        return data[byte_range.offset :]
    if isinstance(byte_range, SuffixByteRequest):
        return data[max(0, len(data) - byte_range.suffix) :]
    raise TypeError(f"unexpected byte range {byte_range!r}")


class VerifiedStore(WrapperStore[LocalStore]):
    """A read-only zarr store that checks every file it reads against the store's manifests:
    a listed file must be present with its size and digest; an unlisted file inside a sealed
    folder must not exist (zarr reads an absent chunk as the fill value, so a *listed* chunk
    that is absent is an error, never zeros). Listings hide manifests, markers and hidden
    work-in-progress names, so zarr never meets them."""

    def __init__(self, store: LocalStore, index: StoreIndex | None = None):
        super().__init__(store)
        self.index = index if index is not None else StoreIndex(Path(store.root))

    def _with_store(self, store: LocalStore) -> VerifiedStore:
        return type(self)(store, self.index)

    def _problem(self, key: str, what: str) -> StoreDamagedError:
        path = self.index.root / key
        return StoreDamagedError(f"damaged store: {path} {what}; `gamesolve store check {self.index.root}` lists every problem")

    async def get(self, key: str, prototype: BufferPrototype, byte_range: ByteRequest | None = None) -> Buffer | None:
        entry = self.index.files.get(key)
        if entry is None:
            value = await self._store.get(key, prototype, byte_range)
            name = key.rsplit("/", 1)[-1]
            if value is not None and self.index.covered(key) and name not in MARKERS and name != MANIFEST:
                raise self._problem(key, "is not listed in any manifest (an unexpected file)")
            return value
        value = await self._store.get(key, prototype)
        if value is None:
            raise self._problem(key, "is missing")
        data = value.to_bytes()
        if len(data) != entry.size:
            raise self._problem(key, f"has {len(data):,} bytes, its manifest says {entry.size:,}")
        if hashlib.sha256(data).hexdigest() != entry.digest:
            raise self._problem(key, "does not match its SHA-256 digest (its bytes changed)")
        return value if byte_range is None else prototype.buffer.from_bytes(_slice(data, byte_range))

    async def get_partial_values(self, prototype: BufferPrototype, key_ranges: Iterable[tuple[str, ByteRequest | None]]) -> list[Buffer | None]:
        return [await self.get(key, prototype, byte_range) for key, byte_range in key_ranges]

    async def _get_many(self, requests) -> AsyncGenerator[tuple[str, Buffer | None], None]:
        for key, prototype, byte_range in requests:
            yield key, await self.get(key, prototype, byte_range)

    def list_dir(self, prefix: str):
        return self._filtered(self._store.list_dir(prefix))

    def list(self):
        return self._filtered(self._store.list())

    def list_prefix(self, prefix: str):
        return self._filtered(self._store.list_prefix(prefix))

    async def _filtered(self, keys):
        async for key in keys:
            name = key.rstrip("/").rsplit("/", 1)[-1]
            if is_hidden(name) or name == MANIFEST or name in MARKERS:
                continue
            yield key


def read_json(path: Path) -> dict[str, Any] | None:
    """A small JSON file's object, or None if it is missing or not a JSON object (used to
    peek at a path's kind before deciding whether it may be replaced)."""
    try:
        data = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def require_store(root: str | os.PathLike, what: str) -> None:
    """A readable error for a path that is not a store at all (before checking integrity)."""
    root = Path(root)
    if not root.exists():
        raise StoreError(f"no {what} at {root}")
    if not root.is_dir():
        raise StoreError(f"{root} is a file, not a gamesolve {what}")
