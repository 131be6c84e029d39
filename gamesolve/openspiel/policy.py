"""Policies of ``openspiel:`` games to open-spiel's ``TabularPolicy`` and back.

An ``openspiel:`` game keys its information sets by open-spiel's own information-state
strings, so a gamesolve policy (slot-indexed over an explicit tree, or read from a store)
and an open-spiel tabular policy describe the same table: one row of action probabilities
per information state. The file form is that table as JSON, ``{"policy": {information
state: [[action, probability], ...]}, ...}`` -- what ``pyspiel.TabularPolicy(table)`` is
built from (:func:`load_table` reads it back).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from gamesolve.errors import UserError
from gamesolve.openspiel import PREFIX

FILE_FORMAT = "gamesolve.openspiel-policy/1"


def policy_table(layout, policy: np.ndarray) -> dict[str, list[tuple[int, float]]]:
    """``{information state: [(action, probability), ...]}`` of a slot-indexed ``policy`` over
    ``layout`` (an explicit tree or a policy store: ``infoset_keys``, ``infoset_slot_start``,
    ``slot_action``)."""
    start, actions = layout.infoset_slot_start, layout.slot_action
    return {key: [(int(a), float(p)) for a, p in zip(actions[start[i]:start[i + 1]], policy[start[i]:start[i + 1]])]
            for i, key in enumerate(layout.infoset_keys)}  # fmt: skip


def to_tabular_policy(os_game, table: Mapping[str, Sequence[tuple[int, float]]]):
    """open-spiel's Python ``TabularPolicy`` over ``os_game`` holding ``table``'s
    probabilities; a :class:`UserError` naming the first information state of the game the
    table has no row for, or whose actions differ."""
    from open_spiel.python import policy as policy_lib

    tabular = policy_lib.TabularPolicy(os_game)
    for key, row in tabular.state_lookup.items():
        if key not in table:
            raise UserError(f"the policy has no strategy for open-spiel information state {_short(key)!r}")
        legal = np.flatnonzero(tabular.legal_actions_mask[row])
        given = dict((int(a), float(p)) for a, p in table[key])
        if sorted(given) != legal.tolist():
            raise UserError(f"information state {_short(key)!r}: the policy's actions {sorted(given)} "
                            f"are not open-spiel's {legal.tolist()}")  # fmt: skip
        probs = tabular.action_probability_array[row]
        probs[:] = 0.0
        probs[legal] = [given[int(a)] for a in legal]
    return tabular


def from_tabular_policy(policy, layout) -> np.ndarray:
    """A slot-indexed policy over ``layout`` (an explicit tree) from an open-spiel policy: a
    Python ``TabularPolicy``, a ``pyspiel.TabularPolicy`` or a ``{state: [(action, p)]}``
    table; a :class:`UserError` for a missing information state or a probability on an
    action that is not legal there."""
    table = _as_table(policy)
    start, actions = layout.infoset_slot_start, layout.slot_action
    out = np.empty(len(actions))
    for i, key in enumerate(layout.infoset_keys):
        row = table.get(key)
        if row is None:
            raise UserError(f"the open-spiel policy has no strategy for information state {_short(key)!r}")
        given = {int(a): float(p) for a, p in row}
        legal = actions[start[i]:start[i + 1]].tolist()
        stray = [a for a, p in given.items() if p > 0 and a not in legal]
        if stray:
            raise UserError(f"information state {_short(key)!r}: probability on action {stray[0]}, not legal there")
        out[start[i]:start[i + 1]] = [given.get(a, 0.0) for a in legal]
        total = out[start[i]:start[i + 1]].sum()
        if not np.isfinite(total) or abs(total - 1.0) > 1e-6 or (out[start[i]:start[i + 1]] < 0).any():
            raise UserError(f"information state {_short(key)!r}: probabilities {out[start[i]:start[i + 1]].tolist()} "
                            "are not a distribution")  # fmt: skip
    return out


def _as_table(policy) -> dict[str, Sequence[tuple[int, float]]]:
    if isinstance(policy, Mapping):
        return dict(policy)
    if hasattr(policy, "state_lookup") and hasattr(policy, "action_probability_array"):  # Python TabularPolicy
        return {key: [(int(a), float(p)) for a, p in enumerate(policy.action_probability_array[row])]
                for key, row in policy.state_lookup.items()}  # fmt: skip
    if hasattr(policy, "policy_table"):  # pyspiel.TabularPolicy
        return dict(policy.policy_table())
    raise UserError(f"not an open-spiel tabular policy: {type(policy).__name__} "
                    "(open-spiel's CFR solvers give one with tabular_average_policy())")


def _short(key: str) -> str:
    """An information-state string on one line (open-spiel's may span several)."""
    return " ".join(key.split())


def write_table(path: Path, game, table: Mapping[str, Sequence[tuple[int, float]]], meta: dict[str, Any]) -> None:
    """The policy table as JSON at ``path``, with the game (gamesolve name and parameters,
    and open-spiel's own string for ``pyspiel.load_game``) and ``meta``."""
    document = {
        "format": FILE_FORMAT,
        "game": game.name,
        "params": {k: v for k, v in game.params.items()},
        "openspiel_game": str(game.os_game),
        **meta,
        "policy": {key: [[a, p] for a, p in row] for key, row in table.items()},
    }
    path.write_text(json.dumps(document), encoding="utf-8")


def load_table(path: Path) -> dict[str, Any]:
    """A policy file written by :func:`write_table` (or a bare ``{state: [[a, p], ...]}``
    table, as ``TabularPolicy.to_dict()`` gives): ``{"game", "params", "policy"}`` (game and
    params ``None`` for a bare table); a :class:`UserError` if it is neither."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise UserError(f"cannot read an open-spiel policy from {path}: {exc}") from None
    if isinstance(document, dict) and document.get("format") == FILE_FORMAT:
        table, game, params = document.get("policy"), document.get("game"), document.get("params")
    else:
        table, game, params = document, None, None
    if not isinstance(table, dict) or not all(
        isinstance(row, list) and all(isinstance(x, list) and len(x) == 2 for x in row) for row in table.values()
    ):
        raise UserError(f"{path} is not an open-spiel policy table ({{information state: [[action, probability], ...]}})")
    if game is not None and not str(game).startswith(PREFIX):
        raise UserError(f"{path} holds a policy for {game}, not an openspiel: game")
    return {"game": game, "params": params, "policy": {k: [(int(a), float(p)) for a, p in v] for k, v in table.items()}}
