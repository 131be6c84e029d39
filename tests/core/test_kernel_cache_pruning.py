"""Earlier builds' kernel folders do not pile up: each change to a kernel starts a new folder
under ``<cache>/numba/``, and a process's start deletes the folders no process has used for
two weeks (gamesolve/cache_paths.py, ``mark_and_prune``)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from gamesolve.cache_paths import KERNEL_CACHE_DAYS, mark_and_prune

DAY = 86400.0


def _build(numba: Path, name: str, used_days_ago: float | None, now: float, marker: bool = True) -> Path:
    """A build's kernel folder holding one cached file, last used ``used_days_ago`` days ago
    (by its marker, or by the folder's own time for a folder made before markers)."""
    folder = numba / name
    (folder / "gamesolve.solve").mkdir(parents=True)
    (folder / "gamesolve.solve" / "kernels.run-1.py311.nbi").write_bytes(b"index")
    when = now - used_days_ago * DAY
    if marker:
        (folder / ".last-used").touch()
        os.utime(folder / ".last-used", (when, when))
    os.utime(folder, (when, when))
    return folder


def test_a_build_unused_for_longer_than_the_limit_is_deleted_and_a_recent_one_kept(tmp_path):
    now = time.time()
    numba = tmp_path / "numba"
    current = numba / "0.1.0-current"
    old = _build(numba, "0.1.0-old", KERNEL_CACHE_DAYS + 1, now)
    recent = _build(numba, "0.1.0-recent", KERNEL_CACHE_DAYS - 1, now)
    assert mark_and_prune(current, now=now) == [old]
    assert not old.exists() and recent.exists()


def test_a_folder_made_before_markers_is_judged_by_its_own_time(tmp_path):
    now = time.time()
    numba = tmp_path / "numba"
    legacy_old = _build(numba, "0.1.0-legacy-old", 30, now, marker=False)
    legacy_new = _build(numba, "0.1.0-legacy-new", 1, now, marker=False)
    assert mark_and_prune(numba / "0.1.0-current", now=now) == [legacy_old]
    assert legacy_new.exists()


def test_the_running_build_marks_its_folder_and_is_never_deleted(tmp_path):
    now = time.time()
    current = _build(tmp_path / "numba", "0.1.0-current", 100, now)
    mark_and_prune(current, now=now)
    assert current.exists()
    assert (current / ".last-used").stat().st_mtime == now


def test_a_build_marked_within_the_hour_does_not_look_again(tmp_path):
    """Most processes only read the marker's time: pruning runs at most hourly per build."""
    now = time.time()
    numba = tmp_path / "numba"
    current = _build(numba, "0.1.0-current", 0.5 / 24, now)
    old = _build(numba, "0.1.0-old", 100, now)
    assert mark_and_prune(current, now=now) == []
    assert old.exists()
    assert mark_and_prune(current, now=now + 3600) == [old]


def test_importing_gamesolve_prunes_the_cache_it_uses(tmp_path):
    """The wiring: ``import gamesolve`` with gamesolve's own kernel folder (no NUMBA_CACHE_DIR
    of the user's) deletes an old build's folder under $GAMESOLVE_CACHE_DIR and marks its own."""
    now = time.time()
    old = _build(tmp_path / "numba", "0.0.1-old", 60, now)
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["GAMESOLVE_CACHE_DIR"] = str(tmp_path)
    out = subprocess.run([sys.executable, "-c", "import os, gamesolve; print(os.environ['NUMBA_CACHE_DIR'])"],
                         env=env, capture_output=True, text=True, check=True)  # fmt: skip
    used = Path(out.stdout.strip())
    assert used.parent == tmp_path / "numba"
    assert (used / ".last-used").exists()
    assert not old.exists()
