"""The promise to a plugin author: a game with only the State contract (Liar's Dice has no
compile hook) gets every solver, checkpoints, resumes and searches. Four-sided dice keep it
quick."""


import pytest
from click.testing import CliRunner

import gamesolve_liars_dice.plugin
from gamesolve.cli import cli
from gamesolve.plugins import make_plugin_manager
from tests.command_output import last_json


@pytest.fixture
def run(monkeypatch):
    host = make_plugin_manager(strict=True, entry_points=False, plugins=[gamesolve_liars_dice.plugin])
    monkeypatch.setattr("gamesolve.cli.plugin_host", lambda plugins_dirs=(): host)

    def invoke(*args):
        return CliRunner().invoke(cli, list(args), catch_exceptions=False)

    return invoke


def test_the_plugin_has_no_compile_hook():
    assert not hasattr(gamesolve_liars_dice.plugin, "gamesolve_compile_game")


@pytest.mark.parametrize("algo", ["cfr", "cfr+", "lcfr", "dcfr", "vcfr", "mccfr", "mccfr-p"])
def test_every_solver_solves_a_state_contract_game(run, algo):
    budget = ["--iterations", "30000"] if algo.startswith("mccfr") else ["--iterations", "50"]
    result = run("solve", "--game", "liars_dice", "-p", "sides=4", "--algo", algo, *budget, "--json")
    assert result.exit_code == 0, result.output
    out = last_json(result)
    assert out["algo"] == algo and 0 <= out["nash_conv"] < 0.5


def test_mccfr_p_trains_checkpoints_resumes_and_searches(run, tmp_path):
    store = str(tmp_path / "ld")
    first = run("solve", "--game", "liars_dice", "-p", "sides=4", "--algo", "mccfr-p", "--iterations", "20000", "--out", store, "--json")
    assert first.exit_code == 0, first.output
    resumed = run("solve", "--game", "liars_dice", "-p", "sides=4", "--algo", "mccfr-p", "--iterations", "20000", "--out", store, "--resume", "--json")
    assert resumed.exit_code == 0, resumed.output
    assert last_json(resumed)["iterations"] == 40000
    assert last_json(resumed)["nash_conv"] <= last_json(first)["nash_conv"] * 1.5
    searched = run("exploitability", "--game", "liars_dice", "--store", store, "--search", "-s", "iterations=50", "--json")
    assert searched.exit_code == 0, searched.output
    out = last_json(searched)
    assert out["search"]["searches"] >= 1 and out["nash_conv"] >= 0
