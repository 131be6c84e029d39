"""An ACPC dealer over TCP: it seats the clients that connect, deals, runs every hand through
the engine and logs the match (ACPC's log format and PHH).

As ACPC's ``dealer``: seat ``s`` plays position ``(s - h) mod n`` in hand ``h`` (the seats
rotate one position per hand); stacks are reset every hand; after every action each seat is
sent the hand as it sees it, and the seat to act answers; an answer that does not match
the state it was asked about is ignored, and an invalid action is corrected (a raise size
to the nearest legal one, anything else to a call) and reported. Unlike ACPC's dealer, which
opens one port per seat, this one listens on one port and seats clients in the order they
connect. Cards come from a seeded stream per hand: the same seed deals the same cards.
"""

from __future__ import annotations

import random
import socket
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import attrs

from gamesolve.errors import UserError
from gamesolve.evaluate.statistics import win_rate
from gamesolve_nlth import phh
from gamesolve_nlth.acpc.dealt_hand import DealtHand
from gamesolve_nlth.acpc.gamedef import gamedef_text
from gamesolve_nlth.acpc.lines import LineSocket
from gamesolve_nlth.acpc.protocol import VERSION, split_response
from gamesolve_nlth.state import NLTHGame


class DealerError(UserError):
    """The match cannot go on (a client left, timed out or never said hello); one line."""


@attrs.frozen
class DealerConfig:
    """``hands`` hands of ``game`` between the clients that connect to ``host:port``."""

    game: NLTHGame
    hands: int
    seed: int = 0
    host: str = "127.0.0.1"
    port: int = 0
    names: tuple[str, ...] = ()  # per seat; default seat1, seat2, ...
    timeout: float | None = 600.0  # seconds a client may take to connect or answer
    log: Path | None = None  # write LOG.log (ACPC), LOG.phhs (PHH) and LOG.game (the definition)

    def seat_names(self) -> list[str]:
        return list(self.names) or [f"seat{s + 1}" for s in range(self.game.num_players)]


@attrs.define
class DealerResult:
    """Per seat: name and chips won in every hand; corrections made to invalid answers."""

    names: list[str]
    values: list[list[int]]  # values[hand][seat]
    seconds: float
    corrections: list[str]
    big_blind: int

    def totals(self) -> list[int]:
        return [sum(row[s] for row in self.values) for s in range(len(self.names))]

    def as_dict(self) -> dict:
        hands = len(self.values)
        seats = []
        for s, name in enumerate(self.names):
            rate = win_rate([row[s] * 1000.0 / self.big_blind for row in self.values])
            seats.append({"seat": s + 1, "name": name, "chips": self.totals()[s], "mbb_per_hand": rate.mean,
                          "stderr": rate.stderr})  # fmt: skip
        return {"hands": hands, "seconds": self.seconds, "hands_per_second": hands / self.seconds if self.seconds else None,
                "seats": seats, "corrections": len(self.corrections)}  # fmt: skip

    def summary_lines(self) -> list[str]:
        report = self.as_dict()
        lines = [f"hands       {report['hands']:,} in {self.seconds:.1f} s"]
        lines += [f"{s['name']:<20} {s['chips']:>+12,} chips  {s['mbb_per_hand']:>+10.1f} mbb/hand ± {s['stderr']:.1f}"
                  for s in report["seats"]]  # fmt: skip
        if self.corrections:
            lines.append(f"{len(self.corrections):,} invalid answers corrected, e.g. {self.corrections[0]}")
        return lines


def deal(seed: int, hand: int, players: int) -> list[int]:
    """The cards of hand ``hand``: ``2 * players + 5`` distinct cards in ACPC's order."""
    return random.Random(f"gamesolve-acpc:{seed}:{hand}").sample(range(52), 2 * players + 5)


