"""The evaluation figures of docs/evaluation.md: AIVAT against raw win rates, and local best
response against the baselines and blueprints (heads-up). Long: tens of minutes on 2 cores.

    python benchmarks/evaluation.py aivat --blueprint bp-hu-small=PATH --hands 5000 --workers 2 --out runs
    python benchmarks/evaluation.py lbr --agents random,call,tag,blueprint:store=PATH --hands 2000 --workers 2 --out runs

Each run is the CLI command shown in its table row (``gamesolve match ... --aivat --json``,
``gamesolve lbr ... --json``); its JSON output is kept in ``--out`` (the match files are what
``gamesolve plot`` draws as bars). Prints Markdown tables.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path


def gamesolve(args: list[str], out: Path | None) -> dict:
    started = time.time()
    proc = subprocess.run([sys.executable, "-m", "gamesolve.cli", *args], capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"gamesolve {' '.join(args)} failed:\n{proc.stderr[-3000:]}")
    line = proc.stdout.strip().splitlines()[-1]
    if out is not None:
        out.write_text(line + "\n")
    data = json.loads(line)
    data["_wall"] = time.time() - started
    return data


def aivat(args) -> None:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    print("| match | hands | raw mbb/g ± SE | AIVAT mbb/g ± SE | SE ratio | variance reduction | command |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for spec in args.blueprint:
        label, _, path = spec.partition("=")
        players = args.players
        agents = ",".join([f"blueprint:store={path}"] + ["tag"] * (players - 1))
        cmd = ["match", "--game", "nlth", "--agents", agents, "--hands", str(args.hands), "--seed", str(args.seed),
               "--workers", str(args.workers), "--aivat", "--json"]  # fmt: skip
        data = gamesolve(cmd, out / f"aivat-{label}-{players}p.json")
        a = data["agents"][0]
        v = a["aivat"]
        print(f"| {label} vs {'tag' if players == 2 else f'{players - 1} x tag'} | {data['hands']:,} | {a['win_rate']:+.0f} ± {a['stderr']:.0f} "
              f"| {v['win_rate']:+.0f} ± {v['stderr']:.0f} | {a['stderr'] / v['stderr']:.2f} | {v['variance_reduction']:.1f} "
              f"| `gamesolve {' '.join(cmd)}` |", flush=True)


def lbr(args) -> None:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    print("| agent | hands | LBR mbb/g ± SE | 95% interval | seconds | command |")
    print("|---|---:|---:|---|---:|---|")
    for agent in args.agents.split(","):
        cmd = ["lbr", "--game", "nlth", "-p", f"players={args.players}", "--agent", agent, "--hands", str(args.hands),
               "--seed", str(args.seed), "--workers", str(args.workers), "--json"]  # fmt: skip
        for opt in args.option or []:
            cmd += ["-o", opt]
        name = agent.split(":")[0] if "store=" not in agent else Path(agent.split("store=")[1]).name
        data = gamesolve(cmd, out / f"lbr-{name}-{args.players}p.json")
        lo, hi = data["mbb_per_game"] - 1.96 * data["se"], data["mbb_per_game"] + 1.96 * data["se"]
        print(f"| {name} | {data['hands']:,} | {data['mbb_per_game']:+.0f} ± {data['se']:.0f} | [{lo:.0f}, {hi:.0f}] "
              f"| {data['seconds']:.0f} | `gamesolve {' '.join(cmd)}` |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="what", required=True)
    a = sub.add_parser("aivat")
    a.add_argument("--blueprint", action="append", required=True, help="LABEL=PATH of a blueprint store (repeatable)")
    a.add_argument("--players", type=int, default=2)
    a.add_argument("--hands", type=int, default=5000)
    a.add_argument("--seed", type=int, default=1)
    a.add_argument("--workers", type=int, default=2)
    a.add_argument("--out", default="runs")
    b = sub.add_parser("lbr")
    b.add_argument("--agents", required=True, help="comma-separated agent specs")
    b.add_argument("--players", type=int, default=2)
    b.add_argument("--hands", type=int, default=2000)
    b.add_argument("--seed", type=int, default=1)
    b.add_argument("--workers", type=int, default=2)
    b.add_argument("--option", "-o", action="append", help="LBR option KEY=VALUE (repeatable)")
    b.add_argument("--out", default="runs")
    args = parser.parse_args()
    {"aivat": aivat, "lbr": lbr}[args.what](args)


if __name__ == "__main__":
    main()
