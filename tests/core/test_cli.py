"""The command line: solve, exploitability, games, plugins, and one-line errors for bad input."""


import pytest
from click.testing import CliRunner

from gamesolve import cli as cli_module
from gamesolve.cli import cli
from tests.command_output import last_json


@pytest.fixture
def run(host, monkeypatch):
    """Invoke the CLI with the strict test host (toy games registered directly)."""
    monkeypatch.setattr(cli_module, "plugin_host", lambda dirs=(): host if not dirs else _with_dirs(dirs))

    def invoke(*args):
        return CliRunner().invoke(cli, list(args), catch_exceptions=False)

    return invoke


def _with_dirs(dirs):
    import gamesolve_kuhn.plugin
    import gamesolve_leduc.plugin

    from gamesolve.plugins import make_plugin_manager

    return make_plugin_manager(
        strict=True, entry_points=False, plugins=[gamesolve_kuhn.plugin, gamesolve_leduc.plugin], plugins_dirs=dirs
    )


def test_solve_json_reports_the_agreed_keys(run, tmp_path):
    result = run("solve", "--game", "kuhn", "--algo", "cfr+", "--iterations", "1000", "--out", str(tmp_path / "k.zarr"), "--json")
    assert result.exit_code == 0, result.output
    data = last_json(result.stdout)
    assert {"game", "players", "algo", "iterations", "seconds", "nash_conv", "exploitability", "game_value", "store"} <= set(data)
    assert data["game"] == "kuhn" and data["players"] == 2 and data["iterations"] == 1000
    assert data["exploitability"] < 1e-4 and data["game_value"] == pytest.approx(-1 / 18, abs=1e-3)


def test_exploitability_of_a_store_equals_the_solve_report(run, tmp_path):
    store = str(tmp_path / "l.zarr")
    solved = last_json(run("solve", "--game", "leduc", "--algo", "dcfr", "--iterations", "50", "--out", store, "--json").stdout)
    checked = run("exploitability", "--game", "leduc", "--store", store, "--json")
    assert checked.exit_code == 0, checked.output
    assert last_json(checked.stdout)["nash_conv"] == pytest.approx(solved["nash_conv"], abs=1e-12)


def test_exploitability_with_search_evaluates_the_search_agent_over_the_stored_blueprint(run, tmp_path):
    """Kuhn has one betting round, so a search from the first decision solves the whole game:
    the search agent over a barely trained blueprint is close to an equilibrium."""
    store = str(tmp_path / "k.zarr")
    run("solve", "--game", "kuhn", "--algo", "cfr", "--iterations", "5", "--out", store, "--json")
    blueprint = last_json(run("exploitability", "--game", "kuhn", "--store", store, "--json").stdout)
    searched = run("exploitability", "--game", "kuhn", "--store", store, "--search", "-s", "play=average", "--json")
    assert searched.exit_code == 0, searched.output
    data = last_json(searched.stdout)
    assert data["search"]["k"] == 4 and data["search"]["play"] == "average" and data["search"]["searches"] >= 1
    assert blueprint["exploitability"] > 0.05
    assert data["exploitability"] < 0.01


def test_a_search_option_implies_search_and_reaches_the_agent(run, tmp_path):
    store = str(tmp_path / "k.zarr")
    run("solve", "--game", "kuhn", "--algo", "cfr", "--iterations", "5", "--out", store, "--json")
    data = last_json(run("exploitability", "--game", "kuhn", "--store", store, "-s", "k=1", "-s", "iterations=50", "--json").stdout)
    assert data["search"]["k"] == 1 and data["search"]["iterations"] == 50


def test_a_bad_search_option_is_a_one_line_error(run, tmp_path):
    store = str(tmp_path / "k.zarr")
    run("solve", "--game", "kuhn", "--iterations", "5", "--out", store, "--json")
    for option, message in (("k=9", "at most 4"), ("depth=soon", "depth"), ("colour=red", "unknown search option")):
        result = run("exploitability", "--game", "kuhn", "--store", store, "-s", option)
        assert result.exit_code == 2 and message in result.output and "Traceback" not in result.output


def test_a_tabular_solver_takes_the_summation_order_and_a_bad_one_is_a_one_line_error(run):
    for order in ("fast", "openspiel"):
        data = last_json(run("solve", "--game", "kuhn", "--algo", "cfr+", "--iterations", "100", "-o", f"order={order}", "--json").stdout)
        assert data["exploitability"] < 0.002
    for option, message in (("order=sideways", "-o order must be one of fast, openspiel; got 'sideways'"),
                            ("colour=red", "cfr+ has no solver option colour (its options: order)")):  # fmt: skip
        result = run("solve", "--game", "kuhn", "--algo", "cfr+", "--iterations", "10", "-o", option)
        assert result.exit_code == 2 and message in result.output and "Traceback" not in result.output
        assert len(result.output.strip().splitlines()) == 1


def test_search_on_a_game_with_hidden_actions_is_a_one_line_error(run, tmp_path, example_plugin_path):
    store = str(tmp_path / "rps.zarr")
    run("--plugins-dir", str(example_plugin_path), "solve", "--game", "biased-rps", "--iterations", "10", "--out", store)
    result = run("--plugins-dir", str(example_plugin_path), "exploitability", "--game", "biased-rps", "--store", store, "--search")
    assert result.exit_code == 2 and "hidden action" in result.output and "Traceback" not in result.output


