"""NLTH on the command line: the card-abstraction build shows progress, short runs say they are
a demonstration, hand histories are checked before the match, one-player trees are refused."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from gamesolve import cli as cli_module
from gamesolve.cli import cli
from gamesolve.plugins import make_plugin_manager
from gamesolve_nlth import plugin as nlth_plugin
from gamesolve_nlth.blueprint.summary import trust_note


class Built(Exception):
    pass


@pytest.fixture
def run(monkeypatch):
    host = make_plugin_manager(strict=True, entry_points=False, plugins=[nlth_plugin])
    monkeypatch.setattr(cli_module, "plugin_host", lambda dirs=(): host)
    return lambda *args: CliRunner().invoke(cli, [str(a) for a in args])


def test_solve_shows_the_card_abstraction_build(run, tmp_path, monkeypatch):
    """With an empty cache, `solve` builds the abstraction first: it says so and hands the
    build its progress bar (the build itself is replaced here: it takes a minute or two)."""
    from gamesolve_nlth.abstraction import card_abstraction

    seen = {}

    def build(params, threads, progress, path, save, cluster=None):
        seen["progress"] = progress
        raise Built

    monkeypatch.setenv("GAMESOLVE_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(card_abstraction, "_build", build)
    result = run("solve", "--game", "nlth", "--iterations", "10")
    assert isinstance(result.exception, Built)
    assert type(seen["progress"]).__name__ == "BarProgress"
    assert "building card abstraction" in result.stderr and str(tmp_path) in result.stderr


def test_a_short_run_says_it_is_a_demonstration(trained):
    _, result = trained
    assert result["demonstration"] is True
    assert any("is a demonstration" in line and "20 minutes" in line for line in result["summary"])
    assert trust_note("tiny", 25 * 60) is None and "3.0 minutes" in trust_note("tiny", 180)
    assert "8 days" in trust_note("pluribus", 3600)


def test_an_unwritable_hand_history_path_is_refused_before_the_match(run, tmp_path, monkeypatch):
    from gamesolve.evaluate import match

    monkeypatch.setattr(match, "play_match", lambda *a, **k: pytest.fail("the match was played"))
    (tmp_path / "file").write_text("x")
    for hh in (tmp_path / "file" / "hands", tmp_path / "file" / "hands.phhs"):
        result = run("match", "--game", "nlth", "--agents", "call,call", "--hands", "2", "--hh", hh)
        assert result.exit_code == 2 and "cannot write --hh" in result.stderr, result.output


def test_existing_hand_histories_are_replaced_only_with_force(run, tmp_path):
    hh = tmp_path / "hands"
    assert run("match", "--game", "nlth", "--agents", "call,call", "--hands", "4", "--hh", hh).exit_code == 0
    assert len(list(hh.iterdir())) == 4
    assert "--force" in run("match", "--game", "nlth", "--agents", "call,call", "--hands", "2", "--hh", hh).stderr
    assert run("match", "--game", "nlth", "--agents", "call,call", "--hands", "2", "--hh", hh, "--force").exit_code == 0
    assert len(list(hh.iterdir())) == 2  # none of the old ones left mixed in


def test_abstraction_info_refuses_one_player(run):
    result = run("abstraction", "info", "--players", "1")
    assert result.exit_code == 2 and "1 is not in the range 2<=x<=9" in result.stderr


def test_solve_and_abstraction_info_give_the_same_memory_estimate(run, monkeypatch):
    """One estimate: `solve` prints, before it builds anything, the line `abstraction info` ends with."""
    from gamesolve_nlth.blueprint import form

    def build(*args, **kwargs):
        raise Built

    monkeypatch.setattr(form, "nlth_form", build)
    info = run("abstraction", "info", "--preset", "tiny")
    solve = run("solve", "--game", "nlth", "--preset", "tiny", "--iterations", "10")
    assert isinstance(solve.exception, Built)
    line = info.output.strip().splitlines()[-1]
    assert line.startswith("blueprint memory: ") and "GiB" in line
    assert " ".join(line.split()) in " ".join(solve.stderr.split())  # the bar's console wraps long lines


def machine_with(monkeypatch, ram: int) -> None:
    from gamesolve_nlth.blueprint import memory

    monkeypatch.setattr(memory.psutil, "virtual_memory", lambda: type("VM", (), {"total": ram})())


def test_solve_refuses_a_preset_larger_than_this_machine_with_the_estimate(run, monkeypatch):
    machine_with(monkeypatch, 2**24)  # tiny needs 0.1 GiB
    solve = run("solve", "--game", "nlth", "--preset", "tiny", "--iterations", "10")
    assert solve.exit_code == 2 and "needs about 0.1 GiB" in solve.stderr and "with lazy allocation" in solve.stderr


def test_solve_stops_counting_a_tree_ten_times_too_large_for_this_machine(run, monkeypatch):
    machine_with(monkeypatch, 2**20)
    solve = run("solve", "--game", "nlth", "--preset", "tiny", "--iterations", "10")
    assert solve.exit_code == 2 and "needs more than" in solve.stderr and "the betting tree has more than" in solve.stderr
