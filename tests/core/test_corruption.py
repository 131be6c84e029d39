"""The corruption suite: every file of a store deleted, truncated or overwritten with garbage,
in turn; every command that reads the store refuses with one line naming the file, exit 2.

A Kuhn store from a tabular solve and a Leduc ``mccfr-p`` store (checkpoints, snapshots, the
final policy and blueprint). The NLTH ``tiny`` store has its own suite in
``tests/nlth/test_store_integrity.py``. Commands run in-process (CliRunner), so each case
costs milliseconds: the damage is found before any work starts.
"""

from __future__ import annotations

import os
import shutil

import pytest
from click.testing import CliRunner

from gamesolve import cli as cli_module
from gamesolve.cli import cli
from gamesolve.store import checkpoint as ckpt
from tests.store_damage import MUTATIONS, damaged_copy, each_damaged, refusal_problem, store_files
from tests.command_output import last_json


@pytest.fixture
def run(host, monkeypatch):
    monkeypatch.setattr(cli_module, "plugin_host", lambda dirs=(): host)
    return lambda *args: CliRunner().invoke(cli, [str(a) for a in args])


@pytest.fixture(scope="module")
def stores(tmp_path_factory, host):
    """The pristine stores, made once: {name: (path, game)}."""
    root = tmp_path_factory.mktemp("pristine")
    runner = CliRunner()
    original = cli_module.plugin_host
    cli_module.plugin_host = lambda dirs=(): host
    try:
        kuhn = runner.invoke(cli, ["solve", "--game", "kuhn", "--algo", "cfr+", "--iterations", "50", "--out", str(root / "kuhn")])
        leduc = runner.invoke(cli, [
            "solve", "--game", "leduc", "--algo", "mccfr-p", "--iterations", "20000", "--out", str(root / "leduc"),
            "-o", "average=pluribus", "-o", "snapshot_start=2000", "-o", "snapshot_interval=4000",
        ])  # fmt: skip
    finally:
        cli_module.plugin_host = original
    assert kuhn.exit_code == 0 and leduc.exit_code == 0, kuhn.output + leduc.output
    return {"kuhn": (root / "kuhn", "kuhn"), "leduc": (root / "leduc", "leduc")}


COMMANDS = {
    "exploitability": lambda store, game: ["exploitability", "--game", game, "--store", store],
    "match": lambda store, game: ["match", "--game", game, "--agents", f"policy:store={store},policy:store={store}", "--hands", "2"],
    "solve --resume": lambda store, game: ["solve", "--out", store, "--resume", "--iterations", "10"],
    "store check": lambda store, game: ["store", "check", store],
}


def test_the_leduc_store_has_every_part_the_suite_must_cover(stores):
    files = store_files(stores["leduc"][0])
    for part in ("LATEST", "manifest.json", "zarr.json", "checkpoint-000002/regrets/c/0", "snapshots/snapshot-00000/values/c/0",
                 "policy/average_policy/c/0", "blueprint/strategy/c/0", "checkpoint-000001/manifest.json"):  # fmt: skip
        assert part in files, part
    assert ckpt.generations(stores["leduc"][0]) == ["checkpoint-000001", "checkpoint-000002"]


@pytest.mark.parametrize("store_name", ["kuhn", "leduc"])
@pytest.mark.parametrize("command", list(COMMANDS))
def test_the_pristine_store_is_accepted(run, stores, tmp_path, store_name, command):
    """The control: the same commands succeed on the undamaged store (tabular stores cannot
    be resumed, which is its own one-line refusal)."""
    path, game = stores[store_name]
    copy = tmp_path / "copy"
    shutil.copytree(path, copy, copy_function=os.link)  # resuming writes: never into the pristine store
    result = run(*COMMANDS[command](copy, game))
    if command == "solve --resume" and store_name == "kuhn":
        assert result.exit_code == 2 and "cannot be resumed" in result.stderr
    else:
        assert result.exit_code == 0, result.output


@pytest.mark.parametrize("store_name", ["kuhn", "leduc"])
@pytest.mark.parametrize("how", MUTATIONS)
@pytest.mark.parametrize("command", list(COMMANDS))
def test_every_damaged_file_is_refused_with_one_line_naming_it(run, stores, tmp_path, store_name, how, command):
    path, game = stores[store_name]
    failures = each_damaged(path, tmp_path, how, lambda copy, rel: refusal_problem(run(*COMMANDS[command](copy, game)), rel))
    assert not failures, f"{len(failures)} of {len(store_files(path))} files:\n" + "\n".join(failures)


def test_store_check_reports_every_problem_and_json(run, stores, tmp_path):
    path, _ = stores["leduc"]
    copy = damaged_copy(path, "checkpoint-000002/regrets/c/0", "garbage", tmp_path / "a")
    (copy / "policy" / "average_policy" / "c" / "0").unlink()
    result = run("store", "check", copy, "--json")
    assert result.exit_code == 2
    report = last_json(result.stdout)
    assert len(report["problems"]) == 2 and report["kind"] == "MCCFR checkpoint store"
    assert any("regrets/c/0 does not match" in p for p in report["problems"])
    assert any("average_policy/c/0 is missing" in p for p in report["problems"])
