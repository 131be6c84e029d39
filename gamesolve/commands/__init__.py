"""The core's commands of the ``gamesolve`` line, one module per command (``solve.py``,
``exploitability.py``, ``match.py``, ...), and the helpers several of them share
(``support.py``). They are added to the ``gamesolve`` group through the hook plugins add
theirs with, :func:`gamesolve_register_commands`; gamesolve/cli.py calls it (docs/architecture.md:
the commands are the top layer; nothing below them imports them)."""

from __future__ import annotations

from gamesolve.hookspecs import hookimpl


@hookimpl
def gamesolve_register_commands(cli):
    """``gamesolve games | agents | plugins | solve | exploitability | match | play | serve |
    cache | bench | store | lbr | plot | export | import``."""
    from gamesolve.commands.agents import agents
    from gamesolve.commands.bench import bench
    from gamesolve.commands.cache import cache
    from gamesolve.commands.exploitability import exploitability
    from gamesolve.commands.games import games
    from gamesolve.commands.lbr import lbr
    from gamesolve.commands.match import match
    from gamesolve.commands.play import play
    from gamesolve.commands.plugins import plugins
    from gamesolve.commands.serve import serve
    from gamesolve.commands.solve import solve
    from gamesolve.commands.store import store
    from gamesolve.commands.openspiel import export_command, import_command
    from gamesolve.commands.plot import plot_command

    for command in (games, agents, plugins, solve, exploitability, match, play, serve, cache, bench, store, lbr, plot_command,
                    export_command, import_command):  # fmt: skip
        if command.name not in cli.commands:
            cli.add_command(command)
