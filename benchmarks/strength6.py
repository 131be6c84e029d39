"""The six-player strength experiments of docs/search.md ("Strength (six players)"): one
search agent and five blueprint agents, the search agent's AIVAT-corrected win rate, run one
seed at a time so that the runs can be spread over several sessions and machines, and
analysed once, when every declared seed is in. Each design (``DESIGNS``) was fixed before its
first run; ``--design`` picks one (default: the latest).

    python benchmarks/strength6.py run --store bp6-it20m --seed 71
    python benchmarks/strength6.py replay --store bp6-it20m --seed 71
    python benchmarks/strength6.py report
    python benchmarks/strength6.py report --design 1

``run`` plays ``gamesolve match`` (the design's exact command) and writes
``docs/results/strength6-D/seed-S.json``: the match's ``--json`` summary, the command, the
commit and code trees that played, and the SHA-256 of the blueprint's arrays, so that only
runs of the same code on the same bits are pooled. Designs 1 and 2 cap iterations, so every
hand is the same on any machine and at any load. Designs 3 and 4 play the agent's default, a
time budget: its search agent logs each solve's iterations (``record=``, beside the record as
``seed-S.solves.jsonl``), and ``replay`` plays the seed again with each solve stopped at the
logged iterations (``replay=``, no clock) and checks that every agent's result equals the
record's. ``report``
prints the seeds done and, only when all of them are in, the pooled result (the mean of the
seeds' means, SE from theirs; one-sided p of the normal test): the design's single look.

A seed's record is written (atomically) only when its match has ended: a run killed halfway
leaves no record, and running that seed again plays the same hands. Bad input is refused in
one line, exit 2.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import subprocess
import sys
import time
import warnings
from pathlib import Path
from typing import NamedTuple

import numpy as np
import zarr

RESULTS = Path(__file__).resolve().parent.parent / "docs" / "results"


class Design(NamedTuple):
    """One experiment, fixed before the first of its runs (docs/search.md): its seeds, hands
    per seed, the search agent's options, and the folder of its records."""

    seeds: tuple[int, ...]
    hands: int
    search: str
    results: Path
    solve_log: bool = False  # the search agent logs its solves (a time budget: replayable by the log)
    looks: int = 1  # six-player designs declared so far, this one included (Bonferroni)


DESIGNS = {
    # 2026-11-27 00:05 UTC: Linear CFR's final iteration after 30 iterations (not met: -59 ± 72).
    1: Design(tuple(range(41, 51)), 3000, "seconds=0:iterations=30:mccfr_iterations=10000", RESULTS / "strength6"),
    # 2026-11-27 07:21 UTC (00f74b8): DCFR, whose final iteration converges, 100 iterations; 30,000 MCCFR iterations.
    2: Design(tuple(range(51, 61)), 3000, "seconds=0:iterations=100:algorithm=dcfr:mccfr_iterations=30000",
              RESULTS / "strength6-2"),
    # 2026-11-30 (docs/search.md, design 3): the agent's defaults (DCFR, 5 s a decision), solves logged.
    3: Design(tuple(range(61, 71)), 3000, "", RESULTS / "strength6-3", solve_log=True, looks=3),
    # 2026-12-01 (docs/search.md, design 4): design 3's agent and blueprint, thirty seeds (its power).
    4: Design(tuple(range(71, 101)), 3000, "", RESULTS / "strength6-4", solve_log=True, looks=4),
}
LATEST = max(DESIGNS)
BLUEPRINT_COMMAND = ("gamesolve solve --game nlth --preset small --iterations 20000000 --threads 1 --seed 0 "
                     "-o discount_interval=600k -o lcfr_threshold=12M -o prune_threshold=6M "
                     "-o snapshot_interval=2M -o snapshot_start=12M --out STORE")  # fmt: skip
ALPHA = 0.05


class Refused(SystemExit):
    """A one-line refusal: ``main`` prints it and exits 2."""

    def __init__(self, message: str):
        super().__init__(2)
        self.message = message

    def __str__(self) -> str:
        return self.message


