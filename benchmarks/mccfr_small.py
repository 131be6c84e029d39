"""MCCFR on small games: gamesolve against open-spiel's C++ ExternalSamplingMCCFRSolver, side by side.

    python benchmarks/mccfr_small.py versus   [--game leduc|liars_dice|kuhn] [--seconds 60] [--form plugin|generic]
                                              [--clock cpu|wall] [--rounds 6] [--dice 2 --sides 4]
    python benchmarks/mccfr_small.py ablation [--seconds 30 --seeds 3]
    python benchmarks/mccfr_small.py threads  [--seconds 20]
    python benchmarks/mccfr_small.py players3

Exploitability is exact (the core's best response over the full game tree; open-spiel's
own ``exploitability`` for its solver). Throughput counts iterations (one traversal per
player), single-threaded unless stated. ``versus`` trains both solvers in alternating blocks
until each has had ``--seconds`` of CPU time (``--clock wall``: wall time), both with the
defaults ``gamesolve solve`` uses. ``--form generic`` trains on the
generic compiler's factored form (the one every State-contract game gets; Leduc's has public
chance nodes) instead of the plugin's.

``--dice``/``--sides`` (Liar's Dice): with two dice each the game is too big for an explicit
tree (open-spiel's own ``exploitability`` ran out of 24 GB on two dice of four sides), so both
policies are evaluated exactly by the core's vector best response over the factored form
(gamesolve/evaluate/vector_best_response.py), open-spiel's read from its average policy
infoset by infoset (uniform where its tables have none, as ours are uniform where no row was
allocated).
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from gamesolve.evaluate.best_response import TreeEvaluator
from gamesolve.evaluate.vector_best_response import evaluate_rows
from gamesolve.game.compile import factored_form
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


def make(name: str, players: int, form: str, dice: int = 1, sides: int = 6):
    if name == "liars_dice" and (dice, sides) != (1, 6):
        game = LiarsDiceGame(dice=dice, sides=sides)
        return game, factored_form(game)  # its factored contract: too many histories for the generic compiler
    factory, plugin_form, _ = GAMES[name]
    game = factory(players)
    return game, (plugin_form(game) if form == "plugin" and plugin_form else compile_factored(game))


def openspiel_rows(form, policy) -> tuple[np.ndarray, np.ndarray]:
    """Open-spiel's Liar's Dice policy in the form's table layout (``node_offset``, rows):
    its infoset strings are the dice without separator, then the bids as ``q-f``."""
    sizes = form.row_sizes()
    owners = np.flatnonzero(sizes > 0)
    offset = np.full(form.num_nodes, -1, dtype=np.int64)
    offset[owners] = np.concatenate([[0], np.cumsum(sizes[owners])[:-1]])
    rows = np.empty(int(sizes.sum()))
    labels = form.private_keys(int(owners[0]), int(form.node_player[owners[0]]))  # key -> private state
    dice = {s: key.split("|")[0].replace(",", "") for key, s in labels.items()}
    for node in owners:
        public = form.node_keys[node]
        bids = "" if public == "-" else " " + public.replace("x", "-")
        labels = form.edge_label[form.child_start[node] : form.child_start[node + 1]]
        for s, own in dice.items():
            base = offset[node] + s * len(labels)
            try:
                probs = dict(policy.get_state_policy(own + bids))
                rows[base : base + len(labels)] = [probs.get(int(a), 0.0) for a in labels]
            except pyspiel_error():  # never visited: no table entry
                rows[base : base + len(labels)] = 1.0 / len(labels)
    return offset, rows


def pyspiel_error():
    import pyspiel

    return pyspiel.SpielError


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


class Timed:
    """A solver trained in timed blocks: ``step(n)`` runs n iterations; the clock is CPU time
    of this process (``cpu``) or wall time (``wall``)."""

    def __init__(self, step, clock: str, chunk: int):
        self.step, self.chunk = step, chunk
        self.clock = time.process_time if clock == "cpu" else time.perf_counter
        self.iterations, self.cpu, self.wall = 0, 0.0, 0.0

    def train(self, seconds: float) -> None:
        spent = 0.0
        while spent < seconds:
            c0, w0, t0 = time.process_time(), time.perf_counter(), self.clock()
            self.step(self.chunk)
            dt = self.clock() - t0
            spent += dt
            self.iterations += self.chunk
            self.cpu += time.process_time() - c0
            self.wall += time.perf_counter() - w0
            if dt > 0:  # blocks of about 50 ms, so that the budget is met closely
                self.chunk = max(10, int(self.chunk * min(2.0, 0.05 / dt)))


def versus(args) -> None:
    """Both solvers trained in alternating blocks (``--rounds``) until each has had
    ``--seconds`` of its clock, so that a change of load on a shared machine falls on both."""
    import pyspiel

    big = args.game == "liars_dice" and (args.dice, args.sides) != (1, 6)
    os_name = f"liars_dice(numdice={args.dice},dice_sides={args.sides})" if big else GAMES[args.game][2]
    os_game = pyspiel.load_game(os_name)
    os_solver = pyspiel.ExternalSamplingMCCFRSolver(os_game, seed=1, avg_type=pyspiel.MCCFRAverageType.SIMPLE)
    game, tree = make(args.game, 2, args.form, args.dice, args.sides)
    config = MCCFRConfig.from_options(tree.mccfr_defaults)
    MCCFRTrainer(tree, config, seed=0).run(iterations=2000)  # compile the kernels outside the timed run
    trainer = MCCFRTrainer(tree, config, seed=0)

    def run_os(n):
        for _ in range(n):
            os_solver.run_iteration()

    theirs = Timed(run_os, args.clock, 100)
    mine = Timed(lambda n: trainer.run(iterations=n), args.clock, 10_000)
    for _ in range(args.rounds):
        theirs.train(args.seconds / args.rounds)
        mine.train(args.seconds / args.rounds)
    if big:
        os_expl = evaluate_rows(tree, *openspiel_rows(tree, os_solver.average_policy())).exploitability
        expl = evaluate_rows(tree, trainer.node_offset, trainer.average_rows()).exploitability
        how = "both evaluated by the vector best response over the factored form"
    else:
        os_expl = pyspiel.exploitability(os_game, os_solver.average_policy())
        explicit = compile_explicit_tree(game)
        expl = TreeEvaluator(explicit).evaluate(trainer.explicit_policy(explicit)).exploitability
        how = "open-spiel's exploitability of its policy; ours by the explicit tree's best response"
    form_name = "contract" if big else args.form if GAMES[args.game][1] is not None else "generic"
    print(f"{game.describe()}, {form_name} form, {args.seconds:g} s of {args.clock} time each in {args.rounds} alternating rounds; {how}")
    print("| solver | iterations | CPU s | wall s | iterations per CPU s | exploitability |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, run, e in (("open-spiel ExternalSamplingMCCFRSolver (C++, SIMPLE average)", theirs, os_expl),
                         (f"gamesolve mccfr-p ({tree.describe or 'plugin form'}, defaults)", mine, expl)):  # fmt: skip
        print(f"| {name} | {run.iterations:,} | {run.cpu:.1f} | {run.wall:.1f} | {run.iterations / run.cpu:,.0f} | {e:.5f} |")
    speed = (mine.iterations / mine.cpu) / (theirs.iterations / theirs.cpu)
    print(f"\nspeed ratio (per CPU s) {speed:.1f}x; exploitability ratio {os_expl / expl:.2f}x lower")


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
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu", help="versus: what --seconds counts")
    parser.add_argument("--rounds", type=int, default=6, help="versus: alternating blocks of each solver")
    parser.add_argument("--dice", type=int, default=1, help="versus, liars_dice: dice per player")
    parser.add_argument("--sides", type=int, default=6, help="versus, liars_dice: sides of a die")
    args = parser.parse_args()
    args.seconds = args.seconds or {"versus": 60, "ablation": 30, "threads": 20, "players3": 0}[args.what]
    {"versus": versus, "ablation": ablation, "threads": threads, "players3": players3}[args.what](args)


if __name__ == "__main__":
    main()
