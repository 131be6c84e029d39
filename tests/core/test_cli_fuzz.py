"""Fuzzing the command line (hypothesis): over the options of every command, good values and
bad, no input ends in a traceback, and every rejection is one ``Error:`` line with exit 2.

Each case runs in-process (CliRunner) and is cheap: budgets are tiny (a few iterations, a
few milliseconds, a few hands) and the few steps that would start minutes of work (building
a card abstraction, compiling an NLTH betting tree, counting a big preset's tree) are
replaced by a stand-in that raises :class:`WorkStarted`: reaching one means every option was
accepted before the work began, which is the property checked. Caches and stores live in a
temporary folder. Cases are derandomized: CI runs the same 680 every time (1,360 under -m slow).

The newer commands' long steps are stand-ins too: LBR's hands, the preflop equity table,
open-spiel's curve, an ACPC dealer waiting for clients and a client connecting, the web
server (``serve`` binds its address once, then stops where uvicorn would start). An
``openspiel:`` game's tree is refused above 200,000 nodes. Cases run in a scratch working
folder (``play``, ``serve`` and ``acpc dealer`` write there by default).
``test_the_fuzz_reaches_every_command_in_help`` fails on a command `gamesolve --help` lists
(plugins' commands and groups' subcommands included) that no case runs.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from unittest import mock

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gamesolve_kuhn.plugin
import gamesolve_leduc.plugin
from gamesolve import cli as cli_module
from gamesolve.cli import cli
from gamesolve.plugins import make_plugin_manager
from gamesolve_nlth import plugin as nlth_plugin


class WorkStarted(Exception):
    """A long step began: everything before it, validation included, passed."""


def fuzz_settings(examples: int):
    return settings(max_examples=examples, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])  # fmt: skip


@pytest.fixture(scope="module")
def place(tmp_path_factory):
    """A folder with everything the options may name: stores, a user's folder, a file."""
    root = tmp_path_factory.mktemp("fuzz")
    host = make_plugin_manager(strict=True, entry_points=False,
                               plugins=[gamesolve_kuhn.plugin, gamesolve_leduc.plugin, nlth_plugin])  # fmt: skip
    (root / "mine").mkdir()
    (root / "mine" / "notes.txt").write_text("mine")
    (root / "file.txt").write_text("a file")
    (root / "empty").mkdir()
    # fresh outputs go here (_fresh): export writes a file and, rightly, not its missing folder,
    # so a run where export's cases came before any command that made it failed (an order race)
    (root / "new").mkdir()
    (root / "cache").mkdir()
    (root / "numba").mkdir()
    with mock.patch.object(cli_module, "plugin_host", lambda dirs=(): host):
            # kuhn and leduc are read by exploitability and match; solve's --force and --resume get
        # stores of their own (replaced by whatever a case solves)
        for args in (["solve", "--game", "kuhn", "--iterations", "5", "--out", root / "kuhn"],
                     ["solve", "--game", "leduc", "--algo", "mccfr", "--iterations", "300", "--out", root / "leduc"],
                     ["solve", "--game", "kuhn", "--iterations", "5", "--out", root / "solve-kuhn"],
                     ["solve", "--game", "leduc", "--algo", "mccfr", "--iterations", "300", "--out", root / "solve-leduc"]):  # fmt: skip
            assert CliRunner().invoke(cli, [str(a) for a in args]).exit_code == 0
        # export, import and plot read these: an open-spiel policy store and its table, a match's result
        for args in (["solve", "--game", "openspiel:kuhn_poker", "--algo", "cfr+", "--iterations", "5", "--out", root / "os-kuhn"],
                     ["export", "--store", root / "os-kuhn", "--format", "openspiel", "--out", root / "os-kuhn.json"]):  # fmt: skip
            assert CliRunner().invoke(cli, [str(a) for a in args]).exit_code == 0
        result = CliRunner().invoke(cli, ["match", "--game", "kuhn", "--agents", f"policy:store={root / 'kuhn'},policy:store={root / 'kuhn'}",
                                          "--hands", "4", "--json"])  # fmt: skip
        assert result.exit_code == 0
        (root / "match.json").write_text(result.stdout.strip().splitlines()[-1])
    for name, text in {"bare.json": '{"kuhn_poker": 1}', "list.json": "[]", "junk.json": "not json", "cut.json": (root / "os-kuhn.json").read_text()[:50],
                       **{f"{name}.json": re.sub(r"\d\.\d+(e-?\d+)?", value, (root / "os-kuhn.json").read_text(), count=1)
                          for name, value in {"nan": "NaN", "negative": "-0.5", "above-one": "7.5", "infinite": "Infinity"}.items()}}.items():  # fmt: skip
        (root / name).write_text(text)
    (root / "cwd").mkdir()  # the working folder of every case: play, serve and acpc dealer write there by default
    return root, host


