"""Which code wrote a store: the package version and, when it runs from a git checkout (an
editable install, as in development), the commit and whether the code had uncommitted
changes. Two stores that should be equal and are not can then be traced to their code
(docs/search.md, "Card abstraction builds: one of three differed": a version string alone
could not say whether both builds ran the same code)."""

from __future__ import annotations

import functools
import subprocess
from pathlib import Path

from gamesolve import __version__

_ROOT = Path(__file__).resolve().parent.parent


def _git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(_ROOT), *args], capture_output=True, text=True, check=True,
                          timeout=10).stdout.strip()  # fmt: skip


@functools.cache
def source_revision() -> dict | None:
    """``{"commit": sha, "dirty": bool}`` of the checkout this code is imported from (dirty:
    uncommitted changes under ``gamesolve/`` or ``plugins/``), or None when it is not a git
    checkout or git is not at hand. Read once per process."""
    if not (_ROOT / ".git").exists():
        return None
    try:
        commit = _git("rev-parse", "HEAD")
        dirty = _git("status", "--porcelain", "--", "gamesolve", "plugins")
    except (OSError, subprocess.SubprocessError):
        return None
    return {"commit": commit, "dirty": bool(dirty)}


def code_attributes() -> dict:
    """What a store's attributes record about the code that wrote it."""
    return {"code_version": __version__, "source": source_revision()}
