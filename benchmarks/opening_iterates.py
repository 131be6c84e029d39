"""First-in opening frequencies of a hold'em MCCFR run's last checkpoint, from its average
strategy (what the blueprint plays preflop) and from its current strategy (regret matching of
the last regrets), for the six-player `tiny` preset:

    gamesolve solve --game nlth --out RUN --force --json
    python benchmarks/opening_iterates.py RUN
"""

import sys
from gamesolve_nlth.state import NLTHGame
from gamesolve_nlth.blueprint.form import nlth_form
from gamesolve_nlth.blueprint.presets import blueprint_preset
from gamesolve_nlth.blueprint.summary import opening_summary
from gamesolve.solve.mccfr_solver import checkpoint_trainer
game = NLTHGame(players=6)
form = nlth_form(game, blueprint_preset("tiny"))
tr = checkpoint_trainer(sys.argv[1], form)
for name, rows in (("average", tr.average_rows()), ("current", tr.current_rows())):
    print(name)
    print("\n".join(opening_summary(game, form, rows, tr.node_offset)["summary"]))
