"""benchmarks/aivat_check.py: raw winnings and AIVAT estimates paired per deal, the same
figures the match reports (docs/evaluation.md, "Checked for bias at scale")."""

from __future__ import annotations

import numpy as np
import pytest

from gamesolve.evaluate.match import make_agents, play_match
from gamesolve_nlth.state import NLTHGame
from tests.benchmark_scripts import benchmark_script

aivat_check = benchmark_script("aivat_check")


@pytest.fixture(scope="module")
def match(nlth_host):
    game = NLTHGame(2)
    agents, names = make_agents(nlth_host.agents, game, ["random", "call"], 4)
    return play_match(game, agents, 40, seed=4, names=names, aivat=True, plugins=nlth_host.pm), names


def test_each_row_pairs_the_reported_raw_and_aivat_win_rates_and_their_gap(match):
    result, names = match
    rows = aivat_check.gaps(result.deal_returns, result.aivat_deals, names, result.scale)
    assert [r["agent"] for r in rows] == ["0: random", "1: call", "sum of the above"]
    for row, agent in zip(rows, result.agents):
        assert row["raw"] == pytest.approx(agent.win_rate) and row["aivat"] == pytest.approx(agent.aivat["win_rate"])
        assert row["gap"] == pytest.approx(agent.win_rate - agent.aivat["win_rate"])
        assert row["aivat_se"] == pytest.approx(agent.aivat["stderr"])
    total = rows[-1]
    assert total["raw"] == pytest.approx(0.0, abs=1e-9)  # zero-sum, deal by deal
    assert total["gap"] == pytest.approx(rows[0]["gap"] + rows[1]["gap"])


def test_an_agent_without_an_estimate_has_no_row():
    raw = [[1.0, -1.0, 0.0], [3.0, -2.0, -1.0]]
    rows = aivat_check.gaps(raw, [[0.5, None, -0.5], [2.0, None, -1.0]], ["a", "b", "c"], 1000.0)
    assert [r["agent"] for r in rows] == ["0: a", "2: c", "sum of the above"]
    assert rows[0]["gap"] == pytest.approx(np.mean([500.0, 1000.0]))
    assert rows[-1]["raw"] == pytest.approx(np.mean([1000.0, 2000.0]))
