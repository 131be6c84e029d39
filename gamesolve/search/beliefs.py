"""Public belief states: the histories an outside observer cannot tell apart, with their
probabilities under a strategy profile.

Supplement, "Structure of imperfect-information subgames": the root of a subgame is a chance
node over the histories ``h`` of the root public state ``G`` with probability
``pi_sigma(h) / sum_{h' in G} pi_sigma(h')``, and each player's belief over their private
cards is updated by Bayes' rule with the profile ``sigma`` in force (the blueprint before
any search, then the latest search's average strategy).

A :class:`PublicBeliefState` keeps every history of the current public state with its
chance probability and, separately, each player's own reach ``pi_i(h)`` (the product of
that player's action probabilities). Keeping the factors apart makes Bayes' rule a
multiplication of one column, and a player's belief is the marginal of the normalised
product. This exact enumeration suits small games (Leduc); NLTH will keep the same
interface over per-player vectors of 1,326 hands with card removal.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from gamesolve.game.state import CHANCE, Game, State

ActionProb = Callable[[State, int, int], float]
"""``prob(state, player, action)``: the profile's probability of ``action`` at ``state``."""


class ZeroReachError(ValueError):
    """No history of the public state has positive probability."""


class PublicBeliefState:
    """Histories of one public state (see the module docstring). Immutable: updates return new objects."""

    def __init__(self, num_players: int, states: list[State], chance: np.ndarray, reach: np.ndarray,
                 skipped_updates: int = 0):
        if not states:
            raise ZeroReachError("a public state needs at least one history")
        self.num_players = num_players
        self.states = states
        self.chance = chance  # float[H]: chance probability of each history
        self.reach = reach  # float[H, P]: each player's own reach
        self.skipped_updates = skipped_updates  # Bayes updates skipped because they zeroed a player

    @classmethod
    def initial(cls, game: Game) -> PublicBeliefState:
        return cls(game.num_players, [game.new_initial_state()], np.ones(1), np.ones((1, game.num_players)))

    # -- the public state --------------------------------------------------------------
    @property
    def representative(self) -> State:
        return self.states[0]

    def public_key(self) -> str:
        return self.representative.public_state_key()

    def current_player(self) -> int:
        return self.representative.current_player()

    def __len__(self) -> int:
        return len(self.states)

    # -- probabilities -----------------------------------------------------------------
    def weights(self) -> np.ndarray:
        """Normalised ``pi_sigma(h)`` over the histories (the subgame root's chance probabilities)."""
        w = self.chance * self.reach.prod(axis=1)
        total = w.sum()
        if total <= 0:
            raise ZeroReachError(f"every history of public state {self.public_key()!r} has probability 0")
        return w / total

    def beliefs(self, player: int) -> dict[str, float]:
        """``player``'s private situation (their information-state key here) -> probability."""
        out: dict[str, float] = {}
        for state, w in zip(self.states, self.weights()):
            key = state.information_state_key(player)
            out[key] = out.get(key, 0.0) + float(w)
        return out

    # -- updates -----------------------------------------------------------------------
    def after_chance(self, next_public_key: str) -> PublicBeliefState:
        """Expand chance: keep the outcomes consistent with the public state observed next
        (every outcome of a private deal, the one board card of a public deal)."""
        states, chance, reach = [], [], []
        for state, c, r in zip(self.states, self.chance, self.reach):
            if state.current_player() != CHANCE:
                raise ValueError(f"public state {self.public_key()!r} is not a chance node")
            for action, p in state.chance_outcomes():
                child = state.child(action)
                if child.public_state_key() == next_public_key:
                    states.append(child)
                    chance.append(c * p)
                    reach.append(r)
        if not states:
            raise ZeroReachError(f"no history of {self.public_key()!r} leads to public state {next_public_key!r}")
        return PublicBeliefState(self.num_players, states, np.array(chance), np.array(reach), self.skipped_updates)

    def after_action(self, action: int, prob: ActionProb) -> PublicBeliefState:
        """Bayes' rule for a public action: multiply the actor's reach by the profile's
        probability of the action at each history.

        If the profile gives the action probability 0 at *every* history (an opponent did
        what the model says never happens), the actor's beliefs are left as they were
        rather than made undefined; ``skipped_updates`` counts such events.
        """
        player = self.current_player()
        if player < 0:
            raise ValueError(f"public state {self.public_key()!r} is not a decision node")
        states = [s.child(action) for s in self.states]
        factor = np.array([prob(s, player, action) for s in self.states])
        reach = self.reach.copy()
        reach[:, player] *= factor
        skipped = self.skipped_updates
        if not (self.chance * reach.prod(axis=1)).sum() > 0:
            reach = self.reach.copy()
            skipped += 1
        return PublicBeliefState(self.num_players, states, self.chance.copy(), reach, skipped)
