"""Hold'em's part of real-time search (supplement, "Further details of the real-time search
algorithm"; Algorithm 2). The algorithm is the core's
(:class:`~gamesolve.search.range_agent.RangeSearchAgent`: beliefs over the 1,326 hole-card pairs
and their Bayes updates, added actions and re-solves, frozen own play, the budget, the decision
record, the solver); this module is the :class:`~gamesolve.search.domain.SearchDomain` it runs
on, :class:`NLTHSearchDomain`, and the options of ``search:store=BP``:

* Which rounds search (``streets``, default flop, turn and river): every pot where at least
  two players in the hand have chips behind (heads-up flops only with ``heads_up_flop=sampled``
  or ``limited``).
  Heads-up flops, turns and rivers run from the round's root to the end of the game over both
  ranges (:mod:`gamesolve_nlth.spot.tree`); a flop samples its turn and river cards, one board
  per thread. Pots of three or more players are subgames with deals drawn from the range
  beliefs (:mod:`gamesolve_nlth.search.multiway`): turns and rivers to the end of the game,
  flops to the start of the turn or right after the flop's second raise, whichever comes
  first, where each player still able to act picks one of ``k`` continuation strategies of the
  blueprint, valued by rollouts (:mod:`gamesolve_nlth.search.continuation`). Other decisions
  play the blueprint.
* The subgame offers fold, check/call and the search's bet sizes (``bets``, ``raises``,
  presets); an opponent's raise the subgame does not offer is added as its raise-to amount,
  a raise past the effective stack as the spot's all-in.
* The first round plays the blueprint unless an opponent raises more than ``preflop_off``
  (100) chips away from every blueprint raise at that point, or calls where the blueprint
  has no call (an open limp into a tree without limps), with at most four players left;
  then the rest of the round is searched from the public state after that action (beliefs
  carried there by the blueprint, a limp's as its smallest raise), to the flop's leaves
  with continuation strategies.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import attrs
import numpy as np

from gamesolve.game.factored import DECISION
from gamesolve.game.poker_form import RAISE
from gamesolve.options import parse_boolean, typed_options
from gamesolve.search.beliefs import ItemRanges
from gamesolve.search.domain import RangeSubgame, SampledChance
from gamesolve.search.range_agent import RangeSearchAgent
from gamesolve.search.range_solve import RangeSolveConfig
from gamesolve_nlth import engine as E
from gamesolve_nlth.betting.subgame import DepthLimit, StreetSizes, SubgameSizes
from gamesolve_nlth.search.continuation import continuation_game
from gamesolve_nlth.search.multiway import LeafValues, build_multiway
from gamesolve_nlth.search.presets import DEFAULT_PRESET, SEARCH_PRESETS, preset_options
from gamesolve_nlth.spot.hands import HAND_CARDS, NUM_HANDS, hand_index
from gamesolve_nlth.spot.sizes import DEFAULT_BETS, DEFAULT_RAISES, parse_sizes
from gamesolve_nlth.spot.tree import STREETS, Spot, SpotError, build_spot, hand_strengths, spot_ranges, why_no_deal
from gamesolve_nlth.state import CHECK_CALL, FOLD, NLTHGame, NLTHState, action_raise_to, raise_action


_DEFAULT_SIZES = SEARCH_PRESETS[DEFAULT_PRESET]

#: How a heads-up flop is played: ``off`` by the blueprint, ``sampled`` searched to the end of
#: the game with the turn and river sampled, ``limited`` searched to the turn (or right after
#: the flop's second raise) with the blueprint's continuation strategies at the leaves.
FLOP_MODES = ("off", "sampled", "limited")


def _flop_mode(raw: str) -> str:
    """``heads_up_flop``'s value: a mode of :data:`FLOP_MODES`, or a boolean (true: sampled)."""
    if raw.lower() in FLOP_MODES:
        return raw.lower()
    try:
        return "sampled" if parse_boolean(raw, "heads_up_flop") else "off"
    except ValueError:
        raise ValueError(f"heads_up_flop must be one of {', '.join(FLOP_MODES)}") from None


