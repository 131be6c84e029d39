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
from gamesolve.game.factored import CHANCE, DECISION, TERMINAL, FactoredGame
from gamesolve.game.poker_form import CALL, FOLD, FOLD_END, GOES_ON, POKER_CLASSES, RAISE, SHOWDOWN, terminal_fields
from gamesolve.rng import splitmix, stream
from gamesolve_nlth import engine as E
from gamesolve_nlth.evaluator import evaluate7
from gamesolve_nlth.spot.hands import HAND_CARDS, NUM_HANDS
from gamesolve_nlth.spot.tree import ALLIN, StreetSizes
from gamesolve_nlth.state import CHECK_CALL, FOLD as FOLD_ACTION, raise_action


@attrs.frozen
class SubgameSizes:
    """The search's action abstraction: bet sizes per street (flop, turn, river), at most
    ``raise_cap`` raises after a street's first bet, and a bet committing more than
    ``allin_threshold`` of what the player had at the round's root turned into the all-in."""

    streets: Mapping[int, StreetSizes]
    raise_cap: int = 2
    allin_threshold: float = 0.67


def _actions(sizes: SubgameSizes, s: np.ndarray, root_stack: np.ndarray, root_commit: np.ndarray,
             added: Collection[int]) -> list[tuple[int, int]]:  # fmt: skip
    """``(class, engine amount)`` of the subgame's actions at decision state ``s``: fold when
    facing a bet, check/call, the street's sizes and the raise-to amounts ``added``."""
    can_fold, _, call, lo, hi = E.legal(s)
    p = int(s[E.H_ACTOR])
    bet = int(s[E.BET + p])
    out = [(FOLD, bet)] if can_fold else []
    out.append((CALL, bet + call))
    if lo < 0:
        return out
    targets = {min(max(int(to), lo), hi) for to in added}
    raises = int(s[E.H_RAISES])
    if raises <= sizes.raise_cap:
        street = sizes.streets[int(s[E.H_STREET])]
        mb = int(E.max_bet(s))
        base = int(E.pot(s)) + (mb - bet)  # the pot after calling
        for f in street.bets if raises == 0 else street.raises:
            to = hi if f == ALLIN else min(max(mb + int(round(f * base)), lo), hi)
            committed = int(s[E.COMMIT + p]) - bet + to - int(root_commit[p])
            if committed > sizes.allin_threshold * root_stack[p]:
                to = hi
            targets.add(to)
    out.extend((RAISE, to) for to in sorted(targets))
    return out


def _apply(s: np.ndarray, kind: int, amount: int) -> tuple[np.ndarray, int]:
    child = s.copy()
    if kind == FOLD:
        E.apply_fold(child)
        return child, FOLD_ACTION
    if kind == CALL:
        E.apply_call(child)
        return child, CHECK_CALL
    E.apply_raise_to(child, amount)
    return child, raise_action(amount)


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

    def __len__(self) -> int:
        return len(self.kind)


class _Builder:
    """Walks the engine from a root; a chance node builds its first card's subtree and, where
    that subtree deals no further card and no action was added under another card, copies it
    for the other cards (betting never depends on the cards: the copies are identical)."""

    def __init__(self, root: np.ndarray, sizes: SubgameSizes, added: Mapping[tuple[int, ...], Collection[int]], board: tuple[int, ...]):
        self.sizes = sizes
        self.added = added
        self.board = board
        self.n_seats = int(root[E.H_N])
        self.root_stack = np.array([int(root[E.STACK + q]) for q in range(self.n_seats)])
        self.root_commit = np.array([int(root[E.COMMIT + q]) for q in range(self.n_seats)])
        self.added_prefixes = {path[:i] for path in added for i in range(len(path) + 1)}

    def node(self, s: np.ndarray, cards: tuple[int, ...], kind: int, actor: int, poker: int) -> _Part:
        n = self.n_seats
        return _Part(
            np.array([kind], np.int8), np.array([actor if kind == DECISION else -1], np.int32),
            np.array([min(int(s[E.H_STREET]), 3)], np.int32), np.array([len(cards) - len(self.board)], np.int32),
            np.array([[int(s[E.COMMIT + q]) for q in range(n)]], np.float64),
            np.array([[not s[E.ACTIVE + q] for q in range(n)]], np.bool_), np.array([poker], np.int8),
            np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int8), kind == CHANCE,
        )  # fmt: skip

    def walk(self, s: np.ndarray, cards: tuple[int, ...], path: tuple[int, ...]) -> _Part:
        actor = int(E.next_actor(s))
        if actor >= 0:
            branches = []
            for action_kind, amount in _actions(self.sizes, s, self.root_stack, self.root_commit, self.added.get(path, ())):
                child, label = _apply(s, action_kind, amount)
                branches.append((label, action_kind, self.walk(child, cards, path + (label,))))
            return _join(self.node(s, cards, DECISION, actor, GOES_ON), branches)
        if actor != E.CHANCE:
            return self.node(s, cards, TERMINAL, -1, SHOWDOWN if int(E.num_active(s)) > 1 else FOLD_END)
        free = [c for c in range(52) if not (int(s[E.H_USED]) >> c) & 1]
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
    return _Part(
        cat("kind"), cat("player"), cat("round"), cat("level"), cat("commit"), cat("folded"), cat("poker"),
        np.concatenate([np.zeros(len(branches), np.int64)] + [p.parent + o for p, o in zip(parts[1:], first)]),
        np.concatenate([first.astype(np.int64)] + [p.child + o for p, o in zip(parts[1:], first)]),
        np.concatenate([np.array([b[0] for b in branches], np.int64)] + [p.label for p in parts[1:]]),
        np.concatenate([np.array([b[1] for b in branches], np.int8)] + [p.cls for p in parts[1:]]),
        root.has_chance or any(p.has_chance for p in parts[1:]),
    )  # fmt: skip


