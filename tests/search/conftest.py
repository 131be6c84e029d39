"""Fixtures of the search tests: 2-player Leduc, its lossless factored form, the coarse
abstraction and a blueprint on it."""

from __future__ import annotations

import pytest

from gamesolve.game.factored import SMALL_GAME_MCCFR_DEFAULTS
from gamesolve.game.factored_compiler import compile_factored
from gamesolve.search import TabularPolicy
from gamesolve.solve.mccfr import MCCFRConfig, MCCFRTrainer
from gamesolve_leduc import LeducGame
from gamesolve_leduc.poker_form import leduc_form

BLUEPRINT_ITERATIONS = 1_000_000


@pytest.fixture(scope="session")
def leduc2():
    return LeducGame(2, abstraction="coarse")


@pytest.fixture(scope="session")
def leduc2_form(leduc2):
    """The game's lossless factored form, which the search walks."""
    return compile_factored(leduc2)


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


def search_options(**options) -> dict[str, str]:
    """``search:`` agent options as the command line gives them (``depth="game"``,
    ``search_rounds=(0,)``, ``k=4`` ...)."""
    return {key: ",".join(map(str, value)) if isinstance(value, tuple) else str(value) for key, value in options.items()}


@pytest.fixture(scope="session")
def search_agent(leduc2, leduc2_form):
    """``search_agent(blueprint, seat, memo=None, abstraction=None, **options)``: the core's
    range search agent on 2-player Leduc, dealt ``seat`` of hand 0."""
    from gamesolve.search.player import keyed_range_search_player

    def make(blueprint, seat=0, memo=None, abstraction=None, **options):
        agent = keyed_range_search_player(leduc2, leduc2_form, blueprint, search_options(**options), 0, memo, abstraction)
        agent.new_hand(seat, 0)
        return agent

    return make


@pytest.fixture(scope="session")
def composed(leduc2, leduc2_tree, leduc2_form):
    """``composed(blueprint, **options) -> exploitability`` of the search agent's whole
    strategy on 2-player Leduc (every root it can reach, every seat), by exact best response."""
    from gamesolve.evaluate.best_response import TreeEvaluator
    from gamesolve.search import SolveMemo, compose_agent_policy
    from gamesolve.search.compose import RangeSeat
    from gamesolve.search.player import keyed_range_search_player

    def run(blueprint, abstraction=None, **options):
        agent = keyed_range_search_player(leduc2, leduc2_form, blueprint, search_options(**options), 0,
                                          SolveMemo(max_bytes=None), abstraction)  # fmt: skip
        policy = compose_agent_policy(leduc2, leduc2_tree, lambda seat: RangeSeat(agent, seat))
        return TreeEvaluator(leduc2_tree).evaluate(policy).exploitability

    return run