@attrs.frozen
class NLTHSearchConfig:
    """Options of ``search:store=BP[:KEY=VALUE...]`` for hold'em.

    :ivar seconds: time budget of a decision that searches, building the subgame included (a
        re-solve between decisions gets it whole; 0: none; then ``iterations`` decide alone and
        play is reproducible on any machine).
    :ivar iterations: most iterations of one heads-up (vector CFR) solve (on the flop each
        walks ``threads`` sampled turn and river cards: far cheaper and noisier than a full
        iteration).
    :ivar heads_up_flop: how heads-up flops play (:data:`FLOP_MODES`): ``off`` (the default)
        by the blueprint; ``sampled`` searched to the end of the game, sampling the turn and
        river as Pluribus did (within a few seconds the sampled solve stays far from
        equilibrium, about 150% of the pot exploitable on a reduced flop after 5 s, see
        docs/search.md); ``limited`` searched to the turn or right after the flop's second
        raise, as multiway flops are, each player choosing among the blueprint's ``k``
        continuation strategies at the leaves (not Pluribus' heads-up shape; a pilot match
        favours it over ``off``, not significantly: docs/search.md). ``1``/``0`` mean
        ``sampled``/``off``.
    :ivar threads: threads of a solve: a heads-up flop iteration walks this many sampled
        boards at once, one per thread; turns and rivers split the first chance node's cards
        over them; multiway solves run this many MCCFR threads.
    :ivar flop_memory: most gigabytes of a heads-up flop solve's tables (they grow with the
        boards reached; the solve stops, and plays what it has, before passing it).
    :ivar mccfr_iterations: most iterations of one multiway (MCCFR) solve.
    :ivar multiway_bets, multiway_raises, multiway_raise_cap: the sizes of pots of three or
        more players (fewer than heads-up: the tree grows with every player).
    :ivar algorithm: the vector solver's preset: ``dcfr`` by default, whose final iteration is far
        nearer a subgame equilibrium after the tens of iterations a decision affords than Linear
        CFR's (``lcfr``, as Pluribus; ``preset=paper``), and which won both strength designs
        (docs/search.md, "Defaults").
    :ivar play: ``current`` (final iteration, as Pluribus) or ``average``.
    :ivar streets: rounds that search (1 flop, 2 turn, 3 river).
    :ivar k: continuation strategies a player picks from at a depth-limited subgame's leaves (1-4).
    :ivar preflop_off: the first round searches after an opponent's raise more than this many
        chips from every blueprint raise there, with at most four players left (0: never).
    :ivar preflop_bets: the first round's raise sizes in such a search (pot fractions, allin).
    :ivar bets, raises: the subgame's sizes, as ``gamesolve spot`` writes them.
    :ivar record, replay: a solve log to write each solve's iterations to, or whose iterations
        stop each solve instead of the clock (a time-budgeted match played again to the bit:
        :mod:`gamesolve.search.solve_log`).

    The sizes' defaults are the ``small`` preset; ``preset=NAME`` in the options sets them all
    from another (:mod:`gamesolve_nlth.search.presets`), size options given with it override it;
    ``preset=paper`` keeps the default sizes and plays as Pluribus (Linear CFR, final iteration).
    """

    seconds: float = 5.0
    iterations: int = 1000
    heads_up_flop: str = attrs.field(default="off", validator=attrs.validators.in_(FLOP_MODES))
    flop_memory: float = 2.0
    mccfr_iterations: int = 200_000
    algorithm: str = "dcfr"
    play: str = "current"
    streets: tuple[int, ...] = (1, 2, 3)
    bets: str = _DEFAULT_SIZES.bets
    raises: str = _DEFAULT_SIZES.raises
    raise_cap: int = _DEFAULT_SIZES.raise_cap
    allin_threshold: float = 0.67
    threads: int = 1
    multiway_bets: str = _DEFAULT_SIZES.multiway_bets
    multiway_raises: str = _DEFAULT_SIZES.multiway_raises
    multiway_raise_cap: int = _DEFAULT_SIZES.multiway_raise_cap
    k: int = 4
    preflop_off: int = 100
    preflop_bets: str = _DEFAULT_SIZES.preflop_bets
    record: str = ""
    replay: str = ""

    @classmethod
    def from_options(cls, options: Mapping[str, str]) -> NLTHSearchConfig:
        """A configuration from ``KEY=VALUE`` strings; :class:`ValueError` names a bad one.
        ``preset=NAME`` stands for the preset's options; other options override them."""
        options = dict(options)
        if "preset" in options:
            options = {**preset_options(str(options.pop("preset"))), **options}
        known = {
            "seconds": float, "iterations": int, "algorithm": str, "play": str, "bets": str, "raises": str,
            "streets": lambda v: tuple(sorted({int(x) for x in v.split(",")})), "raise_cap": int,
            "allin_threshold": float, "threads": int, "mccfr_iterations": int, "multiway_bets": str,
            "multiway_raises": str, "multiway_raise_cap": int, "k": int,
            "preflop_off": int, "preflop_bets": str, "flop_memory": float, "heads_up_flop": _flop_mode,
            "record": str, "replay": str,
        }  # fmt: skip
        values = typed_options(options, known, "nlth search option", f"store, preset, {', '.join(known)}")
        # The solve options (seconds, iterations, ...) are checked by the core's RangeSolveConfig.
        checks = {
            "raise_cap": lambda v: v >= 0, "multiway_raise_cap": lambda v: v >= 0, "k": lambda v: 1 <= v <= 4,
            "allin_threshold": lambda v: 0 < v <= 1, "streets": lambda v: set(v) <= {1, 2, 3},
            "flop_memory": lambda v: v > 0,  # (the core's name for it is memory)
        }  # fmt: skip
        for key, ok in checks.items():
            if key in values and not ok(values[key]):
                raise ValueError(f"search option {key}={options[key]!r} is out of range")
        try:
            config = cls(**values)
        except ValueError as exc:
            raise ValueError(f"search option {exc.args[0]}") from None
        config.solving()  # bad solve options, bad sizes fail here, before any hand
        config.sizes()
        config.multiway_sizes()
        return config

    def solving(self) -> RangeSolveConfig:
        """The core's part: how subgames are solved and played."""
        return RangeSolveConfig(self.seconds, self.iterations, self.mccfr_iterations, self.algorithm, self.play,
                                self.threads, self.flop_memory, self.record, self.replay)  # fmt: skip

    def sizes(self) -> dict[str, StreetSizes]:
        """Heads-up sizes by street name."""
        return _street_sizes(self.bets, self.raises, "bets/raises")

    def multiway_sizes(self) -> SubgameSizes:
        """Sizes of pots of three or more players."""
        sizes = _street_sizes(self.multiway_bets, self.multiway_raises, "multiway_bets/multiway_raises")
        first = _street_sizes(self.preflop_bets, self.preflop_bets, "preflop_bets")["flop"]
        return SubgameSizes({0: StreetSizes(first.bets, first.bets), **{i + 1: sizes[s] for i, s in enumerate(STREETS)}},
                            self.multiway_raise_cap, self.allin_threshold)  # fmt: skip


