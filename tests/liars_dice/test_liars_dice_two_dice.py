"""Liar's Dice with two dice each: too many histories for the generic compiler or an explicit
tree (33.5 million on four sides), trained through the factored contract with exact
exploitability from the vector best response, on the command line."""


import pytest

from tests.command_output import last_json


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """A short mccfr-p run of 2 dice x 4 sides, kept in a store, and its summary."""
    from click.testing import CliRunner

    import gamesolve_liars_dice.plugin
    from gamesolve import cli as cli_module
    from gamesolve.plugins import make_plugin_manager

    host = make_plugin_manager(strict=True, entry_points=False, plugins=[gamesolve_liars_dice.plugin])
    out = tmp_path_factory.mktemp("two-dice") / "ld24"
    mp = pytest.MonkeyPatch()
    mp.setattr(cli_module, "plugin_host", lambda dirs=(): host)
    try:
        result = CliRunner().invoke(cli_module.cli, ["solve", "--game", "liars_dice", "-p", "dice=2", "-p", "sides=4",
                                                     "--algo", "mccfr-p", "--iterations", "20000", "--out", str(out), "--json"])  # fmt: skip
    finally:
        mp.undo()
    assert result.exit_code == 0, result.output
    return out, last_json(result.stdout)


def test_two_dice_train_with_mccfr_p_and_report_exact_exploitability(trained):
    _, summary = trained
    assert summary["iterations"] == 20000 and summary["evaluation"] == "vector best response over the factored form"
    assert 0 < summary["nash_conv"] < 2.0  # payoffs are +-1: a NashConv, not a placeholder
    assert summary["values"][0] == pytest.approx(-summary["values"][1])  # zero-sum, both evaluated


def test_exploitability_of_the_stored_run_equals_the_one_training_reported(trained, run):
    out, summary = trained
    result = run("exploitability", "--game", "liars_dice", "-p", "dice=2", "-p", "sides=4", "--store", out, "--json")
    assert result.exit_code == 0, result.output
    assert last_json(result.stdout)["nash_conv"] == pytest.approx(summary["nash_conv"], rel=1e-12)


def test_search_over_a_run_without_a_policy_store_plays_the_blueprint_average_only(trained, run):
    """``--search`` over such a run composes the agent on the factored form
    (tests/search/test_compose_form.py); the blueprint it plays is the store's average."""
    out, _ = trained
    result = run("exploitability", "--game", "liars_dice", "-p", "dice=2", "-p", "sides=4", "--store", out, "--search",
                 "--policy", "current")  # fmt: skip
    assert result.exit_code == 2 and result.stderr.strip().splitlines() == [
        "Error: --search plays the blueprint, which a training store holds as the average strategy (--policy average)"
    ]


def test_tabular_solvers_still_refuse_two_six_sided_dice_in_one_line(run):
    result = run("solve", "--game", "liars_dice", "-p", "dice=2", "--algo", "cfr+", "--iterations", 1)  # 43 billion histories
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error:")]  # (a progress line aside)
    assert result.exit_code == 2 and len(errors) == 1 and "too big" in errors[0] and "Traceback" not in result.stderr
