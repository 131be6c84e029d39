"""ACPC matches over TCP on localhost: ``gamesolve acpc dealer`` and one ``gamesolve acpc play``
process per seat, as a user would run them.

    python benchmarks/acpc_match.py [--hands 1000] [--agents tag,random] [--agents tag,random,call,tag,random,call]

For each ``--agents`` list (one agent per seat): the dealer's wall-clock seconds for the
hands (from its ``--json`` report; process start-up and connecting excluded), hands per
second, and each seat's result. Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

GAMESOLVE = [sys.executable, "-m", "gamesolve.cli"]


def run(agents: list[str], hands: int, seed: int, folder: Path) -> dict:
    n = len(agents)
    dealer = subprocess.Popen(
        GAMESOLVE + ["acpc", "dealer", "-p", f"players={n}", "--hands", str(hands), "--seed", str(seed),
                     "--log", str(folder / f"match-{n}"), "--force", "--json"],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    port = int(dealer.stdout.readline().split(" listening on ")[1].split()[0].rsplit(":", 1)[1])
    clients = []
    for agent in agents:  # one at a time, each seated before the next starts: seat i is agents[i]
        clients.append(subprocess.Popen(GAMESOLVE + ["acpc", "play", "--port", str(port), "--agent", agent,
                                                     "-p", f"players={n}", "--json"], stdout=subprocess.PIPE, text=True))  # fmt: skip
        assert "connected" in dealer.stdout.readline()
    for c in clients:
        c.wait()
    report = json.loads(dealer.communicate()[0].strip().splitlines()[-1])
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--agents", action="append", default=None, help="comma-separated, one per seat (repeatable)")
    args = parser.parse_args()
    lists = [a.split(",") for a in (args.agents or ["tag,random", "tag,random,call,tag,random,call"])]
    print("| seats | agents | hands | seconds | hands/s | chips won per seat |")
    print("|---:|---|---:|---:|---:|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for agents in lists:
            r = run(agents, args.hands, args.seed, Path(tmp))
            chips = ", ".join(f"{s['chips']:+,}" for s in r["seats"])
            print(f"| {len(agents)} | {', '.join(agents)} | {r['hands']:,} | {r['seconds']:.1f} | {r['hands_per_second']:.0f} | {chips} |",
                  flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
