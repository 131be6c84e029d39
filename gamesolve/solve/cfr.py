"""Tabular CFR family (vanilla CFR, CFR+, Linear CFR, DCFR) over an explicit tree.

The algorithms are presets of one :class:`CFRConfig`; :class:`TabularCFR` owns the
slot-indexed regret and average tables and runs the kernel in batches so that callers
can show progress between them.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs
import numpy as np

from gamesolve.errors import OptionError
from gamesolve.game.explicit_tree import DECISION, ExplicitTree
from gamesolve.game.tree_walks import edge_players
from gamesolve.solve.kernels import tabular as K


@attrs.frozen
class CFRConfig:
    """Parameters of the CFR family.

    :ivar rm_plus: clip regrets at zero after every update (regret matching+).
    :ivar discount: discount accumulated regrets each iteration (Linear CFR, DCFR).
    :ivar alpha: positive regrets are multiplied by ``t^alpha / (t^alpha + 1)``.
    :ivar beta: negative regrets are multiplied by ``t^beta / (t^beta + 1)``.
    :ivar gamma: iteration ``t`` adds to the average strategy with weight ``t^gamma``.
    """

    name: str
    rm_plus: bool = False
    discount: bool = False
    alpha: float = 1.0
    beta: float = 1.0
    gamma: float = 0.0


TABULAR_ALGORITHMS: dict[str, CFRConfig] = {
    "cfr": CFRConfig("cfr"),
    "cfr+": CFRConfig("cfr+", rm_plus=True, gamma=1.0),
    "lcfr": CFRConfig("lcfr", discount=True, alpha=1.0, beta=1.0, gamma=1.0),
    "dcfr": CFRConfig("dcfr", discount=True, alpha=1.5, beta=0.0, gamma=2.0),
}
"""The presets; DCFR uses the paper's recommended alpha 1.5, beta 0, gamma 2."""

ORDERS = ("fast", "openspiel")
"""Summation orders of node values (``-o order=...``). ``fast``: child by child in reverse
preorder, one flat loop. ``openspiel``: each node's children in action order, as open-spiel
sums them, so that values equal in exact arithmetic come out equal in floating point too and
CFR+ follows open-spiel's iterates bit for bit through exact ties (regret matching+ clips the
same regrets to zero). Both are CFR exactly; they differ by rounding, which ties can amplify."""


def summation_order(value: str) -> str:
    """``value`` if it names a summation order; :class:`OptionError` naming the option otherwise."""
    if value not in ORDERS:
        raise OptionError("order", f"must be one of {', '.join(ORDERS)}; got {value!r}")
    return value


def player_index(tree: ExplicitTree) -> tuple[np.ndarray, ...]:
    """CSR lists of each player's decision nodes (with the slot of each one's first action)
    and infosets, and each infoset's first node (:data:`K.PlayerIndex`)."""
    decision = np.flatnonzero(tree.node_kind == DECISION)
    owners = tree.node_player[decision]
    order = np.argsort(owners, kind="stable")
    nodes = decision[order].astype(np.int32)
    nodes_slot = tree.edge_w[tree.child_list[tree.child_start[nodes]]].astype(np.int32)
    nodes_start = np.searchsorted(owners[order], np.arange(tree.num_players + 1)).astype(np.int32)
    infosets = np.argsort(tree.infoset_player, kind="stable").astype(np.int32)
    infosets_start = np.searchsorted(
        tree.infoset_player[infosets], np.arange(tree.num_players + 1)
    ).astype(np.int32)
    # Preorder: the smallest node id of an infoset is its first node.
    first_node = np.full(tree.num_infosets, np.iinfo(np.int32).max, dtype=np.int32)
    np.minimum.at(first_node, tree.node_infoset[decision], decision.astype(np.int32))
    return nodes_start, nodes, nodes_slot, infosets_start, infosets, first_node


def _read_only(array: np.ndarray) -> np.ndarray:
    view = array.view()
    view.flags.writeable = False
    return view


class TabularCFR:
    """Runs one CFR-family algorithm on a compiled tree and keeps its tables."""

    def __init__(self, tree: ExplicitTree, config: CFRConfig, order: str = "fast"):
        self.tree = tree
        self.config = config
        self.order = summation_order(order)
        self.iterations = 0
        # The tables are the kernel's: outside, read-only views (the kernel keeps the policy
        # of the regrets in ``W`` between calls, so a write from outside would leave it stale).
        self._regrets, self._avg = np.zeros(tree.num_slots), np.zeros(tree.num_slots)
        self.regrets, self.avg = _read_only(self._regrets), _read_only(self._avg)
        n = tree.num_nodes
        c = config
        # The kernel's arguments, built once (the arrays are updated in place) and passed as
        # plain tuples, which numba's dispatch types fastest (:func:`~K.cfr_run`).
        self._bundles = tuple(tuple(bundle) for bundle in (
            K.TreeArrays(tree.parent, tree.edge_w, edge_players(tree), tree.child_start, tree.child_list,
                         np.ascontiguousarray(tree.edge_w[tree.child_list]), np.ascontiguousarray(tree.utility.T),
                         tree.infoset_slot_start),
            K.PlayerIndex(*player_index(tree)),
            K.Tables(tree.weights(tree.uniform_policy()), self._regrets, self._avg),  # uniform: zero regrets matched
            K.Settings(c.rm_plus, c.discount, float(c.alpha), float(c.beta), float(c.gamma), self.order == "openspiel"),
            K.Scratch(np.empty(n), np.empty(n), np.empty(n)),
        ))  # fmt: skip

    def run(self, iterations: int, batch: int = 0, on_batch: Callable[[int], None] | None = None) -> None:
        """Run ``iterations`` more iterations, calling ``on_batch(done)`` after each batch."""
        if iterations <= 0:
            raise ValueError(f"iterations must be positive, got {iterations}")
        batch = batch or max(1, min(iterations, 1000))
        done = 0
        while done < iterations:
            step = min(batch, iterations - done)
            self._kernel(self.iterations + 1, self.iterations + step)
            self.iterations += step
            done += step
            if on_batch is not None:
                on_batch(step)

    def warm_up(self) -> None:
        """Load (or compile) the kernel without running an iteration, so that timings of
        :meth:`run` measure iterations only."""
        self._kernel(self.iterations + 1, self.iterations)

    def _kernel(self, first: int, last: int) -> None:
        K.cfr_run(*self._bundles, first, last)

    def average_policy(self) -> np.ndarray:
        """Slot-indexed average strategy (uniform at never-reached infosets)."""
        out = np.empty(self.tree.num_slots)
        K.normalise(self._avg, self.tree.infoset_slot_start, out)
        return out

    def current_policy(self) -> np.ndarray:
        """Slot-indexed strategy of the latest regrets (regret matching)."""
        out = np.empty(self.tree.num_slots)
        K.regret_matching(self._regrets, self.tree.infoset_slot_start, out, 0, self.tree.num_infosets)
        return out
