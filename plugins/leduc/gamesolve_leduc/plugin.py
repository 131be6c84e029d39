"""Registers Leduc poker with gamesolve."""

from gamesolve import hookimpl
from gamesolve.game import GameSpec, Parameter
from gamesolve_leduc.game import BUCKETINGS, LeducGame
from gamesolve_leduc.poker_form import leduc_form


@hookimpl
def gamesolve_register_games(register):
    register(
        GameSpec(
            name="leduc",
            factory=LeducGame,
            description="Leduc poker: 2 suits of N+1 ranks, two betting rounds (open-spiel leduc_poker)",
            parameters={
                "players": Parameter(2, "number of players", int, 2, 10),
                "abstraction": Parameter(
                    "rank", f"card abstraction for sampling solvers: {', '.join(BUCKETINGS)}", str
                ),
            },
            min_players=2,
            max_players=10,
        )
    )


@hookimpl
def gamesolve_compile_game(game, form, options):
    if form == "factored" and isinstance(game, LeducGame):
        if options.get("preset"):
            raise ValueError(f"leduc has no abstraction presets (got --preset {options['preset']})")
        return leduc_form(game, game.abstraction)
    return None


@hookimpl
def gamesolve_play_view(game):
    """How a person sees and plays the game (gamesolve play / serve)."""
    if not isinstance(game, LeducGame):
        return None
    from gamesolve_leduc.play_view import LeducView

    return LeducView(game)
