"""Game names as users write them: NAME or NAME(KEY=VALUE,...), the way open-spiel writes its
games; `--game "kuhn(players=3)"` is `--game kuhn -p players=3`."""


import pytest

from gamesolve.errors import UserError
from gamesolve.game.names import parse_game_text
from tests.command_output import last_json


def test_a_bare_name_has_no_parameters():
    assert parse_game_text(" leduc ") == ("leduc", {})
    assert parse_game_text("kuhn()") == ("kuhn", {})


def test_parameters_may_nest_games_and_hold_spaces():
    assert parse_game_text("openspiel:turn_based_simultaneous_game(game=goofspiel(num_cards=3,imp_info=true))") == (
        "openspiel:turn_based_simultaneous_game", {"game": "goofspiel(num_cards=3,imp_info=true)"})  # fmt: skip
    assert parse_game_text("openspiel:universal_poker(blind=100 50, numPlayers=2)") == (
        "openspiel:universal_poker", {"blind": "100 50", "numPlayers": "2"})  # fmt: skip


@pytest.mark.parametrize("text", ["kuhn(players=3", "kuhn)", "kuhn(3)", "(players=3)", "kuhn(a=1,a=2)", "kuhn(a=(1)"])
def test_malformed_names_are_user_errors(text):
    with pytest.raises(UserError):
        parse_game_text(text)


def test_the_command_line_takes_parameters_in_the_name(host, monkeypatch):
    from click.testing import CliRunner

    from gamesolve import cli as cli_module

    monkeypatch.setattr(cli_module, "plugin_host", lambda dirs=(): host)
    run = lambda *a: CliRunner().invoke(cli_module.cli, [str(x) for x in a])  # noqa: E731
    inline = run("solve", "--game", "kuhn(players=3)", "--iterations", 20, "--json")
    flags = run("solve", "--game", "kuhn", "-p", "players=3", "--iterations", 20, "--json")
    assert inline.exit_code == flags.exit_code == 0, inline.output
    assert last_json(inline.stdout)["nash_conv"] == last_json(flags.stdout)["nash_conv"]
    twice = run("solve", "--game", "kuhn(players=3)", "-p", "players=2", "--iterations", 20)
    assert twice.exit_code == 2 and "players is given twice" in twice.output