@pytest.fixture
def invoke(place, monkeypatch):
    """Run one command line; return the result after checking the property."""
    root, host = place
    monkeypatch.setattr(cli_module, "plugin_host", lambda dirs=(): host)
    monkeypatch.setenv("GAMESOLVE_CACHE_DIR", str(root / "cache"))
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(root / "numba"))  # `cache clear` deletes only this
    from gamesolve_nlth.abstraction import card_abstraction
    from gamesolve_nlth.betting import info
    from gamesolve_nlth.blueprint import form

    def started(*args, **kwargs):
        raise WorkStarted

    monkeypatch.setattr(card_abstraction, "_build", started)  # minutes: a card abstraction
    monkeypatch.setattr(form, "nlth_form", started)  # seconds: the NLTH betting tree
    from gamesolve_nlth.blueprint import memory

    estimates: dict = {}
    real_estimate = memory.estimate_memory

    def estimate_once(preset, *args, **kwargs):  # the same figure each time: computed once per case kind
        if preset.name == "pluribus":
            started()  # tens of seconds: counting the big tree
        key = (preset.name, *args[:4])  # game and table, not the progress bar or the limit
        if key not in estimates:
            try:
                estimates[key] = real_estimate(preset, *args, **kwargs)
            except ValueError as exc:  # the count passed its limit: a refusal, the same each time
                estimates[key] = exc
        if isinstance(estimates[key], Exception):
            raise estimates[key]
        return estimates[key]

    monkeypatch.setattr(memory, "estimate_memory", estimate_once)
    real_info = functools.lru_cache(maxsize=None)(info.tree_info)
    monkeypatch.setattr(info, "tree_info", lambda preset, players=6, progress=None:
                        real_info(preset, players) if preset == "tiny" else started())  # fmt: skip
    # the newer commands' long steps: playing LBR's hands, ten CPU minutes of preflop equity,
    # open-spiel's own solver run, a dealer waiting for its clients, a client reaching a dealer,
    # a web server (none of them is started: no socket is opened, nothing keeps running)
    import uvicorn

    from gamesolve.evaluate import lbr
    from gamesolve.game import explicit_tree
    from gamesolve.plot import openspiel_curve
    from gamesolve_nlth.acpc import client, dealer
    from gamesolve_nlth.evaluate import preflop

    monkeypatch.setattr(lbr, "play_match", started)
    monkeypatch.setattr(preflop, "build_preflop_table", started)
    monkeypatch.setattr(openspiel_curve, "openspiel_curve", started)
    monkeypatch.setattr(dealer.Dealer, "run", started)
    monkeypatch.setattr(client, "connect", started)
    monkeypatch.setattr(uvicorn, "run", started)
    # an openspiel: game's tree is walked up to 50M nodes before it is refused: 200,000 here
    monkeypatch.setattr(explicit_tree.compile_explicit_tree, "__defaults__", (200_000, None))
    monkeypatch.chdir(root / "cwd")
    count = {"cases": 0}

    def run(args: list | tuple) -> None:
        count["cases"] += 1
        args, stdin = args if isinstance(args, tuple) else (args, None)  # (command line, what the person types)
        args = [str(a) for a in args]
        result = CliRunner().invoke(cli, args, input=stdin)
        if isinstance(result.exception, WorkStarted):
            count["work started"] = count.get("work started", 0) + 1
            return
        count[f"exit {result.exit_code}"] = count.get(f"exit {result.exit_code}", 0) + 1
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise AssertionError(f"{args}: {type(result.exception).__name__}: {result.exception}\n{result.output}") from result.exception
        assert "Traceback" not in result.output, (args, result.output)
        if result.exit_code != 0:
            errors = [line for line in result.stderr.splitlines() if line.startswith("Error")]
            assert result.exit_code == 2, (args, result.exit_code, result.output)
            assert len(errors) == 1 and result.stderr.strip().splitlines()[-1] == errors[0], (args, result.stderr)

    run.count = count
    return run


# -- cases: a valid command line, then (half the time) one or two mutations ------------------------
# Independent random values for a dozen options would make nearly every case a rejection by
# the first bad one; starting valid keeps about half the cases running for real (or up to the
# stand-in for long work), and the mutations check that each kind of bad value is caught.
JUNK = ["", "many", "1e3", "0x10", "3.5", "-0", "nan", "inf", "-inf", "1" * 25, " 7 ", "\u00bd", "None", "--json", "-1", "0"]
BAD = {  # option -> values that must be refused (quickly: never a long run)
    "--game": ["chess", "", "KUHN"],
    "--algo": ["magic", "", "CFR"],
    "--iterations": JUNK,
    "--minutes": ["0", "-1", "nan", "inf", "abc", "1e400", ""],
    "--players": ["1", "11", "-1", "x", ""],
    "-p": ["players=x", "players=1", "deck=3", "abstraction=bogus", "=", "x", "stacks=-5", "big_blind=0", "small_blind=abc",
           "button=99", "players=11"],
    "--out": None,  # filled with paths of the work folder
    "--checkpoint": ["0s", "-1m", "500", "abc", "1e999m", ""],
    "--seed": ["-1", str(2**33), "x"],
    "--threads": ["0", "-1", "300", "x"],
    "--preset": ["nope", "pluribus", ""],
    "-o": ["prune_probability=1.5", "prune_probability=-0.1", "prune_probability=nan", "discount_interval=0", "discount_interval=0s",
           "strategy_interval=1e999", "checkpoint=0", "prune=true", "average=bogus", "regret_scale=-1", "regret_scale=inf",
           "unknown=1", "prune_below=abc", "regret_floor=1e400", "=", "x"],
    "--store": None,
    "--policy": ["best", ""],
    "-s": ["k=0", "k=9", "iterations=0", "iterations=abc", "depth=soon", "play=x", "bias_factor=nan", "colour=red", "rollouts=0"],
    "--agents": ["", ",", "nonsense,call", "tag:cbet=1.5,call", "tag:samples=0,call", "random:sizes=x,call", "call:x=1,call",
                 "policy:store,call", "blueprint,call"],
    "--hands": JUNK,
    "--hh": None,
    "--workers": ["0", "99", "x", "-1"],
}
EXTRA = [("--bogus", None), ("--resume", None), ("--force", None), ("--json", None), ("-p", "players=2"), ("--checkpoint", "1s"),
         ("extra", None), ("--search", None), ("-s", "k=1")]  # fmt: skip


