"""MCCFR training throughput of this checkout against another commit, in one run.

    python benchmarks/compare_commits.py [--base REV] [--game nlth|leduc|liars_dice] [--preset tiny]
                                         [--iterations 300000] [--rounds 3]

The other commit is checked out into a temporary git worktree; both trees train the same
game (nlth: the six-player preset; leduc: the plugin's form; liars_dice: the generic
compiler's form) with its defaults, one thread, the same iterations, alternating rounds (so
machine noise hits both alike), each in its own process with its own numba cache. Prints
iterations per CPU second per round and the median ratio.

``--actions TOML`` trains both trees on that action abstraction instead of the preset's: the
same betting tree where a preset's changed between the commits (``tiny`` lost its open limps
after 54ab216; ``benchmarks/tiny_with_limps.toml`` is the tree it had). The probe refuses two
trees of different sizes.

    python benchmarks/compare_commits.py --base 54ab216 --actions benchmarks/tiny_with_limps.toml --iterations 2000000

    python benchmarks/compare_commits.py --what tabular --game leduc|liars_dice --iterations 3000 [--base REV]

times tabular CFR+ on the explicit tree instead of MCCFR.

    python benchmarks/compare_commits.py --what spot [--street turn] [--threads 2] [--base REV]

solves benchmarks/spot_speed.py's spot (the issue's heads-up acceptance spot) to its target in
each tree, alternating, and prints solver seconds (wall and processor), iterations and the
exploitability reached; the ratio is of the wall seconds.

    python benchmarks/compare_commits.py --what search [--hands 40] [--rounds 3] [--base REV]

plays a six-player match in each tree, alternating: one search agent (no time budget, iteration
caps: vector CFR 100, MCCFR 20,000, one thread) and five blueprint agents over one `tiny`
blueprint (200,000 MCCFR iterations, seed 0, trained once by this checkout), the same seed, and
prints the search agent's median seconds per searched decision, its searched decisions and the
match's processor seconds; the ratio is of the median latency (the decisions are the same in
both trees where the search's behaviour is: tests/golden checks that).

    python benchmarks/compare_commits.py --what core-search --game kuhn|leduc|liars_dice [--rounds 2] [--base REV]

composes the core's search agent over a cfr+ blueprint (30, 50 and 30 iterations, trained
once by this checkout) with ``gamesolve exploitability --search`` in each tree, alternating,
and prints its processor seconds, searches and exploitability (which must be equal), after one
untimed run per tree that compiles its kernels; the ratio is of the processor seconds.

    python benchmarks/compare_commits.py --what abstraction [--preset tiny] [--threads 2] [--rounds 2] [--base REV]

builds the card abstraction preset in each tree, alternating, each into its own temporary cache
folder, and prints per build the stage seconds (wall), the process's CPU seconds and peak RSS and
the load average; round 1 compiles the kernels (its figures include compilation). Then it checks
that the two trees' last builds hold equal arrays and quality figures (exactly); the ratio is of
the build's wall seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PROBE = r"""
import json, sys, time
# Editable installs put a finder ahead of PYTHONPATH: drop it so each tree imports its own code.
sys.meta_path = [f for f in sys.meta_path if "__editable__" not in getattr(f, "__module__", "")]
from gamesolve.solve.mccfr import MCCFRConfig, MCCFRTrainer
game = sys.argv[3]
if game == "nlth":
    from gamesolve_nlth.state import NLTHGame
    from gamesolve_nlth.blueprint.presets import blueprint_preset
    try:
        from gamesolve_nlth.blueprint.form import nlth_form as build
    except ImportError:  # commits before the factored form
        from gamesolve_nlth.blueprint.poker_tree import nlth_poker_tree as build
    preset = blueprint_preset(sys.argv[1])
    if sys.argv[5]:  # --actions: one betting tree for both commits where the preset's changed
        import attrs
        preset = attrs.evolve(preset, actions=sys.argv[5])
    form = build(NLTHGame(players=6), preset)
elif game == "leduc":
    from gamesolve_leduc import LeducGame
    from gamesolve_leduc.poker_form import leduc_form
    form = leduc_form(LeducGame(2))
else:
    from gamesolve_liars_dice import LiarsDiceGame
    from gamesolve.game.factored_compiler import compile_factored
    form = compile_factored(LiarsDiceGame())
