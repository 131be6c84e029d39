"""The explicit-tree compiled form: a whole game tree as flat preorder arrays.

This is what the tabular kernels (CFR family, best response) run on. Node ``0`` is the
root; every node's parent comes before it (preorder), so one forward loop propagates
reach probabilities and one backward loop accumulates values, with no recursion.

Weights of incoming edges live in one vector ``W`` laid out as
``[strategy slots (n_slots) | 1.0 | chance probabilities (n_chance_edges)]``, and
``edge_w[c]`` indexes it for node ``c``. A decision node's ``k``-th child belongs to slot
``infoset_slot_start[infoset] + k``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs
import numpy as np

from gamesolve.game.recall import first_recall_break
from gamesolve.game.state import CHANCE, TERMINAL, Game
from gamesolve.game.tree_size import collector_paused, too_big

DECISION, CHANCE_NODE, TERMINAL_NODE = 0, 1, 2


class CompileError(ValueError):
    """The game breaks the contract in a way the compiler noticed."""


@attrs.frozen(eq=False)
class ExplicitTree:
    """A compiled game tree (see the module docstring for the layout)."""

    game_name: str
    params: dict[str, Any]
    num_players: int
    node_kind: np.ndarray  # int8[N]: DECISION, CHANCE_NODE or TERMINAL_NODE
    node_player: np.ndarray  # int32[N]: acting player, CHANCE or TERMINAL
    parent: np.ndarray  # int32[N]: parent node, -1 for the root
    edge_w: np.ndarray  # int32[N]: index into W of the edge from the parent
    child_start: np.ndarray  # int32[N+1]: CSR offsets into child_list
    child_list: np.ndarray  # int32[E]: children in action order
    node_infoset: np.ndarray  # int32[N]: infoset of a decision node, else -1
    utility: np.ndarray  # float64[N, P]: returns at terminal nodes, 0 elsewhere
    chance_prob: np.ndarray  # float64[C]: probability of each chance edge
    infoset_player: np.ndarray  # int32[I]
    infoset_slot_start: np.ndarray  # int32[I+1]: CSR offsets of infoset action slots
    slot_action: np.ndarray  # int32[S]: the game action of each slot
    infoset_keys: tuple[str, ...]  # information-state key of each infoset

    @property
    def num_nodes(self) -> int:
        return len(self.node_kind)

    @property
    def num_infosets(self) -> int:
        return len(self.infoset_player)

    @property
    def num_slots(self) -> int:
        return len(self.slot_action)

    def weights(self, strategy: np.ndarray) -> np.ndarray:
        """``W = [strategy | 1 | chance probabilities]`` for a slot-indexed strategy."""
        return np.concatenate([strategy, np.ones(1), self.chance_prob])

    def uniform_policy(self) -> np.ndarray:
        """Slot-indexed uniform strategy."""
        counts = np.diff(self.infoset_slot_start)
        return np.repeat(1.0 / counts, counts)

    def infoset_index(self) -> dict[str, int]:
        return {key: i for i, key in enumerate(self.infoset_keys)}

    def summary(self) -> dict[str, int]:
        return {
            "nodes": self.num_nodes,
            "terminals": int((self.node_kind == TERMINAL_NODE).sum()),
            "chance_nodes": int((self.node_kind == CHANCE_NODE).sum()),
            "decision_nodes": int((self.node_kind == DECISION).sum()),
            "infosets": self.num_infosets,
            "slots": self.num_slots,
        }


COMPILE_REPORT_EVERY = 1 << 16
"""Nodes between two calls of ``compile_explicit_tree``'s ``on_nodes`` callback."""


def compile_explicit_tree(game: Game, max_nodes: int = 50_000_000,
                          on_nodes: Callable[[int], None] | None = None) -> ExplicitTree:
    """Walk the whole game through its state API into an :class:`ExplicitTree`.

    Iterative depth-first walk, children in action order. Raises :class:`CompileError`
    if two histories of one information set disagree on legal actions or player, or if
    the tree exceeds ``max_nodes``. ``on_nodes(n)`` is told every
    :data:`COMPILE_REPORT_EVERY` nodes walked (a progress bar for games that take a while).
    """
    with collector_paused():
        return _compile_explicit_tree(game, max_nodes, on_nodes)