@st.composite
def mutated(draw, pairs: list, bad: dict) -> list[str]:
    """``pairs`` (option, value or None for a flag) as a command line, after zero (half the
    time), one or two mutations: a value made bad, an option added, an option dropped."""
    pairs = list(pairs)
    for _ in range(draw(st.sampled_from([0, 0, 0, 0, 1, 1, 1, 2]))):
        kind = draw(st.sampled_from(["bad value", "bad value", "extra", "drop"]))
        valued = [i for i, (opt, v) in enumerate(pairs) if v is not None and bad.get(opt)]
        if kind == "bad value" and valued:
            i = draw(st.sampled_from(valued))
            pairs[i] = (pairs[i][0], draw(st.sampled_from(bad[pairs[i][0]])))
        elif kind == "drop" and len(pairs) > 1:
            pairs.pop(draw(st.integers(1, len(pairs) - 1)))
        else:
            pairs.append(draw(st.sampled_from(EXTRA)))
    return [str(x) for opt, v in pairs for x in ((opt,) if v is None else (opt, v))]


def pick(draw, values):
    return draw(st.sampled_from(values))


def some(draw, option: str, values) -> list:
    """Half the time no such option; else one of ``values``."""
    return [(option, pick(draw, values))] if draw(st.booleans()) else []


def flag(draw, option: str) -> list:
    return [(option, None)] if draw(st.booleans()) else []


def bad_with_paths(root: Path) -> dict:
    paths = [root / "mine", root / "file.txt", root / "file.txt" / "x", root / "mine" / "notes.txt", "", root / "missing" / "deep"]
    return {**BAD, "--out": paths, "--store": paths + [root / "empty"], "--hh": paths}


def _fresh(root: Path, counter=iter(range(10**9))) -> Path:
    return root / "new" / f"out-{next(counter)}"


@st.composite
def solve_args(draw, root: Path):
    game = pick(draw, ["kuhn", "kuhn", "leduc", "leduc", "nlth"])
    sampling = game == "nlth" or draw(st.booleans())
    algo = pick(draw, ["mccfr", "mccfr-p"]) if sampling else pick(draw, ["cfr", "cfr+", "lcfr", "dcfr"])
    pairs = [("solve", None), ("--game", game)]
    pairs += [] if (game == "nlth" and algo == "mccfr-p" and draw(st.booleans())) else [("--algo", algo)]
    if sampling:
        budget = pick(draw, [["--iterations"], ["--minutes"], ["--iterations", "--minutes"]])
        pairs += [("--iterations", str(draw(st.integers(1, 300))))] if "--iterations" in budget else []
        pairs += [("--minutes", pick(draw, ["0.0005", "0.001"]))] if "--minutes" in budget else []
        pairs += some(draw, "--checkpoint", ["1s", "10m", "off"]) + some(draw, "--threads", ["1", "2"])
        pairs += [("-o", o) for o in draw(st.lists(st.sampled_from(["prune_probability=0.5", "discount_interval=10", "average=sampled",
                                                                      "snapshot_start=5", "lcfr_threshold=off"]), max_size=2, unique=True))]  # fmt: skip
    else:
        pairs += [("--iterations", str(draw(st.integers(1, 20))))]
    players = {"kuhn": ["2", "3", "4"], "leduc": ["2"], "nlth": ["2", "6", "9"]}[game]
    if draw(st.booleans()):
        pairs += [pick(draw, [("--players", pick(draw, players)), ("-p", f"players={pick(draw, players)}")])]
    if game == "leduc":
        pairs += some(draw, "-p", ["abstraction=rank"])
    if game == "nlth":
        pairs += some(draw, "-p", ["stacks=10000", "big_blind=100"]) + some(draw, "--preset", ["tiny", "small"])
    where = pick(draw, ["none", "none", "none", "fresh", "replace", "resume"])
    if where == "fresh":
        pairs += [("--out", _fresh(root))]
    elif where == "replace":  # a store of this solver's kind, with --force
        pairs += [("--out", root / ("solve-leduc" if sampling else "solve-kuhn")), ("--force", None)]
    elif where == "resume" and sampling:
        pairs = [("solve", None), ("--out", root / "solve-leduc"), ("--resume", None), ("--iterations", str(draw(st.integers(1, 300))))]
    pairs += some(draw, "--seed", ["0", "1", "5"]) + flag(draw, "--json")
    return draw(mutated(pairs, bad_with_paths(root)))


