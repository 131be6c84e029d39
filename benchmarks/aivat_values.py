"""Hold'em AIVAT's value functions side by side on the same hands: raw winnings, check-down
values alone, check-down values plus the stakes model (``stakes``), and the rest of the street
walked with the blueprint's range strategy against ``tag``'s exposed model on the river
(``river-walk``), the turn and the river (``turn-walk``), every street after the flop
(``flop-walk``), and the same across the river card (``cross-walk``); docs/evaluation.md, AIVAT.

    python benchmarks/aivat_values.py --blueprint PATH --hands 5000 --seed 1 --workers 2 [--values stakes,flop-walk]

Plays the deals of ``gamesolve match --game nlth -p players=2 --agents
blueprint:store=PATH,tag --hands N --seed S --aivat-values NAME`` (the same deals, seats,
agent seeds and estimators, so each row equals that command's AIVAT row) once per value
function, and prints per-deal standard errors and their ratios to the raw one.
"""

from __future__ import annotations

import argparse
import time

from gamesolve.evaluate.match import Table, _play_in_workers, deals_for, make_agents, win_rate
from gamesolve.plugins import make_plugin_manager
from gamesolve.progress import BarProgress
from gamesolve_nlth.evaluate.aivat import VALUE_FUNCTIONS, make_estimator
from gamesolve_nlth.state import NLTHGame


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--blueprint", required=True)
    parser.add_argument("--hands", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--values", default=",".join(VALUE_FUNCTIONS), help="which value functions (comma-separated)")
    args = parser.parse_args()
    wanted = args.values.split(",")
    host = make_plugin_manager()
    game = NLTHGame(2)
    agents, names = make_agents(host.agents, game, [f"blueprint:store={args.blueprint}", "tag"], args.seed, host.pm)
    n_deals = deals_for(args.hands, 2)
    print("| value function | hands | mbb/g ± SE | SE ratio | variance reduction | seconds |")
    print("|---|---:|---:|---:|---:|---:|")
    raw = None
    unknown = set(wanted) - set(VALUE_FUNCTIONS)
    if unknown:
        parser.error(f"unknown value functions {sorted(unknown)}; choose among {list(VALUE_FUNCTIONS)}")
    for label in VALUE_FUNCTIONS:
        if label not in wanted:
            continue
        started = time.perf_counter()
        table = Table(game, list(agents), names, args.seed, False, [make_estimator(game, agents[0], [agents[1]], label), None])
        with BarProgress() as progress:
            progress.start(n_deals * 2, "hands", label)
            if args.workers > 1:
                played = _play_in_workers(table, n_deals, args.workers, progress)
            else:
                played = []
                for deal in range(n_deals):
                    played.append(table.play_deals(deal, deal + 1))
                    progress.advance(2)
        seconds = time.perf_counter() - started
        if raw is None:
            raw = win_rate([row[0] * 10 for part in played for row in part[0]])  # mbb/g: chips x 1000 / big blind 100
            print(f"| raw | {2 * n_deals:,} | {raw.mean:+.0f} ± {raw.stderr:.0f} | 1 | 1 | |")
        av = win_rate([row[0] * 10 for part in played for row in part[3]])
        print(f"| {label} | {2 * n_deals:,} | {av.mean:+.0f} ± {av.stderr:.0f} | {raw.stderr / av.stderr:.2f} "
              f"| {(raw.stderr / av.stderr) ** 2:.1f} | {seconds:.0f} |", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
