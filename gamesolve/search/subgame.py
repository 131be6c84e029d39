"""Depth-limited imperfect-information subgames, built as factored games of their own.

A :class:`Subgame` is cut out of the game's lossless factored form, so the core's vector
CFR and MCCFR solve it with no search-only solver code:

* its root is a node of the form (the public state at the start of the betting round) with
  every player's reach over their private states (supplement, "Structure of
  imperfect-information subgames": the root's histories weighted by their reach);
* below it the game is played with the subgame's action abstraction, plus any action the
  nested search added (Algorithm 2, lines 5-7);
* at a *leaf* (the depth limit) every player still in play chooses one of k continuation
  strategies: a chain of decision nodes, one per chooser, whose nodes share a chooser's
  table rows (nobody sees the others' choice, and the choice depends only on the chooser's
  own information set), ending in table terminals holding the leaf's value on every deal for
  that joint choice (supplement, "Leaf node values in imperfect-information subgames");
* information sets whose probabilities are *frozen* (the searcher's own earlier actions in
  this round with its actual hand, Algorithm 2 line 13) are fixed for the solver.
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs
import numpy as np

from gamesolve.game.deals import ListedDeals
from gamesolve.game.factored import DECISION, TABLE, TERMINAL, FactoredGame
from gamesolve.search.abstraction import ActionAbstraction
from gamesolve.search.leaves import LeafEvaluator


@attrs.frozen
class DepthLimit:
    """Where a subgame's leaves are.

    :ivar end_of_round: leaves at the first history of the next round (its public chance).
    :ivar actions: also a leaf after this many actions below the root (None: no limit).
    :ivar raises: also a leaf right after this many raises below the root (Pluribus on the
        second round with more than two players: "immediately after the second raise").
    """

    end_of_round: bool = True
    actions: int | None = None
    raises: int | None = None

    @classmethod
    def end_of_game(cls) -> DepthLimit:
        return cls(end_of_round=False)

    @classmethod
    def parse(cls, text: str) -> DepthLimit:
        """The limit the search option ``depth`` names: ``game``, or ``+``-joined ``round``,
        ``actions:N``, ``raises:N`` (``round+raises:2``: the end of the round or right after
        the second raise); a bare number ``N`` is ``round+actions:N``. :class:`ValueError`
        names a part it does not know."""
        if text == "game":
            return cls.end_of_game()
        if text.isdigit():
            return cls(actions=_at_least_one("actions", text))
        end_of_round, limits = False, {}
        for part in text.split("+"):
            name, _, n = part.partition(":")
            if name == "round" and not n:
                end_of_round = True
            elif name in ("actions", "raises") and n:
                limits[name] = _at_least_one(name, n)
            else:
                raise ValueError(f"depth must be game, or round, actions:N, raises:N joined by '+', got {text!r}")
        return cls(end_of_round=end_of_round, **limits)

    @property
    def unlimited(self) -> bool:
        return not self.end_of_round and self.actions is None and self.raises is None

    def __str__(self) -> str:
        if self.unlimited:
            return "end of game"
        parts = ["end of round"] if self.end_of_round else []
        if self.actions is not None:
            parts.append(f"{self.actions} actions")
        if self.raises is not None:
            parts.append(f"{self.raises} raises")
        return " or ".join(parts)


def _at_least_one(name: str, text: str) -> int:
    n = int(text)
    if n < 1:
        raise ValueError(f"depth {name} must be at least 1, got {n}")
    return n


@attrs.frozen(eq=False)
class SubgameSpec:
    """Everything that defines one subgame."""

    form: FactoredGame  # the game's lossless factored form
    root: int  # node of ``form``
    root_reach: np.ndarray  # float[P, S]: every player's reach over private states at the root
    outcomes: tuple[int, ...]  # the public chance outcomes above the root
    abstraction: ActionAbstraction
    depth: DepthLimit
    leaf_values: LeafEvaluator | None  # None only with an unlimited depth
    added: frozenset[tuple[int, int]] = frozenset()  # (node, action) the search added
    frozen: Mapping[tuple[int, int], Mapping[int, float]] = attrs.field(factory=dict)  # (node, private) -> {action: p}


@attrs.frozen(eq=False)
class Subgame:
    """A built subgame: its factored form and how its nodes relate to the game's."""

    spec: SubgameSpec
    form: FactoredGame
    origin: np.ndarray  # int32[n]: the game's node of each subgame node, -1 in leaf choice chains
    node_of: dict[int, int]  # the game's node -> subgame node
    frozen: dict[tuple[int, int], np.ndarray]  # (subgame node, private) -> probabilities over its actions
    leaves: int

    def root_weights(self) -> np.ndarray:
        """Each listed deal's weight at the root: chance x every player's reach."""
        return self.form.deals.listed.weights(self.spec.root_reach, self.form.node_round[0])


