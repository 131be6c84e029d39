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


@hookspec(firstresult=True)
def gamesolve_resolve_game(name):
    """A game for a name no plugin registered, resolved on demand: a family of games named
    by a prefix (``openspiel:NAME`` -- any open-spiel game) rather than listed one by one.

    :param name: the game name asked for, without parameters (``"openspiel:kuhn_poker"``).
    :return: a :class:`gamesolve.game.GameSpec` for it, or ``None`` if the name is not this
        plugin's. Raise :class:`gamesolve.registry.RegistryError` or
        :class:`gamesolve.errors.UserError` (one line) for a name that is the plugin's but
        cannot be had (no such game; a library not installed).
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
def gamesolve_compile_game(game, form, options):
    """Compile ``game`` to a compiled ``form`` faster than the generic compiler can.

    :param game: a :class:`gamesolve.game.Game` instance.
    :param form: the name of the compiled form wanted (``"explicit_tree"`` or
        ``"factored"``: a :class:`gamesolve.game.factored.FactoredGame`, e.g. an abstraction).
    :param options: a dict of compile options, e.g. ``{"preset": "tiny"}`` (an abstraction
        preset for games that need one); implementations may ignore it.
    :return: the compiled object, or ``None`` to let another plugin (or the core's
        generic compiler) handle it.
    """


@hookspec(firstresult=True)
def gamesolve_stand_in_form(game, options):
    """A stand-in for the factored form ``gamesolve_compile_game(form="factored")`` gives
    ``game`` with ``options``: the same tree and the same array types, made in seconds because
    the slow tables are left out (nlth: a card abstraction of zeros, every hand in bucket 0).
    ``gamesolve solve`` trains it for a few iterations in a second process while the real form
    is built, so that the training's kernels are compiled by then (:mod:`gamesolve.solve.warm`).
    Never trained for a result.

    :return: the stand-in, or ``None`` (no stand-in: the kernels compile when first needed;
        also for forms too large to build twice).
    """


@hookspec(firstresult=True)
def gamesolve_write_hand_histories(game, hands, path):
    """Write the hands of a match as hand histories (``gamesolve match --hh PATH``).

    :param game: the :class:`gamesolve.game.Game` the hands were played in.
    :param hands: a sequence of :class:`gamesolve.evaluate.match.HandRecord` (hand number,
        deal, rotation, agent name per seat, terminal state, returns). May be empty: the
        host calls the hook once with no hands before a match to learn whether any plugin
        writes this game, and a writer then returns ``0`` without touching ``path``.
    :param path: a :class:`pathlib.Path` to write to (its meaning, file or folder, is the
        writer's; the NLTH plugin writes PHH).
    :return: the number of hands written, or ``None`` when the plugin does not write this
        game (another plugin may).
    """


@hookspec(firstresult=True)
def gamesolve_summarize_strategy(game, tree, rows, node_offset, iterations, seconds):
    """Describe a trained poker-tree strategy the way a player of the game would.

    :param game: the :class:`gamesolve.game.Game` trained.
    :param tree: its :class:`gamesolve.game.factored.FactoredGame`.
    :param rows: the strategy's probabilities in table layout.
    :param node_offset: first table entry of each public node (-1 where never reached).
    :param iterations: iterations trained, over every run of the store.
    :param seconds: seconds of training, over every run (say when that is too short to trust).
    :return: a dict with ``"summary"`` (lines to print) and any JSON-able figures, or None.
    """


@hookspec(firstresult=True)
def gamesolve_play_view(game):
    """How people see and play ``game`` at a table (``gamesolve play``, ``gamesolve serve``).

    :param game: a :class:`gamesolve.game.Game` instance.
    :return: a :class:`gamesolve.play.view.PlayView` for it -- what a seat sees
        (``table``: seats with names, positions, stacks, bets and cards, the board, the pot),
        the legal actions as a menu (``menu``: choices, and bet sizes as a range with
        presets), typed actions parsed (``parse``: text -> contract action, or
        ``IllegalAction`` with a one-line message), each action described for the log
        (``describe``), and the unit results are reported in (``unit``) -- or ``None`` when
        the plugin does not draw this game (the core's generic view then draws it from
        ``legal_actions``, ``action_to_string`` and the information-state keys).
        docs/play.md shows a plugin's view.
    """


@hookspec(firstresult=True)
def gamesolve_strategy_chart(path):
    """A chart of a stored strategy as a poker player reads it (``gamesolve plot --kind strategy``).

    :param path: a :class:`pathlib.Path` given on the command line (a solve's ``--out``).
    :return: a :class:`gamesolve.plot.figures.Figure` (e.g. the NLTH plugin's preflop chart:
        a 13x13 grid of hand classes per position), or ``None`` when the store is not the
        plugin's.
    """


@hookspec(firstresult=True)
def gamesolve_aivat_estimator(game, agent, opponents, values):
    """An AIVAT estimator for ``agent`` in ``game`` faster than the core's enumeration of
    worlds through the state API (``gamesolve match --aivat``; docs/evaluation.md).

    :param game: the :class:`gamesolve.game.Game` of the match.
    :param agent: one of the match's agents.
    :param opponents: the match's other agents, in match order (a value function may use a
        model of their play, fixed before the match: it keeps the estimate unbiased).
    :param values: the name of the value function asked for (``--aivat-values``), or None
        for the plugin's default; a name the plugin does not offer raises
        :class:`gamesolve.evaluate.aivat.AivatError` (one line, with the names offered).
    :return: an object with ``estimate(log, seat) -> float`` (``log`` a
        :class:`gamesolve.evaluate.aivat.HandLog`: the hand's transitions and final state;
        the estimate in the game's units), or ``None`` to leave the agent to the core (which
        evaluates agents that expose their strategy and a tabular reference policy).
    """


@hookspec(firstresult=True)
def gamesolve_lbr_agent(game, opponents, options, seed):
    """A local best response agent for ``game`` (``gamesolve lbr``; docs/evaluation.md).

    :param game: the :class:`gamesolve.game.Game` (its number of players).
    :param opponents: the agents LBR plays against: match agents 1..P-1 (LBR is agent 0 and
        sits in seat ``r`` in rotation ``r``; agent ``i`` in seat ``(i + r) % P``).
    :param options: ``{key: value}`` strings from ``--option KEY=VALUE``.
    :param seed: the seed of LBR's own random numbers.
    :return: an :class:`gamesolve.agents.Agent`, or ``None`` if the plugin has no LBR for the
        game. Raise ``ValueError`` with a message fit for a user on bad options.
    """


@hookspec(firstresult=True)
def gamesolve_search_agent(game, options, seed):
    """A real-time search agent for ``game`` (``gamesolve match --agents search:store=BP...``)
    where the core's do not fit it: the core searches a game's lossless factored form (any size,
    gamesolve/search/player.py); a plugin whose blueprint is an abstraction (hold'em) returns a
    :class:`~gamesolve.search.range_agent.RangeSearchAgent` over its own
    :class:`~gamesolve.search.domain.SearchDomain`.

    :param game: the :class:`gamesolve.game.Game` of the match.
    :param options: ``{key: value}`` strings from the agent text (``store`` among them).
    :param seed: the agent's seed.
    :return: an :class:`gamesolve.agents.Agent`, or ``None`` to leave the game to the core's
        search. Raise ``ValueError`` with a message fit for a user on bad options.
    """
