"""The coarse Leduc card abstraction the search is checked against."""

import pytest

from gamesolve.evaluate.best_response import TreeEvaluator
from gamesolve.game import ParameterError
from gamesolve_leduc import LeducGame
from gamesolve_leduc.poker_form import leduc_form


def test_coarse_abstraction_keeps_the_rank_then_only_whether_the_board_is_paired(leduc2):
    tree = leduc_form(leduc2, "coarse")
    assert tree.num_private.tolist() == [3, 2]
    node, bucket = tree.locate("4:?:")
    assert bucket == 2  # a king before the flop
    assert tree.locate("4:5:cc|")[1] == 1  # king on a king: paired
    assert tree.locate("4:1:cc|")[1] == tree.locate("0:3:cc|")[1] == 0  # unpaired king = unpaired jack


def test_coarse_is_a_game_parameter():
    assert LeducGame(3, abstraction="coarse").params["abstraction"] == "coarse"
    with pytest.raises(ParameterError):
        LeducGame(2, abstraction="coarser")


def test_a_blueprint_on_the_coarse_abstraction_is_far_from_equilibrium(leduc2_tree, coarse_blueprint_slots):
    # The abstraction cannot tell a king from a jack after the flop: that is what search repairs.
    assert TreeEvaluator(leduc2_tree).evaluate(coarse_blueprint_slots).exploitability > 0.3
