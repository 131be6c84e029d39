"""Trees and stores several tests share, built once per test run.

A folder ``BASE/NAME`` is built by ``BUILDS[NAME](folder)`` under the lock ``BASE/NAME.lock``
and marked done by ``BASE/NAME.built`` (``BASE`` is the run's temporary folder, which every
xdist worker sees). Whoever asks first builds it; the others wait on the lock and read it.

The longest builds (a blueprint store trains for minutes on a clean machine: the tiny card
abstraction and the kernels' first compilation) start in the background as soon as a
worker knows the run needs them, so the workers run other tests meanwhile instead of one
waiting on the other's lock (``python -m tests.shared_builds BASE NAME...``; see
``tests/conftest.py``).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import attrs
import numpy as np
from filelock import FileLock

from gamesolve.game.explicit_tree import ExplicitTree
from tests.command_output import last_json

#: The tiny preset's schedules (in seconds) in iterations: a briefly trained fixture store
#: must not depend on how loaded the machine is.
ITERATION_SCHEDULES = tuple(f"-o{key}={value}" for key, value in {
    "discount_interval": 30_000, "lcfr_threshold": 150_000, "prune_threshold": 100_000,
    "snapshot_interval": 50_000, "snapshot_start": 150_000}.items())  # fmt: skip


def gamesolve(*args: str, timeout: int = 600) -> subprocess.CompletedProcess:
    """The CLI in a subprocess; fails with its error output unless it succeeded."""
    proc = subprocess.run([sys.executable, "-m", "gamesolve.cli", *args], capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        raise AssertionError(f"gamesolve {' '.join(args)} failed:\n{proc.stderr[-2000:]}")
    return proc


def solve_nlth(*args: str, timeout: int = 600) -> dict:
    """``gamesolve solve --game nlth ARGS --json``; its JSON result."""
    proc = gamesolve("solve", "--game", "nlth", *args, "--json", timeout=timeout)
    return last_json(proc)


def save_tree(tree: ExplicitTree, folder: Path) -> None:
    """``tree`` in ``folder``: arrays in an .npz, the rest in JSON."""
    folder.mkdir(parents=True, exist_ok=True)
    arrays = {f.name: getattr(tree, f.name) for f in attrs.fields(ExplicitTree) if isinstance(getattr(tree, f.name), np.ndarray)}
    np.savez(folder / "arrays.npz", **arrays)
    meta = {"game_name": tree.game_name, "params": tree.params, "num_players": tree.num_players,
            "infoset_keys": list(tree.infoset_keys)}  # fmt: skip
    (folder / "meta.json").write_text(json.dumps(meta))


def load_tree(folder: Path) -> ExplicitTree:
    """The tree :func:`save_tree` saved in ``folder``."""
    meta = json.loads((folder / "meta.json").read_text())
    with np.load(folder / "arrays.npz", allow_pickle=False) as saved:
        arrays = {name: saved[name] for name in saved.files}
    return ExplicitTree(**arrays, game_name=meta["game_name"], params=meta["params"], num_players=meta["num_players"],
                        infoset_keys=tuple(meta["infoset_keys"]))  # fmt: skip


def _leduc3_tree(folder: Path) -> None:
    from gamesolve.game.explicit_tree import compile_explicit_tree
    from gamesolve_leduc import LeducGame

    save_tree(compile_explicit_tree(LeducGame(3)), folder)


def _nlth_trained(folder: Path) -> None:
    """A six-player tiny blueprint from 30,000 iterations on one thread (the same store on every
    machine: the hold'em presets use all cores when --threads is not given) and its JSON result."""
    folder.mkdir(parents=True)
    result = solve_nlth("--iterations", "30000", "--threads", "1", *ITERATION_SCHEDULES, "--out", str(folder / "tiny"))
    (folder / "result.json").write_text(json.dumps(result))


def _nlth_hu_blueprint(folder: Path) -> None:
    """A heads-up tiny blueprint from 300,000 iterations on one thread with schedules in
    iterations: the same blueprint on every machine and load (two threads interleave their
    updates; the preset's schedules are in seconds)."""
    args = ("--players", "2", "--iterations", "300000", "--threads", "1", *ITERATION_SCHEDULES, "--out", str(folder))
    assert solve_nlth(*args, timeout=900)["players"] == 2


def _golden_blueprint(players: int):
    """The blueprint of issue 33's search record (tests/golden/search_record.py)."""

    def build(folder: Path) -> None:
        from tests.golden.search_record import train_blueprint

        train_blueprint(players, folder)

    return build


def _play_tiny_blueprint(folder: Path) -> None:
    """One thread: the play tests' scripted hands see the same bots' choices on every run."""
    gamesolve("solve", "--game", "nlth", "--iterations", "3000", "--seed", "7", "--threads", "1", "--out", str(folder), "--json")


def _play_kuhn_policy(folder: Path) -> None:
    gamesolve("solve", "--game", "kuhn", "--algo", "cfr+", "--iterations", "300", "--out", str(folder), "--json")


#: name -> build(folder), in the order a background build makes them (the longest first).
BUILDS = {
    "nlth-hu-blueprint": _nlth_hu_blueprint,
    "nlth-trained": _nlth_trained,
    "play-tiny-blueprint": _play_tiny_blueprint,
    "golden-6p-blueprint": _golden_blueprint(6),
    "golden-hu-blueprint": _golden_blueprint(2),
    "leduc3-tree": _leduc3_tree,
    "play-kuhn-policy": _play_kuhn_policy,
}

#: name -> the session fixture that reads it (a run that uses the fixture starts its build early).
FIXTURES = {
    "nlth-hu-blueprint": "hu_blueprint",
    "nlth-trained": "trained",
    "play-tiny-blueprint": "tiny_blueprint",
    "leduc3-tree": "leduc3_tree",
    "golden-6p-blueprint": "golden_6p_blueprint",
    "golden-hu-blueprint": "golden_hu_blueprint",
}


def build_shared(base: Path, name: str) -> Path:
    """``base / name``, built by ``BUILDS[name]`` unless already built (see the module doc)."""
    folder = base / name
    with FileLock(str(folder) + ".lock"):
        if not (base / f"{name}.built").exists():
            shutil.rmtree(folder, ignore_errors=True)  # what a killed build left
            BUILDS[name](folder)
            (base / f"{name}.built").touch()
    return folder


def main(argv: list[str]) -> int:
    base = Path(argv[0])
    for name in argv[1:]:
        try:
            build_shared(base, name)
        except Exception as error:  # the fixture that needs it builds it again and fails with the reason
            print(f"{name}: {error}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
