"""Liar's Dice head to head: a gamesolve mccfr-p store against open-spiel's C++ ES-MCCFR trained
for the same wall time, in duplicate games (each deal played twice, seats swapped).

    python benchmarks/liars_dice_openspiel_match.py --store ld26 --minutes 30 [--dice 2 --sides 6]
                                                    [--games 200000] [--seed 7]

One after the other, one thread each (open-spiel's solver has one), the same wall time:

    gamesolve solve --game liars_dice -p dice=2 --algo mccfr-p --minutes 10 --threads 1 --out ld26 --json > ld26.json
    python benchmarks/liars_dice_openspiel_match.py --store ld26 --minutes 10 2>/dev/null

(Side by side they do not fit in 24 GB: open-spiel's tables grow by about 0.7 GB a minute.)

The store is a ``gamesolve solve --game liars_dice -p dice=D -p sides=S --algo mccfr-p --out
STORE`` run; its average strategy (the last checkpoint's tables) plays for gamesolve. Open-spiel's
``ExternalSamplingMCCFRSolver`` (SIMPLE average, one thread: it has no threads) is trained here
for ``--minutes`` of wall time, then its average policy plays, read infoset by infoset through
``get_state_policy`` (uniform where its tables have no entry, as ours are uniform where no row was
allocated). Both sample their actions from a seeded generator. Prints the mean payoff to
gamesolve per game with its standard error over duplicate pairs and the one-sided p-value of
"gamesolve wins", plus both solvers' iteration counts.
"""

from __future__ import annotations

import argparse
import json
import math
import time

import numpy as np
from gamesolve_liars_dice.game import LiarsDiceGame

from gamesolve.game.compile import factored_form
from gamesolve.solve.mccfr_solver import checkpoint_trainer
from gamesolve.store.form_cache import FormCache


def our_strategy(store: str, form):
    """``(node_offset, rows, counters)`` of the store's last checkpoint: its average strategy."""
    trainer = checkpoint_trainer(store, form)
    return trainer.node_offset, trainer.average_rows(), trainer.counters


class Ours:
    def __init__(self, form, offset, rows):
        self.form, self.offset, self.rows = form, offset, rows

    def probs(self, node: int, private: int, legal: np.ndarray) -> np.ndarray:
        off = self.offset[node]
        a = len(legal)
        return np.full(a, 1.0 / a) if off < 0 else self.rows[off + private * a : off + (private + 1) * a]


class Theirs:
    def __init__(self, policy, error):
        self.policy, self.error = policy, error

    def probs(self, key: str, legal: np.ndarray) -> np.ndarray:
        try:
            table = dict(self.policy.get_state_policy(key))
        except self.error:  # never visited: no table entry
            return np.full(len(legal), 1.0 / len(legal))
        p = np.array([table.get(int(a), 0.0) for a in legal])
        return p / p.sum() if p.sum() > 0 else np.full(len(legal), 1.0 / len(legal))


def play(form, ours: Ours, theirs: Theirs, deal: int, our_seat: int, rng: np.random.Generator, dice_text: list[str],
         bid_text: list[str]) -> float:  # fmt: skip
    """One game from listed deal ``deal``; gamesolve in ``our_seat``; its payoff. Open-spiel's
    infoset strings: the player's dice without separator, then the bids as ``q-f``."""
    listed = form.deals.listed
    private = listed.private[deal, :, 0]
    node, bids = 0, []
    while form.node_kind[node] == 0:
        p = int(form.node_player[node])
        legal = form.labels(node)
        if p == our_seat:
            probs = ours.probs(node, int(private[p]), legal)
        else:
            key = dice_text[int(private[p])] + "".join(f" {b}" for b in bids)
            probs = theirs.probs(key, legal)
        i = int(rng.choice(len(legal), p=probs / probs.sum()))
        action = int(legal[i])
        if action < len(bid_text):  # (not "liar", which ends the game)
            bids.append(bid_text[action])
        node = int(form.children(node)[i])
    row = form.term_row[node]
    value = form.payoff[node] if row < 0 else form.table[row, deal]
    return float(value[our_seat])


def main() -> None:
    import pyspiel

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--store", required=True)
    parser.add_argument("--minutes", type=float, required=True, help="open-spiel's training, wall time")
    parser.add_argument("--dice", type=int, default=2)
    parser.add_argument("--sides", type=int, default=6)
    parser.add_argument("--games", type=int, default=200_000, help="duplicate pairs")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", dest="json_out", default=None)
    args = parser.parse_args()

    game = LiarsDiceGame(dice=args.dice, sides=args.sides)
    # Ours first, its training tables freed once its average strategy is read: open-spiel's
    # tables grow by about 0.7 GB a minute on two dice of six sides, and both must fit.
    form = factored_form(game, cache=FormCache())
    offset, rows, counters = our_strategy(args.store, form)
    bid_text = [f"{q}-{f}" for q, f in game.rules.bids]
    labels = game.factored_contract().private_states(0)
    dice_text = [label.replace(",", "") for label in labels]

    os_game = pyspiel.load_game(f"liars_dice(numdice={args.dice},dice_sides={args.sides})")
    solver = pyspiel.ExternalSamplingMCCFRSolver(os_game, seed=1, avg_type=pyspiel.MCCFRAverageType.SIMPLE)
    started, iterations = time.perf_counter(), 0
    while time.perf_counter() - started < args.minutes * 60:
        for _ in range(10):
            solver.run_iteration()
        iterations += 10
    trained = time.perf_counter() - started
    print(f"open-spiel ES-MCCFR: {iterations:,} iterations in {trained:,.0f} s", flush=True)
    theirs = Theirs(solver.average_policy(), pyspiel.SpielError)
    ours = Ours(form, offset, rows)

    rng = np.random.default_rng(args.seed)
    deals = rng.choice(len(form.deals.listed.prob), size=args.games, p=form.deals.listed.prob)
    pair = np.empty(args.games)
    t0 = time.perf_counter()
    for g, deal in enumerate(deals):
        seats = [play(form, ours, theirs, int(deal), seat, rng, dice_text, bid_text) for seat in (0, 1)]
        pair[g] = (seats[0] + seats[1]) / 2
    mean, se = float(pair.mean()), float(pair.std(ddof=1) / math.sqrt(len(pair)))
    p = 0.5 * math.erfc(mean / se / math.sqrt(2)) if se > 0 else float(mean <= 0)
    result = {
        "game": game.describe(), "store": args.store, "ours_iterations": counters.iteration,
        "ours_training_seconds": counters.elapsed, "openspiel_iterations": iterations, "openspiel_seconds": trained,
        "pairs": args.games, "mean_payoff_per_game": mean, "standard_error": se, "one_sided_p": p,
        "match_seconds": time.perf_counter() - t0,
    }  # fmt: skip
    print(f"{game.describe()}: gamesolve mccfr-p ({counters.iteration:,} iterations, {counters.elapsed:,.0f} s) vs "
          f"open-spiel ES-MCCFR ({iterations:,} iterations, {trained:,.0f} s)")  # fmt: skip
    print(f"{args.games:,} duplicate pairs: gamesolve {mean:+.4f} ± {se:.4f} per game (payoffs ±1), one-sided p = {p:.2g}")
    if args.json_out:
        with open(args.json_out, "w") as f:
            json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
