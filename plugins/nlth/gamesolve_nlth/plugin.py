"""Registers no-limit Texas hold'em (``nlth``) with gamesolve."""

from __future__ import annotations

import sys

from gamesolve import hookimpl
from gamesolve.game import GameSpec, Parameter, ParameterError
from gamesolve_nlth.seats import MAX_PLAYERS, MIN_PLAYERS


def _is_nlth(game) -> bool:
    """Whether ``game`` is a hold'em game, without importing the rules engine: the hooks below
    are called for every game, and importing the engine builds the hand evaluator's tables,
    compiling its kernels, for a Kuhn solve too (issue 36). No NLTHGame exists unless its
    module has been imported."""
    state = sys.modules.get("gamesolve_nlth.state")
    return state is not None and isinstance(game, state.NLTHGame)


def make_nlth_game(players, stacks, small_blind, big_blind, button):
    """Factory for the registry: user-facing errors become ParameterError."""
    from gamesolve_nlth.state import NLTHGame  # imported lazily: numba compiles on first use

    try:
        return NLTHGame(players=players, stacks=stacks, small_blind=small_blind, big_blind=big_blind, button=button)
    except ValueError as exc:
        raise ParameterError(f"nlth: {exc}") from None


@hookimpl
def gamesolve_register_games(register):
    register(
        GameSpec(
            name="nlth",
            factory=make_nlth_game,
            description=(
                "No-limit Texas hold'em, 2-9 players (Pluribus rules: 10,000 chips, blinds 50/100; "
                "pokerkit's rulings on short all-ins; see docs/nlth-rules.md)"
            ),
            parameters={
                "players": Parameter(6, "number of players (seats 0..players-1)", int, MIN_PLAYERS, MAX_PLAYERS),
                "stacks": Parameter(
                    "10000", "starting stack: one number for every seat, or comma-separated per seat", str
                ),
                "small_blind": Parameter(50, "small blind in chips", int, 0),
                "big_blind": Parameter(100, "big blind in chips (also the minimum bet)", int, 1),
                "button": Parameter(0, "button seat of the first hand (moves one seat left per hand)", int, 0, MAX_PLAYERS - 1),
            },
            min_players=MIN_PLAYERS,
            max_players=MAX_PLAYERS,
            default_algo="mccfr-p",
            tabular=False,
        )
    )


def _agent_factory(kind: str):
    def factory(game, seed, **options):
        from gamesolve_nlth.agents import baselines  # lazily: numba compiles on first use

        return getattr(baselines, f"make_{kind}_agent")(game, seed, **options)

    factory.__name__ = f"make_{kind}_agent"
    return factory


@hookimpl
def gamesolve_register_agents(register):
    from gamesolve.agents import AgentSpec

    register(AgentSpec("random", _agent_factory("random"), "uniformly random legal action kind; raise sizes min / 1/2, 1, 2 pots / all-in (option sizes=uniform)", ("nlth",)))
    register(AgentSpec("call", _agent_factory("call"), "always checks or calls", ("nlth",)))
    register(AgentSpec("fold", _agent_factory("fold"), "folds to any bet, checks when free (always-fold)", ("nlth",)))
    register(
        AgentSpec(
            "blueprint",
            _blueprint_agent,
            "plays a trained blueprint (option store=PATH), pseudo-harmonic translation of off-tree bets",
            ("nlth",),
        )
    )
    register(
        AgentSpec(
            "tag",
            _agent_factory("tag"),
            "rule-based tight-aggressive: Chen score by position preflop, Monte Carlo equity vs pot odds postflop (options samples=300, cbet=0.6)",
            ("nlth",),
        )
    )


@hookimpl
def gamesolve_write_hand_histories(game, hands, path):
    """PHH hand histories: ``PATH.phhs`` -> one file with a ``[n]`` table per hand (pokerkit's
    ``HandHistory.loads_all``); any other PATH -> a folder of ``hand-NNNNNN.phh`` files."""
    if getattr(game, "name", None) != "nlth":
        return None
    if not hands:
        return 0
    from pathlib import Path

    from gamesolve_nlth import phh

    path = Path(path)
    if path.suffix == ".phhs":
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("w", encoding="utf-8") as f:
            for record in hands:
                f.write(f"[{record.number + 1}]\n")
                f.write(phh.dumps(record.state, players=list(record.seats), hand=record.number + 1))
                f.write("\n")
    else:
        path.mkdir(parents=True, exist_ok=True)
        for record in hands:
            text = phh.dumps(record.state, players=list(record.seats), hand=record.number + 1)
            (path / f"hand-{record.number + 1:06d}.phh").write_text(text, encoding="utf-8")
    return len(hands)


