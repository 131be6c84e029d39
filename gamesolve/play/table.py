"""Setting a table up: the game, the agents in the other seats, the coach, the hand histories.

Shared by ``gamesolve play`` (one table) and ``gamesolve serve`` (one table per browser
session, each with its own seed and its own agents, so no two tables share per-hand state).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import attrs

from gamesolve.evaluate.match import MatchError, agent_seed, default_names, make_agents, parse_agent
from gamesolve.game.state import Game
from gamesolve.play.coach import Coach, can_coach, pick_coach
from gamesolve.play.history import HandHistories
from gamesolve.play.session import HUMAN, PlaySession
from gamesolve.play.view import PlayView, view_for
from gamesolve.registry import RegistryError


class TableError(ValueError):
    """A table cannot be set up as asked; the message is one line fit to show a user."""


@attrs.frozen
class TableSpec:
    """What every table of a ``play`` or ``serve`` command shares.

    ``agents`` are agent specs (``NAME[:KEY=VALUE...]``) for the seats other than the
    person's, in order; ``coach`` is ``"auto"`` (the first seated agent that can tell its
    strategy), ``"none"``, or an agent spec built just to coach.
    """

    game: Game
    agents: tuple[str, ...]
    coach: str = "auto"


def seat_agents(players: int | None, agent_list: str) -> tuple[int, tuple[str, ...]]:
    """``(players, agent specs)`` from ``--agents A,B,...`` and ``--players``: the person
    plus one seat per agent, or ``--players P`` with one agent filling all P-1 seats."""
    texts = tuple(t.strip() for t in str(agent_list).split(","))
    if not all(texts):
        raise TableError(f"--agents expects a comma-separated list of agent specs, got {agent_list!r}")
    if players is None:
        return len(texts) + 1, texts
    if players < 2:
        raise TableError(f"--players must be at least 2, got {players}")
    if len(texts) == 1:
        return players, texts * (players - 1)
    if len(texts) != players - 1:
        raise TableError(f"--players {players} needs {players - 1} agents (one per seat but yours), got {len(texts)}")
    return players, texts


def short_names(texts: Sequence[str]) -> list[str]:
    """Agent names without their options, numbered when repeated: ``blueprint#1``, ``tag``."""
    return default_names([parse_agent(t)[0] for t in texts])


@attrs.define
class Table:
    """A session with what goes with it: its view, coach and hand-history writer."""

    session: PlaySession
    view: PlayView
    coach: Coach | None
    histories: HandHistories | None


def build_table(host, spec: TableSpec, *, seat: int, seed: int, hands: int | None, hh_path: Path | None) -> Table:
    """A new :class:`Table`: agents built (seeded from ``seed``), the person in ``seat``.

    Raises :class:`TableError` with a one-line message for anything the user asked wrong.
    """
    game = spec.game
    p = game.num_players
    if len(spec.agents) != p - 1:
        raise TableError(f"{game.name} with {p} players needs {p - 1} agents besides you, got {len(spec.agents)}")
    if not 0 <= int(seat) < p:
        raise TableError(f"--seat must be a seat 0..{p - 1}, got {seat}")
    try:
        agents, _ = make_agents(host.agents, game, list(spec.agents), seed, plugins=host.pm)
    except (RegistryError, MatchError) as exc:
        raise TableError(str(exc)) from None
    except (OSError, ValueError) as exc:  # e.g. a store that is not there
        raise TableError(f"cannot build the agents: {exc}") from None
    names = short_names(spec.agents)
    participants: list = list(agents)
    participants.insert(int(seat), HUMAN)
    names.insert(int(seat), "you")
    view = view_for(game, host.pm)
    histories = HandHistories(host.pm, game, hh_path) if hh_path is not None else None
    session = PlaySession(game, view, participants, names, seed=seed, hands=hands,
                          on_hand_end=histories.save if histories is not None else None)  # fmt: skip
    return Table(session, view, _coach(host, spec, participants, names, seed), histories)


def _coach(host, spec: TableSpec, participants, names, seed: int) -> Coach | None:
    choice = spec.coach.strip()
    if choice == "none":
        return None
    if choice == "auto":
        return pick_coach(participants, names)
    try:
        (agent,), _ = make_agents(host.agents, spec.game, [choice], agent_seed(seed, len(participants)), plugins=host.pm)
    except (RegistryError, MatchError, OSError, ValueError) as exc:
        raise TableError(f"--coach: {exc}") from None
    if not can_coach(agent):
        raise TableError(f"--coach: agent {parse_agent(choice)[0]!r} cannot tell its strategy (blueprint and policy agents can)")
    return Coach(agent, short_names([choice])[0])
