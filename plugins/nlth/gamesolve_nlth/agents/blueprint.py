"""The blueprint agent: plays a trained blueprint, mapping off-tree bets by pseudo-harmonic
action translation.

It follows the hand in the blueprint's betting tree: folds and calls map to the tree's fold
and call, a real bet or raise to the tree's neighbouring sizes by the randomised
pseudo-harmonic mapping (sizes compared as fractions of the pot after calling). At its own
turns it samples the blueprint's action for its bucket and plays the same pot fraction in
the real hand, clipped to the legal range. Where the hand leaves the tree (a translated line
ends earlier than the real one), it checks or calls.

Memory: the tree is held in memory; the strategy and the card-abstraction tables are read
from their zarr stores a chunk at a time (a small LRU), never whole.
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np

from gamesolve.agents import Agent, hand_seed
from gamesolve.game.factored import DECISION
from gamesolve.game.poker_form import CALL, FOLD, RAISE
from gamesolve.store.strategy_store import StrategyStore
from gamesolve.store.zarr_io import ChunkedReader, StoreError, open_group
from gamesolve_nlth.abstraction.cache import cache_root
from gamesolve_nlth.betting.translation import translate
from gamesolve_nlth.evaluate.hands import HOLES, hole_indices, possible
from gamesolve_nlth.blueprint.presets import blueprint_preset
from gamesolve_nlth.isomorphism import HandIndexer
from gamesolve_nlth.state import FOLD as REAL_FOLD, CHECK_CALL, NLTHGame, NLTHState, action_raise_to, raise_action

ROUND_TABLES = ("preflop", "flop", "turn", "river")
TABLE_CHUNK = 1 << 22
TABLE_CHUNKS_CACHED = 64
MODEL_DECISIONS_CACHED = 100_000  # model questions' decisions kept (cleared when full)
BOARDS_CACHED = 2048  # boards whose buckets of every pair stay in memory (10 KB each)
"""Chunks kept per bucket table: 256 MB at most; the whole river table of the presets
(123 M canonical hands, one byte each) once every chunk has been met."""


class CardBuckets:
    """Bucket of (hole, board) per round from a stored card abstraction, read lazily."""

    def __init__(self, path: Path):
        group = open_group(path, "card abstraction")
        self.tables = [ChunkedReader(group[name], TABLE_CHUNK, cached=TABLE_CHUNKS_CACHED) for name in ROUND_TABLES]
        self.indexers = [HandIndexer((2,)), HandIndexer((2, 3)), HandIndexer((2, 4)), HandIndexer((2, 5))]

    def bucket(self, street: int, hole: list[int], board: list[int]) -> int:
        cards = list(hole) + list(board[: (0, 3, 4, 5)[street]])
        index = self.indexers[street].index(cards, round=0 if street == 0 else 1)
        return int(self.tables[street][index])

    def buckets(self, street: int, holes: np.ndarray, board: list[int]) -> np.ndarray:
        """Buckets of many hole-card pairs (int64[n, 2], none sharing a card with the board)."""
        cards = np.concatenate([holes, np.tile(np.asarray(board[: (0, 3, 4, 5)[street]], dtype=np.int64), (len(holes), 1))], axis=1)
        indices = np.asarray(self.indexers[street].index_batch(cards, 0 if street == 0 else 1), dtype=np.int64)
        return self.tables[street].take(indices).astype(np.int64)

    @functools.lru_cache(maxsize=BOARDS_CACHED)  # noqa: B019 - one CardBuckets per store, shared
    def board_buckets(self, street: int, board: tuple[int, ...]) -> np.ndarray:
        """int64[1326]: the bucket of every hole-card pair with ``board`` (-1 where a pair
        shares a card with it), kept for the ``BOARDS_CACHED`` boards met last."""
        board = board[: (0, 3, 4, 5)[street]]
        ok = possible(board)
        out = np.full(len(HOLES), -1, dtype=np.int64)
        out[ok] = self.buckets(street, HOLES[ok], list(board))
        out.setflags(write=False)
        return out


def open_blueprint(path: str | Path) -> StrategyStore:
    path = Path(path)
    inner = path / "blueprint" if (path / "blueprint").is_dir() else path  # the training store's output folder
    return _shared_store(str(path.resolve()), _modified(inner))


# Agents of one process playing the same blueprint (five seats of a match) share its
# store and card tables, and so their chunk caches: one read serves all of them. Keyed by
# modification time too, so a store rewritten in place is opened afresh.
@functools.lru_cache(maxsize=4)
def _shared_store(path: str, modified: float) -> StrategyStore:
    path = Path(path)
    if (path / "blueprint").is_dir():
        # The training store the user named is checked as a whole (checkpoints, snapshots
        # and all): damage anywhere in it is reported, not only in the part read here.
        open_group(path, "blueprint training store")
        path = path / "blueprint"
    return StrategyStore(path)


@functools.lru_cache(maxsize=4)
def _shared_buckets(path: str, modified: float) -> CardBuckets:
    return CardBuckets(Path(path))


def _modified(path: Path) -> float:
    meta = path / "zarr.json"
    return meta.stat().st_mtime if meta.exists() else 0.0


class BlueprintAgent(Agent):
    name = "blueprint"

    def __init__(self, game: NLTHGame, seed: int = 0, store: str | None = None):
        if not store:
            raise ValueError("the blueprint agent needs store=PATH (a trained nlth blueprint)")
        self.store = open_blueprint(store)
        params = self.store.attrs["params"]
        if self.store.attrs.get("game") != "nlth" or int(params["players"]) != game.num_players:
            raise StoreError(f"{store} is a blueprint for {self.store.attrs.get('game')} with {params.get('players')} players, not nlth with {game.num_players}")
        if len(set(game.stacks)) != 1 or str(game.stacks[0]) != str(params["stacks"]).split(",")[0]:
            raise StoreError(f"{store} was trained for stacks {params['stacks']}, not {game.stacks}")
        preset = blueprint_preset(params["preset"])
        path = cache_root() / "abstraction" / params.get("card_abstraction", preset.cards.key())
        if not path.exists():
            raise StoreError(f"the blueprint's card abstraction is not in the cache ({path}); rebuild it with `gamesolve abstraction build --preset {preset.name}`")
        from gamesolve_nlth.abstraction.card_abstraction import adopt_cached

        adopt_cached(path)  # tables cached before stores carried manifests
        self.cards = _shared_buckets(str(path.resolve()), _modified(path))
        self.game = game
        self.stack = int(game.stacks[0])
        self.seed = seed
        self.rng = np.random.default_rng(seed)
        self.translated: dict[int, int] = {}  # this hand's off-tree actions -> chosen tree edge
        self._model_decisions: dict = {}  # (betting, button, seat) -> _range_decision, for model questions
        self.dummy = list(range(2 * game.num_players + 5))

    def new_hand(self, seat: int, hand: int) -> None:
        self.rng = np.random.default_rng(hand_seed(self.seed, hand))
        self.translated = {}

    # -- following the hand in the tree ------------------------------------------------------
    def _tree_seat(self, seat: int, button: int) -> int:
        # The blueprint was trained with the button in the last seat: tree seat = position.
        return (seat - button - 1) % self.game.num_players

    def _child(self, node: int, kind: int) -> int | None:
        s = self.store
        for k in range(s.child_start[node], s.child_start[node + 1]):
            if s.edge_class[k] == kind:
                return int(k)
        return None

    def _raise_edges(self, node: int, line: _Line, tree_seat: int) -> tuple[list[int], list[float]]:
        """The raise edges of ``node`` and their sizes as fractions of the pot after calling."""
        s = self.store
        edges = [k for k in range(s.child_start[node], s.child_start[node + 1]) if s.edge_class[k] == RAISE]
        call_to = max(line.bets)
        base = line.pot + (call_to - line.bets[tree_seat])
        return edges, [(action_raise_to(s.edge_label[k]) - call_to) / base for k in edges]

    def _locate(self, state: NLTHState, draw: bool = True, hand_translations: bool = True) -> tuple[int, _Line] | None:
        """The decision node matching the real hand so far (and the tree's own bets on that
        line), or None if the hand left the tree. An off-tree bet met for the first time in
        this hand is translated at random (and kept); with ``draw=False`` (a question about
        the strategy, which must not touch the agent's random stream) it gets the
        deterministic translation instead, and is not kept. With ``hand_translations=False``
        every off-tree bet gets the deterministic translation."""
        located = self.locate_line(state, draw, hand_translations)
        return located if located is not None and self.store.node_kind[located[0]] == DECISION else None

    def locate_line(self, state: NLTHState, draw: bool = False, hand_translations: bool = True) -> tuple[int, _Line] | None:
        """The tree node the real hand's actions lead to, whatever its kind (a search leaf's
        entry into the blueprint), with the tree's chips on that line; None off the tree."""
        s = self.store
        n = self.game.num_players
        real = self.game.new_initial_state(cards=self.dummy, button=state.button)
        line = _Line.start(real, [self._tree_seat(seat, state.button) for seat in range(n)])
        node = 0
        for position, (_street, seat, action) in enumerate(state.player_actions()):
            if s.node_kind[node] != DECISION:
                return None
            t = self._tree_seat(seat, state.button)
            if action == REAL_FOLD:
                k = self._child(node, FOLD)
            elif action == CHECK_CALL:
                k = self._child(node, CALL)
                if k is None:  # an open limp where the tree has none: the nearest bet, its smallest raise
                    k = self._raise_edges(node, line, t)[0][0]
            else:
                edges, sizes = self._raise_edges(node, line, t)
                if not edges:
                    k = self._child(node, CALL)
                elif action - 2 >= (real.max_raise_to or 0):
                    k = edges[-1]  # all-in maps to the largest size
                elif hand_translations and position in self.translated:  # randomised once per hand, then kept
                    k = self.translated[position]
                else:
                    call_to = max(real.bets)
                    x = (action - 2 - call_to) / (real.pot + (call_to - real.bets[seat]))
                    if draw:
                        k = self.translated[position] = edges[translate(x, sizes, self.rng)]
                    else:
                        k = edges[translate(x, sizes, None)]
            if k is None:
                return None
            child = int(s.child_list[k])
            line = line.after(t, line.bet_after(t, int(s.edge_class[k]), int(s.edge_label[k]), self.stack), int(s.node_round[child]) != int(s.node_round[node]))
            node = child
            real = real.child(action)
        return node, line

    # -- acting ----------------------------------------------------------------------------------
    def act(self, state: NLTHState, seat: int) -> int:
        located = self._locate(state)
        t = self._tree_seat(seat, state.button)
        if located is None or self.store.node_player[located[0]] != t:
            return CHECK_CALL
        node, line = located
        bucket = self.cards.bucket(state.street, state.hole_cards(seat), state.board)
        probs = self.store.probabilities(node, bucket)
        k = int(self.store.child_start[node]) + int(self.rng.choice(len(probs), p=probs))
        return self._real_action(state, seat, node, line, k)

    def strategy(self, state: NLTHState, seat: int) -> list[tuple[int, float]]:
        """The blueprint's probabilities at ``state`` for ``seat`` (the play coach): each tree
        edge as the real action :meth:`act` would play for it. Off the tree: check or call."""
        located = self._locate(state)
        t = self._tree_seat(seat, state.button)
        if located is None or self.store.node_player[located[0]] != t:
            return [(CHECK_CALL, 1.0)]
        node, line = located
        bucket = self.cards.bucket(state.street, state.hole_cards(seat), state.board)
        probs = self.store.probabilities(node, bucket)
        first = int(self.store.child_start[node])
        return [(self._real_action(state, seat, node, line, first + i), float(p)) for i, p in enumerate(probs)]

    # -- the strategy, exposed (AIVAT and local best response) ------------------------------
    def action_probabilities(self, state: NLTHState, seat: int, path=()) -> dict[int, float]:
        """``{real action: probability}`` at ``state`` for the hole cards it gives ``seat``
        (:class:`gamesolve.evaluate.exposure.ExposesStrategy`)."""
        actions, probs = self._range(state, seat, np.asarray([state.hole_cards(seat)], dtype=np.int64))
        return {a: float(p) for a, p in zip(actions, probs[0]) if p > 0}

    def range_probabilities(self, state: NLTHState, seat: int, holes: np.ndarray) -> tuple[list[int], np.ndarray]:
        """The strategy at ``state`` for each of ``holes`` (int64[n, 2], none touching the
        board): the real actions it may take and ``probs[n, actions]``. Uses this hand's
        translations of off-tree bets; one not met yet gets the deterministic translation."""
        return self._range(state, seat, holes)

    def model_range_probabilities(self, state: NLTHState, seat: int, holes: np.ndarray) -> tuple[list[int], np.ndarray]:
        """:meth:`range_probabilities` as a function of the history alone: every off-tree bet
        gets the deterministic translation, none of this hand's random draws (which events
        after ``state`` may have decided). For value functions (AIVAT's rest-of-street walk)."""
        return self._range(state, seat, holes, hand_translations=False)

    def _range(self, state: NLTHState, seat: int, holes: np.ndarray, hand_translations: bool = True) -> tuple[list[int], np.ndarray]:
        decision = self._range_decision(state, seat, hand_translations)
        if decision is None:
            return [CHECK_CALL], np.ones((len(holes), 1))
        node, actions, merge = decision
        buckets = self.cards.board_buckets(state.street, tuple(state.board))[hole_indices(holes)]
        unique, inverse = np.unique(buckets, return_inverse=True)
        merged = self.store.probabilities_of(node, unique) @ merge
        return actions, merged[inverse.reshape(-1)]

    def _range_decision(self, state: NLTHState, seat: int, hand_translations: bool):
        """The tree node of ``seat``'s decision at ``state``, the real actions its edges play
        and the edges-to-actions matrix; None where the strategy is to check or call. Kept
        per betting history when no random translation of this hand is involved (model
        questions: the same on every board)."""
        key = (tuple(state.log), state.button, seat) if not hand_translations else None
        if key is not None and key in self._model_decisions:
            return self._model_decisions[key]
        located = self._locate(state, draw=False, hand_translations=hand_translations)
        t = self._tree_seat(seat, state.button)
        decision = None
        if located is not None and self.store.node_player[located[0]] == t:
            node, line = located
            edges = range(int(self.store.child_start[node]), int(self.store.child_start[node + 1]))
            real = [self._real_action(state, seat, node, line, k) for k in edges]
            actions = sorted(set(real))
            merge = np.zeros((len(real), len(actions)))
            merge[np.arange(len(real)), [actions.index(a) for a in real]] = 1.0
            decision = (node, actions, merge)
        if key is not None:
            if len(self._model_decisions) >= MODEL_DECISIONS_CACHED:
                self._model_decisions.clear()
            self._model_decisions[key] = decision
        return decision

    def _real_action(self, state: NLTHState, seat: int, node: int, line: _Line, k: int) -> int:
        """The real action for tree edge ``k`` at ``node``."""
        t = self._tree_seat(seat, state.button)
        kind = self.store.edge_class[k]
        if kind == FOLD:
            return REAL_FOLD if state.call_amount > 0 else CHECK_CALL
        if kind == CALL or state.min_raise_to is None:
            return CHECK_CALL
        edges, sizes = self._raise_edges(node, line, t)
        if action_raise_to(self.store.edge_label[k]) >= line.bets[t] + line.behind(t, self.stack):
            return raise_action(state.max_raise_to)  # the tree's all-in
        call_to = max(state.bets)
        target = call_to + sizes[edges.index(k)] * (state.pot + (call_to - state.bets[seat]))
        return raise_action(int(min(max(round(target), state.min_raise_to), state.max_raise_to)))


