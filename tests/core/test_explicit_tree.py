"""The explicit-tree compiler's progress reports."""

from gamesolve.game import explicit_tree
from gamesolve.game.explicit_tree import compile_explicit_tree
from gamesolve_leduc import LeducGame


def test_compiling_reports_the_nodes_walked_in_steps(monkeypatch):
    monkeypatch.setattr(explicit_tree, "COMPILE_REPORT_EVERY", 1000)
    reported = []
    tree = compile_explicit_tree(LeducGame(2), on_nodes=reported.append)
    assert reported and set(reported) == {1000}
    assert sum(reported) == 1000 * ((tree.num_nodes - 1) // 1000)