def build_multiway(root: np.ndarray, sizes: SubgameSizes, added: Mapping[tuple[int, ...], Collection[int]] | None = None,
                   beliefs: np.ndarray | None = None, board: tuple[int, ...] = ()) -> FactoredGame:  # fmt: skip
    """The subgame from the engine state ``root`` (a decision at the start of a betting round)
    to the end of the game, over every seat.

    :param added: raise-to amounts to offer besides the sizes, by the path of edge labels
        (actions and cards) from the root to the decision node.
    :param beliefs: ``[seats, 1326]`` reach over hole-card pairs at the root; with it the form
        carries :class:`BeliefDeals` (without: no deals, the tree alone).
    :param board: the board at the root (the engine's own cards are placeholders).
    """
    part = _Builder(root, sizes, dict(added or {}), tuple(board)).walk(root.copy(), tuple(board), ())
    n = len(part)
    # Edges come parent by parent in preorder already (each node's edges precede its subtree's).
    order = np.argsort(part.parent, kind="stable")
    child_start = np.zeros(n + 1, dtype=np.int32)
    np.cumsum(np.bincount(part.parent, minlength=n), out=child_start[1:])
    fields = terminal_fields(part.poker, part.commit, part.folded)
    in_hand = np.array([bool(root[E.ACTIVE + q]) for q in range(int(root[E.H_N]))])
    deals = None
    if beliefs is not None:
        deals = BeliefDeals.build(beliefs, in_hand, tuple(board), int(part.level.max()) + 1)
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
        row_owner=np.arange(n, dtype=np.int32),
        num_private=np.full(4, NUM_HANDS, dtype=np.int32),
        deals=deals,
        class_names=POKER_CLASSES,
        describe=f"{int(in_hand.sum())}-player subgame from street {int(root[E.H_STREET])}",
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
def _sample(seed, first, count, seats, cdf, hand_cards, board, n_future, n_rounds, private, public, strength):
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
        full = np.zeros(5, dtype=np.int64)
        for k in range(board.shape[0]):
            full[k] = board[k]
        for k in range(n_future):
            while True:
                state, u = splitmix(state)
                c = min(int(u * 52), 51)
                if not used & (np.uint64(1) << np.uint64(c)):
                    break
            used |= np.uint64(1) << np.uint64(c)
            public[i, k] = c
            full[board.shape[0] + k] = c
        for j in range(n_in):
            h = private[i, seats[j], 0]
            cards[0] = hand_cards[h, 0]
            cards[1] = hand_cards[h, 1]
            strength[i, seats[j]] = evaluate7(cards[0], cards[1], full[0], full[1], full[2], full[3], full[4])


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

    @classmethod
    def build(cls, beliefs: np.ndarray, in_hand: np.ndarray, board: tuple[int, ...], num_levels: int) -> BeliefDeals:
        seats = np.flatnonzero(in_hand).astype(np.int64)
        cdf = np.zeros((len(seats), NUM_HANDS))
        touching = np.array([any(int(c) in board for c in HAND_CARDS[h]) for h in range(NUM_HANDS)])
        for j, seat in enumerate(seats):
            w = np.where(touching, 0.0, np.asarray(beliefs[seat], dtype=np.float64))
            if not w.sum() > 0:
                raise ValueError(f"seat {seat}'s range holds no hand the board leaves")
            cdf[j] = np.cumsum(w / w.sum())
            cdf[j, -1] = np.inf
        return cls(len(in_hand), 4, max(num_levels, 1), seats, cdf, np.array(board, dtype=np.int64), 5 - len(board))

    @property
    def listed(self):
        return None

    def batch(self, seed: int, first: int, count: int) -> DealBatch:
        private = np.zeros((count, self.num_players, self.num_rounds), dtype=np.int32)
        public = np.full((count, self.num_levels), -1, dtype=np.int32)
        strength = np.zeros((count, self.num_players), dtype=np.int32)
        _sample(np.uint64(seed), np.uint64(first), count, self.seats, self.cdf, HAND_CARDS.astype(np.int64),
                self.board, self.n_future, self.num_rounds, private, public, strength)  # fmt: skip
        return DealBatch(private, public, strength, np.full(count, -1, dtype=np.int64))
