"""Processor nanoseconds per six-player hold'em deal of the blueprint's deal generator
(:func:`gamesolve_nlth.blueprint.deals.deal_range`: shuffle, 7-card ranks, the tiny card
abstraction's buckets in every round), and a hash of the deals, so that two versions of the
kernel can be compared (equal hashes: the same deals). Run it once per tree, alternating:

    python benchmarks/deal_speed.py [--deals 200000] [--repeats 5]
    cd /tmp && PYTHONPATH=TREE:TREE/plugins/nlth python /path/to/benchmarks/deal_speed.py

Prints the fastest of ``--repeats`` runs (one thread; the first call, which compiles, untimed).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time

import numpy as np

import gamesolve
from gamesolve_nlth.abstraction.card_abstraction import build_card_abstraction
from gamesolve_nlth.abstraction.presets import PRESETS
from gamesolve_nlth.blueprint.deals import HoldemDeals, deal_range


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=200_000)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--players", type=int, default=6)
    args = ap.parse_args()
    if min(args.deals, args.repeats) < 1 or not 2 <= args.players <= 6:
        ap.error("--deals and --repeats must be positive, --players 2 to 6")
    deals = HoldemDeals(args.players, build_card_abstraction(PRESETS["tiny"]).tables)
    buckets = np.empty((args.deals, args.players, 4), np.int32)
    ranks = np.empty((args.deals, args.players), np.int32)

    def run(count: int) -> None:
        deal_range(1, 0, 0, count, args.players, deals.preflop, deals.t_flop, deals.t_turn, deals.t_river,
                   deals.flop, deals.turn, deals.river, buckets, ranks)  # fmt: skip

    run(10)  # compile
    best = float("inf")
    for _ in range(args.repeats):
        start = time.process_time()
        run(args.deals)
        best = min(best, time.process_time() - start)
    print(json.dumps({"gamesolve": gamesolve.__file__.rsplit("/", 2)[0], "ns_per_deal": round(best / args.deals * 1e9),
                      "deals_sha256": hashlib.sha256(buckets.tobytes() + ranks.tobytes()).hexdigest()[:16]}))  # fmt: skip


if __name__ == "__main__":
    main()
