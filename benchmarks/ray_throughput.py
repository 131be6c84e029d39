"""Blueprint training throughput on Ray against one machine's threads, side by side in one run.

    python benchmarks/ray_throughput.py [--seconds 90] [--preset tiny] [--repeats 1] [--cache 0.15]

Trains the NLTH preset (six players, MCCFR with pruning) for the same wall-clock budget,
in turn: one thread, two threads sharing the tables in one process (``--threads 2``), two
Ray workers (``--ray local --workers 2``: each worker a process with its replica and its
shard of the tables, docs/distributed.md), and two Ray workers with row caches of
``--cache`` times the game's rows (``--cache-rows N``: no process holds every row). Each
configuration is a fresh ``gamesolve solve`` with ``--seed 0``; with ``--repeats`` they run
in rotation. Reported per run: iterations, iterations per second of training (the
schedule's clock: rounds, without start-up and the final gathering) and per second of wall
time of the whole command, and for Ray runs the peak resident memory of a worker process
and (caches) the most rows a worker held against the game's rows; then the ratios the
acceptance asks for: Ray / one thread and Ray / two threads, and the caches' against them.

The run happens in a private network namespace when ``unshare`` allows it (the Ray head
then listens on loopback only); a one-node local Ray is started by the command itself.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys

from ray_small_game import timed_solve  # (benchmarks/ is on the path of a script run from it)

CONFIGS = {
    "1 thread": [],
    "2 threads": ["--threads", "2"],
    "2 Ray workers": ["--ray", "local", "--workers", "2"],
    "2 Ray caches": ["--ray", "local", "--workers", "2", "--cache-rows", "{cache_rows}"],
}


def game_rows(preset: str) -> int:
    """The preset's table rows (owner nodes times their private states)."""
    from gamesolve.distribute.worker import WorkerSpec, build_form
    from gamesolve.distribute.row_cache import row_counts

    return int(row_counts(build_form(WorkerSpec("nlth", {}, preset, (), {}, 0)))[0].sum())


def run(preset: str, seconds: float, extra: list[str]) -> dict:
    result = timed_solve(["--game", "nlth", "--preset", preset, "--minutes", f"{seconds / 60:.4f}", *extra],
                         RAY_AUTH_MODE="disabled")  # fmt: skip
    done, wall = result["iterations_this_run"], result["wall"]
    return {"iterations": done, "per_training_second": done / result["training_seconds"],
            "per_wall_second": done / wall, "wall": wall, "rss": result.get("ray_worker_peak_rss_bytes"),
            "cache_peak": result.get("ray_cache_peak_rows"), "rows": result.get("game_rows"),
            "exchanges": result.get("ray_exchanges")}  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=90.0)
    ap.add_argument("--preset", default="tiny")
    ap.add_argument("--repeats", type=int, default=1)
    ap.add_argument("--cache", type=float, default=0.15, help="row caches' size, a fraction of the game's rows (tiny: its first round is 0.067)")
    ap.add_argument("--in-namespace", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if not args.in_namespace and shutil.which("unshare"):
        inner = f"ip link set lo up && exec {sys.executable} {os.path.abspath(__file__)} --in-namespace " + " ".join(sys.argv[1:])
        if subprocess.run(["unshare", "--net", "--fork", "true"], capture_output=True).returncode == 0:
            raise SystemExit(subprocess.run(["unshare", "--net", "--fork", "sh", "-c", inner]).returncode)
    rows = game_rows(args.preset)
    cache_rows = str(max(1, int(rows * args.cache)))
    print(f"NLTH {args.preset}, {args.seconds:g} s of training per run, {os.cpu_count()} CPUs, {rows:,} rows, "
          f"caches of {int(cache_rows):,} rows", flush=True)  # fmt: skip
    results: dict[str, list[dict]] = {name: [] for name in CONFIGS}
    for _ in range(args.repeats):
        for name, extra in CONFIGS.items():
            r = run(args.preset, args.seconds, [a.format(cache_rows=cache_rows) for a in extra])
            results[name].append(r)
            memory = f"  worker peak RSS {r['rss'] / 2**20:,.0f} MiB" if r["rss"] else ""
            if r["cache_peak"]:
                memory += f", at most {r['cache_peak']:,} of {r['rows']:,} rows held, {r['exchanges']:,} exchanges"
            print(f"{name:<14} {r['iterations']:>11,} iterations  {r['per_training_second']:>9,.0f} it/s of training  "
                  f"{r['per_wall_second']:>9,.0f} it/s of wall time ({r['wall']:.0f} s){memory}", flush=True)  # fmt: skip
    mean = {name: sum(r["per_training_second"] for r in rs) / len(rs) for name, rs in results.items()}
    print(f"Ray / 1 thread  {mean['2 Ray workers'] / mean['1 thread']:.2f}x   (acceptance: >= 1.6x)")
    print(f"Ray / 2 threads {mean['2 Ray workers'] / mean['2 threads']:.2f}x   (acceptance: >= 0.9x)")
    print(f"Ray caches / 1 thread {mean['2 Ray caches'] / mean['1 thread']:.2f}x, / Ray replicas {mean['2 Ray caches'] / mean['2 Ray workers']:.2f}x")


if __name__ == "__main__":
    main()
