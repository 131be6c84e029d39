"""Local best response against the hold'em search agent and against its own blueprint, on the
same duplicate deals (docs/search.md, "Strength"). Heads-up. Long: seconds per hand for the
search agent.

    python benchmarks/search_lbr.py --store /work/runs/bp-hu-tiny --search seconds=1 --hands 300 --seed 1 --workers 2 --json runs/lbr-seed1.json
    python benchmarks/search_lbr.py --combine runs/lbr-seed1.json runs/lbr-seed2.json ...   # runs on other seeds, together

Each side is exactly ``gamesolve lbr --game nlth -p players=2 --agent AGENT --hands N --seed S``
(the same code path, the hands kept): the same deals, and the two agents play the same first
round and flop (the search agent plays its blueprint there, with the same random stream), so
the per-deal difference of LBR's winnings has far less variance than either side. Prints
both LBR values (mbb/game ± SE, as the CLI reports them) and the paired difference.

``--candidate OPTIONS`` plays a second search agent on the same deals (e.g. design 3's agent
with a searched flop: docs/search.md, "Toward a design 4") and pairs it with the blueprint and
with the first search agent; ``--aivat`` adds LBR's AIVAT estimate per deal and the same report
over it:

    python benchmarks/search_lbr.py --store bp-hu17m --search seconds=0:iterations=100:algorithm=dcfr --candidate seconds=0:iterations=100:algorithm=dcfr:heads_up_flop=limited --hands 100 --seed 121 --aivat --json seed-121.json
"""

from __future__ import annotations

import argparse
import json
import math
import time

import numpy as np

from gamesolve.evaluate.lbr import lbr_agent
from gamesolve.evaluate.match import make_agents, play_match
from gamesolve.plugins import make_plugin_manager
from gamesolve.progress import BarProgress
from gamesolve_nlth.state import NLTHGame


def lbr_per_deal(host, game, agent_text: str, hands: int, seed: int, workers: int, aivat: bool = False):
    """The match ``gamesolve lbr`` plays: the result, LBR's winnings per deal (mbb/game,
    averaged over the deal's seatings) and, with ``aivat``, LBR's AIVAT estimate per deal
    (minus the agent's, which exposes its strategy; else None)."""
    opponents, _ = make_agents(host.agents, game, [agent_text] * (game.num_players - 1), seed, plugins=host.pm)
    lbr = lbr_agent(host, game, opponents, seed=seed)
    with BarProgress() as progress:
        result = play_match(game, [lbr] + opponents, hands, seed=seed, names=["lbr", agent_text], workers=workers,
                            progress=progress, aivat=aivat, plugins=host.pm)  # fmt: skip
    corrected = np.array([row[0] for row in result.aivat_deals]) * result.scale if aivat else None
    return result, np.array([row[0] for row in result.deal_returns]) * result.scale, corrected


def mean_se(x: np.ndarray) -> tuple[float, float]:
    return float(x.mean()), float(x.std(ddof=1) / math.sqrt(len(x)))


def _paired(label: str, values: np.ndarray) -> dict:
    """The mean, its SE and the one-sided p-value of a per-deal difference (alternative: below
    zero, i.e. the first agent's LBR value lower), printed on one line."""
    mean, se = mean_se(values)
    z = mean / se if se > 0 else float("nan")
    p_lower = 0.5 * math.erfc(-z / math.sqrt(2)) if se > 0 else float("nan")
    print(f"paired per deal, {label}: {mean:+.0f} ± {se:.0f} mbb/game over {len(values)} deals "
          f"(one-sided p-value, alternative: the first agent's is lower: {p_lower:.3g})")  # fmt: skip
    return {"mean": mean, "se": se, "deals": len(values), "p_lower": p_lower}


def report(per_deal: dict[str, np.ndarray]) -> dict:
    """Every side's LBR value, and the paired differences per deal: each search agent against the
    blueprint, and later search agents against earlier ones (a candidate against design 3's
    agent), printed; the figures as a dict."""
    rows = {}
    for label, values in per_deal.items():
        mean, se = mean_se(values)
        rows[label] = {"mbb_per_game": mean, "se": se, "deals": len(values)}
        print(f"LBR vs {label}: {mean:+.0f} ± {se:.0f} mbb/game over {len(values)} deals", flush=True)
    diff = _paired("search - blueprint", per_deal["search"] - per_deal["blueprint"])
    rows["difference"] = {"search_minus_blueprint": diff["mean"], "se": diff["se"], "deals": diff["deals"],
                          "p_search_lower": diff["p_lower"]}  # fmt: skip
    searches = [label for label in per_deal if label != "blueprint"]
    for i, label in enumerate(searches[1:], 1):
        rows[f"{label}_minus_blueprint"] = _paired(f"{label} - blueprint", per_deal[label] - per_deal["blueprint"])
        for earlier in searches[:i]:
            rows[f"{label}_minus_{earlier}"] = _paired(f"{label} - {earlier}", per_deal[label] - per_deal[earlier])
    return rows


