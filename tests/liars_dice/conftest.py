"""Fixtures for the Liar's Dice plugin: registered directly (no entry points), and the CLI over it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

try:  # the plugin is normally installed (pip install -e plugins/liars_dice); fall back to the source tree
    import gamesolve_liars_dice  # noqa: F401
except ImportError:  # pragma: no cover
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "plugins" / "liars_dice"))

import gamesolve_liars_dice.plugin  # noqa: E402
from gamesolve import cli as cli_module  # noqa: E402
from gamesolve.plugins import make_plugin_manager  # noqa: E402


@pytest.fixture(scope="session")
def liars_host():
    """A strict plugin host with only the Liar's Dice plugin (and the core's built-ins)."""
    return make_plugin_manager(strict=True, entry_points=False, plugins=[gamesolve_liars_dice.plugin])


@pytest.fixture
def liars_dice(liars_host):
    """The registered game spec: ``liars_dice.create(dice=2)`` builds a game as the CLI does."""
    return liars_host.games.get("liars_dice")


@pytest.fixture
def run(liars_host, monkeypatch):
    """Invoke the ``gamesolve`` command with the test host."""
    from click.testing import CliRunner

    monkeypatch.setattr(cli_module, "plugin_host", lambda dirs=(): liars_host)

    def invoke(*args):
        return CliRunner().invoke(cli_module.cli, [str(a) for a in args], catch_exceptions=False)

    return invoke

