"""The sampled multiway showdown of the search agent's multiway subgames, against exact values:
how far the mean payoff over N deals drawn by ``belief_deals`` (gamesolve_nlth/search/multiway.py:
rejection sampling from the product of the range beliefs, card removal included) is from each
seat's exact expected showdown payoff, for 3 to 6 players.

    python benchmarks/multiway_sampled_showdown.py [--players 3 4 5 6] [--hands 14] [--spots 3]
                                                  [--deals 1000 10000 30000 100000] [--seed 0]

Exact: the brute-force oracle (tests/multiway_oracle.py) lists every tuple of hands that share
no card, weighted by the product of the ranges, paid by the scalar showdown
(``contest_value``; ``expected_payoffs``); so ranges are small (``--hands`` random hands off the board per seat,
random weights). Each spot is a random river board with side pots (random stakes) and one
folded seat's dead money. Printed per player count and N: the largest error over seats and
spots in % of the pot, and the same in standard errors of the sample mean (a sampler that is
exact has errors of a few standard errors at most, shrinking as 1/sqrt(N)).

An external-sampling MCCFR iteration draws one deal: after N iterations a showdown's value is
such a mean of N deals (Linear MCCFR weights later deals more, so its error is somewhat larger).
Not a test.
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))  # tests.multiway_oracle

from gamesolve_nlth.search.multiway import belief_deals  # noqa: E402
from gamesolve_nlth.spot.hands import HAND_CARDS, NUM_HANDS  # noqa: E402
from gamesolve_nlth.spot.tree import hand_strengths  # noqa: E402
from tests.multiway_oracle import _showdowns, expected_payoffs  # noqa: E402


def random_spot(rng, players: int, hands: int):
    """A river board, every seat's small random range, stakes with side pots, and a folded
    extra seat (its stake dead money): ``(board, beliefs [players+1, 1326], stake, contender,
    strength [1326])``."""
    board = rng.choice(52, 5, replace=False)
    free = np.flatnonzero(~np.isin(HAND_CARDS, board).any(axis=1))
    beliefs = np.zeros((players + 1, NUM_HANDS))
    for q in range(players):
        beliefs[q, rng.choice(free, hands, replace=False)] = rng.uniform(0.1, 1.0, hands)
    stake = np.append(rng.choice([200.0, 500.0, 900.0], players), 150.0)
    contender = np.append(np.ones(players, bool), False)
    return board, beliefs, stake, contender, hand_strengths(board)


def exact_values(beliefs, stake, contender, strength) -> np.ndarray:
    """Each live seat's exact expected showdown payoff (the brute-force oracle)."""
    return expected_payoffs(beliefs, stake, contender, HAND_CARDS, strength)[: len(stake) - 1]


def sampled_values(board, beliefs, stake, contender, deals: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Each live seat's mean payoff over ``deals`` deals, and its standard error."""
    players = len(stake) - 1
    in_hand = np.append(np.ones(players, bool), False)
    sampler = belief_deals(beliefs, in_hand, tuple(int(c) for c in board), 1)
    batch, _ = sampler.sample(seed, 0, deals)
    strength = batch.strength.astype(np.int32)
    mean, se = np.zeros(players), np.zeros(players)
    for p in range(players):
        pay = np.empty(deals)
        _showdowns(stake[None, :], contender[None, :], p, strength, pay)
        mean[p], se[p] = pay.mean(), pay.std(ddof=1) / np.sqrt(deals)
    return mean, se


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, nargs="+", default=[3, 4, 5, 6])
    parser.add_argument("--hands", type=int, default=14)
    parser.add_argument("--spots", type=int, default=3)
    parser.add_argument("--deals", type=int, nargs="+", default=[1000, 10_000, 30_000, 100_000])
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if min(args.players) < 2 or max(args.players) > 6 or args.hands < 2 or min(args.deals) < 2 or args.spots < 1:
        parser.error("--players 2-6, --hands >= 2, --deals >= 2, --spots >= 1")
    rng = np.random.default_rng(args.seed)
    print("| players | deals | largest error, % of pot | largest error, standard errors |\n|---:|---:|---:|---:|")
    for players in args.players:
        spots = [random_spot(rng, players, args.hands) for _ in range(args.spots)]
        exact = [exact_values(beliefs, stake, contender, strength) for _, beliefs, stake, contender, strength in spots]
        for deals in args.deals:
            pct, z = 0.0, 0.0
            for k, ((board, beliefs, stake, contender, _), truth) in enumerate(zip(spots, exact)):
                mean, se = sampled_values(board, beliefs, stake, contender, deals, args.seed + k)
                pct = max(pct, float(np.max(np.abs(mean - truth)) / stake.sum() * 100))
                z = max(z, float(np.max(np.abs(mean - truth) / se)))
            print(f"| {players} | {deals:,} | {pct:.3f} | {z:.2f} |", flush=True)


if __name__ == "__main__":
    main()