def _street_sizes(bets: str, raises: str, what: str) -> dict[str, StreetSizes]:
    try:
        first, then = parse_sizes(bets, DEFAULT_BETS), parse_sizes(raises, DEFAULT_RAISES)
    except SpotError as exc:
        raise ValueError(f"search option {what}: {exc}") from None
    return {s: StreetSizes(first[s], then[s]) for s in STREETS}


class NLTHSearchDomain:
    """Hold'em as the core's range search agent sees it
    (:class:`~gamesolve.search.domain.SearchDomain`): the 1,326 hole-card pairs, board cards,
    when a round searches and its subgame (see the module docstring)."""

    items = HAND_CARDS

    def __init__(self, game: NLTHGame, blueprint, config: NLTHSearchConfig):
        self.game = game
        self.blueprint = blueprint
        self.config = config
        self.sizes = config.sizes()

    def round_of(self, state: NLTHState) -> int:
        return state.street

    def public_items(self, state: NLTHState) -> tuple[int, ...]:
        return tuple(state.board)

    def private_index(self, state: NLTHState, seat: int) -> int:
        return hand_index(*state.hole_cards(seat))

    def private_indices(self, holes: np.ndarray) -> np.ndarray:
        return _PAIR_INDEX[holes[:, 0], holes[:, 1]]

    def real_action(self, state: NLTHState, label: int) -> int:
        return _real_action(state, label)

    def plan(self, root: NLTHState, seat: int, triggered: bool) -> _HeadsUpRound | _MultiwayRound | None:
        """Whether the round searches: a searched street, and at least two players in the hand
        with chips behind (heads-up: both players; multiway: the turn and the river); the
        first round only from a triggering raise."""
        active = [p for p, a in enumerate(root.in_hand) if a]
        if root.street == 0:
            chips = sum(root.stacks[p] > 0 for p in active)
            return _MultiwayRound(self, root, "first-round") if triggered and chips >= 2 else None
        if root.street not in self.config.streets:
            return None
        if len(active) == 2:
            if root.street == 1 and self.config.heads_up_flop == "off":
                return None
            if root.street == 1 and self.config.heads_up_flop == "limited":
                return _MultiwayRound(self, root, "multiway-limited")
            return _HeadsUpRound(self, root) if all(root.stacks[p] > 0 for p in active) else None
        with_chips = sum(root.stacks[p] > 0 for p in active)
        if with_chips < 2:
            return None
        return _MultiwayRound(self, root, "multiway" if root.street >= 2 else "multiway-limited")

    def triggers(self, state: NLTHState, player: int, action: int, seat: int) -> bool:
        """Supplement: in the first round, an opponent's raise more than ``preflop_off`` chips
        from every raise the blueprint has there, with at most four players left (and the
        agent among them), makes the agent search the rest of the round. So does a call
        where the blueprint has none (an open limp into a tree built with ``limp = false``):
        it is off the tree too, and the blueprint follows it only as its smallest raise."""
        if state.street != 0 or action < CHECK_CALL or self.config.preflop_off <= 0:
            return False
        in_hand = [p for p, a in enumerate(state.in_hand) if a]
        if len(in_hand) > 4 or seat not in in_hand:
            return False
        if action == CHECK_CALL:
            if max(state.bets) > self.game.big_blind:
                return False  # a call of a raise: the tree calls wherever it has the raise
            # An open limp: off the tree where the blueprint's real actions here (any hand) have no call.
            actions, _ = self.blueprint.range_probabilities(state, player, HAND_CARDS[:1].astype(np.int64))
            return CHECK_CALL not in actions
        located = self.blueprint.locate_line(state, draw=False)
        store = self.blueprint.store
        if located is None or store.node_kind[located[0]] != DECISION:
            return True  # the hand already left the blueprint's tree
        node, line = located
        sizes = [
            action_raise_to(self.blueprint._real_action(state, player, node, line, k))
            for k in range(int(store.child_start[node]), int(store.child_start[node + 1]))
            if store.edge_class[k] == RAISE
        ]
        return not sizes or min(abs(action_raise_to(action) - s) for s in sizes) > self.config.preflop_off

    def blueprint_probs(self, state: NLTHState, player: int, action: int) -> np.ndarray:
        board = set(state.board)
        free = np.array([h for h in range(NUM_HANDS) if int(HAND_CARDS[h, 0]) not in board and int(HAND_CARDS[h, 1]) not in board])
        actions, probs = self.blueprint.range_probabilities(state, player, HAND_CARDS[free].astype(np.int64))
        out = np.zeros(NUM_HANDS)
        out[free] = probs[:, _closest(actions, action)]
        return out

    def leaf_values(self, root: NLTHState, leaves) -> LeafValues:
        """Where each leaf of a subgame from ``root`` enters the blueprint's tree (the
        blueprint agent's deterministic translation of the line), with the pots' ratio."""
        game = continuation_game(self.blueprint)
        n = self.game.num_players
        tree_seat = np.array([self.blueprint._tree_seat(s, root.button) for s in range(n)], np.int64)
        entry = np.full(len(leaves), -1, np.int64)
        ratio = np.ones(len(leaves))
        stake = np.zeros((len(leaves), n))
        for i, (s, path) in enumerate(leaves):
            state = root
            for action in path:
                state = state.child(action)
            located = self.blueprint.locate_line(state, draw=False)
            if located is None:
                continue  # the line left the blueprint's tree: the leaf refunds the stakes
            node, line = located
            entry[i] = node
            ratio[i] = sum(E.committed(s, q) for q in range(n)) / line.pot
            stake[i] = [line.committed[tree_seat[q]] for q in range(n)]
        return LeafValues(game, np.argsort(tree_seat), tree_seat, entry, ratio, stake)


