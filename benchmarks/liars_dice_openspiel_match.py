"""Liar's Dice head to head: a gamesolve mccfr-p store against open-spiel's C++ ES-MCCFR trained
for the same wall time, in duplicate games (each deal played twice, seats swapped).

    python benchmarks/liars_dice_openspiel_match.py --store ld26 --minutes 30 [--dice 2 --sides 6]
                                                    [--games 200000] [--seed 7]

One after the other, the same wall time (open-spiel's solver has one thread; ours runs on the
machine's two in issue 32's line):

    gamesolve solve --game liars_dice -p dice=2 --algo mccfr-p --minutes 30 --threads 2 --out ld26 --json > ld26.json
    python benchmarks/liars_dice_openspiel_match.py --store ld26 --minutes 30 2>/dev/null

The store is a ``gamesolve solve --game liars_dice -p dice=D -p sides=S --algo mccfr-p --out
STORE`` run; its blueprint (the average strategy written at the run's end, uint16 as every
blueprint agent reads it, e.g. ``gamesolve match --agents policy:store=STORE``) plays for
gamesolve. Its arrays are saved to scratch files and mapped back, so they live in the file
cache: open-spiel's tables grow by about 0.7 GB a minute (two dice of six sides) and take what
memory there is; its training stops early, and says so, if less than 1.5 GB is left. Open-spiel's
``ExternalSamplingMCCFRSolver`` (SIMPLE average) is trained here for ``--minutes`` of wall time,
then its average policy plays, read infoset by infoset through ``get_state_policy`` (uniform
where its tables have no entry, as ours are uniform where no row was allocated). Both sample their actions from a seeded generator. Prints the mean payoff to
gamesolve per game with its standard error over duplicate pairs and the one-sided p-value of
"gamesolve wins", plus both solvers' iteration counts.
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import os
import tempfile
import time

import numpy as np
import psutil
from gamesolve_liars_dice.game import LiarsDiceGame

from gamesolve.game.compile import factored_form
from gamesolve.store.form_cache import FormCache
from gamesolve.store.strategy_store import StrategyStore

PLAY_ARRAYS = ("node_kind", "node_player", "child_start", "child_list", "edge_label", "term_row", "payoff")
RESERVE = 1.5e9
"""Open-spiel's training stops early when the machine's available memory falls below this
(its tables have no bound; the time it trained is reported)."""


def page_backed(arrays: dict[str, np.ndarray], folder: str) -> dict[str, np.ndarray]:
    """``arrays`` saved to ``folder`` and mapped back read-only: their pages belong to the file
    cache, which the kernel drops under pressure, so open-spiel's tables get the memory."""
    mapped = {}
    for name, values in arrays.items():
        path = os.path.join(folder, f"{name}.npy")
        np.save(path, values)
        mapped[name] = np.load(path, mmap_mode="r")
    return mapped


class Tree:
    """What playing needs of the factored form: the public tree and the terminal values
    (page-backed arrays), the payoff table and the listed deals."""

    def __init__(self, form, folder: str):
        for name, values in page_backed({n: getattr(form, n) for n in PLAY_ARRAYS}, folder).items():
            setattr(self, name, values)
        self.table = np.array(form.table)
        self.private = np.array(form.deals.listed.private[:, :, 0])
        self.prob = np.array(form.deals.listed.prob)

    def children(self, node: int) -> np.ndarray:
        return self.child_list[self.child_start[node] : self.child_start[node + 1]]

    def labels(self, node: int) -> np.ndarray:
        return self.edge_label[self.child_start[node] : self.child_start[node + 1]]


class Ours:
    """The store's blueprint (what ``gamesolve match --agents policy:store=STORE`` plays): the
    average strategy as written at the run's end, read chunk by chunk; its tree arrays
    page-backed."""

    def __init__(self, store: str, num_nodes: int, folder: str):
        self.blueprint = StrategyStore(os.path.join(store, "blueprint"))
        if len(self.blueprint.node_kind) != num_nodes:
            raise SystemExit(f"{store} was trained on another form of this game")
        names = ("child_start", "node_offset", "row_owner")
        for name, values in page_backed({n: getattr(self.blueprint, n) for n in names}, folder).items():
            setattr(self.blueprint, name, values)
        for name in ("node_kind", "node_player", "node_round", "child_list", "edge_label", "edge_class", "infoset_start"):
            setattr(self.blueprint, name, None)  # (not read by probabilities)
        self.iterations = int(self.blueprint.attrs.get("iterations", 0))
        self.seconds = float(self.blueprint.attrs.get("seconds", 0.0))

    def probs(self, node: int, private: int, legal: np.ndarray) -> np.ndarray:
        return self.blueprint.probabilities(node, private)


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


