"""Hook specifications: the whole surface a plugin can implement.

Every hook is prefixed ``gamesolve_``; enumerations take a ``register`` callback so the
registry can detect name clashes and remember which plugin registered what. Hooks are
always called with keyword arguments and hookimpls must not declare default values
(pluggy silently ignores them; pytest-dev/pluggy#442).
"""

from __future__ import annotations

import pluggy

PROJECT_NAME = "gamesolve"

hookspec = pluggy.HookspecMarker(PROJECT_NAME)
hookimpl = pluggy.HookimplMarker(PROJECT_NAME)


@hookspec
def gamesolve_register_games(register):
    """Register games.

    :param register: call ``register(spec)`` with a :class:`gamesolve.game.GameSpec` for
        every game the plugin provides.
    """


@hookspec
def gamesolve_register_solvers(register):
    """Register solvers.

    :param register: call ``register(spec)`` with a :class:`gamesolve.solve.SolverSpec`.
    """


@hookspec
def gamesolve_register_agents(register):
    """Register agents that can play a game.

    :param register: call ``register(spec)`` with a :class:`gamesolve.agents.AgentSpec`.
    """


@hookspec
def gamesolve_register_commands(cli):
    """Add click commands or groups to the ``gamesolve`` command line.

    :param cli: the root :class:`click.Group`; call ``cli.add_command(...)``.
    """


@hookspec(firstresult=True)
def gamesolve_compile_game(game, form):
    """Compile ``game`` to a compiled ``form`` faster than the generic compiler can.

    :param game: a :class:`gamesolve.game.Game` instance.
    :param form: the name of the compiled form wanted (``"explicit_tree"`` or
        ``"poker_tree"``).
    :return: the compiled object, or ``None`` to let another plugin (or the core's
        generic compiler) handle it.
    """
