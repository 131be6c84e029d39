"""Acceptance: search with range beliefs plays exactly as search with enumerated histories
(`-s beliefs=range` equals `-s beliefs=exact`: the same range search agent, its beliefs carried
by :class:`~gamesolve.search.beliefs.ItemRanges` or by every history,
:class:`~gamesolve.search.beliefs.HistoryRanges`), on 2- and 3-player Leduc and Liar's Dice."""

import random

import numpy as np
import pytest

from gamesolve.evaluate.best_response import TreeEvaluator
from gamesolve.game.explicit_tree import compile_explicit_tree
from gamesolve.game.factored_compiler import compile_factored
from gamesolve.search import SolveMemo, TabularPolicy, compose_agent_policy
from gamesolve.search.compose import RangeSeat
from gamesolve.search.player import keyed_range_search_player
from gamesolve.solve.cfr import TABULAR_ALGORITHMS, TabularCFR
from gamesolve_leduc import LeducGame
from gamesolve_liars_dice import LiarsDiceGame


def search_agent(game, form, blueprint, beliefs, config):
    options = {"beliefs": beliefs, **{key: str(value) for key, value in config.items()}}
    return keyed_range_search_player(game, form, blueprint, options, 0, SolveMemo(max_bytes=None))


def composed_policy(game, tree, form, blueprint, beliefs, **config):
    agent = search_agent(game, form, blueprint, beliefs, config)
    return compose_agent_policy(game, tree, lambda seat: RangeSeat(agent, seat))


def rough_blueprint(tree, iterations=30):
    """A blueprint far from equilibrium (so that searches change a lot), from a few CFR iterations."""
    cfr = TabularCFR(tree, TABULAR_ALGORITHMS["cfr"])
    cfr.run(iterations)
    return TabularPolicy.from_slots(tree, cfr.average_policy())


@pytest.mark.parametrize("config", [
    {"k": 4, "iterations": 200},
    {"k": 2, "iterations": 200, "play": "average"},
    {"k": 4, "iterations": 200, "depth": "actions:2"},
])
def test_two_player_leduc_range_equals_exact(leduc2_tree, leduc2_form, config):
    blueprint = rough_blueprint(leduc2_tree)
    game = LeducGame(2)
    exact = composed_policy(game, leduc2_tree, leduc2_form, blueprint, "exact", **config)
    ranged = composed_policy(game, leduc2_tree, leduc2_form, blueprint, "range", **config)
    assert np.abs(exact - ranged).max() < 1e-9
    evaluator = TreeEvaluator(leduc2_tree)
    assert evaluator.evaluate(exact).exploitability == pytest.approx(evaluator.evaluate(ranged).exploitability, abs=1e-9)


def play_paths(game, form, blueprint, beliefs, seeds, config):
    """The agents' decisions along seeded random hands (every seat a search agent)."""
    out = []
    agent = search_agent(game, form, blueprint, beliefs, config)
    for seed in seeds:
        rng = random.Random(seed)
        agents = [agent.fork() for _ in range(game.num_players)]
        for seat, seated in enumerate(agents):
            seated.new_hand(seat, seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            player = state.current_player()
            if player < 0:
                outcomes = state.chance_outcomes()
                action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                dist = agents[player].policy(state)
                out.append(np.array([dist[a] for a in sorted(dist)]))
                action = rng.choice(sorted(dist))
            for agent in agents:
                agent.observe(state, action)
            state = state.child(action)
    return out


@pytest.mark.parametrize(("hands", "iterations"), [
    pytest.param(2, 20, id="two-hands"),
    pytest.param(6, 50, id="six-hands", marks=pytest.mark.slow),
])  # fmt: skip
def test_three_player_leduc_range_equals_exact_along_random_hands(leduc3_tree, hands, iterations):
    game = LeducGame(3)
    form = compile_factored(game)
    blueprint = rough_blueprint(leduc3_tree, 10)
    config = {"k": 2, "iterations": iterations}
    exact = play_paths(game, form, blueprint, "exact", range(hands), config)
    ranged = play_paths(game, form, blueprint, "range", range(hands), config)
    assert len(exact) == len(ranged) > 2 * hands  # every hand has at least three decisions
    assert max(np.abs(a - b).max() for a, b in zip(exact, ranged)) < 1e-9


def test_liars_dice_range_equals_exact():
    """One die of four sides: every information set (the golden record's slow test checks six
    sides' figures)."""
    game = LiarsDiceGame(sides=4)
    tree = compile_explicit_tree(game)
    form = compile_factored(game)
    blueprint = rough_blueprint(tree, 5)
    exact = composed_policy(game, tree, form, blueprint, "exact", iterations=30)
    ranged = composed_policy(game, tree, form, blueprint, "range", iterations=30)
    assert np.abs(exact - ranged).max() < 1e-9


@pytest.mark.slow
def test_three_player_leduc_composed_exploitability_range_equals_exact(leduc3_tree):
    game = LeducGame(3)
    form = compile_factored(game)
    blueprint = rough_blueprint(leduc3_tree, 10)
    evaluator = TreeEvaluator(leduc3_tree)
    exact = evaluator.evaluate(composed_policy(game, leduc3_tree, form, blueprint, "exact", k=2, iterations=50, play="average"))
    ranged = evaluator.evaluate(composed_policy(game, leduc3_tree, form, blueprint, "range", k=2, iterations=50, play="average"))
    assert exact.nash_conv == pytest.approx(ranged.nash_conv, abs=1e-9)
