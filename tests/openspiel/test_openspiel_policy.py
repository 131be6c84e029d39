"""Policies of openspiel: games as open-spiel TabularPolicy objects and files, and back:
open-spiel's own NashConv of an exported policy is gamesolve's, and a policy open-spiel's
CFR+ computed, imported, has gamesolve's exact NashConv equal to open-spiel's."""

from __future__ import annotations

import json

import pytest

from gamesolve.errors import UserError
from gamesolve.evaluate.best_response import evaluate_policy
from gamesolve.game.compile import compiled_tree
from gamesolve.openspiel.policy import from_tabular_policy, policy_table, to_tabular_policy
from gamesolve.solve.cfr import TABULAR_ALGORITHMS, TabularCFR
from tests.command_output import succeeded

pyspiel = pytest.importorskip("pyspiel")
pytestmark = pytest.mark.oracle

LEDUC = "openspiel:leduc_poker"


@pytest.fixture(scope="module")
def leduc(os_host):
    game = os_host.game_spec(LEDUC).create(None)
    tree = compiled_tree(game)
    solver = TabularCFR(tree, TABULAR_ALGORITHMS["cfr+"])
    solver.run(50)
    return game, tree, solver.average_policy()


def test_a_policy_becomes_a_tabular_policy_open_spiel_evaluates_as_gamesolve_does(leduc):
    from open_spiel.python.algorithms import exploitability

    game, tree, policy = leduc
    tabular = to_tabular_policy(game.os_game, policy_table(tree, policy))
    ours = evaluate_policy(tree, policy).nash_conv
    assert exploitability.nash_conv(game.os_game, tabular) == pytest.approx(ours, abs=1e-9)
    assert from_tabular_policy(tabular, tree) == pytest.approx(policy, abs=1e-15)


def test_open_spiels_cfr_plus_policy_imported_has_open_spiels_nash_conv(leduc):
    game, tree, _ = leduc
    solver = pyspiel.CFRPlusSolver(game.os_game)
    for _ in range(30):
        solver.evaluate_and_update_policy()
    theirs = solver.tabular_average_policy()
    ours = evaluate_policy(tree, from_tabular_policy(theirs, tree)).nash_conv
    assert ours == pytest.approx(pyspiel.nash_conv(game.os_game, theirs), abs=1e-9)


def test_a_table_missing_an_information_state_is_refused(leduc):
    game, tree, policy = leduc
    table = policy_table(tree, policy)
    table.pop(next(iter(table)))
    with pytest.raises(UserError, match="no strategy for"):
        from_tabular_policy(table, tree)
    with pytest.raises(UserError, match="no strategy for"):
        to_tabular_policy(game.os_game, table)


def test_export_writes_a_file_open_spiel_loads_and_import_reads_it_back(run, tmp_path):
    store, out, back = tmp_path / "kuhn.zarr", tmp_path / "kuhn.json", tmp_path / "back.zarr"
    solved = succeeded(run("solve", "--game", "openspiel:kuhn_poker", "--iterations", 300, "--out", store, "--json"))
    exported = succeeded(run("export", "--store", store, "--format", "openspiel", "--out", out, "--json"))
    assert exported["infosets"] == 12
    document = json.loads(out.read_text())
    os_game = pyspiel.load_game(document["openspiel_game"])
    assert pyspiel.nash_conv(os_game, pyspiel.TabularPolicy(document["policy"])) == pytest.approx(solved["nash_conv"], abs=1e-12)
    succeeded(run("import", out, "--format", "openspiel", "--out", back, "--json"))
    again = succeeded(run("exploitability", "--game", "openspiel:kuhn_poker", "--store", back, "--json"))
    assert again["nash_conv"] == pytest.approx(solved["nash_conv"], abs=1e-12) and again["algo"] == "imported"


def test_a_bare_table_imports_with_the_game_named(run, tmp_path):
    os_game = pyspiel.load_game("kuhn_poker")
    solver = pyspiel.CFRPlusSolver(os_game)
    for _ in range(20):
        solver.evaluate_and_update_policy()
    table = tmp_path / "table.json"
    table.write_text(json.dumps(solver.tabular_average_policy().policy_table()))
    assert run("import", table, "--format", "openspiel", "--out", tmp_path / "s").exit_code == 2  # which game?
    succeeded(run("import", table, "--format", "openspiel", "--game", "openspiel:kuhn_poker", "--out", tmp_path / "s", "--json"))
    ours = succeeded(run("exploitability", "--game", "openspiel:kuhn_poker", "--store", tmp_path / "s", "--json"))
    assert ours["nash_conv"] == pytest.approx(pyspiel.nash_conv(os_game, solver.average_policy()), abs=1e-12)


def test_export_is_for_openspiel_games_only(run, tmp_path):
    succeeded(run("solve", "--game", "kuhn", "--iterations", 10, "--out", tmp_path / "k", "--json"))
    result = run("export", "--store", tmp_path / "k", "--format", "openspiel", "--out", tmp_path / "k.json")
    assert result.exit_code == 2 and "is for openspiel: games" in result.output