def build_subgame(spec: SubgameSpec) -> Subgame:
    """Cut the subgame of ``spec`` out of its form (see the module docstring)."""
    form = spec.form
    if spec.leaf_values is None and not spec.depth.unlimited:
        raise ValueError("a depth-limited subgame needs leaf values")
    raise_class = form.class_names.index("raise") if "raise" in form.class_names else -1
    if spec.depth.raises is not None and raise_class < 0:
        raise ValueError(f"{form.game_name} has no raise actions to count (depth raises:N)")
    b = _Builder(form)
    root_round = form.node_round[spec.root]
    added: dict[int, set[int]] = {}
    for node, action in spec.added:
        added.setdefault(node, set()).add(action)
    stack = [(spec.root, -1, 0, -1, 0, 0)]
    while stack:
        node, parent, label, cls, actions, raises = stack.pop()
        kind = form.node_kind[node]
        leaf = node != spec.root and kind != TERMINAL and _is_leaf(spec.depth, form.node_round[node] > root_round, actions, raises)
        if leaf:
            b.leaf(node, parent, label, cls, spec.leaf_values)
            continue
        me = b.copy_node(node, parent, label, cls)
        if kind == TERMINAL:
            continue
        start = form.child_start[node]
        labels = [int(x) for x in form.labels(node)]
        if kind == DECISION:
            offered = set(spec.abstraction.offered(form, node)) | added.get(node, set())
            keep = [k for k, a in enumerate(labels) if a in offered]
            if not keep:
                raise ValueError(f"the action abstraction offers nothing at {form.node_keys[node]!r}")
        else:
            keep = list(range(len(labels)))
        for k in reversed(keep):
            edge = start + k
            c = int(form.edge_class[edge])
            stack.append((int(form.child_list[edge]), me, labels[k], c, actions + (kind == DECISION), raises + (c == raise_class and raise_class >= 0)))
    sub_form = b.finish(spec)
    frozen = {}
    for (node, private), dist in spec.frozen.items():
        sub = b.node_of.get(node)
        if sub is None:
            continue
        probs = np.array([dist.get(int(a), 0.0) for a in sub_form.labels(sub)])
        if probs.sum() <= 0:
            raise ValueError(f"frozen probabilities at {form.node_keys[node]!r} give no offered action positive weight")
        frozen[(sub, private)] = probs / probs.sum()
    return Subgame(spec, sub_form, np.array(b.origin, dtype=np.int32), b.node_of, frozen, b.leaves)


def _is_leaf(depth: DepthLimit, later_round: bool, actions: int, raises: int) -> bool:
    if depth.unlimited:
        return False
    if depth.end_of_round and later_round:
        return True
    if depth.actions is not None and actions >= depth.actions:
        return True
    return depth.raises is not None and raises >= depth.raises


