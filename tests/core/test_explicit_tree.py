"""The explicit-tree compiler: progress reports, and refusing a tree counted too big."""

import pytest

from gamesolve.game import explicit_tree
from gamesolve.game.explicit_tree import CompileError, compile_explicit_tree
from gamesolve_leduc import LeducGame


def test_compiling_reports_the_nodes_walked_in_steps(monkeypatch):
    monkeypatch.setattr(explicit_tree, "COMPILE_REPORT_EVERY", 1000)
    reported = []
    tree = compile_explicit_tree(LeducGame(2), on_nodes=reported.append)
    assert reported and set(reported) == {1000}
    assert sum(reported) == 1000 * ((tree.num_nodes - 1) // 1000)


def test_a_game_that_counts_its_histories_is_refused_before_the_walk_when_too_big():
    class Huge(LeducGame):
        def num_histories(self):
            return 10**12

        def new_initial_state(self):
            raise AssertionError("the compiler must not start walking")

    with pytest.raises(CompileError, match="1,000,000,000,000 histories, more than 50,000,000"):
        compile_explicit_tree(Huge(2))


class _Forgetful:
    """Player 0 moves twice (0 or 1 each time) and forgets their first move; the second move
    pays 1 if it repeats the first. A game without perfect recall."""

    name = "forgetful"
    num_players = 2
    params = {"players": 2}

    def describe(self):
        return "forgetful (2 players)"

    def new_initial_state(self):
        return _ForgetfulState(())


class _ForgetfulState:
    def __init__(self, moves):
        self.moves = moves

    def current_player(self):
        return 0 if len(self.moves) < 2 else -4

    def legal_actions(self):
        return [0, 1] if len(self.moves) < 2 else []

    def chance_outcomes(self):
        return []

    def child(self, action):
        return _ForgetfulState(self.moves + (action,))

    def returns(self):
        win = float(self.moves[0] == self.moves[1])
        return [win, -win]

    def information_state_key(self, player):
        return f"move {len(self.moves)}"  # not which move came first

    def public_state_key(self):
        return ""


def test_a_game_without_perfect_recall_is_refused_naming_the_information_set():
    with pytest.raises(CompileError, match="breaks perfect recall: the histories of information set 'move 1'"):
        compile_explicit_tree(_Forgetful())


def test_a_game_estimated_far_too_big_is_refused_before_the_walk():
    class Estimated(LeducGame):
        def estimated_histories(self, cap):
            return 3e12

        def new_initial_state(self):
            raise AssertionError("the compiler must not start walking")

    with pytest.raises(CompileError, match="about 3e\\+12 histories \\(estimated along random paths\\), far more than 50,000,000"):
        compile_explicit_tree(Estimated(2))
