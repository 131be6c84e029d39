"""Compiled factored forms of large games are cached on disk (gamesolve/store/form_cache.py):
a second run loads the arrays instead of compiling, a damaged entry is compiled again, and the
key follows the game's parameters."""

from __future__ import annotations

import numpy as np
import pytest
from gamesolve_liars_dice.game import LiarsDiceGame

from gamesolve.game import contract_compiler
from gamesolve.game.compile import factored_form
from gamesolve.store import form_cache
from gamesolve.store.form_cache import FormCache, form_path


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("GAMESOLVE_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(form_cache, "MIN_NODES", 1000)  # Liar's Dice 2x4 (131,071 nodes) counts as large
    return FormCache()


def _compiles(monkeypatch) -> list:
    calls = []
    real = contract_compiler.compile_contract
    monkeypatch.setattr(contract_compiler, "compile_contract", lambda *a, **k: calls.append(1) or real(*a, **k))
    return calls


def test_a_second_run_loads_the_form_instead_of_compiling(cache, monkeypatch):
    game = LiarsDiceGame(dice=2, sides=4)
    calls = _compiles(monkeypatch)
    first = factored_form(game, cache=cache)
    second = factored_form(game, cache=cache)
    assert len(calls) == 1 and form_path(game, game.factored_contract()).is_dir()
    for name in ("node_kind", "child_list", "edge_label", "settled_value", "term_row", "table", "payoff"):
        assert np.array_equal(getattr(first, name), getattr(second, name)), name
    assert np.array_equal(first.deals.listed.private, second.deals.listed.private)
    assert (second.regret_scale, second.mccfr_defaults) == (first.regret_scale, first.mccfr_defaults)


def test_a_damaged_entry_is_compiled_again(cache, monkeypatch):
    game = LiarsDiceGame(dice=2, sides=4)
    factored_form(game, cache=cache)
    path = form_path(game, game.factored_contract())
    chunk = next(p for p in (path / "table").rglob("*") if p.is_file() and p.name != "zarr.json")
    chunk.write_bytes(b"garbage")
    calls = _compiles(monkeypatch)
    form = factored_form(game, cache=cache)
    assert len(calls) == 1 and form.num_nodes == 2**17 - 1


def test_other_parameters_are_another_entry(cache):
    two_by_four = LiarsDiceGame(dice=2, sides=4)
    reset_quantity = LiarsDiceGame(dice=2, sides=4, bidding_rule="reset-quantity")
    assert form_path(two_by_four, two_by_four.factored_contract()) != form_path(reset_quantity, reset_quantity.factored_contract())


def test_small_forms_are_not_cached(tmp_path, monkeypatch):
    monkeypatch.setenv("GAMESOLVE_CACHE_DIR", str(tmp_path))
    factored_form(LiarsDiceGame(dice=2, sides=4), cache=FormCache())  # 131,071 nodes: compiles in a second or two
    assert not (tmp_path / "forms").exists()


def test_a_form_made_by_newer_code_replaces_the_older_entry(cache, monkeypatch):
    game = LiarsDiceGame(dice=2, sides=4)
    factored_form(game, cache=cache)
    old = form_path(game, game.factored_contract())
    monkeypatch.setattr(form_cache, "form_path", lambda g, c: old.parent / "newer-code")
    factored_form(game, cache=cache)
    assert sorted(p.name for p in old.parent.iterdir() if not p.name.startswith(".")) == ["newer-code"]
