"""The whole strategy a search agent would play, laid out on an explicit tree
(:func:`compose_agent_policy`) or, for games too big for one, on the rows of their lossless
factored form (:func:`compose_form_policy`), so that the core's exact best responses can
measure its exploitability.

The agent's behaviour at an information set depends only on what its seat has observed
(its own keys and the public states along the way), so one representative path per
information set suffices. A depth-first walk per seat visits every history but forks and
advances the agent only for observation sequences not met before (the opponents' private
cards do not multiply the agent's work). Searches repeat across paths and are memoised by the agents'
shared :class:`~gamesolve.search.nested.SearchCache`.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from gamesolve.game.explicit_tree import ExplicitTree
from gamesolve.game.state import CHANCE, TERMINAL, Game
from gamesolve.search.nested import SearchAgent, SearchForm
from gamesolve.search.policy import aligned, row_layout


def compose_agent_policy(game: Game, tree: ExplicitTree, make_agent: Callable[[int], SearchAgent],
                         on_infoset: Callable[[], None] | None = None) -> np.ndarray:
    """Slot-indexed policy: at each information set of seat ``p``, the distribution
    ``make_agent(p)`` would act with after observing a history of that set.

    ``on_infoset`` is called once per information set composed (``tree.num_infosets`` in all;
    for a progress bar)."""
    index = tree.infoset_index()
    start = tree.infoset_slot_start
    out = np.full(tree.num_slots, np.nan)
    for seat in range(game.num_players):
        agent = make_agent(seat)
        agent.new_hand()
        views: dict[tuple, int] = {}
        agents = [agent]  # the agent after each distinct observation sequence
        decided: set[int] = set()
        # Every history is walked (a representative opponent deal may rule out a board
        # card), but the agent is forked only for observation sequences not seen before.
        stack = [(game.new_initial_state(), 0)]
        while stack:
            state, view = stack.pop()
            player = state.current_player()
            if player == TERMINAL:
                continue
            if player == CHANCE:
                branches = [a for a, _ in state.chance_outcomes()]
            else:
                branches = list(state.legal_actions())
                if player == seat and view not in decided:
                    decided.add(view)
                    info = index[state.information_state_key(seat)]
                    dist = agents[view].policy(state)
                    out[start[info] : start[info + 1]] = aligned(dist, branches)
                    if on_infoset is not None:
                        on_infoset()
            for a in branches:
                child = state.child(a)
                key = (view, child.information_state_key(seat), child.public_state_key())
                child_view = views.get(key)
                if child_view is None:
                    forked = agents[view].fork()
                    forked.observe(state, a)
                    child_view = views[key] = len(agents)
                    agents.append(forked)
                stack.append((child, child_view))
    missing = np.isnan(out)
    if missing.any():
        raise RuntimeError(f"{missing.sum()} slots were never reached by the walk")
    return out


def compose_form_policy(game: Game, form: SearchForm, make_agent: Callable[[int], SearchAgent],
                        on_decision: Callable[[], None] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``(row_offset, rows)`` (:func:`~gamesolve.search.policy.row_layout` of ``form.form``):
    at every row of seat ``p``, the distribution ``make_agent(p)`` acts with there.

    Without an explicit tree the walk cannot visit every history; it follows one history per
    observation sequence of the seat (its own information-state key and the public state):
    one deal per private state it can hold. That reaches every row when public chance cannot
    depend on the others' private states (Liar's Dice: no public chance at all); a row it
    does not reach is an error, not a guess. ``on_decision`` is called per row composed."""
    f = form.form
    row_offset, total = row_layout(f)
    rows = np.full(total, np.nan)
    for seat in range(game.num_players):
        agent = make_agent(seat)
        agent.new_hand()
        views: dict[tuple[int, str, str], int] = {}  # (parent view, own key, public key) -> view
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
                if player == seat:
                    node, private = f.locate(state.information_state_key(seat))
                    owner, n_act = int(f.row_owner[node]), f.num_actions_at(node)
                    start = row_offset[owner] + private * n_act
                    rows[start : start + n_act] = aligned(agent.policy(state), [int(a) for a in f.labels(node)])
                    if on_decision is not None:
                        on_decision()
            for a in branches:
                child = state.child(a)
                key = (view, child.information_state_key(seat), child.public_state_key())
                if key in views:
                    continue  # an outcome the seat cannot tell from one already followed
                views[key] = len(views) + 1
                forked = agent.fork()
                forked.observe(state, a)
                stack.append((child, forked, views[key]))
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
