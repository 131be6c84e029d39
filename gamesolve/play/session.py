"""A person playing hands against agents: seats, rotation, turns, results, hand records.

The session is a step machine, so that the terminal (which blocks on input) and the web
server (which must not block its event loop) drive the same code:

* :meth:`PlaySession.start_hand` deals a new hand (chance is resolved at once);
* :meth:`PlaySession.to_act` says who is to act; :meth:`PlaySession.bot_step` lets the
  agent in that seat choose and applies its action (the only slow call: run it in a worker
  thread in a server); :meth:`PlaySession.human_step` applies the person's typed action,
  after checking it is their turn and the action legal (:class:`IllegalAction`,
  :class:`NotYourTurn`, both with a message to show);
* when the hand ends, its result, a :class:`~gamesolve.evaluate.match.HandRecord` and the
  session's running win rate are updated and ``on_hand_end`` is called (to save it).

Seating and rotation
--------------------
The table has P participants: the person and P-1 agents. Participant ``i`` sits in seat
``(i - h) mod P`` in hand ``h`` (0-based), the person being participant ``seat`` (their seat
in the first hand). So every participant moves one seat down per hand: in hold'em, with the
button fixed at a seat, each player's position moves the way it does at a real table when the
button moves on (BB, then SB, then the button, then cutoff, ...).

Randomness
----------
Chance in hand ``h`` is drawn from ``random.Random("gamesolve-play:{seed}:{h}")``, and agents
are built with seeds derived from the session's seed and reseed per hand
(:func:`gamesolve.agents.hand_seed`), so a session is reproducible given the person's actions.

Results
-------
The person's winnings per hand, scaled by the view's unit (NLTH: bb/100, i.e. big blinds per
hundred hands); the standard error is the sample standard deviation over sqrt(hands). Hands
are not duplicated here (a person plays each deal once), so it is a noisy figure: say so.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from gamesolve.agents import Agent
from gamesolve.evaluate.match import HandRecord
from gamesolve.evaluate.statistics import win_rate
from gamesolve.game.state import CHANCE, Game, State
from gamesolve.play.view import IllegalAction, PlayView


class NotYourTurn(RuntimeError):
    """The person tried to act when it is not their turn (or no hand is in progress)."""


class SessionOver(RuntimeError):
    """No more hands: the session's hand limit is reached."""


@attrs.frozen
class LogEntry:
    """One player action of a hand, as the log shows it. ``ms`` is the agent's thinking time."""

    hand: int
    seat: int
    name: str
    text: str
    stage: str
    human: bool
    ms: float | None = None

    def line(self, position: str = "") -> str:
        who = "you" if self.human else self.name
        where = f" ({position})" if position else ""
        took = f"  [{self.ms:.0f} ms]" if self.ms is not None else ""
        return f"{who}{where}: {self.text}{took}"


@attrs.frozen
class Decision:
    """One of the person's decisions: the state before it and the action taken (the coach
    replays these after the hand)."""

    state: State
    seat: int
    action: int


@attrs.frozen
class SessionResult:
    """The person's result so far: ``win_rate`` and ``stderr`` in ``unit``; ``total`` in the
    game's own units."""

    hands: int
    unit: str
    win_rate: float
    stderr: float
    total: float

    def line(self, amount_text: Callable[[float], str] = lambda x: f"{x:,.0f}") -> str:
        if self.hands == 0:
            return "no hands played yet"
        se = f" ± {self.stderr:.1f} (standard error)" if self.stderr == self.stderr else " (standard error needs 2+ hands)"
        sign = "+" if self.total > 0 else ""
        return f"{self.hands} hand{'s' if self.hands != 1 else ''}: {self.win_rate:+.1f} {self.unit}{se}; total {sign}{amount_text(self.total)}"

    def as_dict(self) -> dict[str, Any]:
        d = attrs.asdict(self)
        if d["stderr"] != d["stderr"]:  # NaN is not JSON
            d["stderr"] = None
        return d


