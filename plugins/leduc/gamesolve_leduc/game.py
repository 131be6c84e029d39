"""Leduc poker for N >= 2 players, move for move as open-spiel's ``leduc_poker``.

The deck has two suits of N + 1 ranks (card ``c`` has rank ``c // 2``). Each player antes 1
and gets one private card (chance deals player 0 first). Two betting rounds, the second
after one public card; raises are 2 chips in round 1 and 4 in round 2, at most 2 raises a
round; player 0 (or the next player still in) acts first in each round. Actions: 0 = fold
(only when facing a bet), 1 = check/call, 2 = raise. At showdown a private card that pairs
the board beats any unpaired hand, otherwise the higher rank wins; ties split the pot.
"""

from __future__ import annotations

from gamesolve.game import CHANCE, TERMINAL, Game, State

FOLD, CALL, RAISE = 0, 1, 2
ACTION_NAMES = ("fold", "call", "raise")
ANTE = 1
RAISE_AMOUNTS = (2, 4)
MAX_RAISES = 2
BUCKETINGS = ("rank", "card", "coarse")
"""The card abstractions of the ``abstraction`` parameter (poker_form.py says what each keeps)."""


class LeducGame(Game):
    name = "leduc"

    def __init__(self, players: int = 2, abstraction: str = "rank"):
        if abstraction not in BUCKETINGS:
            from gamesolve.game import ParameterError

            raise ParameterError(f"unknown Leduc abstraction {abstraction!r} (choose from {', '.join(BUCKETINGS)})")
        super().__init__(players, {"abstraction": abstraction})
        self.abstraction = abstraction
        self.deck_size = 2 * (players + 1)

    def factored_contract(self):
        """The betting as a public tree over each player's card (contract.py)."""
        from gamesolve_leduc.contract import LeducContract

        return LeducContract(self)

    def new_initial_state(self) -> LeducState:
        n = self.num_players
        return LeducState._make(n, self.deck_size, (), -1, _Betting(n, 0, (False,) * n, (ANTE,) * n, 0, 0, 0, ((), ())))


def _next_active(n: int, player: int, folded) -> int:
    for step in range(1, n + 1):
        p = (player + step) % n
        if not folded[p]:
            return p
    raise AssertionError("no active player")


class _Betting:
    """The betting of a Leduc history: everything in it but the cards. Histories that differ
    only in their cards share one, and each remembers the betting that follows it (``after``,
    ``dealt``): the generic compilers walk every deal of a betting sequence side by side
    (three-player Leduc has 1.8 M histories and a few thousand betting sequences), so a
    child's betting is worked out once per sequence instead of once per history. The memory
    lives as long as the hand's states do (every hand starts from a new root)."""

    __slots__ = ("n", "round", "folded", "bets", "to_act", "raises", "acted", "rounds", "in_hand", "top", "_text",
                 "_legal", "_next", "_dealt", "_alive", "_payoffs")  # fmt: skip

    def __init__(self, n, round, folded, bets, to_act, raises, acted, rounds):
        self.n = n
        self.round = round
        self.folded = folded
        self.bets = bets
        self.to_act = to_act
        self.raises = raises
        self.acted = acted
        self.rounds = rounds
        self.in_hand = n - sum(folded)
        self.top = max(bets)
        self._text = None  # the betting string, made on first use
        self._legal = None
        self._next: dict[int, _Betting] = {}
        self._dealt = None
        self._alive = None
        self._payoffs: dict[tuple[int, ...], tuple[float, ...]] = {}

    def __reduce__(self):  # a pickled state carries its betting, not what was remembered after it
        return _Betting, (self.n, self.round, self.folded, self.bets, self.to_act, self.raises, self.acted, self.rounds)

    def text(self) -> str:
        if self._text is None:
            self._text = "|".join("".join(["fcr"[a] for a in r]) for r in self.rounds[: self.round + 1])
        return self._text

    def legal(self) -> tuple[int, ...]:
        """The legal actions of ``to_act`` (at a decision)."""
        if self._legal is None:
            facing = self.bets[self.to_act] < self.top
            if self.raises < MAX_RAISES:
                self._legal = (FOLD, CALL, RAISE) if facing else (CALL, RAISE)
            else:
                self._legal = (FOLD, CALL) if facing else (CALL,)
        return self._legal

    def alive(self) -> tuple[int, ...]:
        if self._alive is None:
            self._alive = tuple(p for p in range(self.n) if not self.folded[p])
        return self._alive

    def payoffs(self, winners: tuple[int, ...]) -> list[float]:
        """Every player's return when ``winners`` split the pot (a new list each call)."""
        known = self._payoffs.get(winners)
        if known is None:
            share = float(sum(self.bets)) / len(winners)
            known = tuple((share if p in winners else 0.0) - self.bets[p] for p in range(self.n))
            self._payoffs[winners] = known
        return list(known)

    def dealt(self) -> _Betting:
        """The betting once the board card is dealt: the first player still in acts."""
        if self._dealt is None:
            self._dealt = _Betting(self.n, self.round, self.folded, self.bets, _next_active(self.n, self.n - 1, self.folded),
                                   self.raises, self.acted, self.rounds)  # fmt: skip
        return self._dealt

    def after(self, action: int) -> _Betting:
        """The betting once ``to_act`` takes the legal ``action``."""
        known = self._next.get(action)
        if known is not None:
            return known
        n, player = self.n, self.to_act
        bets = list(self.bets)
        folded = self.folded
        raises, acted = self.raises, self.acted + 1
        top = self.top
        if action == FOLD:
            folded = folded[:player] + (True,) + folded[player + 1 :]
        elif action == CALL:
            bets[player] = top
        else:
            top = bets[player] = top + RAISE_AMOUNTS[self.round]
            raises += 1
            acted = 1
        rounds = self.rounds
        rounds = (rounds[0] + (action,), rounds[1]) if self.round == 0 else (rounds[0], rounds[1] + (action,))
        active = n - sum(folded)
        round_, to_act = self.round, self.to_act
        if active > 1:
            # The round closes once every player still in has acted since the last raise.
            if acted >= active and all(folded[p] or bets[p] == top for p in range(n)):
                round_, raises, acted, to_act = round_ + 1, 0, 0, 0
            else:
                to_act = _next_active(n, player, folded)
        known = self._next[action] = _Betting(n, round_, folded, tuple(bets), to_act, raises, acted, rounds)
        return known


