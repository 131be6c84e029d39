"""Multiway hold'em subgames for real-time search: a betting round's root, as the hand stands
(every seat, its chips and the board), to the end of the game, solved by the core's
external-sampling Linear MCCFR with deals drawn from the players' range beliefs.

Supplement, "Further details of the real-time search algorithm": Pluribus solves large
subgames with Monte Carlo Linear CFR. The subgame here is a :class:`FactoredGame` over all
seats of the table (folded seats are settled: their chips are dead money in the pot), with
the search's bet sizes, every later board card as a public chance node, and the 1,326
hole-card pairs as each player's private state. What the root's chance node over histories
needs (supplement, "Structure of imperfect-information subgames": each history weighted by
the players' reach) is the deal sampler :class:`BeliefDeals`: a deal gives the players in the
hand disjoint hole cards with probability proportional to the product of their reach
(rejection sampling from the product of the ranges: exact, card removal included) and the
board cards still to come uniformly from the rest of the deck. Showdowns are the core's
N-player contest terminals (side pots, split pots, dead money) with the deal's 7-card ranks.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

import attrs
import numpy as np
from numba import njit

from gamesolve.game.deals import DealBatch
from gamesolve.game.factored import CHANCE, DECISION, ROLLOUT, TERMINAL, FactoredGame
from gamesolve.game.poker_form import FOLD_END, GOES_ON, POKER_CLASSES, SHOWDOWN, terminal_fields
from gamesolve.rng import splitmix, stream
from gamesolve_nlth import engine as E
from gamesolve_nlth.evaluator import evaluate7
from gamesolve_nlth.search.continuation import blueprint_buckets
from gamesolve_nlth.spot.hands import HAND_CARDS, NUM_HANDS
from gamesolve_nlth.spot.tree import StreetSizes, apply_action, sized_actions


@attrs.frozen
class SubgameSizes:
    """The search's action abstraction: bet sizes per street (0 preflop, 1 flop, 2 turn, 3
    river), at most ``raise_cap`` raises after a street's first bet, and a bet committing more
    than ``allin_threshold`` of what the player had at the round's root turned into the all-in."""

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


def _actions(sizes: SubgameSizes, s: np.ndarray, root_stack: np.ndarray, root_commit: np.ndarray,
             added: Collection[int], raised_before: int = 0) -> list[tuple[int, int]]:  # fmt: skip
    """``(class, engine amount)`` of the subgame's actions at decision state ``s``: fold when
    facing a bet, check/call, the street's sizes and the raise-to amounts ``added``. The raise
    cap counts the raises of the subgame (``raised_before``: the street's raises before the root)."""
    p = E.actor(s)
    street = sizes.streets[E.street(s)] if E.raises(s) - raised_before <= sizes.raise_cap else None
    return sized_actions(s, street, int(root_commit[p]), root_stack[p], sizes.allin_threshold, added)


@attrs.frozen(eq=False)
class LeafValues:
    """How a subgame's leaves enter the continuation game: ``game`` (a
    :class:`~gamesolve_nlth.search.continuation.ContinuationGame`), ``player_of[q]`` (its player
    ``q``'s seat), ``tree_seat[seat]`` (the inverse), and per leaf the entry node, the ratio of
    the real pot to the continuation game's, and each seat's chips in the continuation game."""

    game: object
    player_of: np.ndarray
    tree_seat: np.ndarray
    entry: np.ndarray
    ratio: np.ndarray
    entry_stake: np.ndarray


@attrs.frozen(eq=False)
class _Part:
    """A subtree in preorder (local node numbers) with its edges in order."""

    kind: np.ndarray
    player: np.ndarray
    round: np.ndarray
    level: np.ndarray
    commit: np.ndarray  # [n, seats]
    folded: np.ndarray  # [n, seats]
    poker: np.ndarray  # GOES_ON, FOLD_END or SHOWDOWN
    parent: np.ndarray  # per edge
    child: np.ndarray
    label: np.ndarray
    cls: np.ndarray
    has_chance: bool
    row_owner: np.ndarray  # local node whose rows a node uses (a chooser's leaf nodes share)
    leaf: np.ndarray  # the leaf a rollout terminal values (-1 elsewhere)
    choice: np.ndarray  # [n, seats] the continuation each seat chose at a rollout terminal

    def __len__(self) -> int:
        return len(self.kind)


