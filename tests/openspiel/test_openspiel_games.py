"""`--game openspiel:NAME[(params)]`: any open-spiel game through the State contract. CFR+
from the command line reaches the NashConv of open-spiel's own CFR+ after as many iterations
(in open-spiel's summation order, `-o order=openspiel`, and close to it in the fast order);
every other solver, the exact best response and search run on it; bad names and parameters,
imperfect recall and trees far too big are one line each."""

from __future__ import annotations

import functools
import sys

import gamesolve_leduc.plugin
import pytest

from gamesolve.evaluate.best_response import evaluate_policy
from gamesolve.game.compile import compiled_tree
from gamesolve.plugins import make_plugin_manager
from gamesolve.solve.cfr import TABULAR_ALGORITHMS, TabularCFR
from tests.command_output import succeeded

pyspiel = pytest.importorskip("pyspiel")
pytestmark = pytest.mark.oracle


@functools.cache
def open_spiels_cfr_plus_on(text: str, iterations: int) -> float:
    os_game = pyspiel.load_game(text)
    if os_game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS:
        os_game = pyspiel.convert_to_turn_based(os_game)
    return open_spiels_cfr_plus(os_game, iterations)


def open_spiels_cfr_plus(os_game, iterations: int) -> float:
    solver = pyspiel.CFRPlusSolver(os_game)
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    return pyspiel.nash_conv(os_game, solver.average_policy())


GAMES = [
    "kuhn_poker",
    "kuhn_poker(players=3)",
    "leduc_poker",
    "goofspiel(num_cards=4,imp_info=true,points_order=descending)",  # simultaneous moves, no chance
    "goofspiel(num_cards=3,imp_info=true)",  # simultaneous moves and public chance (the prize cards)
    "oshi_zumo(coins=3,size=1,horizon=3)",  # a non-poker game of simultaneous moves
    pytest.param("liars_dice", marks=pytest.mark.slow),  # 294,883 histories: about 25 s with open-spiel's side
]


@pytest.mark.parametrize("text", GAMES)
def test_cfr_plus_from_the_command_line_reaches_open_spiels_nash_conv(run, text):
    """In open-spiel's summation order CFR+ follows open-spiel's iterates through exact ties."""
    ours = succeeded(run("solve", "--game", f"openspiel:{text}", "--algo", "cfr+", "--iterations", 100,
                         "-o", "order=openspiel", "--json"))  # fmt: skip
    assert ours["nash_conv"] == pytest.approx(open_spiels_cfr_plus_on(text, 100), abs=1e-6)
    assert ours["nash_conv"] > 1e-4  # 100 iterations are not an equilibrium: the figures could differ


TIES = {"oshi_zumo(coins=3,size=1,horizon=3)"}
"""Games where the fast order leaves open-spiel's iterates within 100 iterations: actions with
equal values in exact arithmetic sum to values a rounding apart, and regret matching+ keeps a
regret of 1e-17 that open-spiel clips to zero."""


@pytest.mark.parametrize("text", GAMES)
def test_cfr_plus_in_the_fast_order_reaches_open_spiels_nash_conv(run, text):
    """The default (fast) summation order is the same algorithm: NashConv equal to
    open-spiel's to 1e-9 relative after 100 iterations, or within 2% where exact ties part
    the iterates (oshi_zumo: 0.5%)."""
    ours = succeeded(run("solve", "--game", f"openspiel:{text}", "--algo", "cfr+", "--iterations", 100, "--json"))
    theirs = open_spiels_cfr_plus_on(text, 100)
    assert ours["nash_conv"] == pytest.approx(theirs, rel=0.02 if text in TIES else 1e-9)


def test_open_spiels_leduc_is_gamesolve_s_leduc():
    """The adapter presents the same game: the same tree, and CFR+ the same exploitability."""
    host = make_plugin_manager(strict=True, entry_points=False, plugins=[gamesolve_leduc.plugin])
    ours = [host.game_spec(name).create(None) for name in ("leduc", "openspiel:leduc_poker")]
    results = []
    for game in ours:
        tree = compiled_tree(game)
        solver = TabularCFR(tree, TABULAR_ALGORITHMS["cfr+"])
        solver.run(50)
        results.append((tree.num_nodes, tree.num_infosets, evaluate_policy(tree, solver.average_policy()).nash_conv))
    assert results[0][:2] == results[1][:2] == (9457, 936)
    assert results[0][2] == pytest.approx(results[1][2], abs=1e-12)


