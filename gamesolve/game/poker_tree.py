"""The poker-family compiled form: a public betting tree plus tables of dealt cards.

This is what the MCCFR kernel trains on, for Kuhn and Leduc as for no-limit hold'em
(DESIGN.md, "one kernel, verified small, runs big"). Cards never appear in the tree: a
*deal* gives each player a bucket per betting round and a showdown rank, and an
information set is a pair (public node, bucket of the acting player in the node's round).

Public tree arrays are in preorder (parents first). ``commit[n, p]`` is what player ``p``
has put into the pot at node ``n``; ``folded[n, p]`` whether ``p`` has folded. A node of
kind ``FOLD_END`` ends with one player left; ``SHOWDOWN`` compares ranks, with side pots.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs
import numpy as np
from numba import njit

DECISION, FOLD_END, SHOWDOWN = 0, 1, 2
FOLD, CALL, RAISE = 0, 1, 2  # action kinds of edges


@attrs.frozen(eq=False)
class PokerTree:
    """A public betting tree and a deal table (see the module docstring)."""

    game_name: str
    params: dict[str, Any]
    num_players: int
    num_rounds: int
    node_kind: np.ndarray  # int8[N]
    node_player: np.ndarray  # int32[N], -1 at terminals
    node_round: np.ndarray  # int32[N]
    child_start: np.ndarray  # int32[N+1], CSR into child_list
    child_list: np.ndarray  # int32[E], children in action order
    action_kind: np.ndarray  # int8[E]: FOLD, CALL or RAISE
    action_amount: np.ndarray  # int64[E]: raise-to (chips this round), call amount, or 0
    commit: np.ndarray  # float64[N, P]
    folded: np.ndarray  # bool[N, P]
    num_buckets: np.ndarray  # int32[R]: buckets per round
    deal_buckets: np.ndarray  # int32[D, P, R]
    deal_rank: np.ndarray  # int32[D, P]: showdown strength, larger is better
    regret_scale: float = 1.0
    node_keys: tuple[str, ...] = ()  # the public betting key of each node (for mapping)
    locate: Callable[[str], tuple[int, int]] | None = None  # explicit infoset key -> (node, bucket)
    mccfr_defaults: dict[str, Any] = attrs.field(factory=dict)  # the game's default MCCFR options
    # For games whose deals cannot be listed (hold'em): ``deal_source(seed, first, count)``
    # returns ``(buckets int32[count, P, R], ranks int32[count, P])`` for iterations
    # ``first .. first + count - 1``, deterministically; one deal serves every traverser of an
    # iteration. ``deal_buckets``/``deal_rank`` then only give the shapes.
    deal_source: Callable[[int, int, int], tuple[np.ndarray, np.ndarray]] | None = None
    default_minutes: float | None = None  # training time when neither iterations nor minutes are given
    describe: str = ""  # one line naming the abstraction

    @property
    def num_nodes(self) -> int:
        return len(self.node_kind)

    @property
    def num_actions(self) -> np.ndarray:
        return np.diff(self.child_start).astype(np.int32)

    def row_sizes(self) -> np.ndarray:
        """Table entries each node needs: buckets of its round times its actions (0 at terminals)."""
        sizes = self.num_buckets[self.node_round].astype(np.int64) * self.num_actions
        sizes[self.node_kind != DECISION] = 0
        return sizes

    def summary(self) -> dict[str, int]:
        decision = self.node_kind == DECISION
        return {
            "public_nodes": self.num_nodes,
            "decision_nodes": int(decision.sum()),
            "infosets": int(self.num_buckets[self.node_round[decision]].sum()),
            "infoset_actions": int(self.row_sizes().sum()),
            "deals": len(self.deal_rank),
        }


@njit(cache=True)
def terminal_utility(node, player, commit, folded, node_kind, deal_rank, d):
    """Chips won minus chips put in for ``player`` at terminal ``node`` on deal ``d``.

    Side pots: each contribution layer goes to the best non-folded hands that paid into it
    (split evenly on ties); a layer nobody still in paid into goes back to its payers.
    The MCCFR kernel computes the common single-pot case inline and calls this otherwise.
    """
    n = commit.shape[1]
    if node_kind[node] == FOLD_END:
        pot = 0.0
        for q in range(n):
            pot += commit[node, q]
        return (pot if not folded[node, player] else 0.0) - commit[node, player]
    won = 0.0
    prev = 0.0
    while True:
        level = 1e300
        for q in range(n):
            c = commit[node, q]
            if c > prev and c < level:
                level = c
        if level == 1e300:
            break
        layer = 0.0
        best = -2147483648
        for q in range(n):
            c = commit[node, q]
            if c > prev:
                layer += min(c, level) - prev
                if c >= level and not folded[node, q] and deal_rank[d, q] > best:
                    best = deal_rank[d, q]
        if best == -2147483648:
            # Nobody still in reached this layer: it returns to whoever paid it.
            if commit[node, player] >= level:
                payers = 0
                for q in range(n):
                    if commit[node, q] >= level:
                        payers += 1
                won += layer / payers
        else:
            winners = 0
            for q in range(n):
                if commit[node, q] >= level and not folded[node, q] and deal_rank[d, q] == best:
                    winners += 1
            if commit[node, player] >= level and not folded[node, player] and deal_rank[d, player] == best:
                won += layer / winners
        prev = level
    return won - commit[node, player]


TOY_GAME_MCCFR_DEFAULTS = {
    # The paper's schedules (in minutes of an 8-day run) with one minute read as 10,000
    # iterations, which is about a second of training on a small game.
    "discount_interval": "100k",
    "lcfr_threshold": "4M",
    "prune_threshold": "2M",
    "strategy_interval": "10k",
    "snapshot_interval": "2M",
    "snapshot_start": "8M",
    # Reach-weighted averages of every round: the small games are checked by exact
    # exploitability, which the paper's snapshot averaging does not drive to zero.
    "average": "sampled",
}
"""MCCFR defaults for the exactly solvable toy games (Kuhn, Leduc)."""


@attrs.frozen
class PublicNodeInfo:
    """What a plugin tells :func:`build_public_tree` about one betting history."""

    key: str  # public betting key (as used inside the game's infoset keys)
    kind: int  # DECISION, FOLD_END or SHOWDOWN
    player: int  # acting player at DECISION nodes, else -1
    round: int  # betting round
    commit: tuple[float, ...]  # chips each player has put in
    folded: tuple[bool, ...]


def build_public_tree(root, deal: Callable, describe: Callable, classify: Callable, num_players: int):
    """Walk the betting histories of a game with the cards fixed into public-tree arrays.

    :param root: the game's initial state.
    :param deal: ``deal(state) -> action`` picks a chance outcome (any: cards do not change
        the betting).
    :param describe: ``describe(state) -> PublicNodeInfo`` at decision and terminal states.
    :param classify: ``classify(state, action) -> (kind, amount)``: FOLD, CALL or RAISE and
        the chips it puts the player's bet to.
    :return: dict of the array fields of :class:`PokerTree` for the tree part.
    """
    kinds, players, rounds, commits, folds, keys = [], [], [], [], [], []
    children: list[list[int]] = []
    action_kind: list[list[int]] = []
    action_amount: list[list[int]] = []
    stack = [(root, -1, 0, 0)]
    while stack:
        state, parent, kind_in, amount_in = stack.pop()
        while state.is_chance_node():
            state = state.child(deal(state))
        info = describe(state)
        node = len(kinds)
        kinds.append(info.kind)
        players.append(info.player if info.kind == DECISION else -1)
        rounds.append(info.round)
        commits.append(info.commit)
        folds.append(info.folded)
        keys.append(info.key)
        children.append([])
        action_kind.append([])
        action_amount.append([])
        if parent >= 0:
            children[parent].append(node)
            action_kind[parent].append(kind_in)
            action_amount[parent].append(amount_in)
        if info.kind != DECISION:
            continue
        for action in reversed(list(state.legal_actions())):
            stack.append((state.child(action), node, *classify(state, action)))
    # Children were pushed reversed, so they are visited (and numbered) in action order.
    n = len(kinds)
    child_start = np.zeros(n + 1, dtype=np.int32)
    np.cumsum([len(c) for c in children], out=child_start[1:])
    return {
        "node_kind": np.array(kinds, dtype=np.int8),
        "node_player": np.array(players, dtype=np.int32),
        "node_round": np.array(rounds, dtype=np.int32),
        "child_start": child_start,
        "child_list": np.array([c for cs in children for c in cs], dtype=np.int32),
        "action_kind": np.array([k for ks in action_kind for k in ks], dtype=np.int8),
        "action_amount": np.array([a for amounts in action_amount for a in amounts], dtype=np.int64),
        "commit": np.array(commits, dtype=np.float64).reshape(n, num_players),
        "folded": np.array(folds, dtype=np.bool_).reshape(n, num_players),
        "node_keys": tuple(keys),
    }
