"""Compile a game to an explicit tree, letting plugins supply a faster compiler."""

from __future__ import annotations

from gamesolve.game.explicit_tree import ExplicitTree, compile_explicit_tree
from gamesolve.game.state import Game


def compiled_tree(game: Game, pm=None) -> ExplicitTree:
    """The explicit tree of ``game``: from a plugin's ``gamesolve_compile_game`` hook if one
    answers, else from the generic walk of the state API."""
    if pm is not None:
        tree = pm.hook.gamesolve_compile_game(game=game, form="explicit_tree", options={})
        if tree is not None:
            return tree
    return compile_explicit_tree(game)
