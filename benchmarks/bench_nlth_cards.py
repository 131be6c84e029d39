"""NLTH cards: 7-card evaluator and hand-isomorphism throughput, per core.

    python benchmarks/bench_nlth_cards.py [--hands 1000000] [--seed 12345] [--reps 5] [--exhaustive]

* Evaluator: the same seeded random 7-card hands for gamesolve (numba batch, one thread),
  phevaluator's C function ``_pheval.evaluate_7cards`` (via ``itertools.starmap``) and eval7
  (``evaluate(list[Card])``, cards converted before timing); best of --reps, with ratios.
* Isomorphism: ``HandIndexer.index_batch`` and ``unindex_batch`` per round, for the board by
  street (2,3,1,1) and the board as one set (2,5), one thread.
* --exhaustive: all 133,784,560 seven-card hands; category counts and distinct values checked
  against the published figures.

JIT compilation is excluded (each kernel runs once on a few rows first). Not a test.
"""

from __future__ import annotations

import argparse
import itertools
import os
import platform
import time

import numpy as np

from gamesolve_nlth import evaluator as ev
from gamesolve_nlth.cards import card_str
from gamesolve_nlth.isomorphism import HandIndexer

PUBLISHED_CATEGORIES = [23294460, 58627800, 31433400, 6461620, 6180020, 4047644, 3473184, 224848, 41584]


def best_rate(fn, n: int, reps: int) -> float:
    best = float("inf")
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return n / best


def fmt(rate: float) -> str:
    return f"{rate / 1e6:8.2f} M/s"


def bench_evaluator(hands: np.ndarray, reps: int) -> None:
    n = len(hands)
    print(f"## 7-card evaluation, {n:,} random hands, best of {reps} (one thread unless noted)")
    ev.evaluate_batch(hands[:10])
    ours = best_rate(lambda: ev.evaluate_batch(hands), n, reps)
    ev.evaluate_batch_parallel(hands[:10])
    ours_par = best_rate(lambda: ev.evaluate_batch_parallel(hands), n, reps)
    rows = [("gamesolve evaluate_batch (numba)", ours)]
    values = ev.evaluate_batch(hands)
    try:
        from phevaluator import _pheval

        ids = hands.astype(np.int64).tolist()
        ph_reps = max(1, reps // 2)
        ph = best_rate(lambda: list(itertools.starmap(_pheval.evaluate_7cards, ids)), n, ph_reps)
        theirs = np.array(list(itertools.starmap(_pheval.evaluate_7cards, ids)))
        rows.append(("phevaluator _pheval.evaluate_7cards (C, starmap)", ph))
        agree = bool(np.array_equal(values, 7463 - theirs))
        print(f"   agreement: value == 7463 - phevaluator on all {n:,} hands: {agree}")
    except ImportError:
        print("   phevaluator not installed")
    try:
        import eval7

        deck = [eval7.Card(card_str(c)) for c in range(52)]
        lists = [[deck[c] for c in row] for row in hands.tolist()]
        e7 = best_rate(lambda: [eval7.evaluate(h) for h in lists], n, max(1, reps // 2))
        rows.append(("eval7 evaluate(list[Card]) (Cython)", e7))
    except ImportError:
        print("   eval7 not installed")
    for name, rate in rows:
        print(f"   {name:<52} {fmt(rate)}   gamesolve / this = {ours / rate:7.1f}x")
    print(f"   {'gamesolve evaluate_batch_parallel (prange, all threads)':<52} {fmt(ours_par)}")


def bench_isomorphism(hands: np.ndarray, reps: int) -> None:
    n = len(hands)
    print(f"## hand isomorphism, {n:,} random deals, best of {reps}, one thread")
    for rounds in ((2, 3, 1, 1), (2, 5)):
        ix = HandIndexer(rounds)
        for r in range(ix.num_rounds):
            deal = np.ascontiguousarray(hands[:, : ix.cards_in(r)])
            ix.index_batch(deal[:10], r)
            rate = best_rate(lambda: ix.index_batch(deal, r), n, reps)
            idx = ix.index_batch(deal, r)
            ix.unindex_batch(idx[:10], r)
            un = best_rate(lambda: ix.unindex_batch(idx, r), n, max(1, reps // 2))
            ok = bool(np.array_equal(ix.index_batch(ix.unindex_batch(idx, r), r), idx))
            print(
                f"   {str(rounds):<14} round {r} size {ix.size(r):>13,}: index {fmt(rate)}   "
                f"unindex {fmt(un)}   round trip ok: {ok}"
            )


def bench_exhaustive() -> None:
    print("## all 133,784,560 seven-card hands")
    ev.seven_card_census()  # compile / load
    t0 = time.perf_counter()
    categories, counts = ev.seven_card_census()
    dt = time.perf_counter() - t0
    distinct = int(np.count_nonzero(counts))
    total = int(categories.sum())
    print(f"   {total:,} hands in {dt:.2f} s ({total / dt / 1e6:.0f} M/s, nested loops)")
    for name, got, want in zip(ev.CATEGORY_NAMES, categories.tolist(), PUBLISHED_CATEGORIES):
        print(f"   {name:<16} {got:>12,}  {'ok' if got == want else f'MISMATCH (published {want:,})'}")
    print(f"   distinct values: {distinct:,}  {'ok' if distinct == 4824 else 'MISMATCH (expected 4,824)'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=12345)
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--exhaustive", action="store_true")
    args = parser.parse_args()
    cpu = platform.processor() or platform.machine()
    print(f"# {cpu}, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f}")
    hands = ev.deal_random_hands(args.hands, 7, args.seed)
    bench_evaluator(hands, args.reps)
    bench_isomorphism(hands, args.reps)
    if args.exhaustive:
        bench_exhaustive()


if __name__ == "__main__":
    main()
