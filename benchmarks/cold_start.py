"""First-use cost of the user-facing commands (issue 36): each command run cold, in a fresh
process with an empty numba cache, then warm, in a fresh process reading the cache the cold
run filled, and the share of the cold run the compiler took.

    nice -n 19 python benchmarks/cold_start.py [--only NAME[,NAME]] [--json PATH] [--timeout S]
        [--compile-log DIR] [--tree DIR --tree DIR2]

Every run gets its own temporary ``HOME`` (so ``~/.cache/gamesolve`` of the machine's user is
never read or written, and the warm run cannot reuse a compiled game form the cold run
cached: only the numba cache is shared) and its own empty ``NUMBA_CACHE_DIR`` for the cold
run. compile share = (cold - warm) / cold. ``cpu`` is the processor seconds of the command
and its children (user + system): on a machine that is not quiet it moves less than the wall
time. A command that fails prints the tail of its stderr and the table says so; a command
still running after ``--timeout`` seconds cold is stopped and reported as skipped.

``--tree DIR`` (repeatable) runs the commands from the source tree DIR (a git worktree: its
``gamesolve`` and plugins go first on ``PYTHONPATH``, ahead of the installed ones), each
command on every tree in turn, so two commits are compared in one run on one machine load.

``--compile-log DIR`` logs each numba compilation of the cold runs into ``DIR/NAME/``
(benchmarks/compile_log/sitecustomize.py); ``python benchmarks/compile_report.py DIR/NAME``
lists them by kernel.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
_SCRIPT = Path(sys.executable).parent / "gamesolve"
GAMESOLVE = [str(_SCRIPT)] if _SCRIPT.exists() else [sys.executable, "-m", "gamesolve.cli"]

#: The turn and river spots of docs/spot.md and the README.
TURN = ["--board", "QsJh2h8d", "--oop-range", "22+,A2s+,KTo+", "--ip-range", "TT+,AQs,KQ", "--target", "0.5%"]
RIVER = ["--board", "QsJh2h8d3c", "--oop-range", "QQ,JJ,AK", "--ip-range", "TT+,AQs", "--target", "1%"]

#: The setup of the commands that play a heads-up tiny blueprint.
HU_BLUEPRINT = ["solve", "--game", "nlth", "--players", "2", "--iterations", "20000", "--threads", "1", "--out", "{work}/bp"]

#: name -> (arguments of gamesolve, arguments of an untimed setup run or None). ``{work}`` is
#: a folder of the command's own, shared by its setup, cold and warm runs. The setup runs in
#: a numba cache of its own, except for the commands of ``AFTER_SETUP``: those measure what a
#: command still compiles after the setup filled the cache.
COMMANDS: dict[str, tuple[list[str], list[str] | None]] = {
    "kuhn cfr+": (["solve", "--game", "kuhn", "--algo", "cfr+", "--iterations", "1000"], None),
    "leduc cfr+": (["solve", "--game", "leduc", "--algo", "cfr+", "--iterations", "1000"], None),
    "leduc mccfr-p": (["solve", "--game", "leduc", "--algo", "mccfr-p", "--minutes", "0.2"], None),
    "liars_dice vcfr": (["solve", "--game", "liars_dice", "--algo", "vcfr", "--iterations", "100"], None),
    "leduc exploitability": (
        ["exploitability", "--game", "leduc", "--store", "{work}/leduc.zarr"],
        ["solve", "--game", "leduc", "--algo", "cfr+", "--iterations", "100", "--out", "{work}/leduc.zarr"],
    ),
    "spot river": (["spot", *RIVER], None),
    "spot turn": (["spot", *TURN], None),
    "spot river 16-bit": (["spot", *RIVER, "--precision", "16"], None),
    "leduc exploitability --search": (
        ["exploitability", "--game", "leduc", "--store", "{work}/leduc.zarr", "--search"],
        ["solve", "--game", "leduc", "--algo", "cfr+", "--iterations", "100", "--out", "{work}/leduc.zarr"],
    ),
    # the search agent over a heads-up tiny blueprint, iteration caps (no time budget) against a
    # calling station, whose bets it re-solves on the turn and river
    "nlth match search": (
        ["match", "--game", "nlth", "--agents", "search:store={work}/bp:seconds=0:iterations=30,call", "--hands", "10", "--seed", "1"],
        HU_BLUEPRINT,
    ),
    "lbr": (["lbr", "--game", "nlth", "-p", "players=2", "--agent", "tag", "--hands", "200", "--seed", "1", "--workers", "1"], None),
    "abstraction tiny": (["abstraction", "build", "--preset", "tiny", "--cache-dir", "{work}/abstraction", "--force"], None),
    # the spot after a line through a dealt card is built without the suit symmetry
    "spot line after spot turn": (["spot", *TURN, "--line", "check,bet 500,call,Kd"], ["spot", *TURN]),
    # the terminal table against a heads-up blueprint, to its first prompt (no input: it stops there)
    "play start": (["play", "--game", "nlth", "--agents", "blueprint:store={work}/bp"], HU_BLUEPRINT),
    # the web table, until it listens and has dealt a first hand to a new session (see READY)
    "serve start": (["serve", "--game", "nlth", "--agents", "blueprint:store={work}/bp", "--port", "0", "--data", "{work}/data"],
                    HU_BLUEPRINT),
}
AFTER_SETUP = {"spot line after spot turn"}
#: Commands whose timed runs read the card abstraction the setup built (in the setup's HOME):
#: it is copied into their own, as a user who trained a blueprint has it.
SHARE_ABSTRACTION = {"nlth match search", "play start", "serve start"}


def _first_table(line: str) -> None:
    """A new session of the web table whose address ``line`` names: its first hand dealt."""
    address = re.search(r"http://\S+", line).group(0)
    request = urllib.request.Request(f"{address}/api/sessions", data=b"{}", headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=300) as answer:
        assert answer.status == 201, answer.status


#: Commands that run until stopped: timed until the text appears in their output and the
#: function given the line it is on returns, then stopped.
READY = {"serve start": ("Uvicorn running on", _first_table)}
ABSTRACTION = Path(".cache") / "gamesolve" / "abstraction"


def command_line(args: list[str], work: Path) -> list[str]:
    return GAMESOLVE + [a.replace("{work}", str(work)) for a in args]


def source_paths(tree: Path | None) -> list[str]:
    """The import roots of a source tree: the core and every plugin."""
    if tree is None:
        return []
    return [str(tree)] + sorted(str(p) for p in (tree / "plugins").iterdir() if (p / "pyproject.toml").exists())


def environment(numba_cache: Path, home: Path, compile_log: Path | None, tree: Path | None = None) -> dict[str, str]:
    env = dict(os.environ, NUMBA_CACHE_DIR=str(numba_cache), HOME=str(home))
    for name in ("XDG_CACHE_HOME", "GAMESOLVE_CACHE_DIR", "GAMESOLVE_COMPILE_LOG"):
        env.pop(name, None)  # every cache of gamesolve under the run's own HOME
    paths = source_paths(tree)
    if compile_log is not None:
        env["GAMESOLVE_COMPILE_LOG"] = str(compile_log)
        paths.insert(0, str(HERE / "compile_log"))
    if paths:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [*paths, env.get("PYTHONPATH")]))
    return env


def timed(argv: list[str], env: dict[str, str], timeout: float, ready: tuple | None = None) -> dict:
    """Wall and processor seconds of one run; ``error`` (stderr's tail) when it failed. Its
    standard input is empty (``play`` stops at its first prompt). With ``ready``, the run is
    timed until that text appears in its output and its function returns (see :data:`READY`),
    then stopped: a server."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    if ready is None:
        try:
            done = subprocess.run(argv, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return {"seconds": None, "cpu": None, "error": f"skipped: still running after {timeout:.0f} s"}
        seconds, returncode, output = time.perf_counter() - started, done.returncode, done.stderr
    else:
        seconds, returncode, output = _until_ready(argv, env, timeout, ready, started)
        if seconds is None:
            return {"seconds": None, "cpu": None, "error": output}
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    error = None
    if returncode != 0:
        error = f"exit {returncode}: " + "\n".join(output.strip().splitlines()[-15:])
    return {"seconds": seconds, "cpu": cpu, "error": error}


def _until_ready(argv, env, timeout, ready, started) -> tuple[float | None, int, str]:
    """(seconds until ``ready`` appeared, 0, output) once the process is stopped; (None, code,
    why) when it exited first or took longer than ``timeout``."""
    proc = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, start_new_session=True)  # fmt: skip
    lines: list[str] = []
    found = threading.Event()
    text, then = ready
    failed: list[str] = []

    def read():
        for line in proc.stdout:
            lines.append(line)
            if text in line and not found.is_set():
                try:
                    then(line)
                except Exception as exc:  # reported as the run's error
                    failed.append(f"{type(exc).__name__}: {exc}")
                found.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    seen = found.wait(timeout)
    seconds = time.perf_counter() - started
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    reader.join(timeout=5)
    if seen and failed:
        return None, 1, f"after {text!r}: {failed[0]}"
    if seen:
        return seconds, 0, "".join(lines)
    why = f"skipped: no {text!r} after {timeout:.0f} s" if proc.returncode is None or proc.returncode < 0 else \
        f"exit {proc.returncode}: " + "\n".join("".join(lines).strip().splitlines()[-15:])
    return None, proc.returncode, why


def measure(name: str, timeout: float, compile_log: Path | None, tree: Path | None = None) -> dict:
    args, setup = COMMANDS[name]
    scratch = Path(tempfile.mkdtemp(prefix="cold-start-"))
    try:
        work, numba_cache = scratch / "work", scratch / "numba"
        work.mkdir()
        shown = [a.replace("{work}/", "") for a in args]  # the setup's store, named as in the README
        row = {"name": name, "command": " ".join(["gamesolve", *shown]), "tree": None if tree is None else str(tree)}
        if setup is not None:  # in a cache of its own unless AFTER_SETUP: the timed runs start from an empty one
            (scratch / "setup-home").mkdir()
            setup_cache = numba_cache if name in AFTER_SETUP else scratch / "setup-numba"
            ready = timed(command_line(setup, work), environment(setup_cache, scratch / "setup-home", None, tree), timeout)
            if ready["error"]:
                return row | {"error": "setup " + ready["error"]}
        for run in ("cold", "warm"):
            home = scratch / f"home-{run}"
            home.mkdir()
            if name in SHARE_ABSTRACTION:
                shutil.copytree(scratch / "setup-home" / ABSTRACTION, home / ABSTRACTION)
            log = None
            if compile_log is not None and run == "cold":
                log = compile_log / (name.replace(" ", "_") + ("" if tree is None else "@" + tree.name))
            result = timed(command_line(args, work), environment(numba_cache, home, log, tree), timeout, READY.get(name))
            row[run], row[f"{run}_cpu"] = result["seconds"], result["cpu"]
            if result["error"]:
                return row | {"error": f"{run} " + result["error"]}
        row["compile_share"] = (row["cold"] - row["warm"]) / row["cold"]
        return row
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def table(rows: list[dict]) -> str:
    def s(x):
        return "" if x is None else f"{x:.1f}"

    trees = any(r.get("tree") for r in rows)
    lines = ["| command |" + (" tree |" if trees else "") + " cold s | warm s | compile share | cold cpu s | warm cpu s |",
             "|---|" + ("---|" if trees else "") + "---:|---:|---:|---:|---:|"]  # fmt: skip
    for r in rows:
        head = f"| `{r['command']}` |" + (f" {Path(r['tree']).name if r.get('tree') else 'installed'} |" if trees else "")
        if r.get("error"):
            lines.append(f"{head} {s(r.get('cold'))} | {s(r.get('warm'))} | {r['error'].splitlines()[0]} | | |")
        else:
            lines.append(f"{head} {s(r['cold'])} | {s(r['warm'])} | {r['compile_share']:.0%} | "
                         f"{s(r['cold_cpu'])} | {s(r['warm_cpu'])} |")  # fmt: skip
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", action="append", default=[], metavar="NAME",
                        help=f"Commands to run (repeatable or comma-separated): {', '.join(COMMANDS)}.")  # fmt: skip
    parser.add_argument("--json", type=Path, default=None, metavar="PATH", help="Also write the rows as JSON.")
    parser.add_argument("--timeout", type=float, default=180, help="Seconds a cold run may take before it is skipped.")
    parser.add_argument("--compile-log", type=Path, default=None, metavar="DIR", help="Log the cold runs' compilations.")
    parser.add_argument("--tree", type=Path, action="append", default=[], metavar="DIR",
                        help="Run the commands from this source tree (repeatable: every command on each in turn).")
    opts = parser.parse_args()
    names = [n.strip() for item in opts.only for n in item.split(",") if n.strip()] or list(COMMANDS)
    unknown = [n for n in names if n not in COMMANDS]
    if unknown:
        parser.error(f"unknown command {unknown}; choose from {list(COMMANDS)}")
    rows = []
    for name in names:
        for tree in [t.resolve() for t in opts.tree] or [None]:
            row = measure(name, opts.timeout, opts.compile_log, tree)
            rows.append(row)
            where = "" if tree is None else f" ({tree.name})"
            if row.get("error"):
                print(f"{name}{where}: {row['error']}", file=sys.stderr, flush=True)
            else:
                print(f"{name}{where}: cold {row['cold']:.1f} s, warm {row['warm']:.1f} s", file=sys.stderr, flush=True)
    print(table(rows))
    if opts.json is not None:
        opts.json.write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    main()
