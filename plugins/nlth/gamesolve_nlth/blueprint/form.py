"""Hold'em in the core's factored form for MCCFR: the preset's betting tree plus generated
deals over its card abstraction (the board lives inside the buckets, not in the tree)."""

from __future__ import annotations

import os

import numpy as np

from gamesolve.game.factored import DECISION, TERMINAL, FactoredGame
from gamesolve.game.poker_form import CALL, FOLD, GOES_ON, POKER_CLASSES, terminal_fields
from gamesolve_nlth.abstraction.card_abstraction import build_card_abstraction
from gamesolve_nlth.betting.action_abstraction import action_abstraction
from gamesolve_nlth.betting.betting_tree import build_betting_tree
from gamesolve_nlth.blueprint.deals import HoldemDeals
from gamesolve_nlth.blueprint.presets import BlueprintPreset
from gamesolve_nlth.state import CHECK_CALL, FOLD as FOLD_ACTION, NLTHGame, raise_action


def training_threads() -> int:
    """MCCFR threads when ``--threads`` is not given: every core this process may use (a
    blueprint run is long and bounded in minutes; on 2 cores, 2 threads run 1.75x the
    iterations of one, docs/benchmarks.md). One thread is deterministic for a seed, two are
    not: ``--threads 1`` for a run that reproduces to the bit (with ``--iterations``)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # (not on every platform)
        return max(1, os.cpu_count() or 1)


def check_supported(game: NLTHGame) -> None:
    stacks = set(game.stacks)
    if len(stacks) != 1:
        raise ValueError("the blueprint is trained for equal stacks (one --param stacks value)")


def edge_labels(action_kind: np.ndarray, action_amount: np.ndarray) -> np.ndarray:
    """The game's action of each betting-tree edge: fold, check/call, or raise to the amount."""
    labels = np.asarray(raise_action(0) + action_amount, dtype=np.int64)
    labels[action_kind == FOLD] = FOLD_ACTION
    labels[action_kind == CALL] = CHECK_CALL
    return labels


def nlth_form(game: NLTHGame, preset: BlueprintPreset, card_abstraction=None, progress=None) -> FactoredGame:
    """The betting tree of ``preset`` for ``game``'s seats, stacks and blinds, with deals
    bucketed by the preset's card abstraction (built or loaded from the cache; a build, a
    minute or two for tiny, is shown on ``progress``)."""
    check_supported(game)
    tree = build_betting_tree(
        action_abstraction(preset.actions), game.num_players, game.stacks[0], game.small_blind, game.big_blind
    )
    cards = card_abstraction or build_card_abstraction(preset.cards, progress=progress)
    n = game.num_players
    poker_kind = tree["node_kind"]  # DECISION (= GOES_ON), FOLD_END or SHOWDOWN
    kind = np.where(poker_kind == GOES_ON, DECISION, TERMINAL).astype(np.int8)
    nodes = len(kind)
    return FactoredGame(
        game_name=game.name,
        params={**dict(game.params), "preset": preset.name, "card_abstraction": cards.params.key()},
        num_players=n,
        num_rounds=4,
        node_kind=kind,
        node_player=tree["node_player"],
        node_round=tree["node_round"],
        node_level=np.zeros(nodes, dtype=np.int32),
        child_start=tree["child_start"],
        child_list=tree["child_list"],
        edge_label=edge_labels(tree["action_kind"], tree["action_amount"]),
        edge_class=tree["action_kind"].astype(np.int8),
        row_owner=np.arange(nodes, dtype=np.int32),
        num_private=np.array(cards.num_buckets, dtype=np.int32),
        deals=HoldemDeals(n, cards.tables),
        class_names=POKER_CLASSES,
        regret_scale=1.0,
        mccfr_defaults=dict(preset.mccfr),
        default_minutes=preset.minutes,
        default_threads=training_threads(),
        describe=f"preset {preset.name}: {preset.description}",
        **terminal_fields(poker_kind, tree["commit"], tree["folded"]),
    )
