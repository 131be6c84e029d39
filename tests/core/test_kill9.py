"""kill -9 at random instants of a short Leduc ``mccfr-p`` run: every one continues and
finishes, losing at most one checkpoint interval (tests/crash_runs.py). Five instants by
default (one while starting, three while training, one after a resume); the ten-instant chain
runs with ``-m slow``."""

from __future__ import annotations

import pytest

from tests.crash_runs import kill_and_resume


@pytest.mark.parametrize(("kills", "seed", "resumed"), [
    pytest.param(5, 14, 3, id="five-kills"),
    pytest.param(10, 14, 5, id="ten-kills", marks=pytest.mark.slow),
])  # fmt: skip
def test_kill_9_at_random_instants_then_continue_and_finish(tmp_path, kills, seed, resumed):
    out = tmp_path / "run"
    first = ["solve", "--game", "leduc", "--algo", "mccfr-p", "--minutes", "1", "--out", str(out), "--checkpoint", "1s"]
    records = kill_and_resume(out, first, kills=kills, seed=seed, train_window=4.0, interval_seconds=1.0,
                              slack_seconds=1.5, finish_iterations=5000)  # fmt: skip
    assert sum(r["resumed"] for r in records) >= resumed, records  # most segments continued a checkpoint
    assert any("lost_seconds" in r for r in records), records  # and some were killed while training
