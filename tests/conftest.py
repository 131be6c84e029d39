"""Fixtures shared by the whole suite: plugin hosts and compiled trees of the toy games."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import gamesolve_kuhn.plugin
import gamesolve_leduc.plugin
from gamesolve.game.explicit_tree import compile_explicit_tree
from gamesolve.plugins import make_plugin_manager
from gamesolve_kuhn import KuhnGame
from gamesolve_leduc import LeducGame

from tests.shared_builds import FIXTURES, build_shared, load_tree

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE_PLUGIN = Path(__file__).parent / "plugins" / "biased_rps.py"

# Stores are fsynced as they are sealed; on the shared disk of a CI machine that costs
# seconds per test for no gain (a killed process loses nothing without it). Subprocesses
# inherit this; tests/core/test_store_safety.py checks the fsyncs themselves.
os.environ.setdefault("GAMESOLVE_FSYNC", "0")

# `gamesolve solve` compiles its training kernels in a second process while it builds the
# form (gamesolve/solve/warm.py): on a test run's two busy workers that is only more work.
# tests/nlth/test_warm_ahead.py turns it on where it tests it.
os.environ.setdefault("GAMESOLVE_WARM", "0")

# Bytecode is cached even where the environment says not to (PYTHONDONTWRITEBYTECODE), so
# that pytest keeps the assertion-rewritten test modules: else every xdist worker of every
# run parses and rewrites the whole suite again (a two-worker run's start and collection:
# 24.4 s without the cache, 14.9 s with it, on a loaded machine). The workers, started after
# this runs, inherit it.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False


#: Stores the background builder trains (tests/shared_builds.py) for minutes on a clean machine.
_TRAINED = {FIXTURES[name] for name in ("nlth-hu-blueprint", "nlth-trained", "play-tiny-blueprint")}


def pytest_collection_modifyitems(config, items):
    """Run tests/search first and the tests that read a trained store last. The search tests
    are few and long (exact range-vs-enumeration checks, tens of seconds each); last in the
    alphabetical order, they ended a two-worker run on one worker while the other had nothing
    left to do. A test that reads a trained store waits for the background build: later in
    the run it finds the store ready instead of keeping a worker idle (up to two minutes)."""
    items.sort(key=lambda item: 0 if item.path.parent.name == "search" else 2 if _TRAINED & set(item.fixturenames) else 1)


@pytest.fixture(scope="session")
def host():
    """A strict plugin host with the toy-game plugins registered directly (no entry points)."""
    return make_plugin_manager(strict=True, entry_points=False, plugins=[gamesolve_kuhn.plugin, gamesolve_leduc.plugin])


@pytest.fixture(scope="session")
def kuhn2_tree():
    return compile_explicit_tree(KuhnGame(2))


@pytest.fixture(scope="session")
def kuhn3_tree():
    return compile_explicit_tree(KuhnGame(3))


@pytest.fixture(scope="session")
def leduc2_tree():
    return compile_explicit_tree(LeducGame(2))


@pytest.fixture(scope="session")
def leduc3_tree(shared_folder):
    """1.8 M histories, about 10-20 s to compile: compiled once per run and read from its
    saved arrays."""
    return load_tree(shared_folder("leduc3-tree"))


def _shared_base(tmp_path_factory, worker_id: str) -> Path:
    """The folder of a test run that every xdist worker sees."""
    base = tmp_path_factory.getbasetemp()
    return base if worker_id == "master" else base.parent


@pytest.fixture(scope="session")
def shared_folder(tmp_path_factory, worker_id):
    """``shared_folder(name)``: the folder ``tests.shared_builds.BUILDS[name]`` fills once per
    test run, shared by the xdist workers. Tests must not write into it (copy it first)."""
    return lambda name: build_shared(_shared_base(tmp_path_factory, worker_id), name)


@pytest.fixture(scope="session", autouse=True)
def _early_shared_builds(request, tmp_path_factory, worker_id):
    """Start building, in the background, the shared folders this run's tests will read
    (tests/shared_builds.py): the first worker does, as the run starts."""
    if worker_id not in ("master", "gw0"):
        yield
        return
    used = set().union(*(item.fixturenames for item in request.session.items)) if request.session.items else set()
    wanted = [name for name, fixture in FIXTURES.items() if fixture in used]
    if not wanted:
        yield
        return
    base = _shared_base(tmp_path_factory, worker_id)
    with open(base / "shared_builds.log", "ab") as log:
        builder = subprocess.Popen([sys.executable, "-m", "tests.shared_builds", str(base), *wanted],
                                   cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)  # fmt: skip
    yield
    builder.wait()


@pytest.fixture
def example_plugin_path():
    return EXAMPLE_PLUGIN
