"""The value of the rest of a hold'em street for every hole-card pair of the known agent.

AIVAT's check-down value prices a hand at the chips matched so far, and the opponent's later
bets, which decide how many chips go in, get no correction (docs/evaluation.md, AIVAT). This
value function foresees them: from a state, it walks the rest of the betting tree of the
street, with

* the known agent's *exact* range strategy at its decisions (``range_probabilities`` for every
  world at once: a world ``k`` plays its own hole cards' strategy);
* a *model* of the opponent at the opponent's decisions, for the opponent's actual hole cards
  (the value function sees the whole history, the opponent's cards included): for ``tag``,
  its exposed model (``strategy_is_exact = False``: its Monte Carlo equities are seeded by the
  public state, so the model is a deterministic function of the history, fixed before the
  match);
* where the street's betting ends: at the end of the hand every world's payoff (the fold,
  or its showdown against the opponent's actual cards: lose, tie or win, card removal
  included); before the next street's cards ``leaf``, a vector of values the caller gives
  (the check-down value with the stakes model, or the next street's walk averaged over its
  card, say).

The result is ``v[k]``, the expected payoff of world ``k`` if the rest of the street is played
so. AIVAT stays unbiased with any such fixed ``v``; the closer the model is to the opponent's
play, the less the opponent's uncorrected decisions move the value. The betting of a street
is the same whatever its card, so :func:`rest_of_street_after_cards` walks it once for every
card at once (values ``[cards, 1326]``).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numba import njit

from gamesolve.array_loops import copy_into
from gamesolve_nlth import engine as E
from gamesolve_nlth.evaluate.hands import HOLES, possible
from gamesolve_nlth.evaluate.stakes import made_hand_values
from gamesolve_nlth.evaluator import evaluate7
from gamesolve_nlth.state import NLTHState


def range_model(agent) -> Callable:
    """The agent's range strategy as a function of the history alone: the blueprint's
    ``model_range_probabilities`` (every off-tree bet translated deterministically, not with
    this hand's random draws, which later events of the hand decide), else
    ``range_probabilities`` (memoryless agents)."""
    return getattr(agent, "model_range_probabilities", agent.range_probabilities)


def opponent_model(agent):
    """A model of ``agent``'s play for the walk, a function of the history alone (fixed
    before the match), or None: the baselines' exposed strategies (``tag``'s Monte Carlo
    equities are seeded by the public state; none reads the agent's random numbers), the
    blueprint's with every off-tree bet translated deterministically."""
    from gamesolve_nlth.agents import CallAgent, FoldAgent, RandomAgent, TagAgent

    if hasattr(agent, "model_range_probabilities"):
        return _RangeModel(agent)
    if isinstance(agent, (TagAgent, RandomAgent, CallAgent, FoldAgent)):
        return agent
    return None


class _RangeModel:
    """``action_probabilities`` from an agent's ``model_range_probabilities``."""

    def __init__(self, agent):
        self.agent = agent

    def action_probabilities(self, state: NLTHState, seat: int, path=()) -> dict[int, float]:
        actions, probs = self.agent.model_range_probabilities(state, seat, np.asarray([state.hole_cards(seat)], dtype=np.int64))
        return {a: float(p) for a, p in zip(actions, probs[0]) if p > 0}


def rest_of_street(state: NLTHState, seat: int, ranges: Callable, opponent, leaf: Callable[[NLTHState], np.ndarray]) -> np.ndarray:
    """``v[k]`` (float64[1326], NaN where world ``k`` is impossible) at ``state``, a decision of
    a heads-up pot: the expected payoff of the agent in ``seat`` holding pair ``k`` when the
    rest of the street is played by ``ranges(state, seat, holes) -> (actions, probs)`` for the
    agent and ``opponent.action_probabilities(state, seat)`` for the opponent (its own cards);
    ``leaf(state)`` gives every world's value where the street's betting ends before the end
    of the hand (a chance node: the next street's cards); at the end of the hand the value is
    the payoff (the fold, or each world's showdown against the opponent's cards)."""
    return _StreetWalk(seat, ranges, opponent, leaf).run([state])[0]


def rest_of_street_after_cards(before: NLTHState, seat: int, cards, ranges: Callable, opponent,
                               leaf: Callable[[NLTHState], np.ndarray]) -> np.ndarray:  # fmt: skip
    """float64[len(cards), 1326]: :func:`rest_of_street` after each of ``cards`` (the next
    street's card) is dealt at the chance node ``before`` (NaN where world ``k`` is
    impossible, or holds the card). One walk of the street's betting serves every card: the
    actions are the same whatever the card (only the strategies' probabilities differ)."""
    return _StreetWalk(seat, ranges, opponent, leaf).run([with_cards(before, [c], seat) for c in cards])


