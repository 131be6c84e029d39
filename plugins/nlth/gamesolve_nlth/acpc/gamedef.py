"""An ``nlth`` game as an ACPC game definition (the ``.game`` files ACPC dealers and bots read).

ACPC numbers positions from the first player to post a blind: heads-up position 0 is the big
blind and position 1 the small blind (the button, first to act before the flop); with three
or more players position 0 is the small blind, 1 the big blind, 2 the first to act, and the
last position the button. ``firstPlayer`` is 1-based.
"""

from __future__ import annotations

from typing import Any

from gamesolve_nlth.state import NLTHGame


def gamedef_fields(game: NLTHGame) -> dict[str, Any]:
    """The definition's fields (``stack`` and ``blind`` per position), as open-spiel's
    ``universal_poker`` also takes them."""
    n = game.num_players
    if n == 2:
        blinds, first = [game.big_blind, game.small_blind], [2, 1, 1, 1]
    else:
        blinds, first = [game.small_blind, game.big_blind] + [0] * (n - 2), [3, 1, 1, 1]
    return {
        "betting": "nolimit",
        "numPlayers": n,
        "numRounds": 4,
        "stack": " ".join(str(s) for s in game.stacks),
        "blind": " ".join(str(b) for b in blinds),
        "firstPlayer": " ".join(str(f) for f in first),
        "numSuits": 4,
        "numRanks": 13,
        "numHoleCards": 2,
        "numBoardCards": "0 3 1 1",
    }


def gamedef_text(game: NLTHGame) -> str:
    """The definition as an ACPC ``.game`` file."""
    fields = gamedef_fields(game)
    lines = ["GAMEDEF", fields.pop("betting")]
    lines += [f"{key} = {value}" for key, value in fields.items()]
    return "\n".join(lines + ["END GAMEDEF", ""])
