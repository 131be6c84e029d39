"""Fixtures for the open-spiel games: a host with the core only (``openspiel:`` names resolve
through the core's own plugin), and the command line over it."""

from __future__ import annotations

import pytest

import gamesolve_kuhn.plugin
from gamesolve import cli as cli_module
from gamesolve.plugins import make_plugin_manager


@pytest.fixture(scope="session")
def os_host():
    """A strict host with the core's plugins and Kuhn (for comparisons with a native game)."""
    return make_plugin_manager(strict=True, entry_points=False, plugins=[gamesolve_kuhn.plugin])


@pytest.fixture
def run(os_host, monkeypatch):
    """Invoke the ``gamesolve`` command with the test host."""
    from click.testing import CliRunner

    monkeypatch.setattr(cli_module, "plugin_host", lambda dirs=(): os_host)
    return lambda *args: CliRunner().invoke(cli_module.cli, [str(a) for a in args])
