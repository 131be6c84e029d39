"""A postflop spot of two (heads-up) or three players as a factored game: the betting tree of a
spot's bet sizes, the turn and river as public chance nodes, and the 1,326 hole-card pairs as
every player's private states with card removal (:mod:`gamesolve.game.removal`; three players:
:mod:`gamesolve.game.removal_multi`).

The betting is the rules engine's (pokerkit's rulings: minimum raises, short all-ins), started
from a hand whose preflop put ``pot`` in the middle in equal shares and left ``stack`` behind
each player, with the spot's board dealt. Player 0 is first to act after the flop, the last
player acts last: heads-up player 0 is out of position (the big blind) and player 1 in position
(the button); three-handed players 0, 1, 2 are the small blind, the big blind and the button.
The betting tree is the walk of :mod:`gamesolve_nlth.betting.subgame` (the search's multiway
subgames share it) with the spot's sizes per street; a bet or raise that would commit more than
``allin_threshold`` of the stack the player started the spot with becomes the all-in.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

import attrs
import numpy as np

from gamesolve.game.factored import CHANCE, FactoredGame
from gamesolve.game.removal import fixed_cfv
from gamesolve.game.symmetry import ChanceSymmetry
from gamesolve.progress import NullProgress
from gamesolve.solve.spec import Progress
from gamesolve_nlth import engine as E
from gamesolve_nlth.betting.subgame import ALLIN, StreetSizes, SubgameSizes, SubgameTree, walk_subgame
from gamesolve_nlth.evaluate.stakes import made_hand_values
from gamesolve_nlth.spot.form import node_boards, spot_form
from gamesolve_nlth.spot.hands import HAND_CARDS, NUM_HANDS, touching
from gamesolve_nlth.spot.suits import card_classes, hand_permutation

STREETS = ("flop", "turn", "river")
__all__ = ["ALLIN", "STREETS", "Spot", "SpotError", "StreetSizes", "build_spot", "hand_strengths", "spot_ranges"]
_HOLES = HAND_CARDS.astype(np.int64)


class SpotError(ValueError):
    """A spot that cannot be built; the message is fit to show a user."""


@attrs.frozen
class Spot:
    """A postflop spot (see the module docstring); heads-up unless ``players`` is 3."""

    board: tuple[int, ...]
    pot: int
    stack: int
    flop: StreetSizes = StreetSizes()
    turn: StreetSizes = StreetSizes()
    river: StreetSizes = StreetSizes()
    allin_threshold: float = 0.67
    raise_cap: int = 3
    big_blind: int = 2  # the smallest bet (the game's big blind; minimum raises follow from it)
    players: int = 2  # 2 or 3, with equal stacks and equal shares of the pot

    def __attrs_post_init__(self):
        if len(self.board) not in (3, 4, 5) or len(set(self.board)) != len(self.board):
            raise SpotError(f"a board is 3, 4 or 5 different cards, got {len(self.board)}")
        if self.players not in (2, 3):
            raise SpotError(f"a spot has 2 or 3 players, got {self.players}")
        if self.big_blind < 2:
            raise SpotError(f"the big blind is at least 2 chips, got {self.big_blind}")
        n = self.players
        least = max(4 * n, n * self.big_blind)
        if self.pot < least or self.pot % n:
            share = "an even number" if n == 2 else f"a multiple of {n}"
            raise SpotError(f"the pot must be {share} of chips, at least {least}, got {self.pot}")
        if self.stack < 1:
            raise SpotError(f"the stack behind must be positive, got {self.stack}")
        if not 0.0 < self.allin_threshold <= 1.0:
            raise SpotError(f"the all-in threshold is in (0, 1], got {self.allin_threshold}")
        if self.raise_cap < 0:
            raise SpotError(f"the raise cap is at least 0, got {self.raise_cap}")

    def subgame_sizes(self) -> SubgameSizes:
        """The sizes by street (1 flop, 2 turn, 3 river), as the betting walk takes them."""
        return SubgameSizes({1: self.flop, 2: self.turn, 3: self.river}, self.raise_cap, self.allin_threshold)


def _root(spot: Spot) -> np.ndarray:
    """The engine at the spot: every player put an equal share of the pot in preflop (as
    blinds, then checked down to the spot's street), the board dealt, and the spot's big blind
    as the smallest bet from there on."""
    n = spot.players
    used = set(spot.board)
    holes = [c for c in range(52) if c not in used][: 2 * n]  # placeholders: betting ignores cards
    cards = np.array(holes + list(spot.board), dtype=np.int64)
    share = spot.pot // n
    start = share + spot.stack
    # The last seat is the button. Heads-up it posts the small blind and acts first preflop
    # (seat 0 is the big blind); three-handed seats 0 and 1 post the blinds and the button
    # opens. Blinds of one share each, called and checked: everyone puts the same in.
    s = E.new_hand(np.full(n, start, dtype=np.int64), share, share, n - 1, cards, len(cards))
    while E.next_actor(s) >= 0 and E.street(s) < len(spot.board) - 2:
        E.apply_call(s)  # checked down to the spot's street
    if E.next_actor(s) < 0 or E.street(s) != len(spot.board) - 2:
        raise SpotError("the spot could not be set up in the rules engine")
    E.set_min_bet(s, spot.big_blind)  # minimum bets and raises follow the game's big blind
    return s


def build_spot(spot: Spot, added: Mapping[tuple[int, ...], Collection[int]] | None = None,
               symmetric: bool = False, deal: tuple[int, ...] | None = None, progress: Progress = NullProgress()) -> FactoredGame:  # fmt: skip
    """The spot as a :class:`FactoredGame` with item removal (see the module docstring).

    :param added: raise-to amounts to offer besides the spot's sizes, by the path of edge
        labels (actions and cards) from the root to the decision node.
    :param symmetric: deal one card of each class of mirror images under the board's suit
        symmetries (:mod:`gamesolve_nlth.spot.suits`); solve it only with ranges those
        symmetries leave unchanged.
    :param deal: one card per street to come: every chance node deals only its street's
        card (the one-board template that :class:`~gamesolve.solve.vcfr_sampled.SampledChanceCFR`
        relabels with each iteration's board).
    :param progress: shown the nodes built."""
    if deal is not None and (len(deal) != 5 - len(spot.board) or set(deal) & set(spot.board) or len(set(deal)) != len(deal)):
        raise SpotError(f"a one-board template deals {5 - len(spot.board)} different cards off the board, got {deal}")
    board = tuple(spot.board)
    dealt = None
    if deal is not None:
        dealt = lambda cards: [deal[len(cards) - len(board)]]  # noqa: E731
    elif symmetric:
        dealt = lambda cards: [card for card, _ in card_classes(cards, board)]  # noqa: E731
    tree, _ = walk_subgame(_root(spot), spot.subgame_sizes(), board, added, dealt=dealt, progress=progress)
    node_board = node_boards(tree, board)
    symmetry = _chance_symmetry(tree, node_board, board) if symmetric else None
    return spot_form(board, spot.pot, spot.stack, spot.players, tree, node_board, symmetry, hand_strengths)


def _chance_symmetry(tree: SubgameTree, node_board, board: tuple[int, ...]) -> ChanceSymmetry | None:
    """Each edge's mirror-image cards (in edge order) with their hand permutations."""
    twins = [[] for _ in range(len(tree.parent))]
    classes: dict[tuple[int, ...], dict] = {}
    for e in np.flatnonzero(tree.kind[tree.parent] == CHANCE):
        at = node_board[int(tree.parent[e])]
        if at not in classes:
            classes[at] = dict(card_classes(at, board))
        twins[e] = classes[at][int(tree.label[e])]
    counts = [len(t) for t in twins]
    if not any(counts):
        return None
    perms: dict[tuple[int, ...], int] = {}
    items, rows = [], []
    for edge_twins in twins:
        for card, pi in edge_twins:
            items.append(card)
            rows.append(perms.setdefault(pi, len(perms)))
    start = np.zeros(len(twins) + 1, dtype=np.int64)
    np.cumsum(counts, out=start[1:])
    table = np.stack([hand_permutation(pi) for pi in perms])
    return ChanceSymmetry(start, np.array(items, dtype=np.int32), np.array(rows, dtype=np.int32), table)


def hand_strengths(board: tuple[int, ...]) -> np.ndarray:
    """Seven-card strength of every hand on a complete board (-1 for hands touching it)."""
    out = np.empty(NUM_HANDS, dtype=np.int64)
    made_hand_values(np.asarray(board, dtype=np.int64), _HOLES, out)
    return out.astype(np.int32)


def spot_ranges(spot: Spot, *ranges: np.ndarray) -> np.ndarray:
    """``[players, 1326]`` root reach: each player's range (first to act first; heads-up out of
    position, then in position) with hands touching the board removed."""
    if len(ranges) != spot.players:
        raise SpotError(f"a spot of {spot.players} players needs {spot.players} ranges, got {len(ranges)}")
    reach = np.stack([np.asarray(r, dtype=np.float64) for r in ranges])
    reach[:, touching(spot.board)] = 0.0
    return reach


def why_no_deal(reach: np.ndarray) -> str | None:
    """Why the root reach holds no deal (a range left empty by the board, or two ranges whose
    every pair of hands shares a card), or None when it holds one (for three ranges the pairs
    are checked; the solver checks the triples)."""
    for q in range(len(reach)):
        if not reach[q].any():
            return "a range holds no hand the board leaves"
        for o in range(q):
            if not disjoint_mass(reach[o], reach[q]) > 0:
                return "two ranges block each other: every hand of one shares a card with every hand of the other"
    return None


def compatible_reach(r: np.ndarray) -> np.ndarray:
    """For every hand, the weight of the hands of range ``r`` that share no card with it (the
    core's fold-terminal sum, :func:`~gamesolve.game.removal.fixed_cfv`, with payoff 1)."""
    out = np.zeros(NUM_HANDS)
    fixed_cfv(np.asarray(r, dtype=np.float64), HAND_CARDS, 52, 1.0, out, np.empty(53), np.empty(NUM_HANDS + 1, np.int64))
    return out


def disjoint_mass(r0: np.ndarray, r1: np.ndarray) -> float:
    """The mass of the pairs of hands (one from each range) that share no card."""
    return float(r0 @ compatible_reach(r1))
