"""Fixtures of the search record (issue 33): the two hold'em blueprints it was made over,
trained once per test run (tests/shared_builds.py), and the record's figures computed afresh."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

try:  # the plugin is normally installed (pip install -e plugins/nlth); fall back to the source tree
    import gamesolve_nlth  # noqa: F401
except ImportError:  # pragma: no cover
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "plugins" / "nlth"))


@pytest.fixture(scope="session")
def golden_hu_blueprint(shared_folder):
    """The heads-up tiny blueprint of the record (3,000 MCCFR iterations, one thread, seed 0)."""
    return shared_folder("golden-hu-blueprint")


@pytest.fixture(scope="session")
def golden_6p_blueprint(shared_folder):
    """The six-player tiny blueprint of the record (the same schedule)."""
    return shared_folder("golden-6p-blueprint")


@pytest.fixture(scope="session")
def core_stores(tmp_path_factory):
    """Where the core games' blueprints (tabular CFR stores) are trained, once per worker."""
    return tmp_path_factory.mktemp("golden-core")
