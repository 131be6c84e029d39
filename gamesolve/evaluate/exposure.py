"""Strategy exposure: the :class:`ExposesStrategy` protocol (what AIVAT and local best response
need of a known agent), and adapters that give it to the core's agents.

The policy and search agents live in :mod:`gamesolve.search.player`; their exposure is read
from outside, through their public attributes, so the search package stays unaware of AIVAT:

* ``policy``: the probabilities of its :class:`~gamesolve.search.policy.Policy`; its reference
  policy (whose self-play values AIVAT uses) is that policy.
* ``search``: a copy of the agent (:meth:`~gamesolve.search.range_agent.RangeSearchAgent.replayed`)
  replays the hypothetical hand (its searches depend on the hand so far, through the
  probabilities it froze at its own earlier turns) and answers with its policy at the state;
  solves are shared with the agent. Its reference policy is its blueprint; the exposure is
  exact only without a time budget (``seconds=0``).

Agents of plugins expose themselves by implementing the protocol directly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol, runtime_checkable

import numpy as np

from gamesolve.game.state import State


@runtime_checkable
class ExposesStrategy(Protocol):
    """An agent whose play is a known behaviour strategy, over its whole range.

    ``action_probabilities(state, seat, path)`` returns ``{action: probability}`` of what the
    agent, sitting in ``seat`` in the hand it is playing now, would choose at ``state`` if
    it held the private information ``state`` gives that seat. ``path`` lists the
    ``(state, action)`` transitions from the root to ``state`` of that hypothetical hand
    (agents whose strategy depends on the hand so far, such as real-time search, replay it;
    memoryless agents ignore it). An agent whose exposure is only a model of its play sets
    ``strategy_is_exact = False``: local best response may use it, AIVAT does not. Otherwise it
    must be the distribution the agent samples from in
    :meth:`~gamesolve.agents.Agent.act` (given this hand's own random choices made so far,
    such as a randomised translation of an opponent's bet), must not change the agent's state
    or consume its random numbers, and may be asked after the hand ended, before the next
    ``new_hand``.
    """

    def action_probabilities(self, state: State, seat: int, path: Sequence[tuple[State, int]]) -> Mapping[int, float]: ...


class PolicyExposure:
    def __init__(self, player):
        self.player = player
        self.reference_policy = player.policy

    def action_probabilities(self, state: State, seat: int, path: Sequence[tuple[State, int]]) -> dict[int, float]:
        p = np.asarray(self.player.policy.probs(state, seat), dtype=np.float64)
        return {int(a): float(x) for a, x in zip(state.legal_actions(), p / p.sum())}


class RangeSearchExposure:
    def __init__(self, agent):
        from gamesolve.search.policy import NodePolicy

        self.agent = agent
        # A blueprint read by public node (a game too large to name its states) has no explicit
        # tree to hold its self-play values.
        policy = getattr(agent.blueprint, "policy", None)
        self.reference_policy = None if isinstance(policy, NodePolicy) else policy
        # With a time budget a solve depends on the machine's speed: the exposure is a model.
        self.strategy_is_exact = agent.config.seconds == 0

    def action_probabilities(self, state: State, seat: int, path: Sequence[tuple[State, int]]) -> dict[int, float]:
        return self.agent.replayed(seat, path).policy(state)


def exposure_of(agent):
    """The agent's strategy exposure: itself if it implements the protocol, an adapter for
    the core's policy and search agents, else None."""
    from gamesolve.search.player import PolicyPlayer
    from gamesolve.search.range_agent import RangeSearchAgent

    if isinstance(agent, ExposesStrategy):
        return agent
    if isinstance(agent, RangeSearchAgent):
        return RangeSearchExposure(agent)
    if isinstance(agent, PolicyPlayer):
        return PolicyExposure(agent)
    return None
