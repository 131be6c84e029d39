"""What the search needs from a game beyond the state contract, and the two small
interfaces a game plugs in: the subgame action abstraction and the leaf mapping.

The poker family already describes its public betting to the core for the poker-tree
compiler (``describe(state) -> PublicNodeInfo`` and ``classify(state, action) -> (kind,
amount)``, see :func:`gamesolve.game.poker_tree.build_public_tree`). The search reuses
those two functions unchanged: the betting round (for depth limits and moving the root),
who is still in the hand (who chooses a continuation strategy at a leaf) and whether an
action is a fold, call or raise (for the biased continuation strategies and raise-count
depth limits). Leduc and NLTH hand the same functions to both compilers and the search.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

import attrs

from gamesolve.game.poker_form import CALL, FOLD, RAISE, PublicNodeInfo
from gamesolve.game.state import State

__all__ = ["FOLD", "CALL", "RAISE", "PokerAdapter", "ActionAbstraction", "AllActions", "RemoveActions",
           "LeafMapping", "identity_mapping"]


@attrs.frozen
class PokerAdapter:
    """Public facts about a history, from the plugin's poker-tree functions.

    :ivar describe: ``describe(state) -> PublicNodeInfo`` (round, folded players, ...).
    :ivar classify: ``classify(state, action) -> (FOLD | CALL | RAISE, amount)``.
    """

    describe: Callable[[State], PublicNodeInfo]
    classify: Callable[[State, int], tuple[int, int]]

    def betting_round(self, state: State) -> int:
        return int(self.describe(state).round)

    def in_hand(self, state: State) -> list[int]:
        """Players who have not folded (they choose continuation strategies at leaves)."""
        return [p for p, f in enumerate(self.describe(state).folded) if not f]

    def action_kinds(self, state: State) -> list[int]:
        return [int(self.classify(state, a)[0]) for a in state.legal_actions()]


class ActionAbstraction(Protocol):
    """Which legal actions a subgame offers at a decision node (Pluribus: fold, call and a
    few raise sizes; supplement, "Abstraction and off-tree actions in subgames")."""

    def actions(self, state: State) -> Sequence[int]:
        """A non-empty subset of ``state.legal_actions()``, identical across an infoset
        (it should depend on public information only)."""


class AllActions:
    """Every legal action (the right abstraction for games as small as Leduc)."""

    def actions(self, state: State) -> Sequence[int]:
        return list(state.legal_actions())

    def __repr__(self) -> str:
        return "AllActions()"


@attrs.frozen
class RemoveActions:
    """Every legal action except ``actions`` at the listed public states (tests and
    experiments with off-tree actions): ``{public_state_key: (action, ...)}``."""

    removed: dict[str, tuple[int, ...]]

    def actions(self, state: State) -> Sequence[int]:
        drop = self.removed.get(state.public_state_key(), ())
        kept = [a for a in state.legal_actions() if a not in drop]
        return kept or list(state.legal_actions())


LeafMapping = Callable[[State], State]
"""Maps a history that is not in the blueprint's action abstraction (it contains an action
the search added) to the blueprint history whose continuation values stand in for it. NLTH
plugs in the deterministic pseudo-harmonic translation here (supplement, "Leaf node values
in imperfect-information subgames", last paragraph)."""


def identity_mapping(state: State) -> State:
    """The leaf mapping of a game whose blueprint covers every action (Leduc)."""
    return state
