"""Any open-spiel game through the State contract (:mod:`gamesolve.game.state`).

The contract was drawn after open-spiel's, so most of it maps one to one: players, the
chance and terminal sentinels, legal actions, chance outcomes, returns, and
``information_state_key(p)`` = open-spiel's ``information_state_string(p)`` (so stored
policies are keyed exactly as open-spiel keys its tabular policies).

Two things open-spiel does not provide in general are derived here:

* **Public states.** ``public_state_key()`` is the history without the chance outcomes that
  some player cannot identify: a chance node is *public* when each player's information-state
  string tells all its outcomes apart (a board card, a goofspiel prize card), *private*
  otherwise (a hole card, a die), and a private outcome leaves the public state as it was. That is what the generic compiler
  (:mod:`gamesolve.game.factored_compiler`) reads to factor the game; a player's move
  another player does not see stays in the key, and the compiler shares that player's rows
  between the nodes it cannot tell apart.
* **Turns.** Simultaneous-move games are played through open-spiel's own turn-based
  conversion (``pyspiel.convert_to_turn_based``): players move one after another, each
  without seeing the moves made before it in the same turn.

Games whose chance is only sampled (no explicit outcome probabilities), or that have no
information-state strings, are refused with one line; so are trees far too big for a
compiled form (:meth:`OpenSpielGame.estimated_histories`).
"""

from __future__ import annotations

from typing import Any

from gamesolve.game.spec import GameSpec, Parameter, ParameterError
from gamesolve.game.state import CHANCE, TERMINAL, Game, State
from gamesolve.game.tree_size import estimate_histories
from gamesolve.openspiel import PREFIX
from gamesolve.openspiel.params import canonical, game_type, import_pyspiel, load_game, typed_params


