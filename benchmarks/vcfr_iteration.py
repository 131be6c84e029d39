"""Seconds per vector-CFR iteration on the issue's spots, and a hash of the tables they leave.

For comparing two versions of the kernels without a whole solve (the flop's takes 20 minutes):
the spot of ``benchmarks/spot_speed.py`` on one street, built and solved as ``gamesolve spot``
builds it (float32 tables unless ``--precision 16``, DCFR with t^3 averages), one warm-up iteration (compilation, the
first touch of the tables' memory), then ``--iterations - 1`` timed ones; printed: the median
processor and wall seconds per iteration, the seconds of a best-response check, the
exploitability reached and the SHA-256 (first 16 hex digits) of the regret and average tables.
Equal hashes mean the same bits. Run it once per version, for example from a worktree of the
older commit (its ``gamesolve`` first on the path; the plugin is this checkout's):

    python benchmarks/vcfr_iteration.py --street flop --threads 2 --iterations 4
    PYTHONPATH=/path/to/worktree python benchmarks/vcfr_iteration.py --street flop --threads 2 --iterations 4
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from spot_speed import BOARDS, issue_spot  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--street", choices=tuple(BOARDS), default="turn")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--iterations", type=int, default=30, help="iterations in all, the first one untimed (at least 2)")
    ap.add_argument("--precision", type=int, choices=(16, 32), default=32, help="bits per table entry (16: compressed)")
    args = ap.parse_args()
    if args.iterations < 2:
        ap.error("--iterations must be at least 2 (the first one is not timed)")

    import gamesolve
    from gamesolve.solve.vcfr import VectorCFR
    from gamesolve_nlth.spot.solve import PRECISIONS, SPOT_WEIGHTINGS, compile_kernels
    from gamesolve_nlth.spot.suits import ranges_symmetric
    from gamesolve_nlth.spot.tree import build_spot, spot_ranges

    spot, oop, ip = issue_spot(args.street)
    reach = spot_ranges(spot, oop, ip)
    form = build_spot(spot, symmetric=ranges_symmetric(reach, spot.board))
    solver = VectorCFR(form, SPOT_WEIGHTINGS["dcfr"], root_reach=reach, threads=args.threads,
                        dtype=PRECISIONS[args.precision])  # fmt: skip
    compile_kernels(args.threads, PRECISIONS[args.precision])
    solver.run(1)
    cpu, wall = [], []
    for _ in range(args.iterations - 1):
        c, w = time.process_time(), time.perf_counter()
        solver.run(1)
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - w)
    c = time.process_time()
    exploitability = solver.exploitability()[0]
    check = time.process_time() - c
    digest = hashlib.sha256(solver.tables.regrets.tobytes() + solver.tables.avg.tobytes()).hexdigest()[:16]
    print(json.dumps({
        "gamesolve": os.path.dirname(gamesolve.__file__), "street": args.street, "threads": args.threads,
        "precision": args.precision,
        "nodes": form.num_nodes, "iterations": solver.iterations, "cpu_seconds_per_iteration": round(float(np.median(cpu)), 4),
        "wall_seconds_per_iteration": round(float(np.median(wall)), 4), "check_cpu_seconds": round(check, 3),
        "exploitability_pct_pot": round(100 * exploitability / spot.pot, 4), "tables_sha256": digest,
        "load_average": round(os.getloadavg()[0], 2),
    }))  # fmt: skip


if __name__ == "__main__":
    main()
