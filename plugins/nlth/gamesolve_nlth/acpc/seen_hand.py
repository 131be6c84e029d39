"""A hand as one ACPC client sees it, rebuilt as an engine state an agent can play from.

The engine needs every seat's hole cards, and a client knows only its own (and, at a
showdown, those shown). The others get *placeholder* cards: cards nobody has seen, chosen
again whenever a board card or a showdown needs one of them -- the state is then rebuilt and
the hand's actions replayed. Agents decide from their own information only (the contract of
:class:`gamesolve.agents.Agent`), so placeholders never change a decision; they see the hand
as in a match: ``observe(state, action)`` for every card dealt and every action, ``act`` at
their turns.
"""

from __future__ import annotations

from gamesolve_nlth.acpc.actions import action_of
from gamesolve_nlth.acpc.protocol import MatchState, ProtocolError
from gamesolve_nlth.state import NLTHGame, NLTHState

Step = tuple[str, object]  # ("card", int) or ("bet", token)


class SeenHand:
    """One hand of ``position`` (hand number ``hand``); :meth:`update` follows its lines."""

    def __init__(self, game: NLTHGame, position: int, hand: int):
        self.game = game
        self.position = position
        self.hand = hand
        self.holes: list[tuple[int, ...]] | None = None  # every position's hole cards, placeholders included
        self.steps: list[Step] = []  # the public steps applied (board cards and actions)
        self.state: NLTHState = game.new_initial_state(button=game.num_players - 1)

    def update(self, ms: MatchState) -> list[tuple[NLTHState, int]]:
        """Bring the state up to ``ms``; returns the new transitions ``(state before, action)``
        in order (the hole cards first, on the hand's first line). :class:`ProtocolError` if
        ``ms`` does not continue the hand or the engine cannot follow it."""
        steps = _public_steps(ms)
        if steps[: len(self.steps)] != self.steps:
            raise ProtocolError(f"hand {ms.hand}: {ms.text()!r} does not continue the hand seen so far")
        first = self.holes is None
        holes = self._holes(ms)
        if not first and holes != self.holes:  # a placeholder is now on the board, or cards were shown
            self.holes = holes
            self.state = self._replay(self.steps)
        elif first:
            self.holes = holes
        transitions = []
        if first:
            for card in (c for h in holes for c in h):
                transitions.append((self.state, card))
                self.state = self.state.child(card)
        for step in steps[len(self.steps):]:
            action = self._action(self.state, step)
            transitions.append((self.state, action))
            self.state = self.state.child(action)
            self.steps.append(step)
        return transitions

    def _holes(self, ms: MatchState) -> list[tuple[int, ...]]:
        """Shown hole cards, and for the hidden ones the placeholders kept (or chosen anew when
        one is now known to be elsewhere)."""
        n = self.game.num_players
        if len(ms.hole) != n or not ms.hole[self.position]:
            raise ProtocolError(f"hand {ms.hand}: expected {n} players and our own cards in {ms.text()!r}")
        shown = [tuple(h) if h else None for h in ms.hole]
        known = {c for h in shown if h for c in h} | {c for b in ms.board for c in b}
        old = self.holes or [()] * n
        holes: list[tuple[int, ...]] = []
        taken = set(known)
        for p in range(n):
            if shown[p] is not None:
                holes.append(shown[p])
            elif old[p] and not taken & set(old[p]):
                holes.append(old[p])
                taken |= set(old[p])
            else:
                holes.append(())
        free = (c for c in range(52) if c not in taken)
        return [h if h else (next(free), next(free)) for h in holes] if () in holes else holes

    def _replay(self, steps: list[Step]) -> NLTHState:
        state = self.game.new_initial_state(button=self.game.num_players - 1)
        for card in (c for h in self.holes for c in h):
            state = state.child(card)
        for step in steps:
            state = state.child(self._action(state, step))
        return state

    @staticmethod
    def _action(state: NLTHState, step: Step) -> int:
        kind, value = step
        if kind == "card":
            if not state.is_chance_node():
                raise ProtocolError(f"a board card ({value}) where the engine expects no card")
            return int(value)
        if state.current_player() < 0:
            raise ProtocolError(f"an action ({value}) where the engine expects {'a card' if state.is_chance_node() else 'none'}")
        return action_of(state, str(value))


def _public_steps(ms: MatchState) -> list[Step]:
    """Board cards and actions in the order they happened."""
    steps: list[Step] = []
    for r, tokens in enumerate(ms.betting):
        steps += [("card", c) for c in ms.board[r]]
        steps += [("bet", t) for t in tokens]
    return steps
