"""The betting tree of a hold'em subgame: from an engine state at the start of a betting
round to the end of the game, or to depth-limited leaves, with a search's bet sizes. One walk
serves ``gamesolve spot`` (:mod:`gamesolve_nlth.spot.tree`: two or three players, vector CFR
over ranges) and the search's multiway subgames (:mod:`gamesolve_nlth.search.multiway`: every
seat, MCCFR over sampled deals).

The betting is the rules engine's (pokerkit's rulings: minimum raises, short all-ins). The
engine's hole and board cards are placeholders: betting never depends on cards, so a chance
node's children are built from whichever card the engine accepts and labelled with the card
they stand for, and a chance node whose first card's subtree deals no further card copies it
for the other cards.

Bet sizes are pot fractions per street: ``bets`` for the first bet of a street, ``raises``
for every raise after it (a fraction of the pot after calling, as the blueprint's
abstraction); :data:`ALLIN` (infinity) among them stands for the all-in; a bet or raise that
would commit more than ``allin_threshold`` of what the player had at the root becomes the
all-in; at most ``raise_cap`` raises follow a street's first bet. Fold (when facing a bet) and
check/call are always there, and raise-to amounts a search adds (Algorithm 2, lines 5-7).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping

import attrs
import numpy as np

from gamesolve.game.factored import CHANCE, DECISION, TERMINAL
from gamesolve.game.poker_form import CALL, FOLD, FOLD_END, GOES_ON, RAISE, SHOWDOWN
from gamesolve.progress import NullProgress
from gamesolve.solve.spec import Progress
from gamesolve_nlth import engine as E
from gamesolve_nlth.betting.subgame_tree import SubgameTree
from gamesolve_nlth.state import CHECK_CALL, FOLD as FOLD_ACTION, raise_action

ALLIN = float("inf")  # the all-in among a street's sizes
_PROGRESS_EVERY = 10_000  # nodes built between progress updates


@attrs.frozen
class StreetSizes:
    """Bet sizes of one street: first bets and raises as pot fractions (:data:`ALLIN` for the all-in)."""

    bets: tuple[float, ...] = (0.5, 1.0, ALLIN)
    raises: tuple[float, ...] = (1.0, ALLIN)


@attrs.frozen
class SubgameSizes:
    """A subgame's action abstraction: bet sizes per street (0 preflop, 1 flop, 2 turn, 3
    river), at most ``raise_cap`` raises after a street's first bet (counted from the root on
    the root's street), and a bet committing more than ``allin_threshold`` of what the player
    had at the root turned into the all-in."""

    streets: Mapping[int, StreetSizes]
    raise_cap: int = 2
    allin_threshold: float = 0.67


@attrs.frozen
class DepthLimit:
    """Where a depth-limited subgame stops (supplement, "Structure of imperfect-information
    subgames"): at the end of the root's betting round (the next card), or right after the
    ``raises``-th raise of that round, whichever comes first. At a leaf every seat in the hand
    with chips behind picks one of ``k`` continuation strategies (``k ** choosers`` rollout
    terminals; ``k`` drops to keep them at most ``max_joint``)."""

    raises: int | None = None
    k: int = 4
    max_joint: int = 256


def sized_actions(s: np.ndarray, sizes: StreetSizes | None, start_commit: int, stack: float, allin_threshold: float,
                  added: Collection[int] = ()) -> list[tuple[int, int]]:  # fmt: skip
    """``(class, engine amount)`` at decision state ``s``: fold when facing a bet, check/call,
    the raise-to amounts ``added`` and those of the street's ``sizes`` (None: the raise cap is
    reached). A size whose commitment since ``start_commit`` passes ``allin_threshold`` of
    ``stack`` becomes all-in."""
    can_fold, _, call, lo, hi = E.legal(s)
    p = E.actor(s)
    bet = E.bet_of(s, p)
    out = [(FOLD, bet)] if can_fold else []
    out.append((CALL, bet + call))
    if lo < 0:
        return out
    targets = {min(max(int(to), lo), hi) for to in added}
    if sizes is not None:
        mb = int(E.max_bet(s))
        base = int(E.pot(s)) + (mb - bet)  # the pot after calling
        for f in sizes.bets if E.raises(s) == 0 else sizes.raises:
            to = hi if f == ALLIN else min(max(mb + int(round(f * base)), lo), hi)
            committed = E.committed(s, p) - bet + to - start_commit
            if committed > allin_threshold * stack:
                to = hi  # close enough to all-in: all-in
            targets.add(to)
    out.extend((RAISE, to) for to in sorted(targets))
    return out


def apply_action(s: np.ndarray, kind: int, amount: int) -> tuple[np.ndarray, int]:
    """The child of engine state ``s`` after a (kind, amount) action, and the game's action label."""
    child = s.copy()
    if kind == FOLD:
        E.apply_fold(child)
        return child, FOLD_ACTION
    if kind == CALL:
        E.apply_call(child)
        return child, CHECK_CALL
    E.apply_raise_to(child, amount)
    return child, raise_action(amount)


