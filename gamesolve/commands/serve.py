"""``gamesolve serve``: the web table, one table per browser session (gamesolve/play/server.py)."""

from __future__ import annotations

from pathlib import Path

import click

from gamesolve.cli_params import POSITIVE_INT
from gamesolve.commands.support import host_from, one_line, table_game
from gamesolve.errors import InputError


@click.command()
@click.option("--game", "game_name", required=True, help="Game name (see `gamesolve games`).")
@click.option("--agents", "agent_list", required=True,
              help="Comma-separated agents for the other seats of every table (see `gamesolve agents`).")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on (localhost only unless told otherwise).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="Port (0: any free port).")
@click.option("--data", "data_dir", type=click.Path(path_type=Path), default=Path("gamesolve-play"), show_default=True,
              help="Folder for the tables' hand histories; the server reads and writes nothing else.")
@click.option("--seat", type=str, default="0", show_default=True, help="The person's seat in a table's first hand.")
@click.option("--hands", type=POSITIVE_INT, default=None, help="Hands per table (default: no limit).")
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed (each table gets its own, derived from it).")
@click.option("--players", type=POSITIVE_INT, default=None, help="Number of players (default: agents + 1).")
@click.option("--param", "-p", "params", multiple=True, help="Game parameter KEY=VALUE (repeatable).")
@click.option("--coach", "coach", default="auto", show_default=True, help="auto, none, or an agent spec (see `gamesolve play`).")
@click.option("--max-tables", type=click.IntRange(1, 10000), default=64, show_default=True, help="Tables open at once.")
@click.option("--workers", type=click.IntRange(1, 64), default=4, show_default=True, help="Threads the agents think in.")
@click.pass_context
def serve(ctx, game_name, agent_list, host, port, data_dir, seat, hands, seed, players, params, coach, max_tables, workers):
    """Serve a web table: play against agents in the browser (docs/play.md)."""
    try:
        import uvicorn

        from gamesolve.play.server import ServerConfig, create_app
    except ImportError as exc:
        raise InputError(f"gamesolve serve needs the play extra: pip install 'gamesolve[play]' ({exc})") from None
    from gamesolve.play.table import TableError, TableSpec, build_table

    plugin_host_ = host_from(ctx)
    game, texts, seat_no = table_game(plugin_host_, game_name, players, agent_list, seat, params)
    spec = TableSpec(game, texts, coach)
    try:  # one table built up front: a wrong agent or store fails here, in one line
        build_table(plugin_host_, spec, seat=seat_no, seed=seed, hands=hands, hh_path=None)
    except TableError as exc:
        raise InputError(str(exc)) from None
    if data_dir.exists() and not data_dir.is_dir():
        raise InputError(f"--data {data_dir} is not a folder")
    _check_listen(host, port)  # uvicorn would log a bind failure over several lines and exit 1 or 3
    data_dir.mkdir(parents=True, exist_ok=True)
    config = ServerConfig(spec, data_dir.resolve(), seat=seat_no, seed=seed, hands=hands, max_tables=max_tables, workers=workers)
    app = create_app(config, plugin_host_)
    click.echo(f"gamesolve: {game.describe()} against {', '.join(texts)}; hand histories in {config.data_dir}")
    if port:
        click.echo(f"gamesolve: open http://{host if ':' not in host else f'[{host}]'}:{port}/ (Ctrl-C stops)")
    else:  # the port the system picks is known once the server listens, when uvicorn logs its address
        click.echo("gamesolve: open the address uvicorn logs below, once it listens (Ctrl-C stops)")
    uvicorn.run(app, host=host, port=port, log_level="info", ws_max_size=65536)


def _check_listen(host: str, port: int) -> None:
    """That the server can listen on ``host``:``port`` (a name that resolves, an address of
    this machine, a free port): bound once and released, else one :class:`InputError` line."""
    import socket

    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does
            probe.bind(address)
    except OSError as exc:  # socket.gaierror included
        raise InputError(f"cannot listen on {host or repr(host)}:{port}: {exc.strerror or one_line(exc)}") from None
