"""Three-player terminal values with card removal (gamesolve/game/removal_multi.py): cost per
terminal at 1,326 hands, error against brute force, and vector CFR on a 3-player river spot.

    python benchmarks/multiway_showdown.py [--reps 20] [--spots 6] [--seed 0] [--iterations 20]
                                           [--checkpoints 30 100 300]

* Cost: one player's values at one river terminal (``three_player_cfv``), every hand off the
  board in every range with random weights, for a fold (FIXED), a 3-way pot, side pots and a
  showdown after a fold; side by side with the two-player O(n) showdown (``contest_cfv``) on
  the same board, and the brute-force oracle (tests/multiway_oracle.py) on 40-hand ranges.
  Median of --reps calls, one thread, compilation excluded. Times are CPU seconds of this
  process (time.process_time), steadier than wall time on a shared machine.
* Error: the largest relative difference from the brute force on --spots random river spots
  (40-hand ranges, six terminal kinds, every player); at full ranges, where brute force is out
  of reach (1.8e9 hand triples), two exact identities: the joint mass of uniform ranges is
  C(45,2) x C(43,2) = 893,970 for every hand, and the players' values sum to zero.
* Solver: seconds per iteration of vector DCFR (one thread) on river spots of two and three
  players with the docs' sizes (bets 50%/100%/all-in, raises 100%/all-in, three raises),
  every hand in every range, and the NashConv (sum of the vector best responses) of the
  average strategy at --checkpoints iterations.

Not a test.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))  # tests.multiway_oracle

from gamesolve.game.factored import CONTEST, FIXED, TerminalArrays  # noqa: E402
from gamesolve.game.removal import contest_cfv, item_removal  # noqa: E402
from gamesolve.game.removal_multi import three_player_cfv  # noqa: E402
from gamesolve.solve.cfr import TABULAR_ALGORITHMS  # noqa: E402
from gamesolve.solve.vcfr import VectorCFR  # noqa: E402
from gamesolve_nlth.cards import parse_cards  # noqa: E402
from gamesolve_nlth.spot.hands import HAND_CARDS, NUM_HANDS  # noqa: E402
from gamesolve_nlth.spot.tree import Spot, build_spot, hand_strengths, spot_ranges  # noqa: E402
from tests.multiway_oracle import brute_force_cfv  # noqa: E402

TERMINALS = {
    "fold (FIXED)": (FIXED, [-300.0, 1200.0, -900.0], [False, True, False]),
    "3-way pot": (CONTEST, [500.0, 500.0, 500.0], [True, True, True]),
    "side pot": (CONTEST, [200.0, 900.0, 900.0], [True, True, True]),
    "two side pots": (CONTEST, [900.0, 450.0, 200.0], [True, True, True]),
    "after a fold": (CONTEST, [300.0, 900.0, 900.0], [False, True, True]),
}


def river(board):
    strength = hand_strengths(board)
    return item_removal(HAND_CARDS, 52, np.zeros(1, np.int32), strength[None, :], np.ones(1)), strength


def terminal(kind, payoff, contender):
    return TerminalArrays(
        np.array([kind], np.int8), np.array([payoff], np.float64), np.array([contender], np.bool_),
        np.full(1, -1, np.int32), np.zeros((0, 0, 3)),
    )  # fmt: skip


def off_board(board):
    return np.array([x not in board and y not in board for x, y in HAND_CARDS])


def median_seconds(fn, reps):
    fn()  # compile
    times = []
    for _ in range(reps):
        t0 = time.process_time()
        fn()
        times.append(time.process_time() - t0)
    return float(np.median(times))


def cost(args, rng):
    board = tuple(parse_cards("QsJh2h8d3c"))
    rm, strength = river(board)
    reach = rng.uniform(0.1, 1.0, (3, NUM_HANDS)) * off_board(board)
    out = np.zeros(NUM_HANDS)
    print(f"Cost per terminal, one player's values, {int(off_board(board).sum())} hands in every range (median of {args.reps}):")
    for name, spec in TERMINALS.items():
        term = terminal(*spec)
        ms = 1e3 * median_seconds(lambda term=term: three_player_cfv(term, rm, 0, 0, reach, out), args.reps)
        print(f"  3 players, {name:14s} {ms:8.3f} ms")
    sums, at, val = np.empty(53), np.empty(NUM_HANDS + 1, np.int64), np.empty(NUM_HANDS)
    two = 1e3 * median_seconds(
        lambda: contest_cfv(reach[1], rm.path_order[0], rm.path_groups[0], rm.path_bounds[0], rm.path_items[0], 52, 500.0, -500.0, out, sums, at, val),
        args.reps,
    )  # fmt: skip
    print(f"  2 players, showdown (contest_cfv, the heads-up peer) {two:8.3f} ms")
    small = np.stack([subset(rng, board, 40) for _ in range(3)])
    term = terminal(*TERMINALS["3-way pot"])
    states = np.flatnonzero(small[0])
    t0 = time.process_time()
    brute_force_cfv(CONTEST, term.payoff[0], term.contender[0], 0, small, HAND_CARDS, strength, states)
    brute = time.process_time() - t0
    fast = median_seconds(lambda: three_player_cfv(term, rm, 0, 0, small, out), args.reps)
    print(f"  40-hand ranges, 3-way pot: brute force {1e3 * brute:.0f} ms for 40 hands, removal_multi {1e3 * fast:.3f} ms for all 1,326 ({brute / fast:,.0f}x)")


def subset(rng, board, hands):
    out = np.zeros(NUM_HANDS)
    pool = np.flatnonzero(off_board(board))
    out[rng.choice(pool, hands, replace=False)] = rng.uniform(0.1, 1.0, hands)
    return out


def error(args, rng):
    worst = 0.0
    for _ in range(args.spots):
        board = tuple(int(c) for c in rng.choice(52, 5, replace=False))
        rm, strength = river(board)
        reach = np.stack([subset(rng, board, 40) for _ in range(3)])
        for spec in TERMINALS.values():
            term = terminal(*spec)
            for p in range(3):
                out = np.zeros(NUM_HANDS)
                three_player_cfv(term, rm, 0, p, reach, out)
                states = np.flatnonzero(reach[p])
                expected = brute_force_cfv(term.kind[0], term.payoff[0], term.contender[0], p, reach, HAND_CARDS, strength, states)
                scale = np.abs(expected).max()
                worst = max(worst, float(np.abs(out[states] - expected).max() / scale))
    print(f"Largest error against brute force, {args.spots} random river spots x {len(TERMINALS)} terminals x 3 players (40-hand ranges): {worst:.1e} of the largest value")
    board = tuple(parse_cards("QsJh2h8d3c"))
    rm, _ = river(board)
    clear = off_board(board)
    uniform = np.stack([clear.astype(float)] * 3)
    mass = np.zeros(NUM_HANDS)
    three_player_cfv(terminal(FIXED, [1.0, 1.0, 1.0], [True] * 3), rm, 0, 0, uniform, mass)
    print(f"Full uniform ranges: joint mass vs 893,970 for every hand off the board: largest error {np.abs(mass[clear] - 893970).max():.1e}")
    reach = rng.uniform(0.1, 1.0, (3, NUM_HANDS)) * clear
    for name, spec in TERMINALS.items():
        if spec[0] == FIXED:
            continue
        term = terminal(*spec)
        totals = []
        for p in range(3):
            out = np.zeros(NUM_HANDS)
            three_player_cfv(term, rm, 0, p, reach, out)
            totals.append(float(reach[p] @ out))
        print(f"  full random ranges, {name}: players' values sum to {sum(totals):.1e} (largest value {max(map(abs, totals)):.1e})")


def solver(args):
    from gamesolve_nlth.spot.tree import ALLIN, StreetSizes

    sizes = StreetSizes(bets=(0.5, 1.0, ALLIN), raises=(1.0, ALLIN))
    print(f"Vector DCFR on a river spot (QsJh2h8d3c, 9000 behind, bets 50%/100%/all-in, raises 100%/all-in), every hand, one thread, {args.iterations} iterations:")
    for players, pot in ((2, 1000), (3, 999)):
        spot = Spot(tuple(parse_cards("QsJh2h8d3c")), pot, 9000, sizes, sizes, sizes, players=players)
        form = build_spot(spot)
        reach = spot_ranges(spot, *([np.ones(NUM_HANDS)] * players))
        vcfr = VectorCFR(form, TABULAR_ALGORITHMS["dcfr"], root_reach=reach)
        vcfr.run(1)  # compile
        vcfr.exploitability()
        t0 = time.process_time()
        vcfr.run(args.iterations)
        seconds = (time.process_time() - t0) / args.iterations
        terminals = int((form.term_kind >= 0).sum())
        t0 = time.process_time()
        vcfr.exploitability()
        br = time.process_time() - t0
        print(f"  {players} players: {form.num_nodes} nodes, {terminals} terminals: {seconds:.3f} s per iteration "
              f"({1e3 * seconds / (players * terminals):.2f} ms per terminal and player); best responses {br:.2f} s")  # fmt: skip
        line = []
        for target in args.checkpoints:
            if target > vcfr.iterations:
                vcfr.run(target - vcfr.iterations)
            nash_conv = sum(vcfr.exploitability()[1])
            line.append(f"{vcfr.iterations}: {100 * nash_conv / pot:.3f}%")
        print("    NashConv in % of the pot after " + ", ".join(line))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--spots", type=int, default=6)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--iterations", type=int, default=20)
    ap.add_argument("--checkpoints", type=int, nargs="+", default=[30, 100, 300])
    args = ap.parse_args()
    import numba

    numba.set_num_threads(1)
    print(f"{platform.processor() or platform.machine()}, Python {platform.python_version()}, numba {numba.__version__}, load {os.getloadavg()[0]:.1f}")
    rng = np.random.default_rng(args.seed)
    cost(args, rng)
    error(args, rng)
    solver(args)


if __name__ == "__main__":
    main()
