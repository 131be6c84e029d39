"""Which actions a subgame offers (supplement, "Abstraction and off-tree actions in
subgames": Pluribus offers fold, call and a few raise sizes, and adds an opponent's off-tree
action when it is taken, Algorithm 2 lines 5-7).

An abstraction answers for a public node of the game's factored form, so it sees only
public information and is the same across an information set.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import attrs

from gamesolve.game.factored import FactoredGame


class ActionAbstraction(Protocol):
    def offered(self, form: FactoredGame, node: int) -> Sequence[int]:
        """A non-empty subset of the node's actions (edge labels of ``form``)."""


class AllActions:
    """Every legal action (the right abstraction for games as small as Leduc)."""

    def offered(self, form: FactoredGame, node: int) -> Sequence[int]:
        return [int(a) for a in form.labels(node)]

    def __repr__(self) -> str:
        return "AllActions()"


@attrs.frozen
class RemoveActions:
    """Every legal action except ``actions`` at the listed public states (tests and
    experiments with off-tree actions): ``{public_state_key: (action, ...)}``."""

    removed: dict[str, tuple[int, ...]]

    def offered(self, form: FactoredGame, node: int) -> Sequence[int]:
        drop = self.removed.get(form.node_keys[node], ())
        legal = [int(a) for a in form.labels(node)]
        return [a for a in legal if a not in drop] or legal