class _StreetWalk:
    """The walk of one street's betting from states that differ only by their board (one
    per card), every world of every board at once: values ``float64[boards, 1326]``."""

    def __init__(self, seat, ranges, opponent, leaf):
        self.seat, self.ranges, self.opponent, self.leaf = seat, ranges, opponent, leaf

    def run(self, states: list[NLTHState]) -> np.ndarray:
        first = states[0]
        self.opp = next(p for p in range(first.num_players) if p != self.seat and first.in_hand[p])
        hole = first.hole_cards(self.opp)
        self.valid = np.stack([possible(st.board + hole) for st in states])
        self.outcomes = None
        out = self._walk(states)
        out[~self.valid] = np.nan
        return out

    def _walk(self, states: list[NLTHState]) -> np.ndarray:
        first = states[0]
        if first.is_terminal():
            return self._payoffs(states)
        if first.is_chance_node():
            return np.stack([self.leaf(st) for st in states])
        player = first.current_player()
        total = np.zeros((len(states), len(HOLES)))
        if player == self.seat:
            rows = []
            for st, ok in zip(states, self.valid):
                actions, probs = self.ranges(st, self.seat, HOLES[ok])
                rows.append((ok, actions, probs))
            for a in sorted({a for _, actions, _ in rows for a in actions}):
                p = np.zeros_like(total)
                for i, (ok, actions, probs) in enumerate(rows):
                    if a in actions:
                        p[i, ok] = probs[:, actions.index(a)]
                if p.any():
                    total += p * self._walk([st.child(a) for st in states])
            return total
        rows = [self.opponent.action_probabilities(st, player) for st in states]
        for a in sorted({a for row in rows for a in row}):
            p = np.array([row.get(a, 0.0) for row in rows])
            if p.any():
                total += p[:, None] * self._walk([st.child(a) for st in states])
        return total

    def _payoffs(self, states: list[NLTHState]) -> np.ndarray:
        """The agent's payoff in every world at terminal states: the fold's, or the showdown's
        (each world's hand against the opponent's: lose, tie or win, with the engine's pot
        rules)."""
        first = states[0]
        if sum(first.in_hand) == 1:
            return np.full((len(states), len(HOLES)), float(first.returns()[self.seat]))
        if self.outcomes is None:  # the boards are complete: the same for every showdown of the walk
            self.outcomes = np.stack([showdown_outcomes(st.board, st.hole_cards(self.opp)) for st in states])
        by_outcome = np.empty(3)
        showdown_by_outcome(first.s, self.seat, self.opp, by_outcome)
        return by_outcome[self.outcomes]


def showdown_outcomes(board, opponent_hole) -> np.ndarray:
    """int64[1326]: 0, 1 or 2 as each pair's best hand with the five ``board`` cards loses to,
    ties with or beats the opponent's (1 where the pair is impossible)."""
    values = np.empty(len(HOLES), dtype=np.int64)
    made_hand_values(np.asarray(board, dtype=np.int64), HOLES, values)
    b = [int(c) for c in board]
    theirs = evaluate7(int(opponent_hole[0]), int(opponent_hole[1]), b[0], b[1], b[2], b[3], b[4])
    return np.where(values < 0, 1, np.sign(values - theirs) + 1)


@njit(cache=True)
def showdown_by_outcome(s, seat, opponent, out):
    """``out[o]``: the payoff of ``seat`` at the showdown of terminal state ``s`` (a heads-up
    pot) when its hand loses to (0), ties with (1) or beats (2) ``opponent``'s, by the
    engine's own pot and odd-chip rules."""
    values = np.full(E.MAX_PLAYERS, -1, np.int64)
    t = s.copy()
    for o in range(3):
        copy_into(t, s)
        values[opponent] = 1
        values[seat] = o
        E.settle_showdown(t, values)
        out[o] = t[E.PAYOFF + seat]


def with_cards(before: NLTHState, cards, seat: int) -> NLTHState:
    """The state after ``before`` (a chance node) deals ``cards`` (the next street's), which
    may include the agent's own hole cards: the agent's worlds are all its possible pairs
    (those holding a dealt card are then impossible), so its real cards block none."""
    s = before.s.copy()
    for c in before.hole_cards(seat):
        E.return_card(s, c)
    for c in cards:
        if E.deal_card(s, int(c)):
            raise ValueError(f"cannot deal card {c} at {before.public_state_key()}")
    return NLTHState(before.game, s, before.history + tuple(int(c) for c in cards), before.log)
