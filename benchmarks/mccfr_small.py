"""MCCFR on small games: gamesolve against open-spiel's C++ ExternalSamplingMCCFRSolver, side by side.

    python benchmarks/mccfr_small.py versus   [--game leduc|liars_dice|kuhn] [--seconds 60] [--form plugin|generic]
    python benchmarks/mccfr_small.py ablation [--seconds 30 --seeds 3]
    python benchmarks/mccfr_small.py threads  [--seconds 20]
    python benchmarks/mccfr_small.py players3

Exploitability is exact (the core's best response over the full game tree; open-spiel's
own ``exploitability`` for its solver). Throughput counts iterations (one traversal per
player), CPU-bound and single-threaded unless stated. ``--form generic`` trains on the
generic compiler's factored form (the one every State-contract game gets; Leduc's has public
chance nodes) instead of the plugin's.
"""

from __future__ import annotations

import argparse
import statistics
import time

from gamesolve.evaluate.best_response import TreeEvaluator
from gamesolve.game.explicit_tree import compile_explicit_tree
from gamesolve.game.factored import SMALL_GAME_MCCFR_DEFAULTS
from gamesolve.game.factored_compiler import compile_factored
from gamesolve.solve.mccfr import MCCFRConfig, MCCFRTrainer
from gamesolve_kuhn import KuhnGame
from gamesolve_kuhn.poker_form import kuhn_form
from gamesolve_leduc import LeducGame
from gamesolve_leduc.poker_form import leduc_form
from gamesolve_liars_dice import LiarsDiceGame

GAMES = {
    "leduc": (LeducGame, leduc_form, "leduc_poker"),
    "kuhn": (KuhnGame, kuhn_form, "kuhn_poker"),
    "liars_dice": (lambda players: LiarsDiceGame(), None, "liars_dice"),
}


def make(name: str, players: int, form: str):
    factory, plugin_form, _ = GAMES[name]
    game = factory(players)
    return game, (plugin_form(game) if form == "plugin" and plugin_form else compile_factored(game))


def ours(seconds: float, seed: int = 0, threads: int = 1, players: int = 2, game_name: str = "leduc",
         form: str = "plugin", **overrides):  # fmt: skip
    game, tree = make(game_name, players, form)
    config = MCCFRConfig.from_options(SMALL_GAME_MCCFR_DEFAULTS, **overrides)
    trainer = MCCFRTrainer(tree, config, seed=seed, threads=threads)
    trainer.run(iterations=2000)  # compile the kernels outside the timed run
    trainer = MCCFRTrainer(tree, config, seed=seed, threads=threads)
    started = time.perf_counter()
    trainer.run(minutes=seconds / 60)
    wall = time.perf_counter() - started
    explicit = compile_explicit_tree(game)
    evaluation = TreeEvaluator(explicit).evaluate(trainer.explicit_policy(explicit))
    return trainer.counters.iteration, wall, evaluation


def openspiel(seconds: float, seed: int = 1, game_name: str = "leduc"):
    import pyspiel

    game = pyspiel.load_game(GAMES[game_name][2])
    solver = pyspiel.ExternalSamplingMCCFRSolver(game, seed=seed, avg_type=pyspiel.MCCFRAverageType.SIMPLE)
    iterations = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        for _ in range(1000):
            solver.run_iteration()
        iterations += 1000
    wall = time.perf_counter() - started
    return iterations, wall, pyspiel.exploitability(game, solver.average_policy())


def versus(args) -> None:
    os_it, os_wall, os_expl = openspiel(args.seconds, game_name=args.game)
    it, wall, ev = ours(args.seconds, game_name=args.game, form=args.form)
    print(f"{args.game}, {args.form} form")
    print(f"| solver | iterations | iterations/s | exploitability after {args.seconds:g} s |")
    print("|---|---:|---:|---:|")
    print(f"| open-spiel ExternalSamplingMCCFRSolver (C++, SIMPLE average) | {os_it:,} | {os_it / os_wall:,.0f} | {os_expl:.5f} |")
    print(f"| gamesolve mccfr-p (defaults) | {it:,} | {it / wall:,.0f} | {ev.exploitability:.5f} |")
    print(f"\nspeed ratio {it / wall / (os_it / os_wall):.1f}x; exploitability ratio {os_expl / ev.exploitability:.1f}x lower")


ABLATION = {
    "plain external sampling": dict(prune=False, discount_interval="off"),
    "+ linear discounting": dict(prune=False),
    "+ pruning": dict(prune=True, discount_interval="off"),
    "+ both (mccfr-p)": dict(prune=True),
}


def ablation(args) -> None:
    print(f"| variant | exploitability after {args.seconds:g} s (mean ± sd over {args.seeds} seeds) | iterations/s |")
    print("|---|---:|---:|")
    for name, overrides in ABLATION.items():
        values, rates = [], []
        for seed in range(args.seeds):
            it, wall, ev = ours(args.seconds, seed=seed, **overrides)
            values.append(ev.exploitability)
            rates.append(it / wall)
        sd = statistics.stdev(values) if len(values) > 1 else 0.0
        print(f"| {name} | {statistics.mean(values):.5f} ± {sd:.5f} | {statistics.mean(rates):,.0f} |", flush=True)


def threads(args) -> None:
    rows = []
    for t in (1, 2):
        it, wall, ev = ours(args.seconds, threads=t)
        rows.append((t, it / wall, ev.exploitability))
    print("| threads | iterations/s | exploitability |")
    print("|---:|---:|---:|")
    for t, rate, expl in rows:
        print(f"| {t} | {rate:,.0f} | {expl:.5f} |")
    print(f"\nspeed-up with 2 threads: {rows[1][1] / rows[0][1]:.2f}x")


def players3(args) -> None:
    game, tree = make("leduc", 3, args.form)
    trainer = MCCFRTrainer(tree, MCCFRConfig.from_options(SMALL_GAME_MCCFR_DEFAULTS), seed=0)
    explicit = compile_explicit_tree(game)
    evaluator = TreeEvaluator(explicit)
    print("| iterations | NashConv (3-player Leduc, mccfr-p) | seconds |")
    print("|---:|---:|---:|")
    for target in (10_000, 100_000, 1_000_000, 10_000_000):
        started = time.perf_counter()
        trainer.run(iterations=target - trainer.counters.iteration)
        seconds = time.perf_counter() - started
        nash_conv = evaluator.evaluate(trainer.explicit_policy(explicit)).nash_conv
        print(f"| {target:,} | {nash_conv:.4f} | {seconds:.1f} |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=["versus", "ablation", "threads", "players3"])
    parser.add_argument("--seconds", type=float, default=None)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--game", choices=tuple(GAMES), default="leduc")
    parser.add_argument("--form", choices=("plugin", "generic"), default="plugin")
    args = parser.parse_args()
    args.seconds = args.seconds or {"versus": 60, "ablation": 30, "threads": 20, "players3": 0}[args.what]
    {"versus": versus, "ablation": ablation, "threads": threads, "players3": players3}[args.what](args)


if __name__ == "__main__":
    main()
