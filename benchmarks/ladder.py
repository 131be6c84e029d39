"""The ladder (issue #37 item 3): duplicate matches among a fixed roster of hold'em agents,
heads-up and six-handed (one agent against five copies of another), and ratings with 95%
intervals fitted to the pairwise win rates (:mod:`gamesolve.evaluate.ratings`: agent ``a``
wins ``r[a] - r[b]`` mbb/game against ``b``, weighted least squares, ratings summing to zero).

    python benchmarks/ladder.py build                # the roster's blueprints that are missing
    python benchmarks/ladder.py run [--only A,B,...] # every pairing not yet on record
    python benchmarks/ladder.py pair A B --table hu  # one pairing again (replaces its record)
    python benchmarks/ladder.py lbr [--only A,B,...] # heads-up LBR of every agent not yet on record
    python benchmarks/ladder.py report               # ratings table and plot (docs/ladder.md)

The roster (:data:`ROSTER`): the baselines ``fold``, ``call``, ``random``, ``tag``; blueprints
of the ``tiny`` preset at 3 and 20 minutes and of ``small`` at 60 minutes of two threads,
trained on one thread with every schedule in iterations (the iteration counts of those minutes
on this machine), so that ``build`` makes the same bits on any machine; and the search agent
with its defaults over each blueprint, with an iteration budget (``seconds=0``) so that its
play does not depend on the machine's load. Heads-up tables use heads-up blueprints, six-handed
tables six-player ones. An agent whose blueprint is not built is left out (``report`` says so).

Records: one JSON file per pairing in ``docs/results/ladder/`` (written atomically when its
match ends; the match's ``--json`` summary, the command, the commit), so partial runs add up
across sessions; ``report`` fits what is there. Win rates are AIVAT-corrected where the match
reports AIVAT for the first seat. Heads-up LBR (``gamesolve lbr``, its default settings) of
each agent is recorded the same way (``lbr-AGENT.json``) and shown beside its heads-up rating.
"""

from __future__ import annotations

import argparse
import itertools
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "docs" / "results" / "ladder"
BLUEPRINTS = ROOT / "runs" / "ladder"  # where `build` writes (not in git)
GAMESOLVE = [sys.executable, "-m", "gamesolve.cli"]

# Iterations per minute of the `tiny` and `small` presets on two threads of this kind of
# machine (README command 1: 7.2 M iterations in 180 s; docs/blueprint.md: small, 157.7 M in 60 minutes).
RATE = {"tiny": 2_400_000, "small": 2_630_000}
# Each preset's time schedules (presets.py) in minutes, turned into iterations at RATE.
SCHEDULES = {
    "tiny": {"discount_interval": 5 / 60, "prune_threshold": 0.5, "snapshot_interval": 0.25, "snapshot_start": 1.0},
    "small": {"discount_interval": 1.0, "lcfr_threshold": 20.0, "prune_threshold": 10.0, "snapshot_interval": 5.0,
              "snapshot_start": 20.0},
}  # fmt: skip
BLUEPRINT_RUNS = {"tiny-3": ("tiny", 3), "tiny-20": ("tiny", 20), "small-60": ("small", 60)}
BASELINES = ("fold", "call", "random", "tag")
SEARCH = "seconds=0:iterations=30"  # an iteration cap in place of the default 5 s of a turn decision on 2 cores (solver: the default, DCFR)
HANDS = {"hu": 4000, "6max": 6000}  # per pairing; search pairings play a tenth
LBR_HANDS = 1000  # per agent (whole duplicate deals; a search agent plays a tenth)
SEED = 37


def blueprint_dir(run: str, table: str) -> Path:
    return BLUEPRINTS / f"{run}-{table}"


def roster(table: str) -> dict[str, str]:
    """Agent name -> ``--agents`` entry, for the agents whose blueprints are built."""
    out = {name: name for name in BASELINES}
    for run in BLUEPRINT_RUNS:
        store = blueprint_dir(run, table) / "blueprint"
        if store.exists():
            out[f"bp-{run}"] = f"blueprint:store={store}"
            out[f"search-{run}"] = f"search:store={store}:{SEARCH}"
    return out


def total_iterations(run: str) -> int:
    """The iterations of ``run``'s schedule: its minutes at :data:`RATE`."""
    preset, minutes = BLUEPRINT_RUNS[run]
    return minutes * RATE[preset]


def build_command(run: str, table: str) -> list[str]:
    preset, _ = BLUEPRINT_RUNS[run]
    rate = RATE[preset]
    options = [f"-o{key}={max(1, round(m * rate))}" for key, m in SCHEDULES[preset].items()]
    return [*GAMESOLVE, "solve", "--game", "nlth", "-p", f"players={2 if table == 'hu' else 6}", "--preset", preset,
            "--iterations", str(total_iterations(run)), "--threads", "1", "--seed", str(SEED), *options,
            "--out", str(blueprint_dir(run, table)), "--json"]  # fmt: skip


