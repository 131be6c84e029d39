"""Registers Kuhn poker with gamesolve."""

from gamesolve import hookimpl
from gamesolve.game import GameSpec, Parameter
from gamesolve_kuhn.game import KuhnGame
from gamesolve_kuhn.poker_form import kuhn_form


@hookimpl
def gamesolve_register_games(register):
    register(
        GameSpec(
            name="kuhn",
            factory=KuhnGame,
            description="Kuhn poker: N+1 cards, one card each, one betting round (open-spiel kuhn_poker)",
            parameters={"players": Parameter(2, "number of players", int, 2, 10)},
            min_players=2,
            max_players=10,
        )
    )


@hookimpl
def gamesolve_compile_game(game, form, options):
    if form == "factored" and isinstance(game, KuhnGame):
        if options.get("preset"):
            raise ValueError(f"kuhn has no abstraction presets (got --preset {options['preset']})")
        return kuhn_form(game)
    return None


@hookimpl
def gamesolve_play_view(game):
    """How a person sees and plays the game (gamesolve play / serve)."""
    if not isinstance(game, KuhnGame):
        return None
    from gamesolve_kuhn.play_view import KuhnView

    return KuhnView(game)
