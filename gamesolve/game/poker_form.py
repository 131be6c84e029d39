"""Poker's implementation of the factored form (:mod:`gamesolve.game.factored`).

Poker plugins describe their public betting with two small functions, and the core turns
that into the factored form's arrays:

* ``describe(state) -> PublicNodeInfo``: the betting key, whether the hand goes on, ended with
  one player left (a fold) or at a showdown, the acting player, the betting round, the chips
  each player has put in and who has folded;
* ``classify(state, action) -> (FOLD | CALL | RAISE, amount)``: the action's class (the
  continuation strategies of search bias these) and the chips it brings the player's bet to.

The mapping to the core's vocabulary: a fold ending is a ``FIXED`` terminal (the pot to the
one player left), a showdown a ``CONTEST`` (stakes = chips put in, contenders = players who
have not folded, strength = the deal's hand rank), a folded player is *settled* at minus the
chips they put in. Cards never appear in the tree unless a plugin makes a public card a
chance node (``public_chance``); otherwise deals carry each player's bucket per round.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs
import numpy as np

from gamesolve.game.factored import CHANCE, CONTEST, DECISION, FIXED, TERMINAL

FOLD, CALL, RAISE = 0, 1, 2
"""Action classes of poker edges (``edge_class``)."""

POKER_CLASSES = ("fold", "call", "raise")

GOES_ON, FOLD_END, SHOWDOWN = 0, 1, 2
"""How a betting history stands (``PublicNodeInfo.kind``)."""

@attrs.frozen
class PublicNodeInfo:
    """What a plugin tells :func:`build_poker_form` about one betting history."""

    key: str  # public betting key (as used inside the game's infoset keys)
    kind: int  # GOES_ON, FOLD_END or SHOWDOWN
    player: int  # acting player while the hand goes on, else -1
    round: int  # betting round
    commit: tuple[float, ...]  # chips each player has put in
    folded: tuple[bool, ...]


PublicChance = Callable[[object], "list[tuple[int, object]] | None"]
"""``public_chance(state)`` at a chance node: ``[(outcome label, child state), ...]`` with
equal probability when the node deals a public card the tree should branch on, else ``None``
(a private card: resolved by the ``deal`` function instead)."""


def terminal_fields(kind: np.ndarray, commit: np.ndarray, folded: np.ndarray) -> dict[str, np.ndarray]:
    """The factored form's terminal and settled arrays from poker's node kinds (``GOES_ON``,
    ``FOLD_END``, ``SHOWDOWN`` at terminals; anything at other nodes), chips put in and folds."""
    n = len(kind)
    term_kind = np.full(n, -1, dtype=np.int8)
    term_kind[kind == FOLD_END] = FIXED
    term_kind[kind == SHOWDOWN] = CONTEST
    payoff = -commit.astype(np.float64)
    fold_end = kind == FOLD_END
    # A fold ending: the one player left takes the pot.
    payoff[fold_end] += np.where(folded[fold_end], 0.0, commit[fold_end].sum(axis=1, keepdims=True))
    showdown = kind == SHOWDOWN
    payoff[showdown] = commit[showdown]  # CONTEST: the stakes
    return {
        "term_kind": term_kind,
        "payoff": payoff,
        "contender": ~folded,
        "term_row": np.full(n, -1, dtype=np.int32),
        "table": np.zeros((0, 0, commit.shape[1])),
        "settled": folded.copy(),
        "settled_value": -commit.astype(np.float64),
    }


def build_poker_form(root, deal: Callable, describe: Callable, classify: Callable, num_players: int,
                     public_chance: PublicChance | None = None) -> dict:  # fmt: skip
    """Walk a poker game's betting histories into the factored form's tree arrays.

    :param deal: ``deal(state) -> action`` picks an outcome at a private chance node (any:
        private cards do not change the betting).
    :param public_chance: see :data:`PublicChance`; ``None``: every card is resolved by ``deal``.
    :return: a dict of :class:`~gamesolve.game.factored.FactoredGame` fields (tree, terminals,
        settled), plus ``node_keys`` and ``node_outcomes`` (the public outcomes above each node).
    """
    kinds, players, rounds, levels, commits, folds, keys, outcomes = [], [], [], [], [], [], [], []
    poker_kind: list[int] = []
    children: list[list[int]] = []
    edge_class: list[list[int]] = []
    edge_label: list[list[int]] = []
    stack = [(root, -1, -1, 0, ())]
    while stack:
        state, parent, class_in, label_in, path = stack.pop()
        branches = None
        while state.is_chance_node():
            branches = public_chance(state) if public_chance is not None else None
            if branches is not None:
                break
            state = state.child(deal(state))
        info = describe(state)
        node = len(kinds)
        if branches is not None:
            kinds.append(CHANCE)
            poker_kind.append(GOES_ON)
        else:
            kinds.append(DECISION if info.kind == GOES_ON else TERMINAL)
            poker_kind.append(info.kind)
        players.append(info.player if kinds[-1] == DECISION else -1)
        rounds.append(info.round)
        levels.append(len(path))
        commits.append(info.commit)
        folds.append(info.folded)
        keys.append(info.key)
        outcomes.append(path)
        children.append([])
        edge_class.append([])
        edge_label.append([])
        if parent >= 0:
            children[parent].append(node)
            edge_class[parent].append(class_in)
            edge_label[parent].append(label_in)
        if branches is not None:
            for label, child in reversed(branches):
                stack.append((child, node, -1, int(label), path + (int(label),)))
        elif info.kind == GOES_ON:
            for action in reversed(list(state.legal_actions())):
                stack.append((state.child(action), node, int(classify(state, action)[0]), int(action), path))
    # Children were pushed reversed, so they are visited (and numbered) in action order.
    n = len(kinds)
    child_start = np.zeros(n + 1, dtype=np.int32)
    np.cumsum([len(c) for c in children], out=child_start[1:])
    commit = np.array(commits, dtype=np.float64).reshape(n, num_players)
    folded = np.array(folds, dtype=np.bool_).reshape(n, num_players)
    return {
        "node_kind": np.array(kinds, dtype=np.int8),
        "node_player": np.array(players, dtype=np.int32),
        "node_round": np.array(rounds, dtype=np.int32),
        "node_level": np.array(levels, dtype=np.int32),
        "child_start": child_start,
        "child_list": np.array([c for cs in children for c in cs], dtype=np.int32),
        "edge_label": np.array([a for labels in edge_label for a in labels], dtype=np.int64),
        "edge_class": np.array([k for ks in edge_class for k in ks], dtype=np.int8),
        "row_owner": np.arange(n, dtype=np.int32),
        "node_keys": tuple(keys),
        "node_outcomes": tuple(outcomes),
        **terminal_fields(np.array(poker_kind), commit, folded),
    }
