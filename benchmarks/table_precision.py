"""Would 16-bit tables cost convergence? Vector CFR on the issue's spot (benchmarks/spot_speed.py)
with its float32 tables, and again with both tables rounded after every iteration to what
16-bit integers with one float scale per node block hold (regrets signed, strategy sums
unsigned; the block's largest magnitude maps to the integer range, as postflop-solver's
compressed storage does), to the nearest level or (``--stochastic``) up or down at random in
proportion to the distance (unbiased; seeded). A simulation of the precision only: the tables stay float32, so
the times say nothing about the speed of real 16-bit tables (docs/spot.md).

    python benchmarks/table_precision.py --street turn --iterations 250 --every 50
    python benchmarks/table_precision.py --street turn --iterations 250 --every 50 --stochastic

Prints the exploitability (% of the pot) at every ``--every`` iterations for both.
"""

from __future__ import annotations

import argparse

import numpy as np
from spot_speed import issue_spot


def node_blocks(solver, form) -> tuple[np.ndarray, np.ndarray]:
    """Start and length of every node's block in the tables, in table order."""
    offset = solver.tables.row_offset
    owners = np.flatnonzero(offset >= 0)
    starts = offset[owners].astype(np.int64)
    sizes = form.num_actions[owners].astype(np.int64) * len(solver.states)
    order = np.argsort(starts)
    return starts[order], sizes[order]


def round_to_16_bits(table: np.ndarray, starts: np.ndarray, sizes: np.ndarray, signed: bool,
                     rng: np.random.Generator | None = None) -> None:
    """Round ``table`` in place to 16-bit levels of each block's scale: to the nearest level,
    or with ``rng`` stochastically (down or up with probabilities that keep the mean)."""
    levels = 32767.0 if signed else 65535.0
    scale = np.repeat(np.maximum.reduceat(np.abs(table), starts), sizes)
    scale[scale == 0] = 1.0
    x = table / scale * levels
    q = np.rint(x) if rng is None else np.floor(x + rng.random(x.shape))
    table[:] = (q * scale / levels).astype(table.dtype)


def main() -> None:
    from gamesolve.solve.vcfr import VectorCFR
    from gamesolve_nlth.spot.solve import SPOT_WEIGHTINGS
    from gamesolve_nlth.spot.tree import build_spot, spot_ranges

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--street", choices=["river", "turn"], default="turn")
    parser.add_argument("--iterations", type=int, default=250)
    parser.add_argument("--every", type=int, default=50)
    parser.add_argument("--stochastic", action="store_true", help="stochastic rounding instead of to the nearest")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.iterations < 1 or args.every < 1:
        parser.error("--iterations and --every must be positive")
    spot, oop, ip = issue_spot(args.street)
    reach = spot_ranges(spot, oop, ip)
    form = build_spot(spot)
    print("| iterations | float32, % pot | 16-bit, % pot |\n|---:|---:|---:|")
    curves = {}
    for sixteen in (False, True):
        solver = VectorCFR(form, SPOT_WEIGHTINGS["dcfr"], root_reach=reach, dtype=np.float32)
        starts, sizes = node_blocks(solver, form)
        rng = np.random.default_rng(args.seed) if args.stochastic else None
        curve = []
        for t in range(1, args.iterations + 1):
            solver.run(1)
            if sixteen:
                round_to_16_bits(solver.tables.regrets, starts, sizes, signed=True, rng=rng)
                round_to_16_bits(solver.tables.avg, starts, sizes, signed=False, rng=rng)
            if t % args.every == 0:
                curve.append((t, 100 * solver.exploitability()[0] / spot.pot))
        curves[sixteen] = curve
    for (t, a), (_, b) in zip(curves[False], curves[True]):
        print(f"| {t} | {a:.4f} | {b:.4f} |")


if __name__ == "__main__":
    main()
