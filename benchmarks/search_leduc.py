"""Exact exploitability of nested unsafe search (the core's range search agent) on Leduc
(docs/search.md).

For each configuration the agent's whole strategy is composed (the search is run at every
root the agent can reach, from every seat and hand, see gamesolve.search.compose) and
evaluated with the core's exact best response.

    python benchmarks/search_leduc.py                 # 2 players, seed 0
    python benchmarks/search_leduc.py --seeds 0 1 2 3 # blueprint seed sweep
    python benchmarks/search_leduc.py --players 3     # NashConv, 3 players
    python benchmarks/search_leduc.py --sampling-above 0 --rollouts 100  # the large-game seams
    python benchmarks/search_leduc.py --beliefs exact # the enumeration instead of range vectors
"""

from __future__ import annotations

import argparse
import json
import time

from gamesolve.evaluate.best_response import TreeEvaluator
from gamesolve.game.explicit_tree import compile_explicit_tree
from gamesolve.game.factored import SMALL_GAME_MCCFR_DEFAULTS
from gamesolve.game.factored_compiler import compile_factored
from gamesolve.search import SolveMemo, TabularPolicy, compose_agent_policy
from gamesolve.search.compose import RangeSeat
from gamesolve.search.player import keyed_range_search_player
from gamesolve.solve.cfr import TABULAR_ALGORITHMS, TabularCFR
from gamesolve.solve.mccfr import MCCFRConfig, MCCFRTrainer
from gamesolve_leduc import LeducGame
from gamesolve_leduc.poker_form import leduc_form


def blueprint_slots(game, tree, kind: str, iterations: int, seed: int):
    if kind == "nash":  # a near-equilibrium of the real game, for reference
        cfr = TabularCFR(tree, TABULAR_ALGORITHMS["dcfr"])
        cfr.run(4000)
        return cfr.average_policy()
    trainer = MCCFRTrainer(leduc_form(game, "coarse"), MCCFRConfig.from_options(SMALL_GAME_MCCFR_DEFAULTS), seed=seed)
    trainer.run(iterations=iterations)
    return trainer.explicit_policy(tree)


def configurations(args):
    """Name -> the search agent's options (``search:`` option strings)."""
    base = {"iterations": args.iterations, "algorithm": args.algorithm, "mccfr_iterations": args.mccfr_iterations,
            "beliefs": args.beliefs, "sampling_above": args.sampling_above, "rollouts": args.rollouts}  # fmt: skip
    base = {key: str(value) for key, value in base.items() if value is not None}
    out = {}
    for play in args.play:
        out[f"(b) k=1, {play}"] = {"k": "1", "play": play, **base}
        out[f"(c) k=4, {play}"] = {"k": "4", "play": play, **base}
        if args.players == 2:
            out[f"(d) end of game, {play}"] = {"depth": "game", "play": play, **base}
        if args.round_one_only:
            out[f"k=1, round 1 only, {play}"] = {"k": "1", "play": play, "search_rounds": "0", **base}
            out[f"k=4, round 1 only, {play}"] = {"k": "4", "play": play, "search_rounds": "0", **base}
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--seeds", type=int, nargs="+", default=[0])
    ap.add_argument("--blueprint", choices=("coarse", "nash"), default="coarse")
    ap.add_argument("--blueprint-iterations", type=int, default=1_000_000)
    ap.add_argument("--iterations", type=int, default=1000, help="Linear CFR iterations per search")
    ap.add_argument("--algorithm", default="lcfr")
    ap.add_argument("--sampling-above", type=int, default=None,
                    help="solve subgames with more public nodes than this by Linear MCCFR (0: all)")
    ap.add_argument("--mccfr-iterations", type=int, default=100_000)
    ap.add_argument("--rollouts", type=int, default=None, help="sampled leaf values (default: exact)")
    ap.add_argument("--play", nargs="+", default=["current", "average"], choices=("current", "average"))
    ap.add_argument("--round-one-only", action="store_true", help="also search in round 1 only (blueprint in round 2)")
    ap.add_argument("--beliefs", choices=("range", "exact"), default="range")
    args = ap.parse_args()

    game = LeducGame(args.players, abstraction="coarse")
    t0 = time.time()
    tree = compile_explicit_tree(game)
    evaluator = TreeEvaluator(tree)
    form = compile_factored(game)
    print(f"{game.describe()}: {tree.num_infosets} infosets, compiled in {time.time() - t0:.1f} s", flush=True)
    rows = []
    for seed in args.seeds:
        slots = blueprint_slots(game, tree, args.blueprint, args.blueprint_iterations, seed)
        blueprint = TabularPolicy.from_slots(tree, slots)
        ev = evaluator.evaluate(slots)
        rows.append({"seed": seed, "config": "(a) blueprint", "exploitability": ev.exploitability, "nash_conv": ev.nash_conv})
        print(json.dumps(rows[-1]), flush=True)
        for name, config in configurations(args).items():
            t0 = time.time()
            agent = keyed_range_search_player(game, form, blueprint, config, 0, SolveMemo(max_bytes=None))
            policy = compose_agent_policy(game, tree, lambda seat: RangeSeat(agent, seat))  # noqa: B023
            ev = evaluator.evaluate(policy)
            rows.append({"seed": seed, "config": name, "exploitability": ev.exploitability, "nash_conv": ev.nash_conv,
                         "searches": agent.memo.solves, "seconds": round(time.time() - t0, 1)})
            print(json.dumps(rows[-1]), flush=True)
    print("| seed | configuration | exploitability | NashConv | searches |")
    print("|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['seed']} | {r['config']} | {r['exploitability']:.4f} | {r['nash_conv']:.4f} | {r.get('searches', '')} |")


if __name__ == "__main__":
    main()