class Dealer:
    """Runs one match (:meth:`run`). ``on_listen(host, port)`` is told where it listens (the
    port is the system's pick when ``config.port`` is 0), ``on_seat(seat)`` when a client has
    taken a seat (0-based) and said hello; ``on_send(seat, line)`` sees every line sent (a
    test's transcript); ``progress`` is advanced a hand at a time."""

    def __init__(self, config: DealerConfig, on_listen: Callable[[str, int], None] | None = None,
                 on_seat: Callable[[int], None] | None = None, on_send: Callable[[int, str], None] | None = None,
                 progress=None):  # fmt: skip
        self.config = config
        self.on_listen = on_listen
        self.on_seat = on_seat
        self.on_send = on_send
        self.progress = progress
        self.seats: list[LineSocket] = []

    def run(self) -> DealerResult:
        config = self.config
        n = config.game.num_players
        names = config.seat_names()
        if len(names) != n:
            raise DealerError(f"{n} players need {n} names, got {len(names)}")
        logs = _Logs(config.log, config.game, names) if config.log is not None else None
        try:
            self._seat_clients()
            started = time.perf_counter()
            if self.progress is not None:
                self.progress.start(config.hands, "hands", f"ACPC dealer, {n} seats")
            values, corrections = [], []
            for h in range(config.hands):
                hand = DealtHand(config.game, h, deal(config.seed, h, n))
                corrections += self._play(hand)
                seat_of = [(p + h) % n for p in range(n)]
                row = [0] * n
                for p, v in enumerate(hand.payoffs()):
                    row[seat_of[p]] = int(v)
                values.append(row)
                if logs is not None:
                    logs.hand(hand, [names[s] for s in seat_of])
                if self.progress is not None:
                    self.progress.advance(1)
            result = DealerResult(names, values, time.perf_counter() - started, corrections, config.game.big_blind)
            if logs is not None:
                logs.score(result)
            return result
        finally:
            for seat in self.seats:
                seat.close()
            if logs is not None:
                logs.close()

    def _seat_clients(self) -> None:
        config = self.config
        n = config.game.num_players
        with socket.create_server((config.host, config.port)) as server:
            server.settimeout(config.timeout)
            if self.on_listen is not None:
                self.on_listen(*server.getsockname()[:2])
            while len(self.seats) < n:
                try:
                    sock, _ = server.accept()
                except TimeoutError:
                    raise DealerError(f"{len(self.seats)} of {n} clients connected within {config.timeout:g} s") from None
                seat = LineSocket(sock, config.timeout)
                self.seats.append(seat)
                hello = self._read(len(self.seats) - 1)
                if not hello.startswith("VERSION:2."):
                    raise DealerError(f"seat {len(self.seats)} opened with {hello!r}, not {VERSION}")
                if self.on_seat is not None:
                    self.on_seat(len(self.seats) - 1)

    def _read(self, seat: int) -> str:
        try:
            line = self.seats[seat].read()
        except TimeoutError:
            raise DealerError(f"seat {seat + 1} sent nothing within {self.config.timeout:g} s") from None
        except OSError as exc:
            raise DealerError(f"seat {seat + 1}: {exc.strerror or exc}") from None
        if line is None:
            raise DealerError(f"seat {seat + 1} closed the connection")
        return line

    def _send_all(self, hand: DealtHand) -> None:
        n = self.config.game.num_players
        for seat in range(n):
            line = hand.matchstate((seat - hand.hand) % n).text()
            if self.on_send is not None:
                self.on_send(seat, line)
            try:
                self.seats[seat].send(line)
            except OSError as exc:
                raise DealerError(f"seat {seat + 1}: {exc.strerror or exc}") from None

    def _play(self, hand: DealtHand) -> list[str]:
        """Play one hand to the end; returns the corrections made to answers."""
        n = self.config.game.num_players
        corrections = []
        while not hand.finished:
            self._send_all(hand)
            position = hand.to_act
            seat = (position + hand.hand) % n
            asked = hand.matchstate(position).text()
            while True:
                line = self._read(seat)
                if not line or line[0] in "#;":
                    continue
                try:
                    state, action = split_response(line)
                except UserError:
                    continue  # not an answer: ignored, as ACPC's dealer does
                if state == asked:
                    break
            note = hand.answer(action)
            if note is not None:
                corrections.append(f"hand {hand.hand}, seat {seat + 1}: {note}")
        self._send_all(hand)
        return corrections


class _Logs:
    """``LOG.log`` (ACPC: a ``STATE`` line per hand, then ``SCORE``), ``LOG.phhs`` (a PHH
    table per hand) and ``LOG.game`` (the ACPC game definition), written as hands end."""

    def __init__(self, base: Path, game: NLTHGame, names: Sequence[str]):
        game_file, acpc_file, phh_file = log_paths(base)
        base.parent.mkdir(parents=True, exist_ok=True)
        game_file.write_text(gamedef_text(game), encoding="ascii")
        self.acpc = acpc_file.open("w", encoding="utf-8")
        self.phh = phh_file.open("w", encoding="utf-8")

    def hand(self, hand: DealtHand, names_by_position: list[str]) -> None:
        self.acpc.write(hand.log_line(names_by_position) + "\n")
        self.phh.write(f"[{hand.hand + 1}]\n" + phh.dumps(hand.state, players=names_by_position, hand=hand.hand + 1) + "\n")
        self.acpc.flush()
        self.phh.flush()

    def score(self, result: DealerResult) -> None:
        self.acpc.write(f"SCORE:{'|'.join(str(v) for v in result.totals())}:{'|'.join(result.names)}\n")

    def close(self) -> None:
        self.acpc.close()
        self.phh.close()


def log_paths(base: Path) -> list[Path]:
    """The files a dealer writes for ``--log BASE``: ``BASE.game``, ``BASE.log``, ``BASE.phhs``."""
    return [base.parent / f"{base.name}{ext}" for ext in (".game", ".log", ".phhs")]
