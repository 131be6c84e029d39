"""What a spot without mirror-image cards still compiles after one with them (issue 36): a
monotone turn (Kh9h5h2h: clubs, diamonds and spades alike, so several suit permutations) with
the ranges of benchmarks/spot_speed.py, built with the suit symmetry and solved 2 iterations
(float32, one thread), then built without it and solved likewise, in one process and a fresh
numba cache. Prints both first-use times and the compilations of each.

    python benchmarks/vcfr_layouts.py            # this checkout
    PYTHONPATH=OTHER:OTHER/plugins/nlth python benchmarks/vcfr_layouts.py   # another tree
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="vcfr-layouts-")  # before numba is imported

import numpy as np  # noqa: E402
from numba.core import event  # noqa: E402

from gamesolve.solve.vcfr import VectorCFR  # noqa: E402
from gamesolve_nlth.cards import parse_cards  # noqa: E402
from gamesolve_nlth.spot.hands import parse_range  # noqa: E402
from gamesolve_nlth.spot.tree import Spot, build_spot, spot_ranges  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))
from spot_speed import IP_RANGE, OOP_RANGE  # noqa: E402


class _Count(event.Listener):
    def __init__(self):
        self.names = []

    def on_start(self, ev):
        pass

    def on_end(self, ev):
        self.names.append(ev.data["dispatcher"].py_func.__qualname__)


def main() -> None:
    spot = Spot(tuple(parse_cards("Kh9h5h2h")), 1000, 9000, raise_cap=1)
    reach = spot_ranges(spot, parse_range(OOP_RANGE), parse_range(IP_RANGE))
    out = {}
    for symmetric in (True, False):
        count = _Count()
        event.register("numba:compile", count)
        started = time.perf_counter()
        solver = VectorCFR(build_spot(spot, symmetric=symmetric), root_reach=reach, dtype=np.float32, threads=1)
        solver.run(2)
        out["symmetric" if symmetric else "plain"] = {
            "seconds": round(time.perf_counter() - started, 1),
            "compilations": len(count.names),
            "vcfr_kernels": sorted({n for n in count.names if n in ("run", "one_pass", "traverse")}),
        }
        event.unregister("numba:compile", count)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
