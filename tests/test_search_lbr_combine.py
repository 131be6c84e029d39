"""benchmarks/search_lbr.py --combine: runs on other seeds pool deal by deal, and only runs
of the same two agents (docs/search.md, "Strength (heads-up)")."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from tests.benchmark_scripts import BENCHMARKS, benchmark_script

search_lbr = benchmark_script("search_lbr")


def _run(blueprint: list[float], search: list[float], agent: str = "search:store=bp:seconds=0") -> dict:
    return {"runs": {"blueprint": {"agent": "blueprint:store=bp"}, "search": {"agent": agent}},
            "per_deal": {"blueprint": blueprint, "search": search}}  # fmt: skip


def test_runs_pool_deal_by_deal():
    result = search_lbr.combine([_run([1.0, 3.0], [0.0, 1.0]), _run([5.0], [2.0])], ["a.json", "b.json"])
    diff = np.array([-1.0, -2.0, -3.0])
    assert result["difference"]["deals"] == 3
    assert result["difference"]["search_minus_blueprint"] == pytest.approx(diff.mean())
    assert result["difference"]["se"] == pytest.approx(diff.std(ddof=1) / math.sqrt(3))
    assert result["blueprint"]["mbb_per_game"] == pytest.approx(3.0)


def test_runs_of_different_search_settings_are_refused():
    runs = [_run([1.0, 3.0], [0.0, 1.0]), _run([5.0, 1.0], [2.0, 0.0], agent="search:store=bp:seconds=1")]
    with pytest.raises(SystemExit, match="different agents"):
        search_lbr.combine(runs, ["a.json", "b.json"])


@pytest.mark.parametrize("text", [None, '{"runs":', "{}"], ids=["missing", "damaged", "not-a-run"])
def test_a_missing_or_damaged_run_file_stops_with_one_line_naming_it(tmp_path, text):
    path = tmp_path / "seed-1.json"
    if text is not None:
        path.write_text(text)
    with pytest.raises(SystemExit, match=f"{path} is not a run's --json file"):
        search_lbr._load_run(str(path))


def test_design_3_reports_its_recorded_result():
    """docs/search.md, "Design 3": the seeds finished by the declared cut, pooled."""
    results = BENCHMARKS.parent / "docs" / "results" / "lbr-hu3"
    files = sorted(results.glob("seed-*.json"), key=lambda p: int(p.stem.split("-")[1]))
    assert [int(p.stem.split("-")[1]) for p in files] == list(range(101, 118))
    result = search_lbr.combine([json.loads(p.read_text()) for p in files], [p.name for p in files])
    assert result["difference"]["deals"] == 850
    assert result["difference"]["search_minus_blueprint"] == pytest.approx(-2162, abs=0.5)
    assert result["difference"]["se"] == pytest.approx(670, abs=0.5)
    assert result["difference"]["p_search_lower"] < 0.001
    assert result["blueprint"]["mbb_per_game"] == pytest.approx(6566, abs=0.5)
    assert result["search"]["mbb_per_game"] == pytest.approx(4404, abs=0.5)


def _run_with_candidate(blueprint, search, candidate, flop: str = "limited") -> dict:
    run = _run(blueprint, search)
    run["runs"]["candidate"] = {"agent": f"search:store=bp:seconds=0:heads_up_flop={flop}"}
    run["per_deal"]["candidate"] = candidate
    return run


def test_a_candidate_pairs_with_the_blueprint_and_with_the_first_search_agent():
    runs = [_run_with_candidate([4.0, 2.0], [3.0, 2.0], [1.0, 0.0]), _run_with_candidate([6.0], [5.0], [1.0])]
    result = search_lbr.combine(runs, ["a.json", "b.json"])
    against_search = np.array([-2.0, -2.0, -4.0])
    assert result["candidate"]["deals"] == 3
    assert result["candidate_minus_blueprint"]["mean"] == pytest.approx(-10.0 / 3)
    assert result["candidate_minus_search"]["mean"] == pytest.approx(against_search.mean())
    assert result["candidate_minus_search"]["se"] == pytest.approx(against_search.std(ddof=1) / math.sqrt(3))
    assert result["candidate_minus_search"]["p_lower"] < 0.05


def test_runs_with_and_without_a_candidate_are_refused_together():
    runs = [_run_with_candidate([4.0, 2.0], [3.0, 2.0], [1.0, 0.0]), _run([6.0, 1.0], [5.0, 1.0])]
    with pytest.raises(SystemExit, match="different agents"):
        search_lbr.combine(runs, ["a.json", "b.json"])


def test_runs_of_different_candidates_are_refused():
    runs = [_run_with_candidate([4.0], [3.0], [1.0]), _run_with_candidate([6.0], [5.0], [1.0], flop="sampled")]
    with pytest.raises(SystemExit, match="different agents"):
        search_lbr.combine(runs, ["a.json", "b.json"])


def test_runs_with_aivat_estimates_are_reported_on_them_too():
    runs = [_run([4.0, 2.0], [3.0, 2.0]), _run([6.0], [5.0])]
    runs[0]["per_deal_aivat"] = {"blueprint": [4.0, 4.0], "search": [1.0, 2.0]}
    runs[1]["per_deal_aivat"] = {"blueprint": [5.0], "search": [2.0]}
    result = search_lbr.combine(runs, ["a.json", "b.json"])
    assert result["aivat"]["difference"]["search_minus_blueprint"] == pytest.approx(-8.0 / 3)
    assert result["difference"]["search_minus_blueprint"] == pytest.approx(-2.0 / 3)
    assert "aivat" not in search_lbr.combine([_run([4.0, 2.0], [3.0, 2.0]), runs[1]], ["a.json", "b.json"])
