"""Agents that play NLTH: the baselines (``random``, ``call``, ``fold``, ``tag``)."""

from gamesolve_nlth.agents.baselines import CallAgent, FoldAgent, RandomAgent, TagAgent, chen_score, mc_equity

__all__ = ["CallAgent", "FoldAgent", "RandomAgent", "TagAgent", "chen_score", "mc_equity"]
