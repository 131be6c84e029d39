"""The game contract for no-limit hold'em over the numba engine (:mod:`gamesolve_nlth.engine`).

Integer actions (contract ``legal_actions`` / ``child``):

* decision nodes: ``0`` = fold, ``1`` = check/call, ``RAISE_BASE + a`` = bet/raise **to** ``a``
  chips (the player's total bet on this street), with ``RAISE_BASE = 2``. Every raise size from
  the minimum to the maximum (all-in) is a legal action, so ``legal_actions()`` can be long
  (up to ~10,000 entries at 100 big blinds); :meth:`NLTHState.legal_action_kinds` and
  :attr:`NLTHState.min_raise_to` / :attr:`NLTHState.max_raise_to` are the compact view.
* chance nodes: the card ``0..51`` (``rank * 4 + suit``), uniform over the cards not dealt yet.
  Cards are dealt one at a time: two hole cards for seat 0, then seat 1, ...; then the flop (3),
  turn and river as each street starts (the board is run out when everyone left is all-in).

Players are seats ``0..n-1``; the button seat is a game parameter. Returns are chips won minus
chips committed. ``information_state_key(p)`` = p's hole cards + board + full public action
history; ``public_state_key()`` = the same without hole cards.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from gamesolve.game.state import CHANCE, TERMINAL, Game, State
from gamesolve_nlth import engine as E
from gamesolve_nlth.cards import card_str, cards_str, parse_cards
from gamesolve_nlth.seats import MAX_PLAYERS, MIN_PLAYERS

FOLD = 0
CHECK_CALL = 1
RAISE_BASE = 2

_STREET_NAMES = ("preflop", "flop", "turn", "river")


def raise_action(amount: int) -> int:
    """The contract action for 'bet/raise to ``amount`` chips'."""
    return RAISE_BASE + int(amount)


def action_raise_to(action: int) -> int:
    """The raise-to amount of a raise action."""
    return int(action) - RAISE_BASE


def parse_stacks(stacks, players: int) -> tuple[int, ...]:
    """A single int (every seat) or a comma/space separated list / sequence (one per seat)."""
    if isinstance(stacks, str):
        parts = [p for p in stacks.replace(",", " ").split() if p]
        values = [int(p) for p in parts]
    elif isinstance(stacks, (int, np.integer)):
        values = [int(stacks)]
    else:
        values = [int(x) for x in stacks]
    if len(values) == 1:
        values = values * players
    if len(values) != players:
        raise ValueError(f"stacks: expected 1 or {players} values (one per seat), got {len(values)}")
    if any(v < 1 for v in values):
        raise ValueError(f"stacks must be positive, got {values}")
    return tuple(values)


class NLTHGame(Game):
    """No-limit Texas hold'em: ``players`` seats, ``stacks``, blinds, ``button`` seat."""

    name = "nlth"

    def __init__(
        self,
        players: int = 6,
        stacks=10000,
        small_blind: int = 50,
        big_blind: int = 100,
        button: int = 0,
    ):
        players = int(players)
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"nlth is for {MIN_PLAYERS} to {MAX_PLAYERS} players, got {players}")
        stack_tuple = parse_stacks(stacks, players)
        small_blind, big_blind, button = int(small_blind), int(big_blind), int(button)
        if not 0 <= small_blind <= big_blind or big_blind < 1:
            raise ValueError(f"blinds must satisfy 0 <= small_blind <= big_blind, big_blind >= 1; got {small_blind}/{big_blind}")
        if not 0 <= button < players:
            raise ValueError(f"button must be a seat 0..{players - 1}, got {button}")
        super().__init__(
            players,
            {"stacks": ",".join(map(str, stack_tuple)), "small_blind": small_blind, "big_blind": big_blind, "button": button},
        )
        self.stacks = stack_tuple
        self.small_blind = small_blind
        self.big_blind = big_blind
        self.button = button
        self._stacks_array = np.asarray(stack_tuple, dtype=np.int64)

    def button_for_hand(self, hand: int) -> int:
        """The button seat for hand number ``hand`` (0-based): it moves one seat left per hand."""
        return (self.button + int(hand)) % self.num_players

    def new_initial_state(self, cards: Sequence[int] | str | None = None, button: int | None = None) -> NLTHState:
        """The root (a chance node), or with ``cards`` (deal order, see module doc) pre-dealt."""
        b = self.button if button is None else int(button)
        if not 0 <= b < self.num_players:
            raise ValueError(f"button must be a seat 0..{self.num_players - 1}, got {b}")
        if isinstance(cards, str):
            cards = parse_cards(cards)
        deck = np.zeros(2 * MAX_PLAYERS + 5, np.int64)
        ncards = 0
        if cards is not None:
            cards = [int(c) for c in cards]
            limit = 2 * self.num_players + 5
            if len(cards) > limit:
                raise ValueError(f"at most {limit} cards can be dealt with {self.num_players} players, got {len(cards)}")
            if len(set(cards)) != len(cards) or any(not 0 <= c < 52 for c in cards):
                raise ValueError(f"cards must be distinct values 0..51, got {cards}")
            deck[: len(cards)] = cards
            ncards = len(cards)
        s = E.new_hand(self._stacks_array, self.small_blind, self.big_blind, b, deck, ncards)
        history = tuple(cards) if cards is not None else ()
        return NLTHState(self, s, history)


