"""Strategy stores: a solved tabular policy as a zarr group with JSON attributes.

Layout (format ``gamesolve.policy/1``)::

    attrs: format, game, params, num_players, algo, iterations, seconds, code_version, ...
    average_policy     float64[S]   slot-indexed average strategy
    current_policy     float64[S]   slot-indexed current (last-iterate) strategy, optional
    infoset_keys       str[I]       information-state key of each infoset
    infoset_player     int32[I]
    infoset_slot_start int32[I+1]   CSR offsets of each infoset's slots
    slot_action        int32[S]     game action of each slot
"""

from __future__ import annotations

import os
from typing import Any

import attrs
import numpy as np

from gamesolve.game.explicit_tree import ExplicitTree
from gamesolve.provenance import code_attributes
from gamesolve.store.zarr_io import StoreError, atomic_group, open_group, write_array

FORMAT = "gamesolve.policy/1"


@attrs.frozen(eq=False)
class PolicyStore:
    """A policy read back from disk."""

    attrs: dict[str, Any]
    average_policy: np.ndarray
    current_policy: np.ndarray | None
    infoset_keys: tuple[str, ...]
    infoset_player: np.ndarray
    infoset_slot_start: np.ndarray
    slot_action: np.ndarray

    @property
    def game(self) -> str:
        return self.attrs["game"]

    @property
    def params(self) -> dict[str, Any]:
        return dict(self.attrs["params"])

    def policy_for(self, tree: ExplicitTree, which: str = "average") -> np.ndarray:
        """The stored policy laid out on ``tree``'s slots, matched by infoset key and action.

        Raises :class:`StoreError` if the store is for another game or does not cover the tree.
        """
        if tree.game_name != self.game or dict(tree.params) != self.params:
            raise StoreError(
                f"store holds a policy for {self.game} {self.params}, not {tree.game_name} {dict(tree.params)}"
            )
        source = self.average_policy if which == "average" else self.current_policy
        if source is None:
            raise StoreError(f"store has no {which} policy")
        index = {key: i for i, key in enumerate(self.infoset_keys)}
        out = np.empty(tree.num_slots)
        for i, key in enumerate(tree.infoset_keys):
            j = index.get(key)
            if j is None:
                raise StoreError(f"store has no strategy for information set {key!r}")
            a0, a1 = tree.infoset_slot_start[i], tree.infoset_slot_start[i + 1]
            b0, b1 = self.infoset_slot_start[j], self.infoset_slot_start[j + 1]
            if not np.array_equal(tree.slot_action[a0:a1], self.slot_action[b0:b1]):
                raise StoreError(f"information set {key!r} has other actions in the store")
            out[a0:a1] = source[b0:b1]
        return out


def write_policy(
    path: str | os.PathLike,
    tree: ExplicitTree,
    average_policy: np.ndarray,
    current_policy: np.ndarray | None = None,
    **attributes: Any,
) -> None:
    """Write a slot-indexed policy for ``tree`` to a zarr store at ``path`` (atomically)."""
    with atomic_group(path) as group:
        group.attrs.update(
            {
                "format": FORMAT,
                "game": tree.game_name,
                "params": dict(tree.params),
                "num_players": tree.num_players,
                **code_attributes(),
                **attributes,
            }
        )
        write_array(group, "average_policy", np.asarray(average_policy, dtype=np.float64))
        if current_policy is not None:
            write_array(group, "current_policy", np.asarray(current_policy, dtype=np.float64))
        write_array(group, "infoset_keys", np.array(tree.infoset_keys, dtype=str))
        write_array(group, "infoset_player", tree.infoset_player)
        write_array(group, "infoset_slot_start", tree.infoset_slot_start)
        write_array(group, "slot_action", tree.slot_action)


def read_policy(path: str | os.PathLike) -> PolicyStore:
    """Read a policy store; :class:`StoreError` if it is missing or not a policy store."""
    group = open_group(path, "policy store")
    meta = dict(group.attrs)
    if meta.get("format") == "gamesolve.mccfr/1" and "policy" in set(group.group_keys()):
        group = group["policy"]  # an MCCFR checkpoint store keeps its final policy here
        meta = dict(group.attrs)
    if meta.get("format") != FORMAT:
        raise StoreError(f"{path} is not a gamesolve policy store (format {meta.get('format')!r})")
    names = set(group.array_keys())
    return PolicyStore(
        attrs=meta,
        average_policy=group["average_policy"][...],
        current_policy=group["current_policy"][...] if "current_policy" in names else None,
        infoset_keys=tuple(str(k) for k in group["infoset_keys"][...]),
        infoset_player=group["infoset_player"][...],
        infoset_slot_start=group["infoset_slot_start"][...],
        slot_action=group["slot_action"][...],
    )
