"""Stores never lose data: what --out may replace, --force and --resume, one writer per store,
a full disk, fsync before a checkpoint becomes current, and the checkpoint schedule."""

from __future__ import annotations

import errno
import json
import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from gamesolve import cli as cli_module
from gamesolve.cli import cli
from gamesolve.store import checkpoint as ckpt
from gamesolve.store.integrity import check_store
from gamesolve.store.lock import StoreLock
from tests.command_output import last_json


@pytest.fixture
def run(host, monkeypatch):
    monkeypatch.setattr(cli_module, "plugin_host", lambda dirs=(): host)
    return lambda *args: CliRunner().invoke(cli, [str(a) for a in args])


def one_line_error(result) -> str:
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == 2 and len(lines) == 1 and lines[0].startswith("Error: "), result.output
    assert "Traceback" not in result.output
    return lines[0]


def gamesolve(*args, env=None, preexec_fn=None, timeout=300):
    return subprocess.run([sys.executable, "-m", "gamesolve.cli", *map(str, args)], capture_output=True, text=True,
                          timeout=timeout, env=env, preexec_fn=preexec_fn)  # fmt: skip


# -- what --out may replace ---------------------------------------------------------------------
def test_a_folder_of_the_users_files_is_never_replaced(run, tmp_path):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "thesis.tex").write_text("years of work")
    for extra in ([], ["--force"]):
        error = one_line_error(run("solve", "--game", "kuhn", "--iterations", "5", "--out", folder, *extra))
        assert "not a gamesolve store" in error and "never replaced" in error
    assert (folder / "thesis.tex").read_text() == "years of work" and sorted(os.listdir(folder)) == ["thesis.tex"]


