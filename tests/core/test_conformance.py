"""The conformance checks pass on good games and catch broken ones."""

import pytest

from gamesolve.game import TERMINAL, Game, State
from gamesolve.testing import ConformanceError, check_game_conformance
from gamesolve_kuhn import KuhnGame
from gamesolve_leduc import LeducGame


@pytest.mark.parametrize("game", [KuhnGame(2), KuhnGame(4), LeducGame(2)], ids=lambda g: g.describe())
def test_toy_games_pass_completely(game):
    assert check_game_conformance(game)["complete"] == 1


def test_large_games_get_random_walks():
    report = check_game_conformance(LeducGame(3), max_nodes=500, random_walks=50)
    assert report["complete"] == 0 and report["states"] > 500


def test_the_fixture_is_the_check(game_conformance):
    assert game_conformance is check_game_conformance


class Peek(State):
    """Player 1 acts twice; the second time its key forgets its own first move."""

    def __init__(self, moves=()):
        self.moves = moves

    def current_player(self):
        return [0, 1, 1][len(self.moves)] if len(self.moves) < 3 else TERMINAL

    def legal_actions(self):
        return [0, 1]

    def chance_outcomes(self):
        return []

    def child(self, action):
        if action not in (0, 1):
            raise ValueError("bad")
        return Peek(self.moves + (action,))

    def returns(self):
        return [1.0, -1.0] if sum(self.moves) % 2 else [-1.0, 1.0]

    def information_state_key(self, player):
        if player == 1:
            return f"1:{len(self.moves)}"  # forgets its own earlier move
        return f"0:{self.moves[:1]}"

    def public_state_key(self):
        return str(len(self.moves))


class PeekGame(Game):
    name = "peek"

    def new_initial_state(self):
        return Peek()


def test_imperfect_recall_is_detected():
    with pytest.raises(ConformanceError, match="perfect recall"):
        check_game_conformance(PeekGame(2))


class Mutating(Peek):
    def child(self, action):
        if action not in (0, 1):
            raise ValueError("bad")
        self.moves = self.moves + (action,)
        return self


class MutatingGame(Game):
    name = "mutating"

    def new_initial_state(self):
        return Mutating()


def test_a_child_that_mutates_its_parent_is_detected():
    with pytest.raises(ConformanceError, match="unchanged"):
        check_game_conformance(MutatingGame(2))
