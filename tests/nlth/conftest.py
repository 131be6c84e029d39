"""Fixtures for the NLTH card tests (evaluator, hand isomorphism)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

try:  # the plugin is normally installed (pip install -e plugins/nlth); fall back to the source tree
    import gamesolve_nlth  # noqa: F401
except ImportError:  # pragma: no cover
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "plugins" / "nlth"))


@pytest.fixture(scope="session")
def street_indexer():
    """Board split by street: hole | flop | turn | river."""
    from gamesolve_nlth.isomorphism import HandIndexer

    return HandIndexer((2, 3, 1, 1))


@pytest.fixture(scope="session")
def board_indexer():
    """The whole board as one set: hole | 5-card board."""
    from gamesolve_nlth.isomorphism import HandIndexer

    return HandIndexer((2, 5))


@pytest.fixture(scope="session")
def random_seven_card_hands():
    """1,000,000 seeded random 7-card hands, int8[n, 7]."""
    from gamesolve_nlth.evaluator import deal_random_hands

    return deal_random_hands(1_000_000, 7, 20240607)


@pytest.fixture(scope="session")
def trained(shared_folder):
    """A six-player tiny blueprint store from 30,000 iterations (seconds), and its JSON
    result; shared by the blueprint tests and the NLTH corruption suite."""
    folder = shared_folder("nlth-trained")
    return folder / "tiny", json.loads((folder / "result.json").read_text())


@pytest.fixture(scope="session")
def hu_blueprint(shared_folder):
    """A heads-up blueprint of the tiny preset, briefly trained, the same on every machine
    (tests/shared_builds.py; the card abstraction is built or loaded from the cache first)."""
    return shared_folder("nlth-hu-blueprint")


@pytest.fixture(scope="module")
def nlth_host():
    """A plugin manager with the hold'em plugin alone (no entry points)."""
    from gamesolve.plugins import make_plugin_manager
    from gamesolve_nlth import plugin as nlth_plugin

    return make_plugin_manager(strict=True, entry_points=False, plugins=[nlth_plugin])