def build_blueprint(run: str, table: str) -> None:
    """Train ``run``'s blueprint, or continue a build that stopped (a crash, a session's end)
    from its last checkpoint for the iterations it still owes: ``solve --resume`` runs
    ``--iterations`` more, so the run's total stays the schedule's (a resumed run makes the
    same tables as a straight one: ``tests/core/test_mccfr.py``)."""
    from gamesolve.store.checkpoint import checkpoint_attrs

    out = blueprint_dir(run, table)
    total = total_iterations(run)
    attrs = checkpoint_attrs(out)  # None for a folder that is missing or holds no checkpoint yet
    if attrs is None:
        print(f"building {run} ({table})", flush=True)
        command = build_command(run, table) + ["--force"]
    else:
        done = int(attrs["counters"]["iteration"])
        if done >= total:
            raise SystemExit(f"{out} has run {done:,} iterations, past the schedule's {total:,} and without a "
                             "blueprint: move it away to build it again")  # fmt: skip
        print(f"continuing {run} ({table}) from iteration {done:,} of {total:,}", flush=True)
        command = [*GAMESOLVE, "solve", "--out", str(out), "--resume", "--iterations", str(total - done),
                   "--threads", "1", "--json"]  # fmt: skip
    subprocess.run(command, check=True, cwd=ROOT, stdout=subprocess.DEVNULL)


def match_command(a: str, b: str, table: str, agents: dict[str, str]) -> list[str]:
    seats = [agents[a], agents[b]] if table == "hu" else [agents[a]] + [agents[b]] * 5
    hands = HANDS[table] // (10 if "search" in a + b else 1)
    aivat = ["--aivat"] if any(x.startswith(("bp-", "search-")) for x in (a, b)) else []
    return [*GAMESOLVE, "match", "--game", "nlth", "-p", f"players={len(seats)}", "--agents", ",".join(seats),
            "--hands", str(hands), "--seed", str(SEED), "--workers", "2", *aivat, "--json"]  # fmt: skip


def lbr_command(name: str, agents: dict[str, str]) -> list[str]:
    hands = LBR_HANDS // (10 if name.startswith("search-") else 1)
    return [*GAMESOLVE, "lbr", "--game", "nlth", "-p", "players=2", "--agent", agents[name], "--hands", str(hands),
            "--seed", str(SEED), "--workers", "2", "--json"]  # fmt: skip


def record_path(a: str, b: str, table: str) -> Path:
    return RESULTS / f"{table}-{a}-vs-{b}.json"


def lbr_path(name: str) -> Path:
    return RESULTS / f"lbr-{name}.json"


def play(a: str, b: str, table: str, agents: dict[str, str]) -> dict:
    print(f"{table}: {a} vs {b}", flush=True)
    return _record(match_command(a, b, table, agents), record_path(a, b, table), "match", f"{a} vs {b} ({table})",
                   {"a": a, "b": b, "table": table})  # fmt: skip


def exploit(name: str, agents: dict[str, str]) -> dict:
    print(f"lbr: {name}", flush=True)
    return _record(lbr_command(name, agents), lbr_path(name), "lbr", f"LBR of {name}", {"agent": name})


def _record(command: list[str], path: Path, key: str, what: str, head: dict) -> dict:
    """Run a ``gamesolve ... --json`` command and keep its summary with the command and the
    commit, written atomically (a stopped run leaves no record)."""
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    if done.returncode != 0:
        raise SystemExit(f"{what} failed: {done.stderr.strip().splitlines()[-1:]}")
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    commit = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, cwd=ROOT).stdout.strip()
    record = {**head, "command": command[2:], "commit": commit, key: summary}
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(record, indent=1) + "\n")
    tmp.replace(path)
    return record


def first_seat(record: dict) -> tuple[float, float]:
    """The first seat's win rate and standard error (AIVAT-corrected where reported)."""
    agent = record["match"]["agents"][0]
    aivat = agent.get("aivat")
    if aivat:
        return float(aivat["win_rate"]), float(aivat["stderr"])
    return float(agent["win_rate"]), float(agent["stderr"])


def pairings(table: str):
    from gamesolve.evaluate.ratings import Pairing

    out = []
    for path in sorted(RESULTS.glob(f"{table}-*.json")):
        record = json.loads(path.read_text())
        rate, se = first_seat(record)
        out.append(Pairing(record["a"], record["b"], rate, se))
    return out


