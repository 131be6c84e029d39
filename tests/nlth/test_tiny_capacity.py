"""The tiny preset (README command 1: six players, one thread) trains without dropping a row:
its tables hold every row of its betting tree, and a thread's reservoir holds any one
iteration's new rows. Checked from the betting tree and the bucket counts alone (the card
abstraction is not needed to size the tables), without training."""

from __future__ import annotations

import numpy as np

from gamesolve.game.factored import DECISION, TERMINAL
from gamesolve.game.poker_form import GOES_ON
from gamesolve.plugins import make_plugin_manager
from gamesolve.solve.kernels import mccfr as K
from gamesolve.solve.mccfr import default_capacity, headroom
from gamesolve_nlth import plugin as nlth_plugin
from gamesolve_nlth.betting.action_abstraction import action_abstraction
from gamesolve_nlth.betting.betting_tree import build_betting_tree
from gamesolve_nlth.blueprint.presets import PRESETS


def test_the_tiny_presets_tables_hold_every_row_and_a_reservoir_holds_any_iteration():
    preset = PRESETS["tiny"]
    _, game = make_plugin_manager(entry_points=False, plugins=[nlth_plugin]).game("nlth", 6, {})  # the default stacks and blinds
    tree = build_betting_tree(action_abstraction(preset.actions), 6, game.stacks[0], game.small_blind, game.big_blind)
    kind = np.where(tree["node_kind"] == GOES_ON, DECISION, TERMINAL).astype(np.int8)
    buckets = np.array([169, preset.cards.flop_buckets, preset.cards.turn_buckets, preset.cards.river_buckets])
    # as the trainer sizes them (nlth_form: one row per decision node, buckets x actions)
    sizes = np.where(kind == DECISION, buckets[tree["node_round"]] * np.diff(tree["child_start"]), 0).astype(np.int64)
    first_round = (sizes > 0) & (tree["node_round"] == 0)
    total, max_row = int(sizes.sum()), int(sizes.max())
    per_iteration = K.iteration_allocation_bound(kind, tree["node_player"], tree["child_start"], tree["child_list"],
                                                 np.arange(len(kind), dtype=np.int32), np.where(first_round, 0, sizes), 6)  # fmt: skip
    refill_below, reservoir = headroom(max_row, per_iteration)
    capacity = default_capacity(total, max_row, 1, per_iteration)

    assert refill_below >= per_iteration  # no iteration runs a reservoir dry
    # every later row fits, each reservoir handed out left with at most refill_below + max_row - 1 unused
    later = total - int(sizes[first_round].sum())
    reservoirs = -(-later // (reservoir - (refill_below + max_row - 1))) + 1
    assert capacity >= int(sizes[first_round].sum()) + reservoirs * reservoir
