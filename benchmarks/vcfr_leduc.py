"""Vector CFR on a listed-deals game (Leduc), warm: for comparing two versions of the kernels
on the path games without item removal take (issue 36 session 31: changes to the kernel's
argument bundles moved this path's speed by up to 1.8x while the spot's did not move).

    python benchmarks/vcfr_leduc.py                         # this checkout
    PYTHONPATH=TREE:TREE/plugins/leduc python benchmarks/vcfr_leduc.py   # another tree first

Prints the seconds of 2,000 iterations in one call, of 2,000 calls of one iteration, and of
200 best responses, after one untimed iteration (compilation or the cache's load).
"""

from __future__ import annotations

import time

from gamesolve.game.factored_compiler import compile_factored
from gamesolve.solve.vcfr import VectorCFR
from gamesolve_leduc import LeducGame


def main() -> None:
    form = compile_factored(LeducGame())
    solver = VectorCFR(form)
    solver.run(1)
    started = time.perf_counter()
    solver.run(2000)
    batch = time.perf_counter() - started
    single = VectorCFR(form)
    started = time.perf_counter()
    for _ in range(2000):
        single.run(1)
    calls = time.perf_counter() - started
    started = time.perf_counter()
    for _ in range(200):
        solver.exploitability()
    checks = time.perf_counter() - started
    print(f"run(2000) {batch:.3f} s; 2000 x run(1) {calls:.3f} s; 200 x exploitability {checks:.3f} s")


if __name__ == "__main__":
    main()
