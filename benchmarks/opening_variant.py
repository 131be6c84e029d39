"""The six-player blueprint's opening chart after training a variant of the `tiny` preset with
another action abstraction (a preset name or a TOML file, see
gamesolve_nlth/betting/action_abstraction.py), as README command 1 trains it: two threads,
``MINUTES`` of wall time, seed 0. Prints the tree's size, the iterations, and the chart of the
average strategy (what the blueprint plays preflop) and of the last iterate (issue 37 item 4):

    python benchmarks/opening_variant.py ACTIONS.toml 3
"""

import argparse

import attrs

from gamesolve.solve.mccfr import MCCFRConfig, MCCFRTrainer
from gamesolve_nlth.betting.action_abstraction import AbstractionError, action_abstraction
from gamesolve_nlth.blueprint.form import nlth_form
from gamesolve_nlth.blueprint.presets import blueprint_preset
from gamesolve_nlth.state import NLTHGame
from opening_iterates import print_charts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("actions", help="an action-abstraction preset (tiny, small, ...) or a .toml file")
    ap.add_argument("minutes", type=float)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    if args.minutes <= 0:
        ap.error("minutes must be positive")
    try:
        action_abstraction(args.actions)  # a bad name or file: one line, before the tree is built
    except AbstractionError as exc:
        ap.error(str(exc))
    game = NLTHGame(players=6)
    form = nlth_form(game, attrs.evolve(blueprint_preset("tiny"), actions=args.actions))
    print(f"nodes {form.num_nodes:,}", flush=True)
    trainer = MCCFRTrainer(form, MCCFRConfig.from_options(form.mccfr_defaults), threads=args.threads, seed=args.seed)
    trainer.run(minutes=args.minutes)
    print(f"iterations {trainer.counters.iteration:,}")
    print_charts(game, form, trainer)


if __name__ == "__main__":
    main()
