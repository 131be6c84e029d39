"""The README's promise: CI runs exactly the test command the README shows."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def readme_commands():
    return re.findall(r"```bash\n(python3 -m venv[^\n]+)\n```", (ROOT / "README.md").read_text())


def test_readme_opens_with_two_setup_commands():
    commands = readme_commands()
    assert len(commands) == 2
    assert "gamesolve solve" in commands[0] and "pytest" in commands[1]


def test_ci_runs_the_readme_test_command():
    assert readme_commands()[1] in (ROOT / ".ci" / "run").read_text()
