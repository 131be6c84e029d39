"""Kuhn and Leduc have open-spiel's rules, payoffs and player order, history for history."""

import pytest

from gamesolve_kuhn import KuhnGame
from gamesolve_leduc import LeducGame
from tests.oracles.openspiel_walk import assert_same_tree

pyspiel = pytest.importorskip("pyspiel")
pytestmark = pytest.mark.oracle


@pytest.mark.parametrize("players", [2, 3, 4])
def test_kuhn_is_open_spiels_kuhn_poker(players):
    nodes = assert_same_tree(KuhnGame(players), pyspiel.load_game("kuhn_poker", {"players": players}))
    assert nodes > 50


def test_leduc_is_open_spiels_leduc_poker():
    assert assert_same_tree(LeducGame(2), pyspiel.load_game("leduc_poker")) == 9457


def test_three_player_leduc_matches_open_spiel_on_its_first_histories():
    assert_same_tree(LeducGame(3), pyspiel.load_game("leduc_poker", {"players": 3}), max_nodes=60_000)