def walk_subgame(root: np.ndarray, sizes: SubgameSizes, board: tuple[int, ...],
                 added: Mapping[tuple[int, ...], Collection[int]] | None = None, depth: DepthLimit | None = None,
                 dealt: Callable[[tuple[int, ...]], list[int]] | None = None,
                 progress: Progress = NullProgress()) -> tuple[SubgameTree, list[tuple[np.ndarray, tuple[int, ...]]]]:  # fmt: skip
    """The subgame from engine state ``root`` (a decision at the start of a betting round) and
    the (engine state, path) of each of its leaves (none without ``depth``).

    :param board: the board at the root (the engine's own cards are placeholders).
    :param added: raise-to amounts to offer besides the sizes, by the path of edge labels
        (actions and cards) from the root to the decision node.
    :param dealt: the cards a chance node deals, given the board there (default: every card
        off it).
    :param progress: shown the nodes (copies of a subtree count as built)."""
    builder = _Builder(root, sizes, dict(added or {}), tuple(board), depth, dealt, progress)
    progress.start(None, "nodes", "building the betting tree")
    tree = builder.walk(root.copy(), tuple(board), ())
    progress.advance(builder.pending)
    return tree, builder.leaves


class _Builder:
    def __init__(self, root, sizes, added, board, depth, dealt, progress):
        self.sizes = sizes
        self.depth = depth
        self.root_street = E.street(root)
        self.root_raises = E.raises(root)
        self.leaves: list[tuple[np.ndarray, tuple[int, ...]]] = []  # (state, path) of each leaf
        self.added = added
        self.board = board
        self.dealt = dealt or (lambda cards: [c for c in range(52) if c not in cards])
        self.progress = progress
        self.pending = 0  # nodes not shown yet
        self.n_seats = E.num_seats(root)
        self.root_stack = np.array([E.stack_of(root, q) for q in range(self.n_seats)])
        self.root_commit = np.array([E.committed(root, q) for q in range(self.n_seats)])
        self.added_prefixes = {path[:i] for path in added for i in range(len(path) + 1)}

    def node(self, s: np.ndarray, cards: tuple[int, ...], kind: int, actor: int, poker: int) -> SubgameTree:
        self.count(1)
        n = self.n_seats
        return SubgameTree(
            np.array([kind], np.int8), np.array([actor if kind == DECISION else -1], np.int32),
            np.array([min(E.street(s), 3)], np.int32), np.array([len(cards) - len(self.board)], np.int32),
            np.array([[E.committed(s, q) for q in range(n)]], np.float64),
            np.array([[not E.in_hand(s, q) for q in range(n)]], np.bool_), np.array([poker], np.int8),
            np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int8), kind == CHANCE,
            np.zeros(1, np.int64), np.full(1, -1, np.int64), np.full((1, n), -1, np.int8),
        )  # fmt: skip

    def count(self, nodes: int) -> None:
        self.pending += nodes
        if self.pending >= _PROGRESS_EVERY:
            self.progress.advance(self.pending)
            self.pending = 0

    def actions(self, s: np.ndarray, path: tuple[int, ...]) -> list[tuple[int, int]]:
        """The raise cap counts the raises of the subgame (on the root's street, not those
        before the root)."""
        p = E.actor(s)
        before = self.root_raises if E.street(s) == self.root_street else 0
        street = self.sizes.streets[E.street(s)] if E.raises(s) - before <= self.sizes.raise_cap else None
        return sized_actions(s, street, int(self.root_commit[p]), self.root_stack[p], self.sizes.allin_threshold, self.added.get(path, ()))

    def is_leaf(self, s: np.ndarray) -> bool:
        if self.depth is None:
            return False
        actor = int(E.next_actor(s))
        if actor == E.CHANCE or (actor >= 0 and E.street(s) != self.root_street):
            return True
        raises = self.depth.raises
        return actor >= 0 and raises is not None and E.raises(s) >= raises

    def leaf(self, s: np.ndarray, cards: tuple[int, ...], path: tuple[int, ...]) -> SubgameTree:
        """A leaf: each chooser in turn picks a continuation strategy (one node per joint
        choice so far, all sharing the chooser's rows: nobody sees the others' choice), then a
        rollout terminal per joint choice."""
        n = self.n_seats
        leaf_id = len(self.leaves)
        self.leaves.append((s.copy(), path))
        choosers = [q for q in range(n) if E.in_hand(s, q) and E.stack_of(s, q) > 0]
        k = self.depth.k
        while len(choosers) > 1 and k > 1 and k ** len(choosers) > self.depth.max_joint:
            k -= 1
        if len(choosers) < 2:  # nobody left to choose against: the blueprint continues
            k, choosers = 1, []

        def chain(j: int, chosen: tuple[int, ...]) -> SubgameTree:
            if j == len(choosers):
                part = self.node(s, cards, TERMINAL, -1, GOES_ON)
                part.leaf[0] = leaf_id
                part.choice[0, :] = 0
                for q, c in zip(choosers, chosen):
                    part.choice[0, q] = c
                return part
            head = self.node(s, cards, DECISION, choosers[j], GOES_ON)
            return _join(head, [(c, -1, chain(j + 1, chosen + (c,))) for c in range(k)])

        part = chain(0, ())
        if choosers:
            # The first node of each chooser's level owns the rows of the whole level.
            depth_of = np.zeros(len(part), np.int64)
            for e in range(len(part.parent)):
                depth_of[part.child[e]] = depth_of[part.parent[e]] + 1
            for j in range(len(choosers)):
                level = np.flatnonzero((depth_of == j) & (part.kind == DECISION))
                part.row_owner[level] = level[0]
        return part

    def walk(self, s: np.ndarray, cards: tuple[int, ...], path: tuple[int, ...]) -> SubgameTree:
        if self.is_leaf(s):
            return self.leaf(s, cards, path)
        actor = int(E.next_actor(s))
        if actor >= 0:
            branches = []
            for action_kind, amount in self.actions(s, path):
                child, label = apply_action(s, action_kind, amount)
                branches.append((label, action_kind, self.walk(child, cards, path + (label,))))
            return _join(self.node(s, cards, DECISION, actor, GOES_ON), branches)
        if actor != E.CHANCE:
            return self.node(s, cards, TERMINAL, -1, SHOWDOWN if int(E.num_active(s)) > 1 else FOLD_END)
        used = E.used_cards(s)
        free = [c for c in range(52) if not (used >> c) & 1]
        branches, template = [], None
        for card in self.dealt(cards):
            child_path = path + (card,)
            plain = child_path not in self.added_prefixes  # no action added below this card
            if template is not None and plain:
                self.count(len(template))
                branches.append((card, -1, template))
                continue
            child = s.copy()
            E.deal_card(child, card if card in free else free[0])  # the engine's cards are placeholders
            part = self.walk(child, cards + (card,), child_path)
            if plain and not part.has_chance:
                template = template or part  # the betting below is the same for every such card
            branches.append((card, -1, part))
        return _join(self.node(s, cards, CHANCE, -1, GOES_ON), branches)


