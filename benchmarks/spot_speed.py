"""Heads-up spot solving speed and memory (docs/spot.md, issue 12's acceptance spots).

The issue's spots: two ~45% ranges, pot 1000, 9000 behind, bets 50%/100%/all-in, raises
100%/all-in, all-in threshold 0.67 (raise cap 3), on one fixed board per street. Each street
is solved with ``gamesolve spot``'s own function (:func:`gamesolve_nlth.spot.solve.solve_spot`,
DCFR) until the exploitability reaches the street's target (river 0.3%, turn 0.3%, flop 0.5%
of the pot), checking it as ``gamesolve spot`` does (at least ``--check-every`` iterations apart).
Printed per street: nodes, iterations, solver seconds (tree building and the first,
compilation excluded; the exploitability checks included) and their processor
seconds over all threads, exploitability, the process's peak resident memory (each street
runs in its own process, so the peak is that street's) and the load average at the end (the
machine is shared: a load above the core count means the solver did not have the cores).

    python benchmarks/spot_speed.py                        # river, turn, flop; 2 threads
    python benchmarks/spot_speed.py --street river --street turn --threads 1 2
    python benchmarks/spot_speed.py --street flop --json
    python benchmarks/spot_speed.py --street turn --precision 32 16 --rounds 2   # alternating

The reference is the issue's figure for b-inary/postflop-solver (about 0.1 s, 18 s and more
than 30 minutes with 9 GB on this machine): it needs crates.io, which is not reachable here,
so it was not run side by side.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys

BOARDS = {"river": "QsJh2h8d3c", "turn": "QsJh2h8d", "flop": "QsJh2h"}
TARGETS = {"river": 0.3, "turn": 0.3, "flop": 0.5}
OOP_RANGE = "22+,A2s+,K2s+,Q2s+,J6s+,T6s+,96s+,85s+,75s+,64s+,53s+,43s,A2o+,K7o+,Q9o+,J9o+,T9o"
IP_RANGE = "22+,A2s+,K2s+,Q5s+,J7s+,T7s+,97s+,86s+,76s,65s,54s,A2o+,K6o+,Q8o+,J8o+,T8o+"
REFERENCE_SECONDS = {"river": 0.1, "turn": 18.0, "flop": "> 1800 (9 GB)"}  # the issue's postflop-solver figures


def issue_spot(street: str):
    """The issue's spot on ``street``: ``(spot, oop range, ip range)``."""
    from gamesolve_nlth.cards import parse_cards
    from gamesolve_nlth.spot.hands import parse_range
    from gamesolve_nlth.spot.tree import ALLIN, Spot, StreetSizes

    sizes = StreetSizes(bets=(0.5, 1.0, ALLIN), raises=(1.0, ALLIN))
    spot = Spot(tuple(parse_cards(BOARDS[street])), 1000, 9000, sizes, sizes, sizes, allin_threshold=0.67, raise_cap=3)
    return spot, parse_range(OOP_RANGE), parse_range(IP_RANGE)


def solve_street(street: str, threads: int, check_every: int, max_seconds: float | None, precision: int = 32) -> dict:
    import os

    import numpy as np

    from gamesolve.progress import BarProgress
    from gamesolve_nlth.spot.solve import solve_spot

    spot, oop, ip = issue_spot(street)
    with BarProgress() as progress:
        result = solve_spot(spot, oop, ip, TARGETS[street], threads, max_iterations=100_000, max_seconds=max_seconds,
                            check_every=check_every, progress=progress, precision=precision)  # fmt: skip
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    return {
        "street": street,
        "board": BOARDS[street],
        "threads": threads,
        "precision": precision,
        "nodes": result.nodes,
        "iterations": result.iterations,
        "solver_seconds": round(result.seconds, 3),
        "solver_cpu_seconds": round(result.cpu_seconds, 3),
        "build_seconds": round(result.build_seconds, 2),
        "exploitability_pct_pot": round(result.exploitability_pct_pot, 4),
        "target_pct_pot": TARGETS[street],
        "peak_rss_gb": round(peak / 2**30, 2),
        "oop_combos": int(np.count_nonzero(oop)),
        "ip_combos": int(np.count_nonzero(ip)),
        "reference_seconds": REFERENCE_SECONDS[street],
        "load_average": round(os.getloadavg()[0], 2),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--street", choices=tuple(BOARDS), action="append", help="street(s) to run (default: all)")
    ap.add_argument("--threads", type=int, nargs="+", default=[2], help="thread counts to run each street with")
    ap.add_argument("--check-every", type=int, default=10, help="fewest iterations between exploitability checks")
    ap.add_argument("--max-seconds", type=float, default=None, help="stop a street after this much solving")
    ap.add_argument("--precision", type=int, choices=(16, 32), nargs="+", default=[32],
                    help="bits per table entry (gamesolve spot --precision); several: each run of a street "
                         "with each, alternating")
    ap.add_argument("--rounds", type=int, default=1, help="run everything this many times (interleaved)")
    ap.add_argument("--json", action="store_true", help="one JSON object per street")
    ap.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)  # one street, this process
    args = ap.parse_args()
    streets = args.street or list(BOARDS)
    if args.inner:
        print(json.dumps(solve_street(streets[0], args.threads[0], args.check_every, args.max_seconds, args.precision[0])))
        return
    for _ in range(args.rounds):
        for street in streets:
            for threads in args.threads:
                for precision in args.precision:
                    _run(args, street, threads, precision)


def _run(args, street: str, threads: int, precision: int) -> None:
    """One street in its own process (the peak resident memory is that run's alone), printed."""
    cmd = [sys.executable, __file__, "--inner", "--street", street, "--threads", str(threads),
           "--check-every", str(args.check_every), "--precision", str(precision)]  # fmt: skip
    cmd += ["--max-seconds", str(args.max_seconds)] if args.max_seconds else []
    out = subprocess.run(cmd, check=True, stdout=subprocess.PIPE, text=True).stdout.strip().splitlines()[-1]
    row = json.loads(out)
    if args.json:
        print(json.dumps(row), flush=True)
        return
    print(
        f"{row['street']:>5} {row['board']:<11} {row['nodes']:>9,} nodes  {row['threads']} threads  "
        f"{row['precision']}-bit  {row['iterations']:>5} it  {row['solver_seconds']:>9.3f} s "
        f"({row['solver_cpu_seconds']:.3f} s cpu)  {row['exploitability_pct_pot']:.3f}% pot "
        f"(target {row['target_pct_pot']}%)  peak {row['peak_rss_gb']:.2f} GB  load {row['load_average']}  "
        f"(postflop-solver, issue figure: {row['reference_seconds']} s)",
        flush=True,
    )

if __name__ == "__main__":
    main()
