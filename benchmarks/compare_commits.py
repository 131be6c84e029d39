"""NLTH blueprint training throughput of this checkout against another commit, in one run.

    python benchmarks/compare_commits.py [--base REV] [--preset tiny] [--seconds 20] [--rounds 3]

The other commit is checked out into a temporary git worktree; both trees train the same
six-player preset, one thread, alternating rounds (so machine noise hits both alike), each in
its own process with its own numba cache. Prints iterations/s per round and the median ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PROBE = r"""
import json, sys, time
# Editable installs put a finder ahead of PYTHONPATH: drop it so each tree imports its own code.
sys.meta_path = [f for f in sys.meta_path if "__editable__" not in getattr(f, "__module__", "")]
from gamesolve_nlth.state import NLTHGame
from gamesolve_nlth.blueprint.presets import blueprint_preset
from gamesolve.solve.mccfr import MCCFRConfig, MCCFRTrainer
try:
    from gamesolve_nlth.blueprint.form import nlth_form as build
except ImportError:  # commits before the factored form
    from gamesolve_nlth.blueprint.poker_tree import nlth_poker_tree as build
preset = blueprint_preset(sys.argv[1])
form = build(NLTHGame(players=6), preset)
config = MCCFRConfig.from_options(form.mccfr_defaults, legacy=True) if "legacy" in MCCFRConfig.from_options.__code__.co_varnames else MCCFRConfig.from_options(form.mccfr_defaults)
trainer = MCCFRTrainer(form, config, threads=1, seed=0)
trainer.run(iterations=5000)  # compile and warm up
it0 = trainer.counters.iteration
started = time.perf_counter()
trainer.run(minutes=float(sys.argv[2]) / 60)
print(json.dumps({"rate": (trainer.counters.iteration - it0) / (time.perf_counter() - started)}))
"""


def tree_path(tree: Path) -> str:
    return ":".join(str(tree / p) for p in (".", "plugins/kuhn", "plugins/leduc", "plugins/nlth"))


def rate(tree: Path, preset: str, seconds: float) -> float:
    env = {**os.environ, "PYTHONPATH": tree_path(tree)}
    out = subprocess.run([sys.executable, "-c", PROBE, preset, str(seconds)], env=env, cwd=tree, capture_output=True, text=True)
    if out.returncode:
        raise SystemExit(f"the probe failed in {tree}:\n{out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])["rate"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", default="HEAD~1", help="the commit to compare against (default HEAD~1)")
    parser.add_argument("--preset", default="tiny")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "base"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(base), args.base], check=True, capture_output=True)
        try:
            ratios = []
            print(f"| round | {args.base} it/s | this checkout it/s | ratio |")
            print("|---|---:|---:|---:|")
            for r in range(args.rounds):
                old = rate(base, args.preset, args.seconds)
                new = rate(ROOT, args.preset, args.seconds)
                ratios.append(new / old)
                print(f"| {r + 1} | {old:,.0f} | {new:,.0f} | {new / old:.3f} |", flush=True)
            print(f"\nmedian ratio (this checkout / {args.base}): {statistics.median(ratios):.3f}")
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base)], capture_output=True)


if __name__ == "__main__":
    main()
