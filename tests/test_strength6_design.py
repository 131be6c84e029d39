"""benchmarks/strength6.py: the six-player strength experiment is analysed once, when every
declared seed is in, and only over runs on the same blueprint (docs/search.md)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from tests.benchmark_scripts import benchmark_script

strength6 = benchmark_script("strength6")
DESIGN = strength6.DESIGNS[strength6.LATEST]


def _record(seed: int, raw: float, aivat: float, se: float = 100.0, digest: str = "d" * 64) -> dict:
    search = {"name": "search:store=bp:" + DESIGN.search, "hands": DESIGN.hands, "win_rate": raw,
              "stderr": se * 1.2, "latency": {"searched": {"decisions": 700}},
              "aivat": {"win_rate": aivat, "stderr": se, "variance_reduction": 1.44}}  # fmt: skip
    blueprint = {"name": "blueprint:store=bp", "hands": DESIGN.hands, "win_rate": -raw / 5, "stderr": 50.0,
                 "latency": {}, "aivat": {"win_rate": 0.0, "stderr": 40.0, "variance_reduction": 2.0}}  # fmt: skip
    return {"seed": seed, "blueprint_sha256": digest, "code": {"commit": "c" * 40, "gamesolve": "a" * 40, "plugins": "b" * 40}, "design": {"hands": DESIGN.hands, "search": DESIGN.search},
            "command": "gamesolve match ...", "wall_seconds": 1.0,
            "match": {"agents": [search] + [blueprint] * 5, "seconds": 700.0}}  # fmt: skip


def _write(directory: Path, records: list[dict]) -> None:
    for r in records:
        (directory / f"seed-{r['seed']}.json").write_text(json.dumps(r))


def test_the_pooled_result_is_withheld_until_every_seed_is_in(tmp_path, capsys):
    _write(tmp_path, [_record(s, 300.0, 200.0) for s in DESIGN.seeds[:-1]])
    result = strength6.report(DESIGN, tmp_path)
    assert "aivat" not in result and "met" not in result
    assert result["seeds_done"] == list(DESIGN.seeds[:-1])
    assert "withheld" in capsys.readouterr().out


def test_the_pooled_result_is_the_mean_of_the_seeds_means_with_their_standard_errors(tmp_path):
    aivats = [50.0 * i for i in range(len(DESIGN.seeds))]
    _write(tmp_path, [_record(s, 0.0, a, se=200.0) for s, a in zip(DESIGN.seeds, aivats)])
    result = strength6.report(DESIGN, tmp_path)
    mean = sum(aivats) / len(aivats)
    se = 200.0 / math.sqrt(len(aivats))
    assert result["aivat"]["mbb_per_game"] == pytest.approx(mean)
    assert result["aivat"]["se"] == pytest.approx(se)
    assert result["aivat"]["p_one_sided"] == pytest.approx(0.5 * math.erfc(mean / se / math.sqrt(2)))
    assert result["met"] == (result["aivat"]["p_one_sided"] < 0.05)


def test_a_negative_or_insignificant_win_rate_is_not_met(tmp_path):
    _write(tmp_path, [_record(s, 500.0, -10.0) for s in DESIGN.seeds])
    assert strength6.report(DESIGN, tmp_path)["met"] is False


def test_runs_on_different_blueprints_are_refused(tmp_path):
    records = [_record(s, 0.0, 0.0) for s in DESIGN.seeds[:2]]
    records[1]["blueprint_sha256"] = "e" * 64
    _write(tmp_path, records)
    with pytest.raises(SystemExit, match="different blueprints"):
        strength6.report(DESIGN, tmp_path)


def test_runs_of_different_code_are_refused(tmp_path):
    records = [_record(s, 0.0, 0.0) for s in DESIGN.seeds[:2]]
    records[1]["code"]["plugins"] = "f" * 40
    _write(tmp_path, records)
    with pytest.raises(SystemExit, match="different code"):
        strength6.report(DESIGN, tmp_path)


def test_runs_of_the_same_code_from_different_commits_are_pooled(tmp_path):
    records = [_record(s, 0.0, 0.0) for s in DESIGN.seeds]
    records[1]["code"]["commit"] = "f" * 40  # a docs-only commit between the runs
    _write(tmp_path, records)
    assert "aivat" in strength6.report(DESIGN, tmp_path)


def test_runs_with_other_settings_are_refused(tmp_path):
    record = _record(DESIGN.seeds[0], 0.0, 0.0)
    record["design"]["hands"] = 600
    _write(tmp_path, [record])
    with pytest.raises(SystemExit, match="design's settings"):
        strength6.report(DESIGN, tmp_path)


def test_a_record_of_another_design_is_refused(tmp_path):
    record = _record(DESIGN.seeds[0], 0.0, 0.0)
    record["design"]["search"] = strength6.DESIGNS[1].search
    _write(tmp_path, [record])
    with pytest.raises(SystemExit, match="design's settings"):
        strength6.report(DESIGN, tmp_path)


@pytest.mark.parametrize(("design", "aivat", "se", "tolerance", "met"), [
    (1, -59.0, 72.0, 0.5, False),
    (2, 168.1, 75.2, 0.1, True),
    (3, 75.0, 70.0, 0.5, False),
])  # fmt: skip
def test_a_finished_design_still_reports_its_recorded_result(design, aivat, se, tolerance, met):
    result = strength6.report(strength6.DESIGNS[design], strength6.DESIGNS[design].results)
    assert result["seeds_done"] == list(strength6.DESIGNS[design].seeds)
    assert result["aivat"]["mbb_per_game"] == pytest.approx(aivat, abs=tolerance)
    assert result["aivat"]["se"] == pytest.approx(se, abs=tolerance)
    assert result["met"] is met


def test_the_time_budgeted_design_logs_its_solves_beside_the_record(tmp_path):
    command = strength6.match_command(DESIGN, "bp", 61, 2, f"record={tmp_path / 'seed-61.solves.part'}")
    agents = command[command.index("--agents") + 1].split(",")
    assert DESIGN.solve_log and agents[0] == f"search:store=bp:record={tmp_path / 'seed-61.solves.part'}"
    assert agents[1:] == ["blueprint:store=bp"] * 5


def test_a_design_with_iteration_caps_has_nothing_to_replay(tmp_path):
    with pytest.raises(SystemExit, match="caps iterations"):
        strength6.replay(strength6.DESIGNS[2], tmp_path / "bp", 51, 2, tmp_path)


def test_a_seed_without_its_record_and_log_is_not_replayed(tmp_path):
    _write(tmp_path, [_record(DESIGN.seeds[0], 0.0, 0.0)])  # a record, no solve log
    with pytest.raises(SystemExit, match=f"seed {DESIGN.seeds[0]} has no record and solve log"):
        strength6.replay(DESIGN, tmp_path / "bp", DESIGN.seeds[0], 2, tmp_path)


def test_a_replay_compares_results_without_the_log_options():
    recorded = {"agents": [{"name": "search:store=bp:record=/x/seed-61.solves.jsonl.part", "hands": 3000, "total": 5.0,
                            "win_rate": 1.0, "stderr": 2.0, "aivat": {"win_rate": 0.5}, "latency": {"max": 4.9}}]}  # fmt: skip
    again = {"agents": [{**recorded["agents"][0], "name": "search:store=bp:replay=/y/seed-61.solves.jsonl", "latency": {}}]}
    strip = [{**row, "name": strength6._without_log(row["name"])} for row in strength6._results(recorded)]
    assert strip == [{**row, "name": strength6._without_log(row["name"])} for row in strength6._results(again)]
    assert strip[0]["name"] == "search:store=bp"


def _strategy_store(path: Path, order: list[int]) -> Path:
    """A blueprint-like store: 3 decision nodes of 2 actions and 2 private states, their rows
    laid out in ``order``."""
    import numpy as np
    import zarr

    rows = {0: [1, 2, 3, 4], 1: [5, 6, 7, 8], 2: [9, 10, 11, 12]}
    offset = np.zeros(4, np.int32)
    offset[3] = -1  # a terminal: no row
    strategy, at = [], 0
    for node in order:
        offset[node] = at
        strategy += rows[node]
        at += 4
    group = zarr.open_group(str(path), mode="w")
    for name, values in {"child_start": np.array([0, 2, 4, 6, 6], np.int32), "num_private": np.array([2], np.int32),
                         "node_round": np.zeros(4, np.int32), "node_offset": offset,
                         "strategy": np.array(strategy, np.uint16)}.items():  # fmt: skip
        group.create_array(name, data=values)
    return path


def test_the_blueprint_digest_ignores_where_rows_sit_in_the_table(tmp_path):
    one = strength6.strategy_digest(_strategy_store(tmp_path / "a", [0, 1, 2]))
    other = strength6.strategy_digest(_strategy_store(tmp_path / "b", [2, 0, 1]))
    assert one == other


def test_the_blueprint_digest_sees_a_changed_probability(tmp_path):
    import zarr

    path = _strategy_store(tmp_path / "a", [0, 1, 2])
    before = strength6.strategy_digest(path)
    group = zarr.open_group(str(path), mode="r+")
    group["strategy"][5] = 99
    assert strength6.strategy_digest(path) != before


def test_a_later_design_also_reports_the_bonferroni_level_over_the_designs(tmp_path):
    se = 200.0 / math.sqrt(len(DESIGN.seeds))
    aivats = [2.0 * se] * len(DESIGN.seeds)  # one-sided p 0.023 pooled: under 0.05, over 0.05 / 4
    _write(tmp_path, [_record(s, 0.0, a, se=200.0) for s, a in zip(DESIGN.seeds, aivats)])
    result = strength6.report(DESIGN, tmp_path)
    assert DESIGN.looks == 4
    assert result["met"] is True and result["met_bonferroni"] is False


def test_a_solve_log_is_summarised_by_round(tmp_path):
    log = tmp_path / "seed-61.solves.jsonl"
    lines = [{"hand": h, "seat": 0, "solve": 0, "round": r, "iterations": i, "nodes": 9} for h, r, i in
             [(0, 1, 100), (1, 1, 300), (2, 1, 200), (3, 2, 40)]]  # fmt: skip
    log.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert strength6.solve_summary(log) == {1: {"solves": 3, "median_iterations": 200.0}, 2: {"solves": 1, "median_iterations": 40.0}}
