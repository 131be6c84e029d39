"""benchmarks/aivat_check.py: raw winnings and AIVAT estimates paired per deal, the same
figures the match reports (docs/evaluation.md, "Checked for bias at scale")."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from gamesolve.evaluate.match import make_agents, play_match
from gamesolve.plugins import make_plugin_manager

_PATH = Path(__file__).resolve().parent.parent / "benchmarks" / "aivat_check.py"
_spec = importlib.util.spec_from_file_location("aivat_check", _PATH)
aivat_check = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(aivat_check)


@pytest.fixture(scope="module")
def match():
    from gamesolve_nlth import plugin as nlth_plugin
    from gamesolve_nlth.state import NLTHGame

    nlth_host = make_plugin_manager(strict=True, entry_points=False, plugins=[nlth_plugin])
    game = NLTHGame(2)
    agents, names = make_agents(nlth_host.agents, game, ["random", "call"], 4)
    result = play_match(game, agents, 40, seed=4, names=names, keep_hands=True, aivat=True, plugins=nlth_host.pm)
    return result, names


def test_the_per_deal_winnings_average_to_the_reported_win_rates(match):
    result, _ = match
    raw = aivat_check.per_deal_raw(result, 2) * result.scale
    assert raw.shape == (result.deals, 2)
    assert raw.mean(axis=0) == pytest.approx([a.win_rate for a in result.agents])


def test_each_row_pairs_the_reported_raw_and_aivat_win_rates_and_their_gap(match):
    result, names = match
    rows = aivat_check.gaps(aivat_check.per_deal_raw(result, 2), result.aivat_deals, names, result.scale)
    assert [r["agent"] for r in rows] == ["0: random", "1: call", "sum of the above"]
    for row, agent in zip(rows, result.agents):
        assert row["raw"] == pytest.approx(agent.win_rate) and row["aivat"] == pytest.approx(agent.aivat["win_rate"])
        assert row["gap"] == pytest.approx(agent.win_rate - agent.aivat["win_rate"])
        assert row["aivat_se"] == pytest.approx(agent.aivat["stderr"])
    total = rows[-1]
    assert total["raw"] == pytest.approx(0.0, abs=1e-9)  # zero-sum, deal by deal
    assert total["gap"] == pytest.approx(rows[0]["gap"] + rows[1]["gap"])


def test_an_agent_without_an_estimate_has_no_row():
    raw = np.array([[1.0, -1.0, 0.0], [3.0, -2.0, -1.0]])
    rows = aivat_check.gaps(raw, [[0.5, None, -0.5], [2.0, None, -1.0]], ["a", "b", "c"], 1000.0)
    assert [r["agent"] for r in rows] == ["0: a", "2: c", "sum of the above"]
    assert rows[0]["gap"] == pytest.approx(np.mean([500.0, 1000.0]))
    assert rows[-1]["raw"] == pytest.approx(np.mean([1000.0, 2000.0]))