def play(form: Tree, ours: Ours, theirs: Theirs, deal: int, our_seat: int, rng: np.random.Generator, dice_text: list[str],
         bid_text: list[str]) -> float:  # fmt: skip
    """One game from listed deal ``deal``; gamesolve in ``our_seat``; its payoff. Open-spiel's
    infoset strings: the player's dice without separator, then the bids as ``q-f``."""
    private = form.private[deal]
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
    parser.add_argument("--scratch", default=None, help="folder for the page-backed arrays (default: the system's)")
    args = parser.parse_args()

    game = LiarsDiceGame(dice=args.dice, sides=args.sides)
    scratch = tempfile.TemporaryDirectory(prefix="ld-match-", dir=args.scratch)
    # Ours first, into page-backed arrays, the form then let go: open-spiel's tables grow by
    # about 0.7 GB a minute on two dice of six sides and get the memory.
    form = factored_form(game, cache=FormCache())
    tree = Tree(form, scratch.name)
    ours = Ours(args.store, form.num_nodes, scratch.name)
    del form
    gc.collect()
    bid_text = [f"{q}-{f}" for q, f in game.rules.bids]
    labels = game.factored_contract().private_states(0)
    dice_text = [label.replace(",", "") for label in labels]

    os_game = pyspiel.load_game(f"liars_dice(numdice={args.dice},dice_sides={args.sides})")
    solver = pyspiel.ExternalSamplingMCCFRSolver(os_game, seed=1, avg_type=pyspiel.MCCFRAverageType.SIMPLE)
    started, iterations, stopped_early = time.perf_counter(), 0, False
    while time.perf_counter() - started < args.minutes * 60:
        for _ in range(10):
            solver.run_iteration()
        iterations += 10
        if iterations % 1000 == 0 and psutil.virtual_memory().available < RESERVE:
            stopped_early = True  # (the time it trained is what is reported)
            break
    trained = time.perf_counter() - started
    rss = psutil.Process().memory_info().rss
    print(f"open-spiel ES-MCCFR: {iterations:,} iterations in {trained:,.0f} s, {rss / 1e9:.1f} GB"
          + (" (stopped early: memory)" if stopped_early else ""), flush=True)  # fmt: skip
    theirs = Theirs(solver.average_policy(), pyspiel.SpielError)

    rng = np.random.default_rng(args.seed)
    deals = rng.choice(len(tree.prob), size=args.games, p=tree.prob)
    pair = np.empty(args.games)
    t0 = time.perf_counter()
    for g, deal in enumerate(deals):
        seats = [play(tree, ours, theirs, int(deal), seat, rng, dice_text, bid_text) for seat in (0, 1)]
        pair[g] = (seats[0] + seats[1]) / 2
    mean, se = float(pair.mean()), float(pair.std(ddof=1) / math.sqrt(len(pair)))
    p = 0.5 * math.erfc(mean / se / math.sqrt(2)) if se > 0 else float(mean <= 0)
    result = {
        "game": game.describe(), "store": args.store, "ours_iterations": ours.iterations,
        "ours_training_seconds": ours.seconds, "openspiel_iterations": iterations, "openspiel_seconds": trained,
        "openspiel_stopped_early": stopped_early, "openspiel_rss_bytes": rss,
        "pairs": args.games, "mean_payoff_per_game": mean, "standard_error": se, "one_sided_p": p,
        "match_seconds": time.perf_counter() - t0,
    }  # fmt: skip
    print(f"{game.describe()}: gamesolve mccfr-p ({ours.iterations:,} iterations, {ours.seconds:,.0f} s) vs "
          f"open-spiel ES-MCCFR ({iterations:,} iterations, {trained:,.0f} s)")  # fmt: skip
    print(f"{args.games:,} duplicate pairs: gamesolve {mean:+.4f} ± {se:.4f} per game (payoffs ±1), one-sided p = {p:.2g}")
    if args.json_out:
        with open(args.json_out, "w") as f:
            json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
