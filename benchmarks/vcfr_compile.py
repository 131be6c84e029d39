"""First-use cost of the vector CFR kernels: a turn spot (float32, 2 threads, as `gamesolve
spot`) and the same spot in float64 on one thread (as search and the exact tests), each
built, run 2 iterations and scored by best response, in a fresh numba cache, so nearly all
of the time is compilation.

    python benchmarks/vcfr_compile.py            # this checkout
    git worktree add /tmp/old COMMIT && PYTHONPATH=/tmp/old:/tmp/old/plugins/nlth python benchmarks/vcfr_compile.py

Run the two back to back on a quiet machine: the figures are seconds of one process.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="vcfr-compile-")  # before numba is imported

import numpy as np  # noqa: E402

from gamesolve.solve.vcfr import VectorCFR  # noqa: E402
from gamesolve_nlth.cards import parse_cards  # noqa: E402
from gamesolve_nlth.spot.hands import parse_range  # noqa: E402
from gamesolve_nlth.spot.tree import Spot, build_spot, spot_ranges  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))
from spot_speed import IP_RANGE, OOP_RANGE  # noqa: E402


def main() -> None:
    out = {}
    for dtype, threads in ((np.float32, 2), (np.float64, 1)):
        started = time.perf_counter()
        spot = Spot(tuple(parse_cards("QsJh2h8d")), 1000, 9000, raise_cap=1)
        solver = VectorCFR(build_spot(spot), root_reach=spot_ranges(spot, parse_range(OOP_RANGE), parse_range(IP_RANGE)),
                           dtype=dtype, threads=threads)  # fmt: skip
        solver.run(2)
        solver.exploitability()
        out[np.dtype(dtype).name] = round(time.perf_counter() - started, 1)
    print(json.dumps({"first_use_seconds": out}))


if __name__ == "__main__":
    main()
