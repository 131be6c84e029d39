"""Strategies as search and agents read them: by the game's information-state key.

One :class:`Policy` interface reads every strategy (DESIGN.md, principle 2): a tabular
policy (a solved small game, or a policy store), a blueprint in a zarr strategy store (read
through the factored form it was trained on, whose ``locate`` maps a key to its row), and
the result of a search. The search never sees a solver's layout; it asks for a key's
probabilities, aligned with the legal actions of the history the key belongs to.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Protocol, runtime_checkable

import numpy as np

from gamesolve.game.explicit_tree import ExplicitTree
from gamesolve.game.factored import DECISION
from gamesolve.game.state import State


@runtime_checkable
class Policy(Protocol):
    """A behaviour strategy profile."""

    def action_probs(self, key: str, num_actions: int) -> np.ndarray:
        """The probabilities at information set ``key`` (``num_actions`` legal actions)."""

    def probs(self, state: State, player: int) -> np.ndarray:
        """``player``'s action probabilities at ``state``, aligned with ``state.legal_actions()``."""


class KeyedPolicy:
    """:meth:`Policy.probs` from :meth:`Policy.action_probs`."""

    def action_probs(self, key: str, num_actions: int) -> np.ndarray:  # pragma: no cover - interface
        raise NotImplementedError

    def probs(self, state: State, player: int) -> np.ndarray:
        return self.action_probs(state.information_state_key(player), len(state.legal_actions()))


class TabularPolicy(KeyedPolicy):
    """A profile stored as ``{infoset key: probabilities over the legal actions}``."""

    def __init__(self, table: Mapping[str, np.ndarray]):
        self.table = {k: np.asarray(v, dtype=np.float64) for k, v in table.items()}

    @classmethod
    def from_slots(cls, tree: ExplicitTree, slots: np.ndarray) -> TabularPolicy:
        """Read a slot-indexed policy of an explicit tree (e.g. ``trainer.explicit_policy(tree)``)."""
        start = tree.infoset_slot_start
        return cls({key: np.array(slots[start[i] : start[i + 1]]) for i, key in enumerate(tree.infoset_keys)})

    def action_probs(self, key: str, num_actions: int) -> np.ndarray:
        try:
            probs = self.table[key]
        except KeyError:
            raise KeyError(f"the policy has no entry for information set {key!r}") from None
        if len(probs) != num_actions:
            raise ValueError(f"information set {key!r}: the policy has {len(probs)} actions, the game {num_actions}")
        return probs


class StoredPolicy(KeyedPolicy):
    """A blueprint in a zarr strategy store (:class:`~gamesolve.store.strategy_store.StrategyStore`),
    read through ``locate`` (information-state key -> (node, private state) of the factored
    form it was trained on). Rows the training never reached play uniformly."""

    def __init__(self, store, locate: Callable[[str], tuple[int, int]]):
        self.store = store
        self.locate = locate

    def action_probs(self, key: str, num_actions: int) -> np.ndarray:
        node, private = self.locate(key)
        probs = self.store.probabilities(node, private)
        if len(probs) != num_actions:
            raise ValueError(f"information set {key!r}: the blueprint has {len(probs)} actions, the game {num_actions}")
        return probs


class StoreRows:
    """Every private state's blueprint probabilities at a node of the form ``store`` was
    trained on: ``at(node) -> float[S, actions]`` (rows never reached play uniformly)."""

    def __init__(self, store):
        self.store = store
        self._states = np.arange(int(store.num_private.max()))

    def at(self, node: int) -> np.ndarray:
        return self.store.probabilities_of(node, self._states)


class KeyedRows:
    """:class:`StoreRows` for any :class:`Policy` over a form that keeps keys (private states
    no key names play uniformly)."""

    def __init__(self, form, policy: Policy):
        self.form = form
        self.policy = policy

    def at(self, node: int) -> np.ndarray:
        n_act = self.form.num_actions_at(node)
        out = np.full((int(self.form.num_private.max()), n_act), 1.0 / n_act)
        for s in range(out.shape[0]):
            key = self.form.key_of(node, s)
            if key is not None:
                out[s] = self.policy.action_probs(key, n_act)
        return out


class NodePolicy:
    """A :class:`Policy` read by public node (``rows.at(node)``, e.g. :class:`StoreRows`) and
    located through a :class:`~gamesolve.search.locate.FormLocator`: it plays forms that name
    no public states, where nothing can be read by key."""

    def __init__(self, rows, locator):
        self.rows = rows
        self.locator = locator

    def action_probs(self, key: str, num_actions: int) -> np.ndarray:
        raise NotImplementedError("a policy read by public node has no information-state keys; ask probs(state, player)")

    def probs(self, state: State, player: int) -> np.ndarray:
        return self.rows.at(self.locator.node(state))[self.locator.private(state, player)]


def row_layout(form) -> tuple[np.ndarray, int]:
    """``(row_offset, total)`` of a table over ``form``'s rows: (owner node, private state
    ``s``) at ``row_offset[owner] + s * actions`` (-1 for nodes without rows of their own)."""
    n_states = int(form.num_private.max())
    owners = (form.node_kind == DECISION) & (form.row_owner == np.arange(form.num_nodes))
    sizes = np.where(owners, form.num_actions * n_states, 0).astype(np.int64)
    return np.where(owners, np.cumsum(sizes) - sizes, -1).astype(np.int64), int(sizes.sum())


def policy_rows(form, policy: Policy) -> tuple[np.ndarray, np.ndarray]:
    """``policy`` laid out as a table over ``form``'s rows (:func:`row_layout`): ``(row_offset,
    rows)``; private states no key names play uniformly."""
    row_offset, total = row_layout(form)
    rows = np.zeros(total)
    keyed = KeyedRows(form, policy)
    for node in np.flatnonzero(row_offset >= 0):
        at = keyed.at(node)
        rows[row_offset[node] : row_offset[node] + at.size] = at.ravel()
    return row_offset, rows


def aligned(distribution: Mapping[int, float], legal) -> np.ndarray:
    """A ``{action: probability}`` map as a vector over ``legal`` (missing actions get 0)."""
    return np.array([distribution.get(int(a), 0.0) for a in legal], dtype=np.float64)
