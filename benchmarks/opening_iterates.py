"""First-in opening frequencies of a hold'em MCCFR run's last checkpoint, from its average
strategy (what the blueprint plays preflop) and from its current strategy (regret matching of
the last regrets), for the six-player `tiny` preset:

    gamesolve solve --game nlth --out RUN --force --json
    python benchmarks/opening_iterates.py RUN
"""

import argparse

from gamesolve.errors import StoreError
from gamesolve.solve.mccfr_solver import checkpoint_trainer
from gamesolve_nlth.blueprint.form import nlth_form
from gamesolve_nlth.blueprint.presets import blueprint_preset
from gamesolve_nlth.blueprint.summary import opening_summary
from gamesolve_nlth.state import NLTHGame


def print_charts(game, form, trainer) -> None:
    """The opening chart of the trainer's average strategy, then of its last iterate."""
    for name, rows in (("average", trainer.average_rows()), ("current", trainer.current_rows())):
        print(name)
        print("\n".join(opening_summary(game, form, rows, trainer.node_offset)["summary"][1:]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("run", help="the folder of a six-player tiny run (gamesolve solve --game nlth --out RUN)")
    args = ap.parse_args()
    game = NLTHGame(players=6)
    form = nlth_form(game, blueprint_preset("tiny"))
    try:
        trainer = checkpoint_trainer(args.run, form)
    except StoreError as exc:
        ap.error(str(exc))
    print_charts(game, form, trainer)


if __name__ == "__main__":
    main()
