"""A spot's factored game from its public tree (:mod:`gamesolve_nlth.spot.tree` walks the tree
with the rules engine; :mod:`gamesolve_nlth.spot.warm` writes a small one down): the 1,326
hole-card pairs as every player's private states with card removal, hand strengths on every
complete board. No rules engine here, so that the stand-in's process need not compile it."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from gamesolve.game.factored import CHANCE, FactoredGame
from gamesolve.game.poker_form import POKER_CLASSES
from gamesolve.game.removal import item_removal
from gamesolve.game.symmetry import ChanceSymmetry
from gamesolve_nlth.betting.subgame_tree import SubgameTree
from gamesolve_nlth.cards import card_str
from gamesolve_nlth.spot.hands import HAND_CARDS, NUM_HANDS


def node_boards(tree: SubgameTree, board: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The board at every node: the root's, with each chance edge's card added below it."""
    parent = np.zeros(len(tree), np.int64)
    parent[tree.child] = tree.parent
    card = np.full(len(tree), -1, np.int64)
    dealt = tree.kind[tree.parent] == CHANCE
    card[tree.child[dealt]] = tree.label[dealt]
    boards = [board] * len(tree)
    for node, (up, c) in enumerate(zip(parent.tolist(), card.tolist())):
        if node:  # preorder: a node's parent's board is already set
            boards[node] = boards[up] if c < 0 else boards[up] + (c,)
    return boards


def spot_form(board: tuple[int, ...], pot: int, stack: int, players: int, tree: SubgameTree, node_board,
              symmetry: ChanceSymmetry | None, strengths: Callable[[tuple[int, ...]], np.ndarray]) -> FactoredGame:  # fmt: skip
    """The spot on ``board`` (``pot`` in the middle, ``stack`` behind each of ``players``) with
    public tree ``tree`` and every node's board (:func:`node_boards`); ``strengths(board)``:
    every hand's strength on a complete board."""
    # Public chance paths: one per board; strengths on complete boards.
    paths: dict[tuple[int, ...], int] = {}
    node_path = np.array([paths.setdefault(b, len(paths)) for b in node_board], dtype=np.int32)
    strength = np.zeros((len(paths), NUM_HANDS), dtype=np.int32)
    for cards, path in paths.items():
        if len(cards) == 5:
            strength[path] = strengths(cards)
    # A dealt card's probability given every player's hand: uniform over the cards left.
    chance_weight = np.where(tree.kind == CHANCE, 1.0 / (52 - len(board) - tree.level - 2 * players), 1.0)
    board_text = "".join(card_str(c) for c in board)
    return FactoredGame(
        game_name="nlth",
        params={"players": players, "spot": board_text, "pot": pot, "stack": stack},
        num_players=players,
        num_rounds=4,
        num_private=np.full(4, NUM_HANDS, dtype=np.int32),
        deals=None,
        class_names=POKER_CLASSES,
        describe=f"{'' if players == 2 else f'{players}-player '}spot on {board_text}, pot {pot}, {stack} behind",
        lossless=True,
        removal=item_removal(HAND_CARDS, 52, node_path, strength, chance_weight),
        symmetry=symmetry,
        **tree.form_fields(),
    )