@pytest.mark.parametrize("algo, option", [("vcfr", []), ("mccfr-p", ["--seed", "3"])])
def test_every_solver_runs_on_an_open_spiel_game(run, algo, option):
    iterations = 300 if algo == "vcfr" else 30000
    result = succeeded(run("solve", "--game", "openspiel:leduc_poker", "--algo", algo, "--iterations", iterations, *option, "--json"))
    assert result["game"] == "openspiel:leduc_poker" and result["exploitability"] < 0.2  # uniform play: 2.37


def test_a_hidden_move_shares_rows_in_the_factored_form(run):
    """goofspiel's second mover does not see the first's bid: vector CFR (over the generic
    compiler's factored form) still solves it, to the exploitability tabular CFR reaches."""
    text = "openspiel:goofspiel(num_cards=3,imp_info=true)"
    vector = succeeded(run("solve", "--game", text, "--algo", "vcfr", "--iterations", 2000, "--json"))
    assert vector["exploitability"] < 1e-3


def test_search_over_open_spiels_kuhn_equals_search_over_gamesolve_s_kuhn(run, tmp_path):
    results = []
    for name in ("kuhn", "openspiel:kuhn_poker"):
        store = tmp_path / name.replace(":", "-")
        succeeded(run("solve", "--game", name, "--iterations", 200, "--out", store, "--json"))
        results.append(succeeded(run("exploitability", "--game", name, "--store", store, "--search", "-s", "k=3", "--json")))
    assert results[0]["search"]["searches"] == results[1]["search"]["searches"] > 0
    assert results[0]["nash_conv"] == pytest.approx(results[1]["nash_conv"], abs=1e-12)


@pytest.mark.parametrize("text, message", [
    ("openspiel:nosuch", "open-spiel has no game 'nosuch'"),
    ("openspiel:goofspel", "did you mean goofspiel?"),
    ("openspiel:goofspiel(nocard=3)", "goofspiel has no parameter 'nocard'"),
    ("openspiel:goofspiel(num_cards=x)", "'num_cards' expects an integer, got 'x'"),
    ("openspiel:goofspiel(imp_info=maybe)", "'imp_info' expects true or false"),
    ("openspiel:kuhn_poker(players=1)", "is for 2 to 10 players, got 1"),
    ("openspiel:kuhn_poker(players=3", "expected NAME or NAME(KEY=VALUE,...)"),
    ("openspiel:markov_soccer", "no information-state strings"),
    ("openspiel:goofspiel(num_cards=4,points_order=descending)", "breaks perfect recall"),
    ("openspiel:chess", "histories (estimated along random paths), far more than 50,000,000"),
])  # fmt: skip
def test_games_gamesolve_cannot_take_are_refused_in_one_line(run, text, message):
    result = run("solve", "--game", text, "--iterations", 10, "--json")  # --json: no progress bar in the output
    assert result.exit_code == 2, result.output
    assert message in result.output and len(result.output.strip().splitlines()) == 1, result.output


def test_without_open_spiel_the_error_says_how_to_install_it(run, monkeypatch):
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    result = run("solve", "--game", "openspiel:kuhn_poker", "--iterations", 10)
    assert result.exit_code == 2 and "pip install 'gamesolve[openspiel]'" in result.output


def test_parameters_go_in_the_name_or_with_p_but_not_both(run):
    inline = succeeded(run("solve", "--game", "openspiel:goofspiel(num_cards=3,imp_info=true)", "--iterations", 10, "--json"))
    flags = succeeded(run("solve", "--game", "openspiel:goofspiel", "-p", "num_cards=3", "-p", "imp_info=true",
                          "--iterations", 10, "--json"))  # fmt: skip
    assert inline["nash_conv"] == flags["nash_conv"] and inline["params"]["num_cards"] == "3"
    result = run("solve", "--game", "openspiel:goofspiel(num_cards=3)", "-p", "num_cards=4", "--iterations", 10)
    assert result.exit_code == 2 and "num_cards is given twice" in result.output
