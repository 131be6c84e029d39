"""Registers Leduc poker with gamesolve."""

from gamesolve import hookimpl
from gamesolve.game import GameSpec, Parameter
from gamesolve_leduc.game import LeducGame


@hookimpl
def gamesolve_register_games(register):
    register(
        GameSpec(
            name="leduc",
            factory=LeducGame,
            description="Leduc poker: 2 suits of N+1 ranks, two betting rounds (open-spiel leduc_poker)",
            parameters={"players": Parameter(2, "number of players", int, 2, 10)},
            min_players=2,
            max_players=10,
        )
    )