@attrs.frozen
class HandSummary:
    """How a finished hand ended for the person."""

    number: int  # 1-based
    seat: int
    returns: tuple[float, ...]
    text: str


HUMAN = None
"""The person's entry in a participant list."""


class PlaySession:
    """One person at a table of agents (see the module doc).

    :param game: the game.
    :param view: its :class:`PlayView` (rendering, parsing, descriptions).
    :param participants: P entries, one per participant: an :class:`Agent`, or
        :data:`HUMAN` exactly once (the person; its index is their seat in the first hand).
    :param names: a name per participant (the person's is shown as ``you``).
    :param seed: seeds chance (agents get theirs when built).
    :param hands: stop after this many hands (None: no limit).
    :param on_hand_end: called with the session after each hand (e.g. to save histories).
    """

    def __init__(
        self,
        game: Game,
        view: PlayView,
        participants: Sequence[Agent | None],
        names: Sequence[str],
        *,
        seed: int = 0,
        hands: int | None = None,
        on_hand_end: Callable[[PlaySession], None] | None = None,
    ):
        p = game.num_players
        if len(participants) != p:
            raise ValueError(f"{game.name} with {p} players needs {p} participants, got {len(participants)}")
        humans = [i for i, x in enumerate(participants) if x is HUMAN]
        if len(humans) != 1:
            raise ValueError("exactly one participant must be the person")
        if len(names) != p:
            raise ValueError(f"expected {p} names, got {len(names)}")
        self.game = game
        self.view = view
        self.participants = list(participants)
        self.names = list(names)
        self.human = humans[0]
        self.seed = int(seed)
        self.limit = None if hands is None else int(hands)
        self.on_hand_end = on_hand_end
        self.hand = -1  # 0-based number of the current (or last) hand
        self.state: State | None = None
        self.log: list[LogEntry] = []  # this hand's actions
        self.decisions: list[Decision] = []  # this hand's decisions of the person
        self.actions: list[tuple[int, int, str]] = []  # this hand: (player, action, text), chance too
        self.records: list[HandRecord] = []
        self.histories: list[list[tuple[int, int, str]]] = []  # per hand, for generic hand histories
        self.results: list[float] = []  # the person's winnings per hand, game units
        self.last: HandSummary | None = None
        self._rng = random.Random(0)

    # -- seating ----------------------------------------------------------------------------
    def seat_of(self, participant: int, hand: int | None = None) -> int:
        h = self.hand if hand is None else hand
        return (participant - max(h, 0)) % self.game.num_players

    def seat_names(self) -> list[str]:
        """Who sits in each seat this hand."""
        out = [""] * self.game.num_players
        for i, name in enumerate(self.names):
            out[self.seat_of(i)] = name
        return out

    def agent_at(self, seat: int) -> Agent | None:
        for i, agent in enumerate(self.participants):
            if self.seat_of(i) == seat:
                return agent
        raise AssertionError(f"no participant in seat {seat}")

    @property
    def human_seat(self) -> int:
        return self.seat_of(self.human)

    # -- the hand ---------------------------------------------------------------------------
    @property
    def in_hand(self) -> bool:
        return self.state is not None and not self.state.is_terminal()

    @property
    def over(self) -> bool:
        """No hand in progress and no more to play."""
        return not self.in_hand and self.limit is not None and len(self.results) >= self.limit

    def start_hand(self) -> None:
        if self.in_hand:
            raise NotYourTurn("a hand is in progress")
        if self.over:
            raise SessionOver(f"the session is over: {self.limit} hands played")
        self.hand += 1
        self.log, self.decisions, self.actions = [], [], []
        self._rng = random.Random(f"gamesolve-play:{self.seed}:{self.hand}")
        for i, agent in enumerate(self.participants):
            if agent is not None:
                agent.new_hand(self.seat_of(i), self.hand)
        self.state = self.game.new_initial_state()
        self._resolve_chance()

    def to_act(self) -> int | None:
        """The seat to act, or None when no hand is in progress."""
        if not self.in_hand:
            return None
        return self.state.current_player()

    def human_turn(self) -> bool:
        return self.to_act() == self.human_seat

    def bot_turn(self) -> bool:
        seat = self.to_act()
        return seat is not None and seat != self.human_seat

    def bot_step(self) -> LogEntry:
        """The agent to act chooses (timed) and its action is applied."""
        seat = self.to_act()
        if seat is None or seat == self.human_seat:
            raise NotYourTurn("no agent is to act")
        agent = self.agent_at(seat)
        started = time.perf_counter()
        action = int(agent.act(self.state, seat))
        ms = (time.perf_counter() - started) * 1000.0
        if action not in self._legal(self.state):
            raise RuntimeError(f"agent {self.seat_names()[seat]!r} in seat {seat} chose an illegal action {action}")
        return self._apply(seat, action, ms)

    def human_step(self, text: str) -> LogEntry:
        """Apply the person's typed action; :class:`NotYourTurn` or :class:`IllegalAction`."""
        if not self.human_turn():
            raise NotYourTurn("it is not your turn" if self.in_hand else "no hand is in progress")
        action = self.view.parse(self.state, str(text))
        if action not in self._legal(self.state):  # a view's parse should never allow this
            raise IllegalAction(f"action {action} is not legal here")
        self.decisions.append(Decision(self.state, self.human_seat, action))
        return self._apply(self.human_seat, action, None)

    def play_bots(self) -> list[LogEntry]:
        """Let the agents act until it is the person's turn or the hand is over."""
        out = []
        while self.bot_turn():
            out.append(self.bot_step())
        return out

    def _legal(self, state: State) -> Sequence[int]:
        legal = state.legal_actions()
        return legal if isinstance(legal, range) else set(legal)

    def _apply(self, seat: int, action: int, ms: float | None) -> LogEntry:
        state = self.state
        entry = LogEntry(self.hand + 1, seat, self.seat_names()[seat], self.view.describe(state, action),
                         self.view.stage(state), seat == self.human_seat, ms)  # fmt: skip
        self._advance(seat, action)
        self.log.append(entry)
        self._resolve_chance()
        return entry

    def _advance(self, player: int, action: int) -> None:
        state = self.state
        self.actions.append((player, action, state.action_to_string(action)))
        for agent in self.participants:
            if agent is not None:
                agent.observe(state, action)
        self.state = state.child(action)

    def _resolve_chance(self) -> None:
        while self.state.current_player() == CHANCE:
            self._advance(CHANCE, _sample(self.state.chance_outcomes(), self._rng.random()))
        if self.state.is_terminal():
            self._finish()

    def _finish(self) -> None:
        returns = tuple(float(x) for x in self.state.returns())
        seat = self.human_seat
        self.results.append(returns[seat])
        names = self.seat_names()
        self.records.append(HandRecord(self.hand, self.hand, 0, tuple(names), self.state, returns))
        self.histories.append(list(self.actions))
        won = returns[seat]
        verb = "won" if won > 0 else "lost" if won < 0 else "broke even:"
        amount = self.view.amount_text(abs(won)) if won else "0"
        self.last = HandSummary(self.hand + 1, seat, returns, f"hand {self.hand + 1}: you {verb} {amount}")
        if self.on_hand_end is not None:
            self.on_hand_end(self)

    # -- results ----------------------------------------------------------------------------
    def result(self) -> SessionResult:
        unit, scale = self.view.unit()
        wr = win_rate([r * scale for r in self.results])
        return SessionResult(len(self.results), unit, wr.mean, wr.stderr, float(sum(self.results)))


def _sample(outcomes: Sequence[tuple[int, float]], u: float) -> int:
    """The outcome at cumulative probability ``u`` (outcomes with probability 0 never)."""
    total = sum(p for _, p in outcomes)
    x, acc = u * total, 0.0
    for action, p in outcomes:
        acc += p
        if x < acc and p > 0:
            return int(action)
    return int(next(a for a, p in reversed(outcomes) if p > 0))
