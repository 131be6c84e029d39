"""Registers no-limit Texas hold'em (``nlth``) with gamesolve."""

from __future__ import annotations

from gamesolve import hookimpl
from gamesolve.game import GameSpec, Parameter, ParameterError
from gamesolve_nlth.engine import MAX_PLAYERS, MIN_PLAYERS


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
