"""An ACPC client over TCP: any gamesolve agent playing at an ACPC dealer.

It says ``VERSION:2.0.0``, then follows every ``MATCHSTATE`` line: the hand is rebuilt as an
engine state (:class:`~gamesolve_nlth.acpc.seen_hand.SeenHand`), the agent observes each
card and action as in a match, and when the line asks the client to act the agent's action
goes back as an ACPC token. It plays until the dealer closes the connection.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Callable

import attrs

from gamesolve.agents import Agent
from gamesolve.errors import UserError
from gamesolve.evaluate.statistics import win_rate
from gamesolve_nlth.acpc.actions import token_of
from gamesolve_nlth.acpc.lines import LineSocket
from gamesolve_nlth.acpc.protocol import VERSION, ProtocolError, parse_matchstate
from gamesolve_nlth.acpc.seen_hand import SeenHand
from gamesolve_nlth.state import NLTHGame


class ClientError(UserError):
    """The client cannot play on (no dealer, or a dealer of another game); one line."""


@attrs.define
class ClientResult:
    """Chips won in each hand played, and the hands the engine could not follow."""

    values: list[int] = attrs.field(factory=list)
    seconds: float = 0.0
    untracked: list[str] = attrs.field(factory=list)
    big_blind: int = 100

    def as_dict(self) -> dict:
        rate = win_rate([v * 1000.0 / self.big_blind for v in self.values]) if self.values else None
        return {"hands": len(self.values), "chips": sum(self.values), "seconds": self.seconds,
                "mbb_per_hand": rate.mean if rate else None, "stderr": rate.stderr if rate else None,
                "untracked_hands": len(self.untracked)}  # fmt: skip

    def summary_lines(self) -> list[str]:
        d = self.as_dict()
        lines = [f"hands       {d['hands']:,} in {self.seconds:.1f} s", f"chips       {d['chips']:+,}"]
        if d["hands"]:
            lines.append(f"win rate    {d['mbb_per_hand']:+.1f} mbb/hand ± {d['stderr']:.1f}")
        if self.untracked:
            lines.append(f"{len(self.untracked):,} hands the engine could not follow (answered with calls), e.g. {self.untracked[0]}")
        return lines


def connect(host: str, port: int, timeout: float | None = None) -> LineSocket:
    """A connection to the ACPC dealer on ``host:port``; :class:`ClientError` if there is none.
    ``timeout``: seconds to wait for the dealer, then and at every line (None: no limit)."""
    try:
        sock = socket.create_connection((host, port), timeout=timeout)
    except OSError as exc:
        raise ClientError(f"cannot connect to an ACPC dealer at {host}:{port}: {exc.strerror or exc}") from None
    return LineSocket(sock, timeout)


def play(game: NLTHGame, agent: Agent, connection: LineSocket, on_hand: Callable[[int], None] | None = None) -> ClientResult:
    """Play ``agent`` at the dealer on ``connection`` until it closes it (and close it then);
    ``on_hand(chips)`` is told each hand's result."""
    result = ClientResult(big_blind=game.big_blind)
    started = time.perf_counter()
    try:
        connection.send(VERSION)
        _Session(game, agent, connection, result, on_hand).run()
    except TimeoutError:
        raise ClientError(f"the dealer sent nothing for {connection.sock.gettimeout():g} s") from None
    except OSError as exc:
        raise ClientError(f"connection to the dealer: {exc.strerror or exc}") from None
    finally:
        connection.close()
        result.seconds = time.perf_counter() - started
    return result


class _Session:
    def __init__(self, game, agent, connection, result, on_hand):
        self.game = game
        self.agent = agent
        self.connection = connection
        self.result = result
        self.on_hand = on_hand
        self.hand: SeenHand | None = None
        self.done = False  # the current hand's result is counted
        self.lost = False  # the engine could not follow the current hand

    def run(self) -> None:
        while (line := self.connection.read()) is not None:
            if not line or line[0] in "#;":
                continue
            ms = parse_matchstate(line)
            if ms.num_players != self.game.num_players:
                raise ClientError(f"the dealer plays {ms.num_players} players, the game {self.game.num_players} "
                                  f"(give -p players={ms.num_players})")  # fmt: skip
            if self.hand is None or (ms.hand, ms.position) != (self.hand.hand, self.hand.position):
                self.hand = SeenHand(self.game, ms.position, ms.hand)
                self.agent.new_hand(ms.position, ms.hand)
                self.done = self.lost = False
            action = self._follow(ms, line)
            if action is not None:
                self.connection.send(f"{line}:{action}")

    def _follow(self, ms, line: str) -> str | None:
        """The token to answer ``line`` with, or None when it does not ask us to act."""
        if self.lost:
            return "c"
        hand = self.hand
        try:
            for state, action in hand.update(ms):
                self.agent.observe(state, action)
        except ProtocolError as exc:
            self.lost = True
            self.result.untracked.append(f"hand {ms.hand}: {' '.join(str(exc).split())}")
            return "c"
        state = hand.state
        if state.is_terminal():
            if not self.done:
                self.done = True
                chips = int(state.payoffs()[hand.position])
                self.result.values.append(chips)
                if self.on_hand is not None:
                    self.on_hand(chips)
            return None
        if state.current_player() != hand.position:
            return None
        return token_of(state, self.agent.act(state, hand.position))
