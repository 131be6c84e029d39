"""Fit the stakes table of hold'em AIVAT (gamesolve_nlth.evaluate.stakes) on calibration hands.

    python benchmarks/aivat_fit.py --blueprint PATH --hands 4000 --seed 101 --out plugins/nlth/gamesolve_nlth/evaluate/stakes-hu.json

Plays ``--hands`` heads-up hands of the blueprint against ``tag`` (the blueprint in both seats,
alternately; chance seeded by ``--seed``, which must differ from the seeds of the matches the
table will evaluate), records at every decision after the flop the blueprint's table cell,
the effective stack behind and its payoff beyond the check-down value, and writes the fitted
table (JSON, with the command in its attributes). Minutes on one core.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from gamesolve.evaluate.aivat import HandLog
from gamesolve.evaluate.match import _DealReplay, make_agents, play_hand
from gamesolve.plugins import make_plugin_manager
from gamesolve.progress import BarProgress
from gamesolve_nlth.evaluate.aivat import HoleCardAIVAT
from gamesolve_nlth.evaluate.stakes import fit_table
from gamesolve_nlth.state import NLTHGame


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--blueprint", required=True, help="path of a heads-up blueprint store")
    parser.add_argument("--opponent", default="tag")
    parser.add_argument("--hands", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=101)
    parser.add_argument("--shrink", type=float, default=5.0)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    host = make_plugin_manager()
    game = NLTHGame(2)
    (blueprint, opponent), _ = make_agents(host.agents, game, [f"blueprint:store={args.blueprint}", args.opponent], args.seed, host.pm)
    collector = HoleCardAIVAT(game, blueprint, stakes=None)
    rows: list[tuple[int, float, float]] = []
    with BarProgress() as progress:
        progress.start(args.hands, "hands", "calibration hands")
        for hand in range(args.hands):
            seat = hand % 2
            seated = [blueprint, opponent] if seat == 0 else [opponent, blueprint]
            steps: list = []
            final = play_hand(game, seated, hand, _DealReplay(args.seed, hand), steps)
            rows.extend(collector.stakes_rows(HandLog(tuple(steps), final), seat))
            progress.advance(1)
    command = "python benchmarks/aivat_fit.py " + " ".join(sys.argv[1:])
    table = fit_table(np.asarray(rows), args.shrink, {"command": command, "hands": args.hands, "seed": args.seed,
                                                        "opponent": args.opponent, "blueprint": args.blueprint})  # fmt: skip
    table.save(args.out)
    print(f"{len(rows)} rows from {args.hands} hands -> {args.out}")


if __name__ == "__main__":
    main()
