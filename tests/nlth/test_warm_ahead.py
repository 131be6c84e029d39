"""`gamesolve solve` compiles the training's kernels in a second process, on a stand-in form,
while it builds the real one (gamesolve/solve/warm.py): for hold'em, while it builds the card
abstraction. The stand-in must give the kernels the real form's types, or the child compiles
kernels the training never loads."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import attrs
import numba
import numpy as np
import pytest

from gamesolve.solve import warm
from gamesolve_nlth.blueprint.form import nlth_form
from gamesolve_nlth.blueprint.presets import PRESETS
from gamesolve_nlth.plugin import gamesolve_stand_in_form
from gamesolve_nlth.state import NLTHGame


def types_of(value) -> dict:
    """numba's type of every array or number an object holds (what a kernel is compiled for)."""
    return {k: numba.typeof(v) for k, v in vars(value).items() if isinstance(v, (np.ndarray, int, float))}


def test_the_stand_in_form_has_the_real_forms_tree_and_kernel_types(trained):
    game = NLTHGame(players=6)
    real = nlth_form(game, PRESETS["tiny"])  # the card abstraction is in the cache after `trained`
    stand_in = gamesolve_stand_in_form(game, {})
    for field in attrs.fields(type(real)):
        mine, theirs = getattr(stand_in, field.name), getattr(real, field.name)
        if isinstance(theirs, np.ndarray):
            assert numba.typeof(mine) == numba.typeof(theirs), field.name
            assert np.array_equal(mine, theirs), field.name
    assert stand_in.params == real.params
    assert types_of(stand_in.deals) == types_of(real.deals)


def test_presets_too_large_to_build_twice_have_no_stand_in():
    assert gamesolve_stand_in_form(NLTHGame(players=6), {"preset": "small"}) is None


def spec(**changes) -> dict:
    base = {"game": "leduc", "params": {}, "preset": None, "plugins_dirs": [], "options": {"prune": True}, "threads": 1, "seed": 0}
    return {**base, **changes}


def test_the_child_trains_hold_ems_stand_in():
    assert warm.warm(spec(game="nlth", params={"players": "2"})) is True


def test_the_marker_names_the_game_and_form_not_the_seed_or_options(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert warm._marker({**spec(), "seed": 5, "options": {}}) == warm._marker(spec())
    assert warm._marker(spec(params={"players": "3"})) != warm._marker(spec())


def test_a_finished_child_leaves_the_marker_also_without_a_stand_in(tmp_path):
    """Leduc has no stand-in: the child has nothing to do, now or next time."""
    assert warm.warm(spec()) is False
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}  # where the child's marker goes
    subprocess.run([sys.executable, "-m", "gamesolve.solve.warm", json.dumps(spec())], check=True, timeout=120, env=env)
    assert [p.name for p in (tmp_path / ".warm").iterdir()] == [warm._marker(spec()).name]


@attrs.frozen
class Request:
    """What :func:`warm.start_warm` reads of a solve request."""

    game: object
    ray: str | None = None
    resume: bool = False
    preset: str | None = None
    plugins_dirs: tuple = ()
    algo: str = "mccfr-p"
    options: dict = attrs.field(factory=dict)
    auto_threads: bool = True
    threads: int = 1
    seed: int = 0


@pytest.mark.parametrize("case", ["turned off", "ray", "resume", "marked"])
def test_no_child_is_started_when_it_cannot_help(case, host, tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("GAMESOLVE_WARM", "0" if case == "turned off" else "1")
    request = Request(NLTHGame(players=2), ray="local" if case == "ray" else None, resume=case == "resume")
    if case == "marked":
        path = warm._marker(warm.warm_spec(request))
        path.parent.mkdir(parents=True)
        path.touch()
    assert warm.start_warm(request, host.pm) is None


def test_a_child_still_running_is_stopped_with_its_parent():
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    warm.stop_warm(child)
    assert child.poll() is not None
    warm.stop_warm(None)  # no child: nothing to do


def test_a_child_started_beside_another_checkout_runs_this_one(tmp_path, monkeypatch):
    """``python -m`` puts the working folder first on the child's path: run from a folder
    holding another ``gamesolve`` (a second clone's root), the child must still import this one."""
    other = tmp_path / "other-checkout"
    (other / "gamesolve").mkdir(parents=True)
    (other / "gamesolve" / "__init__.py").write_text("raise SystemExit(3)  # not this checkout's code\n")
    monkeypatch.chdir(other)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "kernels"))
    monkeypatch.setenv("GAMESOLVE_WARM", "1")
    child = warm.start_child("gamesolve.solve.warm", spec(), warm._marker(spec()))
    assert child.wait(timeout=120) == 0
    assert warm._marker(spec()).exists()
