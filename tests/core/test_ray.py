"""Training, matches and failures on a real two-node Ray cluster (docs/distributed.md).

The cluster (tests/ray_netns.py) runs in a private network namespace whose only interface is
loopback: a head and a second node of one CPU each, started with ``ray start --head`` and
``ray start --address``; every command of these tests joins it with ``nsenter``. It is
started once for the module (about 15 s) and stopped, with every process it started, at the
end.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil
import pytest

from gamesolve.store.integrity import check_store
from tests.command_output import last_json
from tests.ray_netns import environment

HELPER = Path(__file__).resolve().parents[1] / "ray_netns.py"
REPO = Path(__file__).resolve().parents[2]


def _namespaces_allowed() -> bool:
    try:
        return subprocess.run(["unshare", "--net", "--fork", "true"], capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


class Cluster:
    """The test cluster: its address, and commands run inside its network namespace."""

    def __init__(self, holder: subprocess.Popen, address: str):
        self.holder = holder
        self.address = address

    def popen(self, args: list[str], **kwargs) -> subprocess.Popen:
        cmd = ["nsenter", f"--net=/proc/{self.holder.pid}/ns/net", "--", sys.executable, "-m", "gamesolve.cli", *args]
        return subprocess.Popen(cmd, env=environment(), cwd=REPO, text=True, **kwargs)

    def run(self, args: list[str], timeout: float = 300) -> dict:
        """``gamesolve ARGS --json`` in the cluster's namespace; its JSON result."""
        proc = self.popen([*args, "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        out, err = proc.communicate(timeout=timeout)
        assert proc.returncode == 0, err[-3000:]
        return last_json(out)

    def workers(self) -> list[psutil.Process]:
        """The training worker processes the cluster runs now."""
        procs = psutil.Process(self.holder.pid).children(recursive=True)
        return [p for p in procs if "MCCFRWorker" in " ".join(_cmdline(p))]


def _cmdline(p: psutil.Process) -> list[str]:
    try:
        return p.cmdline()
    except psutil.Error:
        return []


@pytest.fixture(scope="module")
def cluster():
    if not _namespaces_allowed():
        pytest.skip("network namespaces are not available here (unshare --net): the Ray cluster tests need one")
    temp = tempfile.mkdtemp(prefix="gsray", dir="/tmp")  # short: Ray's socket paths must fit 107 bytes
    holder = subprocess.Popen(["unshare", "--net", "--fork", "--", sys.executable, str(HELPER), temp], cwd=REPO,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=environment())  # fmt: skip
    line: list[str] = []
    reader = threading.Thread(target=lambda: line.append(holder.stdout.readline()), daemon=True)
    reader.start()
    reader.join(timeout=180)
    try:
        if not line or not line[0].startswith("READY"):
            pytest.fail(f"the test Ray cluster did not start: {line}; logs in {temp}")
        yield Cluster(holder, line[0].split()[1])
    finally:
        holder.stdin.close()
        try:
            holder.wait(timeout=90)
        except subprocess.TimeoutExpired:
            holder.kill()
        shutil.rmtree(temp, ignore_errors=True)


def in_this_process(*args: str, check: bool = False):
    """``gamesolve ARGS`` in this process: the references the cluster's runs are compared with,
    and refusals (no second Python's imports to wait for); click's result."""
    from click.testing import CliRunner

    from gamesolve.cli import cli

    result = CliRunner().invoke(cli, list(args), catch_exceptions=not check)
    assert not check or result.exit_code == 0, result.output[-3000:]
    return result


def here(args: list[str]) -> dict:
    """``gamesolve ARGS --json`` in this process; its JSON result."""
    return last_json(in_this_process(*args, "--json", check=True).stdout)


def leduc(iterations: int, out: Path | None = None) -> list[str]:
    args = ["solve", "--game", "leduc", "--algo", "mccfr-p", "--iterations", str(iterations), "--seed", "3"]
    return args + (["--out", str(out)] if out else [])


def test_two_workers_train_leduc_as_well_as_one_process_at_equal_iterations_in_a_few_rounds(cluster, tmp_path):
    one = here(leduc(20000))
    two = cluster.run([*leduc(20000, tmp_path / "run"), "--ray", cluster.address, "--workers", "2"])
    assert two["iterations"] == one["iterations"] == 20000
    assert two["ray_workers"] == 2
    assert two["exploitability"] <= 1.5 * one["exploitability"], (two["exploitability"], one["exploitability"])
    # Rounds grow until the exchange between them is a small share (2,000 iterations, then
    # 8,000, then the rest); rounds of a few dozen iterations, as Leduc had before, made 357
    # exchanges here and spent nearly all the time in them.
    assert two["ray_rounds"] <= 10
    assert two["ray_training_seconds"] > 0 and two["ray_merging_seconds"] > 0
    assert two["ray_merging_share"] == pytest.approx(
        two["ray_merging_seconds"] / (two["ray_training_seconds"] + two["ray_merging_seconds"]))
    assert not check_store(tmp_path / "run", deep=True)[1]


@pytest.mark.slow  # ~50 s; the same training with row caches in one process: tests/core/test_row_cache.py
def test_workers_with_row_caches_smaller_than_the_game_train_leduc_as_well_as_one_process_and_resume(cluster, tmp_path):
    # Each worker holds at most 240 of Leduc's 288 rows (an iteration reads up to ~170 of
    # them) and fetches the others from their shards; then the run continues with one worker.
    out = tmp_path / "run"
    one = last_json(subprocess.run([sys.executable, "-m", "gamesolve.cli", *leduc(8000), "--json"], capture_output=True,
                                   text=True, check=True))  # fmt: skip
    two = cluster.run([*leduc(8000, out), "--ray", cluster.address, "--workers", "2", "--cache-rows", "240"])
    assert two["iterations"] == 8000 and two["ray_workers"] == 2
    assert two["ray_cache_peak_rows"] <= 240 < two["game_rows"] == 288
    assert two["ray_cache_fetched_rows"] > 288  # rows were evicted and fetched again
    assert two["exploitability"] <= 1.5 * one["exploitability"], (two["exploitability"], one["exploitability"])
    more = cluster.run(["solve", "--out", str(out), "--resume", "--iterations", "500", "--ray", cluster.address,
                        "--workers", "1", "--cache-rows", "240"])  # fmt: skip
    assert more["iterations"] == 8500 and more["ray_workers"] == 1 and more["ray_cache_peak_rows"] <= 240
    assert more["exploitability"] <= 1.5 * one["exploitability"]
    assert not check_store(out, deep=True)[1]


@pytest.mark.slow  # 35 s; the same relayout in one process: tests/core/test_shards.py
def test_a_run_continues_with_another_number_of_workers_and_without_the_cluster_refused(cluster, tmp_path):
    out = tmp_path / "run"
    paper = ["-o", "average=pluribus", "-o", "strategy_interval=100", "-o", "snapshot_start=2000", "-o", "snapshot_interval=1000",
             "-o", "discount_interval=1000", "-o", "lcfr_threshold=3000"]  # every schedule of Algorithm 1 fires
    cluster.run([*leduc(4000, out), *paper, "--ray", cluster.address, "--workers", "2"])
    more = cluster.run(["solve", "--out", str(out), "--resume", "--iterations", "4000", "--ray", cluster.address, "--workers", "1"])
    assert more["iterations"] == 8000 and more["ray_workers"] == 1
    assert more["exploitability"] < 0.5
    single = subprocess.run([sys.executable, "-m", "gamesolve.cli", "solve", "--out", str(out), "--resume", "--iterations", "10"],
                            capture_output=True, text=True)  # fmt: skip
    assert single.returncode == 2 and "continue it with --ray" in single.stderr.splitlines()[-1]


def test_a_worker_killed_with_kill_9_is_replaced_and_the_run_finishes(cluster, tmp_path):
    out = tmp_path / "run"
    schedules = ["-o", "discount_interval=2000", "-o", "lcfr_threshold=12000", "-o", "prune_threshold=4000"]
    # Long enough that the kill lands while it trains: two workers run Leduc at about a
    # million iterations a second (half that on a loaded machine), in rounds of up to 3 s; the
    # kill comes within 2 s of the first checkpoint (rounds of 2,000 iterations, then up to 4x
    # longer), with millions of iterations to go. (Had it come after the end, no worker would
    # have been replaced: the test fails, it does not pass for nothing.)
    proc = cluster.popen([*leduc(4_000_000, out), *schedules, "--checkpoint", "1s", "--ray", cluster.address, "--workers", "2",
                          "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip
    deadline = time.time() + 180
    while not (out / "LATEST").exists() and proc.poll() is None and time.time() < deadline:
        time.sleep(0.05)  # until training has started and checkpointed once
    time.sleep(random.Random(5).uniform(0.0, 2.0))  # a seeded instant of the training
    victims = cluster.workers()
    assert victims, "no worker to kill"
    os.kill(victims[0].pid, signal.SIGKILL)
    out_text, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err[-3000:]
    result = last_json(out_text)
    assert result["iterations"] == 4_000_000
    assert result["ray_workers_replaced"] >= 1
    assert result["exploitability"] < 0.5  # it trained (uniform play: 2.37)
    assert not check_store(out, deep=True)[1]


def test_the_tiny_blueprint_trains_on_the_cluster_and_plays_a_match_there_as_in_one_process(cluster, tmp_path):
    out = tmp_path / "tiny"
    # --minutes: the only timed run on the cluster here; 3 s of it train tens of thousands of
    # iterations (50,000 on a loaded machine)
    trained = cluster.run(["solve", "--game", "nlth", "--minutes", "0.05", "--out", str(out), "--ray", cluster.address,
                           "--workers", "2"], timeout=600)  # fmt: skip
    assert trained["iterations"] > 1000 and trained["allocated_infoset_actions"] > 0 and trained["ray_workers"] == 2
    agents = f"blueprint:store={out},tag,call,random,tag,call"
    match = ["match", "--game", "nlth", "--agents", agents, "--hands", "30", "--seed", "4"]
    on_cluster = cluster.run([*match, "--ray", cluster.address])
    in_one_process = here(match)
    assert [a["total"] for a in on_cluster["agents"]] == [a["total"] for a in in_one_process["agents"]]
    assert on_cluster["hands"] == in_one_process["hands"] >= 30


ABSTRACTION_CHECK = """
import json, numpy as np
from gamesolve_nlth.abstraction import card_abstraction as ca
turn_table = (np.arange(13_960_050) * 7919 % 8).astype(np.uint8)  # arbitrary tables: the same on both sides
turn_equity = (np.arange(13_960_050) * 104729 % 1000 / 1000).astype(np.float32)
by_board = np.random.default_rng(3).integers(0, 1981, (134_459, 1326), dtype=np.int16)  # river values by board
value_bucket = (np.arange(1981) * 8 // 1981).astype(np.int64)
gaps = np.full(7, 1 / 8)
cdf = np.sort(np.random.default_rng(7).random((5, 7)), axis=1).astype(np.float32)
chunks = [(0, 1500), (700_000, 701_500), (1_285_000, 1_286_792)]  # flop hands
board_chunks = [(0, 2), (8_000, 8_001), (16_430, 16_432)]  # 4-card boards (1,128 turn hands each)
out = {}
for where in (None, "ADDRESS"):
    cluster = ca.Cluster(where, 2)
    flop = list(cluster.map(ca.flop_features, chunks, turn_table=turn_table, turn_equity=turn_equity, turn_buckets=8))
    turn = list(cluster.map(ca.turn_assignment, board_chunks, by_board=by_board, value_bucket=value_bucket, gaps=gaps,
                            cdf=cdf))
    out[str(where)] = [[a.tolist() for a in part[:3]] + [float(part[3].sum())] for part in flop] + [
        [t[0].tolist(), t[1].tolist(), float(t[2].sum()), t[3].tolist()] for t in turn]
print(json.dumps(out["None"] == out["ADDRESS"]))
"""


@pytest.mark.slow  # a minute or two: 420 MB of tables sent to the cluster
def test_card_abstraction_chunks_computed_on_the_cluster_equal_those_computed_here(cluster):
    code = ABSTRACTION_CHECK.replace("ADDRESS", cluster.address)
    cmd = ["nsenter", f"--net=/proc/{cluster.holder.pid}/ns/net", "--", sys.executable, "-c", code]
    proc = subprocess.run(cmd, env=environment(), cwd=REPO, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.strip().splitlines()[-1] == "true"


def test_the_summary_of_a_ray_run_says_where_its_time_went():
    from gamesolve.cli import summary_lines

    result = {"game": "leduc", "players": 2, "algo": "mccfr-p", "iterations": 2_000_000, "seconds": 2.5, "ray_workers": 2,
              "ray_workers_replaced": 0, "ray_rounds": 27, "ray_training_seconds": 1.84, "ray_merging_seconds": 0.21,
              "ray_merging_share": 0.21 / 2.05, "ray_start_seconds": 6.4}  # fmt: skip
    assert "ray         2 workers: 1.84 s training, 0.21 s merging (10%) in 27 rounds; Ray and its workers started in 6.4 s" \
        in summary_lines(result)


WITHOUT_RAY = "import sys; sys.modules['ray'] = None; from gamesolve.cli import cli; sys.argv[0] = 'gamesolve'; cli()"


@pytest.mark.parametrize("args", [
    ["solve", "--game", "leduc", "--algo", "mccfr-p", "--iterations", "10", "--ray"],
    ["match", "--game", "kuhn", "--agents", "random,random", "--hands", "10", "--ray", "127.0.0.1:6379"],
    ["abstraction", "build", "--preset", "tiny", "--ray"],
])  # fmt: skip
def test_ray_options_without_ray_installed_are_one_line_and_exit_2(args):
    proc = subprocess.run([sys.executable, "-c", WITHOUT_RAY, *args], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == ["Error: --ray needs Ray, which is not installed: pip install 'gamesolve[ray]'"]


def _refusal(*args: str):
    """The exit code and standard error's lines of ``gamesolve ARGS`` in this process."""
    result = in_this_process(*args)
    return result.exit_code, result.stderr.strip().splitlines()


def test_cache_rows_without_ray_is_refused_in_one_line():
    assert _refusal("solve", "--game", "leduc", "--algo", "mccfr-p", "--iterations", "10", "--cache-rows", "200") == (2, [
        "Error: --cache-rows needs --ray [ADDRESS|local] (one process holds the whole tables)"])  # fmt: skip


def test_workers_without_ray_is_refused_in_one_line():
    assert _refusal("solve", "--game", "leduc", "--algo", "mccfr-p", "--iterations", "10", "--workers", "2") == (2, [
        "Error: --workers needs --ray [ADDRESS|local] (threads on this machine: --threads)"])  # fmt: skip
