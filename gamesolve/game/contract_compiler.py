"""The factored contract to the factored form, at the cost of public nodes.

:class:`~gamesolve.game.factored_contract.FactoredContract` describes a game by its public
tree; this module walks that tree once (an explicit stack, children in action order, so the
nodes come out in preorder) and lays it out as the arrays of
:class:`~gamesolve.game.factored.FactoredGame`. Nothing is walked per deal: deals enter as
vectors (public chance probabilities, terminal values), so a game of 33 million public nodes
and 441 deals costs 33 million steps, not 15 billion.

The form equals the generic compiler's (:mod:`gamesolve.game.factored_compiler`) for a game
that offers both, array for array (tests/core/test_factored_contract.py): the same preorder,
deal order (private deal first, then public chance outcomes in the order met), terminal
kinds, ``settled`` facts and regret scale. Only the numbering of shared table rows differs.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable

import numpy as np
from gamesolve.game.deals import ListedDeals
from gamesolve.game.factored import (
    CHANCE, DECISION, FIXED, SMALL_GAME_MCCFR_DEFAULTS, TABLE, TERMINAL, FactoredGame, FormError,
)  # fmt: skip
from gamesolve.game.factored_compiler import REPORT_EVERY, _regret_scale
from gamesolve.game.factored_contract import FactoredContract
from gamesolve.game.settled import settle
from gamesolve.game.state import CHANCE as CHANCE_PLAYER
from gamesolve.game.state import TERMINAL as TERMINAL_PLAYER

KEY_LIMIT = 2_000_000
"""Public nodes up to which the form keeps every node's public key, and with it the map from
information-state keys to table rows (explicit-tree evaluation, search, policy export).
Above it those keys would cost more memory than the tables; exact evaluation then runs on
the form itself (:mod:`gamesolve.evaluate.vector_best_response`)."""


class _Paths:
    """The tree of public chance outcomes met so far: each path's parent, outcome, level and
    probability given each listed private deal (float[D0])."""

    def __init__(self, num_deals: int):
        self.parent = [-1]
        self.outcome = [-1]
        self.level = [0]
        self.prob = [np.ones(num_deals)]
        self.index: dict[tuple[int, int], int] = {}
        self.step: dict[tuple[int, int], np.ndarray] = {}

    def extend(self, path: int, outcome: int, prob: np.ndarray, where: str) -> int:
        key = (path, outcome)
        known = self.index.get(key)
        if known is not None:
            if not np.allclose(self.step[key], prob, rtol=0, atol=1e-12):
                raise FormError(f"public chance at {where} has probabilities that depend on earlier actions")
            return known
        self.index[key] = len(self.parent)
        self.step[key] = prob
        self.parent.append(path)
        self.outcome.append(outcome)
        self.level.append(self.level[path] + 1)
        self.prob.append(self.prob[path] * prob)
        return self.index[key]

    def leaves(self) -> list[int]:
        """Paths nobody extends, in depth-first order (children in the order met)."""
        kids: list[list[int]] = [[] for _ in self.parent]
        for q in range(1, len(self.parent)):
            kids[self.parent[q]].append(q)
        out, stack = [], [0]
        while stack:
            q = stack.pop()
            if kids[q]:
                stack.extend(reversed(kids[q]))
            else:
                out.append(q)
        return out

    def outcomes(self, q: int) -> list[int]:
        path = []
        while self.parent[q] >= 0:
            path.append(self.outcome[q])
            q = self.parent[q]
        return path[::-1]

    def ancestors(self, q: int) -> set[int]:
        out = set()
        while q >= 0:
            out.add(q)
            q = self.parent[q]
        return out


def compile_contract(contract: FactoredContract, game_name: str, params: dict, describe: str = "",
                     on_nodes: Callable[[int], None] | None = None, key_limit: int = KEY_LIMIT) -> FactoredGame:  # fmt: skip
    """The factored form of a game that describes itself by ``contract``; ``on_nodes(k)`` is
    told about every :data:`REPORT_EVERY` public nodes built (a progress bar)."""
    n_players = int(contract.num_players)
    labels = [list(contract.private_states(p)) for p in range(n_players)]
    private0, prob0 = _checked_deals(contract, labels, describe or game_name)
    n0 = len(prob0)
    paths = _Paths(n0)

    kind, player, level = array("b"), array("i"), array("i")
    parent, label, klass, term_row = array("i"), array("q"), array("i"), array("i")
    keys: list[str] | None = []
    class_ids: dict[str, int] = {}
    fixed_nodes, fixed_values = array("q"), []  # FIXED terminals and their payoffs
    rows: dict[tuple, int] = {}  # (terminal key, path) -> TABLE row, or -1 - (index into fixed_values)
    row_values: list[np.ndarray] = []
    row_path: list[int] = []

    stack = [(contract.root(), -1, -1, -1, 0, 0)]
    while stack:
        state, up, edge, edge_class, lv, path = stack.pop()
        node = len(kind)
        if on_nodes is not None and node and node % REPORT_EVERY == 0:
            on_nodes(REPORT_EVERY)
        who = int(contract.player(state))
        kind.append(DECISION if who >= 0 else CHANCE if who == CHANCE_PLAYER else TERMINAL)
        player.append(who if who >= 0 else -1)
        level.append(lv)
        parent.append(up)
        label.append(edge)
        klass.append(edge_class)
        if keys is not None:
            if node >= key_limit:
                keys = None  # too many to keep (KEY_LIMIT)
            else:
                keys.append(contract.public_key(state))
        if who >= 0:
            term_row.append(-1)
            actions = [int(a) for a in contract.actions(state)]
            if not actions:
                raise FormError(f"{game_name}: a decision node has no actions at {contract.public_key(state)!r}")
            names = _class_names(contract, state, actions)
            for a, name in zip(reversed(actions), reversed(names)):
                cid = class_ids.setdefault(name, len(class_ids))
                stack.append((contract.child(state, a), node, a, cid, lv, path))
        elif who == CHANCE_PLAYER:
            term_row.append(-1)
            where = repr(contract.public_key(state))
            branches = []
            for outcome, prob in contract.chance_outcomes(state):
                vector = np.broadcast_to(np.asarray(prob, dtype=np.float64), (n0,)).copy()
                branches.append((int(outcome), paths.extend(path, int(outcome), vector, where)))
            total = sum(paths.step[(path, o)] for o, _ in branches) if branches else np.zeros(n0)
            if not np.all(np.isclose(total, 1.0) | np.isclose(total, 0.0)):
                raise FormError(f"{game_name}: public chance at {where} has probabilities that do not sum to 1")
            for outcome, child_path in reversed(branches):
                stack.append((contract.child(state, outcome), node, outcome, -1, lv + 1, child_path))
        elif who == TERMINAL_PLAYER:
            key = contract.terminal_key(state)
            row = rows.get((key, path)) if key is not None else None
            if row is None:
                row = _terminal_row(contract, state, n_players, n0, paths.prob[path] > 0, fixed_values, row_values, game_name)
                if row >= 0:
                    row_path.append(path)
                if key is not None:
                    rows[(key, path)] = row
            if row < 0:
                fixed_nodes.append(node)
            term_row.append(row)
        else:
            raise FormError(f"{game_name}: player() returned {who}, neither a player, CHANCE nor TERMINAL")

    return _assemble(
        contract, game_name, params, describe, labels, private0, prob0, paths, kind, player, level, parent,
        label, klass, class_ids, term_row, fixed_nodes, fixed_values, row_values, row_path, keys,
    )  # fmt: skip


def _checked_deals(contract: FactoredContract, labels: list[list[str]], what: str) -> tuple[np.ndarray, np.ndarray]:
    private, prob = contract.deals()
    private = np.asarray(private, dtype=np.int32)
    prob = np.asarray(prob, dtype=np.float64)
    n_players = len(labels)
    if private.ndim != 2 or private.shape[1] != n_players or prob.shape != (private.shape[0],):
        raise FormError(f"{what}: deals() must give private int[D, {n_players}] and prob float[D]")
    for p in range(n_players):
        if len(private) and (private[:, p].min() < 0 or private[:, p].max() >= len(labels[p])):
            raise FormError(f"{what}: a deal gives player {p} a private state outside private_states({p})")
    if np.any(prob < 0) or not np.isclose(prob.sum(), 1.0):
        raise FormError(f"{what}: deal probabilities must be non-negative and sum to 1 (sum {prob.sum():g})")
    return private, prob


def _class_names(contract: FactoredContract, state, actions: list[int]) -> list[str]:
    names = [contract.action_class(state, a) for a in actions]
    if all(name is not None for name in names):
        return names
    return ["first" if i == 0 else "last" if i == len(actions) - 1 else "middle" for i in range(len(actions))]


def _terminal_row(contract, state, n_players, n0, reached, fixed_values, row_values, game_name) -> int:
    """A TABLE row index (>= 0) or ``-1 - i`` for the FIXED payoff ``fixed_values[i]``."""
    values = np.asarray(contract.terminal_values(state), dtype=np.float64)
    if values.shape == (n_players,):
        fixed = values
    elif values.shape == (n0, n_players):
        seen = values[reached]
        fixed = seen[0] if len(seen) and np.all(seen == seen[0]) else None
    else:
        raise FormError(f"{game_name}: terminal_values at {contract.public_key(state)!r} has shape {values.shape}, "
                        f"expected ({n_players},) or ({n0}, {n_players})")  # fmt: skip
    if fixed is not None:
        fixed_values.append(np.array(fixed))
        return -len(fixed_values)
    row_values.append(values)
    return len(row_values) - 1


def _assemble(contract, game_name, params, describe, labels, private0, prob0, paths, kind, player, level,
              parent, label, klass, class_ids, term_row, fixed_nodes, fixed_values, row_values, row_path, keys) -> FactoredGame:  # fmt: skip
    n_players = len(labels)
    kind = np.frombuffer(kind, dtype=np.int8)
    n = len(kind)
    parent = np.frombuffer(parent, dtype=np.int32)
    # Preorder with children pushed in reverse: a node's children are numbered in action
    # order, so a stable sort by parent lists them in order.
    child_list = (np.argsort(parent[1:], kind="stable") + 1).astype(np.int32)
    child_start = np.zeros(n + 1, dtype=np.int32)
    np.cumsum(np.bincount(parent[1:], minlength=n), out=child_start[1:])
    edge_label = np.frombuffer(label, dtype=np.int64)[child_list]
    edge_class, class_names = _edge_classes(np.frombuffer(klass, dtype=np.int32)[child_list], edge_label, class_ids)

    # Deals: each private deal, then each full public chance path in the order met.
    leaves = paths.leaves()
    n_levels = max(paths.level) if len(paths.level) else 0
    d0 = np.repeat(np.arange(len(prob0)), len(leaves))
    leaf = np.tile(np.arange(len(leaves)), len(prob0))
    prob = prob0[d0] * np.array([paths.prob[q] for q in leaves])[leaf, d0] if len(leaves) else prob0
    keep = prob > 0
    d0, leaf, prob = d0[keep], leaf[keep], prob[keep]
    public = np.full((len(d0), n_levels), -1, dtype=np.int32)
    for i, q in enumerate(leaves):
        outcomes = paths.outcomes(q)
        public[np.ix_(leaf == i, np.arange(len(outcomes)))] = outcomes
    n_rounds = n_levels + 1
    private = np.repeat(private0[d0][:, :, None], n_rounds, axis=2)
    deals = ListedDeals(private=private, public=public, prob=prob / prob.sum())

    # Terminal values: FIXED payoffs per node, TABLE rows over the full deals.
    term_row = np.frombuffer(term_row, dtype=np.int32).copy()
    term_kind = np.full(n, -1, dtype=np.int8)
    terminal = kind == TERMINAL
    term_kind[terminal] = np.where(term_row[terminal] >= 0, TABLE, FIXED)
    payoff = np.zeros((n, n_players))
    fixed_nodes = np.frombuffer(fixed_nodes, dtype=np.int64)
    if len(fixed_nodes):
        payoff[fixed_nodes] = np.array(fixed_values)[-1 - term_row[fixed_nodes]]
    term_row[term_kind == FIXED] = -1
    table = np.zeros((len(row_values), len(d0), n_players))
    row_lo = np.zeros((len(row_values), n_players))
    row_hi = np.zeros((len(row_values), n_players))
    leaf_ancestors = [paths.ancestors(q) for q in leaves]
    for r, (values, q) in enumerate(zip(row_values, row_path)):
        under = np.array([q in anc for anc in leaf_ancestors], dtype=bool)[leaf]  # deals that reach the row's path
        table[r, under] = values[d0[under]]
        row_lo[r], row_hi[r] = table[r, under].min(axis=0), table[r, under].max(axis=0)
    player = np.frombuffer(player, dtype=np.int32).copy()
    settled, settled_value = _settled(kind, player, child_start, child_list, term_kind, payoff, term_row, row_lo, row_hi)
    levels = np.frombuffer(level, dtype=np.int32).copy()
    locate, key_of, keys_at = _key_maps(contract, labels, keys, kind, player, private0, prob0)
    form = FactoredGame(
        game_name=game_name,
        params=dict(params),
        num_players=n_players,
        num_rounds=n_rounds,
        node_kind=kind.copy(),
        node_player=player,
        node_round=levels + (kind == CHANCE),  # a chance node opens the next round
        node_level=levels,
        child_start=child_start,
        child_list=child_list,
        edge_label=edge_label,
        edge_class=edge_class,
        row_owner=np.arange(n, dtype=np.int32),  # public actions: every node its own rows
        settled=settled,
        settled_value=settled_value,
        term_kind=term_kind,
        payoff=payoff,
        contender=np.zeros((n, n_players), dtype=bool),
        term_row=term_row,
        table=table,
        num_private=np.full(n_rounds, max(len(x) for x in labels), dtype=np.int32),
        deals=deals,
        class_names=class_names,
        regret_scale=_regret_scale(payoff, table),
        mccfr_defaults={**SMALL_GAME_MCCFR_DEFAULTS, **({"prune_last_round": True} if n_rounds == 1 else {})},
        describe="lossless (factored contract)",
        node_keys=tuple(keys) if keys is not None else (),
        locate=locate,
        key_of=key_of,
        private_keys=keys_at,
        lossless=True,
    )  # fmt: skip
    form.check()
    return form


def _edge_classes(raw: np.ndarray, edge_label: np.ndarray, class_ids: dict[str, int]) -> tuple[np.ndarray, tuple[str, ...]]:
    """Edge classes numbered as the generic compiler numbers them: in the order of the
    smallest action label that carries each (poker: fold, call, raise); -1 on chance edges."""
    first = {name: int(edge_label[raw == i].min()) for name, i in class_ids.items() if np.any(raw == i)}
    names = tuple(sorted(first, key=lambda c: (first[c], c)))
    remap = np.full(len(class_ids) + 1, -1, dtype=np.int8)  # the last entry: raw -1 (chance)
    for new, name in enumerate(names):
        remap[class_ids[name]] = new
    return remap[raw], names


def _settled(kind, player, child_start, child_list, term_kind, payoff, term_row, row_lo, row_hi):
    """``settled``/``settled_value`` (gamesolve/game/settled.py) from the terminals' payoffs:
    FIXED ones, and each TABLE row's lowest and highest over the deals that reach it."""
    lowest, highest = payoff.copy(), payoff.copy()
    table = term_kind == TABLE
    lowest[table], highest[table] = row_lo[term_row[table]], row_hi[term_row[table]]
    return settle(kind, player, child_start, child_list, lowest, highest)


def _key_maps(contract, labels, keys, kind, player, private0, prob0):
    """``locate``, ``key_of`` and ``private_keys`` of the form (None without node keys)."""
    if keys is None:
        return None, None, None
    dealt = [set(private0[prob0 > 0, p].tolist()) for p in range(len(labels))]
    index: dict[str, tuple[int, int]] = {}

    def key(node: int, p: int, s: int) -> str:
        return contract.information_state_key(keys[node], p, labels[p][s])

    def locate(k: str) -> tuple[int, int]:
        if not index:
            for node in np.flatnonzero(kind == DECISION):
                p = int(player[node])
                for s in sorted(dealt[p]):
                    index[key(int(node), p, s)] = (int(node), s)
        try:
            return index[k]
        except KeyError:
            raise KeyError(f"{contract_name(contract)} has no information set {k!r}") from None

    def key_of(node: int, private: int) -> str | None:
        p = int(player[node])
        return key(int(node), p, int(private)) if p >= 0 and int(private) in dealt[p] else None

    def keys_at(node: int, p: int) -> dict[str, int]:
        return {key(int(node), int(p), s): s for s in sorted(dealt[int(p)])}

    return locate, key_of, keys_at


def contract_name(contract) -> str:
    return type(contract).__name__
