"""Compile a game to an explicit tree, letting plugins supply a faster compiler."""

from __future__ import annotations

from gamesolve.game.explicit_tree import ExplicitTree, compile_explicit_tree
from gamesolve.game.state import Game


def compiled_tree(game: Game, pm=None, progress=None) -> ExplicitTree:
    """The explicit tree of ``game``: from a plugin's ``gamesolve_compile_game`` hook if one
    answers, else from the generic walk of the state API (shown on ``progress``, a
    :class:`gamesolve.solve.spec.Progress`, as nodes walked: three-player Leduc takes a minute)."""
    if pm is not None:
        tree = pm.hook.gamesolve_compile_game(game=game, form="explicit_tree", options={})
        if tree is not None:
            return tree
    if progress is None:
        return compile_explicit_tree(game)
    progress.start(None, "nodes", f"compiling {game.describe()}")
    return compile_explicit_tree(game, on_nodes=progress.advance)
