"""kill -9 at random instants: a training run killed, continued, killed again, ..., finished.

Each segment is ``gamesolve solve`` in a subprocess, killed with SIGKILL at an instant drawn
from a seeded RNG (some before training starts, some during a checkpoint write). After each
kill the store must be sound, its checkpoint no older than the one before, and the training
lost since the last checkpoint at most one checkpoint interval (plus the slack of a batch
and of a loaded machine). The next segment continues it: ``--resume`` once a checkpoint
exists, a plain rerun before (a run killed before its first checkpoint is reused).
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from gamesolve.store import checkpoint as ckpt
from gamesolve.store.integrity import check_store
from tests.command_output import last_json


def saved_iteration(out: Path) -> int:
    name = ckpt.latest(out)
    if name is None:
        return 0
    return json.loads((out / name / "zarr.json").read_text())["attributes"]["counters"]["iteration"]


def _watch(stream, events: dict) -> None:
    """Timestamp the line that says training has started (its first batch follows)."""
    lines = events.setdefault("lines", [])
    for line in iter(stream.readline, ""):
        if line.startswith("training ") and "started" not in events:
            events["started"] = time.time()
        lines.append(line)
    stream.close()


def kill_and_resume(out: Path, first_args: list[str], *, kills: int, seed: int, train_window: float,
                    interval_seconds: float, slack_seconds: float, finish_iterations: int,
                    during_startup: float = 0.3) -> list[dict]:  # fmt: skip
    """Run the chain and check it; returns one record per kill (for the failure message).

    A share ``during_startup`` of the kills comes while the process starts (before training:
    0.2 to 2 s after it was spawned); the others at a random instant of the first
    ``train_window`` seconds of training. Instants are measured from the process's own
    "training" line, so that a loaded machine's slow start does not move them."""
    rng = random.Random(seed)
    records = []
    saved = 0
    for k in range(kills):
        if ckpt.latest(out) is None:  # nothing to resume: a plain rerun reuses the folder
            args = first_args
        else:
            args = ["solve", "--out", str(out), "--resume", "--minutes", "1", "--checkpoint", f"{interval_seconds:g}s"]
        early = rng.random() < during_startup
        instant = rng.uniform(0.2, 2.0) if early else rng.uniform(0.0, train_window)
        before = (out / ckpt.LATEST).stat().st_mtime if (out / ckpt.LATEST).exists() else None
        spawned = time.time()
        proc = subprocess.Popen([sys.executable, "-m", "gamesolve.cli", *args], stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True)  # fmt: skip
        events: dict = {}
        watcher = threading.Thread(target=_watch, args=(proc.stderr, events), daemon=True)
        watcher.start()
        if early:
            time.sleep(instant)
        else:
            deadline = time.time() + 300
            while "started" not in events and proc.poll() is None and time.time() < deadline:
                time.sleep(0.02)
            time.sleep(max(0.0, events.get("started", time.time()) + instant - time.time()))
        killed_at = time.time()
        alive = proc.poll() is None
        if alive:
            os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=60)
        watcher.join(timeout=10)
        assert alive, (f"kill {k}: the run ended by itself before {instant:.1f} s (exit {proc.returncode}): "
                       f"{''.join(events.get('lines', []))[-1500:]}")  # fmt: skip
        record = {"kill": k, "after": "spawn" if early else "training start", "at": round(instant, 2),
                  "seconds_since_spawn": round(killed_at - spawned, 2), "resumed": "--resume" in args}  # fmt: skip
        problems = check_store(out)[1] if (out / "manifest.json").exists() else []
        assert not problems, f"kill {k} at {instant:.2f} s left a damaged store: {problems}"
        now_saved = saved_iteration(out)
        assert now_saved >= saved, f"kill {k}: the checkpoint went back from {saved} to {now_saved} iterations"
        saved = now_saved
        record["saved_iteration"] = saved
        if "started" in events:
            marker = out / ckpt.LATEST
            committed = marker.stat().st_mtime if marker.exists() else None
            last = committed if committed is not None and committed != before and committed > events["started"] else events["started"]
            lost = killed_at - last
            record["lost_seconds"] = round(lost, 2)
            assert lost <= interval_seconds + slack_seconds, (
                f"kill {k} at {instant:.2f} s lost {lost:.2f} s of training, more than one checkpoint interval "
                f"({interval_seconds} s, + {slack_seconds} s slack): {records + [record]}"
            )
        records.append(record)
    if ckpt.latest(out):
        final_args = ["solve", "--out", str(out), "--resume", "--iterations", str(finish_iterations), "--json"]
    else:  # every kill came before the first checkpoint
        final_args = [*first_args, "--iterations", str(finish_iterations), "--json"]
    final = subprocess.run([sys.executable, "-m", "gamesolve.cli", *final_args], capture_output=True, text=True, timeout=600)
    assert final.returncode == 0, final.stderr[-2000:]
    result = last_json(final)
    assert result["iterations"] == saved + finish_iterations, (result["iterations"], saved, records)
    assert not check_store(out)[1]
    return records


