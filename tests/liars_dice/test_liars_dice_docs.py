"""docs/writing-a-game-plugin.md shows the plugin's real code: every code block that names a
file on its first line (``# plugins/liars_dice/...``) is a verbatim excerpt of that file."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "writing-a-game-plugin.md"


def excerpts():
    blocks = re.findall(r"```(?:python|toml)\n# ([\w./-]+\.(?:py|toml))\n(.*?)```", DOC.read_text(), flags=re.S)
    return [pytest.param(path, code, id=f"{path}:{i}") for i, (path, code) in enumerate(blocks)]


def test_the_walk_through_quotes_the_liars_dice_plugin():
    quoted = {path for path, _ in (p.values for p in excerpts())}
    assert {"plugins/liars_dice/gamesolve_liars_dice/game.py", "plugins/liars_dice/gamesolve_liars_dice/plugin.py",
            "plugins/liars_dice/pyproject.toml"} <= quoted  # fmt: skip


@pytest.mark.parametrize("path, code", excerpts())
def test_each_quoted_block_is_in_its_file(path, code):
    assert code in (ROOT / path).read_text(), f"docs/writing-a-game-plugin.md quotes code that {path} no longer has"