def report(out: Path) -> None:
    from gamesolve.evaluate.ratings import fit_ratings

    lines = ["| table | agent | rating (mbb/game) | 95% interval | pairings | heads-up LBR (mbb/game, 95%) |",
             "|---|---|---:|---|---:|---:|"]  # fmt: skip
    fits = {}
    for table in ("hu", "6max"):
        found = pairings(table)
        if len({p.a for p in found} | {p.b for p in found}) < 2:
            continue
        fit = fit_ratings(found)
        fits[table] = fit
        for agent in fit.ranked():
            lo, hi = fit.interval(agent)
            count = sum(agent in (p.a, p.b) for p in found)
            lines.append(f"| {table} | {agent} | {fit.rating[fit.agents.index(agent)]:+.0f} | {lo:+.0f} .. {hi:+.0f} | {count} | "
                         f"{_lbr_cell(agent) if table == 'hu' else ''} |")  # fmt: skip
        lines.append(f"| {table} | (fit) | chi-square {fit.chi2:.1f} on {fit.dof} degrees of freedom | | {len(found)} | |")
    print("\n".join(lines))
    if fits:
        _plot(fits, out)
        print(f"plot: {out}")


def _lbr_cell(agent: str) -> str:
    """``+4785 ± 5017`` (the 95% half-width) from the agent's LBR record, or blank."""
    path = lbr_path(agent)
    if not path.exists():
        return ""
    lbr = json.loads(path.read_text())["lbr"]
    return f"{lbr['mbb_per_game']:+.0f} ± {1.96 * lbr['se']:.0f}"


def _plot(fits, out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(fits), figsize=(6 * len(fits), 4), squeeze=False)
    for ax, (table, fit) in zip(axes[0], fits.items()):
        order = fit.ranked()[::-1]
        idx = [fit.agents.index(a) for a in order]
        ax.errorbar(fit.rating[idx], range(len(order)), xerr=1.96 * fit.stderr[idx], fmt="o", capsize=3)
        ax.set_yticks(range(len(order)), order)
        ax.axvline(0.0, color="grey", lw=0.5)
        ax.set_xlabel("rating, mbb/game (95% interval)")
        ax.set_title("heads-up" if table == "hu" else "six-handed, 1 vs 5")
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=110)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    build = sub.add_parser("build", help="train the roster's missing blueprints (one thread, iteration schedules)")
    build.add_argument("--only", default=None, help="comma-separated runs (tiny-3, tiny-20, small-60)")
    build.add_argument("--table", choices=("hu", "6max"), action="append")
    run = sub.add_parser("run", help="play every pairing not yet on record")
    run.add_argument("--only", default=None, help="comma-separated agents to restrict the pairings to")
    run.add_argument("--table", choices=("hu", "6max"), action="append")
    pair = sub.add_parser("pair", help="play one pairing again")
    pair.add_argument("a")
    pair.add_argument("b")
    pair.add_argument("--table", choices=("hu", "6max"), required=True)
    lbr = sub.add_parser("lbr", help="heads-up LBR of every agent not yet on record")
    lbr.add_argument("--only", default=None, help="comma-separated agents")
    lbr.add_argument("--again", action="store_true", help="replace the records of the agents chosen")
    rep = sub.add_parser("report", help="fit and print the ratings, write the plot")
    rep.add_argument("--plot", type=Path, default=ROOT / "docs" / "ladder.png")
    args = parser.parse_args(argv)
    tables = getattr(args, "table", None) or ["hu", "6max"]
    if args.what == "build":
        runs = args.only.split(",") if args.only else list(BLUEPRINT_RUNS)
        unknown = sorted(set(runs) - set(BLUEPRINT_RUNS))
        if unknown:
            parser.error(f"unknown run {unknown[0]!r} (runs: {', '.join(BLUEPRINT_RUNS)})")
        for table, name in itertools.product(tables, runs):
            if not (blueprint_dir(name, table) / "blueprint").exists():
                build_blueprint(name, table)
    elif args.what == "run":
        for table in tables:
            agents = roster(table)
            names = [n for n in agents if not args.only or n in args.only.split(",")]
            for a, b in itertools.combinations(names, 2):
                if not record_path(a, b, table).exists() and not record_path(b, a, table).exists():
                    play(a, b, table, agents)
    elif args.what == "pair":
        agents = roster(args.table)
        missing = [x for x in (args.a, args.b) if x not in agents]
        if missing:
            parser.error(f"no agent {missing[0]!r} at the {args.table} table (agents: {', '.join(agents)})")
        play(args.a, args.b, args.table, agents)
    elif args.what == "lbr":
        agents = roster("hu")
        names = args.only.split(",") if args.only else list(agents)
        missing = [x for x in names if x not in agents]
        if missing:
            parser.error(f"no agent {missing[0]!r} at the hu table (agents: {', '.join(agents)})")
        for name in names:
            if args.again or not lbr_path(name).exists():
                exploit(name, agents)
    else:
        report(args.plot)


if __name__ == "__main__":
    main()