class _Builder:
    """Walks the engine from a root; a chance node builds its first card's subtree and, where
    that subtree deals no further card and no action was added under another card, copies it
    for the other cards (betting never depends on the cards: the copies are identical)."""

    def __init__(self, root: np.ndarray, sizes: SubgameSizes, added: Mapping[tuple[int, ...], Collection[int]],
                 board: tuple[int, ...], depth: DepthLimit | None = None):  # fmt: skip
        self.sizes = sizes
        self.depth = depth
        self.root_street = E.street(root)
        self.root_raises = E.raises(root)
        self.leaves: list[tuple[np.ndarray, tuple[int, ...]]] = []  # (state, path) of each leaf
        self.added = added
        self.board = board
        self.n_seats = E.num_seats(root)
        self.root_stack = np.array([E.stack_of(root, q) for q in range(self.n_seats)])
        self.root_commit = np.array([E.committed(root, q) for q in range(self.n_seats)])
        self.added_prefixes = {path[:i] for path in added for i in range(len(path) + 1)}

    def node(self, s: np.ndarray, cards: tuple[int, ...], kind: int, actor: int, poker: int) -> _Part:
        n = self.n_seats
        return _Part(
            np.array([kind], np.int8), np.array([actor if kind == DECISION else -1], np.int32),
            np.array([min(E.street(s), 3)], np.int32), np.array([len(cards) - len(self.board)], np.int32),
            np.array([[E.committed(s, q) for q in range(n)]], np.float64),
            np.array([[not E.in_hand(s, q) for q in range(n)]], np.bool_), np.array([poker], np.int8),
            np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int8), kind == CHANCE,
            np.zeros(1, np.int64), np.full(1, -1, np.int64), np.full((1, n), -1, np.int8),
        )  # fmt: skip

    def is_leaf(self, s: np.ndarray) -> bool:
        if self.depth is None:
            return False
        actor = int(E.next_actor(s))
        if actor == E.CHANCE or (actor >= 0 and E.street(s) != self.root_street):
            return True
        raises = self.depth.raises
        return actor >= 0 and raises is not None and E.raises(s) >= raises

    def leaf(self, s: np.ndarray, cards: tuple[int, ...], path: tuple[int, ...]) -> _Part:
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

        def chain(j: int, chosen: tuple[int, ...]) -> _Part:
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

    def walk(self, s: np.ndarray, cards: tuple[int, ...], path: tuple[int, ...]) -> _Part:
        if self.is_leaf(s):
            return self.leaf(s, cards, path)
        actor = int(E.next_actor(s))
        if actor >= 0:
            branches = []
            before = self.root_raises if E.street(s) == self.root_street else 0
            for action_kind, amount in _actions(self.sizes, s, self.root_stack, self.root_commit, self.added.get(path, ()), before):
                child, label = apply_action(s, action_kind, amount)
                branches.append((label, action_kind, self.walk(child, cards, path + (label,))))
            return _join(self.node(s, cards, DECISION, actor, GOES_ON), branches)
        if actor != E.CHANCE:
            return self.node(s, cards, TERMINAL, -1, SHOWDOWN if int(E.num_active(s)) > 1 else FOLD_END)
        used = E.used_cards(s)
        free = [c for c in range(52) if not (used >> c) & 1]
        branches, template = [], None
        for card in (c for c in range(52) if c not in cards):
            child_path = path + (card,)
            if template is not None and not template.has_chance and child_path not in self.added_prefixes:
                branches.append((card, -1, template))
                continue
            child = s.copy()
            E.deal_card(child, card if card in free else free[0])  # the engine's cards are placeholders
            part = self.walk(child, cards + (card,), child_path)
            template = template or part
            branches.append((card, -1, part))
        return _join(self.node(s, cards, CHANCE, -1, GOES_ON), branches)


def _join(root: _Part, branches: list[tuple[int, int, _Part]]) -> _Part:
    """``root`` with the subtrees ``branches`` (edge label, class, subtree) below it, in order."""
    parts = [root] + [b[2] for b in branches]
    offsets = np.cumsum([0] + [len(p) for p in parts])
    cat = lambda name: np.concatenate([getattr(p, name) for p in parts])  # noqa: E731
    first = offsets[1:-1]
    owners = np.concatenate([p.row_owner + o for p, o in zip(parts, offsets[:-1])])
    return _Part(
        cat("kind"), cat("player"), cat("round"), cat("level"), cat("commit"), cat("folded"), cat("poker"),
        np.concatenate([np.zeros(len(branches), np.int64)] + [p.parent + o for p, o in zip(parts[1:], first)]),
        np.concatenate([first.astype(np.int64)] + [p.child + o for p, o in zip(parts[1:], first)]),
        np.concatenate([np.array([b[0] for b in branches], np.int64)] + [p.label for p in parts[1:]]),
        np.concatenate([np.array([b[1] for b in branches], np.int8)] + [p.cls for p in parts[1:]]),
        root.has_chance or any(p.has_chance for p in parts[1:]),
        owners, cat("leaf"), cat("choice"),
    )  # fmt: skip


