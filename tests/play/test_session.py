"""The table engine: seats rotate, a seed fixes the cards, results carry a standard error,
every hand is saved, bad input is one line; the terminal front end, scripted."""

import json
import math
import os
import re
import subprocess
import sys
import urllib.request

import pytest
from click.testing import CliRunner

from gamesolve import cli as cli_module
from gamesolve.cli import cli
from gamesolve.play.session import NotYourTurn
from gamesolve.play.table import TableError, TableSpec, build_table, seat_agents
from gamesolve.play.terminal import TerminalPlayer
from gamesolve.play.view import IllegalAction
from gamesolve_nlth import phh


def nlth_table(host, tmp_path, agents=("call", "random", "call", "tag", "call"), seat=2, seed=5, hands=None, hh="h.phhs"):
    game = host.games.get("nlth").create(len(agents) + 1)
    return build_table(host, TableSpec(game, tuple(agents), "auto"), seat=seat, seed=seed, hands=hands,
                       hh_path=tmp_path / hh if hh else None)  # fmt: skip


def play_out(session, choose):
    """Play one hand: agents act, the person's actions come from ``choose(session)``."""
    session.start_hand()
    while session.in_hand:
        session.play_bots()
        if session.human_turn():
            session.human_step(choose(session))


def test_seats_rotate_one_seat_down_per_hand(play_host, tmp_path):
    table = nlth_table(play_host, tmp_path)
    s = table.session
    seats, positions = [], []
    for _ in range(7):
        play_out(s, lambda _s: "c")
        seats.append(s.human_seat)
        positions.append(table.view.table(s.state, s.human_seat, s.seat_names()).seats[s.human_seat].position)
    assert seats == [2, 1, 0, 5, 4, 3, 2]
    assert positions == ["BB", "SB", "BTN", "CO", "HJ", "UTG", "BB"]  # the way a real button moves


def test_a_seed_fixes_the_session(play_host, tmp_path):
    def run(seed):
        s = nlth_table(play_host, tmp_path, seed=seed, hh=None).session
        for _ in range(4):
            play_out(s, lambda x: "c")
        return [r.state.history for r in s.records], s.results

    assert run(3) == run(3)
    assert run(3) != run(4)


def test_result_is_bb_per_100_with_its_standard_error(play_host, tmp_path):
    s = nlth_table(play_host, tmp_path, hh=None).session
    for _ in range(6):
        play_out(s, lambda x: "f" if "f" in [c.key for c in x.view.menu(x.state).choices] else "c")
    result = s.result()
    per_hand = [r / 100 * 100 for r in s.results]  # chips / big blind * 100 hands
    mean = sum(per_hand) / 6
    sd = math.sqrt(sum((x - mean) ** 2 for x in per_hand) / 5)
    assert result.unit == "bb/100" and result.hands == 6
    assert result.win_rate == pytest.approx(mean) and result.stderr == pytest.approx(sd / math.sqrt(6))
    assert "bb/100 ±" in result.line()


def test_turns_and_legality_are_checked(play_host, tmp_path):
    s = nlth_table(play_host, tmp_path, hh=None).session
    with pytest.raises(NotYourTurn):
        s.human_step("c")  # no hand yet
    s.start_hand()
    s.play_bots()
    assert s.human_turn()
    with pytest.raises(IllegalAction, match="below the minimum"):
        s.human_step("r 1")
    assert s.human_turn()  # still the person's turn after a refused action


def test_every_hand_is_saved_as_phh_as_it_ends(play_host, tmp_path):
    table = nlth_table(play_host, tmp_path)
    for k in range(3):
        play_out(table.session, lambda x: "c")
        text = (tmp_path / "h.phhs").read_text()
        assert text.count("variant = 'NT'") == k + 1
    hands = text.split("\n[")
    states = [phh.loads(h.split("]\n", 1)[1] if h.startswith("[") or h[0].isdigit() else h) for h in hands]
    assert [st.history for st in states] == [r.state.history for r in table.session.records]
    assert "players = [" in text and "'you'" in text


def test_toy_games_are_saved_as_json_lines(play_host, tmp_path, kuhn_policy):
    game = play_host.games.get("kuhn").create(2)
    table = build_table(play_host, TableSpec(game, (f"policy:store={kuhn_policy}",)), seat=1, seed=0, hands=3,
                        hh_path=tmp_path / "k.jsonl")  # fmt: skip
    while not table.session.over:
        play_out(table.session, lambda x: "k" if "k" in [c.key for c in x.view.menu(x.state).choices] else "c")
    lines = [json.loads(line) for line in (tmp_path / "k.jsonl").read_text().splitlines()]
    assert [x["hand"] for x in lines] == [1, 2, 3]
    assert lines[0]["seats"][1] == "you" and sum(lines[0]["returns"]) == 0
    assert table.coach is not None and table.coach.name == "policy"