def _amounts(added: Mapping[tuple[int, ...], set[int]]) -> dict[tuple[int, ...], set[int]]:
    """Added labels as the raise-to amounts the subgame builders take."""
    return {path: {action_raise_to(label) for label in labels} for path, labels in added.items()}


class _HeadsUpRound:
    """A heads-up round searched to the end of the game by vector CFR over both ranges: the
    round's root as a two-player spot (:mod:`gamesolve_nlth.spot.tree`); a flop samples its
    turn and river cards."""

    def __init__(self, domain: NLTHSearchDomain, root: NLTHState):
        self.domain = domain
        first = root.current_player()
        other = next(p for p, a in enumerate(root.in_hand) if a and p != first)
        pot = root.pot + root.pot % 2  # both players "put in" half (dead money shared; see docs/search.md)
        stack = min(root.stacks[first], root.stacks[other])
        s, config = domain.sizes, domain.config
        self.spot = Spot(tuple(root.board), pot, stack, s["flop"], s["turn"], s["river"], config.allin_threshold,
                         config.raise_cap, domain.game.big_blind)  # fmt: skip
        self.seats = (first, other)

    def label(self, state: NLTHState, action: int) -> int:
        """Raises past the effective stack are the spot's all-in."""
        if action in (FOLD, CHECK_CALL):
            return int(action)
        return raise_action(min(action_raise_to(action), self.spot.stack))

    def subgame(self, added, ranges: ItemRanges) -> RangeSubgame | None:
        spot = self.spot
        flop = len(spot.board) == 3
        # A flop runs on one board's tree, relabelled with each iteration's turn and river.
        form = build_spot(spot, _amounts(added), deal=_template_cards(spot.board) if flop else None)
        reach = spot_ranges(spot, ranges.reach[self.seats[0]], ranges.reach[self.seats[1]])
        if why_no_deal(reach) is not None:
            return None
        board = tuple(spot.board)
        chance = None
        if flop:
            chance = SampledChance([c for c in range(52) if c not in board], lambda cards: hand_strengths(board + cards))
        return RangeSubgame(form, reach, chance)


