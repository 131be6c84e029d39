"""kill -9 at random instants of a six-player NLTH blueprint run (tiny preset): every one
continues and finishes, losing at most one checkpoint interval (tests/crash_runs.py). Five
instants by default (one while starting, four while training); the ten-instant chain runs
with ``-m slow``."""

from __future__ import annotations

import pytest

from tests.crash_runs import kill_and_resume


@pytest.mark.parametrize(("kills", "seed", "resumed"), [
    pytest.param(5, 20, 3, id="five-kills"),
    pytest.param(10, 15, 3, id="ten-kills", marks=pytest.mark.slow),
])  # fmt: skip
def test_kill_9_at_random_instants_of_a_blueprint_run_then_continue_and_finish(tmp_path, kills, seed, resumed):
    out = tmp_path / "run"
    first = ["solve", "--game", "nlth", "--minutes", "1", "--out", str(out), "--checkpoint", "2s"]
    # A checkpoint of the tiny tables takes about half a second to write: 2 s between them,
    # and the slack covers a batch and a write under load.
    records = kill_and_resume(out, first, kills=kills, seed=seed, train_window=4.0, interval_seconds=2.0,
                              slack_seconds=2.5, finish_iterations=2000)  # fmt: skip
    assert sum(r["resumed"] for r in records) >= resumed, records
    assert any("lost_seconds" in r for r in records), records
