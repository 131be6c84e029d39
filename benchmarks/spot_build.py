"""Building a flop spot's tree (``build_spot``) with the river hand strengths computed by the
compiled ``made_hand_values`` (now) against a Python loop over the 1,326 hands calling
``evaluate7`` (before), alternating, in one process.

    python benchmarks/spot_build.py --rounds 2
"""

from __future__ import annotations

import argparse
import json
import time


def python_strengths(board):
    """The former ``hand_strengths``: one ``evaluate7`` call per hand from Python."""
    import numpy as np

    from gamesolve_nlth.evaluator import evaluate7
    from gamesolve_nlth.spot.hands import HAND_CARDS, NUM_HANDS

    out = np.full(NUM_HANDS, -1, dtype=np.int32)
    b = [int(c) for c in board]
    for h, (x, y) in enumerate(HAND_CARDS):
        if x in b or y in b:
            continue
        out[h] = evaluate7(int(x), int(y), *b)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()

    import numpy as np

    from gamesolve_nlth.cards import parse_cards
    from gamesolve_nlth.spot import tree
    from gamesolve_nlth.spot.tree import ALLIN, Spot, StreetSizes

    shove = StreetSizes(bets=(ALLIN,), raises=(ALLIN,))
    spot = Spot(tuple(parse_cards("QsJh2h")), 1000, 2000, shove, shove, shove, 0.67, 0, 100)
    compiled = tree.hand_strengths
    assert np.array_equal(compiled(spot.board + (0, 1)), python_strengths(spot.board + (0, 1)))
    tree.build_spot(spot)  # compilation and caches
    rows = []
    for r in range(args.rounds):
        for name, impl in (("python loop (before)", python_strengths), ("compiled (now)", compiled)):
            tree.hand_strengths = impl
            t, c = time.perf_counter(), time.process_time()
            form = tree.build_spot(spot)
            rows.append({"round": r + 1, "strengths": name, "nodes": int(form.num_nodes), "seconds": round(time.perf_counter() - t, 2),
                         "cpu_seconds": round(time.process_time() - c, 2)})  # fmt: skip
            print(json.dumps(rows[-1]), flush=True)
    tree.hand_strengths = compiled


if __name__ == "__main__":
    main()
