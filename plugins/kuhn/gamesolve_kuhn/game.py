"""Kuhn poker for N >= 2 players, move for move as open-spiel's ``kuhn_poker``.

The deck holds N + 1 cards (0 is lowest). Every player antes 1 and is dealt one card
(chance deals player 0 first). One betting round: player 0 acts first; action 0 = pass,
1 = bet (1 chip). Until someone bets, pass checks; after a bet, each other player in turn
calls (bet) or folds (pass). The highest card among players who did not fold wins the pot.
"""

from __future__ import annotations

from gamesolve.game import CHANCE, TERMINAL, Game, State

PASS, BET = 0, 1


class KuhnGame(Game):
    name = "kuhn"

    def __init__(self, players: int = 2):
        super().__init__(players)

    def factored_contract(self):
        """The betting as a public tree over each player's card (contract.py)."""
        from gamesolve_kuhn.contract import KuhnContract

        return KuhnContract(self.num_players)

    def new_initial_state(self) -> KuhnState:
        return KuhnState(self.num_players, (), ())


class KuhnState(State):
    __slots__ = ("n", "cards", "history")

    def __init__(self, n: int, cards: tuple[int, ...], history: tuple[int, ...]):
        self.n = n
        self.cards = cards
        self.history = history

    # -- derived facts of the betting -------------------------------------------------
    def _first_bet(self) -> int:
        """Position in the history of the first bet, or -1."""
        for i, a in enumerate(self.history):
            if a == BET:
                return i
        return -1

    def _terminal(self) -> bool:
        first = self._first_bet()
        if first < 0:
            return len(self.history) == self.n
        return len(self.history) == first + self.n

    def current_player(self) -> int:
        if len(self.cards) < self.n:
            return CHANCE
        if self._terminal():
            return TERMINAL
        return len(self.history) % self.n

    def legal_actions(self):
        return [PASS, BET] if self.current_player() >= 0 else []

    def chance_outcomes(self):
        left = [c for c in range(self.n + 1) if c not in self.cards]
        return [(c, 1.0 / len(left)) for c in left]

    def child(self, action: int) -> KuhnState:
        if len(self.cards) < self.n:
            if action in self.cards or not 0 <= action <= self.n:
                raise ValueError(f"card {action} cannot be dealt here")
            return KuhnState(self.n, self.cards + (action,), self.history)
        if action not in (PASS, BET) or self._terminal():
            raise ValueError(f"action {action} is not legal here (legal: {self.legal_actions()})")
        return KuhnState(self.n, self.cards, self.history + (action,))

    def returns(self):
        if not self._terminal() or len(self.cards) < self.n:
            return [0.0] * self.n
        first = self._first_bet()
        put = [1.0] * self.n
        if first < 0:
            contenders = list(range(self.n))
        else:
            # The bettor and everyone after who bet (called) stay in; bettor is player first % n.
            contenders = []
            for i in range(first, first + self.n):
                player = i % self.n
                if self.history[i] == BET:
                    put[player] += 1.0
                    contenders.append(player)
        winner = max(contenders, key=lambda p: self.cards[p])
        pot = sum(put)
        return [(pot if p == winner else 0.0) - put[p] for p in range(self.n)]

    def information_state_key(self, player: int) -> str:
        card = str(self.cards[player]) if player < len(self.cards) else "?"
        return card + "".join("pb"[a] for a in self.history)

    def public_state_key(self) -> str:
        return "".join("pb"[a] for a in self.history) or "-"

    def action_to_string(self, action: int) -> str:
        if self.current_player() == CHANCE:
            return f"deal {action}"
        return "pass" if action == PASS else "bet"

    def action_class(self, action: int) -> str:
        facing_bet = self._first_bet() >= 0
        if action == BET:
            return "call" if facing_bet else "raise"
        return "fold" if facing_bet else "call"

    def __repr__(self) -> str:
        return f"KuhnState(cards={self.cards}, history={self.key()})"

    def key(self) -> str:
        return " ".join(map(str, self.cards)) + " " + self.public_state_key()
