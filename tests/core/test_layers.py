"""The layers of DESIGN.md: solvers and evaluation do not import each other (evaluation after
training belongs to the command layer), kernels name no poker concept, and plugins take
their errors from the core's error module, never from the command line."""

import ast
import io
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def imports(folder: Path) -> dict[str, set[str]]:
    """Module path -> the gamesolve modules it imports (anywhere in the file)."""
    out = {}
    for path in sorted(folder.rglob("*.py")):
        names = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                names.add(node.module)
            elif isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
        out[str(path.relative_to(ROOT))] = names
    return out


@pytest.mark.parametrize("layer, other", [("solve", "evaluate"), ("evaluate", "solve")])
def test_solve_and_evaluate_do_not_import_each_other(layer, other):
    offenders = {m: sorted(n for n in names if n.startswith(f"gamesolve.{other}"))
                 for m, names in imports(ROOT / "gamesolve" / layer).items()}
    assert {m: n for m, n in offenders.items() if n} == {}


def test_plugins_do_not_import_the_command_line():
    offenders = {m: names & {"gamesolve.cli"} for m, names in imports(ROOT / "plugins").items()}
    assert {m: n for m, n in offenders.items() if n} == {}


@pytest.mark.parametrize("layer", ["solve", "search"])
def test_the_solvers_and_the_search_name_no_poker_concept(layer):
    """No identifier (names and strings in code; docstrings citing the paper aside) speaks of
    folds, pots, commitments or showdowns: those are poker's words for the core's terminal
    kinds and settled players."""
    poker = {"fold", "folded", "folds", "pot", "pots", "commit", "commits", "committed", "showdown", "showdowns"}
    found = {}
    for path in sorted((ROOT / "gamesolve" / layer).rglob("*.py")):
        hits = set()
        for token in tokenize.generate_tokens(io.StringIO(path.read_text()).readline):
            if token.type == tokenize.NAME and poker & set(token.string.lower().split("_")):
                hits.add(token.start[0])
        if hits:
            found[str(path.relative_to(ROOT))] = sorted(hits)
    assert found == {}