@st.composite
def exploitability_args(draw, root: Path):
    store, game = pick(draw, [(root / "kuhn", "kuhn"), (root / "leduc", "leduc")])
    pairs = [("exploitability", None), ("--game", game), ("--store", store)]
    pairs += some(draw, "--policy", ["average", "current"]) + some(draw, "--players", ["2"]) + flag(draw, "--json")
    if game == "kuhn":  # search over every Leduc infoset takes seconds: Kuhn's is instant
        pairs += flag(draw, "--search") + [("-s", o) for o in draw(st.lists(st.sampled_from(["k=1", "k=4", "iterations=5",
                                                                                            "play=average"]), max_size=2, unique=True))]  # fmt: skip
        if any(o == "-s" for o, _ in pairs) and ("-s", "iterations=5") not in pairs:
            pairs.append(("-s", "iterations=5"))
    bad = {**bad_with_paths(root), "-p": BAD["-p"]}
    if game == "leduc":
        bad = {**bad, "-s": []}
    return draw(mutated(pairs, bad))


@st.composite
def match_args(draw, root: Path):
    game = pick(draw, ["kuhn", "kuhn", "nlth", "nlth", "leduc"])
    if game == "nlth":
        agents = draw(st.lists(st.sampled_from(["call", "tag", "random", "tag:cbet=0.5", "random:sizes=uniform"]), min_size=2, max_size=4))
    else:
        store = root / game if game == "kuhn" else root / "leduc"
        agents = [f"policy:store={store}", pick(draw, [f"policy:store={store}", f"policy:store={store}:policy=current"])]
    pairs = [("match", None), ("--game", game), ("--agents", ",".join(agents)), ("--hands", str(draw(st.integers(1, 8))))]
    pairs += some(draw, "--seed", ["0", "3"]) + some(draw, "--players", [str(len(agents))]) + flag(draw, "--json")
    pairs += some(draw, "--workers", ["1", "2"]) if draw(st.integers(0, 9)) == 0 else []  # forks: now and then
    if game == "nlth" and draw(st.booleans()):
        target = pick(draw, [_fresh(root), _fresh(root).with_suffix(".phhs")])
        pairs += [("--hh", target)] + flag(draw, "--force")
    return draw(mutated(pairs, bad_with_paths(root)))


@st.composite
def other_args(draw, root: Path):
    store_path = [root / "kuhn", root / "leduc", root / "mine", root / "file.txt", root / "missing", root / "empty", ""]
    junk_option = st.sampled_from([[], [], [], ["--bogus"], ["--json", "--json"], ["extra"]])
    command = pick(draw, ["games", "agents", "plugins", "cache", "bench", "store", "abstraction build", "abstraction quality",
                          "abstraction info", "abstraction equity", "version", "help"])  # fmt: skip
    if command in ("games", "agents", "plugins"):
        return [command, *(["--json"] if draw(st.booleans()) else []), *draw(junk_option)]
    if command == "cache":
        return ["cache", "clear", *(["--all"] if draw(st.booleans()) else []), *(["--json"] if draw(st.booleans()) else []), *draw(junk_option)]
    if command == "bench":
        return ["bench", *pick(draw, [[], ["cfr"], ["mccfr"]]), *pick(draw, [[], ["--game", "kuhn"], ["--game", "leduc"], ["--game", "nlth"],
                                                                             ["--game", "chess"]]),
                # always --iterations: the default, 200, takes seconds of open-spiel on Leduc
                "--iterations", pick(draw, ["0", "-1", "1", "2", "x", "2000000"]), *(["--json"] if draw(st.booleans()) else [])]  # fmt: skip
    if command == "store":
        return ["store", *pick(draw, [["check"], ["check"], ["fix"], []]), *pick(draw, [[], *[[p] for p in store_path]]),
                *(["--quick"] if draw(st.booleans()) else []), *(["--json"] if draw(st.booleans()) else [])]  # fmt: skip
    if command.startswith("abstraction"):
        sub = command.split()[1]
        args = ["abstraction", sub, *pick(draw, [[], ["--preset", "tiny"], ["--preset", "small"], ["--preset", "pluribus"], ["--preset", "nope"]])]
        if sub == "info":
            players = pick(draw, [[], ["--players", "2"], ["--players", "6"], ["--players", "1"], ["--players", "12"], ["--players", "x"]])
            return args + players + pick(draw, [[], ["--json"]])
        args += pick(draw, [[], ["--cache-dir", root / "cache"], ["--cache-dir", root / "file.txt"], ["--cache-dir", root / "new-cache"]])
        if sub == "equity":  # no preset; the build (ten CPU minutes) is a stand-in
            args = ["abstraction", "equity", *pick(draw, [[], ["--cache-dir", root / "cache"], ["--cache-dir", root / "file.txt"]])]
            return [str(a) for a in args + pick(draw, [[], ["--threads", "1"], ["--threads", "0"]]) + pick(draw, [[], ["--force"], ["--json"]])]
        if sub == "build":
            args += pick(draw, [[], ["--threads", "1"], ["--threads", "0"], ["--threads", "x"]]) + pick(draw, [[], ["--force"]])
            args += pick(draw, [[], ["--quiet"]])
        else:
            args += pick(draw, [[], ["--build"]])
        return [str(a) for a in args + pick(draw, [[], ["--json"]])]
    if command == "version":
        return ["--version"]
    return [*pick(draw, [[], ["solve"], ["match"], ["bench"], ["store", "check"], ["cache", "clear"], ["store"], ["cache"]]), "--help"]


