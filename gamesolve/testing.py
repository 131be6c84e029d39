"""Conformance checks any game plugin can run on itself (a pytest plugin).

Use in a plugin's tests::

    from gamesolve.testing import check_game_conformance

    def test_my_game_honours_the_contract():
        check_game_conformance(MyGame(players=2))

or the ``game_conformance`` fixture, which is the same function. Small games are walked
completely (and compiled, which also checks perfect recall); large ones get seeded
random walks. Every failure raises :class:`ConformanceError` naming the history.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

import pytest

from gamesolve.game.explicit_tree import CompileError, compile_explicit_tree
from gamesolve.game.state import CHANCE, TERMINAL, Game, State


class ConformanceError(AssertionError):
    """A game breaks the game contract."""


def _fail(state: State, path: list, message: str) -> None:
    raise ConformanceError(f"{message} (after actions {path}, state {state!r})")


def check_state(game: Game, state: State, path: list, *, zero_sum: bool) -> list[int]:
    """Check one history; return the actions to explore from it."""
    n = game.num_players
    player = state.current_player()
    if player not in (CHANCE, TERMINAL) and not 0 <= player < n:
        _fail(state, path, f"current_player() is {player}")
    if state.is_terminal() != (player == TERMINAL) or state.is_chance_node() != (player == CHANCE):
        _fail(state, path, "is_terminal/is_chance_node disagree with current_player")
    public = state.public_state_key()
    if not isinstance(public, str):
        _fail(state, path, "public_state_key() must be a str")
    for p in range(n):
        key = state.information_state_key(p)
        if not isinstance(key, str):
            _fail(state, path, f"information_state_key({p}) must be a str")
    if player == TERMINAL:
        returns = list(state.returns())
        if len(returns) != n or not all(math.isfinite(r) for r in returns):
            _fail(state, path, f"returns() = {returns} is not {n} finite numbers")
        if zero_sum and abs(sum(returns)) > 1e-9:
            _fail(state, path, f"returns() = {returns} do not sum to zero")
        return []
    if player == CHANCE:
        outcomes = list(state.chance_outcomes())
        actions = [a for a, _ in outcomes]
        if not outcomes or any(p <= 0 for _, p in outcomes) or abs(sum(p for _, p in outcomes) - 1) > 1e-9:
            _fail(state, path, f"chance outcomes {outcomes} must be positive and sum to 1")
        if len(set(actions)) != len(actions):
            _fail(state, path, "chance outcomes repeat an action")
        return actions
    actions = list(state.legal_actions())
    if not actions:
        _fail(state, path, "a decision node has no legal actions")
    if actions != sorted(set(actions)):
        _fail(state, path, f"legal_actions() {actions} must be sorted and distinct")
    illegal = max(actions) + 1
    before = (state.information_state_key(player), public)
    try:
        state.child(illegal)
    except ValueError:
        pass
    else:
        _fail(state, path, f"child({illegal}) of an illegal action must raise ValueError")
    child = state.child(actions[0])
    if (state.information_state_key(player), state.public_state_key()) != before or child is state:
        _fail(state, path, "child() must return a new state and leave the receiver unchanged")
    return actions


def check_game_conformance(
    game: Game,
    *,
    max_nodes: int = 200_000,
    random_walks: int = 200,
    seed: int = 0,
    zero_sum: bool | None = None,
    action_sampler: Callable[[list[int], random.Random], int] | None = None,
) -> dict[str, int]:
    """Check ``game`` against the contract; return counts of what was checked.

    Walks the whole tree if it has at most ``max_nodes`` nodes (then also compiles it and
    checks perfect recall and infoset consistency); otherwise plays ``random_walks``
    seeded random histories, choosing actions with ``action_sampler`` (uniform by default).
    ``zero_sum`` (default: the game's :attr:`~gamesolve.game.state.Game.zero_sum`): every
    terminal's returns must sum to zero.
    """
    zero_sum = game.zero_sum if zero_sum is None else zero_sum
    root = game.new_initial_state()
    checked = 0
    stack = [(root, [])]
    complete = True
    while stack:
        state, path = stack.pop()
        actions = check_state(game, state, path, zero_sum=zero_sum)
        checked += 1
        if checked > max_nodes:
            complete = False
            break
        for a in actions:
            stack.append((state.child(a), path + [a]))
    report = {"states": checked, "complete": int(complete)}
    if complete:
        try:  # the compiler checks infoset consistency and perfect recall
            tree = compile_explicit_tree(game, max_nodes=max_nodes + 1)
        except CompileError as exc:
            raise ConformanceError(str(exc)) from None
        report["infosets"] = tree.num_infosets
        return report
    rng = random.Random(seed)
    sampler = action_sampler or (lambda actions, r: r.choice(actions))
    for _ in range(random_walks):
        state, path = root, []
        for _step in range(100_000):
            actions = check_state(game, state, path, zero_sum=zero_sum)
            checked += 1
            if not actions:
                break
            if state.is_chance_node():
                outcomes = list(state.chance_outcomes())
                a = rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0]
            else:
                a = sampler(actions, rng)
            state, path = state.child(a), path + [a]
        else:
            _fail(state, path, "a random walk did not reach a terminal state in 100,000 steps")
    report["states"] = checked
    return report


@pytest.fixture
def game_conformance():
    """The :func:`check_game_conformance` function, as a fixture."""
    return check_game_conformance
