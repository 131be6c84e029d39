"""open-spiel games solved by gamesolve (``--game openspiel:NAME``) and by open-spiel's own C++
CFR+, side by side in one process.

    python benchmarks/openspiel_games.py [--iterations 100] [--games kuhn_poker,liars_dice,...]

For each game: gamesolve compiles it through the State contract (a Python walk over
pyspiel states), runs ``--iterations`` of tabular CFR+ in open-spiel's summation order
(``order="openspiel"``), and open-spiel's ``CFRPlusSolver`` runs as many on the very same
pyspiel game; both average policies are then evaluated
(gamesolve's exact best response for ours, ``pyspiel.nash_conv`` for open-spiel's). Prints a
Markdown table: tree size, compile seconds, CPU seconds per iteration of each solver, the
speed ratio, both NashConvs and their difference (the CFR+ iterates agree to rounding error).
"""

from __future__ import annotations

import argparse
import time

import pyspiel

from gamesolve.evaluate.best_response import evaluate_policy
from gamesolve.game.compile import compiled_tree
from gamesolve.game.names import parse_game_text
from gamesolve.plugins import make_plugin_manager
from gamesolve.solve.cfr import TABULAR_ALGORITHMS, TabularCFR

GAMES = (
    "kuhn_poker",
    "kuhn_poker(players=3)",
    "leduc_poker",
    "liars_dice",
    "goofspiel(num_cards=4,imp_info=true,points_order=descending)",
    "goofspiel(num_cards=4,imp_info=true)",
    "oshi_zumo(coins=5,size=2,horizon=5)",
)


def run(host, text: str, iterations: int) -> str:
    name, params = parse_game_text(text)
    game = host.game_spec("openspiel:" + name).create(None, **params)
    started = time.perf_counter()
    tree = compiled_tree(game)
    compile_seconds = time.perf_counter() - started

    ours = TabularCFR(tree, TABULAR_ALGORITHMS["cfr+"], order="openspiel")
    ours.warm_up()
    started = time.process_time()
    ours.run(iterations)
    ours_per_it = (time.process_time() - started) / iterations
    ours_nash_conv = evaluate_policy(tree, ours.average_policy()).nash_conv

    theirs = pyspiel.CFRPlusSolver(game.os_game)
    started = time.process_time()
    for _ in range(iterations):
        theirs.evaluate_and_update_policy()
    theirs_per_it = (time.process_time() - started) / iterations
    theirs_nash_conv = pyspiel.nash_conv(game.os_game, theirs.average_policy())
    return (f"| `openspiel:{text}` | {tree.num_nodes:,} | {tree.num_infosets:,} | {compile_seconds:.1f} | "
            f"{ours_per_it:.2e} | {theirs_per_it:.2e} | **{theirs_per_it / ours_per_it:,.0f}x** | "
            f"{ours_nash_conv:.9f} | {theirs_nash_conv:.9f} | {abs(ours_nash_conv - theirs_nash_conv):.1e} |")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--games", default=";".join(GAMES), help="open-spiel games (without the openspiel: prefix), ';'-separated")
    args = parser.parse_args()
    host = make_plugin_manager()
    print(f"CFR+, {args.iterations} iterations each; CPU seconds per iteration (compilation excluded)\n")
    print("| game | histories | infosets | compile s | gamesolve s/it | open-spiel s/it | gamesolve is | "
          "NashConv gamesolve | NashConv open-spiel | difference |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for text in args.games.split(";"):
        print(run(host, text.strip(), args.iterations), flush=True)


if __name__ == "__main__":
    main()