SLOW_WRITES = 0.03  # seconds before each file of a checkpoint is written (GAMESOLVE_TEST_SLOW_WRITES)


def _writing_checkpoint(out: Path) -> bool:
    """Whether a checkpoint generation is being written: its hidden work folder exists."""
    return any(p.name.startswith(".checkpoint-") and ".tmp" in p.name for p in out.iterdir()) if out.is_dir() else False


def term_and_resume(out: Path, first_args: list[str], *, stops: int, seed: int, train_window: float,
                    inside_writes: float = 0.5) -> list[dict]:  # fmt: skip
    """SIGTERM at seeded instants, each run continuing the one before; checked and returned.

    A share ``inside_writes`` of the signals lands inside a checkpoint write (every file of a
    write waits ``SLOW_WRITES`` in zarr's I/O thread, so that the instant is certain: the
    signal goes once the generation's hidden work folder exists, while the main thread waits
    on zarr); the others at a random instant of the
    first ``train_window`` seconds of training. Every run must exit 130 having saved where it
    stopped: the store sound, its checkpoint at least as new as before, and the next run
    resuming from exactly that checkpoint."""
    rng = random.Random(seed)
    env = {**os.environ, "GAMESOLVE_TEST_SLOW_WRITES": str(SLOW_WRITES)}
    records: list[dict] = []
    saved = 0
    for k in range(stops):
        resumed = ckpt.latest(out) is not None
        args = ["solve", "--out", str(out), "--resume", "--minutes", "1", "--checkpoint", "1s"] if resumed else first_args
        in_write = rng.random() < inside_writes
        instant = rng.uniform(0.0, SLOW_WRITES * 10) if in_write else rng.uniform(0.0, train_window)
        proc = subprocess.Popen([sys.executable, "-m", "gamesolve.cli", *args], stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True, env=env)  # fmt: skip
        events: dict = {}
        watcher = threading.Thread(target=_watch, args=(proc.stderr, events), daemon=True)
        watcher.start()
        deadline = time.time() + 300
        try:
            while "started" not in events and proc.poll() is None and time.time() < deadline:
                time.sleep(0.01)
            if in_write:  # the first checkpoint write after training started
                while not _writing_checkpoint(out) and proc.poll() is None and time.time() < deadline:
                    time.sleep(0.005)
                time.sleep(instant)
                inside = _writing_checkpoint(out)
            else:
                time.sleep(max(0.0, events.get("started", time.time()) + instant - time.time()))
                inside = _writing_checkpoint(out)
            alive = proc.poll() is None
            if alive:
                os.kill(proc.pid, signal.SIGTERM)
            proc.wait(timeout=120)
        finally:
            if proc.poll() is None:
                proc.kill()
        watcher.join(timeout=10)
        text = "".join(events.get("lines", []))
        record = {"stop": k, "in_write": in_write, "inside_a_write": inside, "at": round(instant, 3), "resumed": resumed}
        assert alive, f"stop {k}: the run ended by itself (exit {proc.returncode}) before the signal: {text[-1500:]}"
        assert proc.returncode == 130, f"stop {k} ({record}): exit {proc.returncode}, not 130: {text[-2000:]}"
        if resumed:
            assert f"at iteration {saved:,}" in " ".join(text.split()), f"stop {k}: did not resume from the last checkpoint ({saved:,}): {text[-1500:]}"
        problems = check_store(out)[1]
        assert not problems, f"stop {k} ({record}) left a damaged store: {problems}"
        assert not _writing_checkpoint(out), f"stop {k} ({record}) left a checkpoint's work folder behind"
        now_saved = saved_iteration(out)
        assert now_saved >= saved and ckpt.latest(out) is not None, f"stop {k}: checkpoint {saved} -> {now_saved}"
        saved = record["saved_iteration"] = now_saved
        records.append(record)
    final = subprocess.run([sys.executable, "-m", "gamesolve.cli", "solve", "--out", str(out), "--resume",
                            "--iterations", "1000", "--json"], capture_output=True, text=True, timeout=600)  # fmt: skip
    assert final.returncode == 0, final.stderr[-2000:]
    assert last_json(final)["iterations"] == saved + 1000
    return records
