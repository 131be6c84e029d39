"""The whole strategy a search agent would play, laid out on an explicit tree, so that
the core's exact best response can measure its exploitability.

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
from gamesolve.search.nested import SearchAgent
from gamesolve.search.policy import aligned


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
