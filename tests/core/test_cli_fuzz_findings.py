"""Regressions for what the command-line fuzz (test_cli_fuzz.py) found: each one a command
line that ended in a traceback, a wrong exit status or a rejection of more than one line."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from click.testing import CliRunner

from gamesolve.cli import cli


def refusal(args: list[str]) -> str:
    """The one ``Error:`` line of a rejected command line (exit status 2, nothing else on stderr)."""
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 2, (result.exit_code, result.output)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    return lines[0]


def test_a_missing_choice_option_is_refused_in_one_line_naming_the_choices(tmp_path):
    # click words it "Missing option '--format'. Choose from:\n\topenspiel"
    line = refusal(["export", "--store", tmp_path / "s", "--out", tmp_path / "p.json"])
    assert "--format" in line and "openspiel" in line


@pytest.fixture(scope="module")
def table(tmp_path_factory) -> Path:
    """An open-spiel policy table, as `gamesolve export` writes it."""
    root = tmp_path_factory.mktemp("table")
    for args in (["solve", "--game", "openspiel:kuhn_poker", "--algo", "cfr+", "--iterations", "2", "--out", root / "store"],
                 ["export", "--store", root / "store", "--format", "openspiel", "--out", root / "policy.json"]):  # fmt: skip
        assert CliRunner().invoke(cli, [str(a) for a in args]).exit_code == 0
    return root / "policy.json"


@pytest.mark.parametrize("command", [["solve", "--game", "kuhn", "--iterations", "2"], ["import", "{table}", "--format", "openspiel"]],
                         ids=["solve", "import"])  # fmt: skip
@pytest.mark.parametrize("out", ["", ".", ".."])
def test_an_out_path_without_a_name_of_its_own_is_refused_and_leaves_nothing_behind(tmp_path, monkeypatch, table, command, out):
    # in an empty folder, --out '' passed every check and the write then failed on Path('.').with_name
    (tmp_path / "here").mkdir()
    monkeypatch.chdir(tmp_path / "here")
    line = refusal([a.replace("{table}", str(table)) for a in command] + ["--out", out])
    assert "names no folder of its own" in line
    assert list((tmp_path / "here").iterdir()) == []


@pytest.fixture
def no_server(monkeypatch):
    """uvicorn.run, which must not be reached: the address is checked before."""
    import uvicorn

    def reached(*args, **kwargs):
        raise AssertionError("the server started")

    monkeypatch.setattr(uvicorn, "run", reached)


def test_serve_on_a_port_in_use_is_refused_in_one_line(tmp_path, no_server):
    # uvicorn logged "[Errno 98] ... address already in use" over several lines and exited 1
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        line = refusal(["serve", "--game", "nlth", "--agents", "call", "--port", port, "--data", tmp_path / "data"])
    assert f"cannot listen on 127.0.0.1:{port}" in line
    assert not (tmp_path / "data").exists()


def test_serve_on_an_address_of_another_machine_is_refused_in_one_line(tmp_path, no_server):
    # 192.0.2.1 (TEST-NET-1, RFC 5737): a numeric address, no name lookup; uvicorn exited 1
    line = refusal(["serve", "--game", "nlth", "--agents", "call", "--host", "192.0.2.1", "--port", "0", "--data", tmp_path / "data"])
    assert "cannot listen on 192.0.2.1:0" in line


@pytest.mark.parametrize("seconds", ["inf", "nan", "-1", "0"])
def test_plot_refuses_an_open_spiel_budget_that_is_not_a_positive_number(tmp_path, monkeypatch, seconds):
    # inf ended in OverflowError (a traceback); nan, -1 and 0 ran open-spiel for nothing and
    # blamed the store ("no exact exploitability recorded")
    from gamesolve.plot import openspiel_curve

    def reached(*args, **kwargs):
        raise AssertionError("open-spiel ran")

    monkeypatch.setattr(openspiel_curve, "openspiel_curve", reached)
    assert CliRunner().invoke(cli, ["solve", "--game", "kuhn", "--iterations", "5", "--out", str(tmp_path / "kuhn")]).exit_code == 0
    line = refusal(["plot", tmp_path / "kuhn", "--openspiel", "cfr", "--openspiel-seconds", seconds, "--out", tmp_path / "x.png"])
    assert "--openspiel-seconds" in line
