"""A hand as the ACPC dealer holds it: every card dealt up front, played by the engine.

Cards are dealt in ACPC's order -- position 0's two hole cards, position 1's, ..., then the
five board cards -- and the engine plays the hand with seat = position and the button on
the last seat, so engine seats and ACPC positions are one numbering.
"""

from __future__ import annotations

from collections.abc import Sequence

from gamesolve_nlth import engine as E
from gamesolve_nlth.acpc.actions import fixed_action, token_of
from gamesolve_nlth.acpc.protocol import MatchState
from gamesolve_nlth.cards import cards_str
from gamesolve_nlth.state import NLTHGame

BOARD_SLICES = ((0, 0), (0, 3), (3, 4), (4, 5))
"""The board cards of each round, as slices of the five."""


class DealtHand:
    """One hand: ``state`` (the engine's), and ``betting[r]``, round ``r``'s ACPC tokens."""

    def __init__(self, game: NLTHGame, hand: int, cards: Sequence[int]):
        n = game.num_players
        if len(cards) != 2 * n + 5:
            raise ValueError(f"a hand of {n} players needs {2 * n + 5} cards, got {len(cards)}")
        self.game = game
        self.hand = int(hand)
        self.cards = [int(c) for c in cards]
        self.state = game.new_initial_state(cards=self.cards, button=n - 1)
        self.betting: list[list[str]] = [[]]

    @property
    def finished(self) -> bool:
        return self.state.is_terminal()

    @property
    def to_act(self) -> int:
        """The position to act (the hand must not be finished)."""
        return self.state.current_player()

    @property
    def round(self) -> int:
        """ACPC's round: the street, or the last round once a hand ends in a showdown
        (an all-in runout included)."""
        return 3 if self.showdown else self.state.street

    @property
    def showdown(self) -> bool:
        return self.state.is_terminal() and E.at_showdown(self.state.s)

    def play(self, action: int) -> None:
        """Apply engine ``action`` for the position to act."""
        street = self.state.street
        self.betting[street].append(token_of(self.state, action))
        self.state.apply_action(action)
        while len(self.betting) <= self.round:
            self.betting.append([])

    def answer(self, text: str) -> str | None:
        """Apply a client's action token with the ACPC dealer's corrections; returns the
        correction made, if any (one line)."""
        action, note = fixed_action(self.state, text)
        self.play(action)
        return note

    def hole(self, position: int) -> list[int]:
        return self.cards[2 * position : 2 * position + 2]

    def board(self) -> list[tuple[int, ...]]:
        """The board of each round so far (round 0's is empty)."""
        n2 = 2 * self.game.num_players
        return [tuple(self.cards[n2 + a : n2 + b]) for a, b in BOARD_SLICES[: self.round + 1]]

    def shows(self, position: int, viewer: int) -> bool:
        """Whether ``viewer`` sees ``position``'s hole cards: their own, and at the end those of
        every player still in the hand if it went to a showdown (ACPC's rule)."""
        return position == viewer or (self.showdown and self.state.in_hand[position])

    def matchstate(self, viewer: int) -> MatchState:
        n = self.game.num_players
        hole = tuple(tuple(self.hole(p)) if self.shows(p, viewer) else () for p in range(n))
        return MatchState(viewer, self.hand, tuple(tuple(r) for r in self.betting), hole, tuple(self.board()))

    def payoffs(self) -> list[int]:
        return self.state.payoffs()

    def log_line(self, names: Sequence[str]) -> str:
        """The hand as the ACPC dealer logs it: ``STATE:hand:betting:cards:values:names``, every
        position's cards shown, values and names in position order."""
        n = self.game.num_players
        betting = "/".join("".join(r) for r in self.betting)
        cards = "|".join(cards_str(self.hole(p)) for p in range(n)) + "".join("/" + cards_str(b) for b in self.board()[1:])
        values = "|".join(str(v) for v in self.payoffs())
        return f"STATE:{self.hand}:{betting}:{cards}:{values}:{'|'.join(names)}"
