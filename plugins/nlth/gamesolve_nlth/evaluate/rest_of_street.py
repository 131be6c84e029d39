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
* where the street's betting ends, ``leaf``: a vector of values the caller gives (at the end
  of the hand every world's payoff, its showdown against the opponent's actual cards with
  card removal, or the fold; before the next street's cards the check-down value with the
  stakes model, say).

The result is ``v[k]``, the expected payoff of world ``k`` if the rest of the street is played
so. AIVAT stays unbiased with any such fixed ``v``; the closer the model is to the opponent's
play, the less the opponent's uncorrected decisions move the value.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from gamesolve_nlth import engine as E
from gamesolve_nlth.evaluate.hands import HOLES, possible
from gamesolve_nlth.state import NLTHState


def range_model(agent) -> Callable:
    """The agent's range strategy as a function of the history alone: the blueprint's
    ``model_range_probabilities`` (every off-tree bet translated deterministically, not with
    this hand's random draws, which later events of the hand decide), else
    ``range_probabilities`` (memoryless agents)."""
    return getattr(agent, "model_range_probabilities", agent.range_probabilities)


def rest_of_street(state: NLTHState, seat: int, ranges: Callable, opponent, leaf: Callable[[NLTHState], np.ndarray]) -> np.ndarray:
    """``v[k]`` (float64[1326], NaN where world ``k`` is impossible) at ``state``, a decision of
    a heads-up pot: the expected payoff of the agent in ``seat`` holding pair ``k`` when the
    rest of the street is played by ``ranges(state, seat, holes) -> (actions, probs)`` for the
    agent and ``opponent.action_probabilities(state, seat)`` for the opponent (its own cards);
    ``leaf(state)`` gives every world's value where the street's betting ends (the end of the
    hand, or a chance node: the next street's cards)."""
    opp = next(p for p in range(state.num_players) if p != seat and state.in_hand[p])
    valid = np.flatnonzero(possible(state.board + state.hole_cards(opp)))
    holes = HOLES[valid]
    out = np.full(len(HOLES), np.nan)
    out[valid] = _walk(state, seat, valid, holes, ranges, opponent, leaf)
    return out


def _walk(state, seat, valid, holes, ranges, opponent, leaf) -> np.ndarray:
    if state.is_terminal() or state.is_chance_node():
        return leaf(state)[valid]
    player = state.current_player()
    total = np.zeros(len(valid))
    if player == seat:
        actions, probs = ranges(state, seat, holes)
        for b, a in enumerate(actions):
            p = probs[:, b]
            if p.any():
                total += p * _walk(state.child(a), seat, valid, holes, ranges, opponent, leaf)
        return total
    for a, p in opponent.action_probabilities(state, player).items():
        if p > 0:
            total += p * _walk(state.child(a), seat, valid, holes, ranges, opponent, leaf)
    return total


def with_cards(before: NLTHState, cards, seat: int) -> NLTHState:
    """The state after ``before`` (a chance node) deals ``cards`` (the next street's), which
    may include the agent's own hole cards: the agent's worlds are all its possible pairs
    (those holding a dealt card are then impossible), so its real cards block none."""
    s = before.s.copy()
    for c in before.hole_cards(seat):
        s[E.H_USED] &= ~(np.int64(1) << np.int64(c))
    for c in cards:
        if E.deal_card(s, int(c)):
            raise ValueError(f"cannot deal card {c} at {before.public_state_key()}")
    return NLTHState(before.game, s, before.history + tuple(int(c) for c in cards), before.log)
