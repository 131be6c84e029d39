"""``gamesolve lbr``: local best response against an agent, for games whose plugin provides one.

LBR (Lisý & Bowling 2017) is a cheap lower bound on exploitability for games too large for
an exact best response: a strategy that, at each of its turns, plays the action of best
immediate value assuming the hand is checked down after the opponent's reply, with the
opponent's range tracked through the opponent's (known) strategy. The game's plugin builds
the LBR agent (``gamesolve_lbr_agent`` hook; hold'em: :mod:`gamesolve_nlth.evaluate.lbr`);
this module seats it against copies of the agent with duplicate dealing (the match runner)
and reports LBR's win rate, ± standard error, in the match's unit (mbb/game for poker).
"""

from __future__ import annotations

from typing import Any

import attrs

from gamesolve.evaluate.match import MatchError, make_agents, play_match
from gamesolve.game.state import Game
from gamesolve.json_report import number


@attrs.frozen
class LBRResult:
    game: str
    players: int
    agent: str
    hands: int
    unit: str
    mbb_per_game: float  # LBR's win rate in ``unit`` (the name the JSON report uses)
    se: float
    p_value: float
    seconds: float
    seed: int
    options: dict[str, Any]

    def as_dict(self) -> dict[str, Any]:
        return attrs.asdict(self)

    def summary_lines(self) -> list[str]:
        return [
            f"game        {self.game} ({self.players} players)",
            f"agent       {self.agent}",
            f"hands       {self.hands:,} in {self.seconds:.1f} s",
            f"LBR wins    {self.mbb_per_game:+.1f} ± {number(self.se, '.1f')} {self.unit} (a lower bound on the agent's exploitability)",
        ]


def lbr_agent(host, game: Game, opponents: list, *, seed: int = 0, options: dict[str, str] | None = None):
    """The game plugin's local best response against ``opponents`` (the agents in the other
    seats); :class:`MatchError` for bad options or a game without one."""
    try:
        lbr = host.pm.hook.gamesolve_lbr_agent(game=game, opponents=opponents, options=dict(options or {}), seed=seed)
    except ValueError as exc:
        raise MatchError(f"lbr: {exc}") from None
    if lbr is None:
        raise MatchError(f"no plugin provides local best response for {game.name}")
    return lbr


def run_lbr(host, game: Game, agent_text: str, hands: int, *, seed: int = 0, options: dict[str, str] | None = None,
            workers: int = 1, progress=None) -> LBRResult:  # fmt: skip
    """LBR against ``agent_text`` (``NAME[:KEY=VALUE...]``) in every other seat of ``game``."""
    texts = [agent_text] * (game.num_players - 1)
    opponents, _ = make_agents(host.agents, game, texts, seed, plugins=host.pm)
    lbr = lbr_agent(host, game, opponents, seed=seed, options=options)
    names = ["lbr"] + [f"{agent_text}#{i}" if len(texts) > 1 else agent_text for i in range(1, game.num_players)]
    result = play_match(game, [lbr] + opponents, hands, seed=seed, names=names, progress=progress, workers=workers)
    row = result.agents[0]
    return LBRResult(game.name, game.num_players, agent_text, result.hands, result.unit, row.win_rate, row.stderr,
                     row.p_value, result.seconds, seed, dict(options or {}))  # fmt: skip
