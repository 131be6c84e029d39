"""The generic compiler: any State-contract game to the factored form.

It reads only the contract (``public_state_key``, ``information_state_key``, chance outcomes,
returns), so every registered game gets every solver with no extra hook (a plugin may still
answer ``gamesolve_compile_game(form="factored")`` with a faster or abstracted form).

How the game is factored:

1. **The deal.** Chance nodes at the root whose outcomes all keep one public state deal
   private information; every combination of them is a *deal* with its probability.
   A player's private state is the class of deals their information-state key cannot tell
   apart after the deal.
2. **The tree.** From there the game is walked with all deals side by side. Every action is
   an edge; a chance node whose outcomes are all public (pairwise different public states)
   becomes a public chance node, and each deal is extended by its outcome (card removal and
   any other dependence on the deal is kept: the outcome's probability is the game's own).
3. **Information sets.** At a decision node the actor's key must depend on the deal only
   through the actor's private state (the actor learns nothing private after the deal), so an
   information set is (node, private state). Nodes that the actor cannot tell apart (the
   same key: an opponent's hidden action) share one set of table rows (``row_owner``).
4. **Terminals** become ``FIXED`` when every deal pays the same, else a ``TABLE`` over the
   listed deals.

Games outside this shape (private chance after the first decision, a chance node that is
partly public, legal actions that depend on private information) get a :class:`FormError`
naming the history; the explicit-tree (tabular) solvers still handle them.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from gamesolve.game.deals import ListedDeals
from gamesolve.game.factored import CHANCE, DECISION, FIXED, SMALL_GAME_MCCFR_DEFAULTS, TABLE, TERMINAL, FactoredGame, FormError
from gamesolve.game.settled import settle
from gamesolve.game.state import CHANCE as CHANCE_PLAYER
from gamesolve.game.state import TERMINAL as TERMINAL_PLAYER
from gamesolve.game.state import Game, State
from gamesolve.game.tree_size import collector_paused, too_big

REPORT_EVERY = 1 << 14
"""Public nodes between two calls of the ``on_nodes`` progress callback."""


def _private_chance(state: State) -> bool:
    """A chance node whose outcomes all lead to one public state deals private information."""
    return len({state.child(a).public_state_key() for a, _ in state.chance_outcomes()}) == 1


def _deal_phase(game: Game) -> list[tuple[float, State]]:
    """Every combination of the private chance at the root, with its probability."""
    done: list[tuple[float, State]] = []
    stack = [(1.0, game.new_initial_state())]
    while stack:
        prob, state = stack.pop()
        if state.is_chance_node() and _private_chance(state):
            stack.extend(reversed([(prob * p, state.child(a)) for a, p in state.chance_outcomes()]))
        else:
            done.append((prob, state))
    keys = {s.public_state_key() for _, s in done}
    if len(keys) != 1:
        raise FormError(f"{game.describe()}: the private deals end in different public states, e.g. {sorted(keys)[:2]}")
    return done


def _action_class_names(state: State, actions: list[int]) -> list[str]:
    """The action's class for biased continuation strategies: the game's own
    (``State.action_class``) or, without one, its position among the legal actions."""
    names = [state.action_class(a) for a in actions]
    if all(name is not None for name in names):
        return names
    return ["first" if i == 0 else "last" if i == len(actions) - 1 else "middle" for i in range(len(actions))]


MAX_HISTORIES = 20_000_000
"""Most histories the generic compiler walks (its cost is histories)."""


def compile_factored(game: Game, max_histories: int = MAX_HISTORIES,
                     on_nodes: Callable[[int], None] | None = None) -> FactoredGame:  # fmt: skip
    """The factored form of ``game`` (see the module docstring). ``on_nodes(k)`` is told about
    every :data:`REPORT_EVERY` public nodes built (a progress bar)."""
    with collector_paused():
        return _compile_factored(game, max_histories, on_nodes)


def _compile_factored(game: Game, max_histories: int, on_nodes: Callable[[int], None] | None) -> FactoredGame:
    why = too_big(game, max_histories, "the generic compiler")
    if why is not None:
        raise FormError(why)
    n_players = game.num_players
    deal0 = _deal_phase(game)
    # Private states: what each player's key distinguishes right after the deal.
    private0 = np.zeros((len(deal0), n_players), dtype=np.int32)
    n_private = 1
    for p in range(n_players):
        # Numbered in the keys' order, so that numbering reads naturally (Leduc: the card).
        keys = [state.information_state_key(p) for _, state in deal0]
        ids = {key: i for i, key in enumerate(sorted(set(keys)))}
        private0[:, p] = [ids[key] for key in keys]
        n_private = max(n_private, len(ids))

    # Deal prefixes: a private deal and the public outcomes met so far.
    prefix_parent: list[int] = [-1] * len(deal0)
    prefix_label: list[int] = [-1] * len(deal0)
    prefix_prob: list[float] = [p for p, _ in deal0]
    prefix_root: list[int] = list(range(len(deal0)))
    # Each prefix's private states (a row of private0), as Python ints: read once per history.
    prefix_private: list[list[int]] = private0.tolist()
    extension: dict[tuple[int, int], int] = {}

    kinds, players, levels, keys = [], [], [], []
    children: list[list[int]] = []
    labels: list[list[int]] = []
    classes: list[list[str]] = []
    term_values: dict[int, list[tuple[int, list[float]]]] = {}
    row_key: dict[str, tuple[int, int]] = {}  # information-state key -> (owner node, private state)
    private_keys: dict[tuple[int, int], dict[str, int]] = {}  # (decision node, player) -> {key: private state}
    owner_of: list[int] = []
    node_actions: dict[int, list[int]] = {}
    histories = 0

    stack = [([(d, state) for d, (_, state) in enumerate(deal0)], -1, -1, "", 0)]
    while stack:
        group, parent, label_in, class_in, level = stack.pop()
        node = len(kinds)
        histories += len(group)
        if histories > max_histories:
            raise FormError(f"{game.describe()} has more than {max_histories:,} histories; too big to compile generically")
        if on_nodes is not None and node and node % REPORT_EVERY == 0:
            on_nodes(REPORT_EVERY)
        rep = group[0][1]
        who = rep.current_player()
        kinds.append(DECISION if who >= 0 else CHANCE if who == CHANCE_PLAYER else TERMINAL)
        players.append(who if who >= 0 else -1)
        levels.append(level)
        keys.append(rep.public_state_key())
        owner_of.append(node)
        children.append([])
        labels.append([])
        classes.append([])
        if parent >= 0:
            children[parent].append(node)
            labels[parent].append(label_in)
            classes[parent].append(class_in)
        for _, state in group:
            if state.current_player() != who:
                raise FormError(f"{game.describe()}: at public state {keys[-1]!r} the player to act depends on private information")
        if who == TERMINAL_PLAYER:
            term_values[node] = ([d for d, _ in group], [[float(x) for x in s.returns()] for _, s in group])
            continue
        if who == CHANCE_PLAYER:
            branches: dict[int, list] = {}
            public_of: dict[int, str] = {}
            for d, state in group:
                for action, prob in state.chance_outcomes():
                    child = state.child(action)
                    key = child.public_state_key()
                    if public_of.setdefault(int(action), key) != key:
                        raise FormError(f"{game.describe()}: chance at public state {keys[-1]!r} is not entirely public")
                    ext = extension.get((d, int(action)))
                    if ext is None:
                        ext = extension[(d, int(action))] = len(prefix_prob)
                        prefix_parent.append(d)
                        prefix_label.append(int(action))
                        prefix_prob.append(prefix_prob[d] * prob)
                        prefix_root.append(prefix_root[d])
                        prefix_private.append(prefix_private[d])
                    elif abs(prefix_prob[ext] - prefix_prob[d] * prob) > 1e-12:
                        raise FormError(f"{game.describe()}: public chance probabilities depend on earlier actions")
                    branches.setdefault(int(action), []).append((ext, child))
            if len(set(public_of.values())) != len(public_of):
                raise FormError(f"{game.describe()}: chance at public state {keys[-1]!r} is not entirely public")
            for action in sorted(branches, reverse=True):
                stack.append((branches[action], node, action, "", level + 1))
            continue
        actions = [int(a) for a in rep.legal_actions()]
        own: dict[int, str] = {}
        for p in range(n_players):
            if p != who:  # what every other player's key says here (search reads beliefs by key)
                table = private_keys.setdefault((node, p), {})
                for d, state in group:
                    table[state.information_state_key(p)] = prefix_private[d][p]
        for d, state in group:
            legal = state.legal_actions()
            if not (type(legal) is list and legal == actions) and [int(a) for a in legal] != actions:
                raise FormError(f"{game.describe()}: at public state {keys[-1]!r} the legal actions depend on private information")
            s = prefix_private[d][who]
            key = state.information_state_key(who)
            if own.setdefault(s, key) != key:
                raise FormError(
                    f"{game.describe()}: player {who} learns private information after the deal "
                    f"(keys {own[s]!r} and {key!r} for one private state)"
                )
        # Rows: a node shares rows with an earlier node the actor cannot tell it apart from.
        owners = {row_key[key][0] for key in own.values() if key in row_key}
        if len(owners) > 1:
            raise FormError(f"{game.describe()}: information sets of player {who} overlap inconsistently at {keys[-1]!r}")
        owner = owners.pop() if owners else node
        private_keys[(node, who)] = {key: s for s, key in own.items()}
        for s, key in own.items():
            known = row_key.setdefault(key, (owner, s))
            if known != (owner, s):
                raise FormError(f"{game.describe()}: information set {key!r} spans different private states")
        node_actions[node] = actions
        if owner != node:
            if players[owner] != who or node_actions[owner] != actions:
                raise FormError(f"{game.describe()}: information set at {keys[-1]!r} spans nodes with different actions")
            owner_of[node] = owner
        names = _action_class_names(rep, actions)
        for a, name in reversed(list(zip(actions, names))):
            stack.append(([(d, s.child(a)) for d, s in group], node, a, name, level))

    return _assemble(
        game, kinds, players, levels, keys, children, labels, classes, owner_of, term_values,
        private0, n_private, prefix_parent, prefix_label, prefix_prob, prefix_root, row_key, private_keys,
    )  # fmt: skip


def _full_deals(prefix_parent, prefix_label, prefix_prob, n_levels):
    """The prefixes nobody extends are the full deals; each prefix's descendants are one
    contiguous range of them (deals numbered in depth-first order of the prefix tree)."""
    n = len(prefix_parent)
    kids: list[list[int]] = [[] for _ in range(n)]
    for q in range(n):
        if prefix_parent[q] >= 0:
            kids[prefix_parent[q]].append(q)
    leaf_order: list[int] = []
    lo = np.zeros(n, dtype=np.int64)
    hi = np.zeros(n, dtype=np.int64)
    roots = [q for q in range(n) if prefix_parent[q] < 0]
    stack = [(q, False) for q in reversed(roots)]
    while stack:
        q, closing = stack.pop()
        if closing:
            hi[q] = len(leaf_order)
            continue
        lo[q] = len(leaf_order)
        if not kids[q]:
            leaf_order.append(q)
            hi[q] = len(leaf_order)
            continue
        stack.append((q, True))
        stack.extend((k, False) for k in reversed(kids[q]))
    public = np.full((len(leaf_order), n_levels), -1, dtype=np.int32)
    for d, q in enumerate(leaf_order):
        path = []
        while prefix_parent[q] >= 0:
            path.append(prefix_label[q])
            q = prefix_parent[q]
        public[d, : len(path)] = path[::-1]
    prob = np.array([prefix_prob[q] for q in leaf_order])
    return leaf_order, lo, hi, public, prob


def _assemble(game, kinds, players, levels, keys, children, labels, classes, owner_of, term_values,
              private0, n_private, prefix_parent, prefix_label, prefix_prob, prefix_root, row_key, private_keys) -> FactoredGame:  # fmt: skip
    n = len(kinds)
    n_players = game.num_players
    n_levels = max([lv + 1 for lv, k in zip(levels, kinds) if k == CHANCE], default=0)
    leaf_order, lo, hi, public, prob = _full_deals(prefix_parent, prefix_label, prefix_prob, n_levels)
    n_deals = len(leaf_order)
    n_rounds = n_levels + 1  # a round is the play between two public chance nodes
    root_of = np.array([prefix_root[q] for q in leaf_order], dtype=np.int64)
    # Private states never change: every round reads the same one.
    private = np.repeat(private0[root_of][:, :, None], n_rounds, axis=2)

    kind = np.array(kinds, dtype=np.int8)
    term_kind = np.full(n, -1, dtype=np.int8)
    payoff = np.zeros((n, n_players))
    term_row = np.full(n, -1, dtype=np.int32)
    lowest = np.full((n, n_players), np.inf)
    highest = np.full((n, n_players), -np.inf)
    rows = []
    for node, (prefixes, values) in term_values.items():
        arr = np.array(values)
        lowest[node] = arr.min(axis=0)
        highest[node] = arr.max(axis=0)
        if np.all(arr == arr[0]):
            term_kind[node] = FIXED
            payoff[node] = arr[0]
            continue
        term_kind[node] = TABLE
        term_row[node] = len(rows)
        # Prefix q's value holds for its deals lo[q]:hi[q].
        q = np.array(prefixes)
        counts = hi[q] - lo[q]
        first = np.repeat(lo[q] - np.cumsum(counts) + counts, counts)
        row = np.zeros((n_deals, n_players))
        row[first + np.arange(len(first))] = np.repeat(arr, counts, axis=0)
        rows.append(row)
    table = np.array(rows) if rows else np.zeros((0, n_deals, n_players))

    child_start = np.zeros(n + 1, dtype=np.int32)
    np.cumsum([len(c) for c in children], out=child_start[1:])
    child_list = np.array([c for cs in children for c in cs], dtype=np.int32)
    player = np.array(players, dtype=np.int32)
    settled, settled_value = settle(kind, player, child_start, child_list, lowest, highest)

    # Classes in the order of the actions that carry them (poker: fold, call, raise).
    flat_classes = [c for cs in classes for c in cs]
    flat_labels = [a for ls in labels for a in ls]
    first_label: dict[str, int] = {}
    for c, a in zip(flat_classes, flat_labels):
        if c:
            first_label[c] = min(first_label.get(c, a), a)
    class_ids = {c: i for i, c in enumerate(sorted(first_label, key=lambda c: (first_label[c], c)))}
    edge_class = np.array([class_ids[c] if c else -1 for c in flat_classes], dtype=np.int8)  # chance edges: -1
    deals = ListedDeals(private=private, public=public, prob=prob / prob.sum())

    def locate(key: str) -> tuple[int, int]:
        try:
            return row_key[key]
        except KeyError:
            raise KeyError(f"{game.name} has no information set {key!r}") from None

    key_of_row = {row: key for key, row in row_key.items()}
    owner_arr = np.array(owner_of, dtype=np.int32)

    def key_of(node: int, private: int) -> str | None:
        return key_of_row.get((int(owner_arr[node]), int(private)))

    def keys_at(node: int, player: int) -> dict[str, int]:
        return private_keys.get((int(node), int(player)), {})

    form = FactoredGame(
        game_name=game.name,
        params=dict(game.params),
        num_players=n_players,
        num_rounds=n_rounds,
        node_kind=kind,
        node_player=player,
        # A chance node opens the next round: its outcomes are the round's public cards.
        node_round=np.array(levels, dtype=np.int32) + (kind == CHANCE),
        node_level=np.array(levels, dtype=np.int32),
        child_start=child_start,
        child_list=child_list,
        edge_label=np.array([a for ls in labels for a in ls], dtype=np.int64),
        edge_class=edge_class,
        row_owner=np.array(owner_of, dtype=np.int32),
        settled=settled,
        settled_value=settled_value,
        term_kind=term_kind,
        payoff=payoff,
        contender=np.zeros((n, n_players), dtype=bool),
        term_row=term_row,
        table=table,
        num_private=np.full(n_rounds, n_private, dtype=np.int32),
        deals=deals,
        class_names=tuple(class_ids),
        regret_scale=_regret_scale(payoff, table),
        # With one round the paper's "never prune the last round" would never prune at all.
        mccfr_defaults={**SMALL_GAME_MCCFR_DEFAULTS, **({"prune_last_round": True} if n_rounds == 1 else {})},
        describe="lossless (generic compiler)",
        node_keys=tuple(keys),
        locate=locate,
        key_of=key_of,
        private_keys=keys_at,
        lossless=True,
    )
    form.check()
    return form


def _regret_scale(payoff: np.ndarray, table: np.ndarray) -> float:
    """int32 regret units per payoff unit: a power of ten that gives the largest payoff about
    ten thousand units (Kuhn and Leduc: 1,000, as their plugins use)."""
    largest = max(float(np.abs(payoff).max(initial=0.0)), float(np.abs(table).max(initial=0.0)), 1e-9)
    return float(10 ** round(np.log10(1e4 / largest)))
