"""The text of the ACPC protocol, version 2.0.0 (the competition's ``project_acpc_server``).

A client opens with ``VERSION:2.0.0``. The dealer then sends every player, after every
action, the hand as that player sees it::

    MATCHSTATE:<position>:<hand>:<betting>:<cards>

``betting`` lists the actions of each round, rounds separated by ``/``: ``f`` fold, ``c``
check or call, ``r<n>`` raise **to** ``n`` chips counted over the whole hand (the blinds
included). ``cards`` gives each position's hole cards, ``|``-separated (empty where hidden:
another player's cards show only if they reach a showdown), then the board of each round
after a ``/``: ``AhKd||/2c3c4c/5d``. The player to act answers with the line it was sent,
``:`` and its action: ``MATCHSTATE:1:7:r300:|QsQd:c``. Lines end with ``\\r\\n``; the dealer
ignores lines starting with ``#`` or ``;``.
"""

from __future__ import annotations

import re

import attrs

from gamesolve.errors import UserError
from gamesolve_nlth.cards import RANKS, SUITS, card_str

VERSION = "VERSION:2.0.0"
HEADER = "MATCHSTATE"

_TOKEN = re.compile(r"[fckFCK]|[rbRB]-?\d*")


class ProtocolError(UserError):
    """A line that does not follow the protocol; the message quotes it."""


@attrs.frozen
class MatchState:
    """One ``MATCHSTATE`` line: the hand as ``position`` sees it.

    ``betting[r]`` holds round ``r``'s action tokens (``"f"``, ``"c"``, ``"r300"``),
    ``hole[p]`` position ``p``'s hole cards (empty if hidden) and ``board[r]`` the board
    cards dealt for round ``r`` (none for round 0 in hold'em).
    """

    position: int
    hand: int
    betting: tuple[tuple[str, ...], ...]
    hole: tuple[tuple[int, ...], ...]
    board: tuple[tuple[int, ...], ...]

    @property
    def round(self) -> int:
        return len(self.betting) - 1

    @property
    def num_players(self) -> int:
        return len(self.hole)

    def text(self) -> str:
        """The line as the dealer sends it (without ``\\r\\n``)."""
        betting = "/".join("".join(tokens) for tokens in self.betting)
        cards = "|".join(_cards(h) for h in self.hole) + "".join("/" + _cards(b) for b in self.board[1:])
        return f"{HEADER}:{self.position}:{self.hand}:{betting}:{cards}"


def _cards(cards) -> str:
    return "".join(card_str(c) for c in cards)


def parse_matchstate(line: str) -> MatchState:
    """A :class:`MatchState` from its line; :class:`ProtocolError` if it is not one."""
    parts = line.strip().split(":")
    if len(parts) != 5 or parts[0] != HEADER:
        raise ProtocolError(f"not a MATCHSTATE line: {line.strip()!r}")
    _, position, hand, betting, cards = parts
    if not (position.isdigit() and hand.isdigit()):
        raise ProtocolError(f"MATCHSTATE position and hand must be numbers: {line.strip()!r}")
    rounds = tuple(tuple(_tokens(part, line)) for part in betting.split("/"))
    groups = cards.split("/")
    hole = tuple(tuple(_read_cards(h, line)) for h in groups[0].split("|"))
    board = ((),) + tuple(tuple(_read_cards(b, line)) for b in groups[1:])
    if len(board) != len(rounds):
        raise ProtocolError(f"MATCHSTATE with {len(rounds)} betting rounds but {len(board)} boards: {line.strip()!r}")
    if int(position) >= len(hole):
        raise ProtocolError(f"MATCHSTATE position {position} with {len(hole)} players: {line.strip()!r}")
    return MatchState(int(position), int(hand), rounds, hole, board)


def _tokens(text: str, line: str) -> list[str]:
    tokens = _TOKEN.findall(text)
    if "".join(tokens) != text:
        raise ProtocolError(f"bad betting {text!r} in {line.strip()!r}")
    return [canonical_token(t) for t in tokens]


def _read_cards(text: str, line: str) -> list[int]:
    if len(text) % 2:
        raise ProtocolError(f"bad cards {text!r} in {line.strip()!r}")
    out = []
    for i in range(0, len(text), 2):
        rank, suit = text[i].upper(), text[i + 1].lower()
        if rank not in RANKS or suit not in SUITS:
            raise ProtocolError(f"bad card {text[i:i + 2]!r} in {line.strip()!r}")
        out.append(RANKS.index(rank) * 4 + SUITS.index(suit))
    return out


def canonical_token(token: str) -> str:
    """An action as the dealer writes it: ``k`` and ``C`` are ``c``, ``b300`` is ``r300``."""
    kind = token[:1].lower()
    if kind in ("c", "k"):
        return "c"
    if kind == "f":
        return "f"
    return "r" + token[1:]


def parse_action(text: str) -> tuple[str, int]:
    """``("f" | "c" | "r", raise-to)`` from an action token (``0`` unless a raise);
    :class:`ProtocolError` for anything else, a raise without a size among them."""
    text = text.strip()
    if not _TOKEN.fullmatch(text) or (text[:1].lower() in ("r", "b") and not text[1:].lstrip("-").isdigit()):
        raise ProtocolError(f"not an action: {text!r} (f, c, or r<chips>)")
    token = canonical_token(text)
    return token[0], int(token[1:]) if token[0] == "r" else 0


def split_response(line: str) -> tuple[str, str]:
    """A client's answer, ``MATCHSTATE...:<action>``, as (the state it answers, the action)."""
    state, sep, action = line.strip().rpartition(":")
    if not sep or state.count(":") != 4 or not state.startswith(HEADER + ":"):
        raise ProtocolError(f"not a response (MATCHSTATE line, ':', action): {line.strip()!r}")
    return state, action
