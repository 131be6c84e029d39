"""``gamesolve cache clear``: gamesolve's caches (compiled kernels, tables plugins build)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import click

from gamesolve.commands.support import emit, mb


@click.group()
def cache():
    """Manage gamesolve's caches: compiled kernels and tables plugins build (card abstractions)."""


def _cache_root() -> Path:
    """The root of gamesolve's caches ($GAMESOLVE_CACHE_DIR, else $XDG_CACHE_HOME/gamesolve)."""
    from gamesolve.cache_paths import cache_root

    return cache_root()


def _size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file()) if path.is_dir() else 0


@cache.command("clear")
@click.option("--all", "clear_all", is_flag=True,
              help="Also delete the tables plugins cached (NLTH card abstractions: minutes to rebuild).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def cache_clear(clear_all, as_json):
    """Delete numba's compiled kernels, of this build of gamesolve and of earlier ones (rebuilt on next use);
    with --all, the cached card-abstraction tables as well. Says what it cleared and kept."""
    kernels = Path(os.environ["NUMBA_CACHE_DIR"])
    root = _cache_root()
    builds = [kernels]
    if kernels.parent == root / "numba":  # gamesolve's own folder: every build's kernels
        kernels = kernels.parent
        builds = sorted(p for p in kernels.iterdir() if p.is_dir()) if kernels.is_dir() else []
    cleared, kept = [], []
    size = sum(_size(b) for b in builds)
    for build in builds:
        if build.exists():
            shutil.rmtree(build)
    cleared.append({"what": "compiled kernels (numba)", "path": str(kernels), "bytes": size})
    for entry in sorted(root.iterdir()) if root.is_dir() else []:
        if not entry.is_dir() or entry.name == "numba" or entry.name.startswith("."):
            continue
        names = {"abstraction": "card-abstraction tables", "forms": "compiled forms of large games"}
        item = {"what": names.get(entry.name, f"{entry.name} tables"),
                "path": str(entry), "bytes": _size(entry)}  # fmt: skip
        if clear_all:
            shutil.rmtree(entry)
            cleared.append(item)
        else:
            kept.append(item)
    lines = [f"cleared {c['what']}: {c['path']} ({mb(c['bytes'])})" for c in cleared]
    lines += [f"kept {k['what']}: {k['path']} ({mb(k['bytes'])}); `gamesolve cache clear --all` deletes them too"
              for k in kept]  # fmt: skip
    emit({"cleared": cleared, "kept": kept}, as_json, lines)
