"""Fixtures shared by the whole suite: plugin hosts and compiled trees of the toy games."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import gamesolve_kuhn.plugin
import gamesolve_leduc.plugin
from gamesolve.game.explicit_tree import compile_explicit_tree
from gamesolve.plugins import make_plugin_manager
from gamesolve_kuhn import KuhnGame
from gamesolve_leduc import LeducGame

EXAMPLE_PLUGIN = Path(__file__).parent / "plugins" / "biased_rps.py"

# Stores are fsynced as they are sealed; on the shared disk of a CI machine that costs
# seconds per test for no gain (a killed process loses nothing without it). Subprocesses
# inherit this; tests/core/test_store_safety.py checks the fsyncs themselves.
os.environ.setdefault("GAMESOLVE_FSYNC", "0")


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
def leduc3_tree():
    """1.8 M histories: compiled once per session (about 20 s)."""
    return compile_explicit_tree(LeducGame(3))


@pytest.fixture
def example_plugin_path():
    return EXAMPLE_PLUGIN
