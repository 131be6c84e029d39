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
