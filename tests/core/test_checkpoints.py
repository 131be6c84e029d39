"""MCCFR checkpoints: resumable, and a crash at any instant leaves the last complete one."""

import os
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

from gamesolve.store import checkpoint as ckpt
from gamesolve.store.zarr_io import StoreError
from tests.command_output import last_json


def solve_cli(*args, check=True):
    proc = subprocess.run(
        [sys.executable, "-m", "gamesolve.cli", *args], capture_output=True, text=True, timeout=300
    )
    if check:
        assert proc.returncode == 0, proc.stderr
    return proc


def test_checkpoint_generations_flip_latest_last(tmp_path):
    ckpt.create_store(tmp_path / "run", {"game": "x"})
    first = ckpt.write_checkpoint(tmp_path / "run", {"a": np.arange(3)}, {"iteration": 1})
    second = ckpt.write_checkpoint(tmp_path / "run", {"a": np.arange(4)}, {"iteration": 2})
    assert ckpt.latest(tmp_path / "run") == second and first < second
    arrays, meta = ckpt.read_checkpoint(tmp_path / "run")
    assert meta["iteration"] == 2 and arrays["a"].tolist() == [0, 1, 2, 3]


def test_an_existing_store_is_not_overwritten(tmp_path):
    ckpt.create_store(tmp_path / "run", {"game": "x"})
    ckpt.write_checkpoint(tmp_path / "run", {"a": np.arange(3)}, {})
    with pytest.raises(StoreError, match="--resume"):
        ckpt.create_store(tmp_path / "run", {"game": "x"})


def test_incomplete_generation_is_ignored_and_cleaned(tmp_path):
    ckpt.create_store(tmp_path / "run", {"game": "x"})
    ckpt.write_checkpoint(tmp_path / "run", {"a": np.arange(3)}, {"iteration": 1})
    (tmp_path / "run" / "checkpoint-000002").mkdir()  # a crash mid-write
    assert ckpt.read_checkpoint(tmp_path / "run")[1]["iteration"] == 1
    ckpt.clean_incomplete(tmp_path / "run")
    assert not (tmp_path / "run" / "checkpoint-000002").exists()


def test_cli_resume_continues_the_iteration_count(tmp_path):
    out = str(tmp_path / "leduc")
    solve_cli("solve", "--game", "leduc", "--algo", "mccfr-p", "--iterations", "5000", "--out", out, "--json")
    proc = solve_cli("solve", "--game", "leduc", "--algo", "mccfr-p", "--iterations", "5000", "--out", out, "--resume", "--json")
    result = last_json(proc)
    assert result["iterations"] == 10_000 and result["iterations_this_run"] == 5_000
    assert {"nash_conv", "exploitability", "game_value", "seconds", "store"} <= set(result)


def test_a_resumed_run_writes_the_strategy_store_a_straight_run_writes(tmp_path):
    """Continuation strategies included: they are sampled with the run's seed, which --resume
    reads from the store (the command line's --seed defaults to 0)."""
    import zarr

    straight, resumed = str(tmp_path / "straight"), str(tmp_path / "resumed")
    run = ("solve", "--game", "leduc", "--algo", "mccfr-p", "--seed", "5", "--json")
    solve_cli(*run, "--iterations", "10000", "--out", straight)
    solve_cli(*run, "--iterations", "4000", "--out", resumed)
    solve_cli("solve", "--out", resumed, "--resume", "--iterations", "6000", "--json")
    a, b = (zarr.open_group(f"{path}/blueprint", mode="r") for path in (straight, resumed))
    assert sorted(a.array_keys()) == sorted(b.array_keys()) and "continuation_1" in a.array_keys()
    for name in a.array_keys():
        assert np.array_equal(a[name][...], b[name][...]), name


def test_cli_refuses_to_resume_another_games_run(tmp_path):
    out = str(tmp_path / "kuhn")
    solve_cli("solve", "--game", "kuhn", "--algo", "mccfr", "--iterations", "1000", "--out", out)
    proc = solve_cli("solve", "--game", "leduc", "--algo", "mccfr", "--iterations", "1000", "--out", out, "--resume", check=False)
    assert proc.returncode == 2 and "holds a kuhn" in proc.stderr


CRASHING_RUN = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    import gamesolve.store.checkpoint as ckpt
    from gamesolve.cli import cli

    flag = Path(sys.argv[1])
    original = ckpt.write_array
    calls = {"n": 0}

    def slow_write(group, name, data, chunk=1 << 20):
        original(group, name, data, chunk)
        # Second checkpoint: stop half-way through writing its arrays and wait to be killed.
        if "checkpoint-000002" in str(group.store) and name == "node_offset":
            flag.write_text("writing")
            time.sleep(60)

    ckpt.write_array = slow_write
    cli.main(sys.argv[2:])
    """
)


def test_sigkill_while_writing_a_checkpoint_leaves_the_previous_one_usable(tmp_path):
    out = tmp_path / "run"
    flag = tmp_path / "flag"
    args = ["solve", "--game", "leduc", "--algo", "mccfr-p", "--minutes", "5", "--out", str(out), "--checkpoint", "1s"]
    proc = subprocess.Popen([sys.executable, "-c", CRASHING_RUN, str(flag), *args], stderr=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    try:
        deadline = time.time() + 120
        while not flag.exists():
            assert time.time() < deadline and proc.poll() is None, "the run never reached its second checkpoint"
            time.sleep(0.05)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert ckpt.latest(out) == "checkpoint-000001"
    # The half-written generation is under a hidden name: readers never see it, and the
    # store checks sound.
    assert not (out / "checkpoint-000002").exists() and list(out.glob(".checkpoint-000002.tmp*-*"))
    assert solve_cli("store", "check", str(out)).returncode == 0
    saved = ckpt.read_checkpoint(out)[1]["counters"]["iteration"]
    assert saved > 0
    result = last_json(
        solve_cli("solve", "--game", "leduc", "--algo", "mccfr-p", "--iterations", "10000", "--out", str(out), "--resume", "--json")
    )
    assert result["iterations"] == saved + 10_000
    assert not list(out.glob(".checkpoint-*"))  # resuming cleared the crash's leftovers