class OpenSpielState(State):
    """One open-spiel state; ``child`` clones it (open-spiel states are mutable)."""

    __slots__ = ("game", "os_state", "public", "_legal", "_chance_public")

    def __init__(self, game: OpenSpielGame, os_state, public: str = ""):
        self.game = game
        self.os_state = os_state
        self.public = public
        self._legal: frozenset[int] | None = None
        self._chance_public: bool | None = None

    def current_player(self) -> int:
        if self.os_state.is_terminal():
            return TERMINAL
        if self.os_state.is_chance_node():
            return CHANCE
        return int(self.os_state.current_player())

    def legal_actions(self) -> list[int]:
        return [] if self.os_state.is_terminal() else list(self.os_state.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return list(self.os_state.chance_outcomes()) if self.os_state.is_chance_node() else []

    def child(self, action: int) -> OpenSpielState:
        action = int(action)
        chance = self.os_state.is_chance_node()
        if self._legal is None:
            actions = [a for a, _ in self.os_state.chance_outcomes()] if chance else self.legal_actions()
            self._legal = frozenset(actions)
        if action not in self._legal:  # open-spiel would apply it anyway
            raise ValueError(f"action {action} is not legal here (legal: {sorted(self._legal)})")
        if chance:
            token = str(action) if self._public_chance() else ""
        else:
            token = f"{self.os_state.current_player()}:{action}"
        public = f"{self.public} {token}" if self.public and token else self.public or token
        return OpenSpielState(self.game, self.os_state.child(action), public)

    def _public_chance(self) -> bool:
        """Whether every player's information-state string tells this chance node's outcomes apart."""
        if self._chance_public is None:
            children = [self.os_state.child(a) for a, _ in self.os_state.chance_outcomes()]
            self._chance_public = all(
                len({c.information_state_string(p) for c in children}) == len(children)
                for p in range(self.game.num_players)
            )
        return self._chance_public

    def returns(self) -> list[float]:
        return list(self.os_state.returns())

    def information_state_key(self, player: int) -> str:
        return self.os_state.information_state_string(player)

    def public_state_key(self) -> str:
        return self.public

    def action_to_string(self, action: int) -> str:
        player = -1 if self.os_state.is_chance_node() else self.os_state.current_player()
        return self.os_state.action_to_string(player, int(action))

    def __repr__(self) -> str:
        return f"OpenSpielState({self.game.short_name}: {self.os_state.history_str()!r})"


class OpenSpielGame(Game):
    """An open-spiel game (``os_game``, turned turn-based if its moves are simultaneous)."""

    def __init__(self, short_name: str, os_game, params: dict[str, str]):
        pyspiel = import_pyspiel()
        self.short_name = short_name
        self.name = PREFIX + short_name
        self.simultaneous = os_game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
        self.zero_sum = os_game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
        self.os_game = pyspiel.convert_to_turn_based(os_game) if self.simultaneous else os_game
        super().__init__(self.os_game.num_players(), params)

    def new_initial_state(self) -> OpenSpielState:
        return OpenSpielState(self, self.os_game.new_initial_state())

    def estimated_histories(self, cap: float) -> float:
        """Knuth's estimate over 1,000 seeded random paths (:mod:`gamesolve.game.tree_size`):
        open-spiel cannot count a tree without walking it."""
        return estimate_histories(self, probes=1000, seed=0, cap=cap)

    def describe(self) -> str:
        text = super().describe()
        return text[:-1] + ", turn-based)" if self.simultaneous else text


class OpenSpielGameSpec(GameSpec):
    """The registry record of one open-spiel game, built on demand by
    :func:`openspiel_spec`. Its parameters are open-spiel's; ``players`` is one of them only
    where open-spiel has it (elsewhere the game's parameters fix the count)."""

    def resolve(self, players: int | None = None, /, **raw: Any) -> dict[str, Any]:
        short = self.name[len(PREFIX):]
        if "players" in raw:
            given = raw.pop("players")
            if players is not None and str(players) != str(given):
                raise ParameterError(f"players given twice ({players} and {given})")
            players = given
        if players is not None:
            try:
                players = int(players)
            except (TypeError, ValueError):
                raise ParameterError(f"players must be an integer, got {players!r}") from None
            if not self.min_players <= players <= self.max_players:
                raise ParameterError(f"{self.name} is for {self.min_players} to {self.max_players} players, got {players}")
        typed_params(short, raw)  # unknown keys and bad values fail here, before any work
        return {"players": players, **{k: str(v) for k, v in raw.items()}}


def openspiel_spec(short_name: str) -> OpenSpielGameSpec:
    """The game spec of open-spiel's ``short_name`` (a :class:`RegistryError` if there is none)."""
    kind = game_type(short_name)
    pyspiel = import_pyspiel()
    parameters = {key: Parameter(canonical(default), "open-spiel parameter", str)
                  for key, default in kind.parameter_specification.items()}  # fmt: skip
    if "players" in parameters:
        parameters["players"] = Parameter(kind.parameter_specification["players"], "number of players", int,
                                           kind.min_num_players, kind.max_num_players)  # fmt: skip
    tabular = kind.chance_mode != pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    return OpenSpielGameSpec(
        name=PREFIX + short_name,
        factory=lambda players, **params: make_openspiel_game(short_name, players, params),
        description=f"open-spiel's {kind.long_name}",
        parameters=parameters,
        min_players=kind.min_num_players,
        max_players=kind.max_num_players,
        default_algo="cfr+",
        tabular=tabular,
    )


def make_openspiel_game(short_name: str, players: int | None, params: dict[str, str]) -> OpenSpielGame:
    """Load open-spiel's ``short_name`` with ``params`` (strings, typed by its specification)
    as a gamesolve game; a :class:`ParameterError` (one line) when gamesolve cannot take it."""
    pyspiel = import_pyspiel()
    kind = game_type(short_name)
    typed = typed_params(short_name, params)
    if players is not None and "players" in kind.parameter_specification:
        typed["players"] = int(players)
    dynamics = pyspiel.GameType.Dynamics
    if kind.dynamics not in (dynamics.SEQUENTIAL, dynamics.SIMULTANEOUS):
        raise ParameterError(f"open-spiel {short_name} is a {kind.dynamics.name.lower().replace('_', '-')} game; "
                             "gamesolve takes sequential and simultaneous-move games")  # fmt: skip
    if kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC:
        raise ParameterError(f"open-spiel {short_name} only samples its chance events (no outcome probabilities); "
                             "gamesolve needs explicit chance")  # fmt: skip
    if not kind.provides_information_state_string:
        raise ParameterError(f"open-spiel {short_name} has no information-state strings, which gamesolve keys "
                             "information sets by")  # fmt: skip
    os_game = load_game(short_name, typed)
    if players is not None and os_game.num_players() != int(players):
        raise ParameterError(f"open-spiel {short_name} with these parameters is for {os_game.num_players()} players, "
                             f"not {players}")  # fmt: skip
    stored = {k: canonical(v) for k, v in os_game.get_parameters().items() if k != "players"}
    return OpenSpielGame(short_name, os_game, stored)