def _compile_explicit_tree(game: Game, max_nodes: int, on_nodes: Callable[[int], None] | None) -> ExplicitTree:
    # Walking toward the limit first would take minutes and gigabytes before failing.
    why = too_big(game, max_nodes, "an explicit tree")
    if why is not None:
        raise CompileError(why)
    n_players = game.num_players
    kind: list[int] = []
    player_of: list[int] = []
    parent: list[int] = []
    edge_w: list[int] = []  # provisional: ("slot", k) encoded later
    edge_is_chance: list[bool] = []
    node_infoset: list[int] = []
    util_rows: dict[int, list[float]] = {}
    chance_prob: list[float] = []
    infoset_ids: dict[str, int] = {}
    infoset_player: list[int] = []
    infoset_actions: list[tuple[int, ...]] = []

    stack = [(game.new_initial_state(), -1, -1, False)]
    while stack:
        state, par, w, is_chance_edge = stack.pop()
        node = len(kind)
        if node >= max_nodes:
            raise CompileError(f"{game.describe()} has more than {max_nodes:,} nodes; too big for an explicit tree")
        if on_nodes is not None and node % COMPILE_REPORT_EVERY == 0 and node:
            on_nodes(COMPILE_REPORT_EVERY)
        parent.append(par)
        edge_w.append(w)
        edge_is_chance.append(is_chance_edge)
        p = state.current_player()
        player_of.append(p)
        if p == TERMINAL:
            kind.append(TERMINAL_NODE)
            node_infoset.append(-1)
            returns = [float(x) for x in state.returns()]
            if len(returns) != n_players:
                raise CompileError(f"returns() gave {len(returns)} values for {n_players} players")
            util_rows[node] = returns
            continue
        if p == CHANCE:
            kind.append(CHANCE_NODE)
            node_infoset.append(-1)
            outcomes = list(state.chance_outcomes())
            total = sum(prob for _, prob in outcomes)
            if not outcomes or abs(total - 1.0) > 1e-9:
                raise CompileError(f"chance outcomes at {state!r} sum to {total}, not 1")
            for action, prob in reversed(outcomes):
                chance_prob.append(prob)
                stack.append((state.child(action), node, len(chance_prob) - 1, True))
            continue
        if not 0 <= p < n_players:
            raise CompileError(f"current_player() returned {p}")
        kind.append(DECISION)
        actions = tuple(int(a) for a in state.legal_actions())
        if not actions:
            raise CompileError(f"no legal actions at non-terminal {state!r}")
        key = state.information_state_key(p)
        infoset = infoset_ids.get(key)
        if infoset is None:
            infoset = infoset_ids[key] = len(infoset_player)
            infoset_player.append(p)
            infoset_actions.append(actions)
        elif infoset_actions[infoset] != actions or infoset_player[infoset] != p:
            raise CompileError(
                f"information set {key!r}: histories disagree on player or legal actions "
                f"({infoset_player[infoset]}, {infoset_actions[infoset]} vs {p}, {actions})"
            )
        node_infoset.append(infoset)
        for k in reversed(range(len(actions))):
            stack.append((state.child(actions[k]), node, k, False))

    n = len(kind)
    slot_counts = np.array([len(a) for a in infoset_actions], dtype=np.int64)
    slot_start = np.zeros(len(infoset_actions) + 1, dtype=np.int64)
    np.cumsum(slot_counts, out=slot_start[1:])
    n_slots = int(slot_start[-1])
    parent_arr = np.array(parent, dtype=np.int32)
    node_infoset_arr = np.array(node_infoset, dtype=np.int32)
    w = np.array(edge_w, dtype=np.int64)
    chance_mask = np.array(edge_is_chance, dtype=bool)
    edge = np.full(n, n_slots, dtype=np.int64)  # the root's edge weight is W[n_slots] = 1
    has_parent = parent_arr >= 0
    dec = has_parent & ~chance_mask
    edge[dec] = slot_start[node_infoset_arr[parent_arr[dec]]] + w[dec]
    edge[chance_mask] = n_slots + 1 + w[chance_mask]
    # The stack pops a node's children in action order, so they were numbered in that order:
    # sorted stably by parent, the nodes but the root list every node's children in order.
    child_list = (np.argsort(parent_arr[1:], kind="stable") + 1).astype(np.int32)
    child_start = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(parent_arr[1:], minlength=n), out=child_start[1:])
    utility = np.zeros((n, n_players))
    if util_rows:
        utility[np.fromiter(util_rows, dtype=np.int64, count=len(util_rows))] = np.array(list(util_rows.values()))
    edge_w_arr = edge.astype(np.int32)
    broken = first_recall_break(parent_arr, edge_w_arr, np.array(kind, dtype=np.int8) == DECISION,
                                np.array(player_of, dtype=np.int32), node_infoset_arr, n_players, len(infoset_player))  # fmt: skip
    if broken >= 0:
        key = " ".join(list(infoset_ids)[broken].split())
        raise CompileError(f"{game.describe()} breaks perfect recall: the histories of information set {key!r} differ in "
                           "the player's own earlier actions (gamesolve's solvers need perfect recall)")  # fmt: skip
    return ExplicitTree(
        game_name=game.name,
        params=dict(game.params),
        num_players=n_players,
        node_kind=np.array(kind, dtype=np.int8),
        node_player=np.array(player_of, dtype=np.int32),
        parent=parent_arr,
        edge_w=edge_w_arr,
        child_start=child_start.astype(np.int32),
        child_list=child_list,
        node_infoset=node_infoset_arr,
        utility=utility,
        chance_prob=np.array(chance_prob, dtype=np.float64),
        infoset_player=np.array(infoset_player, dtype=np.int32),
        infoset_slot_start=slot_start.astype(np.int32),
        slot_action=np.array([a for acts in infoset_actions for a in acts], dtype=np.int32),
        infoset_keys=tuple(infoset_ids),
    )