config = MCCFRConfig.from_options(form.mccfr_defaults, legacy=True) if "legacy" in MCCFRConfig.from_options.__code__.co_varnames else MCCFRConfig.from_options(form.mccfr_defaults)
threads = int(sys.argv[4])
trainer = MCCFRTrainer(form, config, threads=threads, seed=0)
trainer.run(iterations=5000)  # compile and warm up
it0 = trainer.counters.iteration
# One thread: CPU time of a fixed number of iterations (other jobs on the machine slow both
# trees' wall clocks, much less their CPU time). Several threads: wall time, since their
# point is to use more CPU.
clock = time.process_time if threads == 1 else time.perf_counter
started = clock()
trainer.run(iterations=int(sys.argv[2]))
print(json.dumps({"rate": (trainer.counters.iteration - it0) / (clock() - started), "nodes": int(len(form.node_kind))}))
"""


TABULAR_PROBE = r"""
import json, sys, time
sys.meta_path = [f for f in sys.meta_path if "__editable__" not in getattr(f, "__module__", "")]
from gamesolve.game.explicit_tree import compile_explicit_tree
from gamesolve.solve.cfr import TABULAR_ALGORITHMS, TabularCFR
if sys.argv[1] == "leduc":
    from gamesolve_leduc import LeducGame as Game
else:
    from gamesolve_liars_dice.game import LiarsDiceGame as Game
tree = compile_explicit_tree(Game())
solver = TabularCFR(tree, TABULAR_ALGORITHMS["cfr+"])
solver.run(1)  # compile and warm up
started = time.process_time()
solver.run(int(sys.argv[2]))
print(json.dumps({"rate": int(sys.argv[2]) / (time.process_time() - started)}))
"""


SPOT_PROBE = r"""
import json, sys
sys.meta_path = [f for f in sys.meta_path if "__editable__" not in getattr(f, "__module__", "")]
sys.path.insert(0, "benchmarks")
from spot_speed import solve_street
row = solve_street(sys.argv[1], int(sys.argv[2]), 10, None)
print(json.dumps({"rate": 1.0 / row["solver_seconds"], **row}))
"""


ABSTRACTION_PROBE = r"""
import json, os, resource, sys, tempfile, time
sys.meta_path = [f for f in sys.meta_path if "__editable__" not in getattr(f, "__module__", "")]
from gamesolve_nlth.abstraction.card_abstraction import build_card_abstraction
from gamesolve_nlth.abstraction.presets import PRESETS
ab = build_card_abstraction(PRESETS[sys.argv[1]], cache_dir=sys.argv[3], threads=int(sys.argv[2]), force=True)
r = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"rate": 1.0 / ab.attrs["build_seconds"], "build_seconds": ab.attrs["build_seconds"],
                  "stage_seconds": ab.attrs["stage_seconds"], "cpu_seconds": r.ru_utime + r.ru_stime,
                  "peak_rss_gb": r.ru_maxrss / 2**20, "load_average": os.getloadavg()[0], "path": str(ab.path)}))
"""


SEARCH_PROBE = r"""
import json, sys, time
sys.meta_path = [f for f in sys.meta_path if "__editable__" not in getattr(f, "__module__", "")]
from click.testing import CliRunner
from gamesolve.cli import cli
store, hands = sys.argv[1], sys.argv[2]
search = f"search:store={store}:seconds=0:iterations=100:mccfr_iterations=20000"
agents = ",".join([search] + [f"blueprint:store={store}"] * 5)
cpu = time.process_time()
out = CliRunner().invoke(cli, ["match", "--game", "nlth", "--hands", hands, "--seed", "3", "--json", "--agents", agents])
if out.exit_code:
    raise SystemExit(out.output[-2000:])
result = json.loads(out.output[out.output.index("{"):])
latency = result["agents"][0]["latency"].get("searched")
if latency is None:
    raise SystemExit("the search agent searched no decision: play more --hands")
print(json.dumps({"rate": 1.0 / latency["median"], "median": latency["median"], "p95": latency["p95"],
                  "decisions": latency["decisions"], "cpu_seconds": time.process_time() - cpu}))
"""


CORE_SEARCH_PROBE = r"""
import json, sys, time
sys.meta_path = [f for f in sys.meta_path if "__editable__" not in getattr(f, "__module__", "")]
from click.testing import CliRunner
from gamesolve.cli import cli
game, store = sys.argv[1], sys.argv[2]
cpu = time.process_time()
out = CliRunner().invoke(cli, ["exploitability", "--game", game, "--store", store, "--search", "--json"])
if out.exit_code:
    raise SystemExit(out.output[-2000:])
result = json.loads(out.output[out.output.index("{"):])
seconds = time.process_time() - cpu
print(json.dumps({"rate": 1.0 / seconds, "cpu_seconds": seconds, "searches": result["search"]["searches"],
                  "exploitability": result["exploitability"]}))
