"""The search domain of any game with a lossless factored form: the core's range search agent
(:class:`~gamesolve.search.range_agent.RangeSearchAgent`) plays it with no search code in the
game's plugin.

What it takes from the game is its form (the generic compiler's, or its factored contract's at
any size: Liar's Dice with two dice of six sides has 16.7 million public nodes), a blueprint
read by public node (:class:`~gamesolve.search.policy.StoreRows`: a strategy store, read
lazily) and a :class:`~gamesolve.search.locate.FormLocator` that finds a history's node.

Where it searches (a new root, Algorithm 2's lines 16-19, at each one; the ranges carried from
root to root by Bayes' rule with sigma):

* from the first public state whose rest of the game has at most ``end_nodes`` public nodes
  and no public chance, the subgame to the end of the game. On a game whose whole tree is that
  small (Kuhn, Liar's Dice with one die) the first decision is the root and one search covers
  the game;
* before it, with a ``depth`` limit (:class:`~gamesolve.search.subgame.DepthLimit`), at the
  start of every betting round (public chance starts one) and, within a round, wherever the
  subgame from the last root has its leaves (``actions:N``, ``raises:N``): the subgame from
  there to the leaves, where each player picks one of the blueprint's continuation strategies
  (supplement, "Depth-limited search"; the exact values of
  :class:`~gamesolve.search.leaves.ExactLeafValues` where the blueprint is read by key,
  :class:`~gamesolve.search.leaves.StoredLeafValues` for a blueprint in a strategy store), or
  with ``depth=game`` to the end of the game; ``search_rounds`` and ``first_round`` name the
  betting rounds that search;
* elsewhere the blueprint plays. With ``depth=game`` a round that does not search keeps the
  last search's strategy, which reaches the end of the game: the round continues the last
  searched one (its public chance on the way).

Every subgame offers every action unless an ``abstraction`` says otherwise
(:class:`~gamesolve.search.abstraction.RemoveActions`: tests and experiments with off-tree
actions); an opponent's action it does not offer is added where it was taken and the round is
re-solved (Algorithm 2, lines 5-7), or, in a round the blueprint plays (``first_round``), it
triggers a search of the rest of the round from the state after it. Subgames are solved over
the players' ranges at the root: vector CFR, or Linear MCCFR over deals drawn from the beliefs
for subgames of more than ``sampling_above`` public nodes (Pluribus' choice for large ones).
Roots are public states, the same for every seat, so the round a state is in is a function of
the state (:meth:`FormSearchDomain.round_of`).

Beliefs are ranges; ``exact_beliefs`` enumerates the histories instead
(:class:`~gamesolve.search.beliefs.HistoryRanges`, the check: both give the same subgames).

Its private states are dealt once and kept to the end (what
:class:`~gamesolve.search.beliefs.ItemRanges` carries); public chance may come between them
(Leduc's board card): it starts a new round (but with ``depth=game`` in a round that does not
search), and the subgame of a round keeps only the deals its public outcomes allow.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

import attrs
import numpy as np

from gamesolve.game.factored import CHANCE, FactoredGame, FormError, round_segments, subtree_ends
from gamesolve.game.state import CHANCE as CHANCE_PLAYER
from gamesolve.game.state import State
from gamesolve.search.abstraction import ActionAbstraction, AllActions
from gamesolve.search.beliefs import HistoryRanges, ItemRanges
from gamesolve.search.domain import Path, RangeSubgame
from gamesolve.search.leaves import LeafEvaluator
from gamesolve.search.locate import FormLocator
from gamesolve.search.subgame import DepthLimit, SubgameSpec, build_subgame

LAST_ROUND = 1 << 30
"""The round of the states searched to the end of the game."""

END_NODES = 2**15
"""Default size of the rest of the game at which search starts: a vector CFR iteration over
that many nodes and 441 deals (Liar's Dice 2x6) takes a few milliseconds."""


class FormSearchDomain:
    """:class:`~gamesolve.search.domain.SearchDomain` over ``form`` (see the module docstring).

    :param rows: the blueprint by public node (``at(node) -> float[S, actions]``).
    :param end_nodes: search the rest of the game once it has at most this many public nodes.
    :param abstraction: the actions subgames offer (None: every action).
    :param sampling_above: solve subgames of more public nodes than this by Linear MCCFR.
    :param exact_beliefs: enumerate the histories instead of carrying ranges (the check).
    """

    def __init__(self, form: FactoredGame, rows, locator: FormLocator, end_nodes: int = END_NODES,
                 depth: DepthLimit | None = None, leaves: LeafEvaluator | None = None, first_round: bool = True,
                 search_rounds: tuple[int, ...] | None = None, abstraction: ActionAbstraction | None = None,
                 sampling_above: int | None = None, exact_beliefs: bool = False):  # fmt: skip
        chance = form.node_kind == CHANCE
        if chance.any() and not form.has_constant_private_states():
            raise FormError(f"{form.game_name}: search over ranges needs private states that public chance leaves as "
                            f"they are (one reach vector per player); a game that deals private information after public "
                            f"chance cannot be searched")  # fmt: skip
        if end_nodes < 1:
            raise ValueError(f"end_nodes must be at least 1, got {end_nodes}")
        if depth is not None and not depth.unlimited and leaves is None:
            raise ValueError(f"a depth-limited search ({depth}) needs leaf values")
        if exact_beliefs and not locator.keyed:
            raise ValueError(f"search option beliefs=exact enumerates histories by key; the form of {form.game_name} keeps "
                             f"no keys (its blueprint is read by public node)")  # fmt: skip
        self.form = form
        self.rows = rows
        self.locator = locator
        self.end_nodes = end_nodes
        self.items = np.full((int(form.num_private.max()), 1), -1, dtype=np.int64)  # no public items
        self.depth = depth
        self.leaves = leaves
        self.first_round = first_round
        self.search_rounds = search_rounds
        self.abstraction = abstraction
        self.sampling_above = sampling_above
        self.exact_beliefs = exact_beliefs
        self._ends = subtree_ends(form)
        # Public chance below a node (preorder: its subtree is the range node .. end - 1).
        counts = np.concatenate([[0], np.cumsum(chance)])
        self._chance_below = counts[self._ends] > counts[np.arange(form.num_nodes)]
        self._segments = None if depth is None or depth.unlimited else round_segments(form, depth.actions, depth.raises)
        # depth=game: the round each level continues (the last searched one up to it, else its own)
        self._continues = None
        if depth is not None and depth.unlimited:
            levels = range(int(form.node_level.max(initial=0)) + 1)
            searched = [r for r in levels if self._searches(r)]
            self._continues = [max((r for r in searched if r <= level), default=level) for level in levels]
        self._chance_into: dict[int, tuple[int, ...]] = {}
        self._parent = None
        self.subgame_form = functools.lru_cache(maxsize=self.FORMS_KEPT)(self._cut)

    def _to_the_end(self, node: int) -> bool:
        """Whether the rest of the game from ``node`` is searched whole: small enough, and no
        public chance in it (range beliefs are carried across chance from root to root)."""
        return int(self._ends[node]) - node <= self.end_nodes and not self._chance_below[node]

    def round_of(self, state: State) -> int:
        """The betting round (the public chance nodes above), cut into the stretches the depth
        limit's actions and raises give (a new root at each), and a last one once the rest
        of the game is searched to its end. With ``depth=game`` a round that does not search
        continues the last one that did (whose subgame reaches the end of the game)."""
        node = self.locator.node(state)
        level = int(self.form.node_level[node])
        if self._continues is not None:
            return self._continues[level]
        if self._to_the_end(node):
            return LAST_ROUND
        within = 0 if self._segments is None else int(self._segments[node])
        return level * (1 << 20) + within

    def initial_ranges(self):
        """The beliefs at the start of a hand: ranges, or every history (``exact_beliefs``)."""
        if self.exact_beliefs:
            return HistoryRanges.initial(self.locator)
        return ItemRanges.initial(self.items, self.form.num_players)

    def public_items(self, state: State) -> tuple[int, ...]:
        return ()

    def private_index(self, state: State, seat: int) -> int:
        return self.locator.private(state, seat)

    def private_indices(self, privates: np.ndarray) -> np.ndarray:
        return np.asarray(privates, dtype=np.int64)

    def plan(self, root: State, seat: int, triggered: bool) -> _Subgame | None:
        node = self.locator.node(root)
        if not triggered and not self._searches(int(self.form.node_level[node])):
            return None
        if self._to_the_end(node):
            return _Subgame(self, node, None)
        if self.depth is None:
            return None
        if self.depth.unlimited:
            return _Subgame(self, node, None, bool(self._chance_below[node]))
        return _Subgame(self, node, self.depth)

    def _searches(self, betting_round: int) -> bool:
        """Whether a root in ``betting_round`` (0: the first) searches: ``search_rounds``, and
        the first round only with ``first_round`` (Pluribus plays the blueprint there)."""
        if self.search_rounds is not None and betting_round not in self.search_rounds:
            return False
        return self.first_round or betting_round > 0

    def _links(self) -> tuple[np.ndarray, np.ndarray]:
        """``(parent, edge_into)`` of every node (built on first use: a large form's walks
        between roots never need them)."""
        if self._parent is None:
            form = self.form
            self._parent = np.full(form.num_nodes, -1, dtype=np.int64)
            self._parent[form.child_list] = np.repeat(np.arange(form.num_nodes), form.num_actions)
            self._edge_into = np.zeros(form.num_nodes, dtype=np.int64)
            self._edge_into[form.child_list] = np.arange(len(form.child_list))
        return self._parent, self._edge_into

    def outcomes(self, node: int) -> tuple[int, ...]:
        """The public chance outcomes on the way to ``node``."""
        found = self._chance_into.get(node)
        if found is None:
            form = self.form
            parent, edge_into = self._links()
            out, at = [], node
            while parent[at] >= 0:
                if form.node_kind[parent[at]] == CHANCE:
                    out.append(int(form.edge_label[edge_into[at]]))
                at = int(parent[at])
            found = self._chance_into[node] = tuple(reversed(out))
        return found

    def chance_label(self, state: State, action: int) -> int:
        """The form's label of the public chance outcome ``action`` at ``state``."""
        _, edge_into = self._links()
        return int(self.form.edge_label[edge_into[self.locator.node(state.child(action))]])

    def offered(self, node: int) -> set[int]:
        """The actions the subgames offer at ``node`` (before any is added)."""
        abstraction = self.abstraction if self.abstraction is not None else AllActions()
        return {int(a) for a in abstraction.offered(self.form, node)}

    def triggers(self, state: State, player: int, action: int, seat: int) -> bool:
        """An action the abstraction does not offer, taken in a round the blueprint plays,
        makes the rest of the round searched (as Pluribus searches the first round only after
        an off-tree action)."""
        if self.abstraction is None:
            return False
        node = self.locator.node(state)
        return not self._searches(int(self.form.node_level[node])) and int(action) not in self.offered(node)

    def blueprint_probs(self, state: State, player: int, action: int) -> np.ndarray:
        node = self.locator.node(state)
        column = int(np.flatnonzero(self.form.labels(node) == int(action))[0])
        return self.rows.at(node)[:, column].copy()

    def real_action(self, state: State, label: int) -> int:
        return int(label)

    FORMS_KEPT = 16

    def _cut(self, node: int, depth: DepthLimit | None, added: frozenset[tuple[int, int]] = frozenset()) -> FactoredGame:
        """The subgame from ``node`` to the leaves of ``depth`` (their continuation choices
        chained below them), or to the end of the game (None), with the ``added`` actions
        (node, action) beside the abstraction's. Nothing in it depends on the ranges, so
        :meth:`subgame_form` keeps the most recent (a match keeps returning to the same roots)."""
        reach = np.ones((self.form.num_players, self.items.shape[0]))
        limit = DepthLimit.end_of_game() if depth is None else depth
        abstraction = self.abstraction if self.abstraction is not None else AllActions()
        spec = SubgameSpec(self.form, node, reach, self.outcomes(node), abstraction, limit, None if depth is None else self.leaves,
                           added=added)  # fmt: skip
        return build_subgame(spec).form

    def added_nodes(self, root: int, added: Mapping[Path, set[int]]) -> frozenset[tuple[int, int]]:
        """The ``(node, action)`` pairs of the actions ``added`` by path from ``root``."""
        out = set()
        for path, labels in added.items():
            node = root
            for label in path:
                node = int(self.form.children(node)[list(self.form.labels(node)).index(label)])
            out.update((node, int(label)) for label in labels)
        return frozenset(out)


@attrs.frozen(eq=False)
class _Subgame:
    """The subgame from ``node``, the abstraction's actions offered: to the leaves of ``depth``,
    or to the end."""

    domain: FormSearchDomain
    node: int
    depth: DepthLimit | None
    spans_chance: bool = False  # public chance inside (``depth=game`` from a root above it)

    @property
    def offers_every_action(self) -> bool:
        """Without an abstraction an opponent never leaves the subgame."""
        return self.domain.abstraction is None

    @property
    def memo_key(self) -> tuple[int, DepthLimit | None]:
        """The subgame depends on its root and depth alone (and the ranges and added actions,
        which the agent adds)."""
        return self.node, self.depth

    def label(self, state: State, action: int) -> int:
        if self.spans_chance and state.current_player() == CHANCE_PLAYER:
            return self.domain.chance_label(state, action)
        return int(action)

    def subgame(self, added: Mapping[Path, set[int]], ranges) -> RangeSubgame | None:
        domain = self.domain
        form = domain.form
        if not form.deals.listed.weights(ranges.reach, form.node_round[self.node], domain.outcomes(self.node)).any():
            return None  # the beliefs hold no deal
        cut = domain.subgame_form(self.node, self.depth, domain.added_nodes(self.node, added))
        if domain.sampling_above is not None and cut.num_nodes > domain.sampling_above:
            # Monte Carlo: the deals drawn by their weight at the root (chance x every reach).
            weights = cut.deals.listed.weights(ranges.reach, cut.node_round[0])
            return RangeSubgame(attrs.evolve(cut, deals=cut.deals.listed.reweighted(weights)))
        return RangeSubgame(cut, root_reach=ranges.reach)