# -- the newer commands -------------------------------------------------------------------------
def _paths(root: Path) -> list:
    """Paths that name nothing usable: a user's folder, a file, below a file, a user's file, nothing, a missing folder."""
    return [root / "mine", root / "file.txt", root / "file.txt" / "x", root / "mine" / "notes.txt", "", root / "missing" / "deep"]


FLOATS = ["0", "-1", "nan", "inf", "-inf", "x", "", "1e400"]
RANGES = ["", "ZZ", "AA:2", "AA:-1", "AA:nan", "A", "22-", ",,", "AKx", "AA:0", "T9s-", "AsAs"]
SIZES = ["", "0%", "-50%", "flop=", "river=nan%", "abc", "1e999%", "flop=50% flop=50%", "moon=50%", ",", "50", "inf%"]


@st.composite
def spot_args(draw, root: Path):
    """``spot`` on a turn or river (a flop's tree and numba's first compile take seconds): two iterations."""
    pairs = [("spot", None), ("--board", pick(draw, ["QsJh2h8d3c", "QsJh2h8d", "Ks7d2c4h5s"])),
             ("--oop-range", pick(draw, ["AA,KK", "22+,A2s+", "QQ+:0.5", "AKs"])), ("--ip-range", pick(draw, ["AK", "TT+,AQs", "KQ"])),
             ("--max-iterations", pick(draw, ["1", "2"])), ("--threads", "1")]  # fmt: skip
    pairs += some(draw, "--pot", ["1000", "200"]) + some(draw, "--stack", ["9000", "500"]) + some(draw, "--bets", ["50%", "river=33%,allin"])
    pairs += some(draw, "--raises", ["100%", "allin"]) + some(draw, "--allin-threshold", ["0.67", "1"]) + some(draw, "--raise-cap", ["0", "2"])
    pairs += some(draw, "--target", ["0.5%", "5%"]) + some(draw, "--seconds", ["5"]) + some(draw, "--check-every", ["1", "10"])
    pairs += some(draw, "--line", ["check", "check,bet 500", "check,check", "bet 500,call", "check,check,Kd"]) + flag(draw, "--json")
    bad = {"--board": ["", "QsQs2h8d", "Xx2h3h", "QsJh", "QsJh2h8d3c4c", "qsjh2h8d", "10h9h8h7h", "QsJh2h8dQs"],
           "--oop-range": RANGES, "--ip-range": RANGES, "--pot": ["7", "9", "-1", "x", "0", "1" * 25], "--stack": ["0", "x", "-5", "1" * 25],
           "--bets": SIZES, "--raises": SIZES, "--allin-threshold": ["0", "1.5", *FLOATS], "--raise-cap": ["-1", "x"],
           "--target": ["0%", "-1%", "abc", "nan%", "inf%", "", "%", "1e999%"], "--max-iterations": ["0", "x", "-1"],
           "--threads": ["0", "x"], "--seconds": FLOATS, "--check-every": ["0", "x"],
           "--line": ["", ",", "raise 99999", "bet x", "check,,call", "Zz", "check,check,Qs", "fold,fold,fold", "bet -5", "bet 1e999"]}  # fmt: skip
    return draw(mutated(pairs, bad))


@st.composite
def lbr_args(draw, root: Path):
    """``lbr``: everything up to playing the hands (a stand-in)."""
    pairs = [("lbr", None), ("--game", pick(draw, ["nlth", "nlth", "kuhn"])), ("--agent", pick(draw, ["tag", "call", "random",
             f"blueprint:store={root / 'kuhn'}", f"policy:store={root / 'kuhn'}"])), ("--hands", pick(draw, ["2", "10"]))]  # fmt: skip
    pairs += some(draw, "-p", ["players=2", "players=3"]) + some(draw, "--players", ["2", "6"]) + some(draw, "--seed", ["0", "7"])
    pairs += [("-o", o) for o in draw(st.lists(st.sampled_from(["sizes=fc", "sizes=fcpa", "preflop=call", "preflop=lbr", "sizes=0.5,1/1/1/1"]),
                                               max_size=2, unique=True))]  # fmt: skip
    pairs += some(draw, "--workers", ["1", "2"]) + flag(draw, "--json")
    bad = {**BAD, "--agent": ["", "nonsense", "tag:cbet=1.5", "blueprint", f"blueprint:store={root / 'mine'}", "call:x=1", ":"],
           "-o": ["sizes=", "sizes=x", "sizes=0.5,1/1", "sizes=-1", "sizes=nan", "preflop=maybe", "colour=red", "=", "x", "sizes=1e999"],
           "--workers": ["0", "65", "x"]}  # fmt: skip
    return draw(mutated(pairs, bad))


