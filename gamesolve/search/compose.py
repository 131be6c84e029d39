"""The whole strategy a search agent would play, laid out on an explicit tree
(:func:`compose_agent_policy`) or, for games too big for one, on the rows of their lossless
factored form (:func:`compose_form_policy`), so that the core's exact best responses can
measure its exploitability.

The agent's behaviour at an information set depends only on what its seat has observed
(its own keys and the public states along the way), so one representative path per
information set suffices. A depth-first walk per seat visits every history but forks and
advances the agent only for observation sequences not met before (the opponents' private
cards do not multiply the agent's work). Searches repeat across paths and are kept by the agents'
shared :class:`~gamesolve.search.range_agent.SolveMemo`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Protocol

import numpy as np

from gamesolve.game.explicit_tree import ExplicitTree
from gamesolve.game.state import CHANCE, TERMINAL, Game, State
from gamesolve.game.factored import FactoredGame
from gamesolve.search.policy import aligned, row_layout


class SeatAgent(Protocol):
    """A search agent in one seat as the composing walk drives it (:class:`RangeSeat`)."""

    def new_hand(self) -> None: ...

    def fork(self) -> SeatAgent: ...

    def observe(self, state: State, action: int) -> None: ...

    def policy(self, state: State) -> dict[int, float]: ...


def _seat_decisions(game: Game, seat: int, agent: SeatAgent,
                    every_history: bool) -> Iterator[tuple[State, SeatAgent, list[int]]]:
    """``(state, agent, legal actions)`` at ``seat``'s decisions, once per observation sequence of
    the seat (its own information-state key and the public state after each transition), with
    ``agent`` as it stands after observing that sequence; the caller asks it before the walk
    forks it further (the probabilities it acts with there become frozen in the forks).

    The agent is forked only for observation sequences not met before. ``every_history``: walk
    every history (a representative opponent deal may rule out a board card), keeping each
    sequence's agent for the histories that share it; else follow one history per sequence."""
    agent.new_hand()
    # (parent view, own key, public key) -> (view, its agent where every history is walked)
    views: dict[tuple[int, str, str], tuple[int, SeatAgent | None]] = {}
    decided: set[int] = set()
    stack = [(game.new_initial_state(), agent, 0)]
    while stack:
        state, agent, view = stack.pop()
        player = state.current_player()
        if player == TERMINAL:
            continue
        if player == CHANCE:
            branches = [a for a, _ in state.chance_outcomes()]
        else:
            branches = list(state.legal_actions())
            if player == seat and view not in decided:
                decided.add(view)
                yield state, agent, branches
        for a in branches:
            child = state.child(a)
            key = (view, child.information_state_key(seat), child.public_state_key())
            known = views.get(key)
            if known is None:
                forked = agent.fork()
                forked.observe(state, a)
                known = views[key] = (len(views) + 1, forked if every_history else None)
                stack.append((child, forked, known[0]))
            elif every_history:
                stack.append((child, known[1], known[0]))


class RangeSeat:
    """A :class:`~gamesolve.search.range_agent.RangeSearchAgent` in ``seat``, driven as the
    composing walk drives a :class:`SeatAgent` (``new_hand()``, ``fork``, ``observe``,
    ``policy``)."""

    def __init__(self, agent, seat: int):
        self.agent = agent
        self.seat = seat

    def new_hand(self) -> None:
        self.agent.new_hand(self.seat, 0)

    def fork(self) -> RangeSeat:
        return RangeSeat(self.agent.fork(), self.seat)

    def observe(self, state: State, action: int) -> None:
        self.agent.observe(state, action)

    def policy(self, state: State) -> dict[int, float]:
        return self.agent.policy(state)


def compose_agent_policy(game: Game, tree: ExplicitTree, make_agent: Callable[[int], SeatAgent],
                         on_infoset: Callable[[], None] | None = None) -> np.ndarray:
    """Slot-indexed policy: at each information set of seat ``p``, the distribution
    ``make_agent(p)`` would act with after observing a history of that set.

    ``on_infoset`` is called once per information set composed (``tree.num_infosets`` in all;
    for a progress bar)."""
    index = tree.infoset_index()
    start = tree.infoset_slot_start
    out = np.full(tree.num_slots, np.nan)
    for seat in range(game.num_players):
        for state, observer, legal in _seat_decisions(game, seat, make_agent(seat), every_history=True):
            info = index[state.information_state_key(seat)]
            out[start[info] : start[info + 1]] = aligned(observer.policy(state), legal)
            if on_infoset is not None:
                on_infoset()
    missing = np.isnan(out)
    if missing.any():
        raise RuntimeError(f"{missing.sum()} slots were never reached by the walk")
    return out


def compose_form_policy(game: Game, form: FactoredGame, make_agent: Callable[[int], SeatAgent],
                        on_decision: Callable[[], None] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``(row_offset, rows)`` (:func:`~gamesolve.search.policy.row_layout` of ``form``):
    at every row of seat ``p``, the distribution ``make_agent(p)`` acts with there.

    Without an explicit tree the walk cannot visit every history; it follows one history per
    observation sequence of the seat (its own information-state key and the public state):
    one deal per private state it can hold. That reaches every row when public chance cannot
    depend on the others' private states (Liar's Dice: no public chance at all); a row it
    does not reach is an error, not a guess. ``on_decision`` is called per row composed."""
    f = form
    row_offset, total = row_layout(f)
    rows = np.full(total, np.nan)
    for seat in range(game.num_players):
        for state, observer, _ in _seat_decisions(game, seat, make_agent(seat), every_history=False):
            node, private = f.locate(state.information_state_key(seat))
            owner, n_act = int(f.row_owner[node]), f.num_actions_at(node)
            start = row_offset[owner] + private * n_act
            rows[start : start + n_act] = aligned(observer.policy(state), [int(a) for a in f.labels(node)])
            if on_decision is not None:
                on_decision()
        missing = 0
        for node in np.flatnonzero((row_offset >= 0) & (f.node_player == seat)):
            n_act = f.num_actions_at(node)
            for private in range(int(f.num_private.max())):
                start = row_offset[node] + private * n_act
                if np.isnan(rows[start]):
                    if f.key_of(node, private) is not None:
                        missing += 1
                    rows[start : start + n_act] = 1.0 / n_act  # a private state that cannot be here
        if missing:
            raise ValueError(f"{game.describe()}: composing the search agent over the factored form left {missing:,} "
                             f"rows of seat {seat} unset (public chance that depends on the others' private states "
                             f"needs an explicit tree)")  # fmt: skip
    return row_offset, rows
