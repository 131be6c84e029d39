"""Regressions for what the command-line fuzz (test_cli_fuzz.py) found: each one a command
line that ended in a traceback, a wrong exit status or a rejection of more than one line."""

from __future__ import annotations

from click.testing import CliRunner

from gamesolve.cli import cli


def refusal(args: list[str]) -> str:
    """The one ``Error:`` line of a rejected command line (exit status 2, nothing else on stderr)."""
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 2, (result.exit_code, result.output)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    return lines[0]


def test_a_missing_choice_option_is_refused_in_one_line_naming_the_choices(tmp_path):
    # click words it "Missing option '--format'. Choose from:\n\topenspiel"
    line = refusal(["export", "--store", tmp_path / "s", "--out", tmp_path / "p.json"])
    assert "--format" in line and "openspiel" in line
