"""Compile a game to one of its compiled forms, letting plugins supply a faster compiler."""

from __future__ import annotations

from typing import Any

from gamesolve.game.explicit_tree import ExplicitTree, compile_explicit_tree
from gamesolve.game.factored import FactoredGame
from gamesolve.game.factored_compiler import compile_factored
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


def factored_form(game: Game, pm=None, progress=None, options: dict[str, Any] | None = None,
                  lossless: bool = False, cache=None) -> FactoredGame:  # fmt: skip
    """The factored form of ``game``: a plugin's (``gamesolve_compile_game(form="factored")``,
    e.g. an abstraction preset) if one answers, else its factored contract's
    (``Game.factored_contract``), else the generic compiler's. ``lossless``
    asks for a form whose information sets are the game's own (search, exact checks): a
    plugin form that abstracts is then passed over. ``cache`` (e.g.
    :class:`gamesolve.store.form_cache.FormCache`) keeps compiled factored contracts."""
    options = dict(options or {})
    if pm is not None:
        form = pm.hook.gamesolve_compile_game(game=game, form="factored", options=options)
        if form is not None and (form.lossless or not lossless):
            return form
    if options.get("preset"):
        raise ValueError(f"{game.name} has no abstraction presets (got --preset {options['preset']})")
    contract = game.factored_contract() if hasattr(game, "factored_contract") else None
    if contract is not None:
        return contract_form(game, contract, progress, cache)
    if progress is None:
        return compile_factored(game)
    progress.start(None, "nodes", f"factoring {game.describe()}")
    return compile_factored(game, on_nodes=progress.advance)


def contract_form(game: Game, contract, progress=None, cache=None) -> FactoredGame:
    """The factored form of a game that describes itself by a factored contract
    (:mod:`gamesolve.game.contract_compiler`: its cost is public nodes); from ``cache``
    (``load(game, contract)``, ``save(game, contract, form)``) when it holds it."""
    from gamesolve.game.contract_compiler import compile_contract

    form = cache.load(game, contract) if cache is not None else None
    if form is not None:
        if progress is not None:
            progress.note(f"{game.describe()}: its compiled form ({form.num_nodes:,} public nodes) from the cache")
        return form
    on_nodes = None
    if progress is not None:
        progress.start(None, "nodes", f"factoring {game.describe()} (public tree)")
        on_nodes = progress.advance
    form = compile_contract(contract, game.name, dict(game.params), game.describe(), on_nodes=on_nodes)
    if cache is not None:
        cache.save(game, contract, form)
    return form
