"""Knuth's estimate of a tree's size: exact on a tree of uniform branching, unbiased (close on
average) on a lopsided one, and stopping at once on a tree far beyond its cap."""

import pytest

from gamesolve.game.explicit_tree import compile_explicit_tree
from gamesolve.game.tree_size import estimate_histories
from gamesolve_leduc import LeducGame
from tests.plugins.biased_rps import BiasedRPS


def test_a_tree_of_uniform_branching_is_estimated_exactly():
    assert estimate_histories(BiasedRPS(), probes=5) == 1 + 3 + 9


def test_leduc_is_estimated_within_a_few_percent():
    game = LeducGame(2)
    exact = compile_explicit_tree(game).num_nodes
    assert estimate_histories(game, probes=4000, seed=1) == pytest.approx(exact, rel=0.1)


def test_the_estimate_stops_once_past_its_cap():
    calls = []

    class Counting(LeducGame):
        def new_initial_state(self):
            calls.append(1)
            return super().new_initial_state()

    assert estimate_histories(Counting(2), probes=1000, cap=0.01) > 0.01  # the first path is past it
    assert len(calls) == 1
