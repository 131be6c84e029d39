"""Fixtures shared by the whole suite: plugin hosts and compiled trees of the toy games."""

from __future__ import annotations

import json
import os
from pathlib import Path

import attrs
import numpy as np
import pytest
from filelock import FileLock

import gamesolve_kuhn.plugin
import gamesolve_leduc.plugin
from gamesolve.game.explicit_tree import ExplicitTree, compile_explicit_tree
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
def leduc3_tree(shared_folder):
    """1.8 M histories, about 20-30 s to compile: compiled once per run, by the first xdist
    worker that asks, and read from its saved arrays."""
    return _load_tree(shared_folder("leduc3-tree", lambda folder: _save_tree(compile_explicit_tree(LeducGame(3)), folder)))


@pytest.fixture(scope="session")
def shared_folder(tmp_path_factory, worker_id):
    """``shared_folder(name, build)``: a folder that ``build(folder)`` fills once per test run,
    shared by the xdist workers (blueprints take seconds to minutes to train: the first worker
    to ask builds it under a lock, the other waits and reads it). Tests must not write into it
    (copy it first)."""
    return lambda name, build: _shared_folder(tmp_path_factory, worker_id, name, build)


def _shared_folder(tmp_path_factory, worker_id: str, name: str, build) -> Path:
    if worker_id == "master":
        folder = tmp_path_factory.mktemp(name) / name
        build(folder)
        return folder
    folder = tmp_path_factory.getbasetemp().parent / name
    with FileLock(str(folder) + ".lock"):
        if not (folder.parent / f"{name}.built").exists():
            build(folder)
            (folder.parent / f"{name}.built").touch()
    return folder


def _save_tree(tree: ExplicitTree, folder: Path) -> None:
    """``tree`` in ``folder``: arrays in an .npz, the rest in JSON."""
    folder.mkdir(parents=True, exist_ok=True)
    arrays = {f.name: getattr(tree, f.name) for f in attrs.fields(ExplicitTree) if isinstance(getattr(tree, f.name), np.ndarray)}
    np.savez(folder / "arrays.npz", **arrays)
    meta = {"game_name": tree.game_name, "params": tree.params, "num_players": tree.num_players,
            "infoset_keys": list(tree.infoset_keys)}  # fmt: skip
    (folder / "meta.json").write_text(json.dumps(meta))


def _load_tree(folder: Path) -> ExplicitTree:
    """The tree :func:`_save_tree` saved in ``folder``."""
    meta = json.loads((folder / "meta.json").read_text())
    with np.load(folder / "arrays.npz", allow_pickle=False) as saved:
        arrays = {name: saved[name] for name in saved.files}
    return ExplicitTree(**arrays, game_name=meta["game_name"], params=meta["params"], num_players=meta["num_players"],
                        infoset_keys=tuple(meta["infoset_keys"]))  # fmt: skip


@pytest.fixture
def example_plugin_path():
    return EXAMPLE_PLUGIN
