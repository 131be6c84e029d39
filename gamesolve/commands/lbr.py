"""``gamesolve lbr``: local best response against an agent."""

from __future__ import annotations

import click

from gamesolve.cli_params import POSITIVE_INT, SEED
from gamesolve.commands.support import emit, host_from, make_game, one_line, parse_params
from gamesolve.errors import InputError, UserError
from gamesolve.registry import RegistryError


@click.command()
@click.option("--game", "game_name", required=True, help="Game name (nlth).")
@click.option("--agent", "agent_text", required=True, help="The agent to exploit: NAME or NAME:KEY=VALUE[:KEY=VALUE] (it must expose its strategy).")
@click.option("--hands", type=POSITIVE_INT, default=1000, help="Hands to play (whole duplicate deals).")
@click.option("--seed", type=SEED, default=0, help="Random seed (deals, agents, LBR).")
@click.option("--players", type=POSITIVE_INT, default=None, help="Number of players (default: the game's; -p players=2 also works).")
@click.option("--param", "-p", "params", multiple=True, help="Game parameter KEY=VALUE, e.g. -p players=2.")
@click.option("--option", "-o", "options", multiple=True, metavar="KEY=VALUE",
              help="LBR setting, e.g. -o sizes=fcpa|fc|fchpa|wide|0.5,1/1/1/1 -o preflop=call|lbr (docs/evaluation.md).")
@click.option("--workers", type=click.IntRange(1, 64), default=1, help="Processes to play the deals in (same result as 1).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (mbb_per_game, se, hands, ...) as the last line.")
@click.pass_context
def lbr(ctx, game_name, agent_text, hands, seed, players, params, options, workers, as_json):
    """Local best response against an agent: a lower bound on its exploitability (mbb/game for poker)."""
    from gamesolve.evaluate.lbr import run_lbr
    from gamesolve.evaluate.match import MatchError
    from gamesolve.progress import BarProgress

    host = host_from(ctx)
    n_hands = hands
    n_workers = workers
    game_params = parse_params(params)
    n_players = players if players is not None else game_params.pop("players", None)
    spec, game = make_game(host, game_name, n_players, game_params)
    try:
        with BarProgress(quiet=as_json) as progress:
            result = run_lbr(host, game, agent_text.strip(), n_hands, seed=seed, options=parse_params(options, "--option"),
                             workers=n_workers, progress=progress)  # fmt: skip
    except (RegistryError, MatchError, UserError) as exc:
        raise InputError(one_line(exc)) from None
    emit(result.as_dict(), as_json, result.summary_lines())
