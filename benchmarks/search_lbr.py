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
"""

from __future__ import annotations

import argparse
import json
import math
import time

import numpy as np

from gamesolve.evaluate.match import make_agents, play_match
from gamesolve.plugins import make_plugin_manager
from gamesolve.progress import BarProgress
from gamesolve_nlth.state import NLTHGame


def lbr_per_deal(host, game, agent_text: str, hands: int, seed: int, workers: int):
    """The match ``gamesolve lbr`` plays, with its hands kept: the result and LBR's winnings
    per deal (mbb/game, averaged over the deal's seatings)."""
    opponents, _ = make_agents(host.agents, game, [agent_text] * (game.num_players - 1), seed, plugins=host.pm)
    lbr = host.pm.hook.gamesolve_lbr_agent(game=game, opponents=opponents, options={}, seed=seed)
    with BarProgress() as progress:
        result = play_match(game, [lbr] + opponents, hands, seed=seed, names=["lbr", agent_text], keep_hands=True,
                            workers=workers, progress=progress)  # fmt: skip
    per_deal: dict[int, float] = {}
    for record in result.records:
        lbr_seat = record.seats.index("lbr")
        per_deal[record.deal] = per_deal.get(record.deal, 0.0) + record.returns[lbr_seat] / game.num_players
    return result, np.array([per_deal[d] for d in sorted(per_deal)]) * result.scale


def mean_se(x: np.ndarray) -> tuple[float, float]:
    return float(x.mean()), float(x.std(ddof=1) / math.sqrt(len(x)))


def report(per_deal: dict[str, np.ndarray]) -> dict:
    """Both sides' LBR values and the paired difference, printed; the figures as a dict."""
    rows = {}
    for label, values in per_deal.items():
        mean, se = mean_se(values)
        rows[label] = {"mbb_per_game": mean, "se": se, "deals": len(values)}
        print(f"LBR vs {label}: {mean:+.0f} ± {se:.0f} mbb/game over {len(values)} deals", flush=True)
    diff = per_deal["search"] - per_deal["blueprint"]
    mean, se = mean_se(diff)
    z = mean / se if se > 0 else float("nan")
    p_lower = 0.5 * math.erfc(-z / math.sqrt(2)) if se > 0 else float("nan")  # one-sided: search's LBR value lower
    rows["difference"] = {"search_minus_blueprint": mean, "se": se, "deals": len(diff), "p_search_lower": p_lower}
    print(f"paired per deal, search - blueprint: {mean:+.0f} ± {se:.0f} mbb/game over {len(diff)} deals "
          f"(one-sided p-value, alternative: the search agent's is lower: {p_lower:.3g})")  # fmt: skip
    return rows


def _load_run(path: str) -> dict:
    """One ``--json`` file of a run; a missing or damaged one stops with one line."""
    try:
        with open(path) as f:
            run = json.load(f)
        _ = run["runs"]["blueprint"]["agent"], run["runs"]["search"]["agent"], run["per_deal"]["search"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise SystemExit(f"search_lbr --combine: {path} is not a run's --json file ({type(exc).__name__}: {exc})") from None
    return run


def combine(runs: list[dict], names: list[str]) -> dict:
    """:func:`report` over runs on other seeds, pooled deal by deal; refuses runs of different
    agents (another search configuration or blueprint would mix two experiments)."""
    agents = {(run["runs"]["blueprint"]["agent"], run["runs"]["search"]["agent"]) for run in runs}
    if len(agents) > 1:
        listed = "; ".join(f"{name}: {run['runs']['search']['agent']}" for name, run in zip(names, runs))
        raise SystemExit(f"search_lbr --combine: the runs are of different agents ({listed})")
    return report({label: np.concatenate([run["per_deal"][label] for run in runs]) for label in ("blueprint", "search")})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--store", help="a heads-up nlth blueprint store")
    parser.add_argument("--search", default="seconds=1", help="search options, KEY=VALUE[:KEY=VALUE...]")
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
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
    runs, per_deal = {}, {}
    for label, text in agents.items():
        started = time.time()
        result, per_deal[label] = lbr_per_deal(host, game, text, args.hands, args.seed, args.workers)
        lbr_row, agent_row = result.agents
        assert abs(per_deal[label].mean() - lbr_row.win_rate) < 1e-6 * max(1.0, abs(lbr_row.win_rate))  # what the CLI reports
        runs[label] = {"agent": text, "hands": result.hands, "seconds": time.time() - started, "latency": agent_row.latency}
        print(f"{text}: {result.hands} hands in {runs[label]['seconds']:.0f} s", flush=True)
    rows = report(per_deal)
    rows["runs"] = runs
    rows["per_deal"] = {label: values.tolist() for label, values in per_deal.items()}
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1, default=str)


if __name__ == "__main__":
    main()
