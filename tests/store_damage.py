"""Helpers for the corruption suites: damaged copies of a store, and what a command must say.

A copy is made of hard links (cheap, whatever the store's size); the damaged file is always
replaced by a new file, never changed in place, so the pristine store is never touched.
"""

from __future__ import annotations

import os
import shutil
import zlib
from pathlib import Path

import numpy as np

MUTATIONS = ("delete", "truncate", "garbage")


def store_files(store: Path) -> list[str]:
    """Every file of a store, relative to it. Hidden names are left out: they are the write
    lock and work in progress, not part of the store (docs/stores.md)."""
    return sorted(
        p.relative_to(store).as_posix()
        for p in store.rglob("*")
        if p.is_file() and not any(part.startswith(".") for part in p.relative_to(store).parts)
    )


def linked_copy(store: Path, dest: Path) -> Path:
    """A copy of ``store`` made of hard links (cheap whatever the store's size)."""
    shutil.copytree(store, dest, copy_function=os.link)
    return dest


def damage(copy: Path, rel: str, how: str, seed: int = 0) -> None:
    """Delete file ``rel`` of a linked copy, cut it to half its length, or overwrite it with
    as many random bytes (``garbage``: the size check alone cannot see it)."""
    target = copy / rel
    data = target.read_bytes()
    target.unlink()  # break the hard link: the original keeps its bytes
    if how == "truncate":
        target.write_bytes(data[: len(data) // 2])
    elif how == "garbage":
        # one draw per byte, in numpy: a Python loop over a blueprint's regrets took 45 s
        rng = np.random.default_rng([seed, zlib.crc32(rel.encode())])
        mask = rng.integers(1, 256, len(data), dtype=np.uint8)  # nonzero: every byte differs
        target.write_bytes((np.frombuffer(data, np.uint8) ^ mask).tobytes())
    elif how != "delete":
        raise ValueError(how)


def repair(store: Path, copy: Path, rel: str) -> None:
    """Undo :func:`damage`: link the original file back."""
    (copy / rel).unlink(missing_ok=True)
    os.link(store / rel, copy / rel)


def damaged_copy(store: Path, rel: str, how: str, dest: Path, seed: int = 0) -> Path:
    """A linked copy of ``store`` at ``dest`` with file ``rel`` damaged (see :func:`damage`)."""
    linked_copy(store, dest)
    damage(dest, rel, how, seed)
    return dest


def each_damaged(store: Path, work: Path, how: str, command) -> list[str]:
    """Damage every file of ``store`` in turn (in one linked copy, repaired after each case)
    and run ``command(copy, rel)``, which returns a problem text or None; the problems. A
    command that did not refuse may have written to the copy: it is then made afresh."""
    problems = []
    copy = linked_copy(store, work / "copy-0")
    for i, rel in enumerate(store_files(store)):
        damage(copy, rel, how)
        problem = command(copy, rel)
        if problem:
            problems.append(f"{rel}: {problem}")
            copy = linked_copy(store, work / f"copy-{i + 1}")
        else:
            repair(store, copy, rel)
    return problems


def refusal_problem(result, rel: str) -> str | None:
    """Why a CliRunner result is not a proper refusal of a store damaged at ``rel``: exit
    status 2, exactly one line on stderr (``Error: ...``) naming the damaged file (or, when
    it was a unit's manifest, that unit), no traceback. None if it is one."""
    if result.exit_code != 2:
        return f"exit status {result.exit_code} (stderr: {result.stderr.strip()[-300:]!r})"
    lines = result.stderr.strip().splitlines()
    if len(lines) != 1 or not lines[0].startswith("Error: ") or "Traceback" in result.output:
        return f"not one error line: {result.stderr.strip()[-300:]!r}"
    if rel not in lines[0]:
        return f"the error does not name {rel}: {lines[0]!r}"
    return None
