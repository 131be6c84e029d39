"""Is AIVAT unbiased in this match? Raw winnings and AIVAT estimates, paired per deal.

AIVAT and the raw winnings estimate the same expectation, so per deal their difference (the sum
of the corrections) has mean zero when the estimator is unbiased. This plays one match and
reports, per agent with an estimate of its own, the raw win rate, the AIVAT win rate and the
paired gap (raw - AIVAT) with its standard error; and the same for the sum over those agents
(zero-sum: against one agent whose loss is known, such as ``fold``, the sum of the others'
estimates must average its loss).

    python benchmarks/aivat_check.py --players 6 --agents fold,blueprint:store=BP,blueprint:store=BP,blueprint:store=BP,blueprint:store=BP,blueprint:store=BP --hands 12000 --seed 1
    python benchmarks/aivat_check.py ... --own-hand   # blueprints evaluated on the hand held, as the search agent is
    python benchmarks/aivat_check.py --agents lbr,blueprint:store=BP --hands 20000 --own-hand   # against local best response

``lbr`` in ``--agents`` is hold'em's local best response against the other agents
(``gamesolve lbr``'s); it does not expose its strategy, so its row is the zero-sum complement
(minus the others' estimates) and the rows to read are the others'.

``--own-hand`` marks every agent that exposes its whole range as exact only for the hand it
holds, so that hold'em's estimator evaluates it as it evaluates the search agent
(``own_hand``): a cheap check of that estimator with agents that play in milliseconds.
"""

from __future__ import annotations

import argparse
import json

import numpy as np

from gamesolve.evaluate.lbr import lbr_agent
from gamesolve.evaluate.match import MatchError, make_agents, play_match
from gamesolve.evaluate.statistics import win_rate
from gamesolve.plugins import make_plugin_manager
from gamesolve.progress import BarProgress
from gamesolve.registry import RegistryError
from gamesolve_nlth.state import NLTHGame


def gaps(raw: list[list[float]], aivat: list[list[float | None]], names: list[str], scale: float) -> list[dict]:
    """Per agent with an estimate of its own, then summed over them: raw, AIVAT and the paired
    gap, from a match's ``deal_returns`` and ``aivat_deals`` (game units per hand)."""
    rows, own = [], [i for i, x in enumerate(aivat[0]) if x is not None]  # the complement's included
    corrected = np.array([[row[i] for i in own] for row in aivat], dtype=np.float64) * scale
    raw = np.asarray(raw, dtype=np.float64)[:, own] * scale
    labelled = [(f"{i}: {names[i].split(':')[0]}", raw[:, k], corrected[:, k]) for k, i in enumerate(own)]
    if len(own) > 1:
        labelled.append(("sum of the above", raw.sum(axis=1), corrected.sum(axis=1)))
    for label, r, a in labelled:
        raw_rate, aivat_rate, gap = win_rate(r), win_rate(a), win_rate(r - a)
        rows.append({"agent": label, "raw": raw_rate.mean, "raw_se": raw_rate.stderr, "aivat": aivat_rate.mean,
                     "aivat_se": aivat_rate.stderr, "gap": gap.mean, "gap_se": gap.stderr,
                     "z": gap.mean / gap.stderr if gap.stderr > 0 else 0.0})  # fmt: skip
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--agents", required=True, help="comma-separated agent specs, one per seat")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--hands", type=int, default=6000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--own-hand", action="store_true", help="evaluate range-exposing agents on the hand held only")
    parser.add_argument("--values", default=None, help="hold'em's AIVAT value function (gamesolve match --aivat-values)")
    parser.add_argument("--json", help="write the figures to this file")
    args = parser.parse_args()
    host = make_plugin_manager(warn=False)
    game = NLTHGame(players=args.players)
    specs = args.agents.split(",")
    if len(specs) != args.players:
        parser.error(f"{args.players} players need {args.players} agents, got {len(specs)}")
    try:
        agents, names = make_agents(host.agents, game, [spec if spec != "lbr" else "call" for spec in specs], args.seed, plugins=host.pm)
        for i, spec in enumerate(specs):  # LBR answers the agents it plays, so it is built after them
            if spec == "lbr":
                others = [a for j, a in enumerate(agents) if specs[j] != "lbr"]
                agents[i] = lbr_agent(host, game, others, seed=args.seed)
                names[i] = "lbr"
    except (MatchError, RegistryError) as exc:
        parser.error(str(exc))
    if args.own_hand:
        for agent in agents:
            if getattr(agent, "strategy_is_exact", True) and hasattr(agent, "range_probabilities"):
                agent.strategy_is_exact, agent.own_strategy_is_exact = False, True
    with BarProgress() as progress:
        result = play_match(game, agents, args.hands, seed=args.seed, names=names, workers=args.workers,
                            progress=progress, aivat=True, aivat_values=args.values, plugins=host.pm)  # fmt: skip
    rows = gaps(result.deal_returns, result.aivat_deals, list(names), result.scale)
    print(f"{result.deals} deals ({result.hands} hands), mbb/game; gap = raw - AIVAT, paired per deal")
    print("| agent (order) | raw | AIVAT | gap | gap / SE |\n|---|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['agent']} | {r['raw']:+.0f} ± {r['raw_se']:.0f} | {r['aivat']:+.0f} ± {r['aivat_se']:.0f} | "
              f"{r['gap']:+.0f} ± {r['gap_se']:.0f} | {r['z']:+.2f} |")  # fmt: skip
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"command": vars(args), "deals": result.deals, "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
