"""The game layer: the state contract, game specs and compiled forms."""

from gamesolve.game.spec import GameSpec, Parameter, ParameterError
from gamesolve.game.state import CHANCE, TERMINAL, Game, State

__all__ = ["CHANCE", "TERMINAL", "Game", "GameSpec", "Parameter", "ParameterError", "State"]
