"""Strategies as the search code reads them: keyed by information-state key.

The search never sees a solver's internal layout. A :class:`Policy` answers "what are
``player``'s action probabilities at this history", aligned with ``state.legal_actions()``;
a blueprint (from any trainer), the continuation strategies and the result of a search are
all read through it. Keys are the game's own information-state keys, so the same code runs
for Leduc (an exact table) and NLTH (a lookup through the card and action abstraction).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol, runtime_checkable

import numpy as np

from gamesolve.game.explicit_tree import ExplicitTree
from gamesolve.game.state import State


@runtime_checkable
class Policy(Protocol):
    """A behaviour strategy profile."""

    def probs(self, state: State, player: int) -> np.ndarray:
        """``player``'s action probabilities at ``state``, aligned with ``state.legal_actions()``."""


class TabularPolicy:
    """A profile stored as ``{infoset key: probabilities over the legal actions}``."""

    def __init__(self, table: Mapping[str, np.ndarray]):
        self.table = {k: np.asarray(v, dtype=np.float64) for k, v in table.items()}

    @classmethod
    def from_slots(cls, tree: ExplicitTree, slots: np.ndarray) -> TabularPolicy:
        """Read a slot-indexed policy of an explicit tree (e.g. ``trainer.explicit_policy(tree)``)."""
        start = tree.infoset_slot_start
        return cls({key: np.array(slots[start[i] : start[i + 1]]) for i, key in enumerate(tree.infoset_keys)})

    def probs(self, state: State, player: int) -> np.ndarray:
        key = state.information_state_key(player)
        try:
            return self.table[key]
        except KeyError:
            raise KeyError(f"the policy has no entry for information set {key!r}") from None


class StrategyTable:
    """A strategy over *chosen* actions: ``{key: (actions, probabilities)}``.

    A subgame's action abstraction may offer fewer actions than the rules allow, so a
    search result names its actions explicitly; an action it does not list has probability 0.
    """

    def __init__(self, entries: Mapping[str, tuple[Sequence[int], np.ndarray]] | None = None):
        self.entries: dict[str, tuple[tuple[int, ...], np.ndarray]] = {
            k: (tuple(int(a) for a in acts), np.asarray(p, dtype=np.float64)) for k, (acts, p) in (entries or {}).items()
        }

    def __contains__(self, key: str) -> bool:
        return key in self.entries

    def __len__(self) -> int:
        return len(self.entries)

    def distribution(self, key: str) -> dict[int, float]:
        actions, probs = self.entries[key]
        return {a: float(p) for a, p in zip(actions, probs)}

    def action_prob(self, key: str, action: int) -> float:
        return self.distribution(key).get(int(action), 0.0)


def aligned(distribution: Mapping[int, float], legal: Sequence[int]) -> np.ndarray:
    """A ``{action: probability}`` map as a vector over ``legal`` (missing actions get 0)."""
    return np.array([distribution.get(int(a), 0.0) for a in legal], dtype=np.float64)
