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
        return LeducState(
            n=n,
            deck_size=self.deck_size,
            private=(),
            public=-1,
            round=0,
            folded=(False,) * n,
            bets=(ANTE,) * n,
            to_act=0,
            raises=0,
            acted=0,
            rounds=((), ()),
        )


class LeducState(State):
    """An immutable Leduc history. ``acted`` counts actions since the last raise/round start.

    The generic compilers walk every history of three-player Leduc (millions of ``child``
    calls), so a state computes its player to act once, and ``child`` builds one new state."""

    __slots__ = ("n", "deck_size", "private", "public", "round", "folded", "bets", "to_act", "raises", "acted", "rounds",
                 "_in", "_player", "_bet")  # fmt: skip

    def __init__(self, *, n, deck_size, private, public, round, folded, bets, to_act, raises, acted, rounds):
        self.n = n
        self.deck_size = deck_size
        self.private = private
        self.public = public
        self.round = round
        self.folded = folded
        self.bets = bets
        self.to_act = to_act
        self.raises = raises
        self.acted = acted
        self.rounds = rounds
        self._in = n - sum(folded)
        self._bet = None  # the betting string, made on first use
        if self._in == 1 or round == 2:
            self._player = TERMINAL
        elif len(private) < n or (round == 1 and public < 0):
            self._player = CHANCE
        else:
            self._player = to_act

    def _in_hand(self) -> int:
        return self._in

    def betting_round(self) -> int:
        return self.round

    def current_player(self) -> int:
        return self._player

    def legal_actions(self):
        if self._player < 0:
            return []
        if self.raises < MAX_RAISES:
            return [FOLD, CALL, RAISE] if self.bets[self.to_act] < max(self.bets) else [CALL, RAISE]
        return [FOLD, CALL] if self.bets[self.to_act] < max(self.bets) else [CALL]

    def chance_outcomes(self):
        used = set(self.private)
        left = [c for c in range(self.deck_size) if c not in used and c != self.public]
        return [(c, 1.0 / len(left)) for c in left]

    def _next_active(self, player: int, folded) -> int:
        for step in range(1, self.n + 1):
            p = (player + step) % self.n
            if not folded[p]:
                return p
        raise AssertionError("no active player")

    def child(self, action: int) -> LeducState:
        player = self._player
        n = self.n
        if player == CHANCE:
            if not (0 <= action < self.deck_size) or action in self.private or action == self.public:
                raise ValueError(f"card {action} cannot be dealt here")
            if len(self.private) < n:
                return LeducState(n=n, deck_size=self.deck_size, private=self.private + (action,), public=self.public,
                                  round=self.round, folded=self.folded, bets=self.bets, to_act=self.to_act,
                                  raises=self.raises, acted=self.acted, rounds=self.rounds)  # fmt: skip
            return LeducState(n=n, deck_size=self.deck_size, private=self.private, public=action, round=self.round,
                              folded=self.folded, bets=self.bets, to_act=self._next_active(n - 1, self.folded),
                              raises=self.raises, acted=self.acted, rounds=self.rounds)  # fmt: skip
        if action not in self.legal_actions():
            raise ValueError(f"action {action} is not legal here (legal: {self.legal_actions()})")
        bets = list(self.bets)
        folded = self.folded
        raises, acted = self.raises, self.acted + 1
        top = max(bets)
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
                to_act = self._next_active(player, folded)
        return LeducState(n=n, deck_size=self.deck_size, private=self.private, public=self.public, round=round_,
                          folded=folded, bets=tuple(bets), to_act=to_act, raises=raises, acted=acted, rounds=rounds)  # fmt: skip

    def _hand_rank(self, player: int) -> int:
        rank = self.private[player] // 2
        board = self.public // 2
        return 100 + rank if rank == board else rank

    def returns(self):
        if self._player != TERMINAL:
            return [0.0] * self.n
        pot = float(sum(self.bets))
        alive = [p for p in range(self.n) if not self.folded[p]]
        if len(alive) > 1:
            best = max(self._hand_rank(p) for p in alive)
            alive = [p for p in alive if self._hand_rank(p) == best]
        share = pot / len(alive)
        return [(share if p in alive else 0.0) - self.bets[p] for p in range(self.n)]

    def _betting(self) -> str:
        if self._bet is None:
            self._bet = "|".join("".join(["fcr"[a] for a in r]) for r in self.rounds[: self.round + 1])
        return self._bet

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