def _array_names(group, recursive: bool = True) -> list[str]:
    with warnings.catch_warnings():  # a store's manifest.json is not a zarr node, rightly
        warnings.simplefilter("ignore")
        members = group.members(max_depth=None) if recursive else group.members()
        return sorted(name for name, a in members if isinstance(a, zarr.Array))


def _hash_array(digest, name: str, array) -> None:
    """Name, dtype, shape and values in C order, read in blocks (the digest is the same as of
    the whole array at once)."""
    digest.update(f"{name}|{array.dtype}|{array.shape}\n".encode())
    if array.ndim == 0:
        digest.update(np.ascontiguousarray(array[()]).tobytes())
        return
    step = max(1, array.shape[0] // 64)
    for start in range(0, array.shape[0], step):
        digest.update(np.ascontiguousarray(array[start:start + step]).tobytes())


def arrays_digest(path: Path) -> str:
    """SHA-256 over every array of a zarr group (names, dtypes, shapes, values in C order)."""
    group = zarr.open_group(str(path), mode="r")
    digest = hashlib.sha256()
    for name in _array_names(group):
        _hash_array(digest, name, group[name])
    return digest.hexdigest()


def strategy_digest(path: Path) -> str:
    """SHA-256 of a blueprint strategy store's arrays with the strategy read node by node, in
    node order: where a row sits in the table (``node_offset``) depends on when the trainer's
    threads took fresh reservoirs, which is not part of what the blueprint plays."""
    group = zarr.open_group(str(path), mode="r")
    digest = hashlib.sha256()
    for name in _array_names(group, recursive=False):
        if name not in ("node_offset", "strategy"):
            _hash_array(digest, name, group[name])
    offset = group["node_offset"][...].astype(np.int64)
    size = np.diff(group["child_start"][...]).astype(np.int64) * group["num_private"][...][group["node_round"][...]]
    size[offset < 0] = 0
    strategy = group["strategy"][...]
    digest.update(f"strategy by node|{strategy.dtype}|{int(size.sum())}\n".encode())
    digest.update((offset >= 0).tobytes())
    for lo in range(0, len(offset), 1 << 18):
        o, n = offset[lo:lo + (1 << 18)], size[lo:lo + (1 << 18)]
        keep = n > 0
        o, n = o[keep], n[keep]
        index = np.repeat(o - (np.cumsum(n) - n), n) + np.arange(int(n.sum()))
        digest.update(strategy[index].tobytes())
    return digest.hexdigest()


def blueprint_digests(store: Path) -> dict[str, str]:
    """The SHA-256 of the blueprint (:func:`strategy_digest`) and of the card abstraction it
    plays with (from the abstraction cache, as the agents load it): equal for two stores
    exactly when they would play alike."""
    from gamesolve_nlth.abstraction.cache import cache_root

    try:
        key = json.loads((store / "zarr.json").read_text())["attributes"]["params"]["card_abstraction"]
    except (OSError, ValueError, KeyError, TypeError):
        raise Refused(f"{store} is not a hold'em blueprint store (no readable zarr.json naming its card abstraction)") from None
    if not (store / "blueprint").is_dir():
        raise Refused(f"{store} holds no blueprint/ (has its training finished?)")
    cards = cache_root() / "abstraction" / key
    if not cards.is_dir():
        raise Refused(f"the card abstraction {key} of {store} is not in the cache ({cards}): build it first")
    return {"blueprint": strategy_digest(store / "blueprint"), "card_abstraction": arrays_digest(cards)}


def _git(*args: str) -> str:
    repo = Path(__file__).resolve().parent.parent
    return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=True).stdout.strip()


