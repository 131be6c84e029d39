"""Registers Liar's Dice with gamesolve: the State contract only, no compiled form of its own."""

from gamesolve import hookimpl
from gamesolve.game import GameSpec, Parameter
from gamesolve_liars_dice.game import LiarsDiceGame


@hookimpl
def gamesolve_register_games(register):
    register(
        GameSpec(
            name="liars_dice",
            factory=LiarsDiceGame,
            description=(
                "Liar's Dice: dice rolled in secret, rising bids 'q x f' on all dice (highest face wild) "
                "until a call of liar; bidder or caller wins 1 (open-spiel liars_dice)"
            ),
            parameters={
                "players": Parameter(2, "number of players (open-spiel allows only 2)", int, 2, 2),
                "dice": Parameter(1, "dice per player", int, 1),
                "sides": Parameter(6, "faces of a die; the highest is wild", int, 1),
                "bidding_rule": Parameter(
                    "reset-face", "bid order: reset-face (1x1, 1x2, .., 2x1, ..) or reset-quantity (1x1, 2x1, .., 1x2, ..)", str
                ),
            },
            min_players=2,
            max_players=2,
            default_algo="cfr+",
            tabular=True,
        )
    )


@hookimpl
def gamesolve_play_view(game):
    """How a person sees and plays the game (gamesolve play / serve)."""
    if not isinstance(game, LiarsDiceGame):
        return None
    from gamesolve_liars_dice.play_view import LiarsDiceView

    return LiarsDiceView(game)