def build_multiway(root: np.ndarray, sizes: SubgameSizes, added: Mapping[tuple[int, ...], Collection[int]] | None = None,
                   beliefs: np.ndarray | None = None, board: tuple[int, ...] = (), depth: DepthLimit | None = None,
                   leaves=None) -> FactoredGame:  # fmt: skip
    """The subgame from the engine state ``root`` (a decision at the start of a betting round)
    to the end of the game, or to the leaves of ``depth``, over every seat.

    :param leaves: with ``depth``: ``leaves(list of (engine state, path)) -> LeafValues``,
        where each leaf enters the continuation game (see :class:`LeafValues`).

    :param added: raise-to amounts to offer besides the sizes, by the path of edge labels
        (actions and cards) from the root to the decision node.
    :param beliefs: ``[seats, 1326]`` reach over hole-card pairs at the root; with it the form
        carries :class:`BeliefDeals` (without: no deals, the tree alone).
    :param board: the board at the root (the engine's own cards are placeholders).
    """
    builder = _Builder(root, sizes, dict(added or {}), tuple(board), depth)
    part = builder.walk(root.copy(), tuple(board), ())
    n = len(part)
    # Edges come parent by parent in preorder already (each node's edges precede its subtree's).
    order = np.argsort(part.parent, kind="stable")
    child_start = np.zeros(n + 1, dtype=np.int32)
    np.cumsum(np.bincount(part.parent, minlength=n), out=child_start[1:])
    fields = terminal_fields(part.poker, part.commit, part.folded)
    in_hand = np.array([E.in_hand(root, q) for q in range(E.num_seats(root))])
    rollout, cont = None, None
    if builder.leaves:
        values = leaves(builder.leaves)
        terminals = part.leaf >= 0
        fields["term_kind"][terminals] = ROLLOUT
        fields["payoff"][terminals] = part.commit[terminals]  # the stakes (see gamesolve.game.rollout)
        at = np.maximum(part.leaf, 0)
        rollout = values.game.rollout(
            values.player_of, np.where(terminals, values.entry[at], -1), part.choice, values.ratio[at], values.entry_stake[at],
        )  # fmt: skip
        cont = values
    deals = None
    if beliefs is not None:
        deals = BeliefDeals.build(beliefs, in_hand, tuple(board), int(part.level.max()) + 1, cont)
    return FactoredGame(
        game_name="nlth",
        params={"players": len(in_hand), "search": "multiway"},
        num_players=len(in_hand),
        num_rounds=4,
        node_kind=part.kind,
        node_player=part.player,
        node_round=part.round,
        node_level=part.level,
        child_start=child_start,
        child_list=part.child[order].astype(np.int32),
        edge_label=part.label[order],
        edge_class=part.cls[order],
        row_owner=part.row_owner.astype(np.int32),
        num_private=np.full(4, NUM_HANDS, dtype=np.int32),
        deals=deals,
        rollout=rollout,
        class_names=POKER_CLASSES,
        describe=f"{int(in_hand.sum())}-player subgame from street {E.street(root)}",
        lossless=True,
        **fields,
    )


@njit(cache=True)
def _pick(cdf, u):
    lo, hi = 0, cdf.shape[0] - 1
    while lo < hi:
        mid = (lo + hi) // 2
        if cdf[mid] > u:
            hi = mid
        else:
            lo = mid + 1
    return lo