class NLTHState(State):
    """One history of a hand. ``child`` returns a new state; ``apply*`` mutate in place."""

    __slots__ = ("game", "s", "history", "log")

    def __init__(self, game: NLTHGame, s: np.ndarray, history: tuple[int, ...] = (), log: tuple = ()):
        self.game = game
        self.s = s
        #: every action so far (chance cards and player actions), contract encoding
        self.history = history
        #: ``(street, seat, action)`` for every player action so far
        self.log = log

    # ---- contract --------------------------------------------------------------------------
    def current_player(self) -> int:
        a = E.actor(self.s)
        if a == E.TERMINAL:
            return TERMINAL
        if a == E.CHANCE:
            return CHANCE
        return a

    def legal_actions(self) -> list[int]:
        p = E.actor(self.s)
        if p == E.TERMINAL:
            return []
        if p == E.CHANCE:
            used = E.used_cards(self.s)
            return [c for c in range(52) if not (used >> c) & 1]
        can_fold, _, _, lo, hi = E.legal(self.s)
        out = [FOLD] if can_fold else []
        out.append(CHECK_CALL)
        if lo >= 0:
            out.extend(range(RAISE_BASE + lo, RAISE_BASE + hi + 1))
        return out

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if not self.is_chance_node():
            raise ValueError("chance_outcomes() at a non-chance node")
        cards = self.legal_actions()
        p = 1.0 / len(cards)
        return [(c, p) for c in cards]

    def child(self, action: int) -> NLTHState:
        st = NLTHState(self.game, self.s.copy(), self.history, self.log)
        st.apply_action(action)
        return st

    def clone(self) -> NLTHState:
        return NLTHState(self.game, self.s.copy(), self.history, self.log)

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.game.num_players
        return [float(x) for x in E.payoffs(self.s)]

    def information_state_key(self, player: int) -> str:
        h = self.hole_cards(player)
        return f"p{player}:{cards_str(h)}|{self.public_state_key()}"

    def public_state_key(self) -> str:
        return f"{cards_str(self.board)}|{self.betting_string()}"

    def action_to_string(self, action: int) -> str:
        action = int(action)
        if self.is_chance_node():
            return card_str(action)
        if action == FOLD:
            return "f"
        if action == CHECK_CALL:
            return "cc"
        return f"cbr {action_raise_to(action)}"

    def __str__(self) -> str:
        return (
            f"NLTHState({_STREET_NAMES[min(self.street, 3)]}, board={cards_str(self.board)}, "
            f"pot={self.pot}, stacks={self.stacks}, bets={self.bets}, to_act={self.current_player()})"
        )

    __repr__ = __str__

    # ---- play API --------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return E.num_seats(self.s)

    @property
    def button(self) -> int:
        return E.button(self.s)

    @property
    def street(self) -> int:
        """0 preflop, 1 flop, 2 turn, 3 river."""
        return E.street(self.s)

    def betting_round(self) -> int:
        return self.street

    @property
    def pot(self) -> int:
        """Chips committed so far, including bets on this street."""
        return int(E.pot(self.s))

    @property
    def stacks(self) -> list[int]:
        return E.per_seat(self.s, "stack")

    @property
    def bets(self) -> list[int]:
        return E.per_seat(self.s, "bet")

    @property
    def committed(self) -> list[int]:
        return E.per_seat(self.s, "commit")

    @property
    def in_hand(self) -> list[bool]:
        return [bool(x) for x in E.per_seat(self.s, "active")]

    @property
    def board(self) -> list[int]:
        return [int(c) for c in E.board_cards(self.s)]

    def hole_cards(self, seat: int) -> list[int]:
        n = self.num_players
        if not 0 <= seat < n:
            raise ValueError(f"no seat {seat} (seats 0..{n - 1})")
        return E.hole_cards(self.s, seat)

    @property
    def call_amount(self) -> int:
        return int(E.legal(self.s)[2])

    @property
    def min_raise_to(self) -> int | None:
        lo = int(E.legal(self.s)[3])
        return None if lo < 0 else lo

    @property
    def max_raise_to(self) -> int | None:
        hi = int(E.legal(self.s)[4])
        return None if hi < 0 else hi

    def legal_action_kinds(self) -> list[str]:
        """Subset of ``["f", "cc", "cbr"]`` (PHH names) legal for the player to act."""
        if self.current_player() < 0:
            return []
        can_fold, _, _, lo, _ = E.legal(self.s)
        kinds = ["f"] if can_fold else []
        kinds.append("cc")
        if lo >= 0:
            kinds.append("cbr")
        return kinds

    def payoffs(self) -> list[int]:
        if not self.is_terminal():
            raise ValueError("payoffs() before the hand is over")
        return [int(x) for x in E.payoffs(self.s)]

    def _describe_legal(self) -> str:
        p = self.current_player()
        if p == TERMINAL:
            return "none: the hand is over"
        if p == CHANCE:
            return "a card not dealt yet (chance node)"
        kinds = self.legal_action_kinds()
        parts = []
        if "f" in kinds:
            parts.append("fold (0 / 'f')")
        parts.append(("check" if self.call_amount == 0 else f"call {self.call_amount}") + " (1 / 'cc')")
        if "cbr" in kinds:
            parts.append(
                f"raise to {self.min_raise_to}..{self.max_raise_to} "
                f"({RAISE_BASE}+amount / ('cbr', amount))"
            )
        return f"seat {p} may: " + ", ".join(parts)

    def apply_action(self, action: int) -> None:
        """Apply a contract action in place (see the module doc for the encoding)."""
        action = int(action)
        p = E.actor(self.s)
        street = E.street(self.s)
        if p == E.TERMINAL:
            raise ValueError(f"action {action} after the hand is over")
        if p == E.CHANCE:
            err = E.deal_card(self.s, action)
            if err:
                raise ValueError(f"cannot deal card {action}: legal are {self._describe_legal()}")
        elif action == FOLD:
            err = E.apply_fold(self.s)
            if err:
                raise ValueError(f"fold is not legal here (checking is free); {self._describe_legal()}")
        elif action == CHECK_CALL:
            E.apply_call(self.s)
        else:
            amount = action_raise_to(action)
            err = E.apply_raise_to(self.s, amount)
            if err:
                raise ValueError(f"raise to {amount} is not legal; {self._describe_legal()}")
        self.history = self.history + (action,)
        if p >= 0:
            self.log = self.log + ((street, p, action),)

    def apply(self, action) -> NLTHState:
        """Play API, in place: ``"f"``, ``"cc"``, ``("cbr", amount)`` / ``"cbr 300"``, or a card
        string like ``"As"`` at a chance node. Returns ``self``."""
        if isinstance(action, tuple):
            kind, amount = action
            if kind != "cbr":
                raise ValueError(f"unknown action {action!r}; use 'f', 'cc' or ('cbr', amount)")
            self.apply_action(raise_action(int(amount)))
        elif isinstance(action, str):
            words = action.split()
            if self.is_chance_node():
                for c in parse_cards(action):
                    self.apply_action(c)
            elif words == ["f"]:
                self.apply_action(FOLD)
            elif words == ["cc"]:
                self.apply_action(CHECK_CALL)
            elif len(words) == 2 and words[0] == "cbr":
                self.apply_action(raise_action(int(words[1])))
            else:
                raise ValueError(f"unknown action {action!r}; use 'f', 'cc' or ('cbr', amount); {self._describe_legal()}")
        else:
            self.apply_action(int(action))
        return self

    def deal(self, cards) -> NLTHState:
        """Deal cards in place (``"AsKd"`` or ints)."""
        if isinstance(cards, str):
            cards = parse_cards(cards)
        for c in cards:
            if not self.is_chance_node():
                raise ValueError(f"no card to deal here; {self._describe_legal()}")
            self.apply_action(int(c))
        return self

    # ---- histories -------------------------------------------------------------------------
    def player_actions(self) -> list[tuple[int, int, int]]:
        """``(street, seat, action)`` for every player action so far."""
        return list(self.log)

    def betting_string(self) -> str:
        """Public action history: streets separated by '/', actions 'f', 'c', 'r<to>' with seat."""
        streets: list[list[str]] = [[] for _ in range(4)]
        for street, seat, a in self.log:
            tok = "f" if a == FOLD else "c" if a == CHECK_CALL else f"r{action_raise_to(a)}"
            streets[street].append(f"{seat}{tok}")
        last = self.street
        return "/".join(",".join(x) for x in streets[: last + 1])
