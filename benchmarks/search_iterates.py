"""How exploitable the strategy a search plays is after a few iterations: the final iterate
(``play=current``, as Pluribus) and the average, for Linear CFR and DCFR, on heads-up turn
subgames cut with the search agent's default sizes (turn 75%/all-in, river 50%/100%/all-in,
raises all-in, raise cap 2) and the issue's two ~45% ranges, at two pot sizes
(docs/search.md, "Strength (six players)": the reason design 2 uses DCFR).

    python benchmarks/search_iterates.py
    python benchmarks/search_iterates.py --iterations 10 30 60 100 300 --json

Exploitability is the best-response NashConv in % of the pot (``VectorCFR.exploitability``).
"""

from __future__ import annotations

import argparse
import json

import numpy as np
from spot_speed import BOARDS, IP_RANGE, OOP_RANGE

POTS = ((600, 9700), (2000, 9000))  # (pot, chips behind): a single-raised and a 3-bet pot


def measure(pot: int, stack: int, algorithm: str, checkpoints: list[int]) -> list[dict]:
    from gamesolve.solve.cfr import TABULAR_ALGORITHMS
    from gamesolve.solve.vcfr import VectorCFR
    from gamesolve_nlth.cards import parse_cards
    from gamesolve_nlth.spot.hands import parse_range
    from gamesolve_nlth.spot.tree import ALLIN, Spot, StreetSizes, build_spot, spot_ranges

    turn = StreetSizes(bets=(0.75, ALLIN), raises=(ALLIN,))
    river = StreetSizes(bets=(0.5, 1.0, ALLIN), raises=(ALLIN,))
    spot = Spot(tuple(parse_cards(BOARDS["turn"])), pot, stack, turn, turn, river, allin_threshold=0.67, raise_cap=2)
    reach = spot_ranges(spot, parse_range(OOP_RANGE), parse_range(IP_RANGE))
    solver = VectorCFR(build_spot(spot), TABULAR_ALGORITHMS[algorithm], root_reach=reach, dtype=np.float32)
    rows = []
    for t in sorted(checkpoints):
        solver.run(t - solver.iterations)
        rows.append({"pot": pot, "algorithm": algorithm, "iterations": t,
                     **{f"{which}_pct_pot": round(100.0 * solver.exploitability(which)[0] / pot, 3)
                        for which in ("current", "average")}})  # fmt: skip
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--iterations", type=int, nargs="+", default=[10, 30, 100, 300])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if min(args.iterations) < 1:
        parser.error("--iterations must be positive")
    rows = [row for pot, stack in POTS for algorithm in ("lcfr", "dcfr") for row in measure(pot, stack, algorithm, args.iterations)]
    if args.json:
        print(json.dumps(rows))
        return
    print("| pot | solver | iterations | final iterate, % pot | average, % pot |\n|---:|---|---:|---:|---:|")
    for r in rows:
        print(f"| {r['pot']} | {r['algorithm']} | {r['iterations']} | {r['current_pct_pot']:.2f} | {r['average_pct_pot']:.2f} |")


if __name__ == "__main__":
    main()
