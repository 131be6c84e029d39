"""tests/command_output.py: a command's JSON result is its output's last line, and when that
line is not JSON a failing test shows what the command printed."""

import subprocess

import click
import pytest
from click.testing import CliRunner

from tests.command_output import last_json, succeeded


@click.command()
def report():
    click.echo("training... done")
    click.echo('{"iterations": 10}')


@click.command()
@click.option("--fail", is_flag=True)
def report_then_log(fail):
    click.echo('{"iterations": 10}')
    click.echo("saved", err=True)
    if fail:
        raise click.UsageError("bad option")


def test_the_last_non_empty_line_of_a_text_is_parsed():
    assert last_json('progress 50%\n{"iterations": 10}\n\n') == {"iterations": 10}


def test_a_finished_subprocess_is_read_from_its_standard_output():
    proc = subprocess.CompletedProcess(["gamesolve"], 0, stdout="done\n[1, 2]\n", stderr="not json\n")
    assert last_json(proc) == [1, 2]


def test_a_click_result_is_read_from_its_output():
    assert last_json(CliRunner().invoke(report)) == {"iterations": 10}


def test_output_that_does_not_end_in_json_fails_showing_its_tail():
    with pytest.raises(AssertionError, match=r"(?s)not JSON.*exit status 2.*Error: no such game 'chess'"):
        last_json(subprocess.CompletedProcess(["gamesolve"], 2, stdout="Error: no such game 'chess'\n"))
    with pytest.raises(AssertionError, match="printed nothing"):
        last_json("\n \n")


def test_a_succeeded_command_is_read_from_its_standard_output_alone():
    assert succeeded(CliRunner().invoke(report_then_log)) == {"iterations": 10}


def test_a_failed_command_fails_showing_what_it_printed():
    with pytest.raises(AssertionError, match="bad option"):
        succeeded(CliRunner().invoke(report_then_log, ["--fail"]))
