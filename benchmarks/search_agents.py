"""`gamesolve exploitability --search` with the nested agent and the range agent side by side:
the same command with `-s agent=nested` and `-s agent=range`, alternating, for each game, and
the processor seconds (user + system of the command) and figures of each. Stores from
`gamesolve solve --game GAME --iterations N --out STORE`.

    python benchmarks/search_agents.py kuhn=kuhn.zarr leduc=leduc.zarr liars_dice=ld.zarr --rounds 2
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

GAMESOLVE = str(Path(sys.executable).with_name("gamesolve"))


def run(game: str, store: str, agent: str) -> dict:
    started = time.perf_counter()
    before = os.times()
    out = subprocess.run([GAMESOLVE, "exploitability", "--game", game, "--store", store, "--search", "-s", f"agent={agent}",
                          "--json"], capture_output=True, text=True, check=True)  # fmt: skip
    after = os.times()
    data = json.loads(out.stdout.strip().splitlines()[-1])
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return {"game": game, "agent": agent, "wall": time.perf_counter() - started, "cpu": cpu,
            "exploitability": data["exploitability"], "searches": data["search"]["searches"]}  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("stores", nargs="+", metavar="GAME=STORE")
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    for r in range(args.rounds):
        for pair in args.stores:
            game, _, store = pair.partition("=")
            for agent in ("nested", "range"):
                row = run(game, store, agent)
                print(f"round {r + 1} {game:10} {agent:6} cpu {row['cpu']:7.2f} s  wall {row['wall']:7.2f} s  "
                      f"exploitability {row['exploitability']!r}  searches {row['searches']}", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
