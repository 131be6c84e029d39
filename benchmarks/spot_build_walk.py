"""Building the benchmark spots' trees (benchmarks/spot_speed.py's spots, ``build_spot``) in
processor seconds, one line per street, for a side-by-side run of two trees:

    PYTHONPATH=BEFORE/plugins/nlth:BEFORE python benchmarks/spot_build_walk.py turn flop
    python benchmarks/spot_build_walk.py turn flop
"""

import sys, time
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent))
from spot_speed import issue_spot
from gamesolve_nlth.spot.tree import build_spot
import gamesolve_nlth.spot.tree as T
for street in sys.argv[1:]:
    spot, oop, ip = issue_spot(street)
    build_spot(issue_spot("river")[0])  # compile
    t = time.process_time(); f = build_spot(spot); dt = time.process_time() - t
    print(T.__file__.split("/plugins/")[0], street, f.num_nodes, f"{dt:.2f} cpu s", flush=True)