class _MultiwayRound:
    """A round of three or more players (or a triggered first round) solved by MCCFR with deals
    from the beliefs: turns and rivers to the end of the game; flops (``multiway-limited``) to
    the turn or right after the flop's second raise, the first round to the flop's leaves, both
    valued by the blueprint's continuation strategies (supplement)."""

    def __init__(self, domain: NLTHSearchDomain, root: NLTHState, mode: str):
        self.domain, self.root, self.mode = domain, root, mode

    def label(self, state: NLTHState, action: int) -> int:
        return int(action)  # a multiway subgame starts from the real hand: labels are the actions

    def subgame(self, added, ranges: ItemRanges) -> RangeSubgame | None:
        config, root = self.domain.config, self.root
        depth = None if self.mode == "multiway" else DepthLimit(raises=2 if self.mode == "multiway-limited" else None, k=config.k)
        try:
            form = build_multiway(root.s, config.multiway_sizes(), _amounts(added), ranges.reach, tuple(root.board), depth,
                                  lambda leaves: self.domain.leaf_values(root, leaves))  # fmt: skip
        except ValueError:
            return None  # a range the board empties: the beliefs say this cannot happen
        return RangeSubgame(form)


class NLTHSearchAgent(RangeSearchAgent):
    """The core's range search agent (:class:`~gamesolve.search.range_agent.RangeSearchAgent`)
    over hold'em's domain (its options: ``domain.config``), as ``search:store=BP`` builds it."""

    def __init__(self, game: NLTHGame, blueprint, config: NLTHSearchConfig = NLTHSearchConfig(), seed: int = 0):
        super().__init__(game, blueprint, NLTHSearchDomain(game, blueprint, config), config.solving(), seed)


