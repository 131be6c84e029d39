"""Where numba's compile time went: the logs benchmarks/compile_log/sitecustomize.py writes,
summed by kernel and by module (a kernel family), in seconds (wall, or ``--cpu``: processor).

    GAMESOLVE_COMPILE_LOG=/tmp/log PYTHONPATH=benchmarks/compile_log python -m pytest -n 2
    python benchmarks/compile_report.py /tmp/log [--top 30]

Each compilation's exclusive seconds (without the callees it compiled while typing) are
charged to its owner: the kernel itself, or for numba's own overloads (``np.empty``, ``sum``...)
the nearest kernel of ours that needed them. A kernel compiled again in another process (no
shared cache yet, or a signature the cache does not hold) counts every time: that is what
the processes paid. ``specialisations`` counts distinct argument types.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from collections import defaultdict
from pathlib import Path


def logged(path: Path):
    """The JSON lines of one log, but a line cut short by a killed process."""
    for line in path.read_text().splitlines():
        try:
            yield json.loads(line)
        except json.JSONDecodeError:
            continue


def records(folder: Path):
    """Every compilation, with its owner (also for logs written before owners were logged:
    a callee's line comes before its caller's, which has a smaller depth)."""
    for path in sorted(folder.rglob("*.jsonl")):
        pending = []
        for r in logged(path):
            r.setdefault("function", f"{r.get('module')}.{r.get('name')}")
            if "owner" not in r:
                if r["function"].startswith("numba."):
                    pending.append(r)
                    continue
                r["owner"] = r["function"]
                for p in [p for p in pending if p.get("depth", 0) > r.get("depth", 0)]:
                    p["owner"] = r["function"]
                    pending.remove(p)
                    yield p
            yield r
        for p in pending:
            p["owner"] = "(numba internals, caller unknown)"
            yield p


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--cpu", action="store_true",
                        help="Processor seconds of the compiling thread (wall seconds where a log has none).")
    opts = parser.parse_args()
    by_owner = defaultdict(float)
    count = defaultdict(int)
    signatures = defaultdict(set)
    by_module = defaultdict(float)
    processes = set()
    total = 0.0
    for r in records(opts.folder):
        owner = r["owner"]
        seconds = r.get("cpu_exclusive", r["exclusive"]) if opts.cpu else r["exclusive"]
        by_owner[owner] += seconds
        by_module[owner.split(".<locals>")[0].rsplit(".", 1)[0]] += seconds
        if r["function"] == owner:
            count[owner] += 1
            signatures[owner].add(r["args"])
        processes.add(r.get("pid"))
        total += seconds
    kind = "processor" if opts.cpu else "wall"
    print(f"{total:.0f} {kind} seconds of compilation in {len(processes)} processes\n")
    print("| kernel | seconds | share | compilations | specialisations |\n|---|---:|---:|---:|---:|")
    for owner, s in sorted(by_owner.items(), key=lambda kv: -kv[1])[: opts.top]:
        print(f"| `{owner}` | {s:.1f} | {s / total:.1%} | {count[owner]} | {len(signatures[owner])} |")
    print("\n| module | seconds | share |\n|---|---:|---:|")
    for module, s in sorted(by_module.items(), key=lambda kv: -kv[1])[: opts.top]:
        print(f"| `{module}` | {s:.1f} | {s / total:.1%} |")
    waits = [w for path in sorted(opts.folder.rglob("*.waits")) for w in logged(path)]
    if waits:
        print(f"\n{sum(w['waited'] for w in waits):.1f} s of waiting on another process's compilation, {len(waits)} waits"
              f" ({sum(not w['granted'] for w in waits)} timed out)\n")
        # A lock file is named by a digest of the kernel's name (gamesolve/compile_lock.py).
        names = {hashlib.sha1(f.encode()).hexdigest()[:20]: f for f in by_owner}
        print("| kernel waited for | seconds | waits | longest |\n|---|---:|---:|---:|")
        by_lock = defaultdict(list)
        for w in waits:
            by_lock[names.get(w["lock"].split(".")[0], w["lock"])].append(w["waited"])
        for name, seconds in sorted(by_lock.items(), key=lambda kv: -sum(kv[1]))[: opts.top]:
            print(f"| `{name}` | {sum(seconds):.1f} | {len(seconds)} | {max(seconds):.1f} |")


if __name__ == "__main__":
    main()
