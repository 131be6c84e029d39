"""Strategies in table layout (one row per (node, private state), addressed through the row
owner's offset) read back onto an explicit tree's information sets."""

from __future__ import annotations

import numpy as np

from gamesolve.game.explicit_tree import ExplicitTree
from gamesolve.game.factored import FactoredGame


def explicit_slots(form: FactoredGame, node_offset: np.ndarray, rows: np.ndarray, tree: ExplicitTree) -> np.ndarray:
    """The slot-indexed policy of ``tree`` (the same game, compiled explicitly) that plays
    ``rows``: each of the game's information sets is mapped by the form's ``locate``;
    rows never allocated play uniformly."""
    if form.locate is None:
        raise ValueError(f"{form.game_name}'s form does not map the game's information sets back")
    out = np.empty(tree.num_slots)
    n_actions = form.num_actions
    for i, key in enumerate(tree.infoset_keys):
        node, private = form.locate(key)
        s0, s1 = tree.infoset_slot_start[i], tree.infoset_slot_start[i + 1]
        a = n_actions[node]
        if a != s1 - s0:
            raise ValueError(f"infoset {key!r}: {s1 - s0} actions in the game, {a} in the factored form")
        off = node_offset[form.row_owner[node]]
        out[s0:s1] = 1.0 / a if off < 0 else rows[off + private * a : off + (private + 1) * a]
    return out
