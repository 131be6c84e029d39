"""One public board per thread on a heads-up flop (the search agent's flop solver,
:class:`~gamesolve.solve.vcfr_sampled.SampledChanceCFR`): one board an iteration on one
thread, one board with its flop lines split over two threads (``threads=2``, the former
use of a second thread), and two boards an iteration, one per thread
(``boards_per_iteration=2``), side by side in one process: rounds of equal wall seconds,
the solvers alternating, each round a fresh solve from zero tables as a search decision
makes (wall seconds, because the threads' point is wall time; the machine is shared, so
the rounds alternate, the ratios are per round, and each row also gives the process's
processor seconds: boards per processor second show what the threads cost besides the
walks, whatever cores the load left). For two boards an iteration it also gives the
processor seconds of each thread's walks and of the rest (drawing, combining the flop's
rows, on the calling thread), and from them a *projection* of boards per second with a free
core per thread: the rest plus the longer thread's walks (it leaves out the waits at thread
hand-offs, so it overestimates: 244 projected where 213 were measured on a quiet machine).

    python benchmarks/flop_boards.py --seconds 5 --rounds 3
    python benchmarks/flop_boards.py --seconds 5 --rounds 2 --score

Defaults: the search agent's heads-up flop (its default sizes: flop 75%/all-in, turn
75%/all-in, river 50%/100%/all-in, raises all-in, raise cap 2, all-in threshold 0.67),
board QsJh2h, pot 600 and 9,700 behind (a raised pot called), the issue's two ~45% ranges
(benchmarks/spot_speed.py), Linear CFR, float32 tables, as the agent. ``--score`` instead
runs on flop_sampling.py's reduced flop (pot 1000, 9000 behind, 75%/all-in on every street,
raise cap 1), whose full tree fits, and scores each solve by that tree's exact best response
(% of the pot) after its seconds. A solve runs 8 iterations between clock reads (the
agent's step); the first solve of each kind is run once before the rounds (compilation).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

KINDS = {"1 board, 1 thread": (1, 1), "1 board, lines on 2 threads": (2, 1), "2 boards, 1 per thread": (1, 2)}
"""Solver kinds: (threads, boards_per_iteration)."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="wall seconds of each solve")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--board", default="QsJh2h")
    parser.add_argument("--score", action="store_true", help="the reduced flop, scored by the full tree's best response")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", metavar="PATH", help="also write the rows as JSON")
    args = parser.parse_args()

    import numpy as np

    sys.path.insert(0, __file__.rsplit("/", 1)[0])
    from spot_speed import IP_RANGE, OOP_RANGE

    from gamesolve.solve import vcfr_sampled
    from gamesolve.solve.cfr import TABULAR_ALGORITHMS
    from gamesolve.solve.vcfr import VectorCFR
    from gamesolve.solve.vcfr_sampled import SampledChanceCFR
    from gamesolve_nlth.cards import parse_cards
    from gamesolve_nlth.spot.hands import parse_range
    from gamesolve_nlth.spot.sizes import DEFAULT_BETS, DEFAULT_RAISES, parse_sizes
    from gamesolve_nlth.spot.tree import STREETS, Spot, StreetSizes, build_spot, hand_strengths, spot_ranges

    board = tuple(parse_cards(args.board))
    if args.score:
        bets, raises, pot, stack, cap = "75%,allin", "allin", 1000, 9000, 1
    else:
        bets, raises, pot, stack, cap = "flop=75%,allin turn=75%,allin river=50%,100%,allin", "allin", 600, 9700, 2
    first, then = parse_sizes(bets, DEFAULT_BETS), parse_sizes(raises, DEFAULT_RAISES)
    spot = Spot(board, pot, stack, *[StreetSizes(first[s], then[s]) for s in STREETS], allin_threshold=0.67, raise_cap=cap)
    reach = spot_ranges(spot, parse_range(OOP_RANGE), parse_range(IP_RANGE))
    config = TABULAR_ALGORITHMS["lcfr"]
    pool = [c for c in range(52) if c not in board]
    template = build_spot(spot, deal=tuple(pool[:2]))
    full = None
    if args.score:
        started = time.perf_counter()
        full = VectorCFR(build_spot(spot), config, root_reach=reach, dtype=np.float32)
        print(f"full tree: {full.form.num_nodes:,} nodes, built in {time.perf_counter() - started:.1f} s", file=sys.stderr)

    # The boards' walks timed on their threads (processor seconds of each thread).
    walk_cpu = [0.0, 0.0]
    run_parts = vcfr_sampled.run_parts

    def timed_parts(parts, part):
        def timed(i):
            started = time.thread_time()
            part(i)
            walk_cpu[i] += time.thread_time() - started

        return run_parts(parts, timed)

    vcfr_sampled.run_parts = timed_parts

    def solve(kind: str, seconds: float, seed: int) -> dict:
        walk_cpu[:] = [0.0, 0.0]
        threads, boards = KINDS[kind]
        solver = SampledChanceCFR(template, config, pool=pool, strengths=lambda cards: hand_strengths(board + cards), seed=seed,
                                  root_reach=reach, threads=threads, boards_per_iteration=boards, dtype=np.float32,
                                  max_bytes=2 * 2**30)  # fmt: skip
        started, cpu = time.perf_counter(), time.process_time()
        while True:
            solver.run(8)
            elapsed = time.perf_counter() - started
            if elapsed >= seconds or solver.full:
                break
        cpu = time.process_time() - cpu
        row = {"kind": kind, "seconds": round(elapsed, 3), "iterations": solver.iterations,
               "boards_walked": solver.iterations * boards, "boards_reached": solver.boards,
               "iterations_per_second": round(solver.iterations / elapsed, 1),
               "boards_per_second": round(solver.iterations * boards / elapsed, 1), "cpu_seconds": round(cpu, 2),
               "boards_per_cpu_second": round(solver.iterations * boards / cpu, 1),
               "table_mb": round(solver.table_bytes / 2**20, 1), "full": solver.full}  # fmt: skip
        if boards > 1:
            # Serial processor time plus the longer thread's walks: the wall time the same
            # work would take with a free core per thread (a projection, not a measurement).
            walks = sum(walk_cpu)
            row.update(walk_cpu_seconds=[round(w, 2) for w in walk_cpu], serial_cpu_seconds=round(cpu - walks, 2),
                       projected_boards_per_second_two_free_cores=round(solver.iterations * boards / (cpu - walks + max(walk_cpu)), 1))  # fmt: skip
        if full is not None:
            solver.copy_into(full)
            row["exploitability_pct_pot"] = round(full.exploitability()[0] * 100.0 / spot.pot, 2)
        return row

    for kind in KINDS:  # compilation, and the thread pools started
        solve(kind, 0.0, args.seed)
    rows = []
    for r in range(args.rounds):
        order = list(KINDS) if r % 2 == 0 else list(reversed(KINDS))
        found = {kind: solve(kind, args.seconds, args.seed + r) for kind in order}
        base = found["1 board, 1 thread"]["boards_per_second"]
        for kind in KINDS:
            row = dict(found[kind], round=r, boards_per_second_vs_one_thread=round(found[kind]["boards_per_second"] / base, 2))
            rows.append(row)
            print(json.dumps(row), file=sys.stderr, flush=True)
    summary = {"board": args.board, "load_average": os.getloadavg(), "template_nodes": int(template.num_nodes), "hands": [int((reach[p] > 0).sum()) for p in range(2)],
               "spot": "reduced flop (scored)" if args.score else "search flop", "seconds": args.seconds, "rows": rows,
               "median_ratio": {kind: float(np.median([x["boards_per_second_vs_one_thread"] for x in rows if x["kind"] == kind]))
                                for kind in KINDS}}  # fmt: skip
    print(json.dumps(summary))
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(summary, fh, indent=1)


if __name__ == "__main__":
    main()