@st.composite
def plot_args(draw, root: Path):
    """``plot`` of stores and a match's result, to fresh .png and .html files; open-spiel's curve is a stand-in."""
    inputs = pick(draw, [[root / "kuhn"], [root / "leduc"], [root / "kuhn", root / "os-kuhn"], [root / "match.json"], [root / "kuhn", root / "leduc"]])
    pairs = [("plot", None), *[(str(i), None) for i in inputs], ("--out", _fresh(root).with_suffix(pick(draw, [".png", ".html", ".html"])))]
    pairs += some(draw, "--kind", ["auto", "exploitability", "training", "match", "strategy"]) + some(draw, "--title", ["a title", ""])
    pairs += some(draw, "--openspiel", ["cfr", "cfr+", "mccfr"]) + some(draw, "--openspiel-seconds", ["1", "0.5"])
    bad = {"--out": [*_paths(root), root / "x.pdf", root / "mine" / "x.png" / "y.png", root / "mine.png", root / "file.txt"],
           "--kind": ["", "pie", "AUTO"], "--openspiel": ["", "dcfr"], "--openspiel-seconds": FLOATS, "--title": ["\x00"]}  # fmt: skip
    pairs += [(str(pick(draw, [root / "mine", root / "file.txt", root / "missing", root / "junk.json", root / "empty"])), None)] if draw(st.integers(0, 4)) == 0 else []  # fmt: skip
    return draw(mutated(pairs, bad))


@st.composite
def export_args(draw, root: Path):
    pairs = [("export", None), ("--store", pick(draw, [root / "os-kuhn", root / "os-kuhn", root / "kuhn"])), ("--format", "openspiel"),
             ("--out", pick(draw, [_fresh(root).with_suffix(".json"), root / "os-kuhn.json"]))]  # fmt: skip
    pairs += some(draw, "--policy", ["average", "current"]) + flag(draw, "--force") + flag(draw, "--json")
    bad = {"--store": [*_paths(root), root / "empty", root / "leduc"], "--format": ["", "acpc", "OPENSPIEL"], "--policy": ["best", ""],
           "--out": [*_paths(root), root / "kuhn", root / "match.json"]}  # fmt: skip
    return draw(mutated(pairs, bad))


@st.composite
def import_args(draw, root: Path):
    source = pick(draw, [*[root / "os-kuhn.json"] * 8, root / "bare.json", root / "list.json", root / "junk.json", root / "cut.json",
                         root / "nan.json", root / "negative.json", root / "above-one.json", root / "infinite.json", root / "missing.json", root / "mine"])  # fmt: skip
    pairs = [("import", None), (str(source), None), ("--format", "openspiel")]
    pairs += [("--out", _fresh(root))] if draw(st.booleans()) else [("--out", root / "os-import"), ("--force", None)]  # a store it wrote before
    pairs += some(draw, "--game", ["openspiel:kuhn_poker", "openspiel:kuhn_poker", "openspiel:leduc_poker"]) + flag(draw, "--json")
    bad = {"--format": ["", "acpc"], "--out": [*_paths(root), root / "kuhn", root / "os-kuhn.json"], "--game": OPENSPIEL_BAD}
    return draw(mutated(pairs, bad))


@st.composite
def acpc_args(draw, root: Path):
    """``acpc dealer`` up to waiting for its clients, ``acpc play`` up to connecting (both stand-ins)."""
    game = [("--game", "nlth")] if draw(st.booleans()) else []
    players = some(draw, "-p", ["players=2", "players=3"]) + some(draw, "--players", ["2", "6"])
    if draw(st.booleans()):
        pairs = [("acpc", None), ("dealer", None), *game, *players, ("--port", pick(draw, ["0", "18791"])), ("--hands", pick(draw, ["1", "5"]))]
        pairs += some(draw, "--seed", ["0", "3"]) + some(draw, "--names", ["a,b", "a,b,c,d,e,f"]) + some(draw, "--timeout", ["0.5", "2"])
        pairs += [("--log", _fresh(root))] if draw(st.booleans()) else [("--log", root / "acpc"), ("--force", None)]
    else:
        pairs = [("acpc", None), ("play", None), ("--port", "18791"), ("--agent", pick(draw, ["call", "tag", "random:sizes=uniform"])), *game, *players]
        pairs += some(draw, "--seed", ["0", "3"]) + some(draw, "--timeout", ["0.5", "2"]) + some(draw, "--host", ["127.0.0.1", "localhost"])
    pairs += flag(draw, "--json")
    bad = {"--game": ["kuhn", "chess", "", *OPENSPIEL_BAD[:3]], "--port": ["-1", "70000", "x", "0"], "--hands": JUNK, "--seed": BAD["--seed"],
           "--names": ["", "a", "a,a", ",,", "a,,b"], "--timeout": FLOATS, "--log": [*_paths(root), root / "kuhn"],
           "--agent": ["", "nonsense", "tag:cbet=1.5", "blueprint", f"policy:store={root / 'kuhn'}"], "--players": BAD["--players"],
           "-p": BAD["-p"], "--host": ["", "999.1.1.1"]}  # fmt: skip
    return draw(mutated(pairs, bad))


