"""`gamesolve solve --game liars_dice`: CFR+ through the command line, checked by open-spiel's
own NashConv of the exported policy (issue 11's acceptance line), and one-line errors."""


import pytest

from gamesolve.store.policy_store import read_policy
from tests.command_output import last_json
from tests.oracles.openspiel_walk import liars_dice_key, openspiel_tabular_policy


def test_games_lists_liars_dice_with_open_spiels_defaults(run):
    (row,) = last_json(run("games", "--json").stdout)["games"]
    assert row["name"] == "liars_dice" and row["players"] == [2, 2]
    assert row["parameters"] == {"players": 2, "dice": 1, "sides": 6, "bidding_rule": "reset-face"}


def cpp_nash_conv(os_game, policy):
    import pyspiel

    return pyspiel.nash_conv(os_game, pyspiel.TabularPolicy(policy.to_dict()), True)


def python_nash_conv(os_game, policy):
    from open_spiel.python.algorithms import exploitability

    return exploitability.nash_conv(os_game, policy)


@pytest.mark.oracle
@pytest.mark.parametrize(
    "open_spiels_nash_conv",
    # open-spiel's Python best response takes about 4 s longer than its C++ one: -m slow runs it.
    [cpp_nash_conv, pytest.param(python_nash_conv, marks=pytest.mark.slow)],
    ids=["pyspiel.nash_conv", "exploitability.nash_conv"],
)
def test_cfr_plus_nash_conv_is_open_spiels_nash_conv_of_the_exported_policy(run, tmp_path, open_spiels_nash_conv):
    pyspiel = pytest.importorskip("pyspiel")
    store = tmp_path / "liars.zarr"
    result = run("solve", "--game", "liars_dice", "--algo", "cfr+", "--iterations", 100, "--out", store, "--json")
    assert result.exit_code == 0, result.output
    ours = last_json(result.stdout)
    assert (ours["algo"], ours["iterations"], ours["infosets"]) == ("cfr+", 100, 24_576)

    os_game = pyspiel.load_game("liars_dice")
    stored = read_policy(store)
    theirs = open_spiels_nash_conv(os_game, openspiel_tabular_policy(os_game, stored, stored.average_policy, liars_dice_key))
    assert 0 < ours["nash_conv"] < 0.1  # a policy well on its way, not a degenerate one
    assert ours["nash_conv"] == pytest.approx(theirs, abs=1e-9)


@pytest.mark.parametrize(
    "params, message",
    [
        (["-p", "dice=0"], "parameter 'dice' must be at least 1, got 0"),
        (["-p", "sides=0"], "parameter 'sides' must be at least 1, got 0"),
        (["-p", "players=1"], "liars_dice is for 2 players, got 1"),
        (["--players", "3"], "liars_dice is for 2 players, got 3"),
        (["-p", "numdice=2"], "liars_dice has no parameter 'numdice' (parameters: bidding_rule, dice, sides)"),
        (["-p", "bidding_rule=reset-all"], "parameter 'bidding_rule' must be reset-face or reset-quantity, got 'reset-all'"),
        (["-p", "dice=two"], "parameter 'dice' expects int, got 'two'"),
    ],
)
def test_bad_parameters_get_one_line_and_status_2(run, params, message):
    result = run("solve", "--game", "liars_dice", "--iterations", 10, *params)
    assert result.exit_code == 2, result.output
    assert result.stderr.strip() == f"Error: {message}"


def test_two_dice_each_is_refused_by_tabular_solvers_at_once_with_its_size(run):
    result = run("solve", "--game", "liars_dice", "-p", "dice=2", "--algo", "cfr+", "--iterations", 10)
    assert result.exit_code == 2, result.output
    assert "43,486,542,835 histories, more than 50,000,000; too big for an explicit tree" in result.stderr
    assert "Traceback" not in result.output