class LeducState(State):
    """An immutable Leduc history: its cards and its betting (:class:`_Betting`, shared by the
    histories that differ only in their cards).

    The generic compilers walk every history of three-player Leduc (millions of ``child``
    calls), so a state computes its player to act once, and ``child`` builds one new state
    around a betting worked out once per betting sequence."""

    __slots__ = ("n", "deck_size", "private", "public", "_b", "_player")

    def __init__(self, *, n, deck_size, private, public, round, folded, bets, to_act, raises, acted, rounds):
        betting = _Betting(n, round, tuple(folded), tuple(bets), to_act, raises, acted, tuple(rounds))
        self._init(n, deck_size, private, public, betting)

    def _init(self, n, deck_size, private, public, b) -> None:
        self.n = n
        self.deck_size = deck_size
        self.private = private
        self.public = public
        self._b = b
        if b.in_hand == 1 or b.round == 2:
            self._player = TERMINAL
        elif len(private) < n or (b.round == 1 and public < 0):
            self._player = CHANCE
        else:
            self._player = b.to_act

    @classmethod
    def _make(cls, n, deck_size, private, public, b) -> LeducState:
        state = object.__new__(cls)
        state._init(n, deck_size, private, public, b)
        return state

    round = property(lambda self: self._b.round)
    folded = property(lambda self: self._b.folded)
    bets = property(lambda self: self._b.bets)
    to_act = property(lambda self: self._b.to_act)
    raises = property(lambda self: self._b.raises)
    acted = property(lambda self: self._b.acted)
    rounds = property(lambda self: self._b.rounds)

    def _in_hand(self) -> int:
        return self._b.in_hand

    def betting_round(self) -> int:
        return self._b.round

    def current_player(self) -> int:
        return self._player

    def legal_actions(self):
        if self._player < 0:
            return []
        return list(self._b.legal())

    def chance_outcomes(self):
        used = set(self.private)
        left = [c for c in range(self.deck_size) if c not in used and c != self.public]
        return [(c, 1.0 / len(left)) for c in left]

    def child(self, action: int) -> LeducState:
        player = self._player
        n = self.n
        if player == CHANCE:
            if not (0 <= action < self.deck_size) or action in self.private or action == self.public:
                raise ValueError(f"card {action} cannot be dealt here")
            if len(self.private) < n:
                return LeducState._make(n, self.deck_size, self.private + (action,), self.public, self._b)
            return LeducState._make(n, self.deck_size, self.private, action, self._b.dealt())
        if player < 0 or action not in self._b.legal():
            raise ValueError(f"action {action} is not legal here (legal: {self.legal_actions()})")
        return LeducState._make(n, self.deck_size, self.private, self.public, self._b.after(int(action)))

    def returns(self):
        if self._player != TERMINAL:
            return [0.0] * self.n
        b = self._b
        if b.in_hand == 1:
            return b.payoffs(b.alive())
        board = self.public // 2  # a card that pairs the board beats any unpaired one
        ranks = [(100 + r if r == board else r) for r in [self.private[p] // 2 for p in b.alive()]]
        best = max(ranks)
        return b.payoffs(tuple(p for p, rank in zip(b.alive(), ranks) if rank == best))

    def _betting(self) -> str:
        return self._b.text()

    def information_state_key(self, player: int) -> str:
        card = str(self.private[player]) if player < len(self.private) else "?"
        board = str(self.public) if self.public >= 0 else "?"
        return f"{card}:{board}:{self._betting()}"

    def public_state_key(self) -> str:
        board = str(self.public) if self.public >= 0 else "?"
        return f"{board}:{self._betting()}"

    def action_to_string(self, action: int) -> str:
        if self.current_player() == CHANCE:
            return f"deal {action}"
        return ACTION_NAMES[action]

    def action_class(self, action: int) -> str:
        return ACTION_NAMES[action]

    def __repr__(self) -> str:
        return f"LeducState(private={self.private}, public={self.public}, betting={self._betting()!r})"
