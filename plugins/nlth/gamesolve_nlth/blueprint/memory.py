"""How much memory a blueprint needs, decided before training starts."""

from __future__ import annotations

import attrs
import psutil

from gamesolve_nlth.betting.action_abstraction import action_abstraction
from gamesolve_nlth.betting.betting_tree import estimate_betting_tree
from gamesolve_nlth.blueprint.presets import BlueprintPreset

TREE_BYTES_PER_NODE = 8 * 6 + 6 + 4 * 5 + 8  # commit (float64 x P), folded, node arrays, edges


@attrs.frozen
class MemoryEstimate:
    public_nodes: int
    infoset_actions: tuple[int, ...]  # per round
    table_bytes: int  # regrets (int32) + snapshot sums of later rounds + first-round average
    tree_bytes: int

    @property
    def total_bytes(self) -> int:
        return self.table_bytes + self.tree_bytes


def estimate_memory(preset: BlueprintPreset, players: int = 6, stack: int = 10_000, small_blind: int = 50,
                    big_blind: int = 100, samples: int = 200_000) -> MemoryEstimate:  # fmt: skip
    """Memory of the blueprint if every action sequence gets allocated (an upper bound; lazy
    allocation uses less), from a Knuth estimate of the betting tree's size."""
    size, _ = estimate_betting_tree(action_abstraction(preset.actions), players, stack, small_blind, big_blind, samples=samples)
    actions = size.infoset_actions(preset.cards.buckets)
    table = 4 * sum(actions) + 4 * sum(actions[1:]) + 4 * actions[0]
    return MemoryEstimate(size.nodes, actions, table, size.nodes * TREE_BYTES_PER_NODE)


def check_fits(estimate: MemoryEstimate, preset_name: str) -> None:
    """Refuse, with the figures, a preset whose fully allocated tables exceed this machine's RAM."""
    total = psutil.virtual_memory().total
    if estimate.total_bytes > 0.85 * total:
        raise MemoryError(
            f"preset {preset_name!r} needs about {estimate.total_bytes / 2**30:,.0f} GiB "
            f"({sum(estimate.infoset_actions):,} infoset-actions, {estimate.public_nodes:,} public nodes); "
            f"this machine has {total / 2**30:,.0f} GiB. Use a smaller preset (tiny, small)."
        )
