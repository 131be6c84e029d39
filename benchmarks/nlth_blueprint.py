"""Six-player blueprint training throughput, beside open-spiel's C++ ExternalSamplingMCCFRSolver
on its universal_poker six-player no-limit game (stacks 10,000, blinds 50/100, fcpa betting).

    python benchmarks/nlth_blueprint.py [--seconds 60] [--preset tiny]

Prints iterations/s and nodes visited/s per core and with 2 threads, open-spiel's
iterations/s in the same run, and the ratio; also bytes per allocated infoset-action.
"""

from __future__ import annotations

import argparse
import time

from gamesolve.solve.mccfr import MCCFRConfig, MCCFRTrainer
from gamesolve_nlth.blueprint.form import nlth_form
from gamesolve_nlth.blueprint.presets import blueprint_preset
from gamesolve_nlth.state import NLTHGame

UNIVERSAL_POKER = (
    "universal_poker(betting=nolimit,bettingAbstraction=fcpa,blind=50 100 0 0 0 0,firstPlayer=3 1 1 1,"
    "numBoardCards=0 3 1 1,numHoleCards=2,numPlayers=6,numRanks=13,numRounds=4,numSuits=4,"
    "stack=10000 10000 10000 10000 10000 10000)"
)


def openspiel_rate(seconds: float) -> float:
    import pyspiel

    solver = pyspiel.ExternalSamplingMCCFRSolver(pyspiel.load_game(UNIVERSAL_POKER), seed=1)
    n = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        solver.run_iteration()
        n += 1
    return n / (time.perf_counter() - started)


def ours(tree, config, seconds: float, threads: int):
    trainer = MCCFRTrainer(tree, config, threads=threads, seed=0)
    trainer.run(iterations=2000)  # compile and warm up outside the timed part
    it0, visited0 = trainer.counters.iteration, int(trainer._visited.sum())
    started = time.perf_counter()
    trainer.run(minutes=seconds / 60)
    wall = time.perf_counter() - started
    trainer.counters.nodes_visited = int(trainer._visited.sum())
    return (trainer.counters.iteration - it0) / wall, (trainer.counters.nodes_visited - visited0) / wall, trainer.memory_report()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--preset", default="tiny")
    args = parser.parse_args()
    preset = blueprint_preset(args.preset)
    tree = nlth_form(NLTHGame(players=6), preset)
    config = MCCFRConfig.from_options(tree.mccfr_defaults)
    os_rate = openspiel_rate(args.seconds)
    rows = [(t, *ours(tree, config, args.seconds, t)) for t in (1, 2)]
    print("| solver | threads | iterations/s | nodes visited/s | vs open-spiel per core |")
    print("|---|---:|---:|---:|---:|")
    print(f"| open-spiel ExternalSamplingMCCFRSolver, universal_poker fcpa | 1 | {os_rate:,.0f} | - | 1x |")
    for threads, rate, nodes, memory in rows:
        print(f"| gamesolve mccfr-p, preset {args.preset} | {threads} | {rate:,.0f} | {nodes:,.0f} | {rate / threads / os_rate:.1f}x |")
    memory = rows[0][3]
    print(f"\nbytes per allocated infoset-action: {memory['bytes_per_infoset_action']:.2f} "
          f"({memory['allocated_infoset_actions']:,} infoset-actions in {memory['allocated_action_sequences']:,} action sequences)")


if __name__ == "__main__":
    main()
