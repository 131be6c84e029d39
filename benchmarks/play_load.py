"""Load on the web table: N simulated players at once (websocket clients, one table each),
H hands each, against `gamesolve serve` on this machine; prints the response times.

    python benchmarks/play_load.py --store BLUEPRINT [--clients 50] [--hands 20] [--seed 0]

It starts `gamesolve serve --game nlth --agents blueprint:store=BP,tag,random,call,blueprint:store=BP`
on a free local port, runs the players (gamesolve/play/loadtest.py), stops the server, checks
its log for tracebacks and 5xx, and prints one JSON object (median and 95th-percentile
response time: from sending an action to the state where it is the player's turn again or
the hand is over, agents' moves included). Only 127.0.0.1 is ever a target.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from gamesolve.play.loadtest import run_load


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--store", required=True, help="an NLTH blueprint (gamesolve solve --game nlth --out PATH)")
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--hands", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=4, help="the server's agent threads")
    ap.add_argument("--timeout", type=float, default=600.0)
    args = ap.parse_args()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    bp = f"blueprint:store={args.store}"
    agents = f"{bp},tag,random,call,{bp}"
    with tempfile.TemporaryDirectory() as data:
        log_path = Path(data) / "server.log"
        with log_path.open("w") as log:
            server = subprocess.Popen(
                [sys.executable, "-m", "gamesolve.cli", "serve", "--game", "nlth", "--agents", agents, "--port", str(port),
                 "--data", str(Path(data) / "tables"), "--max-tables", str(args.clients + 10), "--workers", str(args.workers),
                 "--seed", str(args.seed)],
                stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )  # fmt: skip
            try:
                _wait_for(port, server)
                result = asyncio.run(run_load(f"http://127.0.0.1:{port}", args.clients, args.hands, args.seed, args.timeout))
            finally:
                server.terminate()
                server.wait(timeout=30)
        text = log_path.read_text()
    summary = result.summary()
    summary["server_tracebacks"] = text.count("Traceback")
    summary["server_5xx"] = sum(1 for line in text.splitlines() if "HTTP/1.1\" 5" in line)
    summary["agents"] = "blueprint,tag,random,call,blueprint"
    print(json.dumps(summary))
    for e in result.errors[:10]:
        print("error:", e, file=sys.stderr)
    return 0 if not result.errors and not summary["server_tracebacks"] and not summary["server_5xx"] else 1


def _wait_for(port: int, server: subprocess.Popen) -> None:
    deadline = time.time() + 120
    while time.time() < deadline:
        if server.poll() is not None:
            raise SystemExit("gamesolve serve exited")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit("gamesolve serve did not start")


if __name__ == "__main__":
    sys.exit(main())
