"""Fixtures of the search tests: 2-player Leduc, its lossless factored form, the coarse
abstraction and a blueprint on it."""

from __future__ import annotations

import pytest

from gamesolve.game.factored import SMALL_GAME_MCCFR_DEFAULTS
from gamesolve.game.factored_compiler import compile_factored
from gamesolve.search import SearchForm, TabularPolicy
from gamesolve.solve.mccfr import MCCFRConfig, MCCFRTrainer
from gamesolve_leduc import LeducGame
from gamesolve_leduc.poker_form import leduc_form

BLUEPRINT_ITERATIONS = 1_000_000


@pytest.fixture(scope="session")
def leduc2():
    return LeducGame(2, abstraction="coarse")


@pytest.fixture(scope="session")
def leduc2_search(leduc2):
    """The game's lossless factored form, as the search walks it."""
    return SearchForm(compile_factored(leduc2))


@pytest.fixture(scope="session")
def coarse_blueprint_slots(leduc2, leduc2_tree):
    """MCCFR (the core trainer, the game's small-game defaults) on the coarse abstraction,
    read back onto the real game's information sets."""
    trainer = MCCFRTrainer(leduc_form(leduc2, "coarse"), MCCFRConfig.from_options(SMALL_GAME_MCCFR_DEFAULTS), seed=0)
    trainer.run(iterations=BLUEPRINT_ITERATIONS)
    return trainer.explicit_policy(leduc2_tree)


@pytest.fixture(scope="session")
def coarse_blueprint(leduc2_tree, coarse_blueprint_slots):
    return TabularPolicy.from_slots(leduc2_tree, coarse_blueprint_slots)


@pytest.fixture(scope="session")
def composed(leduc2, leduc2_tree, leduc2_search):
    """``composed(blueprint, config) -> exploitability`` of the search agent's whole strategy
    on 2-player Leduc (every root it can reach, every seat), by exact best response."""
    from gamesolve.evaluate.best_response import TreeEvaluator
    from gamesolve.search import SearchAgent, SearchCache, compose_agent_policy

    def run(blueprint, config, **agent_options):
        cache = SearchCache()
        policy = compose_agent_policy(
            leduc2, leduc2_tree,
            lambda seat: SearchAgent(leduc2, blueprint, leduc2_search, seat, config, cache=cache, **agent_options),
        )  # fmt: skip
        return TreeEvaluator(leduc2_tree).evaluate(policy).exploitability

    return run