@st.composite
def play_args(draw, root: Path):
    """``play`` and ``serve``: play reads what the person types (then the end of input); serve
    builds a table and stops where the server would start (a stand-in)."""
    game, agents = pick(draw, [("nlth", ["call", "tag"]), ("nlth", ["random", "call", "tag", "call", "call"]), ("kuhn", [f"policy:store={root / 'kuhn'}"]),
                               ("leduc", [f"policy:store={root / 'leduc'}"]), ("kuhn", ["random"])])  # fmt: skip
    pairs = [("--game", game), ("--agents", ",".join(agents))] + some(draw, "--seat", ["0", "1"]) + some(draw, "--seed", ["0", "2"])
    pairs += some(draw, "--players", [str(len(agents) + 1)]) + some(draw, "--coach", ["auto", "none", "call"])
    bad = {**bad_with_paths(root), "--agents": BAD["--agents"], "--seat": ["-1", "99", "x", "", "1.5"], "--coach": ["", "nonsense", "blueprint"],
           "--port": ["-1", "65536", "x"], "--data": _paths(root), "--max-tables": ["0", "x"], "--workers": ["0", "65"], "--host": ["", "192.0.2.1"]}  # fmt: skip
    if draw(st.booleans()):
        pairs = [("play", None), *pairs, ("--hands", pick(draw, ["1", "2"]))] + some(draw, "--hh", [_fresh(root).with_suffix(".phhs"), _fresh(root)])
        typed = pick(draw, ["", "q\n", "c\n" * 30, "f\n" * 30, "r 600\nallin\nc\n" * 10, "zz\n\nr -5\nr 1e999\n" + "c\n" * 30])
        return draw(mutated(pairs, bad)), typed
    # the address is bound once and released before the (stand-in) server: port 0, local names only
    pairs = [("serve", None), *pairs, ("--port", "0"), ("--data", _fresh(root))] + some(draw, "--host", ["127.0.0.1", "localhost"])
    pairs += some(draw, "--hands", ["1", "5"]) + some(draw, "--max-tables", ["1", "64"]) + some(draw, "--workers", ["1", "4"])
    return draw(mutated(pairs, bad))


OPENSPIEL_GOOD = ["openspiel:kuhn_poker", "openspiel:kuhn_poker(players=3)", "openspiel:leduc_poker", "openspiel:goofspiel(num_cards=3,imp_info=true)",
                  "openspiel:tic_tac_toe", "openspiel:matrix_rps", "openspiel:liars_dice(numdice=1,dice_sides=3)"]  # fmt: skip
OPENSPIEL_BAD = ["openspiel:", "openspiel:nope", "openspiel:kuhn_poker(players=x)", "openspiel:kuhn_poker(", "openspiel:kuhn_poker)",
                 "openspiel:kuhn_poker(players=2,players=3)", "openspiel:kuhn_poker()", "openspiel:kuhn_poker(players=2)x", "OPENSPIEL:kuhn_poker",
                 "openspiel:kuhn_poker(unknown=1)", "openspiel:goofspiel", "openspiel:chess", "openspiel:kuhn_poker(players=1)",
                 "openspiel:kuhn_poker(players=99)", "openspiel:leduc_poker(players=-1)", "openspiel:goofspiel(num_cards=3,imp_info=maybe)",
                 "openspiel:kuhn_poker(players=2", "openspiel:kuhn_poker(players=(2))", "openspiel:kuhn_poker(players=2,)", "openspiel::",
                 "openspiel:python_mfg_crowd_modelling", "openspiel:coin_game", "openspiel:kuhn_poker(players=\u00bd)",
                 "openspiel:turn_based_simultaneous_game(game=goofspiel(num_cards=3))"]  # fmt: skip


@st.composite
def openspiel_args(draw, root: Path):
    """``--game openspiel:...`` strings, good and bad, where a command takes a game (trees over 200,000 nodes are refused)."""
    game = pick(draw, OPENSPIEL_GOOD if draw(st.integers(0, 2)) else OPENSPIEL_BAD)
    command = pick(draw, ["solve", "solve", "solve", "match", "play", "exploitability"])
    if command == "solve":
        pairs = [("solve", None), ("--game", game), ("--algo", pick(draw, ["cfr+", "cfr", "dcfr"])), ("--iterations", pick(draw, ["1", "3"]))]
        pairs += some(draw, "-p", ["players=3", "players=2"]) + flag(draw, "--json")
    elif command == "match":
        pairs = [("match", None), ("--game", game), ("--agents", f"policy:store={root / 'os-kuhn'},policy:store={root / 'os-kuhn'}"), ("--hands", "2")]
    elif command == "play":
        pairs = [("play", None), ("--game", game), ("--agents", f"policy:store={root / 'os-kuhn'}"), ("--hands", "1"), ("--hh", _fresh(root))]
    else:
        pairs = [("exploitability", None), ("--game", game), ("--store", root / "os-kuhn")]
    cmd = draw(mutated(pairs, {"--game": OPENSPIEL_BAD, "-p": BAD["-p"], "--algo": BAD["--algo"]}))
    return (cmd, "q\n") if command == "play" else cmd


