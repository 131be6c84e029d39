"""Fixtures of the search tests: 2-player Leduc, its coarse abstraction and a blueprint on it."""

from __future__ import annotations

import pytest

from gamesolve.game.factored import SMALL_GAME_MCCFR_DEFAULTS
from gamesolve.search import PokerAdapter, TabularPolicy
from gamesolve.solve.mccfr import MCCFRConfig, MCCFRTrainer
from gamesolve_leduc import LeducGame
from gamesolve_leduc.poker_form import classify, describe, leduc_form

BLUEPRINT_ITERATIONS = 1_000_000


@pytest.fixture(scope="session")
def leduc2():
    return LeducGame(2, abstraction="coarse")


@pytest.fixture(scope="session")
def adapter():
    return PokerAdapter(describe, classify)


@pytest.fixture(scope="session")
def coarse_blueprint_slots(leduc2, leduc2_tree):
    """MCCFR (the core trainer, the game's toy defaults) on the coarse abstraction, read
    back onto the real game's information sets."""
    trainer = MCCFRTrainer(leduc_form(leduc2, "coarse"), MCCFRConfig.from_options(SMALL_GAME_MCCFR_DEFAULTS), seed=0)
    trainer.run(iterations=BLUEPRINT_ITERATIONS)
    return trainer.explicit_policy(leduc2_tree)


@pytest.fixture(scope="session")
def coarse_blueprint(leduc2_tree, coarse_blueprint_slots):
    return TabularPolicy.from_slots(leduc2_tree, coarse_blueprint_slots)
