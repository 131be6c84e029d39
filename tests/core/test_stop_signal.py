"""SIGTERM never lands inside a write: a training run asked to stop at any instant, inside a
checkpoint write included, saves where it stopped and exits 130, and the next run continues
from that checkpoint (gamesolve/solve/stop.py; tests/crash_runs.py)."""

from __future__ import annotations

import os
import signal

import pytest

from gamesolve.solve.stop import DeferredStop, StopRequested
from tests.crash_runs import term_and_resume


# Six instants by default (seed 1033 draws three inside a write, 0.02, 0.11 and 0.27 s into
# it, and three between writes, 0.49, 0.63 and 0.69 s after training started, before the run's
# first write at 1 s: a later instant may land in a write that a loaded machine stretched; the
# first run is stopped between writes, the five after it are resumed runs). Each instant costs
# a process start, so the ten-instant chain (seed 106: between-write instants up to 2.7 s) and
# the twenty-instant one run with -m slow.
@pytest.mark.parametrize(("stops", "seed", "each"), [
    pytest.param(6, 1033, 3, id="six-instants"),
    pytest.param(10, 106, 3, id="ten-instants", marks=pytest.mark.slow),
    pytest.param(20, 34, 5, id="twenty-instants", marks=pytest.mark.slow),
])  # fmt: skip
def test_sigterm_at_random_instants_saves_exits_130_and_resumes(tmp_path, stops, seed, each):
    out = tmp_path / "run"
    first = ["solve", "--game", "leduc", "--algo", "mccfr-p", "--minutes", "1", "--out", str(out), "--checkpoint", "1s"]
    records = term_and_resume(out, first, stops=stops, seed=seed, train_window=3.0)
    assert sum(r["inside_a_write"] for r in records) >= each, records  # the instants the race needed
    assert sum(not r["inside_a_write"] for r in records) >= each, records  # and instants between writes


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
