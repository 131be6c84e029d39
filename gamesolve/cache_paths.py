"""Where gamesolve keeps what it can rebuild: ``$GAMESOLVE_CACHE_DIR``, else
``$XDG_CACHE_HOME/gamesolve``, else ``~/.cache/gamesolve`` (compiled forms of large games,
plugins' tables such as NLTH card abstractions; ``gamesolve cache clear`` empties it)."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path


def cache_root(cache_dir: str | os.PathLike | None = None) -> Path:
    """The root cache folder: ``cache_dir`` if given, else as the module docstring says."""
    if cache_dir is not None:
        return Path(cache_dir).expanduser()
    env = os.environ.get("GAMESOLVE_CACHE_DIR")
    if env:
        return Path(env).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "gamesolve"


def kernel_cache_dir(version: str) -> Path:
    """numba's cache folder: ``<root>/numba/<version>-<digest of the kernels' sources>``.

    numba checks a cached kernel against its own file only, not against the modules whose
    functions it calls or inlines (:mod:`gamesolve.solve.kernels.regret_matching`, :mod:`gamesolve.rng`
    in every solver's kernels), and an editable install or a ``git pull`` keeps the version.
    So the folder is keyed by the source of every module of gamesolve and of its installed
    plugins that uses numba: a changed kernel or helper anywhere moves the whole cache, and no
    kernel is ever loaded against a helper it was not compiled with. Other modules do not
    count (editing a command does not recompile anything)."""
    return cache_root() / "numba" / f"{version}-{kernel_digest()}"


def kernel_digest() -> str:
    """A digest of the path and text of every Python file that mentions numba, in gamesolve
    and in the packages of the installed plugins (the ``gamesolve`` entry points; found
    without importing them)."""
    import hashlib
    from importlib.metadata import entry_points
    from importlib.util import find_spec

    roots = {os.path.dirname(os.path.abspath(__file__))}
    for ep in entry_points(group="gamesolve"):
        try:
            spec = find_spec(ep.value.split(":")[0].split(".")[0])
        except (ImportError, ValueError):
            continue  # a broken plugin is reported when the plugins load, not here
        if spec is not None and spec.submodule_search_locations:
            roots.update(spec.submodule_search_locations)
    digest = hashlib.blake2b(digest_size=6)
    for root in sorted(roots):
        for folder, subfolders, files in os.walk(root):
            subfolders[:] = sorted(d for d in subfolders if d != "__pycache__")
            for name in sorted(f for f in files if f.endswith(".py")):
                path = os.path.join(folder, name)
                with open(path, "rb") as f:
                    text = f.read()
                if b"numba" in text:
                    digest.update(os.path.relpath(path, os.path.dirname(root)).encode() + b"\0" + text)
    return digest.hexdigest()


KERNEL_CACHE_DAYS = 14
"""Days a build's kernel folder may go unused before a later build's start deletes it."""

_MARKER = ".last-used"
_MARK_EVERY = 3600.0  # seconds: a process refreshes its build's marker (and prunes) at most this often


def mark_and_prune(current: Path, max_age_days: float = KERNEL_CACHE_DAYS, now: float | None = None) -> list[Path]:
    """Mark ``current`` (this build's kernel folder) as used and delete the other builds'
    folders beside it that no process has used for ``max_age_days``; returns those deleted.

    Every change to a kernel's source starts a new folder (:func:`kernel_cache_dir`), so without
    this a developer's or an updating user's cache grows by a build's kernels (about 50 MB after
    a test run) at each change, for ever (a developer's held 66 builds, 1.3 GB). A folder's last
    use is its marker's time (a process touches it when it starts, at most hourly), or the
    folder's own time for folders made before markers. Old
    enough to be deleted means no process of that build started for two weeks; one still
    running would make its folder again if it compiled. Never raises: a cache that cannot be
    pruned must not stop a command."""
    now = time.time() if now is None else now
    deleted: list[Path] = []
    try:
        marker = current / _MARKER
        try:
            fresh = now - marker.stat().st_mtime < _MARK_EVERY
        except FileNotFoundError:
            fresh = False
        if fresh:
            return deleted  # marked (and pruned) within the hour
        current.mkdir(parents=True, exist_ok=True)
        marker.touch()
        os.utime(marker, (now, now))
        for folder in current.parent.iterdir():
            if folder == current or not folder.is_dir():
                continue
            try:
                used = (folder / _MARKER).stat().st_mtime
            except FileNotFoundError:
                used = folder.stat().st_mtime
            if now - used > max_age_days * 86400:
                shutil.rmtree(folder, ignore_errors=True)
                deleted.append(folder)
    except OSError:
        pass
    return deleted
