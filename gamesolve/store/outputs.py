"""Output paths: whether a command may write a path, decided before any work starts.

A path is written only if it is new, an empty folder, a store of the same kind that holds no
results yet (a run killed before its first checkpoint), or a store of the same kind the user
asked to continue (``--resume``) or to replace (``--force``). Anything else, a folder of the
user's files, a regular file, a store of another kind, is refused with one line, and nothing
is touched. The writer then holds the store's lock (:mod:`gamesolve.store.lock`) until it
is done, so a second writer is refused too.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from gamesolve.errors import StoreError
from gamesolve.store import integrity
from gamesolve.store.lock import StoreLock

KINDS = {
    "gamesolve.policy/1": "policy store",
    "gamesolve.mccfr/1": "MCCFR checkpoint store",
    "gamesolve.poker-strategy/1": "poker strategy store",
}


def store_format(path: str | os.PathLike) -> str | None:
    """The ``format`` attribute of the gamesolve store at ``path`` (read without checking
    integrity: only to tell what kind of thing is there), or None."""
    meta = integrity.read_json(Path(path) / "zarr.json") or {}
    attributes = meta.get("attributes")
    fmt = attributes.get("format") if isinstance(attributes, dict) else None
    return fmt if isinstance(fmt, str) and fmt.startswith("gamesolve.") else None


def describe(fmt: str | None) -> str:
    return KINDS.get(fmt or "", f"gamesolve store ({fmt})" if fmt else "folder")


def a(noun: str) -> str:
    """``noun`` with its indefinite article ("an MCCFR checkpoint store")."""
    return f"{'an' if noun[:1] in 'aeiouAEIOU' or noun.startswith('MCCFR') else 'a'} {noun}"


def visible_entries(path: Path) -> list[str]:
    return sorted(p.name for p in path.iterdir() if not integrity.is_hidden(p.name))


def check_creatable(path: str | os.PathLike, flag: str = "--out") -> None:
    """:class:`StoreError` unless ``path``'s missing parents can be created and written."""
    path = Path(path)
    ancestor = path.parent
    while not ancestor.exists() and ancestor != ancestor.parent:
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        raise StoreError(f"cannot write {flag} {path}: {ancestor} is a file, not a folder")
    if not os.access(ancestor, os.W_OK | os.X_OK):
        raise StoreError(f"cannot write {flag} {path}: {ancestor} is not writable")


def claim_store(
    path: str | os.PathLike,
    fmt: str | None,
    *,
    force: bool = False,
    resume: bool = False,
    holds_results: Callable[[Path], bool] | None = None,
    flag: str = "--out",
) -> StoreLock:
    """Check that a solve may write the store ``path`` (of format ``fmt``), create the folder
    and take its write lock; :class:`StoreError` with one line otherwise.

    ``holds_results(path)`` says whether a store of this kind holds anything a rerun would
    lose (default: yes); one that does not (killed before its first checkpoint) is reused
    without ``--force``. With ``resume`` the store must exist and be of this kind."""
    path = Path(path)
    if path.name in ("", ".."):  # "", ".", "..", "/": a store is written beside its path and renamed into place
        raise StoreError(f"{flag} {str(path) if str(path) != '.' else repr(str(path))} names no folder of its own; give the store a name, e.g. {flag} ./store")
    if path.exists() and not path.is_dir():
        raise StoreError(f"{flag} {path} is a file; give a folder path (a new one, or a store to --resume or --force)")
    if resume:
        if not path.exists():
            raise StoreError(f"no store to resume at {path}")
        _check_kind(path, fmt, flag, "resume")
    elif path.exists():
        entries = visible_entries(path)
        if entries:
            found = store_format(path)
            if found is None:
                raise StoreError(
                    f"{flag} {path} is a folder that is not a gamesolve store ({len(entries)} entr{'y' if len(entries) == 1 else 'ies'}); "
                    "it is never replaced: choose another path"
                )
            _check_kind(path, fmt, flag, "replace")
            if not force and (holds_results is None or holds_results(path)):
                hint = "--resume to continue it, or " if holds_results is not None else ""
                raise StoreError(f"{flag} {path} already holds {a(describe(found))}; pass {hint}--force to replace it")
    created = not path.exists()
    if created:
        check_creatable(path, flag)
        try:
            path.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create {flag} {path}: {exc.strerror}") from None
    lock = StoreLock(path).acquire()
    lock.created = created
    return lock


def release_store(lock: StoreLock) -> None:
    """Release a store's lock; remove the folder if this command created it and wrote
    nothing into it (it failed before its first write): no debris from a refused run."""
    lock.release()
    path = lock.path
    if getattr(lock, "created", False) and path.is_dir() and not visible_entries(path):
        try:
            (path / ".lock").unlink(missing_ok=True)
            path.rmdir()
        except OSError:
            pass


def _check_kind(path: Path, fmt: str | None, flag: str, verb: str) -> None:
    found = store_format(path)
    if found is None and verb == "resume":
        raise StoreError(f"{path} is not a gamesolve store (nothing to resume)")
    if fmt is None or found != fmt:
        raise StoreError(
            f"{flag} {path} holds {a(describe(found))}, not {a(describe(fmt))}; it is not {verb}d by this command "
            "(even with --force): choose another path"
        )


def check_output_file(path: str | os.PathLike, flag: str, *, folder: bool, force: bool = False,
                      replaceable: Callable[[Path], bool] | None = None) -> None:  # fmt: skip
    """Check, before a long job starts, that a plain output can be written at ``path``: a
    file, or with ``folder`` a folder of files. Writes and removes a probe file, so the check
    is the real thing (permissions, read-only file systems, a file where a folder should be).

    An existing file or non-empty folder is replaced only with ``force``, and only if
    ``replaceable(path)`` says it is this command's own kind of output."""
    path = Path(path)
    if path.exists():
        if path.is_dir() != folder:
            want = "a folder" if folder else "a file"
            raise StoreError(f"{flag} {path} is {'a folder' if path.is_dir() else 'a file'}; give {want} path")
        if not (path.is_dir() and not any(path.iterdir())):
            if replaceable is not None and not replaceable(path):
                raise StoreError(f"{flag} {path} exists and is not this command's output; it is never replaced: choose another path")
            if not force:
                raise StoreError(f"{flag} {path} exists; pass --force to replace it")
    else:
        check_creatable(path, flag)
    probe_dir = path if folder else path.parent
    created = []
    try:
        missing = [p for p in [probe_dir, *probe_dir.parents] if not p.exists()]
        probe_dir.mkdir(parents=True, exist_ok=True)
        created = list(missing)
        probe = probe_dir / f".gamesolve-probe-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
        if path.is_file():
            with open(path, "ab"):
                pass
    except OSError as exc:
        raise StoreError(f"cannot write {flag} {path}: {exc.strerror or exc}") from None
    finally:
        for p in created:  # leave no empty folders behind if the job never runs
            try:
                p.rmdir()
            except OSError:
                pass
