"""SIGTERM never lands inside a write: a training run asked to stop at any instant, inside a
checkpoint write included, saves where it stopped and exits 130, and the next run continues
from that checkpoint (gamesolve/solve/stop.py; tests/crash_runs.py)."""

from __future__ import annotations

import os
import signal

import pytest

from gamesolve.solve.stop import DeferredStop, StopRequested
from tests.crash_runs import term_and_resume


def test_sigterm_at_twenty_instants_saves_exits_130_and_resumes(tmp_path):
    out = tmp_path / "run"
    first = ["solve", "--game", "leduc", "--algo", "mccfr-p", "--minutes", "1", "--out", str(out), "--checkpoint", "1s"]
    records = term_and_resume(out, first, stops=20, seed=34, train_window=3.0)
    assert sum(r["inside_a_write"] for r in records) >= 5, records  # the instants the race needed
    assert sum(not r["inside_a_write"] for r in records) >= 5, records  # and instants between writes


def test_a_first_signal_is_deferred_until_checked():
    with DeferredStop() as stop:
        os.kill(os.getpid(), signal.SIGTERM)
        assert stop.requested == signal.SIGTERM  # no exception where it landed
        with pytest.raises(StopRequested):
            stop.check()


def test_a_second_ctrl_c_stops_at_once():
    with DeferredStop() as stop:
        os.kill(os.getpid(), signal.SIGINT)
        assert stop.requested == signal.SIGINT
        with pytest.raises(KeyboardInterrupt) as caught:
            os.kill(os.getpid(), signal.SIGINT)
        assert not isinstance(caught.value, StopRequested)


def test_the_previous_handlers_come_back():
    before = signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)
    with DeferredStop():
        pass
    assert (signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)) == before