def test_agents_lists_the_core_policy_and_search_agents(run):
    result = run("agents", "--json")
    assert result.exit_code == 0, result.output
    rows = {r["name"]: r for r in last_json(result.stdout)["agents"]}
    assert rows["policy"]["games"] == "any" and rows["search"]["plugin"] == "gamesolve.search.player"


def test_players_option_changes_the_game(run):
    data = last_json(run("solve", "--game", "kuhn", "--players", "3", "--iterations", "10", "--json").stdout)
    assert data["players"] == 3 and data["infosets"] == 48


def test_players_as_a_param_changes_the_game(run):
    data = last_json(run("solve", "--game", "kuhn", "-p", "players=3", "--iterations", "10", "--json").stdout)
    assert data["players"] == 3 and data["infosets"] == 48


def test_readable_summary_without_json(run):
    result = run("solve", "--game", "kuhn", "--iterations", "20")
    assert result.exit_code == 0
    assert "exploitability" in result.stdout and "game value" in result.stdout


def test_the_summary_warns_of_dropped_rows_and_saturated_regrets(run, monkeypatch):
    import re

    from gamesolve.solve import mccfr_solver
    from gamesolve.solve.mccfr import MCCFRTrainer

    class FirstRoundOnly(MCCFRTrainer):  # tables with room for the first round's rows only
        def __init__(self, form, config, **kwargs):
            super().__init__(form, config, capacity=int(form.row_sizes()[form.node_round == 0].sum()), **kwargs)

    monkeypatch.setattr(mccfr_solver, "MCCFRTrainer", FirstRoundOnly)
    # 1e9 regret units per chip: a single regret update overflows int32.
    result = run("solve", "--game", "leduc", "--algo", "mccfr-p", "--iterations", "2000", "-o", "regret_scale=1e9")
    assert result.exit_code == 0, result.output
    line = re.search(r"warning +([\d,]+) row allocations dropped \(tables or a thread's reservoir full\), ([\d,]+) regret updates clipped", result.stdout)
    assert line, result.stdout
    dropped, saturated = (int(x.replace(",", "")) for x in line.groups())
    assert dropped > 0 and saturated > 0
    data = last_json(run("solve", "--game", "leduc", "--algo", "mccfr-p", "--iterations", "2000", "-o", "regret_scale=1e9", "--json").stdout)
    assert (data["dropped_rows"], data["saturated_regrets"]) == (dropped, saturated)  # one seed: the same run


def test_no_warning_line_when_nothing_was_dropped_or_clipped(run):
    result = run("solve", "--game", "leduc", "--algo", "mccfr-p", "--iterations", "2000")
    assert result.exit_code == 0, result.output
    assert "warning" not in result.stdout


@pytest.mark.parametrize(
    "args, message",
    [
        (["solve", "--game", "chess", "--iterations", "5"], "unknown game 'chess'"),
        (["solve", "--game", "kuhn", "--algo", "magic", "--iterations", "5"], "unknown solver 'magic'"),
        (["solve", "--game", "kuhn", "--players", "1", "--iterations", "5"], "2 to 10 players"),
        (["solve", "--game", "kuhn", "-p", "players=1", "--iterations", "5"], "2 to 10 players"),
        (["solve", "--game", "kuhn", "--players", "2", "-p", "players=3", "--iterations", "5"], "disagree"),
        (["solve", "--game", "kuhn", "--iterations", "0"], "must be positive"),
        (["solve", "--game", "kuhn", "--iterations", "-3"], "must be positive"),
        (["solve", "--game", "kuhn", "--iterations", "many"], "positive number"),
        (["solve", "--game", "kuhn"], "needs --iterations"),
        (["solve", "--game", "kuhn", "--iterations", "5", "--param", "deck=3"], "no parameter 'deck'"),
        (["exploitability", "--game", "kuhn", "--store", "/nonexistent/x.zarr"], "no policy store"),
        (["solve", "--iterations", "5"], "Missing option '--game'"),
        (["solve", "--game", "leduc", "--algo", "mccfr-p", "--iterations", "5", "-o", "checkpoint=30s"], "is --checkpoint 30s"),
    ],
)
def test_bad_input_gets_one_line_and_status_2(run, args, message):
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.output


def test_store_of_another_game_is_refused(run, tmp_path):
    store = str(tmp_path / "k.zarr")
    run("solve", "--game", "kuhn", "--iterations", "5", "--out", store)
    result = run("exploitability", "--game", "leduc", "--store", store)
    assert result.exit_code == 2 and "holds a strategy for kuhn, not leduc" in result.stderr


def test_foreign_folder_is_not_a_store(run, tmp_path):
    (tmp_path / "junk").mkdir()
    result = run("exploitability", "--game", "kuhn", "--store", str(tmp_path / "junk"))
    assert result.exit_code == 2 and "not a gamesolve policy store" in result.stderr


def test_games_lists_registered_games(run):
    result = run("games")
    assert "kuhn" in result.stdout and "leduc" in result.stdout


def test_plugins_lists_hooks(run):
    assert "gamesolve_register_games" in run("plugins").stdout


def test_plugins_dir_adds_a_local_game(run, example_plugin_path):
    result = run("--plugins-dir", str(example_plugin_path), "solve", "--game", "biased-rps", "--iterations", "2000", "--json")
    assert result.exit_code == 0, result.output
    assert last_json(result.stdout)["exploitability"] < 1e-3


def test_missing_plugins_dir_is_an_input_error(run):
    result = run("--plugins-dir", "/nonexistent/plugins", "games")
    assert result.exit_code == 2 and "no plugin file or folder" in result.stderr