_PAIR_INDEX = np.full((52, 52), -1, dtype=np.int64)
_PAIR_INDEX[HAND_CARDS[:, 0], HAND_CARDS[:, 1]] = _PAIR_INDEX[HAND_CARDS[:, 1], HAND_CARDS[:, 0]] = np.arange(NUM_HANDS)


def _template_cards(board: tuple[int, ...]) -> tuple[int, int]:
    """The turn and river cards of a flop's one-board template (any two off the board: the
    sampling solver relabels them every iteration)."""
    first, second = [c for c in range(52) if c not in board][:2]
    return first, second


def _real_action(state: NLTHState, label: int) -> int:
    if label == FOLD and state.call_amount > 0:
        return FOLD
    lo, hi = state.min_raise_to, state.max_raise_to
    if label in (FOLD, CHECK_CALL) or lo is None:
        return CHECK_CALL
    return raise_action(min(max(action_raise_to(label), lo), hi))


def _closest(actions: list[int], action: int) -> int:
    """The column of ``action`` among the blueprint's real ``actions``, else of the nearest
    one of its kind (raises by the ratio of raise-to amounts). A call where the blueprint has
    none (an open limp into a tree without limps) is its smallest raise, as the blueprint
    agent follows it (:meth:`~gamesolve_nlth.agents.blueprint.BlueprintAgent.locate_line`)."""
    if action in actions:
        return actions.index(action)
    raises = [i for i, a in enumerate(actions) if a >= 2]
    if action == CHECK_CALL and raises:
        return min(raises, key=lambda i: action_raise_to(actions[i]))
    if action in (FOLD, CHECK_CALL) or not raises:
        return actions.index(CHECK_CALL) if CHECK_CALL in actions else 0
    to = action_raise_to(action)
    return min(raises, key=lambda i: abs(math.log(action_raise_to(actions[i]) / to)))


def make_search_agent(game: NLTHGame, seed: int, options: dict[str, str]) -> NLTHSearchAgent:
    """``search:store=BP[:KEY=VALUE...]`` (:meth:`NLTHSearchConfig.from_options`)."""
    from gamesolve_nlth.agents.blueprint import BlueprintAgent

    store = options.pop("store", None)
    config = NLTHSearchConfig.from_options(options)  # bad options fail before the store is read
    agent = NLTHSearchAgent(game, BlueprintAgent(game, seed, store), config, seed)
    if game.num_players > 2 and 1 in config.streets:
        # Multiway flops' leaves read the blueprint's continuation game (its whole tree: about
        # 25 s for the `small` preset, 3 s for `tiny`): built with the agent, not inside the
        # first decision that needs it, which has a few seconds.
        continuation_game(agent.blueprint)
    return agent
