"""The NLTH corruption suite: every file of a tiny blueprint training store, and of its card
abstraction tables, damaged in turn; `match` and `solve --resume` refuse with one line
naming the file, exit 2.

(`exploitability` has nothing to evaluate exactly for NLTH, so it refuses every NLTH store
whatever its state; it is covered by the Kuhn and Leduc suites, tests/core/test_corruption.py.)
Commands run in-process: the damage is found when the store is opened, in milliseconds.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from gamesolve import cli as cli_module
from gamesolve.cli import cli
from gamesolve.store import checkpoint as ckpt
from gamesolve_nlth.agents import blueprint as blueprint_agent
from gamesolve_nlth.abstraction.cache import cache_root
from tests.store_damage import MUTATIONS, damage, each_damaged, linked_copy, refusal_problem, repair, store_files

MATCH_HANDS = "6"


@pytest.fixture
def run(nlth_host, monkeypatch):
    monkeypatch.setattr(cli_module, "plugin_host", lambda dirs=(): nlth_host)

    def invoke(*args):
        # Each command is a new process in real use: nothing opened by the last one is reused.
        blueprint_agent._shared_store.cache_clear()
        blueprint_agent._shared_buckets.cache_clear()
        return CliRunner().invoke(cli, [str(a) for a in args])

    return invoke


def match_args(store):
    return ["match", "--game", "nlth", "--agents", f"blueprint:store={store},call,call,call,call,call", "--hands", MATCH_HANDS]


COMMANDS = {
    "match": match_args,
    "solve --resume": lambda store: ["solve", "--out", store, "--resume", "--iterations", "10"],
    # Hold'em has no exact exploitability, but a damaged store is still named as damaged.
    "exploitability": lambda store: ["exploitability", "--game", "nlth", "--store", store],
}


def test_the_store_holds_checkpoints_and_a_blueprint(trained):
    out, _ = trained
    files = store_files(out)
    assert ckpt.generations(out) == ["checkpoint-000001", "checkpoint-000002"]
    for part in ("LATEST", "manifest.json", "zarr.json", "checkpoint-000002/regrets/c/0", "blueprint/strategy/c/0",
                 "blueprint/manifest.json", "checkpoint-000001/manifest.json"):  # fmt: skip
        assert part in files, part


@pytest.mark.parametrize("how", MUTATIONS)
@pytest.mark.parametrize("command", list(COMMANDS))
def test_every_damaged_file_of_a_blueprint_store_is_refused(run, trained, tmp_path, how, command):
    out, _ = trained
    failures = each_damaged(out, tmp_path, how, lambda copy, rel: refusal_problem(run(*COMMANDS[command](copy)), rel))
    assert not failures, f"{len(failures)} of {len(store_files(out))} files:\n" + "\n".join(failures)


def test_the_undamaged_store_plays_and_resumes(run, trained, tmp_path):
    out, _ = trained
    copy = linked_copy(out, tmp_path / "copy")
    assert run(*match_args(copy)).exit_code == 0
    result = run("solve", "--out", copy, "--resume", "--iterations", "10", "--json")
    assert result.exit_code == 0, result.output


def test_every_damaged_card_abstraction_table_is_refused(run, trained, tmp_path, monkeypatch):
    """The blueprint agent reads the card abstraction from the cache: a damaged table there
    is refused too, naming the file (in a linked copy of the cache; the real one untouched)."""
    out, _ = trained
    key = json.loads((out / "blueprint" / "zarr.json").read_text())["attributes"]["params"]["card_abstraction"]
    source = cache_root() / "abstraction" / key
    table = linked_copy(source, tmp_path / "cache" / "abstraction" / key)
    monkeypatch.setenv("GAMESOLVE_CACHE_DIR", str(tmp_path / "cache"))
    assert run(*match_args(out)).exit_code == 0  # the copy itself is sound
    # The store's metadata, and of each round table (the agent reads them) its metadata and a
    # chunk; a chunk of two arrays the agent never reads (checked with the store). Not every
    # file: each case hashes the whole 86 MB store, and the rest are alike.
    files = ["manifest.json", "zarr.json", "flop_equity/c/0", "river_equity_x1980/c/0"]
    files += [f"{table}/{part}" for table in ("preflop", "flop", "turn", "river") for part in ("zarr.json", "c/0")]
    assert set(files) <= set(store_files(source))
    problems = []
    for rel in files:
        damage(table, rel, "garbage")
        problem = refusal_problem(run(*match_args(out)), rel)
        repair(source, table, rel)
        if problem:
            problems.append(f"{rel}: {problem}")
    assert not problems, "\n".join(problems)
