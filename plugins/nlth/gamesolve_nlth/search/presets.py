"""The search's action-abstraction presets: which bet and raise sizes a subgame offers.

Like the blueprint's presets (``tiny``, ``small``, ``pluribus``), from cheap to the paper's
scale. The supplement: the search offers between one and six raise sizes at a decision (fold
and call always), and fewer in pots of more players, whose trees grow with every seat. A
heads-up turn subgame to the end of the game (pot 1000, 9000 behind) has 3,237 nodes with
``tiny``, 4,965 with ``small`` and 117,069 with ``pluribus``; a vector CFR iteration costs about
in proportion. ``small`` is the agent's default: on 2 cores it affords tens of iterations
within a decision's few seconds.

``search:store=BP:preset=NAME`` sets every size below at once; size options given with it
(``bets``, ``raises``, ``raise_cap``, ...) override the preset's. ``preset=paper`` is the one
preset of how subgames are solved instead: Pluribus' choices (Linear CFR, its final iteration
played) over the default sizes, for comparison with the agent's default (DCFR).
"""

from __future__ import annotations

import attrs


@attrs.frozen
class SearchSizes:
    """One preset, in ``gamesolve spot``'s size syntax (docs/spot.md).

    :ivar bets, raises, raise_cap: heads-up subgames' first bets and raises per street, and the
        most raises a street's subgame offers.
    :ivar multiway_bets, multiway_raises, multiway_raise_cap: the same in pots of three or more.
    :ivar preflop_bets: raise sizes of a first-round search (pot fractions, allin).
    """

    bets: str
    raises: str
    raise_cap: int
    multiway_bets: str
    multiway_raises: str
    multiway_raise_cap: int
    preflop_bets: str


SEARCH_PRESETS: dict[str, SearchSizes] = {
    "tiny": SearchSizes(
        bets="100%,allin",
        raises="allin",
        raise_cap=1,
        multiway_bets="100%,allin",
        multiway_raises="allin",
        multiway_raise_cap=1,
        preflop_bets="100%,allin",
    ),
    "small": SearchSizes(
        bets="flop=75%,allin turn=75%,allin river=50%,100%,allin",
        raises="allin",
        raise_cap=2,
        multiway_bets="flop=75%,allin turn=75%,allin river=75%,allin",
        multiway_raises="allin",
        multiway_raise_cap=1,
        preflop_bets="100%,allin",
    ),
    "pluribus": SearchSizes(
        bets="flop=25%,33%,50%,75%,125%,allin turn=33%,50%,75%,100%,150%,allin river=25%,50%,75%,100%,150%,allin",
        raises="50%,100%,allin",
        raise_cap=3,
        multiway_bets="flop=33%,75%,allin turn=50%,100%,allin river=50%,100%,allin",
        multiway_raises="100%,allin",
        multiway_raise_cap=2,
        preflop_bets="50%,100%,200%,allin",
    ),
}
DEFAULT_PRESET = "small"


#: Pluribus' solver choices (supplement, "Real-time search"): vector Linear CFR, the final
#: iteration played. The agent's default is DCFR (docs/search.md, "Defaults").
PAPER_SOLVING = {"algorithm": "lcfr", "play": "current"}


def preset_options(name: str) -> dict[str, str]:
    """The options ``preset=NAME`` stands for (a size preset's sizes, or ``paper``'s solver
    choices); :class:`ValueError` names the known presets."""
    if name == "paper":
        return dict(PAPER_SOLVING)
    try:
        sizes = SEARCH_PRESETS[name]
    except KeyError:
        raise ValueError(f"unknown search preset {name!r} (choose from {', '.join([*SEARCH_PRESETS, 'paper'])})") from None
    return {key: str(value) for key, value in attrs.asdict(sizes).items()}
