"""`gamesolve spot` on the command line: sizes as players write them, a JSON result with the
promised keys, and one-line errors for bad input."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from gamesolve import cli as cli_module
from gamesolve.cli import cli
from gamesolve.plugins import make_plugin_manager
from gamesolve_nlth import plugin as nlth_plugin
from gamesolve_nlth.spot.sizes import DEFAULT_BETS, parse_sizes
from gamesolve_nlth.spot.tree import ALLIN, SpotError

SPOT = {"--board": "QsJh2h8d3c", "--oop-range": "QQ,JJ,AK", "--ip-range": "TT+,AQs"}
RIVER = ["spot", *(x for kv in SPOT.items() for x in kv)]


@pytest.fixture
def run(monkeypatch):
    host = make_plugin_manager(strict=True, entry_points=False, plugins=[nlth_plugin])
    monkeypatch.setattr(cli_module, "plugin_host", lambda dirs=(): host)
    return lambda *args: CliRunner().invoke(cli, [str(a) for a in args])


def test_one_list_of_sizes_serves_every_street():
    sizes = parse_sizes("50%,100%,allin", DEFAULT_BETS)
    assert sizes == {s: (0.5, 1.0, ALLIN) for s in ("flop", "turn", "river")}


def test_sizes_per_street_leave_the_others_at_the_default():
    sizes = parse_sizes("flop=33%,75% river=allin", "100%")
    assert sizes == {"flop": (0.33, 0.75), "turn": (1.0,), "river": (ALLIN,)}


def test_sizes_without_a_street_fill_the_streets_not_named():
    assert parse_sizes("turn=none 60%", "100%") == {"flop": (0.6,), "turn": (), "river": (0.6,)}


@pytest.mark.parametrize("text", ["50", "fish", "-10%", "preflop=50%", "flop=50% flop=75%", "50% 75%"])
def test_bad_sizes_are_refused(text):
    with pytest.raises(SpotError):
        parse_sizes(text, DEFAULT_BETS)


def test_json_has_iterations_seconds_exploitability_and_the_root_strategy(run):
    result = run(*RIVER, "--target", "1%", "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert {"iterations", "seconds", "exploitability_pct_pot", "root"} <= set(out)
    assert out["exploitability_pct_pot"] <= 1.0
    assert set(out["root"]) == {"check", "bet 500 (50%)", "bet 1000 (100%)", "allin"}
    assert sum(out["root"].values()) == pytest.approx(1.0)
    assert set(out["classes"]) == {"QQ", "JJ", "AKs", "AKo"}


def test_the_text_report_shows_the_exploitability_and_each_hand_class(run):
    result = run(*RIVER, "--target", "1%")
    assert result.exit_code == 0, result.output
    assert "% of the pot" in result.output
    assert "\n  QQ " in result.output and "\n  AKo " in result.output


@pytest.mark.parametrize("option, value, message", [
    ("--board", "QsJh", "3, 4 or 5"),
    ("--oop-range", "AX", "not a hand class"),
    ("--bets", "big", "not a bet size"),
    ("--target", "low", "not a percentage"),
    ("--oop-range", "Qs2c", "holds no hand"),
])  # fmt: skip
def test_bad_input_is_one_line(run, option, value, message):
    options = {**SPOT, option: value}
    result = run("spot", *(x for kv in options.items() for x in kv))
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def test_ranges_that_block_each_other_are_one_line(run):
    result = run("spot", "--board", "QsJh2h8d3c", "--oop-range", "AsAh", "--ip-range", "AsAh,AhKh")
    assert result.exit_code == 2
    assert "block each other" in result.output and "Traceback" not in result.output


def test_a_line_shows_the_strategy_of_the_player_to_act_there(run):
    result = run(*RIVER, "--target", "1%", "--line", "check", "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["line"] == ["check"] and out["line_player"] == "ip"
    assert set(out["line_strategy"]) == {"check", "bet 500 (50%)", "bet 1000 (100%)", "allin"}
    assert sum(out["line_strategy"].values()) == pytest.approx(1.0)
    assert set(out["line_classes"]) == {"AA", "KK", "QQ", "JJ", "TT", "AQs"}
    text = run(*RIVER, "--target", "1%", "--line", "check").output
    assert "in position after check, over the range:" in text


@pytest.mark.parametrize("line, message", [
    ("bet 700", "the choices are check, bet 500 (50%)"),
    ("check,check", "ends the hand"),
    ("check,,bet 500", "an empty action"),
])  # fmt: skip
def test_a_bad_line_is_one_line_before_solving(run, line, message):
    result = run(*RIVER, "--line", line)
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output and "solving" not in result.output


def test_a_line_may_name_the_card_dealt_next(run):
    result = run("spot", "--board", "QsJh2h8d", "--oop-range", "QQ,JJ,AK", "--ip-range", "TT+,AQs", "--max-iterations", "5",
                 "--line", "check, check, Kd", "--json")  # fmt: skip
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["line"] == ["check", "check", "Kd"] and out["line_player"] == "oop"
    assert sum(out["line_strategy"].values()) == pytest.approx(1.0)