def report_all(per_deal: dict[str, np.ndarray], per_deal_aivat: dict[str, np.ndarray] | None) -> dict:
    """:func:`report` over LBR's winnings, and over its AIVAT estimates when there are any
    (under ``rows["aivat"]``)."""
    rows = report(per_deal)
    if per_deal_aivat is not None:
        print("AIVAT (LBR's estimate: minus the agent's, which exposes its strategy):")
        rows["aivat"] = report(per_deal_aivat)
    return rows


def _load_run(path: str) -> dict:
    """One ``--json`` file of a run; a missing or damaged one stops with one line."""
    try:
        with open(path) as f:
            run = json.load(f)
        _ = run["runs"]["blueprint"]["agent"], run["runs"]["search"]["agent"], run["per_deal"]["search"]
        _ = [run["per_deal"][label] for label in run["runs"]]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise SystemExit(f"search_lbr --combine: {path} is not a run's --json file ({type(exc).__name__}: {exc})") from None
    return run


def _agents(run: dict) -> tuple[tuple[str, str], ...]:
    return tuple((label, side["agent"]) for label, side in run["runs"].items())


def combine(runs: list[dict], names: list[str]) -> dict:
    """:func:`report` over runs on other seeds, pooled deal by deal; refuses runs of different
    agents (another search configuration, blueprint or candidate would mix two experiments)."""
    if len({_agents(run) for run in runs}) > 1:
        listed = "; ".join(f"{name}: {', '.join(agent for _, agent in _agents(run)[1:])}" for name, run in zip(names, runs))
        raise SystemExit(f"search_lbr --combine: the runs are of different agents ({listed})")
    labels = [label for label, _ in _agents(runs[0])]
    pooled = {key: {label: np.concatenate([run[key][label] for run in runs]) for label in labels}
              for key in ("per_deal", "per_deal_aivat") if all(key in run for run in runs)}  # fmt: skip
    return report_all(pooled["per_deal"], pooled.get("per_deal_aivat"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--store", help="a heads-up nlth blueprint store")
    parser.add_argument("--search", default="seconds=1", help="search options, KEY=VALUE[:KEY=VALUE...]")
    parser.add_argument("--candidate", help="a second search agent's options, played on the same deals and paired "
                        "with the first (e.g. the first's options and heads_up_flop=limited)")  # fmt: skip
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--aivat", action="store_true", help="also LBR's AIVAT estimate per deal, and the report over it")
    parser.add_argument("--json", help="write the figures (and LBR's winnings per deal) to this file")
    parser.add_argument("--combine", nargs="+", help="--json files of runs on other seeds: report them together")
    args = parser.parse_args()
    if args.combine:
        combine([_load_run(path) for path in args.combine], args.combine)
        return
    if not args.store:
        parser.error("--store is required (or --combine)")
    host = make_plugin_manager(warn=False)
    game = NLTHGame(players=2)
    agents = {"blueprint": f"blueprint:store={args.store}", "search": f"search:store={args.store}:{args.search}"}
    if args.candidate:
        agents["candidate"] = f"search:store={args.store}:{args.candidate}"
    runs, per_deal, per_deal_aivat = {}, {}, {}
    for label, text in agents.items():
        started = time.time()
        result, per_deal[label], per_deal_aivat[label] = lbr_per_deal(host, game, text, args.hands, args.seed, args.workers, args.aivat)
        runs[label] = {"agent": text, "hands": result.hands, "seconds": time.time() - started, "latency": result.agents[1].latency}
        print(f"{text}: {result.hands} hands in {runs[label]['seconds']:.0f} s", flush=True)
    rows = report_all(per_deal, per_deal_aivat if args.aivat else None)
    rows["seed"] = args.seed
    rows["runs"] = runs
    rows["per_deal"] = {label: values.tolist() for label, values in per_deal.items()}
    if args.aivat:
        rows["per_deal_aivat"] = {label: values.tolist() for label, values in per_deal_aivat.items()}
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1, default=str)


if __name__ == "__main__":
    main()
