"""A two-node Ray cluster for tests, on the loopback address of a private network namespace.

Run as ``unshare --net --fork -- python tests/ray_netns.py TEMP_DIR``: brings up ``lo`` (the
namespace's only interface, so Ray's nodes use 127.0.0.1 and no traffic can leave), starts a
head (``ray start --head``) and a second node (``ray start --address``) of one CPU each,
prints ``READY <address>`` once both are up, and when its standard input closes, stops both
nodes and every process they started. Commands join the cluster with ``nsenter
--net=/proc/<pid>/ns/net`` (see :class:`tests.core.test_ray.Cluster`).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil

PORT = 6379


def environment() -> dict[str, str]:
    """What every process of the test cluster runs with: no usage reports, no token files."""
    return dict(os.environ, RAY_USAGE_STATS_ENABLED="0", RAY_AUTH_MODE="disabled")


def start(args: list[str], temp: Path, name: str) -> subprocess.Popen:
    ray = str(Path(sys.executable).with_name("ray"))
    log = open(temp / f"{name}.log", "w")  # noqa: SIM115 - closed with the process
    return subprocess.Popen([ray, "start", "--block", "--num-cpus=1", "--disable-usage-stats", *args], env=environment(),
                            stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)  # fmt: skip


def nodes_alive(address: str) -> int:
    probe = ("import ray; ray.init(address=%r, logging_level='ERROR', log_to_driver=False); "
             "print(sum(n['Alive'] for n in ray.nodes()))") % address  # fmt: skip
    out = subprocess.run([sys.executable, "-c", probe], env=environment(), capture_output=True, text=True, timeout=60)
    return int(out.stdout.strip().splitlines()[-1]) if out.returncode == 0 and out.stdout.strip() else 0


def stop(procs: list[subprocess.Popen]) -> None:
    """Stop the nodes: SIGTERM to their process groups, then SIGKILL to whatever they left."""
    family = set()
    for p in procs:
        try:
            family |= {c.pid for c in psutil.Process(p.pid).children(recursive=True)} | {p.pid}
        except psutil.NoSuchProcess:
            pass
    for p in procs:
        try:
            os.killpg(p.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
    # On SIGTERM ``ray start --block`` drains its node for up to 30 s before it stops the
    # node's processes (Ray 2.60's log says so), which nothing of a test cluster needs: the
    # processes that exit on SIGTERM do within a second (the others waited out the 10 s this
    # was before, issue 36), and every one left is killed.
    deadline = time.time() + 1
    while time.time() < deadline and any(psutil.pid_exists(pid) and psutil.Process(pid).status() != "zombie" for pid in family):
        time.sleep(0.2)
    for p in procs:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    for pid in family:
        try:
            os.kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    for p in procs:
        p.wait(timeout=30)


def main(temp: Path) -> None:
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
    address = f"127.0.0.1:{PORT}"
    procs = [start(["--head", f"--port={PORT}", "--include-dashboard=false", f"--temp-dir={temp}"], temp, "head")]
    try:
        time.sleep(3)
        procs.append(start([f"--address={address}"], temp, "node"))
        deadline = time.time() + 120

        def failed() -> bool:
            return time.time() > deadline or any(p.poll() is not None for p in procs)

        # A probe is a Ray driver of its own (seconds): first both nodes' "started" lines (for
        # a while: should Ray word them otherwise, the probes alone decide)
        started_by = time.time() + 60
        while time.time() < started_by and not all("Ray runtime started" in (temp / f"{name}.log").read_text()
                                                    for name in ("head", "node")):  # fmt: skip
            if failed():
                raise SystemExit("the test Ray cluster did not start (see the logs in %s)" % temp)
            time.sleep(0.1)
        while nodes_alive(address) < 2:
            if failed():
                raise SystemExit("the test Ray cluster did not start (see the logs in %s)" % temp)
            time.sleep(1)
        print(f"READY {address}", flush=True)
        sys.stdin.read()  # until the test closes our input
    finally:
        stop(procs)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
