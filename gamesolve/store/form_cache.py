"""Compiled factored forms of large games, cached on disk so that a second run starts at once.

A factored contract of tens of millions of public nodes takes minutes to compile (Liar's Dice
with two six-sided dice: about four); its arrays load in seconds. The cache holds forms above
:data:`MIN_NODES` public nodes, in ``<cache root>/forms/<game>-<key>/`` (gamesolve/cache_paths.py),
one zarr group each, written atomically and checked on read (gamesolve/store/zarr_io.py).
The key hashes the game's name and parameters and the source of the code that made the form
(the contract's module, the game's, the contract compiler and the form's definition), so an edited rule
or compiler never loads a stale form; writing a form removes the same game's entries made by
older code. ``GAMESOLVE_FORM_CACHE=off`` turns it off;
``gamesolve cache clear --all`` empties it.

Forms this large keep no node keys (``contract_compiler.KEY_LIMIT``), so nothing is lost
that a cached form would need: the arrays are the whole form.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import os
from pathlib import Path

import numpy as np

from gamesolve.cache_paths import cache_root
from gamesolve.errors import StoreError
from gamesolve.game import contract_compiler, factored
from gamesolve.game.deals import ListedDeals
from gamesolve.game.factored import FactoredGame
from gamesolve.store.lock import StoreLock
from gamesolve.store.zarr_io import _remove, atomic_group, open_group, write_array

MIN_NODES = contract_compiler.KEY_LIMIT
"""Forms with more public nodes than this are cached (smaller ones compile in seconds)."""

KIND = "gamesolve-factored-form"
FORMAT = 1

_ARRAYS = ("node_kind", "node_player", "node_round", "node_level", "child_start", "child_list", "edge_label",
           "edge_class", "settled", "settled_value", "term_kind", "payoff", "term_row", "table", "num_private")  # fmt: skip


_LOADED: dict[Path, FactoredGame] = {}
"""Forms this process has loaded: the agents of one match share one (Liar's Dice 2x6: 2 GB)."""


class FormCache:
    """What :func:`gamesolve.game.compile.factored_form` asks before compiling a factored
    contract and tells after (``cache=``): the game layer knows no stores."""

    def load(self, game, contract) -> FactoredGame | None:
        if not enabled():
            return None
        path = form_path(game, contract)
        form = _LOADED.get(path)
        if form is None:
            form = load(path)
            if form is not None:
                _LOADED[path] = form
        return form

    def save(self, game, contract, form: FactoredGame) -> None:
        if enabled() and form.num_nodes > MIN_NODES:
            save(form_path(game, contract), form)


def enabled() -> bool:
    return os.environ.get("GAMESOLVE_FORM_CACHE", "on").lower() not in ("off", "0", "false", "no")


def form_path(game, contract) -> Path:
    """The folder that holds (or will hold) ``game``'s form: ``forms/<game>-<parameters>/<code>``
    (module docstring), so that the entries of older code sit beside the current one."""
    settings = hashlib.sha256(json.dumps({"game": game.name, "params": game.params}, sort_keys=True, default=str).encode())
    code = hashlib.sha256()
    for module in (inspect.getmodule(type(contract)), inspect.getmodule(type(game)), contract_compiler, factored):
        source = inspect.getsourcefile(module) if module is not None else None
        code.update(Path(source).read_bytes() if source else b"")
    return cache_root() / "forms" / f"{game.name}-{settings.hexdigest()[:12]}" / code.hexdigest()[:12]


def load(path: Path) -> FactoredGame | None:
    """The cached form at ``path``, or None if there is none; a damaged one is removed (and
    compiled again by the caller)."""
    if not (path / "zarr.json").exists():
        return None
    try:
        group = open_group(path, "compiled factored form")
        attrs = dict(group.attrs)
        if attrs.get("kind") != KIND or attrs.get("format") != FORMAT:
            return None
        arrays = {name: np.asarray(group[name][...]) for name in _ARRAYS}
        deals = ListedDeals(private=np.asarray(group["deal_private"][...]), public=np.asarray(group["deal_public"][...]),
                            prob=np.asarray(group["deal_prob"][...]))  # fmt: skip
    except StoreError:
        _remove(path)
        return None
    n = len(arrays["node_kind"])
    return FactoredGame(
        game_name=attrs["game"], params=attrs["params"], num_players=attrs["num_players"], num_rounds=attrs["num_rounds"],
        row_owner=np.arange(n, dtype=np.int32), contender=np.zeros((n, attrs["num_players"]), dtype=bool),
        deals=deals, class_names=tuple(attrs["class_names"]), regret_scale=attrs["regret_scale"],
        mccfr_defaults=attrs["mccfr_defaults"], describe=attrs["describe"], lossless=True, **arrays,
    )  # fmt: skip


def save(path: Path, form: FactoredGame) -> None:
    """Write ``form`` at ``path`` (atomically; one writer at a time, the others skip)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    lock = StoreLock(path.parent, lock_file=path.parent / ".lock")
    try:
        lock.acquire()
    except StoreError:
        return  # another process is writing it
    try:
        for stale in path.parent.iterdir():  # the same game's forms made by older code: never read again
            if stale.is_dir() and stale.name != path.name and not stale.name.startswith("."):
                _remove(stale)
        with atomic_group(path, "compiled factored form") as group:
            for name in _ARRAYS:
                write_array(group, name, getattr(form, name), chunk=1 << 22)
            listed = form.deals.listed
            write_array(group, "deal_private", listed.private)
            write_array(group, "deal_public", listed.public)
            write_array(group, "deal_prob", listed.prob)
            group.attrs.update({
                "kind": KIND, "format": FORMAT, "game": form.game_name, "params": form.params,
                "num_players": form.num_players, "num_rounds": form.num_rounds, "class_names": list(form.class_names),
                "regret_scale": form.regret_scale, "mccfr_defaults": form.mccfr_defaults, "describe": form.describe,
            })  # fmt: skip
    finally:
        lock.release()