def _join(root: SubgameTree, branches: list[tuple[int, int, SubgameTree]]) -> SubgameTree:
    """``root`` with the subtrees ``branches`` (edge label, class, subtree) below it, in order."""
    parts = [root] + [b[2] for b in branches]
    offsets = np.cumsum([0] + [len(p) for p in parts])
    cat = lambda name: np.concatenate([getattr(p, name) for p in parts])  # noqa: E731
    first = offsets[1:-1]
    owners = np.concatenate([p.row_owner + o for p, o in zip(parts, offsets[:-1])])
    return SubgameTree(
        cat("kind"), cat("player"), cat("round"), cat("level"), cat("commit"), cat("folded"), cat("poker"),
        np.concatenate([np.zeros(len(branches), np.int64)] + [p.parent + o for p, o in zip(parts[1:], first)]),
        np.concatenate([first.astype(np.int64)] + [p.child + o for p, o in zip(parts[1:], first)]),
        np.concatenate([np.array([b[0] for b in branches], np.int64)] + [p.label for p in parts[1:]]),
        np.concatenate([np.array([b[1] for b in branches], np.int8)] + [p.cls for p in parts[1:]]),
        root.has_chance or any(p.has_chance for p in parts[1:]),
        owners, cat("leaf"), cat("choice"),
    )  # fmt: skip
