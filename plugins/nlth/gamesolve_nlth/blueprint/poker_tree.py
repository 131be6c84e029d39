"""Hold'em compiled to the core's poker-tree form for MCCFR: the preset's betting tree plus a
deal source over its card abstraction."""

from __future__ import annotations

import numpy as np

from gamesolve.game.poker_tree import PokerTree
from gamesolve_nlth.abstraction.card_abstraction import build_card_abstraction
from gamesolve_nlth.betting.action_abstraction import action_abstraction
from gamesolve_nlth.betting.betting_tree import build_betting_tree
from gamesolve_nlth.blueprint.deals import DealSource
from gamesolve_nlth.blueprint.presets import BlueprintPreset
from gamesolve_nlth.state import NLTHGame


def check_supported(game: NLTHGame) -> None:
    stacks = set(game.stacks)
    if len(stacks) != 1:
        raise ValueError("the blueprint is trained for equal stacks (one --param stacks value)")


def nlth_poker_tree(game: NLTHGame, preset: BlueprintPreset, card_abstraction=None, progress=None) -> PokerTree:
    """The betting tree of ``preset`` for ``game``'s seats, stacks and blinds, with deals
    bucketed by the preset's card abstraction (built or loaded from the cache; a build, a
    minute or two for tiny, is shown on ``progress``)."""
    check_supported(game)
    tree = build_betting_tree(
        action_abstraction(preset.actions), game.num_players, game.stacks[0], game.small_blind, game.big_blind
    )
    tree.pop("size")
    cards = card_abstraction or build_card_abstraction(preset.cards, progress=progress)
    n = game.num_players
    return PokerTree(
        game_name=game.name,
        params={**dict(game.params), "preset": preset.name, "card_abstraction": cards.params.key()},
        num_players=n,
        num_rounds=4,
        num_buckets=np.array(cards.num_buckets, dtype=np.int32),
        deal_buckets=np.zeros((1, n, 4), dtype=np.int32),
        deal_rank=np.zeros((1, n), dtype=np.int32),
        regret_scale=1.0,
        mccfr_defaults=dict(preset.mccfr),
        default_minutes=preset.minutes,
        describe=f"preset {preset.name}: {preset.description}",
        deal_source=DealSource(n, cards.tables),
        **tree,
    )