def code_version() -> dict[str, str]:
    """The commit that plays and the git trees of its code (``gamesolve/``, ``plugins/``): runs
    whose trees are equal played the same code, whatever changed in docs between them. Refused
    when the code has uncommitted changes or the environment imports another checkout's."""
    import gamesolve
    import gamesolve_nlth

    repo = Path(__file__).resolve().parent.parent
    for module in (gamesolve, gamesolve_nlth):
        if repo not in Path(module.__file__).resolve().parents:
            raise Refused(f"this environment imports {module.__name__} from {module.__file__}, not from {repo}")
    dirty = _git("status", "--porcelain", "--", "gamesolve", "plugins")
    if dirty:
        changed = ", ".join(line.split(maxsplit=1)[-1] for line in dirty.splitlines())
        raise Refused(f"uncommitted changes to the code ({changed}); a run must name the commit it played")
    return {"commit": _git("rev-parse", "HEAD"), "gamesolve": _git("rev-parse", "HEAD:gamesolve"),
            "plugins": _git("rev-parse", "HEAD:plugins")}  # fmt: skip


def match_command(design: Design, store: str, seed: int, workers: int, log: str | None = None) -> list[str]:
    """The seed's match; ``log``: the search agent's solve log option (``record=PATH`` or
    ``replay=PATH``)."""
    search = ":".join(["search", f"store={store}"] + [part for part in (design.search, log) if part])
    blueprint = f"blueprint:store={store}"
    return ["gamesolve", "match", "--game", "nlth", "--hands", str(design.hands), "--seed", str(seed),
            "--workers", str(workers), "--json", "--aivat",
            "--agents", ",".join([search] + [blueprint] * 5)]  # fmt: skip


def _settings(design: Design) -> dict:
    return {"hands": design.hands, "search": design.search}


def _play(command: list[str]) -> dict:
    """Play a match command; its ``--json`` summary."""
    print(" ".join(command), flush=True)
    exe = Path(sys.executable).parent / "gamesolve"  # this environment's, not whichever is on PATH
    done = subprocess.run([str(exe) if exe.exists() else command[0]] + command[1:], stdout=subprocess.PIPE, text=True)  # progress on stderr, to the terminal
    if done.returncode != 0:
        raise Refused(f"the match failed (exit {done.returncode})")
    return json.loads(done.stdout.strip().splitlines()[-1])


def solve_log_path(directory: Path, seed: int) -> Path:
    return directory / f"seed-{seed}.solves.jsonl"


def run(design: Design, store: Path, seed: int, workers: int, directory: Path) -> None:
    if seed not in design.seeds:
        raise Refused(f"seed {seed} is not one of the design's seeds {design.seeds[0]}-{design.seeds[-1]}")
    out = directory / f"seed-{seed}.json"
    if out.exists():
        raise Refused(f"{out} exists: each seed is run once")
    code = code_version()
    digest = blueprint_digests(store)
    directory.mkdir(parents=True, exist_ok=True)
    log, partial = None, None
    if design.solve_log:
        # A run killed halfway leaves a partial log; the seed's next run starts it again.
        partial = solve_log_path(directory, seed).with_suffix(".part")
        partial.write_text("")  # a match whose agent never searched has an empty log
        log = f"record={partial}"
    command = match_command(design, str(store), seed, workers, log)
    started = time.time()
    summary = _play(command)
    record = {"seed": seed, "blueprint_sha256": digest, "code": code, "design": _settings(design),
              "command": " ".join(command), "wall_seconds": time.time() - started, "match": summary}  # fmt: skip
    if partial is not None:
        partial.rename(solve_log_path(directory, seed))
    tmp = out.with_suffix(".tmp")
    tmp.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")
    tmp.rename(out)
    print(f"wrote {out}")


def _results(summary: dict) -> list[dict]:
    """What a replay must give again: every agent's name, hands, totals and estimates."""
    keys = ("name", "hands", "total", "win_rate", "stderr", "aivat")
    return [{k: agent.get(k) for k in keys} for agent in summary["agents"]]


def _without_log(name: str) -> str:
    return ":".join(part for part in name.split(":") if not part.startswith(("record=", "replay=")))


