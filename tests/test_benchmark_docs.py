"""docs/benchmarks.md: every figure has the command that produced it next to it
(benchmarks/check_docs.py states the rule)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.benchmark_scripts import benchmark_script

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def check_docs():
    return benchmark_script("check_docs")


def test_every_figure_in_the_benchmarks_document_has_a_command(check_docs):
    assert check_docs.check(ROOT / "docs" / "benchmarks.md") == []


def test_a_table_of_figures_in_a_section_without_a_command_is_reported(check_docs, tmp_path):
    doc = tmp_path / "doc.md"
    doc.write_text("# Doc\n\n## Timed\n\nSomething was fast:\n\n| what | seconds |\n|---|---:|\n| it | 1.5 |\n")
    assert [p.split(":")[1] for p in check_docs.check(doc)] == ["9 under 'Timed' (line 3)"]


@pytest.mark.parametrize("command", ["    python benchmarks/x.py --fast", "Run `gamesolve solve --game kuhn`:",
                                     "    nice -n 10 /work/venv/bin/python benchmarks/x.py", "```\nNUMBA_NUM_THREADS=1 pytest -q\n```"])  # fmt: skip
def test_a_command_in_the_section_covers_its_figures(check_docs, tmp_path, command):
    doc = tmp_path / "doc.md"
    doc.write_text(f"## Timed\n\n{command}\n\n| what | seconds |\n|---|---:|\n| it | 1.5 |\n")
    assert check_docs.check(doc) == []


def test_a_command_in_another_section_does_not_count(check_docs, tmp_path):
    doc = tmp_path / "doc.md"
    doc.write_text("## One\n\n    python benchmarks/x.py\n\n## Two\n\n| what | seconds |\n|---|---:|\n| it | 1.5 |\n")
    assert len(check_docs.check(doc)) == 1


def test_a_path_in_backticks_is_not_a_command(check_docs, tmp_path):
    doc = tmp_path / "doc.md"
    doc.write_text("## Timed\n\nIn `gamesolve/solve/vcfr.py` and `python_helpers.py`:\n\n| what | seconds |\n|---|---:|\n| it | 1.5 |\n")
    assert len(check_docs.check(doc)) == 1