class _Builder:
    """Accumulates the subgame's arrays node by node (preorder)."""

    def __init__(self, form: FactoredGame):
        self.form = form
        self.kind, self.player, self.round, self.level, self.keys = [], [], [], [], []
        self.owner, self.settled, self.settled_value = [], [], []
        self.term_kind, self.payoff, self.contender, self.term_row = [], [], [], []
        self.children: list[list[int]] = []
        self.labels: list[list[int]] = []
        self.classes: list[list[int]] = []
        self.origin: list[int] = []
        self.node_of: dict[int, int] = {}
        self.table_rows: list[np.ndarray] = []
        self.table_index: dict[int, int] = {}  # the game's table row -> ours
        self.leaves = 0

    def _new(self, source: int, parent: int, label: int, cls: int, kind: int, player: int, origin: int) -> int:
        f = self.form
        me = len(self.kind)
        self.kind.append(kind)
        self.player.append(player)
        self.round.append(int(f.node_round[source]))
        self.level.append(int(f.node_level[source]))
        self.keys.append(f.node_keys[source] if f.node_keys else "")
        self.owner.append(me)
        self.settled.append(f.settled[source])
        self.settled_value.append(f.settled_value[source])
        self.term_kind.append(-1)
        self.payoff.append(f.payoff[source])
        self.contender.append(f.contender[source])
        self.term_row.append(-1)
        self.children.append([])
        self.labels.append([])
        self.classes.append([])
        self.origin.append(origin)
        if parent >= 0:
            self.children[parent].append(me)
            self.labels[parent].append(label)
            self.classes[parent].append(cls)
        return me

    def copy_node(self, node: int, parent: int, label: int, cls: int) -> int:
        f = self.form
        me = self._new(node, parent, label, cls, int(f.node_kind[node]), int(f.node_player[node]), node)
        self.node_of[node] = me
        if f.node_kind[node] == TERMINAL:
            self.term_kind[me] = int(f.term_kind[node])
            if f.term_kind[node] == TABLE:
                row = int(f.term_row[node])
                if row not in self.table_index:
                    self.table_index[row] = len(self.table_rows)
                    self.table_rows.append(f.table[row])
                self.term_row[me] = self.table_index[row]
        return me

    def leaf(self, node: int, parent: int, label: int, cls: int, leaf_values: LeafEvaluator) -> None:
        """The choice chain of a leaf at the game's ``node``."""
        f = self.form
        self.leaves += 1
        choosers = f.in_play(node)
        k = leaf_values.k if choosers else 1
        values = leaf_values.values(node, choosers if k > 1 else [])
        combo = 0
        # Breadth by chooser: chooser i has k ** i nodes, all on the first one's rows.
        frontier = [(parent, label, cls)]
        for i, chooser in enumerate(choosers if k > 1 else []):
            nxt = []
            first = -1
            for par, lab, c in frontier:
                me = self._new(node, par, lab, c, DECISION, chooser, -1)
                if first < 0:
                    first = me
                self.owner[me] = first
                nxt.extend((me, a, -1) for a in range(k))
            frontier = nxt
        for par, lab, c in frontier:
            me = self._new(node, par, lab, c, TERMINAL, -1, -1)
            self.term_kind[me] = TABLE
            self.term_row[me] = len(self.table_rows)
            self.table_rows.append(values[combo])
            combo += 1

    def finish(self, spec: SubgameSpec) -> FactoredGame:
        f = self.form
        # Children were attached in creation order; renumber to preorder by a walk.
        order: list[int] = []
        stack = [0]
        while stack:
            n = stack.pop()
            order.append(n)
            stack.extend(reversed(self.children[n]))
        new = np.empty(len(order), dtype=np.int64)
        new[order] = np.arange(len(order))
        o = np.array(order)
        children = [[int(new[c]) for c in self.children[n]] for n in order]
        child_start = np.zeros(len(order) + 1, dtype=np.int32)
        np.cumsum([len(c) for c in children], out=child_start[1:])
        self.origin = [self.origin[n] for n in order]
        self.node_of = {g: int(new[s]) for g, s in self.node_of.items()}
        deals = f.deals.listed
        consistent = np.ones(deals.count, dtype=bool)
        for level, outcome in enumerate(spec.outcomes):
            consistent &= deals.public[:, level] == outcome
        # Deals of other public chance get probability 0 (the rest is renormalised; kept as
        # they are when nothing is removed, so a whole-game subgame is the game bit for bit).
        sub_deals = deals if consistent.all() else ListedDeals(
            deals.private, deals.public, np.where(consistent, deals.prob, 0.0) / deals.prob[consistent].sum(), deals.strength
        )  # fmt: skip
        n_players = f.num_players
        table = np.array(self.table_rows) if self.table_rows else np.zeros((0, deals.count, n_players))
        return FactoredGame(
            game_name=f.game_name,
            params={**dict(f.params), "subgame_root": f.node_keys[spec.root] if f.node_keys else spec.root},
            num_players=n_players,
            num_rounds=f.num_rounds,
            node_kind=np.array(self.kind, dtype=np.int8)[o],
            node_player=np.array(self.player, dtype=np.int32)[o],
            node_round=np.array(self.round, dtype=np.int32)[o],
            node_level=np.array(self.level, dtype=np.int32)[o],
            child_start=child_start,
            child_list=np.array([c for cs in children for c in cs], dtype=np.int32),
            edge_label=np.array([a for n in order for a in self.labels[n]], dtype=np.int64),
            edge_class=np.array([c for n in order for c in self.classes[n]], dtype=np.int8),
            row_owner=new[np.array(self.owner, dtype=np.int64)[o]].astype(np.int32),
            settled=np.array(self.settled, dtype=bool)[o],
            settled_value=np.array(self.settled_value, dtype=np.float64)[o],
            term_kind=np.array(self.term_kind, dtype=np.int8)[o],
            payoff=np.array(self.payoff, dtype=np.float64)[o],
            contender=np.array(self.contender, dtype=bool)[o],
            term_row=np.array(self.term_row, dtype=np.int32)[o],
            table=table,
            num_private=f.num_private,
            deals=sub_deals,
            class_names=f.class_names,
            regret_scale=f.regret_scale,
            node_keys=tuple(self.keys[n] for n in order),
        )