class _Line:
    """Chips on one line of the betting tree: total committed and bets on the street, by tree seat."""

    def __init__(self, committed: list[int], bets: list[int]):
        self.committed = committed
        self.bets = bets

    @classmethod
    def start(cls, state: NLTHState, tree_seats: list[int]) -> _Line:
        """The chips the rules engine has put in before the first decision of ``state``'s hand
        (the blinds), moved to the tree's seats (``tree_seats[seat]``)."""
        committed, bets = [0] * len(tree_seats), [0] * len(tree_seats)
        for seat, t in enumerate(tree_seats):
            committed[t], bets[t] = state.committed[seat], state.bets[seat]
        return cls(committed, bets)

    @property
    def pot(self) -> int:
        return sum(self.committed)

    def behind(self, seat: int, stack: int) -> int:
        return stack - self.committed[seat]

    def bet_after(self, seat: int, kind: int, label: int, stack: int) -> int:
        """``seat``'s bet on the street after a tree edge of class ``kind``: unchanged after a
        fold, the largest bet (at most all-in) after a call, the raise-to amount after a raise."""
        if kind == FOLD:
            return self.bets[seat]
        if kind == CALL:
            return min(max(self.bets), self.bets[seat] + self.behind(seat, stack))
        return action_raise_to(label)

    def after(self, seat: int, amount: int, new_street: bool) -> _Line:
        """The line after ``seat``'s action to ``amount`` (its bet on the street after acting)."""
        committed, bets = list(self.committed), list(self.bets)
        committed[seat] += max(0, amount - bets[seat])
        bets[seat] = max(bets[seat], amount)
        return _Line(committed, [0] * len(bets) if new_street else bets)


def make_blueprint_agent(game, seed, **options):
    unknown = set(options) - {"store"}
    if unknown:
        raise ValueError(f"blueprint agent options: store=PATH (got {', '.join(sorted(unknown))})")
    return BlueprintAgent(game, seed, options.get("store"))
