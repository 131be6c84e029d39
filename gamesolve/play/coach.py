"""The coach: after a hand, what an agent's strategy would have done at each of the person's
decisions, holding the person's cards.

An agent can coach when it can tell its action probabilities at a state without playing:
:meth:`gamesolve.agents.Agent.strategy` (the NLTH blueprint agent implements it), or a
``policy`` attribute with ``probs(state, seat)`` over the legal actions (the ``policy``
agent of stored policies). Search agents, whose answer depends on a search run during the
hand, do not coach.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from gamesolve.agents import Agent
from gamesolve.game.state import State
from gamesolve.play.session import PlaySession
from gamesolve.play.view import PlayView


@attrs.frozen
class CoachNote:
    """One decision: the stage, what the person did, and the coach's strategy there
    (``(action as the log reads it, probability)``, most likely first)."""

    stage: str
    chose: str
    strategy: tuple[tuple[str, float], ...]

    def line(self) -> str:
        advice = ", ".join(f"{label} {p:.0%}" for label, p in self.strategy if p >= 0.005) or "-"
        where = f"{self.stage}: " if self.stage else ""
        return f"{where}you: {self.chose} · coach: {advice}"

    def as_dict(self) -> dict:
        return {"stage": self.stage, "chose": self.chose,
                "strategy": [{"action": a, "p": p} for a, p in self.strategy]}  # fmt: skip


def strategy_of(agent: Agent, state: State, seat: int) -> list[tuple[int, float]] | None:
    """``agent``'s probabilities of each action at ``state`` for ``seat``, or None."""
    explained = agent.strategy(state, seat) if isinstance(agent, Agent) else None
    if explained is not None:
        return [(int(a), float(p)) for a, p in explained]
    policy = getattr(agent, "policy", None)
    if policy is not None and hasattr(policy, "probs"):
        legal = list(state.legal_actions())
        probs = [float(x) for x in policy.probs(state, seat)]
        total = sum(probs)
        if len(probs) == len(legal) and total > 0:
            return [(a, p / total) for a, p in zip(legal, probs)]
    return None


def can_coach(agent: Agent | None) -> bool:
    """Whether ``agent`` offers its strategy (see the module doc)."""
    if agent is None:
        return False
    overrides = type(agent).strategy is not Agent.strategy
    return overrides or hasattr(getattr(agent, "policy", None), "probs")


class Coach:
    """Explains the person's decisions of the last hand with ``agent``'s strategy."""

    def __init__(self, agent: Agent, name: str):
        self.agent = agent
        self.name = name

    def notes(self, session: PlaySession, view: PlayView) -> list[CoachNote]:
        if not session.decisions:
            return []
        # Reset the agent's per-hand state (e.g. how it translated off-tree bets) for this hand;
        # a seated agent is reset again before the next hand, so its play is unchanged.
        self.agent.new_hand(session.decisions[0].seat, session.hand)
        out = []
        for d in session.decisions:
            probs = strategy_of(self.agent, d.state, d.seat)
            if probs is None:
                continue
            merged: dict[str, float] = {}
            for action, p in probs:
                label = view.describe(d.state, action)
                merged[label] = merged.get(label, 0.0) + p
            ranked = tuple(sorted(merged.items(), key=lambda kv: -kv[1]))
            out.append(CoachNote(view.stage(d.state), view.describe(d.state, d.action), ranked))
        return out


def pick_coach(participants: Sequence[Agent | None], names: Sequence[str]) -> Coach | None:
    """The first seated agent that can coach, or None."""
    for agent, name in zip(participants, names):
        if can_coach(agent):
            return Coach(agent, name)
    return None