def replay(design: Design, store: Path, seed: int, workers: int, directory: Path) -> bool:
    """Play a recorded seed again with each solve stopped at its logged iterations; whether
    every agent's result equals the record's (printed either way)."""
    if not design.solve_log:
        raise Refused("the design caps iterations: a seed plays the same on any machine without a solve log")
    out, log = directory / f"seed-{seed}.json", solve_log_path(directory, seed)
    if not out.exists() or not log.exists():
        raise Refused(f"seed {seed} has no record and solve log in {directory}: run it first")
    record = json.loads(out.read_text())
    code = code_version()
    if (code["gamesolve"], code["plugins"]) != (record["code"]["gamesolve"], record["code"]["plugins"]):
        raise Refused(f"the record was played by the code of {record['code']['commit'][:12]}: replay it from that commit")
    if blueprint_digests(store) != record["blueprint_sha256"]:
        raise Refused(f"{store} is not the blueprint the seed was played on (its digests differ)")
    summary = _play(match_command(design, str(store), seed, workers, f"replay={log}"))
    again, recorded = _results(summary), _results(record["match"])
    for rows in (again, recorded):
        for row in rows:
            row["name"] = _without_log(row["name"])
    same = again == recorded
    print(f"seed {seed}: the replay {'equals' if same else 'differs from'} the record "
          f"(search agent {again[0]['win_rate']:+.1f} mbb/game, recorded {recorded[0]['win_rate']:+.1f})")  # fmt: skip
    return same


def _search_row(record: dict) -> dict:
    rows = [a for a in record["match"]["agents"] if a["name"].startswith("search:")]
    if len(rows) != 1:
        raise Refused(f"seed {record['seed']}: expected one search agent, found {len(rows)}")
    return rows[0]


def one_sided_p(mean: float, se: float) -> float:
    return 0.5 * math.erfc(mean / se / math.sqrt(2))


