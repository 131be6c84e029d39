"""Check that every figure in a benchmarks document names the command that produced it.

    python benchmarks/check_docs.py [FILE.md ...]      (default: docs/benchmarks.md)

The rule (simple on purpose, so that a reader can apply it by eye):

* A *figure* is a table row (a line starting with ``|``, the ``|---|`` separator and the
  header row aside) with a digit in it.
* A *command* is code that runs something: a line of an indented (4 spaces) or fenced code
  block, or text in backticks, that starts with ``python``, ``python3``, ``pytest``,
  ``gamesolve``, ``cd `` or a path to one of those (``.venv/bin/gamesolve``,
  ``/work/venv/bin/python``), possibly after ``VAR=value`` settings and ``nice``, ``time``,
  ``env`` or ``timeout N``.
* Every figure needs a command in its own section: the text from the nearest heading above it
  (``#`` to ``######``) to the next heading of any level, the row itself included.

Exit status 0 when every figure has a command, 1 (listing each section without one and its
first figure) otherwise. ``tests/test_benchmark_docs.py`` runs :func:`check` on docs/benchmarks.md.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = [ROOT / "docs" / "benchmarks.md"]
_PROGRAM = r"(?:[\w./-]*/)?(?:python3?|pytest|gamesolve)(?:\s|$)"
_WRAPPER = r"(?:nice(?:\s+-n\s*-?\d+)?|time|env|timeout\s+\S+)\s+"  # nice -n 10 python ..., timeout 900 gamesolve ...
COMMAND = re.compile(rf"^(?:[A-Z_][A-Z0-9_]*=\S*\s+|{_WRAPPER})*(?:cd\s|{_PROGRAM})")
HEADING = re.compile(r"^#{1,6}\s")


def _commands_in(line: str, in_code: bool) -> bool:
    if in_code and COMMAND.match(line.strip()):
        return True
    return any(COMMAND.match(span.strip()) for span in re.findall(r"`([^`]+)`", line))


def _is_figure(line: str, previous: str, following: str) -> bool:
    if not line.startswith("|") or re.match(r"^\|[\s:|-]+\|?\s*$", line):
        return False
    if re.match(r"^\|[\s:|-]+\|?\s*$", following):  # the header row of a table
        return False
    return bool(re.search(r"\d", line))


def check(path: Path) -> list[str]:
    """One line per section of ``path`` with a figure and no command: ``FILE:LINE heading: row``."""
    lines = path.read_text().splitlines()
    problems = []
    heading, heading_line, has_command, first_figure = "(top)", 0, False, None
    in_fence = False

    def close():
        if first_figure is not None and not has_command:
            number, row = first_figure
            problems.append(f"{path.name}:{number} under {heading!r} (line {heading_line}): a figure with no command: {row[:100]}")

    for i, line in enumerate(lines):
        if line.strip().startswith("```"):
            in_fence = not in_fence
            continue
        if not in_fence and HEADING.match(line):
            close()
            heading, heading_line, has_command, first_figure = line.lstrip("# ").strip(), i + 1, False, None
            continue
        in_code = in_fence or line.startswith("    ")
        if _commands_in(line, in_code):
            has_command = True
        following = lines[i + 1] if i + 1 < len(lines) else ""
        if first_figure is None and not in_code and _is_figure(line, lines[i - 1] if i else "", following):
            first_figure = (i + 1, line)
    close()
    return problems


def main(argv: list[str]) -> int:
    paths = [Path(a) for a in argv] or DEFAULT
    problems = [p for path in paths for p in check(path)]
    for problem in problems:
        print(problem)
    print(f"{len(problems)} section(s) with figures and no command" if problems else "every figure has a command next to it")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
