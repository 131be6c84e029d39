"""A small game on Ray against one process, at equal iterations (issue 34).

    python benchmarks/ray_small_game.py [--iterations 2000000] [--workers 2] [--repeats 1] [--game leduc]

Runs ``gamesolve solve --game GAME --algo mccfr-p --iterations N --seed 0 --json`` in one
process, then with ``--ray local --workers W`` (a private one-machine Ray started by the
command), in rotation with ``--repeats``. Reported per run: the wall time of the whole
command (Python's start, Ray's start and its workers', training, gathering the tables, the
exact evaluation), the NashConv and exploitability its ``--json`` prints, and for Ray runs
the summary's ``ray_start_seconds``, ``ray_training_seconds``, ``ray_merging_seconds``,
``ray_merging_share`` and ``ray_rounds``; then the acceptance's ratios: wall time Ray / one
process (at most 3x) and NashConv Ray / one process (at most 1.5x), from the means.

``--only ray`` runs the Ray configuration alone (``--only one``: one process alone), e.g. to
time another checkout's code with ``PYTHONPATH=/that/checkout``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time


def timed_solve(args: list[str], **env: str) -> dict:
    """``gamesolve solve ARGS --seed 0 --json`` in a fresh process (Ray's usage report off,
    ``env`` added): its JSON summary with ``wall``, the whole command's seconds."""
    cmd = [sys.executable, "-m", "gamesolve.cli", "solve", *args, "--seed", "0", "--json"]
    started = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=dict(os.environ, RAY_USAGE_STATS_ENABLED="0", **env))
    wall = time.perf_counter() - started
    if proc.returncode != 0:
        raise SystemExit(proc.stderr[-2000:])
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    result["wall"] = wall
    return result


def run(game: str, iterations: int, extra: list[str]) -> dict:
    return timed_solve(["--game", game, "--algo", "mccfr-p", "--iterations", str(iterations), *extra])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="leduc")
    parser.add_argument("--iterations", type=int, default=2_000_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--only", choices=["one", "ray"], default=None)
    args = parser.parse_args()
    configs = {"one process": [], f"Ray, {args.workers} workers": ["--ray", "local", "--workers", str(args.workers)]}
    if args.only:
        configs = {k: v for k, v in configs.items() if (k == "one process") == (args.only == "one")}
    results: dict[str, list[dict]] = {name: [] for name in configs}
    for repeat in range(args.repeats):
        for name, extra in configs.items():
            r = run(args.game, args.iterations, extra)
            results[name].append(r)
            line = f"{repeat + 1} | {name} | {r['iterations']:,} | {r['wall']:.1f} s | {r['nash_conv']:.5f}"
            if "ray_rounds" in r:
                line += (f" | start {r['ray_start_seconds']:.1f} s, training {r['ray_training_seconds']:.2f} s, merging "
                         f"{r['ray_merging_seconds']:.2f} s ({r['ray_merging_share']:.1%}), {r['ray_rounds']:,} rounds")  # fmt: skip
            print(line, flush=True)
    means = {name: (statistics.mean(r["wall"] for r in rs), statistics.mean(r["nash_conv"] for r in rs)) for name, rs in results.items()}
    for name, (wall, nash_conv) in means.items():
        print(f"mean | {name} | {wall:.1f} s | NashConv {nash_conv:.5f}")
    if len(means) == 2:
        (one_wall, one_nc), (ray_wall, ray_nc) = means.values()
        print(f"Ray / one process: wall time {ray_wall / one_wall:.2f}x (acceptance <= 3x), NashConv {ray_nc / one_nc:.2f}x (<= 1.5x)")


if __name__ == "__main__":
    main()