@hookimpl
def gamesolve_compile_game(game, form, options):
    """The blueprint's factored form for a preset (default ``tiny``)."""
    if form != "factored" or not _is_nlth(game):
        return None
    from gamesolve_nlth.blueprint.memory import check_fits
    from gamesolve_nlth.blueprint.form import check_supported, nlth_form
    from gamesolve_nlth.blueprint.presets import blueprint_preset

    preset = blueprint_preset(options.get("preset") or "tiny")
    check_supported(game)
    progress = options.get("progress")
    memory = check_fits(preset, game.num_players, game.stacks[0], game.small_blind, game.big_blind, progress)
    if progress is not None:
        progress.note(f"blueprint memory: {memory.describe()}")
    return nlth_form(game, preset, progress=progress)


@hookimpl
def gamesolve_stand_in_form(game, options):
    """The blueprint's form with a card abstraction of zeros (:func:`stand_in_abstraction`),
    for presets whose betting tree is small enough to build twice (``tiny``)."""
    if not _is_nlth(game):
        return None
    from gamesolve_nlth.abstraction.card_abstraction import stand_in_abstraction
    from gamesolve_nlth.betting.tree_count import TreeTooLarge
    from gamesolve_nlth.blueprint.form import check_supported, nlth_form
    from gamesolve_nlth.blueprint.memory import estimate_memory
    from gamesolve_nlth.blueprint.presets import blueprint_preset

    preset = blueprint_preset(options.get("preset") or "tiny")
    check_supported(game)
    try:
        estimate_memory(preset, game.num_players, game.stacks[0], game.small_blind, game.big_blind, limit=STAND_IN_NODES)
    except TreeTooLarge:
        return None
    return nlth_form(game, preset, card_abstraction=stand_in_abstraction(preset.cards))


STAND_IN_NODES = 2_000_000
"""Betting-tree nodes up to which the stand-in form is built (``tiny``: 234,455 six-handed;
``small``'s 9.6 M would hold another 1.4 GiB while the real one is built)."""


@hookimpl
def gamesolve_summarize_strategy(game, tree, rows, node_offset, seconds):
    if not _is_nlth(game):
        return None
    from gamesolve_nlth.blueprint.summary import opening_summary, trust_note

    result = opening_summary(game, tree, rows, node_offset)
    note = trust_note(tree.params.get("preset"), seconds)
    if note:
        result["summary"].append(note)
        result["demonstration"] = True
    return result


def _blueprint_agent(game, seed, **options):
    from gamesolve_nlth.agents.blueprint import make_blueprint_agent

    return make_blueprint_agent(game, seed, **options)


@hookimpl
def gamesolve_register_commands(cli):
    """``gamesolve abstraction build | quality | info | equity``, ``gamesolve spot`` and
    ``gamesolve acpc dealer | play``."""
    from gamesolve_nlth.abstraction.cli import abstraction_group
    from gamesolve_nlth.betting.info import info_command

    group = abstraction_group()
    if "info" not in group.commands:
        group.add_command(info_command)
    if "equity" not in group.commands:
        from gamesolve_nlth.evaluate.cli import equity_command

        group.add_command(equity_command)
    if "abstraction" not in cli.commands:
        cli.add_command(group)
    if "spot" not in cli.commands:
        from gamesolve_nlth.spot.cli import spot_command

        cli.add_command(spot_command)
    if "acpc" not in cli.commands:
        from gamesolve_nlth.acpc.cli import acpc_group

        cli.add_command(acpc_group)


@hookimpl
def gamesolve_play_view(game):
    """Seats, positions, stacks, bets, cards, board and pot; bets typed in chips, bb or pot fractions."""
    if not _is_nlth(game):
        return None
    from gamesolve_nlth.play_view import NLTHView

    return NLTHView(game)


@hookimpl
def gamesolve_strategy_chart(path):
    """The preflop chart of an nlth blueprint store (13x13 grid per position)."""
    from gamesolve_nlth.evaluate.chart import preflop_chart

    return preflop_chart(path)


@hookimpl
def gamesolve_aivat_estimator(game, agent, opponents, values):
    """AIVAT over the 1,326 hole-card pairs for agents that expose their range (blueprint,
    random, call, fold), with the value function named ``values`` (``VALUE_FUNCTIONS``; the
    walks use a model of the heads-up opponent)."""
    if not _is_nlth(game):
        return None
    from gamesolve_nlth.evaluate.aivat import make_estimator

    return make_estimator(game, agent, opponents, values)


@hookimpl
def gamesolve_search_agent(game, options, seed):
    """Real-time search over a blueprint: ``search:store=BP[:seconds=5:streets=2,3:...]``
    (:mod:`gamesolve_nlth.search.agent`)."""
    if not _is_nlth(game):
        return None
    from gamesolve_nlth.search.agent import make_search_agent

    return make_search_agent(game, seed, dict(options))


@hookimpl
def gamesolve_lbr_agent(game, opponents, options, seed):
    """Local best response for hold'em (gamesolve_nlth.evaluate.lbr)."""
    if not _is_nlth(game):
        return None
    from gamesolve_nlth.evaluate.lbr import make_lbr_agent

    return make_lbr_agent(game, opponents, options, seed)
