"""Ratings from pairwise match results: each agent's strength on one scale, with confidence
intervals, from win rates measured pair by pair (issue #37's ladder).

The model is linear in the win rate, the way poker results are read: agent ``a`` against
``b`` wins ``r[a] - r[b]`` (mbb/game) on average. Each pairing's measured win rate ``y`` with
standard error ``se`` is one observation; the ratings are the least-squares fit with the
ratings summing to zero. Every pairing weighs the same: in a complete round robin each rating
is then the agent's mean win rate against the others minus the overall mean, the ACPC's "total
bankroll" ranking. (Weighting by ``1 / se**2`` would let the pairings of a player like
``fold``, whose results are precise because they are small, decide the whole scale.) The
intervals carry each pairing's own standard error through the fit (its sandwich covariance).
Results that no linear scale explains (rock-paper-scissors among agents) show in the
chi-square of the residuals in standard errors, reported with the ratings against its degrees
of freedom.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs
import numpy as np

Z_95 = 1.959963984540054  # two-sided 95% normal quantile


@attrs.frozen
class Pairing:
    """One measured pairing: ``a`` won ``win_rate`` per game against ``b`` (± ``stderr``)."""

    a: str
    b: str
    win_rate: float
    stderr: float


@attrs.frozen
class Ratings:
    """Fitted ratings (sum zero) with their standard errors and 95% intervals, by agent."""

    agents: tuple[str, ...]
    rating: np.ndarray
    stderr: np.ndarray
    chi2: float  # squared residuals of the fit, in standard errors
    dof: int  # observations minus free ratings

    def interval(self, agent: str) -> tuple[float, float]:
        i = self.agents.index(agent)
        return float(self.rating[i] - Z_95 * self.stderr[i]), float(self.rating[i] + Z_95 * self.stderr[i])

    def ranked(self) -> list[str]:
        """The agents from the highest rating down."""
        return [self.agents[i] for i in np.argsort(-self.rating, kind="stable")]


def fit_ratings(pairings: Sequence[Pairing], agents: Sequence[str] | None = None) -> Ratings:
    """The linear ratings of the module docstring. :class:`ValueError` when a pairing has no
    positive standard error, or the pairings do not connect every agent (no common scale)."""
    names = list(agents) if agents is not None else sorted({p.a for p in pairings} | {p.b for p in pairings})
    index = {name: i for i, name in enumerate(names)}
    n = len(names)
    if n < 2:
        raise ValueError("ratings need at least two agents")
    rows, y, w = [], [], []
    for p in pairings:
        if p.a == p.b:
            raise ValueError(f"a pairing of {p.a} with itself rates nothing")
        if not p.stderr > 0:
            raise ValueError(f"{p.a} vs {p.b}: the standard error must be positive, got {p.stderr}")
        row = np.zeros(n)
        row[index[p.a]], row[index[p.b]] = 1.0, -1.0
        rows.append(row)
        y.append(p.win_rate)
        w.append(1.0 / p.stderr**2)
    _check_connected(names, pairings)
    x, y, w = np.array(rows), np.array(y), np.array(w)
    # Sum-zero plane: r = basis @ theta, basis orthonormal and orthogonal to the ones vector.
    basis = np.linalg.svd(np.eye(n) - 1.0 / n)[0][:, : n - 1]
    xb = x @ basis
    solve = np.linalg.solve(xb.T @ xb, xb.T)  # theta = solve @ y
    rating = basis @ (solve @ y)
    spread = basis @ solve  # r = spread @ y: its covariance is spread diag(se^2) spread'
    cov = (spread / w) @ spread.T
    residual = y - x @ rating
    return Ratings(tuple(names), rating, np.sqrt(np.clip(np.diag(cov), 0.0, None)), float((w * residual**2).sum()), len(y) - (n - 1))

def _check_connected(names: list[str], pairings: Sequence[Pairing]) -> None:
    group = {name: name for name in names}

    def root(name: str) -> str:
        while group[name] != name:
            name = group[name]
        return name

    for p in pairings:
        group[root(p.a)] = root(p.b)
    parts: dict[str, list[str]] = {}
    for name in names:
        parts.setdefault(root(name), []).append(name)
    if len(parts) > 1:
        groups = "; ".join(", ".join(part) for part in parts.values())
        raise ValueError(f"the pairings leave the agents in {len(parts)} groups with no match between them ({groups})")
