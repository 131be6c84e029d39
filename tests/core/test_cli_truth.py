"""The command line tells the truth: the progress bar's rate and width, help that lists what is
installed, option types and defaults, what `cache clear` clears and keeps."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from gamesolve import cli as cli_module
from gamesolve.cli import cli


@pytest.fixture
def run(host, monkeypatch):
    monkeypatch.setattr(cli_module, "plugin_host", lambda dirs=(): host)
    return lambda *args: CliRunner().invoke(cli, [str(a) for a in args])


def test_the_training_bar_shows_iterations_per_second_within_80_columns(run):
    result = run("solve", "--game", "leduc", "--algo", "mccfr-p", "--minutes", "0.01")
    assert result.exit_code == 0, result.output
    bars = [line for line in result.stderr.splitlines() if line.startswith("mccfr-p leduc")]
    assert bars, result.stderr
    for line in bars:
        assert len(line) <= 80, line
        assert re.search(r"\d+% [\d,]+ it/s \d+:\d\d:\d\d [-\d]+:[-\d]{2}:[-\d]{2}", line), line  # done, rate, elapsed, left
        assert "s/s" not in line
    assert "training mccfr-p on leduc" in result.stderr  # the long description, on its own line


def test_algo_help_lists_every_solver_and_each_games_default(run, host):
    text = " ".join(run("solve", "--help").stdout.split())
    for spec in host.solvers:
        assert spec.name in text
    for game in host.games:
        assert f"{game.name}: {game.default_algo}" in text


def test_numeric_options_show_their_type_and_default(run):
    text = run("solve", "--help").stdout
    assert "--iterations INTEGER" in text and "--minutes NUMBER" in text and "--seed INTEGER RANGE" in text
    assert "[default: 0;" in text and "[default: 1;" in text  # seed, threads
    assert "whichever comes" in " ".join(text.split())  # --minutes with --iterations
    match_help = run("match", "--help").stdout
    assert "--hands INTEGER" in match_help and "[default: 1000]" in match_help


def test_every_example_in_the_solve_help_is_accepted(run):
    """The help's examples run as written: each `-o KEY=VALUE` and each --checkpoint time."""
    text = " ".join(run("solve", "--help").stdout.split())
    options = re.findall(r"-o (\w+=\S+?)[ ,)]", text)
    times = re.search(r"Checkpoint interval of a sampling solver: (.+?) \(default (\w+)\)", text)
    assert options and times, text
    checkpoints = re.split(r", | or ", times.group(1)) + [times.group(2)]
    assert len(checkpoints) >= 4, checkpoints
    for option in options:
        result = run("solve", "--game", "kuhn", "--algo", "mccfr-p", "--iterations", "10", "-o", option)
        assert result.exit_code == 0, f"-o {option}: {result.output}"
    for interval in checkpoints:
        result = run("solve", "--game", "kuhn", "--algo", "mccfr-p", "--iterations", "10", "--checkpoint", interval)
        assert result.exit_code == 0, f"--checkpoint {interval}: {result.output}"


def test_every_bench_option_has_help(run):
    command = cli.get_command(None, "bench")
    for param in command.params:
        if param.param_type_name == "option":
            assert param.help, param.name
    assert "[default: 200;" in run("bench", "--help").stdout


def test_cache_clear_says_what_it_clears_and_what_it_keeps(run, tmp_path, monkeypatch):
    kernels, cache = tmp_path / "numba", tmp_path / "cache"
    (kernels / "x").mkdir(parents=True)
    (kernels / "x" / "k.nbi").write_bytes(b"k" * 2048)
    (cache / "abstraction" / "abc").mkdir(parents=True)
    (cache / "abstraction" / "abc" / "t").write_bytes(b"t" * 4096)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(kernels))
    monkeypatch.setenv("GAMESOLVE_CACHE_DIR", str(cache))
    out = run("cache", "clear").stdout
    assert f"cleared compiled kernels (numba): {kernels}" in out and f"kept card-abstraction tables: {cache / 'abstraction'}" in out
    assert "--all" in out and not kernels.exists() and (cache / "abstraction" / "abc" / "t").exists()
    out = run("cache", "clear", "--all").stdout
    assert f"cleared card-abstraction tables: {cache / 'abstraction'}" in out and not (cache / "abstraction").exists()


def test_cache_clear_deletes_the_kernels_of_every_build_in_gamesolves_folder(run, tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    builds = [cache / "numba" / "0.1.0-aaaaaaaaaaaa", cache / "numba" / "0.1.0-bbbbbbbbbbbb"]  # an earlier source
    for build in builds:
        (build / "x").mkdir(parents=True)
        (build / "x" / "k.nbi").write_bytes(b"k" * 1024)
    monkeypatch.setenv("GAMESOLVE_CACHE_DIR", str(cache))
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(builds[1]))
    out = run("cache", "clear").stdout
    assert f"cleared compiled kernels (numba): {cache / 'numba'}" in out and not any(b.exists() for b in builds)


def test_the_kernel_cache_moves_when_a_numba_module_changes_and_only_then(tmp_path, monkeypatch):
    """numba checks a kernel against its own file only; the folder's key covers its helpers."""
    from gamesolve import cache_paths

    package = tmp_path / "gamesolve"
    package.mkdir()
    (package / "kernels.py").write_text("from numba import njit\n")
    (package / "command.py").write_text("import click\n")
    monkeypatch.setattr(cache_paths, "__file__", str(package / "cache_paths.py"))
    monkeypatch.setattr("importlib.metadata.entry_points", lambda group: [])
    first = cache_paths.kernel_digest()
    (package / "command.py").write_text("import click  # edited\n")
    assert cache_paths.kernel_digest() == first
    (package / "kernels.py").write_text("from numba import njit  # edited\n")
    assert cache_paths.kernel_digest() != first


def test_bad_input_from_the_issue_gets_one_line(run, tmp_path):
    """The tracebacks and accepted nonsense issue 14 listed."""
    (tmp_path / "file").write_text("x")
    cases = [
        (["bench", "--iterations", "0"], "not in the range"),
        (["bench", "--iterations", "-5"], "not in the range"),
        (["solve", "--game", "kuhn", "--iterations", "5", "-p", "players=3", "-p", "players=3"], "given twice"),
        (["solve", "--game", "kuhn", "--iterations", "5", "--players", "3", "-p", "players=2"], "disagree"),
        (["solve", "--game", "leduc", "--algo", "mccfr", "--iterations", "5", "-o", "prune_probability=1.5"], "in [0, 1]"),
        (["solve", "--game", "leduc", "--algo", "mccfr", "--iterations", "5", "-o", "discount_interval=0"], "must be positive"),
        (["solve", "--game", "leduc", "--algo", "mccfr", "--iterations", "5", "--checkpoint", "0s"], "positive time"),
        (["solve", "--game", "kuhn", "--iterations", "5", "--out", tmp_path / "file" / "out"], "is a file, not a folder"),
        (["match", "--game", "kuhn", "--agents", "policy,policy", "--hands", "0"], "--hands must be positive"),
    ]
    for args, message in cases:
        result = run(*args)
        lines = result.stderr.strip().splitlines()
        assert result.exit_code == 2 and len(lines) == 1 and message in lines[0], (args, result.output)
