"""Compiling Liar's Dice from its factored contract: public nodes, seconds and peak memory,
each setting in a fresh process (so the peak is its own), the form cache off.

    python benchmarks/factored_compile.py                       # 1x6, 2x4, 2x6
    python benchmarks/factored_compile.py --settings 2x4 2x5

For comparison, the generic compiler (the State contract walked history by history) refuses
2x4 and 2x6 ("33,554,261 histories, more than 20,000,000"); on 1x6 both take about 2 s.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time


def one(dice: int, sides: int) -> dict:
    from gamesolve_liars_dice.game import LiarsDiceGame

    from gamesolve.game.contract_compiler import compile_contract

    game = LiarsDiceGame(dice=dice, sides=sides)
    compile_contract(LiarsDiceGame(dice=1, sides=2).factored_contract(), game.name, {})  # the numba kernel's first use
    started = time.perf_counter()
    form = compile_contract(game.factored_contract(), game.name, game.params)
    seconds = time.perf_counter() - started
    return {"setting": f"{dice}x{sides}", "public_nodes": form.num_nodes, "deals": len(form.deals.listed.prob),
            "private_states": int(form.num_private[0]), "seconds": seconds,
            "peak_gb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--settings", nargs="*", default=["1x6", "2x4", "2x6"], help="DICExSIDES")
    parser.add_argument("--one", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        dice, sides = map(int, args.one.split("x"))
        print(json.dumps(one(dice, sides)))
        return
    print("| Liar's Dice | public nodes | deals | private states a player | compile s | peak GB |")
    print("|---|---:|---:|---:|---:|---:|")
    for setting in args.settings:
        env = {**os.environ, "GAMESOLVE_FORM_CACHE": "off"}
        out = subprocess.run([sys.executable, __file__, "--one", setting], capture_output=True, text=True, env=env, check=True)
        r = json.loads(out.stdout.strip().splitlines()[-1])
        print(f"| {r['setting']} | {r['public_nodes']:,} | {r['deals']:,} | {r['private_states']} | {r['seconds']:.1f} | {r['peak_gb']:.2f} |", flush=True)


if __name__ == "__main__":
    main()
