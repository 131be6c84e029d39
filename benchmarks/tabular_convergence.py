"""Convergence of the tabular CFR family on Kuhn and Leduc (2 and 3 players).

    python benchmarks/tabular_convergence.py [--max-iterations 1000]

Prints a Markdown table: NashConv of the average policy (exact best responses) after
10, 100 and 1,000 iterations, and CPU seconds of solving, per algorithm and game.
"""

from __future__ import annotations

import argparse
import time

from gamesolve.evaluate.best_response import TreeEvaluator
from gamesolve.game.explicit_tree import compile_explicit_tree
from gamesolve.solve.cfr import TABULAR_ALGORITHMS, TabularCFR
from gamesolve_kuhn import KuhnGame
from gamesolve_leduc import LeducGame


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--max-iterations", type=int, default=1000)
    parser.add_argument("--games", default="kuhn2,kuhn3,leduc2,leduc3")
    args = parser.parse_args()
    games = {"kuhn2": KuhnGame(2), "kuhn3": KuhnGame(3), "leduc2": LeducGame(2), "leduc3": LeducGame(3)}
    checkpoints = [c for c in (10, 100, 1000, 10000) if c <= args.max_iterations]
    print("| game | algo | " + " | ".join(f"NashConv @ {c:,}" for c in checkpoints) + " | solve CPU s |")
    print("|---|---|" + "---|" * (len(checkpoints) + 1))
    for key in args.games.split(","):
        game = games[key]
        tree = compile_explicit_tree(game)
        evaluator = TreeEvaluator(tree)
        for algo, config in TABULAR_ALGORITHMS.items():
            solver = TabularCFR(tree, config)
            cells, cpu = [], 0.0
            for target in checkpoints:
                started = time.process_time()
                solver.run(target - solver.iterations)
                cpu += time.process_time() - started
                cells.append(f"{evaluator.evaluate(solver.average_policy()).nash_conv:.3g}")
            print(f"| {game.describe()} | {algo} | " + " | ".join(cells) + f" | {cpu:.2f} |", flush=True)


if __name__ == "__main__":
    main()
