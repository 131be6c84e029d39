"""kill -9 at ten random instants of a short Leduc ``mccfr-p`` run: every one continues and
finishes, losing at most one checkpoint interval (tests/crash_runs.py)."""

from __future__ import annotations

from tests.crash_runs import kill_and_resume


def test_kill_9_at_random_instants_then_continue_and_finish(tmp_path):
    out = tmp_path / "run"
    first = ["solve", "--game", "leduc", "--algo", "mccfr-p", "--minutes", "1", "--out", str(out), "--checkpoint", "1s"]
    records = kill_and_resume(out, first, kills=10, seed=14, train_window=4.0, interval_seconds=1.0, slack_seconds=1.5,
                              finish_iterations=5000)  # fmt: skip
    assert sum(r["resumed"] for r in records) >= 5, records  # most segments continued a checkpoint
    assert any("lost_seconds" in r for r in records), records  # and some were killed while training
