"""Agents that play NLTH: the baselines (``random``, ``call``, ``tag``)."""

from gamesolve_nlth.agents.baselines import CallAgent, RandomAgent, TagAgent, chen_score, mc_equity

__all__ = ["CallAgent", "RandomAgent", "TagAgent", "chen_score", "mc_equity"]