"""

#: the cfr+ iterations of ``--what core-search``'s blueprint per game
CORE_SEARCH_BLUEPRINTS = {"kuhn": 30, "leduc": 50, "liars_dice": 30}


def train_core_blueprint(tmp: Path, game: str) -> str:
    out = tmp / f"{game}.zarr"
    subprocess.run([sys.executable, "-m", "gamesolve.cli", "solve", "--game", game, "--iterations", str(CORE_SEARCH_BLUEPRINTS[game]),
                    "--out", str(out), "--json"], check=True, capture_output=True)  # fmt: skip
    return str(out)


def train_search_blueprint(tmp: Path) -> str:
    """The six-player ``tiny`` blueprint both trees' search matches play over (this checkout trains it)."""
    out = tmp / "bp6"
    subprocess.run([sys.executable, "-m", "gamesolve.cli", "solve", "--game", "nlth", "--iterations", "200000",
                    "--seed", "0", "--out", str(out), "--json"], check=True, capture_output=True)  # fmt: skip
    return str(out)


def same_abstractions(a: str, b: str) -> list[str]:
    """Names of the arrays and attributes that differ between two abstraction folders."""
    import numpy as np
    import zarr

    ga, gb = zarr.open_group(a, mode="r"), zarr.open_group(b, mode="r")
    names = sorted(set(ga.array_keys()) | set(gb.array_keys()))
    differ = [n for n in names if n not in ga or n not in gb or not np.array_equal(ga[n][...], gb[n][...])
              or ga[n].dtype != gb[n].dtype]  # fmt: skip
    return differ + [k for k in ("quality", "num_buckets", "params", "hash") if ga.attrs[k] != gb.attrs[k]]


def tree_path(tree: Path) -> str:
    return ":".join(str(tree / p) for p in (".", "plugins/kuhn", "plugins/leduc", "plugins/nlth", "plugins/liars_dice"))


def run_probe(tree: Path, probe: str, args: list[str]) -> dict:
    env = {**os.environ, "PYTHONPATH": tree_path(tree)}
    out = subprocess.run([sys.executable, "-c", probe, *args], env=env, cwd=tree, capture_output=True, text=True)
    if out.returncode:
        raise SystemExit(f"the probe failed in {tree}:\n{out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", default="HEAD~1", help="the commit to compare against (default HEAD~1)")
    parser.add_argument("--game", choices=("nlth", "leduc", "liars_dice", "kuhn"), default="nlth",
                        help="the game (kuhn: --what core-search only)")
    parser.add_argument("--preset", default="tiny", help="nlth's abstraction preset")
    parser.add_argument("--iterations", type=int, default=300_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--what", choices=("mccfr", "tabular", "spot", "abstraction", "search", "core-search"), default="mccfr",
                        help="MCCFR training, tabular CFR+, the spot benchmark's solve, a card abstraction build, six-player "
                             "search latency or the core search agent's composition")  # fmt: skip
    parser.add_argument("--hands", type=int, default=40, help="--what search: hands of the match")
    parser.add_argument("--street", choices=("river", "turn", "flop"), default="turn", help="--what spot: the street")
    parser.add_argument("--threads", type=int, default=None,
                        help="solver threads (--what spot: default 2; --what mccfr: default 1, rates per CPU second, else per wall second)")
    parser.add_argument("--actions", type=Path, default=None,
                        help="--what mccfr --game nlth: an action abstraction TOML both trees train on instead of the "
                             "preset's (the same betting tree where the preset's changed between the commits)")
    args = parser.parse_args()
    if args.actions and (args.what, args.game) != ("mccfr", "nlth"):
        parser.error("--actions applies to --what mccfr --game nlth")
    if args.actions:
        from gamesolve_nlth.betting.action_abstraction import AbstractionError, action_abstraction

        try:  # refused here in one line, before a worktree is made and a probe fails in it
            action_abstraction(str(args.actions))
        except AbstractionError as exc:
            parser.error(f"--actions: {exc}")
    if args.what == "tabular" and args.game == "nlth":
        parser.error("--what tabular runs on --game leduc or liars_dice")
    if args.what == "core-search" and args.game not in CORE_SEARCH_BLUEPRINTS:
        parser.error("--what core-search runs on --game kuhn, leduc or liars_dice")
    if args.what != "core-search" and args.game == "kuhn":
        parser.error("--game kuhn runs with --what core-search only")
    probe, probe_args = {
        "mccfr": (PROBE, [args.preset, str(args.iterations), args.game, str(args.threads or 1),
                          str(args.actions.resolve()) if args.actions else ""]),
        "tabular": (TABULAR_PROBE, [args.game, str(args.iterations)]),
        "spot": (SPOT_PROBE, [args.street, str(args.threads or 2)]),
        "abstraction": (ABSTRACTION_PROBE, [args.preset, str(args.threads or 2)]),
        "search": (SEARCH_PROBE, []),
        "core-search": (CORE_SEARCH_PROBE, []),
    }[args.what]
    with tempfile.TemporaryDirectory() as tmp:
        if args.what == "search":
            probe_args = [train_search_blueprint(Path(tmp)), str(args.hands)]
        if args.what == "core-search":
            probe_args = [args.game, train_core_blueprint(Path(tmp), args.game)]
        if args.what == "abstraction":
            return compare_abstraction_builds(args, probe, probe_args, Path(tmp))
        base = Path(tmp) / "base"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(base), args.base], check=True, capture_output=True)
        try:
            ratios = []
            if args.what == "spot":
                print("| round | tree | iterations | solver s | CPU s | exploitability (% pot) | load |")
                print("|---|---|---:|---:|---:|---:|---:|")
            elif args.what == "search":
                print("| round | tree | searched decisions | median s | p95 s | match CPU s |")
                print("|---|---|---:|---:|---:|---:|")
            elif args.what == "core-search":
                print("| round | tree | CPU s | searches | exploitability |")
                print("|---|---|---:|---:|---|")
            else:
                unit = "it/CPU s" if args.what != "mccfr" or (args.threads or 1) == 1 else "it/s"
                print(f"| round | {args.base} {unit} | this checkout {unit} | ratio |")
                print("|---|---:|---:|---:|")
            if args.what == "core-search":  # compile both trees' kernels first (the figures are of warm runs)
                run_probe(base, probe, probe_args), run_probe(ROOT, probe, probe_args)
            for r in range(args.rounds):
                old = run_probe(base, probe, probe_args)
                new = run_probe(ROOT, probe, probe_args)
                ratios.append(new["rate"] / old["rate"])
                if args.what == "spot":
                    for name, row in ((args.base, old), ("this checkout", new)):
                        print(f"| {r + 1} | {name} | {row['iterations']} | {row['solver_seconds']:.2f} | "
                              f"{row['solver_cpu_seconds']:.2f} | {row['exploitability_pct_pot']:.3f} | {row['load_average']} |", flush=True)
                elif args.what == "search":
                    for name, row in ((args.base, old), ("this checkout", new)):
                        print(f"| {r + 1} | {name} | {row['decisions']} | {row['median']:.3f} | {row['p95']:.3f} | "
                              f"{row['cpu_seconds']:.1f} |", flush=True)
                elif args.what == "core-search":
                    for name, row in ((args.base, old), ("this checkout", new)):
                        print(f"| {r + 1} | {name} | {row['cpu_seconds']:.2f} | {row['searches']} | {row['exploitability']!r} |", flush=True)
                else:
                    if old["nodes"] != new["nodes"]:
                        raise SystemExit(f"the trees train different games: {old['nodes']:,} and {new['nodes']:,} nodes")
                    print(f"| {r + 1} | {old['rate']:,.0f} | {new['rate']:,.0f} | {new['rate'] / old['rate']:.3f} |", flush=True)
            what = {"spot": "speed (1 / solver seconds)", "search": "speed (1 / median seconds per searched decision)",
                    "core-search": "speed (1 / processor seconds)"}.get(args.what, "rate")  # fmt: skip
            print(f"\nmedian {what} ratio (this checkout / {args.base}): {statistics.median(ratios):.3f}")
            if args.what == "mccfr":
                print(f"both trees trained the same game: {new['nodes']:,} public nodes")
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base)], capture_output=True)


