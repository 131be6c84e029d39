"""A search agent's solve log: how many iterations each of its solves ran, so that a match
played under time budgets can be played again to the bit.

Under a time budget (``seconds``) a solve stops when its time is up, so how far it got depends
on the machine and its load, and the play with it. An agent with ``record=PATH`` appends one
JSON line per solve it runs (the hand, its seat, the solve's number in the hand, the betting
round, the iterations it ran and the subgame's public nodes) as the solve ends, so a crash loses at most
the solve under way; several match workers may append to one file (each line is one
``O_APPEND`` write). An agent with ``replay=PATH`` runs no clock: each of its solves stops at
the iterations the log gives it. Solves are deterministic for a seed and an iteration count
(single-threaded or threads combined in a fixed order), so the replay plays what the recorded
match played, and a solve the log does not hold, or of another size, stops it with an error
naming the hand.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import attrs

from gamesolve.errors import UserError


class SolveLogError(UserError):
    """A solve log that cannot be read, or that a replay does not match (a command shows it
    as one line)."""


@attrs.frozen
class LoggedSolve:
    """One solve: its round, the iterations it ran and the subgame's public nodes (the round
    and the nodes check that a replay solves the same subgame)."""

    round: int
    iterations: int
    nodes: int


class SolveRecorder:
    """Appends the solves of an agent to ``path`` (created if missing)."""

    def __init__(self, path: str | os.PathLike):
        self.path = Path(path)
        if not self.path.parent.is_dir():
            raise SolveLogError(f"search option record: no folder {str(self.path.parent)!r} for the solve log")

    def write(self, hand: int, seat: int, solve: int, logged: LoggedSolve) -> None:
        line = json.dumps({"hand": hand, "seat": seat, "solve": solve, **attrs.asdict(logged)})
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, (line + "\n").encode())
        finally:
            os.close(fd)


class SolveReplay:
    """The solves of a log by hand and seat, each hand's in the order they ran."""

    def __init__(self, path: str | os.PathLike):
        self.path = Path(path)
        try:
            text = self.path.read_text()
        except OSError as exc:
            raise SolveLogError(f"search option replay: cannot read the solve log {str(self.path)!r}: {exc.strerror}") from None
        found: dict[tuple[int, int], dict[int, LoggedSolve]] = {}
        lines = text.split("\n")
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                entry = json.loads(line)
                key, solve = (int(entry["hand"]), int(entry["seat"])), int(entry["solve"])
                logged = LoggedSolve(int(entry["round"]), int(entry["iterations"]), int(entry["nodes"]))
            except (ValueError, KeyError, TypeError):
                if number == len(lines):  # the last line of a process killed while writing it
                    continue
                raise SolveLogError(f"{self.path}, line {number}: not a solve log entry: {line[:80]!r}") from None
            if solve in found.setdefault(key, {}):
                raise SolveLogError(f"{self.path}, line {number}: hand {key[0]} seat {key[1]} has a solve {solve} already "
                                    "(two matches recorded into one log?)")  # fmt: skip
            found[key][solve] = logged
        self._solves = found

    def solve(self, hand: int, seat: int, solve: int, round: int, nodes: int) -> int:
        """The iterations solve number ``solve`` of ``hand`` in ``seat`` ran (its subgame in
        betting round ``round``, of ``nodes`` public nodes)."""
        logged = self._solves.get((hand, seat), {}).get(solve)
        if logged is None:
            raise SolveLogError(f"the solve log {str(self.path)!r} holds no solve {solve} of hand {hand} in seat {seat}: "
                                "the replay is not the recorded match (agents, seed, hands and options must be the same)")  # fmt: skip
        if (logged.round, logged.nodes) != (round, nodes):
            raise SolveLogError(f"solve {solve} of hand {hand} in seat {seat} has {nodes:,} nodes in round {round}, the "
                                f"log's {logged.nodes:,} in round {logged.round}: the replay is not the recorded match")  # fmt: skip
        return logged.iterations
