"""How the main job's opening summary moves with training: AA, KK, QQ and AKs first-in raise
frequencies at each position, of the average strategy (what the summary prints) and of the
current one, every STEP iterations of one run on the six-player ``tiny`` preset.

    python benchmarks/preflop_curve.py THREADS STEP TOTAL [KEY=VALUE ...]

KEY=VALUE are MCCFR options over the preset's (``strategy_update=exact``, schedules in
iterations so that a one-thread run reproduces to the bit), ``preset=NAME``, or
``actions=NAME|FILE.toml`` (another action abstraction with the preset's cards). Each line:
iterations, wall and processor seconds, then per position the four hands' raise percentages.
"""

from __future__ import annotations

import sys
import time

import attrs

import gamesolve_nlth.plugin as P
from gamesolve.game.poker_form import RAISE
from gamesolve.solve.mccfr import MCCFRConfig, MCCFRTrainer
from gamesolve_nlth.blueprint.form import nlth_form
from gamesolve_nlth.blueprint.presets import blueprint_preset
from gamesolve_nlth.blueprint.summary import position_name, preflop_classes, unopened_nodes

HANDS = ("AA", "KK", "QQ", "AKs")


def main() -> None:
    threads, step, total = (int(a) for a in sys.argv[1:4])
    over = dict(a.split("=", 1) for a in sys.argv[4:])
    game = P.make_nlth_game(6, "10000", 50, 100, 0)
    preset = blueprint_preset(over.pop("preset", "tiny"))
    if "actions" in over:
        preset = attrs.evolve(preset, actions=over.pop("actions"))
    form = nlth_form(game, preset)
    trainer = MCCFRTrainer(form, MCCFRConfig.from_options(dict(preset.mccfr), prune=True, **over), threads=threads, seed=0)
    names, _ = preflop_classes()
    index = {n: i for i, n in enumerate(names)}

    def show(rows) -> str:
        out = []
        for seat, node in unopened_nodes(form).items():
            c0, c1 = int(form.child_start[node]), int(form.child_start[node + 1])
            n, kinds, off = c1 - c0, form.edge_class[c0:c1], int(trainer.node_offset[node])
            probs = rows[off : off + 169 * n].reshape(169, n)
            out.append(position_name(seat, 6) + " " + " ".join(f"{probs[index[h], kinds == RAISE].sum() * 100:3.0f}" for h in HANDS))
        return " | ".join(out)

    t0, c0 = time.perf_counter(), time.process_time()
    print(f"{'':24}{'  '.join(HANDS)} per position", flush=True)
    while trainer.counters.iteration < total:
        trainer.run(iterations=step)
        it = trainer.counters.iteration
        print(f"{it / 1e6:5.1f}M {time.perf_counter() - t0:6.0f}s {time.process_time() - c0:6.0f}cpu  avg: {show(trainer.average_rows())}", flush=True)
        print(f"{'':24}cur: {show(trainer.current_rows())}", flush=True)


if __name__ == "__main__":
    main()
