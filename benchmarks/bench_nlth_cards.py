"""NLTH cards: 7-card evaluator and hand-isomorphism throughput, per core.

    python benchmarks/bench_nlth_cards.py [--hands 1000000] [--seed 12345] [--reps 5] [--exhaustive]

* Evaluator: the same seeded random 7-card hands for gamesolve (numba batch, one thread),
  phevaluator and eval7 (``evaluate(list[Card])``, cards converted before timing); best of
  --reps, with ratios. phevaluator three ways, labelled: its Python binding
  (``_pheval.evaluate_7cards`` called per hand from Python, via ``itertools.starmap``); its C
  function ``evaluate_7cards`` (exported by the same shared library) called per hand from a
  numba loop through ctypes; and the same C function called from a small C harness, written
  and compiled with ``gcc -O2`` at run time into a temporary folder (it loads the library with
  ``dlopen``; nothing compiled is kept). The last two measure the C evaluator itself.
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
        rows.append(("phevaluator: Python binding, per hand (starmap)", ph))
        agree = bool(np.array_equal(values, 7463 - theirs))
        print(f"   agreement: value == 7463 - phevaluator on all {n:,} hands: {agree}")
        c_loop = phevaluator_from_numba(_pheval.__file__)
        c_loop(hands[:10])
        rows.append(("phevaluator: C evaluate_7cards from numba (ctypes)", best_rate(lambda: c_loop(hands), n, reps)))
        agree = bool(np.array_equal(values, 7463 - c_loop(hands)))
        print(f"   agreement (C function from numba): {agree}")
        harness = phevaluator_c_harness(_pheval.__file__, hands, reps)
        if harness is not None:
            rate, total = harness
            rows.append(("phevaluator: C evaluate_7cards from a C loop (gcc -O2)", rate))
            print(f"   agreement (C harness, sum of values): {total == int(theirs.sum())}")
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


def phevaluator_from_numba(library: str):
    """A numba loop calling phevaluator's C ``evaluate_7cards`` per hand through ctypes (the
    compiled loop calls the C function directly: no Python per hand)."""
    import ctypes

    import numba

    lib = ctypes.CDLL(library)
    evaluate = lib.evaluate_7cards
    evaluate.argtypes = [ctypes.c_int] * 7
    evaluate.restype = ctypes.c_int

    @numba.njit(nogil=True)
    def loop(hands):
        out = np.empty(hands.shape[0], dtype=np.int32)
        for i in range(hands.shape[0]):
            h = hands[i]
            out[i] = evaluate(h[0], h[1], h[2], h[3], h[4], h[5], h[6])
        return out

    return loop


C_HARNESS = r"""
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
typedef int (*eval7)(int, int, int, int, int, int, int);
int main(int argc, char **argv) {  /* LIBRARY HANDS_FILE N REPS */
    /* lazily: the binding's calls into libpython are never made, only evaluate_7cards is */
    void *lib = dlopen(argv[1], RTLD_LAZY);
    if (!lib) { fprintf(stderr, "%s\n", dlerror()); return 1; }
    eval7 evaluate = (eval7)dlsym(lib, "evaluate_7cards");
    long n = atol(argv[3]), reps = atol(argv[4]);
    unsigned char *h = malloc(7 * n);
    FILE *f = fopen(argv[2], "rb");
    if (!f || fread(h, 7, n, f) != (size_t)n) return 1;
    double best = 1e30; long long total = 0;
    for (long r = 0; r < reps; r++) {
        struct timespec t0, t1; long long sum = 0;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        for (long i = 0; i < n; i++) {
            const unsigned char *c = h + 7 * i;
            sum += evaluate(c[0], c[1], c[2], c[3], c[4], c[5], c[6]);
        }
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double s = (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec);
        if (s < best) best = s;
        total = sum;
    }
    printf("%.6f %lld\n", best, total);
    return 0;
}
"""


def phevaluator_c_harness(library: str, hands: np.ndarray, reps: int) -> tuple[float, int] | None:
    """(hands per second, sum of the values) of phevaluator's C ``evaluate_7cards`` called in a
    C loop: the harness is compiled with gcc at run time in a temporary folder (None without gcc)."""
    import shutil
    import subprocess
    import tempfile

    if shutil.which("gcc") is None:
        print("   gcc not found: no C harness")
        return None
    with tempfile.TemporaryDirectory() as tmp:
        source, binary, data = os.path.join(tmp, "h.c"), os.path.join(tmp, "h"), os.path.join(tmp, "hands.bin")
        with open(source, "w") as f:
            f.write(C_HARNESS)
        subprocess.run(["gcc", "-O2", "-o", binary, source, "-ldl"], check=True)
        hands.astype(np.uint8).tofile(data)
        out = subprocess.run([binary, library, data, str(len(hands)), str(reps)], capture_output=True, text=True)
        if out.returncode != 0:
            print(f"   C harness failed: {out.stderr.strip()}")
            return None
        seconds, total = out.stdout.split()
    return len(hands) / float(seconds), int(total)


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
