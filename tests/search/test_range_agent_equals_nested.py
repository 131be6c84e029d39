"""One Algorithm 2, two implementations: the range search agent (gamesolve/search/range_agent.py
over gamesolve/search/form_domain.py, the agent every large game uses) composed at every
information set has the exploitability of the small-game nested agent (gamesolve/search/nested.py)
with the same settings, by the exact best response: on Kuhn and Liar's Dice 1x4 (one round,
searched whole) and on Leduc (public chance between rounds; first-round subgames end at the
board with k = 4 continuation leaves, the second round is searched to the end).

This is what lets the nested agent fold into the range agent (issue 33)."""

import json

import pytest
from click.testing import CliRunner

from gamesolve.cli import cli


@pytest.fixture(scope="module")
def runner():
    return CliRunner()


def solved(runner, tmp_path_factory, game, iterations):
    """A cfr+ blueprint of ``game`` (``NAME`` or ``NAME:KEY=VALUE``: one game parameter)."""
    name, _, param = game.partition(":")
    store = tmp_path_factory.mktemp(name) / "bp"
    args = ["solve", "--game", name, *(["-p", param] if param else []), "--iterations", str(iterations), "--out", str(store)]
    result = runner.invoke(cli, args)
    assert result.exit_code == 0, result.output
    return store


def searched(runner, game, store, *settings):
    args = ["exploitability", "--game", game.partition(":")[0], "--store", str(store), "--search", "--json"]
    for setting in settings:
        args += ["-s", setting]
    result = runner.invoke(cli, args)
    assert result.exit_code == 0, result.output
    return json.loads(result.output.strip().splitlines()[-1])


@pytest.mark.parametrize("game, iterations, shared", [
    ("kuhn", 30, ()),
    ("liars_dice:sides=4", 30, ("iterations=100",)),
    ("leduc", 50, ("iterations=100",)),
    ("leduc", 50, ("iterations=100", "k=1", "play=average")),
])  # fmt: skip
def test_the_range_agent_composes_to_the_nested_agents_exploitability(runner, tmp_path_factory, game, iterations, shared):
    """With the same options (the default agent is the range agent)."""
    store = solved(runner, tmp_path_factory, game, iterations)
    nested = searched(runner, game, store, "agent=nested", *shared)
    ranged = searched(runner, game, store, *shared)
    assert ranged["search"]["agent"] == "range" and nested["search"]["agent"] == "nested"
    assert ranged["exploitability"] == pytest.approx(nested["exploitability"], abs=1e-12)
    assert ranged["game_value"] == pytest.approx(nested["game_value"], abs=1e-12)


def test_the_range_agent_is_composed_without_a_time_budget(runner, tmp_path_factory):
    store = solved(runner, tmp_path_factory, "kuhn", 10)
    result = runner.invoke(cli, ["exploitability", "--game", "kuhn", "--store", str(store), "--search", "-s", "seconds=2"])
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        "Error: --search composes the agent's strategy exactly: it takes no time budget (seconds=0)"
    ]
