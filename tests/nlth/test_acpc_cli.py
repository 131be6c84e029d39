"""`gamesolve acpc dealer` and `gamesolve acpc play` as a user runs them: separate processes
over TCP on localhost, the logs they promise, and one-line errors for bad input."""

from __future__ import annotations

import socket
import subprocess
import sys

import pytest
from click.testing import CliRunner

from gamesolve import cli as cli_module
from gamesolve.cli import cli
from gamesolve.plugins import make_plugin_manager
from gamesolve_nlth import plugin as nlth_plugin
from tests.command_output import last_json

GAMESOLVE = [sys.executable, "-m", "gamesolve.cli"]


@pytest.fixture
def run(monkeypatch):
    host = make_plugin_manager(strict=True, entry_points=False, plugins=[nlth_plugin])
    monkeypatch.setattr(cli_module, "plugin_host", lambda dirs=(): host)
    return lambda *args: CliRunner().invoke(cli, [str(a) for a in args])


def test_a_dealer_and_two_clients_play_a_match_from_the_command_line(tmp_path):
    log = tmp_path / "match"
    dealer = subprocess.Popen(GAMESOLVE + ["acpc", "dealer", "-p", "players=2", "--hands", "30", "--seed", "3",
                                           "--names", "caller,rando", "--log", str(log), "--json", "--timeout", "120"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
    try:
        port = dealer.stdout.readline().split(" listening on ")[1].split()[0].rsplit(":", 1)[1]
        clients = []
        for agent in ("call", "random"):
            clients.append(subprocess.Popen(GAMESOLVE + ["acpc", "play", "--port", port, "--agent", agent,
                                                         "-p", "players=2", "--json", "--timeout", "120"],
                                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))  # fmt: skip
            assert "connected" in dealer.stdout.readline()
        played = [last_json(c.communicate(timeout=300)[0]) for c in clients]
        report = last_json(dealer.communicate(timeout=300)[0])
    finally:
        for p in [dealer, *locals().get("clients", [])]:
            p.kill()
    assert report["hands"] == 30 and [s["name"] for s in report["seats"]] == ["caller", "rando"]
    assert [p["chips"] for p in played] == [s["chips"] for s in report["seats"]]
    assert played[0]["agent"] == "call" and played[0]["hands"] == 30 and sum(p["chips"] for p in played) == 0
    lines = (tmp_path / "match.log").read_text().splitlines()
    assert len(lines) == 31 and all(line.startswith("STATE:") for line in lines[:30])
    assert lines[-1] == f"SCORE:{report['seats'][0]['chips']}|{report['seats'][1]['chips']}:caller|rando"
    assert (tmp_path / "match.game").read_text().startswith("GAMEDEF\nnolimit\nnumPlayers = 2\n")
    pokerkit = pytest.importorskip("pokerkit")
    assert len(list(pokerkit.HandHistory.loads_all((tmp_path / "match.phhs").read_text()))) == 30


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("args, message", [
    (["acpc", "play", "--port", "PORT", "--agent", "call"], "cannot connect to an ACPC dealer"),
    (["acpc", "play", "--port", "PORT", "--agent", "nosuch"], "unknown agent 'nosuch'"),
    (["acpc", "play", "--port", "PORT", "--agent", "call", "--game", "openspiel:kuhn_poker"], "plays no-limit hold'em"),
    (["acpc", "dealer", "--names", "a,b", "--hands", "1"], "--names needs 6 names"),
    (["acpc", "dealer", "-p", "players=1"], "nlth is for 2 to 9 players"),
])  # fmt: skip
def test_bad_input_is_one_line_with_exit_status_2(run, tmp_path, args, message):
    result = run(*[str(_closed_port()) if a == "PORT" else a for a in args], *(["--log", tmp_path / "m"] if "dealer" in args else []))
    assert result.exit_code == 2, result.output
    assert message in result.output and len(result.output.strip().splitlines()) == 1, result.output


def test_the_dealer_never_overwrites_logs_without_force(run, tmp_path):
    (tmp_path / "m.log").write_text("my notes\n")
    result = run("acpc", "dealer", "--hands", "1", "--log", tmp_path / "m", "--force")
    assert result.exit_code == 2 and "is not this command's output" in result.output
    assert (tmp_path / "m.log").read_text() == "my notes\n"