# -- the tests: 525 cases by default, 1,050 under -m slow (and 155, 310 for the newer commands, below) (each test checks that all of its cases ran)
CASES = {"solve": 150, "exploitability": 75, "match": 75, "other": 225}
SCALE = [pytest.param(1, id="default"), pytest.param(2, id="double", marks=pytest.mark.slow)]


def _fuzz(invoke, strategy, examples: int) -> None:
    @fuzz_settings(examples)
    @given(args=strategy)
    def check(args):
        invoke(args)

    check()
    count = invoke.count
    assert count["cases"] >= examples, count  # every case ran
    # and the fuzz reached both sides: cases accepted (run, or up to the long work) and refused
    accepted = count.get("exit 0", 0) + count.get("work started", 0)
    assert accepted >= examples // 6 and count.get("exit 2", 0) >= examples // 6, count


@pytest.mark.parametrize("scale", SCALE)
def test_fuzz_solve(invoke, place, scale):
    _fuzz(invoke, solve_args(place[0]), CASES["solve"] * scale)


@pytest.mark.parametrize("scale", SCALE)
def test_fuzz_exploitability(invoke, place, scale):
    _fuzz(invoke, exploitability_args(place[0]), CASES["exploitability"] * scale)


@pytest.mark.parametrize("scale", SCALE)
def test_fuzz_match(invoke, place, scale):
    _fuzz(invoke, match_args(place[0]), CASES["match"] * scale)


@pytest.mark.parametrize("scale", SCALE)
def test_fuzz_every_other_command(invoke, place, scale):
    _fuzz(invoke, other_args(place[0]), CASES["other"] * scale)
    assert (place[0] / "mine" / "notes.txt").read_text() == "mine" and (place[0] / "file.txt").read_text() == "a file"


# -- the newer commands: a few tens of seconds together -------------------------------------------
NEWER = {"spot": (spot_args, 20), "lbr": (lbr_args, 20), "plot": (plot_args, 20), "export": (export_args, 15), "import": (import_args, 15),
         "acpc": (acpc_args, 20), "play-and-serve": (play_args, 20), "openspiel-games": (openspiel_args, 25)}  # fmt: skip


@pytest.mark.parametrize("scale", SCALE)
@pytest.mark.parametrize("name", NEWER)
def test_fuzz_newer_command(invoke, place, name, scale):
    strategy, cases = NEWER[name]
    _fuzz(invoke, strategy(place[0]), cases * scale)
    assert (place[0] / "mine" / "notes.txt").read_text() == "mine" and (place[0] / "file.txt").read_text() == "a file"


# -- coverage: every command `gamesolve --help` lists is run by some case ------------------------
ALL_STRATEGIES = {"solve": (solve_args, CASES["solve"]), "exploitability": (exploitability_args, CASES["exploitability"]),
                  "match": (match_args, CASES["match"]), "other": (other_args, CASES["other"]), **NEWER}  # fmt: skip


def commands_in_help(*path: str) -> set[tuple[str, ...]]:
    """Every command ``gamesolve PATH... --help`` lists (the installed plugins' commands
    included), with each group's own commands, as paths of words."""
    if not path:  # as `gamesolve` does on its first run: every installed plugin adds its commands
        cli_module.plugin_host().pm.hook.gamesolve_register_commands(cli=cli)
    result = CliRunner().invoke(cli, [*path, "--help"])
    assert result.exit_code == 0, result.output
    listed = result.stdout.split("\nCommands:\n", 1)[1].splitlines() if "\nCommands:\n" in result.stdout else []
    found: set[tuple[str, ...]] = set()
    for line in listed:
        if line.startswith("  ") and not line.startswith("   "):  # a command's name; longer help wraps deeper
            command = (*path, line.split()[0])
            found |= {command} | commands_in_help(*command)
    return found


def reached_commands(root: Path, commands: set[tuple[str, ...]]) -> set[tuple[str, ...]]:
    """The commands the fuzz's cases name (drawn as the fuzz draws them), --help cases aside."""
    reached: set[tuple[str, ...]] = set()
    for strategy, cases in ALL_STRATEGIES.values():
        @fuzz_settings(cases)
        @given(args=strategy(root))
        def record(args):
            words = [str(a) for a in (args[0] if isinstance(args, tuple) else args)]
            if "--help" in words:
                return
            path = ()
            while len(path) < len(words) and (*path, words[len(path)]) in commands:
                path = (*path, words[len(path)])
            reached.add(path)

        record()
    return reached


def test_the_fuzz_reaches_every_command_in_help(place):
    commands = commands_in_help()
    assert {("solve",), ("spot",), ("acpc", "dealer"), ("store", "check"), ("abstraction", "info")} <= commands  # the listing works
    reached = reached_commands(place[0], commands)
    missing = sorted(" ".join(c) for c in commands - reached if not any(r[: len(c)] == c and len(r) > len(c) for r in reached))
    assert not missing, f"commands no fuzz case runs: {missing}"
