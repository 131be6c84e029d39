"""Training metrics: every solve records a time series in its store, readable after a crash."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from gamesolve.errors import StoreError
from gamesolve.store import metrics as M
from tests.command_output import last_json


def gamesolve(*args, timeout=300):
    proc = subprocess.run([sys.executable, "-m", "gamesolve.cli", *args], capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return last_json(proc)


def test_a_tabular_solve_records_exact_exploitability_at_log_spaced_iterations(tmp_path):
    out = tmp_path / "leduc.zarr"
    result = gamesolve("solve", "--game", "leduc", "--algo", "cfr+", "--iterations", "300", "--out", str(out), "--json")
    series = M.read_metrics(out)
    it, ex = series["iteration"], series["exploitability"]
    assert it[0] == 1 and it[-1] == 300 and np.all(np.diff(it) > 0)
    assert 15 <= len(it) <= 60  # about ten rows per decade, not one per iteration
    assert np.all(np.isfinite(ex)) and ex[-1] == pytest.approx(result["exploitability"], rel=1e-9)
    assert ex[-1] < ex[0] / 100
    assert np.all(np.diff(series["seconds"]) >= 0) and np.all(series["infosets"] == 936)
    assert np.all(series["memory_bytes"] > 10 * 2**20)
    assert not M.partial_path(out).exists()  # moved into the store when the policy was written
    assert series["attrs"]["algo"] == "cfr+" and series["attrs"]["partial"] is False


def test_an_mccfr_solve_records_rows_in_its_checkpoint_store(tmp_path):
    out = tmp_path / "run"
    gamesolve("solve", "--game", "kuhn", "--algo", "mccfr-p", "--iterations", "300000", "--out", str(out), "--json")
    series = M.read_metrics(out)
    assert series["iteration"][-1] == 300_000 and np.all(np.diff(series["iteration"]) > 0)
    assert np.isfinite(series["exploitability"][-1]) and series["exploitability"][-1] < 0.05
    assert series["infoset_actions"][-1] == 24  # every Kuhn infoset-action allocated
    assert M.read_metrics(out / "blueprint")["attrs"]["rows"] == series["attrs"]["rows"]


def test_each_flush_is_a_sealed_part_and_a_new_run_numbers_its_rows(tmp_path):
    store = M.MetricsStore(tmp_path / "s")
    store.append([{"iteration": 1, "seconds": 0.1}, {"iteration": 2, "seconds": 0.2}])
    assert [p.name for p in M.parts(tmp_path / "s")] == ["metrics-000000"]
    assert (tmp_path / "s" / "metrics-000000" / "manifest.json").is_file()
    series = M.read_metrics(tmp_path / "s")
    assert list(series["iteration"]) == [1, 2]
    assert np.isnan(series["exploitability"]).all()  # never measured
    reopened = M.MetricsStore(tmp_path / "s")  # a resumed run appends a part of its own
    reopened.append([{"iteration": 3, "seconds": 0.3}])
    assert list(M.read_metrics(tmp_path / "s")["run"]) == [0, 0, 1]


def test_a_damaged_part_is_an_error_naming_its_file(tmp_path):
    store = M.MetricsStore(tmp_path / "s")
    store.append([{"iteration": 1, "seconds": 0.1}])
    chunk = next((tmp_path / "s" / "metrics-000000" / "iteration").rglob("c/*"))
    chunk.write_bytes(b"garbage")
    with pytest.raises(StoreError, match="iteration"):
        M.read_metrics(tmp_path / "s")


def test_a_resumed_run_drops_rows_after_its_checkpoint(tmp_path):
    store = M.MetricsStore(tmp_path / "s")
    store.append([{"iteration": i, "seconds": i} for i in (10, 20, 30, 40)])
    M.MetricsStore(tmp_path / "s", resume_iteration=25).append([{"iteration": 30, "seconds": 31}])
    series = M.read_metrics(tmp_path / "s")
    assert list(series["iteration"]) == [10, 20, 30] and list(series["run"]) == [0, 0, 1]


def test_a_killed_mccfr_run_leaves_its_series_readable_and_resume_continues_it(tmp_path):
    out = tmp_path / "run"
    cmd = [sys.executable, "-m", "gamesolve.cli", "solve", "--game", "leduc", "--algo", "mccfr-p", "--minutes", "5",
           "--out", str(out), "--checkpoint", "2s"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.time() + 120
        while time.time() < deadline:
            time.sleep(1)
            try:
                if M.read_metrics(out)["attrs"]["rows"] >= 3 and (out / "LATEST").exists():
                    break
            except Exception:  # noqa: BLE001 - the store is being created
                pass
        os.killpg(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(timeout=30)
    crashed = M.read_metrics(out)
    assert len(crashed["iteration"]) >= 3 and np.all(np.diff(crashed["iteration"]) > 0)
    gamesolve("solve", "--game", "leduc", "--algo", "mccfr-p", "--iterations", "200000", "--out", str(out), "--resume", "--json")
    resumed = M.read_metrics(out)
    assert np.all(np.diff(resumed["iteration"]) > 0)  # rows after the checkpoint were dropped
    assert resumed["run"][-1] == 1 and resumed["run"][0] == 0
    assert np.isfinite(resumed["exploitability"][-1])