def test_the_coach_shows_the_blueprint_at_each_decision(play_host, tmp_path, tiny_blueprint):
    table = nlth_table(play_host, tmp_path, agents=(f"blueprint:store={tiny_blueprint}", "call", "call", "call", "call"), hh=None)
    s = table.session
    for _ in range(6):
        play_out(s, lambda x: "c")
        notes = table.coach.notes(s, table.view)
        assert len(notes) == len(s.decisions)
        for note in notes:
            assert sum(p for _, p in note.strategy) == pytest.approx(1.0)
            assert note.chose in ("checks",) or note.chose.startswith("calls")


def test_scripted_terminal_session(play_host, tmp_path):
    table = nlth_table(play_host, tmp_path, hands=3)
    answers = iter(["r 1", "?", "t", "c"] + ["c"] * 100)
    out = []
    result = TerminalPlayer(table, lambda prompt: next(answers), out.append).run()
    text = "\n".join(out)
    assert result.hands == 3 and "not legal: raise to 1 is below the minimum raise to" in text
    assert "r 3bb (big blinds)" in text  # the ? help
    assert text.count("=== hand ") == 3 and "session: 3 hands:" in text and "bb/100" in text
    assert (tmp_path / "h.phhs").read_text().count("variant") == 3


def test_quitting_keeps_the_hands_played(play_host, tmp_path):
    table = nlth_table(play_host, tmp_path)
    answers = iter(["c"] * 3 + ["q"])
    out = []
    TerminalPlayer(table, lambda prompt: next(answers), out.append).run()
    assert "stopped." in out


def test_seat_agents_reads_the_agent_list():
    assert seat_agents(None, "a,b") == (3, ("a", "b"))
    assert seat_agents(6, "tag") == (6, ("tag",) * 5)
    with pytest.raises(TableError, match="needs 5 agents"):
        seat_agents(6, "a,b")
    with pytest.raises(TableError):
        seat_agents(None, "a,,b")


@pytest.fixture
def run(play_host, monkeypatch):
    monkeypatch.setattr(cli_module, "plugin_host", lambda dirs=(): play_host)
    return lambda *args, input=None: CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)


@pytest.mark.parametrize("args, words", [
    (["--agents", "call,call", "--seat", "3"], "--seat must be a seat 0..2"),
    (["--agents", "call,nobody"], "unknown agent 'nobody'"),
    (["--agents", "call", "--hands", "0"], "--hands must be positive"),
    (["--agents", "call", "--seat", "x"], "--seat must be a seat number"),
    (["--agents", "blueprint"], "needs store=PATH"),
    (["--agents", "call", "--coach", "call"], "cannot tell its strategy"),
    (["--agents", "call", "--players", "4", "-p", "stacks=0"], "stacks must be positive"),
])  # fmt: skip
def test_bad_play_options_are_one_line_errors(run, args, words):
    result = run("play", "--game", "nlth", *args)
    assert result.exit_code == 2, result.output
    errors = [line for line in result.output.splitlines() if line.strip()]
    assert len(errors) == 1 and words in errors[0]


def test_play_command_end_to_end_with_piped_input(run, tmp_path):
    hh = tmp_path / "hands.phhs"
    result = run("play", "--game", "nlth", "--agents", "call", "--players", "3", "--hands", "2", "--hh", str(hh),
                 input="r 2/3pot\nc\nc\nc\nc\nc\nc\nc\nc\nc\n")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "raises to" in result.output and "session: 2 hands" in result.output
    assert hh.read_text().count("variant") == 2


def test_bad_serve_options_are_one_line_errors(run, tmp_path):
    (tmp_path / "file").write_text("x")
    result = run("serve", "--game", "nlth", "--agents", "call,nobody", "--data", str(tmp_path / "d"))
    assert result.exit_code == 2 and "unknown agent 'nobody'" in result.output
    result = run("serve", "--game", "nlth", "--agents", "call", "--data", str(tmp_path / "file"))
    assert result.exit_code == 2 and "is not a folder" in result.output


def test_a_server_on_a_port_the_system_picks_names_no_port_zero_address(tmp_path):
    """``--port 0``: the port is known once the server listens; the address printed is the
    one it answers on (uvicorn's line), never ``:0``."""
    cmd = [sys.executable, "-m", "gamesolve.cli", "serve", "--game", "nlth", "--agents", "call", "--port", "0",
           "--data", str(tmp_path / "d")]  # fmt: skip
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    try:
        lines, listening = [], None
        for line in proc.stdout:
            lines.append(line)
            if listening := re.search(r"Uvicorn running on (http://\S+)", line):
                break
        assert listening and not any(":0/" in line for line in lines), lines
        with urllib.request.urlopen(listening.group(1) + "/", timeout=30) as page:
            assert page.status == 200
    finally:
        proc.terminate()
        proc.wait(timeout=30)