def compare_abstraction_builds(args, probe: str, probe_args: list[str], tmp: Path) -> None:
    base = tmp / "base"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(base), args.base], check=True, capture_output=True)
    try:
        print("| round | tree | build s | river / turn / flop s | CPU s | peak RSS GB | load |")
        print("|---|---|---:|---:|---:|---:|---:|")
        ratios, paths = [], {}
        for r in range(args.rounds):
            rows = {}
            for name, tree in ((args.base, base), ("this checkout", ROOT)):
                cache = tmp / f"cache-{r}-{'base' if tree == base else 'this'}"
                rows[name] = row = run_probe(tree, probe, [*probe_args, str(cache)])
                paths[name] = row["path"]
                st = row["stage_seconds"]
                print(f"| {r + 1}{' (compiles)' if r == 0 else ''} | {name} | {row['build_seconds']:.1f} | "
                      f"{st['river']:.1f} / {st['turn']:.1f} / {st['flop']:.1f} | {row['cpu_seconds']:.1f} | "
                      f"{row['peak_rss_gb']:.2f} | {row['load_average']:.1f} |", flush=True)
            if r > 0 or args.rounds == 1:
                ratios.append(rows["this checkout"]["rate"] / rows[args.base]["rate"])
        print(f"\nmedian speed ratio (1 / build seconds, this checkout / {args.base}): {statistics.median(ratios):.3f}")
        differ = same_abstractions(paths[args.base], paths["this checkout"])
        print("the two builds are identical (every array, quality figures)" if not differ else f"DIFFERENT: {differ}")
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base)], capture_output=True)


if __name__ == "__main__":
    main()