def test_a_regular_file_is_never_replaced_nor_renamed(run, tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("keep me")
    for extra in ([], ["--force"]):
        assert "is a file" in one_line_error(run("solve", "--game", "kuhn", "--iterations", "5", "--out", path, *extra))
    assert path.read_text() == "keep me" and sorted(os.listdir(tmp_path)) == ["notes.txt"]


def test_out_under_a_regular_file_is_refused_before_any_work(run, tmp_path):
    (tmp_path / "file").write_text("x")
    error = one_line_error(run("solve", "--game", "leduc", "--algo", "mccfr-p", "--iterations", "5", "--out", tmp_path / "file" / "run"))
    assert "is a file, not a folder" in error


def test_a_store_of_the_same_kind_is_replaced_only_with_force(run, tmp_path):
    out = tmp_path / "kuhn"
    assert run("solve", "--game", "kuhn", "--iterations", "5", "--out", out).exit_code == 0
    assert "--force" in one_line_error(run("solve", "--game", "kuhn", "--iterations", "7", "--out", out))
    result = run("solve", "--game", "kuhn", "--iterations", "7", "--out", out, "--force", "--json")
    assert result.exit_code == 0 and json.loads((out / "zarr.json").read_text())["attributes"]["iterations"] == 7


def test_a_store_of_another_kind_is_never_replaced_even_with_force(run, tmp_path):
    policy, run_store = tmp_path / "policy", tmp_path / "mccfr"
    assert run("solve", "--game", "leduc", "--iterations", "5", "--out", policy).exit_code == 0
    assert run("solve", "--game", "leduc", "--algo", "mccfr", "--iterations", "500", "--out", run_store).exit_code == 0
    error = one_line_error(run("solve", "--game", "leduc", "--algo", "mccfr", "--iterations", "5", "--out", policy, "--force"))
    assert "holds a policy store, not an MCCFR checkpoint store" in error
    error = one_line_error(run("solve", "--game", "leduc", "--iterations", "5", "--out", run_store, "--force"))
    assert "holds an MCCFR checkpoint store, not a policy store" in error
    assert not check_store(policy)[1] and not check_store(run_store)[1]


def test_an_mccfr_store_with_checkpoints_needs_resume_or_force(run, tmp_path):
    out = tmp_path / "run"
    assert run("solve", "--game", "leduc", "--algo", "mccfr-p", "--iterations", "2000", "--out", out).exit_code == 0
    error = one_line_error(run("solve", "--game", "leduc", "--algo", "mccfr-p", "--iterations", "2000", "--out", out))
    assert "--resume to continue it, or --force" in error
    result = run("solve", "--game", "leduc", "--algo", "mccfr-p", "--iterations", "1000", "--out", out, "--force", "--json")
    assert result.exit_code == 0 and last_json(result.stdout)["iterations"] == 1000


# -- --resume --------------------------------------------------------------------------------------
def test_resume_reads_game_algorithm_parameters_and_options_from_the_store(run, tmp_path):
    out = tmp_path / "run"
    first = run("solve", "--game", "leduc", "-p", "players=2", "--algo", "mccfr", "--iterations", "3000", "--out", out,
                "-o", "prune_probability=0.5", "-o", "discount_interval=500", "--seed", "7", "--json")  # fmt: skip
    assert first.exit_code == 0, first.output
    result = run("solve", "--out", out, "--resume", "--iterations", "2000", "--json")
    assert result.exit_code == 0, result.output
    data = last_json(result.stdout)
    assert data["game"] == "leduc" and data["algo"] == "mccfr" and data["iterations"] == 5000
    assert data["config"]["prune_probability"] == 0.5 and data["config"]["discount_interval"] == "500"
    assert data["iterations_this_run"] == 2000 and data["training_seconds"] >= last_json(first.stdout)["training_seconds"]
    summary = run("solve", "--out", out, "--resume", "--iterations", "1000").stdout
    assert "6,000 iterations in" in summary and "this run: 1,000" in summary


def test_resume_refuses_what_disagrees_with_the_store(run, tmp_path):
    out = tmp_path / "run"
    assert run("solve", "--game", "leduc", "--algo", "mccfr", "--iterations", "500", "--out", out).exit_code == 0
    assert "holds a leduc run, not kuhn" in one_line_error(run("solve", "--game", "kuhn", "--out", out, "--resume", "--iterations", "5"))
    assert "holds an mccfr run, not mccfr-p" in one_line_error(run("solve", "--algo", "mccfr-p", "--out", out, "--resume", "--iterations", "5"))
    assert "players=2, not 3" in one_line_error(run("solve", "--players", "3", "--out", out, "--resume", "--iterations", "5"))
    assert "fixed when it starts" in one_line_error(run("solve", "--out", out, "--resume", "--iterations", "5", "-o", "prune_probability=0.2"))
    assert "--seed 0, not 3" in one_line_error(run("solve", "--out", out, "--resume", "--iterations", "5", "--seed", "3"))
    assert "--resume needs --out" in one_line_error(run("solve", "--game", "leduc", "--resume", "--iterations", "5"))


def test_a_tabular_store_cannot_be_resumed_and_says_so(run, tmp_path):
    out = tmp_path / "kuhn"
    assert run("solve", "--game", "kuhn", "--iterations", "5", "--out", out).exit_code == 0
    error = one_line_error(run("solve", "--out", out, "--resume", "--iterations", "5"))
    assert "cannot be resumed" in error and "--force" in error


def test_a_run_stopped_before_its_first_checkpoint_is_reused_by_a_plain_rerun(run, tmp_path):
    out = tmp_path / "run"
    ckpt.create_store(out, {"game": "leduc", "params": {}, "algo": "mccfr-p", "seed": 0, "config": {}})
    assert not ckpt.holds_results(out) and ckpt.latest(out) is None
    result = run("solve", "--game", "leduc", "--algo", "mccfr-p", "--iterations", "1000", "--out", out, "--json")
    assert result.exit_code == 0, result.output
    assert last_json(result.stdout)["iterations"] == 1000 and not check_store(out)[1]


def test_resume_of_a_store_without_a_checkpoint_starts_its_run_afresh(run, tmp_path):
    out = tmp_path / "run"
    assert run("solve", "--game", "leduc", "--algo", "mccfr-p", "--iterations", "1000", "--out", out, "-o", "prune_probability=0.3").exit_code == 0
    for name in ckpt.generations(out):  # as if killed before its first checkpoint
        ckpt._remove(out / name)
    for name in ("LATEST", "policy", "blueprint"):
        target = out / name
        ckpt._remove(target) if target.is_dir() else target.unlink()
    result = run("solve", "--out", out, "--resume", "--iterations", "700", "--json")
    assert result.exit_code == 0, result.output
    data = last_json(result.stdout)
    assert data["iterations"] == 700 and data["config"]["prune_probability"] == 0.3


# -- the checkpoint schedule -------------------------------------------------------------------------
def test_the_first_checkpoint_comes_within_a_minute_or_a_tenth_of_the_run():
    short = ckpt.CheckpointClock(10.0, run_minutes=2.0, now=0.0)  # a tenth: 12 s
    assert not short.due(0, now=11.9) and short.due(0, now=12.0)
    long = ckpt.CheckpointClock(10.0, run_minutes=600.0, now=0.0)  # a minute
    assert not long.due(0, now=59.9) and long.due(0, now=60.0)
    long.done(now=60.0)
    assert not long.due(0, now=659.0) and long.due(0, now=660.0)  # then every interval
    counted = ckpt.CheckpointClock(10.0, run_iterations=50_000, start_iteration=20_000, now=0.0)
    assert not counted.due(24_999, now=1.0) and counted.due(25_000, now=1.0)
    assert ckpt.CheckpointClock(0.25, run_minutes=600.0, now=0.0).due(0, now=15.0)  # an interval under a minute
    assert not ckpt.CheckpointClock(None, run_minutes=1.0, now=0.0).due(10**9, now=10**9)  # --checkpoint off


def test_a_short_run_checkpoints_at_a_tenth_of_its_iterations(run, tmp_path):
    out = tmp_path / "run"
    result = run("solve", "--game", "leduc", "--algo", "mccfr-p", "--iterations", "50000", "--out", out, "--checkpoint", "10m")
    assert result.exit_code == 0, result.output
    first = json.loads((out / "checkpoint-000001" / "zarr.json").read_text())["attributes"]["counters"]["iteration"]
    assert 5_000 <= first < 50_000
    assert ckpt.generations(out) == ["checkpoint-000001", "checkpoint-000002"]  # early, then the final one


def test_checkpoint_interval_spellings(run, tmp_path):
    assert "is --checkpoint 2m" in one_line_error(run("solve", "--game", "leduc", "--algo", "mccfr", "--iterations", "5",
                                                      "-o", "checkpoint=2m"))  # fmt: skip
    assert "positive time" in one_line_error(run("solve", "--game", "leduc", "--algo", "mccfr", "--iterations", "5", "--checkpoint", "0s"))
    assert "positive time such as" in one_line_error(run("solve", "--game", "leduc", "--algo", "mccfr", "--iterations", "5", "--checkpoint", "500"))  # a count: not a time
    assert "keeps no checkpoints" in one_line_error(run("solve", "--game", "kuhn", "--iterations", "5", "--checkpoint", "1m"))
    out = tmp_path / "run"
    assert run("solve", "--game", "leduc", "--algo", "mccfr", "--iterations", "2000", "--out", out, "--checkpoint", "off").exit_code == 0
    assert ckpt.generations(out) == ["checkpoint-000001"]  # only the final one


# -- one writer per store -----------------------------------------------------------------------------
def test_a_second_writer_is_refused_while_the_first_runs(tmp_path):
    out = tmp_path / "run"
    first = subprocess.Popen([sys.executable, "-m", "gamesolve.cli", "solve", "--game", "leduc", "--algo", "mccfr-p",
                              "--minutes", "0.5", "--out", str(out), "--checkpoint", "2s", "--json"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
    try:
        deadline = time.time() + 120
        while ckpt.latest(out) is None:  # writing for sure: its first checkpoint is there
            assert first.poll() is None and time.time() < deadline, "the first writer never checkpointed"
            time.sleep(0.1)
        seconds = [  # all at once, while the first one trains
            subprocess.Popen([sys.executable, "-m", "gamesolve.cli", "solve", "--out", str(out), "--iterations", "100", *args],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for args in (["--resume"], ["--force", "--game", "leduc", "--algo", "mccfr-p"])
        ]  # fmt: skip
        for second in seconds:
            _, err = second.communicate(timeout=120)
            errors = err.strip().splitlines()
            assert second.returncode == 2 and len(errors) == 1, err
            assert f"is being written by another gamesolve process (process {first.pid})" in errors[0]
        assert first.poll() is None, "the first writer ended before the second ones were refused: nothing was tested"
        first.terminate()  # no need to wait for its half minute: SIGTERM saves and exits
        _, stderr = first.communicate(timeout=120)
    finally:
        if first.poll() is None:
            first.kill()
    assert first.returncode == 130, stderr
    assert ckpt.latest(out) is not None and not check_store(out)[1]
    assert gamesolve("solve", "--out", out, "--resume", "--iterations", "100").returncode == 0  # the lock went with it


def test_the_lock_refuses_within_one_process_too(run, tmp_path):
    out = tmp_path / "run"
    out.mkdir()
    with StoreLock(out):
        error = one_line_error(run("solve", "--game", "leduc", "--algo", "mccfr", "--iterations", "5", "--out", out))
    assert f"process {os.getpid()}" in error
    assert run("solve", "--game", "leduc", "--algo", "mccfr", "--iterations", "5", "--out", out).exit_code == 0


# -- a full disk -----------------------------------------------------------------------------------------
def _file_size_limit(limit: int):
    def apply():
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return apply


def _assert_full_disk_is_clean(out: Path, failed: subprocess.CompletedProcess, before: str) -> None:
    errors = [line for line in failed.stderr.splitlines() if line.startswith("Error:")]  # (progress lines aside)
    assert failed.returncode == 2 and len(errors) == 1 and "Traceback" not in failed.stderr, failed.stderr
    assert "no space left" in errors[0] and f"the last checkpoint ({before}) is intact" in errors[0]
    assert ckpt.latest(out) == before and not check_store(out)[1]
    assert not [p for p in out.iterdir() if p.name.startswith(".checkpoint")]  # the partial write is gone


def test_over_the_file_size_limit_is_a_clean_error_that_keeps_the_last_checkpoint(tmp_path):
    """RLIMIT_FSIZE (``ulimit -f``) stands for a full disk without privileges: writes past it
    fail with EFBIG, as they would with ENOSPC."""
    out = tmp_path / "run"
    assert gamesolve("solve", "--game", "leduc", "--algo", "mccfr-p", "--iterations", "20000", "--out", out).returncode == 0
    before = ckpt.latest(out)
    saved = json.loads((out / before / "zarr.json").read_text())["attributes"]["counters"]["iteration"]
    # 1 KiB: above a metadata file, below the regret and average tables' chunks (2-4 KiB).
    failed = gamesolve("solve", "--out", out, "--resume", "--iterations", "20000", preexec_fn=_file_size_limit(1024))
    _assert_full_disk_is_clean(out, failed, before)
    result = gamesolve("solve", "--out", out, "--resume", "--iterations", "1000", "--json")
    assert result.returncode == 0 and last_json(result.stdout)["iterations"] == saved + 1000


@pytest.fixture
def small_tmpfs(tmp_path):
    """A 4 MiB tmpfs, where the system lets us mount one (root with CAP_SYS_ADMIN)."""
    mount = tmp_path / "tmpfs"
    mount.mkdir()
    try:
        made = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(mount)], capture_output=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        made = None
    if made is None or made.returncode != 0:
        pytest.skip("cannot mount a tmpfs here (the file-size-limit test covers a full disk)")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], capture_output=True, timeout=30)


def test_a_full_disk_is_a_clean_error_that_keeps_the_last_checkpoint(small_tmpfs):
    out = small_tmpfs / "run"
    assert gamesolve("solve", "--game", "leduc", "--algo", "mccfr-p", "--iterations", "20000", "--out", out).returncode == 0
    before = ckpt.latest(out)
    filler = small_tmpfs / "filler"
    with open(filler, "wb", buffering=0) as fh:  # fill the disk to the last byte
        try:
            while True:
                fh.write(b"\0" * 4096)
        except OSError as exc:
            assert exc.errno == errno.ENOSPC
    failed = gamesolve("solve", "--out", out, "--resume", "--iterations", "20000")
    _assert_full_disk_is_clean(out, failed, before)
    filler.unlink()
    assert gamesolve("solve", "--out", out, "--resume", "--iterations", "1000").returncode == 0


# -- fsync before a checkpoint becomes current ---------------------------------------------------------------
def test_every_file_of_a_checkpoint_is_fsynced_before_latest_points_at_it(tmp_path, monkeypatch):
    monkeypatch.setenv("GAMESOLVE_FSYNC", "1")
    synced: list[str] = []
    real_fsync = os.fsync

    def recording_fsync(fd):
        synced.append(os.readlink(f"/proc/self/fd/{fd}"))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", recording_fsync)
    out = tmp_path / "run"
    ckpt.create_store(out, {"game": "x"})
    synced.clear()
    import numpy as np

    name = ckpt.write_checkpoint(out, {"a": np.arange(10), "b": np.ones((3, 4))}, {"iteration": 1})
    latest_at = next(i for i, p in enumerate(synced) if p.endswith("/.LATEST.tmp"))
    files = [p for p in (out / name).rglob("*") if p.is_file()]
    assert len(files) >= 5
    # fsynced where it was written: in the hidden folder (one per write attempt) renamed to the generation
    before = {re.sub(rf"/\.{name}\.tmp\d*-{os.getpid()}/", f"/{name}/", p) for p in synced[:latest_at]}
    for f in files:
        assert str(f) in before or str(f.with_name(f".{f.name}.tmp")) in before, f
    assert str(out) in synced[latest_at:]  # the folder, after LATEST's rename