@njit(cache=True)
def _sample(seed, first, count, seats, cdf, hand_cards, board, n_future, n_rounds, private, public, strength, full):
    """Deals ``first .. first+count-1``: hole cards of the ``seats`` in the hand by rejection
    from the product of their ranges (``cdf[j]``: seat ``seats[j]``'s cumulative range), then
    ``n_future`` board cards uniformly from the rest, and every seat's 7-card rank."""
    n_in = seats.shape[0]
    cards = np.zeros(7, dtype=np.int64)
    for i in range(count):
        state = stream(seed, first + i)
        attempt = 0
        while True:  # rejection: the exact joint distribution of disjoint hands
            attempt += 1
            used = np.uint64(0)
            for c in board:
                used |= np.uint64(1) << np.uint64(c)
            ok = True
            for j in range(n_in):
                h = -1
                # Ranges that (almost) always collide: after many rejections each player
                # redraws until its hand fits the others' (an approximation of last resort).
                for _ in range(1 if attempt <= 1000 else 100_000):
                    state, u = splitmix(state)
                    h = _pick(cdf[j], u)
                    if not used & ((np.uint64(1) << np.uint64(hand_cards[h, 0])) | (np.uint64(1) << np.uint64(hand_cards[h, 1]))):
                        break
                bits = (np.uint64(1) << np.uint64(hand_cards[h, 0])) | (np.uint64(1) << np.uint64(hand_cards[h, 1]))
                if used & bits:
                    ok = False
                    break
                used |= bits
                for r in range(n_rounds):
                    private[i, seats[j], r] = h
            if ok or attempt > 1010:
                break
        for k in range(board.shape[0]):
            full[i, k] = board[k]
        for k in range(n_future):
            while True:
                state, u = splitmix(state)
                c = min(int(u * 52), 51)
                if not used & (np.uint64(1) << np.uint64(c)):
                    break
            used |= np.uint64(1) << np.uint64(c)
            if k < public.shape[1]:
                public[i, k] = c
            full[i, board.shape[0] + k] = c
        for j in range(n_in):
            h = private[i, seats[j], 0]
            cards[0] = hand_cards[h, 0]
            cards[1] = hand_cards[h, 1]
            strength[i, seats[j]] = evaluate7(cards[0], cards[1], full[i, 0], full[i, 1], full[i, 2], full[i, 3], full[i, 4])


@attrs.frozen(eq=False)
class BeliefDeals:
    """Deals of a multiway subgame drawn from range beliefs (see the module docstring); deal
    ``i`` depends only on ``(seed, i)``."""

    num_players: int
    num_rounds: int
    num_levels: int
    seats: np.ndarray  # int64: the seats in the hand
    cdf: np.ndarray  # float64[len(seats), 1326]
    board: np.ndarray  # int64: the board at the root
    n_future: int  # board cards still to come
    leaves: LeafValues | None = None  # rollouts need the blueprint's buckets of every deal

    @classmethod
    def build(cls, beliefs: np.ndarray, in_hand: np.ndarray, board: tuple[int, ...], num_levels: int,
              leaves: LeafValues | None = None) -> BeliefDeals:  # fmt: skip
        seats = np.flatnonzero(in_hand).astype(np.int64)
        cdf = np.zeros((len(seats), NUM_HANDS))
        touching = np.array([any(int(c) in board for c in HAND_CARDS[h]) for h in range(NUM_HANDS)])
        for j, seat in enumerate(seats):
            w = np.where(touching, 0.0, np.asarray(beliefs[seat], dtype=np.float64))
            if not w.sum() > 0:
                raise ValueError(f"seat {seat}'s range holds no hand the board leaves")
            cdf[j] = np.cumsum(w / w.sum())
            cdf[j, -1] = np.inf
        return cls(len(in_hand), 4, max(num_levels, 1), seats, cdf, np.array(board, dtype=np.int64), 5 - len(board), leaves)

    @property
    def listed(self):
        return None

    def batch(self, seed: int, first: int, count: int) -> DealBatch:
        return self.sample(seed, first, count)[0]

    def sample(self, seed: int, first: int, count: int) -> tuple[DealBatch, np.ndarray]:
        """The batch and each deal's whole board (``[count, 5]``)."""
        private = np.zeros((count, self.num_players, self.num_rounds), dtype=np.int32)
        public = np.full((count, self.num_levels), -1, dtype=np.int32)
        strength = np.zeros((count, self.num_players), dtype=np.int32)
        full = np.zeros((count, 5), dtype=np.int64)
        _sample(np.uint64(seed), np.uint64(first), count, self.seats, self.cdf, HAND_CARDS.astype(np.int64),
                self.board, self.n_future, self.num_rounds, private, public, strength, full)  # fmt: skip
        batch = DealBatch(private, public, strength, np.full(count, -1, dtype=np.int64))
        if self.leaves is None:
            return batch, full
        game = self.leaves.game
        cont = np.zeros((count, self.num_players, 4), np.int32)
        cont_strength = np.zeros((count, self.num_players), np.int32)
        blueprint_buckets(private, full, self.seats, self.leaves.tree_seat, *game.indexers, *game.tables, cont, cont_strength)
        return attrs.evolve(batch, cont=cont, cont_strength=cont_strength), full
