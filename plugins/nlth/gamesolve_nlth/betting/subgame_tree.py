"""The record of a subgame's public tree (:func:`~gamesolve_nlth.betting.subgame.walk_subgame`
builds it), apart from the walk so that a reader of the record does not import the rules
engine (the spot solver's stand-in form, :mod:`gamesolve_nlth.spot.warm`)."""

from __future__ import annotations

import attrs
import numpy as np

from gamesolve.game.poker_form import terminal_fields


@attrs.frozen(eq=False)
class SubgameTree:
    """A subtree in preorder (local node numbers) with its edges parent by parent, in order."""

    kind: np.ndarray
    player: np.ndarray
    round: np.ndarray
    level: np.ndarray  # cards dealt since the root
    commit: np.ndarray  # [n, seats]
    folded: np.ndarray  # [n, seats]
    poker: np.ndarray  # GOES_ON, FOLD_END or SHOWDOWN
    parent: np.ndarray  # per edge
    child: np.ndarray
    label: np.ndarray
    cls: np.ndarray
    has_chance: bool
    row_owner: np.ndarray  # the node whose rows a node uses (a chooser's leaf nodes share)
    leaf: np.ndarray  # the leaf a rollout terminal values (-1 elsewhere)
    choice: np.ndarray  # [n, seats] the continuation each seat chose at a rollout terminal

    def __len__(self) -> int:
        return len(self.kind)

    def form_fields(self) -> dict:
        """The :class:`~gamesolve.game.factored.FactoredGame` fields of the tree: nodes, edges,
        rows and poker's terminals."""
        n = len(self)
        child_start = np.zeros(n + 1, dtype=np.int32)
        np.cumsum(np.bincount(self.parent, minlength=n), out=child_start[1:])
        return dict(
            node_kind=self.kind, node_player=self.player, node_round=self.round, node_level=self.level,
            child_start=child_start, child_list=self.child.astype(np.int32), edge_label=self.label, edge_class=self.cls,
            row_owner=self.row_owner.astype(np.int32), **terminal_fields(self.poker, self.commit, self.folded),
        )  # fmt: skip
