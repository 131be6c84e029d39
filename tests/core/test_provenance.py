"""Stores record which code wrote them: the version and, from a git checkout, its commit and
whether the code had uncommitted changes."""

import shutil
import subprocess

import pytest

from gamesolve import provenance
from gamesolve.store.policy_store import read_policy, write_policy


@pytest.fixture
def fresh_revision():
    provenance.source_revision.cache_clear()
    yield
    provenance.source_revision.cache_clear()


def _checkout_commit() -> str | None:
    if shutil.which("git") is None or not (provenance._ROOT / ".git").exists():
        return None
    return subprocess.run(["git", "-C", str(provenance._ROOT), "rev-parse", "HEAD"], capture_output=True, text=True,
                          check=True).stdout.strip()  # fmt: skip


def test_a_store_records_the_commit_of_the_checkout_that_wrote_it(tmp_path, kuhn2_tree, fresh_revision):
    commit = _checkout_commit()
    if commit is None:
        pytest.skip("not running from a git checkout with git at hand")
    write_policy(tmp_path / "s.zarr", kuhn2_tree, kuhn2_tree.uniform_policy())
    source = read_policy(tmp_path / "s.zarr").attrs["source"]
    assert source["commit"] == commit and isinstance(source["dirty"], bool)


def test_outside_a_git_checkout_no_commit_is_claimed(tmp_path, monkeypatch, fresh_revision):
    monkeypatch.setattr(provenance, "_ROOT", tmp_path)
    assert provenance.source_revision() is None
    assert provenance.code_attributes()["source"] is None


def test_without_git_no_commit_is_claimed(monkeypatch, fresh_revision):
    def no_git(*args, **kwargs):
        raise FileNotFoundError("git")

    monkeypatch.setattr(provenance.subprocess, "run", no_git)
    assert provenance.source_revision() is None
