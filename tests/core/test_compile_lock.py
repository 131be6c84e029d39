"""One compilation of a kernel at a time across processes (gamesolve/compile_lock.py): a
process that wants a kernel another process is compiling waits for it (and then finds it in
the cache: numba looks there before it compiles)."""

import fcntl
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from gamesolve.compile_lock import _lock_path

KERNEL = textwrap.dedent('''
    from numba import njit

    @njit(cache=True)
    def total(x):
        return x.sum()
''')

CALL = "import numpy as np, gamesolve_locktest as m; print(m.total(np.ones(3)), flush=True)"


@pytest.fixture
def plugin_kernel(tmp_path):
    """A kernel in a module named ``gamesolve_*`` (the ones the lock covers), its numba cache
    folder, and a way to start a process that compiles and runs it."""
    (tmp_path / "gamesolve_locktest.py").write_text(KERNEL)
    cache = tmp_path / "cache"
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "NUMBA_CACHE_DIR": str(cache)}

    def start():
        return subprocess.Popen([sys.executable, "-c", CALL], env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip

    sys.path.insert(0, str(tmp_path))
    try:
        import gamesolve_locktest

        yield gamesolve_locktest.total, cache, start
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("gamesolve_locktest", None)


def _held(path):
    """An open descriptor holding ``path``'s lock, as a compiling process holds it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    return fd


def _opened_by(proc, path, seconds=60.0):
    """Whether ``proc`` opens ``path`` (reaches the lock) within ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            fds = os.listdir(f"/proc/{proc.pid}/fd")
        except OSError:  # it has just ended
            continue
        for fd in fds:
            try:
                if os.readlink(f"/proc/{proc.pid}/fd/{fd}") == str(path):
                    return True
            except OSError:
                continue
        time.sleep(0.02)
    return False


def test_a_process_waits_while_another_compiles_the_same_kernel(plugin_kernel):
    kernel, cache, start = plugin_kernel
    lock = Path(_lock_path(kernel, str(cache)))
    fd = _held(lock)
    proc = start()
    try:
        assert _opened_by(proc, lock), proc.communicate(timeout=60)
        time.sleep(1.0)
        assert proc.poll() is None  # still waiting: the lock is held
    finally:
        os.close(fd)  # the "other process" is done
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0 and out.strip() == "3.0", err
    assert list(cache.rglob("*.nbi"))  # then compiled it and saved it to the cache
