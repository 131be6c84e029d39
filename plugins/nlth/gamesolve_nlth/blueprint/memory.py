"""How much memory a blueprint needs: one estimate, shown by ``gamesolve abstraction info``
and checked by ``gamesolve solve`` before training starts.

The model (docs/abstraction.md, "The blueprint's action abstraction and memory"):

* the betting tree is counted exactly (:mod:`gamesolve_nlth.betting.tree_count`);
* tables, as the MCCFR trainer keeps them (gamesolve/solve/mccfr.py): an int32 regret per
  infoset-action (decision node x card bucket of its round x action), plus a float32 average
  per first-round infoset-action; later rounds' snapshots go to disk with ``--out``;
* lazy allocation: the first round is allocated up front, a later round's rows when their
  action sequence is first reached; the preset's ``reached`` fraction of them is allocated
  (``pluribus``: the paper's 413,507,309 of 664,845,654 sequences; the small presets are
  assumed reached in full, an upper bound);
* the tree as the trainer holds it: the factored form's arrays, the allocation offset per
  node, the kernels' two int32 node stacks (one thread) and the traversal's node and edge
  records.
"""

from __future__ import annotations

import attrs
import psutil

from gamesolve.solve.kernels.mccfr import EDGE_RECORD, NODE_RECORD, PREFETCH_NODES
from gamesolve.solve.mccfr import default_capacity
from gamesolve_nlth.betting.action_abstraction import action_abstraction
from gamesolve_nlth.betting.betting_tree import TreeSize
from gamesolve_nlth.betting.tree_count import TreeTooLarge, count_betting_tree
from gamesolve_nlth.blueprint.presets import BlueprintPreset

REGRET_BYTES = 4  # int32 regret per infoset-action
AVERAGE_BYTES = 4  # float32 first-round average per first-round infoset-action
STOP_FACTOR = 10  # `solve` stops counting a tree that alone would need 10x this machine's RAM


def tree_bytes_per_node(players: int, wide_offsets: bool, prefetch: bool = True) -> int:
    """Bytes per public node of the tree in training: the factored form's node and edge arrays
    (kind, player, round, level, child start, row owner, terminal kind and row; child, label
    and class per edge: one edge per node but the root) and its per-player arrays (settled,
    settled value, payoff, contender), the allocation offset (int64 once the tables pass
    2**31 entries), two int32 traversal stacks, the traversal's node record and, in trees of
    ``PREFETCH_NODES`` or more (``prefetch``), its edge record."""
    form = 1 + 4 + 4 + 4 + 4 + 4 + 1 + 4 + (4 + 8 + 1) + players * (1 + 8 + 8 + 1)
    records = NODE_RECORD.itemsize + (EDGE_RECORD.itemsize if prefetch else 0)
    return form + (8 if wide_offsets else 4) + 2 * 4 + records


@attrs.frozen
class MemoryEstimate:
    tree: TreeSize
    buckets: tuple[int, ...]
    reached: float  # fraction of the later rounds' action sequences allocated
    players: int

    @property
    def infoset_actions(self) -> tuple[int, ...]:
        """Per round: actions at decision nodes times the round's card buckets."""
        return self.tree.infoset_actions(self.buckets)

    @property
    def full_table_bytes(self) -> int:
        """Tables if every action sequence is allocated."""
        ia = self.infoset_actions
        return REGRET_BYTES * sum(ia) + AVERAGE_BYTES * ia[0]

    @property
    def table_bytes(self) -> int:
        """Tables with lazy allocation: the first round whole, later rounds at ``reached``."""
        ia = self.infoset_actions
        return (REGRET_BYTES + AVERAGE_BYTES) * ia[0] + round(REGRET_BYTES * self.reached * sum(ia[1:]))

    @property
    def tree_bytes(self) -> int:
        # the trainer's capacity (one thread), with rows of at most 16 actions (fold, call, all-in
        # and the paper's 13 open sizes): an upper bound
        wide = default_capacity(sum(self.infoset_actions), 16 * max(self.buckets), 1) >= 2**31 - 1
        return self.tree.nodes * tree_bytes_per_node(self.players, wide, self.tree.nodes >= PREFETCH_NODES)

    @property
    def total_bytes(self) -> int:
        """Training's working set with lazy allocation."""
        return self.table_bytes + self.tree_bytes

    def describe(self) -> str:
        """One line with the figures (the same in ``abstraction info`` and ``solve``)."""
        return (f"{self.total_bytes / 2**30:,.1f} GiB ({self.total_bytes / 1e12:.3f} TB) with lazy allocation: "
                f"tables {self.table_bytes / 2**30:,.1f} GiB ({self.reached:.1%} of later-round sequences), "
                f"tree {self.tree_bytes / 2**30:,.1f} GiB; "
                f"{(self.full_table_bytes + self.tree_bytes) / 2**30:,.1f} GiB if every sequence is allocated")  # fmt: skip

    def to_dict(self) -> dict:
        return {
            "infoset_actions": list(self.infoset_actions),
            "reached_fraction": self.reached,
            "table_bytes": self.table_bytes,
            "full_table_bytes": self.full_table_bytes,
            "tree_bytes": self.tree_bytes,
            "total_bytes": self.total_bytes,
        }


def estimate_memory(preset: BlueprintPreset, players: int = 6, stack: int = 10_000, small_blind: int = 50,
                    big_blind: int = 100, progress=None, limit: int | None = None) -> MemoryEstimate:  # fmt: skip
    """The blueprint's memory from the exact size of its betting tree (see the module
    docstring); :class:`TreeTooLarge` past ``limit`` nodes."""
    abstraction = action_abstraction(preset.actions)
    tree = count_betting_tree(abstraction, players, stack, small_blind, big_blind, progress, limit)
    return MemoryEstimate(tree, preset.cards.buckets, preset.reached, players)


def check_fits(preset: BlueprintPreset, players: int, stack: int, small_blind: int, big_blind: int,
               progress=None) -> MemoryEstimate:  # fmt: skip
    """The estimate, after refusing (with the figures) a preset whose working set exceeds this
    machine's RAM. The count stops early, with a lower bound, once the tree alone would need
    :data:`STOP_FACTOR` times the RAM."""
    ram = psutil.virtual_memory().total
    budget = 0.85 * ram
    have = f"this machine has {ram / 2**30:,.0f} GiB. Use a smaller preset (tiny, small)."
    limit = int(STOP_FACTOR * budget / tree_bytes_per_node(players, False))
    try:
        estimate = estimate_memory(preset, players, stack, small_blind, big_blind, progress, limit)
    except TreeTooLarge as exc:
        need = exc.nodes * tree_bytes_per_node(players, False)
        raise MemoryError(f"preset {preset.name!r} needs more than {need / 2**30:,.0f} GiB ({exc}); {have}") from None
    if estimate.total_bytes > budget:
        raise MemoryError(f"preset {preset.name!r} needs about {estimate.describe()}; {have}")
    return estimate
