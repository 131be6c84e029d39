"""Registry records describing a game: its name, parameters and factory."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import attrs

from gamesolve.game.state import Game


class ParameterError(ValueError):
    """A game parameter has a bad value; the message is fit to show a user."""


@attrs.frozen
class Parameter:
    """One game parameter: its default, type (int, float, str, or a tuple type) and help."""

    default: Any
    help: str = ""
    type: type = attrs.field(default=None)
    minimum: float | None = None
    maximum: float | None = None

    def parse(self, name: str, raw: Any) -> Any:
        kind = self.type or type(self.default)
        try:
            if kind is tuple:
                value = tuple(int(x) for x in str(raw).replace(",", " ").split()) if isinstance(raw, str) else tuple(raw)
            else:
                value = kind(raw)
        except (TypeError, ValueError):
            raise ParameterError(f"parameter {name!r} expects {kind.__name__}, got {raw!r}") from None
        if self.minimum is not None and isinstance(value, (int, float)) and value < self.minimum:
            raise ParameterError(f"parameter {name!r} must be at least {self.minimum:g}, got {value}")
        if self.maximum is not None and isinstance(value, (int, float)) and value > self.maximum:
            raise ParameterError(f"parameter {name!r} must be at most {self.maximum:g}, got {value}")
        return value


@attrs.frozen
class GameSpec:
    """What a plugin registers for a game.

    ``factory(**params)`` builds the :class:`Game`; ``params`` always contains ``players``.
    """

    name: str
    factory: Callable[..., Game]
    description: str = ""
    parameters: Mapping[str, Parameter] = attrs.field(factory=dict)
    min_players: int = 2
    max_players: int = 2
    default_algo: str = "cfr+"
    tabular: bool = True  # small enough for the explicit-tree (tabular) solvers

    def resolve(self, players: int | None = None, /, **raw: Any) -> dict[str, Any]:
        """Validate and complete parameters; raise :class:`ParameterError` on bad input.

        ``players`` may also come among ``raw`` (``--param players=3`` on the command line).
        """
        if "players" in raw:
            given = raw.pop("players")
            if players is not None and str(players) != str(given):
                raise ParameterError(f"players given twice ({players} and {given})")
            players = given
        if players is None:
            players = self.parameters["players"].default if "players" in self.parameters else self.min_players
        try:
            players = int(players)
        except (TypeError, ValueError):
            raise ParameterError(f"players must be an integer, got {players!r}") from None
        if not self.min_players <= players <= self.max_players:
            allowed = (f"{self.min_players}" if self.min_players == self.max_players
                       else f"{self.min_players} to {self.max_players}")
            raise ParameterError(f"{self.name} is for {allowed} players, got {players}")
        unknown = sorted(set(raw) - set(self.parameters))
        if unknown:
            known = ", ".join(sorted(p for p in self.parameters if p != "players")) or "none"
            raise ParameterError(f"{self.name} has no parameter {unknown[0]!r} (parameters: {known})")
        params: dict[str, Any] = {"players": players}
        for key, parameter in self.parameters.items():
            if key == "players":
                continue
            params[key] = parameter.parse(key, raw[key]) if key in raw else parameter.default
        return params

    def create(self, players: int | None = None, /, **raw: Any) -> Game:
        """Build the game; ``raw`` values may be strings from the command line."""
        return self.factory(**self.resolve(players, **raw))
