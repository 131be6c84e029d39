"""What a command printed: the JSON result a ``--json`` command ends its output with."""

from __future__ import annotations

import json
import subprocess
from typing import Any

from click.testing import Result

#: How much of an output's end a failure shows.
TAIL = 2000


def last_json(output: str | subprocess.CompletedProcess | Result) -> Any:
    """The JSON value on the last non-empty line of a command's output.

    ``output`` is the text itself, a finished subprocess (its ``stdout``) or a click test
    runner's result (its ``output``; pass ``result.stdout`` to leave its standard error out).
    When there is no line, or the last one is not JSON, this fails with an ``AssertionError``
    that shows the output's tail (and the command's exit status, when known), so that a
    failing test says what the command printed rather than where JSON decoding stopped.
    """
    if isinstance(output, subprocess.CompletedProcess):
        text, status = output.stdout, output.returncode
    elif isinstance(output, Result):
        text, status = output.output, output.exit_code
    else:
        text, status = output, None
    lines = (text or "").strip().splitlines()
    exited = "" if status is None else f" (exit status {status})"
    if not lines:
        raise AssertionError(f"the command printed nothing to parse as JSON{exited}")
    try:
        return json.loads(lines[-1])
    except json.JSONDecodeError as error:
        tail = text.strip()[-TAIL:]
        raise AssertionError(f"the last line is not JSON ({error}){exited}; the output ends:\n{tail}") from None


def succeeded(result: Result) -> Any:
    """The JSON result of a click command that must have exited with status 0: the last line
    of its standard output (its standard error, which click's ``output`` mixes in, left out).
    A non-zero status fails showing everything the command printed."""
    assert result.exit_code == 0, result.output
    return last_json(result.stdout)
