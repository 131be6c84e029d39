"""AIVAT (Burch, Schmid, Moravcik, Morrill & Bowling, AAAI 2018) for N players, as Pluribus used it.

One agent's win rate is estimated with much less variance than its raw winnings, without
bias, from the hands it played. What is *known* is that agent's strategy (over every private
state it could hold: its whole range) and chance; the other players are unknown.

The estimator of one hand
-------------------------
Follow the hand as the *unknown* players jointly see it: their private information and the
public events. Given that view ``O``, the agent's private state is uncertain; its posterior
over the *worlds* ``k`` (the agent's alternative private states, with card removal) is
proportional to ``w_k`` = chance's probability of the world's deal times the agent's
probability of its own actions so far (the unknown players' probabilities cancel: they
cannot depend on ``k``). With a value function ``v`` fixed before the match, let
``V(O) = sum_k w_k v(k) / sum_k w_k``. Then

    estimate = E[u | O_final] - sum over known events t of ( V(O_t+1) - E[V(O_t+1) | O_t] )

where the known events are chance events and the agent's own decisions, and
``E[V(O_t+1) | O_t] = sum_k w_k sum_x p_k(x) v(k . x) / sum_k w_k`` with ``p_k`` chance's or
the agent's probabilities in world ``k``. ``E[u | O_final]`` averages the agent's payoff over
its worlds at the end. Every correction term has mean zero given ``O_t`` and the final term
has the mean of the payoff, so the estimate is unbiased whatever ``v`` is; the better ``v``
predicts, the smaller the variance. The unknown players' decisions get no term.

Interfaces
----------
* :class:`~gamesolve.evaluate.exposure.ExposesStrategy`: an agent that can say, at any history
  of the current hand, the probability of each action it would take there *with the private
  information of that history* (not necessarily its own). The blueprint and baseline hold'em
  agents implement it; the core's policy and search agents get it from
  :mod:`gamesolve.evaluate.exposure`, where the protocol is defined.
* :class:`ValueFunction`: ``v`` over histories, through a cursor that follows a history.
  :class:`TreeValues` gives the exact expected values of a fixed profile (the agent's own
  strategy in self-play, say) on an explicit tree.
* :class:`WorldAIVAT` computes the estimate by enumerating worlds through the game's state
  API: exact for any game of the contract, fast enough for small ones (Kuhn, Leduc). Plugins
  supply faster estimators for big games through the ``gamesolve_aivat_estimator`` hook
  (the hold'em plugin: 1,326 hole-card pairs as arrays).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import attrs
import numpy as np

from gamesolve.evaluate.exposure import ExposesStrategy, exposure_of
from gamesolve.game.explicit_tree import ExplicitTree
from gamesolve.game.state import CHANCE, Game, State


class AivatError(ValueError):
    """The estimate cannot be computed (an agent's exposed strategy contradicts its play...)."""


class ValueFunction(Protocol):
    """``v(history)`` for AIVAT, through a cursor that follows a history from the root."""

    def root(self, state: State) -> Any: ...

    def child(self, cursor: Any, state: State, action: int) -> Any: ...

    def value(self, cursor: Any, state: State, seat: int) -> float: ...


class TreeValues:
    """Exact expected values of a fixed slot-indexed profile at every node of an explicit tree.

    Fixed before a match (e.g. the known agent's own strategy played by everyone), they are a
    natural ``v``: their differences measure how much each card or action helped.
    """

    def __init__(self, tree: ExplicitTree, profile: np.ndarray):
        from gamesolve.game.tree_walks import backward_values

        self.tree = tree
        W = tree.weights(np.asarray(profile, dtype=np.float64))
        utility_t = np.ascontiguousarray(tree.utility.T)
        self.values = np.empty((tree.num_players, tree.num_nodes))
        for p in range(tree.num_players):
            backward_values(tree.parent, tree.edge_w, W, utility_t[p], self.values[p])

    def root(self, state: State) -> int:
        return 0

    def child(self, cursor: int, state: State, action: int) -> int:
        if state.current_player() == CHANCE:
            actions = [a for a, _ in state.chance_outcomes()]
        else:
            actions = list(state.legal_actions())
        return int(self.tree.child_list[self.tree.child_start[cursor] + actions.index(int(action))])

    def value(self, cursor: int, state: State, seat: int) -> float:
        return float(self.values[seat, cursor])


def profile_slots(tree: ExplicitTree, policy) -> np.ndarray:
    """A :class:`~gamesolve.search.policy.Policy` read onto ``tree``'s slots (every infoset)."""
    table = getattr(policy, "table", None)
    if table is None:
        raise AivatError("the reference policy must be tabular (keyed by information set)")
    out = np.empty(tree.num_slots)
    start = tree.infoset_slot_start
    for i, key in enumerate(tree.infoset_keys):
        probs = np.asarray(table[key], dtype=np.float64)
        out[start[i] : start[i + 1]] = probs / probs.sum()
    return out


@attrs.frozen
class HandLog:
    """One played hand: every transition ``(state, action)`` in order, and the final state."""

    steps: tuple[tuple[State, int], ...]
    final: State


class Estimator(Protocol):
    """What a match asks of an AIVAT implementation."""

    def estimate(self, log: HandLog, seat: int) -> float: ...


@attrs.define
class _World:
    state: State
    weight: float
    cursor: Any
    value: float
    path: tuple[tuple[State, int], ...]


class WorldAIVAT:
    """The AIVAT estimate of one hand for the agent in ``seat``, by explicit enumeration of
    the agent's worlds through the game's state API (see the module docstring).

    :param exposure: the known agent (:class:`ExposesStrategy`).
    :param values: the value function ``v`` (fixed before the match).
    """

    def __init__(self, game: Game, exposure: ExposesStrategy, values: ValueFunction, description: str = ""):
        self.game = game
        self.exposure = exposure
        self.values = values
        self.description = description or "worlds enumerated through the state API"

    def _view(self, state: State, unknown: Sequence[int]) -> tuple[str, ...]:
        return (state.public_state_key(),) + tuple(state.information_state_key(u) for u in unknown)

    def estimate(self, log: HandLog, seat: int) -> float:
        terms = self.terms(log, seat)
        return terms["final"] - sum(terms["corrections"])

    def terms(self, log: HandLog, seat: int) -> dict[str, Any]:
        """The pieces of the estimate: ``final`` (the expected payoff over the worlds at the
        end) and one ``corrections`` entry per known event."""
        unknown = [p for p in range(self.game.num_players) if p != seat]
        root = log.steps[0][0] if log.steps else log.final
        cursor = self.values.root(root)
        worlds = [_World(root, 1.0, cursor, self.values.value(cursor, root, seat), ())]
        corrections: list[float] = []
        for number, (state, action) in enumerate(log.steps):
            player = state.current_player()
            if player != CHANCE and player != seat:  # an unknown player: no term
                worlds = [self._advance(w, action, seat) for w in worlds]
                continue
            target = self._view(state.child(action), unknown)
            total = sum(w.weight for w in worlds)
            expected = 0.0
            kept: list[_World] = []
            for w in worlds:
                if player == CHANCE:
                    dist = w.state.chance_outcomes()
                else:
                    dist = self.exposure.action_probabilities(w.state, seat, w.path).items()
                for x, p in dist:
                    if not p > 0:
                        continue
                    child = w.state.child(x)
                    cur = self.values.child(w.cursor, w.state, x)
                    v = self.values.value(cur, child, seat)
                    expected += w.weight * p * v
                    if self._view(child, unknown) == target:
                        kept.append(_World(child, w.weight * p, cur, v, w.path + ((w.state, int(x)),)))
            kept_total = sum(w.weight for w in kept)
            if not kept_total > 0:
                who = "chance" if player == CHANCE else f"the agent in seat {seat}"
                raise AivatError(f"step {number}: {who} took action {action}, which its known distribution gives probability 0")
            realized = sum(w.weight * w.value for w in kept) / kept_total
            corrections.append(realized - expected / total)
            worlds = kept
        total = sum(w.weight for w in worlds)
        final = sum(w.weight * float(w.state.returns()[seat]) for w in worlds) / total
        return {"final": final, "corrections": corrections, "worlds": len(worlds)}

    def _advance(self, w: _World, action: int, seat: int) -> _World:
        child = w.state.child(action)
        cur = self.values.child(w.cursor, w.state, action)
        return _World(child, w.weight, cur, self.values.value(cur, child, seat), w.path + ((w.state, int(action)),))


def estimator_for(game: Game, agent, plugins=None, opponents: Sequence = (), values: str | None = None) -> Estimator | None:
    """The AIVAT estimator for ``agent`` in ``game``, or None if it does not expose its strategy.

    A plugin's ``gamesolve_aivat_estimator`` hook answers first (hold'em), given the match's
    other agents (``opponents``) and the name of the value function asked for (``values``;
    None: the plugin's default); otherwise an agent
    that exposes its strategy (itself, or through :mod:`gamesolve.evaluate.exposure` for the
    core's policy and search agents) and names a ``reference_policy`` (a tabular policy: the
    policy agent's own, the search agent's blueprint) is evaluated by :class:`WorldAIVAT` with
    the exact values of that policy in self-play on the game's explicit tree.
    """
    if plugins is not None:
        found = plugins.hook.gamesolve_aivat_estimator(game=game, agent=agent, opponents=list(opponents), values=values)
        if found is not None:
            return found
    exposure = exposure_of(agent)
    if exposure is None or getattr(exposure, "reference_policy", None) is None:
        return None
    if not getattr(exposure, "strategy_is_exact", True):
        return None
    if values is not None:
        raise AivatError(f"no value function {values!r} for {game.name}: its AIVAT uses the exact values of the agent's reference policy")
    tree = _tree(game, plugins)
    values = TreeValues(tree, profile_slots(tree, exposure.reference_policy))
    return WorldAIVAT(game, exposure, values, "exact values of the agent's reference policy in self-play")


def aivat_estimators(game: Game, agents: Sequence, plugins=None, values: str | None = None) -> list[Estimator | None]:
    """:func:`estimator_for` each of a match's agents (agent ``i``'s opponents: the others)."""
    return [estimator_for(game, agent, plugins, [a for j, a in enumerate(agents) if j != i], values) for i, agent in enumerate(agents)]


_TREES: dict[tuple, ExplicitTree] = {}


def _tree(game: Game, plugins) -> ExplicitTree:
    """The explicit tree of ``game``, compiled once per process and parameters."""
    from gamesolve.game.compile import compiled_tree

    key = (game.name, tuple(sorted((k, str(v)) for k, v in game.params.items())))
    if key not in _TREES:
        _TREES.clear()  # one game at a time is plenty
        _TREES[key] = compiled_tree(game, plugins)
    return _TREES[key]

