"""Where a test run's time goes, test by test: a pytest plugin and its report (issue 36).

    GAMESOLVE_SUITE_LOG=/tmp/st PYTHONPATH=benchmarks/suite_time python -m pytest -n 2 -p suite_time
    python benchmarks/suite_time/suite_time.py /tmp/st [--top 25]

Each worker writes ``DIR/<worker>.jsonl``: per test (its whole protocol: setup, call and
teardown) the start time, wall seconds, the worker's own processor seconds and those of the
children it reaped meanwhile (``os.times()``; a child reaped later is charged to a later test),
and the times the worker was configured and had collected. The report sums processor time by
file and by test, and shows when each worker's first test started and its last ended, and
its idle seconds between tests.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import defaultdict
from pathlib import Path

import pytest

_DIR = os.environ.get("GAMESOLVE_SUITE_LOG")
_out = None


def _write(record: dict) -> None:
    global _out
    if not _DIR:
        return
    if _out is None:
        os.makedirs(_DIR, exist_ok=True)
        _out = open(os.path.join(_DIR, f"{os.environ.get('PYTEST_XDIST_WORKER', 'main')}.jsonl"), "a")
    _out.write(json.dumps(record) + "\n")
    _out.flush()


def pytest_configure(config):
    _write({"event": "configure", "t": time.time()})


def pytest_collection_finish(session):
    _write({"event": "collected", "t": time.time()})


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    before, started = os.times(), time.time()
    yield
    after = os.times()
    _write({"id": item.nodeid, "start": started, "wall": time.time() - started,
            "own": after.user - before.user + after.system - before.system,
            "kids": after.children_user - before.children_user + after.children_system - before.children_system})  # fmt: skip


def report(folder: Path, top: int) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # benchmarks/: the compile report's log reader
    from compile_report import logged

    by_file = defaultdict(lambda: [0.0, 0.0, 0])
    tests = []
    for path in sorted(folder.glob("*.jsonl")):
        rows = list(logged(path))  # a line cut short by a killed worker is skipped
        events = {r["event"]: r["t"] for r in rows if "event" in r}
        mine = sorted((r for r in rows if "id" in r), key=lambda r: r["start"])
        if not mine:
            continue
        gaps = sum(b["start"] - (a["start"] + a["wall"]) for a, b in zip(mine, mine[1:]))
        first, last = mine[0]["start"], max(r["start"] + r["wall"] for r in mine)
        print(f"{path.stem}: {len(mine)} tests, {sum(r['wall'] for r in mine):.1f} s in tests, "
              f"first test {first - events.get('configure', first):.1f} s after start, last ended at {last - events.get('configure', first):.1f} s, "
              f"{gaps:.1f} s between tests, "
              f"{sum(r['own'] for r in mine):.1f} processor s own and {sum(r['kids'] for r in mine):.1f} of children")  # fmt: skip
        for r in mine:
            f = by_file[r["id"].split("::")[0]]
            f[0] += r["own"]
            f[1] += r["kids"]
            f[2] += 1
        tests += mine
    print("\n| file | processor s | own | children | tests |\n|---|---:|---:|---:|---:|")
    for name, (own, kids, n) in sorted(by_file.items(), key=lambda kv: -(kv[1][0] + kv[1][1]))[:top]:
        print(f"| `{name}` | {own + kids:.1f} | {own:.1f} | {kids:.1f} | {n} |")
    print("\n| test | processor s | own | children | wall s |\n|---|---:|---:|---:|---:|")
    for r in sorted(tests, key=lambda r: -(r["own"] + r["kids"]))[:top]:
        print(f"| `{r['id']}` | {r['own'] + r['kids']:.1f} | {r['own']:.1f} | {r['kids']:.1f} | {r['wall']:.1f} |")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--top", type=int, default=25)
    opts = parser.parse_args()
    report(opts.folder, opts.top)
