"""Agents: anything that picks actions in a game, registered by plugins.

An agent sees the full :class:`~gamesolve.game.state.State` object but must decide only from
what its seat may know: its own ``information_state_key(seat)`` (or, for richer games, the
public state plus its own private cards). Matches check nothing of the sort; the baseline and
blueprint agents honour it by construction.
"""

from __future__ import annotations

import abc
from collections.abc import Callable
from typing import Any

import attrs

from gamesolve.game.state import Game, State


class Agent(abc.ABC):
    """Plays one seat of a game, hand after hand.

    An agent that draws random numbers should reseed its generator in :meth:`new_hand` from
    its seed and the hand number (:func:`hand_seed`): then a hand's play does not depend on
    the hands played before it, and a match split over worker processes gives the same
    result as one played in a single process.
    """

    name: str = "agent"
    last_searched: bool = False
    """Whether a search decided the agent's latest ``act`` (agents that search say so; match
    summaries report those decisions' latency apart)."""

    def new_hand(self, seat: int, hand: int) -> None:  # noqa: B027 - optional hook
        """Called before each hand with the agent's seat and the hand number."""

    @abc.abstractmethod
    def act(self, state: State, seat: int) -> int:
        """The action to take at ``state``, where ``state.current_player() == seat``."""

    def observe(self, state: State, action: int) -> None:  # noqa: B027 - optional hook
        """Called after every action (any player's, and chance's) with the state before it."""

    def strategy(self, state: State, seat: int) -> list[tuple[int, float]] | None:
        """Optional: the agent's probability of each action at ``state`` for ``seat``, as
        ``(action, probability)`` pairs, without playing (the play coach shows it after a
        hand). ``None`` (the default): the agent cannot tell."""
        return None


def hand_seed(seed: int, hand: int) -> int:
    """The seed of an agent's random stream for hand number ``hand`` (distinct per hand)."""
    return (int(seed) * 0x9E3779B97F4A7C15 + int(hand) * 0xBF58476D1CE4E5B9 + 1) % (2**63)


@attrs.frozen
class AgentSpec:
    """What a plugin registers: ``factory(game, seed, **options)`` builds an :class:`Agent`.

    ``games`` names the games the agent can play (empty: any game). With ``needs_plugins``
    the factory also receives ``plugins=`` (the plugin manager, or None), for agents that
    use other plugins' hooks (the agents reading a stored blueprint compile the game's form).
    """

    name: str
    factory: Callable[..., Agent]
    description: str = ""
    games: tuple[str, ...] = ()
    needs_plugins: bool = False

    def supports(self, game: Game) -> bool:
        return not self.games or game.name in self.games

    def create(self, game: Game, seed: int = 0, plugins: Any = None, **options: Any) -> Agent:
        if self.needs_plugins:
            return self.factory(game, seed, plugins=plugins, **options)
        return self.factory(game, seed, **options)
