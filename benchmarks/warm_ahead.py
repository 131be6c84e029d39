"""README command 1's job with the training's kernels compiled ahead and without
(gamesolve/solve/warm.py), each from empty caches, alternating.

Each run: `gamesolve solve --game nlth --out DIR` (the main job, no install) in a fresh
process with its own empty ``HOME`` (so an empty numba cache and no card abstraction:
everything is compiled and built as on a fresh machine), ``GAMESOLVE_WARM=1`` or ``0``.
Printed per run: wall seconds of the whole job, iterations trained in its minutes, and the
iterations per second of the training as its summary reports them. Runs take 3-4 minutes
each on 2 cores.

    python benchmarks/warm_ahead.py                  # on, off, once each
    python benchmarks/warm_ahead.py --rounds 2 --minutes 2
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import tempfile
import time
from pathlib import Path

from cold_start import GAMESOLVE  # the same launcher as the cold-start benchmark


def run(warm: bool, minutes: float | None) -> dict:
    with tempfile.TemporaryDirectory(prefix="warm-ahead-") as tmp:
        env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "GAMESOLVE_CACHE_DIR", "XDG_CACHE_HOME")}
        env.update(HOME=tmp, GAMESOLVE_WARM="1" if warm else "0")
        args = [*GAMESOLVE, "solve", "--game", "nlth", "--out", str(Path(tmp) / "bp")]
        if minutes is not None:
            args += ["--minutes", str(minutes)]
        started = time.perf_counter()
        out = subprocess.run(args, env=env, cwd=tmp, capture_output=True, text=True)
        wall = time.perf_counter() - started
    if out.returncode != 0:
        raise SystemExit(f"the job failed ({out.returncode}):\n{out.stdout[-2000:]}\n{out.stderr[-2000:]}")
    trained = re.search(r"([\d,]+) iterations in ([\d.]+) s", out.stdout)
    rate = re.search(r"([\d,]+) iterations/s", out.stdout)
    return {"warm": warm, "wall": wall, "iterations": int(trained.group(1).replace(",", "")),
            "train_seconds": float(trained.group(2)), "rate": int(rate.group(1).replace(",", ""))}  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--minutes", type=float, default=None, help="training minutes (default: the preset's)")
    args = ap.parse_args()
    print("| round | kernels compiled ahead | job wall s | iterations | training s | iterations/s |")
    print("|---:|---|---:|---:|---:|---:|")
    for r in range(1, args.rounds + 1):
        for warm in ((True, False) if r % 2 else (False, True)):
            x = run(warm, args.minutes)
            print(f"| {r} | {'yes' if warm else 'no'} | {x['wall']:.1f} | {x['iterations']:,} | {x['train_seconds']:.1f} "
                  f"| {x['rate']:,} |", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