def report(design: Design, directory: Path) -> dict:
    if directory.exists() and not directory.is_dir():
        raise Refused(f"{directory} is not a folder of records")
    records = []
    for path in sorted(directory.glob("seed-*.json")):  # none while the folder does not exist
        try:
            records.append(json.loads(path.read_text()))
        except (OSError, ValueError) as e:
            raise Refused(f"{path} is not a readable record ({e})") from None
    digests = {json.dumps(r["blueprint_sha256"], sort_keys=True) for r in records}
    if len(digests) > 1:
        raise Refused(f"runs on different blueprints ({len(digests)} digests): not one experiment")
    if len({(r["code"]["gamesolve"], r["code"]["plugins"]) for r in records}) > 1:
        raise Refused("runs of different code: the design plays one commit's code (docs/search.md)")
    for r in records:
        if r["design"] != _settings(design) or r["seed"] not in design.seeds:
            raise Refused(f"seed {r['seed']} was not run with the design's settings")
    print("| seed | hands | raw (duplicate deals) | AIVAT, hand held | variance reduction | searched decisions | seconds |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for r in records:
        row = _search_row(r)
        aivat = row["aivat"]
        searched = row["latency"].get("searched", {}).get("decisions", 0)
        print(f"| {r['seed']} | {row['hands']:,} | {row['win_rate']:+.0f} ± {row['stderr']:.0f} | "
              f"{aivat['win_rate']:+.0f} ± {aivat['stderr']:.0f} | {aivat['variance_reduction']:.2f} | {searched} | "
              f"{r['match']['seconds']:.0f} |")  # fmt: skip
    if design.solve_log:
        for r in records:
            log = solve_log_path(directory, r["seed"])
            if log.exists():
                rounds = "; ".join(f"round {k}: {v['solves']} solves, median {v['median_iterations']:.0f} iterations"
                                   for k, v in solve_summary(log).items())  # fmt: skip
                print(f"seed {r['seed']} solves: {rounds}")
    done = sorted(r["seed"] for r in records)
    seeds = list(design.seeds)
    result: dict = {"seeds_done": done, "seeds": seeds,
                    "blueprint_sha256": json.loads(next(iter(digests))) if digests else None}  # fmt: skip
    if done != seeds:
        print(f"{len(done)} of the design's {len(seeds)} seeds are in; the pooled result is withheld until all are "
              f"(the design's single look). Missing: {sorted(set(seeds) - set(done))}")  # fmt: skip
        return result
    for label, pick in (("raw", lambda row: row), ("aivat", lambda row: row["aivat"])):
        means = [pick(_search_row(r))["win_rate"] for r in records]
        ses = [pick(_search_row(r))["stderr"] for r in records]
        mean = sum(means) / len(means)
        se = math.sqrt(sum(s * s for s in ses)) / len(ses)
        result[label] = {"mbb_per_game": mean, "se": se, "p_one_sided": one_sided_p(mean, se)}
        print(f"pooled {label}: {mean:+.0f} ± {se:.0f} mbb/game over {design.hands * len(records):,} hands, "
              f"one-sided p = {result[label]['p_one_sided']:.4f}")  # fmt: skip
    met = result["aivat"]["p_one_sided"] < ALPHA and result["aivat"]["mbb_per_game"] > 0
    print(f"acceptance (AIVAT win rate positive at p < {ALPHA}): {'met' if met else 'not met'}")
    result["met"] = met
    if design.looks > 1:
        level = ALPHA / design.looks
        result["met_bonferroni"] = result["aivat"]["p_one_sided"] < level and result["aivat"]["mbb_per_game"] > 0
        print(f"over the {design.looks} six-player designs (Bonferroni, p < {level:.4f}): "
              f"{'met' if result['met_bonferroni'] else 'not met'}")  # fmt: skip
    return result


def solve_summary(path: Path) -> dict[int, dict]:
    """A solve log's solves by betting round: how many and their median iterations."""
    by_round: dict[int, list[int]] = {}
    for line in path.read_text().splitlines():
        entry = json.loads(line)
        by_round.setdefault(int(entry["round"]), []).append(int(entry["iterations"]))
    return {r: {"solves": len(v), "median_iterations": float(np.median(v))} for r, v in sorted(by_round.items())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="what", required=True)
    r = sub.add_parser("run", help="play one seed of the design and record it")
    r.add_argument("--store", type=Path, required=True, help=f"the blueprint: {BLUEPRINT_COMMAND}")
    r.add_argument("--seed", type=int, required=True)
    r.add_argument("--workers", type=int, default=2)
    r.add_argument("--dir", type=Path, help="where the seed's record goes (default: the design's folder in docs/results)")
    a = sub.add_parser("replay", help="play a recorded seed again by its solve log and check it equals the record")
    a.add_argument("--store", type=Path, required=True)
    a.add_argument("--seed", type=int, required=True)
    a.add_argument("--workers", type=int, default=2)
    a.add_argument("--dir", type=Path, help="where the seed's record is (default: the design's folder in docs/results)")
    d = sub.add_parser("digest", help="print the SHA-256 of a blueprint's arrays and of its card abstraction's")
    d.add_argument("--store", type=Path, required=True)
    p = sub.add_parser("report", help="the seeds done and, when all are in, the pooled result")
    p.add_argument("--dir", type=Path, help="the records (default: the design's folder in docs/results)")
    p.add_argument("--json", action="store_true", help="print the result as one JSON line too")
    for command in (r, a, p):
        command.add_argument("--design", type=int, default=LATEST, choices=sorted(DESIGNS),
                             help=f"which declared design (default {LATEST}, the latest)")
    args = parser.parse_args()
    try:
        _main(args)
    except Refused as refusal:
        print(f"error: {refusal}", file=sys.stderr)
        sys.exit(2)


def _main(args) -> None:
    if args.what == "digest":
        print(json.dumps(blueprint_digests(args.store)))
        return
    design = DESIGNS[args.design]
    directory = args.dir or design.results
    if args.what == "run":
        run(design, args.store, args.seed, args.workers, directory)
    elif args.what == "replay":
        if not replay(design, args.store, args.seed, args.workers, directory):
            raise Refused(f"seed {args.seed}'s replay differs from its record")
    else:
        result = report(design, directory)
        if args.json:
            print(json.dumps(result))


if __name__ == "__main__":
    main()
