"""How much solving a heads-up search decision gets within its budget: the search agent
against the blueprint (as ``gamesolve match``), every solve recorded with its round,
iterations, boards reached (flop), table memory (flop) and seconds.

    python benchmarks/search_flop_iterations.py --store /work/runs/bp-hu-tiny --search seconds=5:heads_up_flop=1 --hands 20 --seed 7
"""

from __future__ import annotations

import argparse
import json
import statistics
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", required=True)
    parser.add_argument("--search", default="seconds=5:heads_up_flop=1", help="search options, KEY=VALUE joined by ':'")
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    from gamesolve.evaluate.match import make_agents, play_match
    from gamesolve.plugins import make_plugin_manager
    from gamesolve.solve import vcfr_sampled
    from gamesolve_nlth import plugin as nlth_plugin
    from gamesolve_nlth.state import NLTHGame

    host = make_plugin_manager(strict=True, entry_points=False, plugins=[nlth_plugin])
    game = NLTHGame(players=2)
    texts = [f"search:store={args.store}:{args.search}", f"blueprint:store={args.store}"]
    agents, names = make_agents(host.agents, game, texts, args.seed, plugins=host.pm)
    search = agents[0]
    solves = []
    sampled = []
    original_run = vcfr_sampled.SampledChanceCFR.run

    def run(self, *a, **k):
        original_run(self, *a, **k)
        sampled[-1:] = [self]

    vcfr_sampled.SampledChanceCFR.run = run
    solve = search._solve

    def timed_solve():
        sampled.clear()
        started = time.perf_counter()
        solve()
        seconds = time.perf_counter() - started
        row = {"street": int(search.root.street), "seconds": round(seconds, 3),
               "iterations": None if search.solved is None else int(search.solved.iterations)}  # fmt: skip
        if sampled:
            row.update(boards=sampled[0].boards, table_mb=round(sampled[0].table_bytes / 2**20, 1))
        solves.append(row)

    search._solve = timed_solve
    play_match(game, agents, args.hands, seed=args.seed, names=names)
    by_street = {}
    for street in sorted({r["street"] for r in solves}):
        rows = [r for r in solves if r["street"] == street and r["iterations"] is not None]
        summary = {"solves": len(rows), "median_iterations": statistics.median(r["iterations"] for r in rows),
                   "min_iterations": min(r["iterations"] for r in rows), "median_seconds": statistics.median(r["seconds"] for r in rows)}  # fmt: skip
        if street == 1:
            summary.update(median_boards=statistics.median(r["boards"] for r in rows), max_table_mb=max(r["table_mb"] for r in rows))
        by_street[street] = summary
    print(json.dumps({"search": args.search, "hands": args.hands, "seed": args.seed, "by_street": by_street}))


if __name__ == "__main__":
    main()
