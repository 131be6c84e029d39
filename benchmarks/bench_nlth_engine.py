"""Random complete 6-player NLTH hands per second: numba engine vs pokerkit vs open-spiel.

Same random policy everywhere: the action kind is uniform over the legal kinds {fold, check/call,
bet/raise}; a raise-to amount is uniform over the legal sizes (open-spiel fcpa: pot or all-in).
Stacks 10,000, blinds 50/100, 6 players.

* numba: ``engine.play_random_hands`` -- the whole loop (shuffle, deal, play, showdown with
  ``gamesolve_nlth.evaluator``) runs inside one njit kernel with a seeded RNG; the button moves
  each hand.
* numba via the Python contract API (``NLTHState``), for reference: one numba call per action.
* pokerkit 0.7.7: ``NoLimitTexasHoldem.create_state`` with automated dealing and showdown
  (``Mode.TOURNAMENT``), its own shuffle.
* open-spiel ``universal_poker`` (fullgame and fcpa betting abstractions), uniform chance.

Usage::

    python benchmarks/bench_nlth_engine.py [--seconds 10] [--hands 300000] [--seed 1]
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import time

import numpy as np

GAMEDEF = (
    "universal_poker(betting=nolimit,bettingAbstraction={abs},blind=50 100 0 0 0 0,"
    "firstPlayer=3 1 1 1,numBoardCards=0 3 1 1,numHoleCards=2,numPlayers=6,numRanks=13,"
    "numRounds=4,numSuits=4,stack=10000 10000 10000 10000 10000 10000)"
)


def bench_numba(hands: int, seed: int) -> tuple[float, float]:
    from gamesolve_nlth import engine as E

    stacks = np.full(6, 10000, np.int64)
    out = np.zeros((1000, 6), np.int64)
    E.play_random_hands(1000, stacks, 50, 100, seed, 0.0, out)  # compile / load cache
    out = np.zeros((hands, 6), np.int64)
    t = time.perf_counter()
    actions = E.play_random_hands(hands, stacks, 50, 100, seed, 0.0, out)
    dt = time.perf_counter() - t
    assert (out.sum(axis=1) == 0).all()
    return hands / dt, actions / hands


def bench_python_api(seconds: float, seed: int) -> tuple[float, float]:
    from gamesolve_nlth.state import NLTHGame

    rng = random.Random(seed)
    game = NLTHGame(players=6)
    hands = actions = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        deck = rng.sample(range(52), 17)
        st = game.new_initial_state(cards=deck, button=game.button_for_hand(hands))
        while not st.is_terminal():
            kinds = st.legal_action_kinds()
            k = rng.choice(kinds)
            st.apply(("cbr", rng.randint(st.min_raise_to, st.max_raise_to)) if k == "cbr" else k)
            actions += 1
        hands += 1
    dt = time.perf_counter() - t0
    return hands / dt, actions / hands


def bench_pokerkit(seconds: float, seed: int) -> tuple[float, float]:
    import pokerkit as pk

    A = pk.Automation
    automations = (
        A.ANTE_POSTING, A.BET_COLLECTION, A.BLIND_OR_STRADDLE_POSTING, A.CARD_BURNING,
        A.HOLE_DEALING, A.BOARD_DEALING, A.RUNOUT_COUNT_SELECTION, A.HOLE_CARDS_SHOWING_OR_MUCKING,
        A.HAND_KILLING, A.CHIPS_PUSHING, A.CHIPS_PULLING,
    )
    rng = random.Random(seed)
    random.seed(seed)  # pokerkit shuffles with the random module
    hands = actions = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        s = pk.NoLimitTexasHoldem.create_state(automations, True, 0, (50, 100), 100, 10000, 6)
        while s.status:
            kinds = []
            if s.can_fold():
                kinds.append(0)
            if s.can_check_or_call():
                kinds.append(1)
            if s.can_complete_bet_or_raise_to():
                kinds.append(2)
            k = rng.choice(kinds)
            if k == 0:
                s.fold()
            elif k == 1:
                s.check_or_call()
            else:
                lo = s.min_completion_betting_or_raising_to_amount
                hi = s.max_completion_betting_or_raising_to_amount
                s.complete_bet_or_raise_to(rng.randint(lo, hi))
            actions += 1
        hands += 1
    dt = time.perf_counter() - t0
    return hands / dt, actions / hands


def bench_open_spiel(abstraction: str, seconds: float, seed: int) -> tuple[float, float]:
    import pyspiel

    game = pyspiel.load_game(GAMEDEF.format(abs=abstraction))
    rng = random.Random(seed)
    hands = actions = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                s.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            legal = s.legal_actions()
            kinds = [a for a in legal if a < 2]
            raises = [a for a in legal if a >= 2]
            if raises:
                kinds.append(-1)
            a = rng.choice(kinds)
            s.apply_action(rng.choice(raises) if a == -1 else a)
            actions += 1
        hands += 1
    dt = time.perf_counter() - t0
    return hands / dt, actions / hands


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=10.0, help="time budget of each Python-level run")
    ap.add_argument("--hands", type=int, default=300_000, help="hands for the numba kernel")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--skip", default="", help="comma list of: pokerkit,fullgame,fcpa,python")
    args = ap.parse_args()
    skip = set(filter(None, args.skip.split(",")))
    print(f"# {platform.processor() or platform.machine()}, {os.cpu_count()} cpus, loadavg {os.getloadavg()[0]:.2f}")
    rows = []
    rate, apg = bench_numba(args.hands, args.seed)
    rows.append(("numba engine (batch kernel, 1 thread)", rate, apg))
    if "python" not in skip:
        rows.append(("numba engine via NLTHState (Python API)", *bench_python_api(args.seconds, args.seed)))
    if "pokerkit" not in skip:
        rows.append(("pokerkit 0.7.7", *bench_pokerkit(args.seconds, args.seed)))
    for abstraction in ("fullgame", "fcpa"):
        if abstraction not in skip:
            try:
                rows.append((f"open-spiel universal_poker {abstraction}", *bench_open_spiel(abstraction, args.seconds, args.seed)))
            except ImportError:
                print(f"# pyspiel not installed: skipping {abstraction}")
    print(f"# loadavg after {os.getloadavg()[0]:.2f}")
    print(f"{'engine':44s} {'hands/s':>12s} {'actions/hand':>13s} {'numba kernel is x faster':>25s}")
    for name, r, a in rows:
        print(f"{name:44s} {r:12,.0f} {a:13.2f} {rate / r:25,.1f}")


if __name__ == "__main__":
    main()
