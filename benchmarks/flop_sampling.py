"""A heads-up flop to the end of the game: public chance sampling (the search agent's flop
solver, :class:`~gamesolve.solve.vcfr_sampled.SampledChanceCFR`: one turn and river card per
iteration, tables per board reached) against the full-tree vector solver
(:class:`~gamesolve.solve.vcfr.VectorCFR`, every card every iteration), side by side for the
same processor seconds (single-threaded both; processor time, because this machine is
shared and wall seconds depend on the load). Both strategies are scored by the same exact best response over the full
tree (the sampled solve's tables mapped onto it by ``copy_into``), in % of the pot.

    python benchmarks/flop_sampling.py --seconds 5 20 60
    python benchmarks/flop_sampling.py --seconds 5 --bets "flop=75%,allin turn=75%,allin river=50%,100%,allin" --raise-cap 2

Defaults: board QsJh2h, the issue's two ~45% ranges (benchmarks/spot_speed.py), pot 1000,
9000 behind, bets 75%/all-in on every street, raises all-in, raise cap 1, Linear CFR (the
agent's), one thread, float32 tables. Solver seconds exclude building and the first
iteration (compilation) of each solver and the exploitability checks; a solver stops at
the first iteration boundary past each mark.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, nargs="+", default=[5.0, 20.0, 60.0], help="processor seconds to score at")
    parser.add_argument("--board", default="QsJh2h")
    parser.add_argument("--bets", default="75%,allin")
    parser.add_argument("--raises", default="allin")
    parser.add_argument("--raise-cap", type=int, default=1)
    parser.add_argument("--algorithm", default="lcfr", choices=["lcfr", "dcfr"])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", metavar="PATH", help="also write the rows as JSON")
    args = parser.parse_args()

    import numpy as np

    sys.path.insert(0, __file__.rsplit("/", 1)[0])
    from spot_speed import IP_RANGE, OOP_RANGE

    from gamesolve.solve.cfr import TABULAR_ALGORITHMS
    from gamesolve.solve.vcfr import VectorCFR
    from gamesolve.solve.vcfr_sampled import SampledChanceCFR
    from gamesolve_nlth.cards import parse_cards
    from gamesolve_nlth.spot.hands import parse_range
    from gamesolve_nlth.spot.sizes import DEFAULT_BETS, DEFAULT_RAISES, parse_sizes
    from gamesolve_nlth.spot.tree import STREETS, Spot, StreetSizes, build_spot, hand_strengths, spot_ranges

    board = tuple(parse_cards(args.board))
    first, then = parse_sizes(args.bets, DEFAULT_BETS), parse_sizes(args.raises, DEFAULT_RAISES)
    sizes = [StreetSizes(first[s], then[s]) for s in STREETS]
    spot = Spot(board, 1000, 9000, *sizes, allin_threshold=0.67, raise_cap=args.raise_cap)
    reach = spot_ranges(spot, parse_range(OOP_RANGE), parse_range(IP_RANGE))
    config = TABULAR_ALGORITHMS[args.algorithm]
    started = time.perf_counter()
    full_form = build_spot(spot)
    print(f"full tree: {full_form.num_nodes:,} nodes, built in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    pool = [c for c in range(52) if c not in board]
    template = build_spot(spot, deal=tuple(pool[:2]))
    full = VectorCFR(full_form, config, root_reach=reach, dtype=np.float32)
    pct = 100.0 / spot.pot
    rows = []

    def score(name, solver, seconds, cpu):
        value = full.exploitability()[0] * pct
        row = {"solver": name, "seconds": round(seconds, 2), "cpu_seconds": round(cpu, 2), "iterations": solver.iterations,
               "exploitability_pct_pot": round(value, 3)}  # fmt: skip
        if name == "sampled":
            row.update(boards=solver.boards, table_gb=round(solver.table_bytes / 2**30, 3))
        rows.append(row)
        print(json.dumps(row), file=sys.stderr, flush=True)

    def timed(name, solver, step):
        solver.run(1)  # compilation
        elapsed = cpu = 0.0
        for target in sorted(args.seconds):
            while cpu < target:
                t, c = time.perf_counter(), time.process_time()
                solver.run(step)
                elapsed += time.perf_counter() - t
                cpu += time.process_time() - c
            if name == "sampled":
                solver.copy_into(full)
            score(name, solver, elapsed, cpu)

    timed("full", full, 1)
    sampled = SampledChanceCFR(template, config, pool=pool, strengths=lambda cards: hand_strengths(board + cards),
                               seed=args.seed, root_reach=reach, dtype=np.float32)  # fmt: skip
    timed("sampled", sampled, 16)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
    summary = {"board": args.board, "nodes": int(full_form.num_nodes), "template_nodes": int(template.num_nodes),
               "hands": [int((reach[p] > 0).sum()) for p in range(2)], "algorithm": args.algorithm, "peak_gb": round(peak, 2),
               "rows": rows}  # fmt: skip
    print(json.dumps(summary))
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(summary, fh, indent=1)


if __name__ == "__main__":
    main()
