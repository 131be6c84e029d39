"""Liar's Dice in the factored contract (gamesolve/game/factored_contract.py): the bids as a
public tree, each player's dice as a private state, terminal values per (last bid, caller).

With two dice of six sides each the game has 16.7 million bid sequences and 1,296 rolls, 33
million histories when the State contract is walked deal by deal (game.py); here it is 33
million public nodes over 441 joint private states (21 multisets of two dice a player), and
every terminal shares one of 48 table rows (24 bids x 2 callers).
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations_with_replacement
from math import factorial

import numpy as np

from gamesolve.game.factored_contract import TERMINAL, FactoredContract
from gamesolve_liars_dice.game import LiarsDiceRules

# A public state: (last bid or -1, the bid before it or -1, bids made, the state before).
# The chain back to the root is walked only to print a public key.
_ROOT = (-1, -1, 0, None)


class LiarsDiceContract(FactoredContract):
    """The factored description of one setting of Liar's Dice (module docstring)."""

    def __init__(self, rules: LiarsDiceRules):
        self.rules = rules
        self.num_players = rules.players
        faces = range(1, rules.sides + 1)
        # Multisets in lexicographic order: the generic compiler numbers private states by
        # their sorted keys, and these labels sort the same way (for up to nine sides).
        self._hands = list(combinations_with_replacement(faces, rules.dice))
        self._labels = [",".join(map(str, hand)) for hand in self._hands]
        orderings = [factorial(rules.dice) / np.prod([factorial(c) for c in Counter(h).values()]) for h in self._hands]
        self._hand_prob = np.array(orderings) / rules.sides**rules.dice
        # How many of a hand's dice count for a bid on each face (the highest face is wild).
        wild = rules.sides
        self._counts = np.array([[sum(1 for x in h if x == f or x == wild) for f in range(1, rules.sides + 1)]
                                 for h in self._hands])  # fmt: skip
        grids = np.meshgrid(*[np.arange(len(self._hands))] * rules.players, indexing="ij")
        self._deals = np.stack([g.reshape(-1) for g in grids], axis=1).astype(np.int32)

    def private_states(self, player: int) -> list[str]:
        return self._labels

    def deals(self) -> tuple[np.ndarray, np.ndarray]:
        prob = np.prod(self._hand_prob[self._deals], axis=1)
        return self._deals, prob / prob.sum()

    def root(self):
        return _ROOT

    def player(self, state) -> int:
        last, _, made, _ = state
        return TERMINAL if last == self.rules.liar else made % self.rules.players

    def actions(self, state) -> range:
        last, _, made, _ = state
        return range(last + 1, self.rules.liar + 1) if made else range(self.rules.liar)

    def child(self, state, action: int):
        return (action, state[0], state[2] + 1, state)

    def terminal_key(self, state):
        _, bid, made, _ = state
        return bid, (made - 1) % self.rules.players  # the bid called, and who called it

    def terminal_values(self, state) -> np.ndarray:
        quantity, face = self.rules.bids[state[1]]
        n = self.rules.players
        bidder, caller = (state[2] - 2) % n, (state[2] - 1) % n
        matches = self._counts[self._deals, face - 1].sum(axis=1)
        bidder_wins = matches >= quantity
        values = np.zeros((len(self._deals), n))
        values[:, bidder] = np.where(bidder_wins, 1.0, -1.0)
        values[:, caller] = -values[:, bidder]
        return values

    def public_path(self, state) -> tuple[int, ...]:
        return state.bids  # a game history's bids are the public tree's edge labels

    def public_key(self, state) -> str:
        names = []
        while state[3] is not None:
            names.append("liar" if state[0] == self.rules.liar else self.rules.bid_names[state[0]])
            state = state[3]
        return " ".join(reversed(names)) if names else "-"
