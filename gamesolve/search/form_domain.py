"""The search domain of any game with a lossless factored form: the core's range search agent
(:class:`~gamesolve.search.range_agent.RangeSearchAgent`) plays it with no search code in the
game's plugin.

What it takes from the game is its form (the generic compiler's, or its factored contract's at
any size: Liar's Dice with two dice of six sides has 16.7 million public nodes), a blueprint
read by public node (:class:`~gamesolve.search.policy.StoreRows`: a strategy store, read
lazily) and a :class:`~gamesolve.search.locate.FormLocator` that finds a history's node.

Where it searches: from the first public state whose rest of the game has at most
``end_nodes`` public nodes, the subgame to the end of the game with every action (no
abstraction, hence never an added action), over both players' ranges at that root: vector
CFR, the solver the core picks for that shape. Before it, the blueprint plays, and the ranges
are carried to the root by Bayes' rule with the blueprint (Algorithm 2, lines 16-19). On a game
whose whole tree is that small (Kuhn, Liar's Dice with one die) the first decision is the root
and one search covers the game.

Its private states are dealt once and kept to the end, with no public chance: what
:class:`~gamesolve.search.beliefs.ItemRanges` carries. Forms with public chance (Leduc's board
card) are searched by :class:`~gamesolve.search.nested.SearchAgent`.
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs
import numpy as np

from gamesolve.game.factored import CHANCE, FactoredGame, FormError, subtree_ends
from gamesolve.game.state import State
from gamesolve.search.abstraction import AllActions
from gamesolve.search.beliefs import ItemRanges
from gamesolve.search.domain import Path, RangeSubgame
from gamesolve.search.locate import FormLocator
from gamesolve.search.subgame import DepthLimit, SubgameSpec, build_subgame

END_NODES = 2**15
"""Default size of the rest of the game at which search starts: a vector CFR iteration over
that many nodes and 441 deals (Liar's Dice 2x6) takes a few milliseconds."""


class FormSearchDomain:
    """:class:`~gamesolve.search.domain.SearchDomain` over ``form`` (see the module docstring).

    :param rows: the blueprint by public node (``at(node) -> float[S, actions]``).
    :param end_nodes: search the rest of the game once it has at most this many public nodes.
    """

    def __init__(self, form: FactoredGame, rows, locator: FormLocator, end_nodes: int = END_NODES):
        if (form.node_kind == CHANCE).any():
            raise FormError(f"{form.game_name}: search over ranges of a form with public chance is not supported "
                            f"(its private states change with the public cards); the core's nested search plays it")  # fmt: skip
        if end_nodes < 1:
            raise ValueError(f"end_nodes must be at least 1, got {end_nodes}")
        self.form = form
        self.rows = rows
        self.locator = locator
        self.end_nodes = end_nodes
        self.items = np.full((int(form.num_private.max()), 1), -1, dtype=np.int64)  # no public items
        self._ends = subtree_ends(form)
        self._forms: dict[int, FactoredGame] = {}

    def _small(self, node: int) -> bool:
        return int(self._ends[node]) - node <= self.end_nodes

    def round_of(self, state: State) -> int:
        """0 while the blueprint plays, 1 once the rest of the game is small enough to search."""
        return int(self._small(self.locator.node(state)))

    def public_items(self, state: State) -> tuple[int, ...]:
        return ()

    def private_index(self, state: State, seat: int) -> int:
        return self.locator.private(state, seat)

    def private_indices(self, privates: np.ndarray) -> np.ndarray:
        return np.asarray(privates, dtype=np.int64)

    def plan(self, root: State, seat: int, triggered: bool) -> _ToTheEnd | None:
        node = self.locator.node(root)
        return _ToTheEnd(self, node) if self._small(node) else None

    def triggers(self, state: State, player: int, action: int, seat: int) -> bool:
        return False

    def blueprint_probs(self, state: State, player: int, action: int) -> np.ndarray:
        node = self.locator.node(state)
        column = int(np.flatnonzero(self.form.labels(node) == int(action))[0])
        return self.rows.at(node)[:, column].copy()

    def real_action(self, state: State, label: int) -> int:
        return int(label)

    FORMS_KEPT = 16

    def subgame_form(self, node: int) -> FactoredGame:
        """The rest of the game from ``node``, cut out of the form (the most recent kept: a
        match keeps returning to the same roots)."""
        form = self._forms.pop(node, None)
        if form is None:
            reach = np.ones((self.form.num_players, self.items.shape[0]))
            form = build_subgame(SubgameSpec(self.form, node, reach, (), AllActions(), DepthLimit.end_of_game(), None)).form
            while len(self._forms) >= self.FORMS_KEPT:
                del self._forms[next(iter(self._forms))]
        self._forms[node] = form
        return form


@attrs.frozen(eq=False)
class _ToTheEnd:
    """The rest of the game from ``node``, every action offered."""

    domain: FormSearchDomain
    node: int

    @property
    def memo_key(self) -> int:
        """The subgame depends on its root node alone (and on the ranges, which the agent adds)."""
        return self.node

    def label(self, state: State, action: int) -> int:
        return int(action)

    def subgame(self, added: Mapping[Path, set[int]], ranges: ItemRanges) -> RangeSubgame | None:
        if added:
            raise ValueError("a subgame that offers every action has none to add")
        form = self.domain.form
        deals = form.deals.listed
        weight = deals.prob.copy()
        for q in range(form.num_players):
            weight *= ranges.reach[q, deals.private[:, q, form.node_round[self.node]]]
        if not weight.any():
            return None  # the beliefs hold no deal
        return RangeSubgame(self.domain.subgame_form(self.node), root_reach=ranges.reach)
