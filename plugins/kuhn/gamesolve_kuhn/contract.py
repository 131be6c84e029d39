"""Kuhn poker in the factored contract (gamesolve/game/factored_contract.py): the betting as a
public tree, each player's card as a private state. Small enough for the generic compiler
too; the two forms are equal array for array (tests/core/test_factored_contract.py)."""

from __future__ import annotations

from itertools import permutations

import numpy as np

from gamesolve.game.factored_contract import FactoredContract
from gamesolve_kuhn.game import KuhnState


class KuhnContract(FactoredContract):
    """Public states are the game's own states with the cards of a stand-in deal: the betting
    (who acts, what is legal) never depends on the cards, and terminal values are read by
    putting each deal's cards into the terminal history."""

    def __init__(self, players: int):
        self.num_players = players
        self._deals = np.array(list(permutations(range(players + 1), players)), dtype=np.int32)

    def private_states(self, player: int) -> list[str]:
        return [str(card) for card in range(self.num_players + 1)]

    def deals(self) -> tuple[np.ndarray, np.ndarray]:
        return self._deals, np.full(len(self._deals), 1.0 / len(self._deals))

    def root(self) -> KuhnState:
        return KuhnState(self.num_players, tuple(range(self.num_players)), ())

    def player(self, state: KuhnState) -> int:
        return state.current_player()

    def actions(self, state: KuhnState):
        return state.legal_actions()

    def child(self, state: KuhnState, action: int) -> KuhnState:
        return state.child(action)

    def terminal_values(self, state: KuhnState) -> np.ndarray:
        n = self.num_players
        return np.array([KuhnState(n, tuple(int(c) for c in deal), state.history).returns() for deal in self._deals])

    def public_key(self, state: KuhnState) -> str:
        return state.public_state_key()

    def action_class(self, state: KuhnState, action: int) -> str:
        return state.action_class(action)

    def information_state_key(self, public_key: str, player: int, private_label: str) -> str:
        return private_label + ("" if public_key == "-" else public_key)
