"""Leduc poker in the factored contract (gamesolve/game/factored_contract.py): the betting and
the board card as a public tree, each player's card as a private state, card removal in the
board's probabilities. Small enough for the generic compiler too; the two forms are equal
array for array (tests/core/test_factored_contract.py)."""

from __future__ import annotations

from itertools import permutations

import numpy as np

from gamesolve.game.factored_contract import FactoredContract
from gamesolve_leduc.game import LeducGame, LeducState


class LeducContract(FactoredContract):
    """Public states are the game's own states with the cards of a stand-in deal (the betting
    never depends on the cards); chance and terminal values are read per deal."""

    def __init__(self, game: LeducGame):
        self.game = game
        self.num_players = game.num_players
        self.deck = game.deck_size
        self._deals = np.array(list(permutations(range(self.deck), self.num_players)), dtype=np.int32)
        self._stand_in = tuple(range(self.num_players))

    def private_states(self, player: int) -> list[str]:
        return [str(card) for card in range(self.deck)]

    def deals(self) -> tuple[np.ndarray, np.ndarray]:
        return self._deals, np.full(len(self._deals), 1.0 / len(self._deals))

    def root(self) -> LeducState:
        state = self.game.new_initial_state()
        for card in self._stand_in:
            state = state.child(card)
        return state

    def player(self, state: LeducState) -> int:
        return state.current_player()

    def actions(self, state: LeducState):
        return state.legal_actions()

    def child(self, state: LeducState, action: int) -> LeducState:
        if state.current_player() < 0:  # the board card: any card, whatever the stand-in deal holds
            return _with(state, public=action)
        return state.child(action)

    def chance_outcomes(self, state: LeducState):
        left = self.deck - self.num_players
        # A card a player holds cannot come: probability 0 for the deals that hold it.
        return [(card, np.where(np.any(self._deals == card, axis=1), 0.0, 1.0 / left)) for card in range(self.deck)]

    def terminal_values(self, state: LeducState) -> np.ndarray:
        return np.array([_with(state, private=tuple(int(c) for c in deal)).returns() for deal in self._deals])

    def public_key(self, state: LeducState) -> str:
        return state.public_state_key()

    def action_class(self, state: LeducState, action: int) -> str:
        return state.action_class(action)

    def information_state_key(self, public_key: str, player: int, private_label: str) -> str:
        return f"{private_label}:{public_key}"


def _with(state: LeducState, **changes) -> LeducState:
    fields = ("n", "deck_size", "private", "public", "round", "folded", "bets", "to_act", "raises", "acted", "rounds")
    values = {name: getattr(state, name) for name in fields}
    values.update(changes)
    return LeducState(**values)
