"""Real-time search for hold'em (supplement, "Further details of the real-time search
algorithm"; Algorithm 2), over the core's pieces: range beliefs with card removal
(:class:`~gamesolve.search.beliefs.ItemRanges`), subgames as factored games with item removal
(the spot builder, :mod:`gamesolve_nlth.spot.tree`) and vector-form CFR
(:class:`~gamesolve.solve.vcfr.VectorCFR`, Linear CFR by default) with frozen rows.

How a hand goes for the agent in ``seat``:

* Beliefs are one vector over the 1,326 hole-card pairs per player, at the root of the
  current betting round. When a round ends they are carried to the next root by Bayes' rule
  with the profile sigma (lines 16-19): the blueprint where the round was not searched, else
  the latest search's *average* strategy; for the agent's own actions, the probabilities it
  actually played with for its actual hand (line 13), sigma for its other hands. Board cards
  remove the hands holding them.
* Which rounds search (``streets``, default flop, turn and river): every pot where at least
  two players in the hand have chips behind (heads-up flops only with ``heads_up_flop=1``).
  Heads-up flops, turns and rivers run from the round's root to the end of the game, solved
  by vector-form CFR over both ranges (:mod:`gamesolve_nlth.spot.tree`); on the flop with
  public chance sampling (:class:`~gamesolve.solve.vcfr_sampled.SampledChanceCFR`: each
  iteration walks the flop's betting and one turn and river card drawn for it, tables
  allocated per board reached; with ``threads=T``, T boards at once, one per thread, with
  distinct turn cards, the flop's rows taking the mean of their updates).
  Pots of three or more players are solved by external-sampling Linear MCCFR with deals
  drawn from the range beliefs (:mod:`gamesolve_nlth.search.multiway`; supplement: Monte
  Carlo Linear CFR for large subgames): turns and rivers to the end of the game, flops to the start of the turn or right
  after the flop's second raise, whichever comes first, where each player still able to act
  picks one of ``k`` continuation strategies of the blueprint, valued by rollouts
  (:mod:`gamesolve_nlth.search.continuation`). Other decisions play the blueprint.
* The subgame offers fold, check/call and the search's bet sizes; an opponent's action the
  subgame does not offer is added where it was taken and the round is re-solved from its
  root (lines 5-8), with the agent's own earlier actions in the round frozen for its
  actual hand.
* Each solve runs until its time budget (``seconds``) or ``iterations``; the agent plays the
  final iteration's strategy (``play=current``, as Pluribus) and keeps the average as sigma.

* The first round plays the blueprint unless an opponent raises more than ``preflop_off``
  (100) chips away from every blueprint raise at that point with at most four players left;
  then the rest of the round is searched from the public state after that raise (beliefs
  carried there by the blueprint), to the flop's leaves with continuation strategies.
"""

from __future__ import annotations

import copy
import math
import time
from collections.abc import Mapping

import attrs
import numpy as np

from gamesolve.agents import Agent, hand_seed
from gamesolve.cli_params import parse_boolean
from gamesolve.game.factored import DECISION
from gamesolve.game.poker_form import RAISE
from gamesolve.game.state import CHANCE
from gamesolve.search.beliefs import ItemRanges
from gamesolve.search.solve_loop import SolveLimits, solve_until
from gamesolve.solve.cfr import TABULAR_ALGORITHMS
from gamesolve.solve.mccfr import MCCFRConfig, MCCFRTrainer
from gamesolve.solve.vcfr import VectorCFR
from gamesolve.solve.vcfr_sampled import SampledChanceCFR
from gamesolve_nlth import engine as E
from gamesolve_nlth.search.continuation import continuation_game
from gamesolve_nlth.search.multiway import DepthLimit, LeafValues, SubgameSizes, build_multiway
from gamesolve_nlth.search.presets import DEFAULT_PRESET, SEARCH_PRESETS, search_preset
from gamesolve_nlth.spot.hands import HAND_CARDS, NUM_HANDS, hand_index
from gamesolve_nlth.spot.sizes import DEFAULT_BETS, DEFAULT_RAISES, parse_sizes
from gamesolve_nlth.spot.tree import (STREETS, Spot, SpotError, StreetSizes, build_spot, hand_strengths, spot_ranges,
                                      why_no_deal)
from gamesolve_nlth.state import CHECK_CALL, FOLD, NLTHGame, NLTHState, action_raise_to, raise_action


_DEFAULT_SIZES = SEARCH_PRESETS[DEFAULT_PRESET]


@attrs.frozen
class NLTHSearchConfig:
    """Options of ``search:store=BP[:KEY=VALUE...]`` for hold'em.

    :ivar seconds: time budget of a decision that searches, building the subgame included (a
        re-solve between decisions gets it whole; 0: none; then ``iterations`` decide alone and
        play is reproducible on any machine).
    :ivar iterations: most iterations of one heads-up (vector CFR) solve (on the flop each
        walks ``threads`` sampled turn and river cards: far cheaper and noisier than a full
        iteration).
    :ivar heads_up_flop: whether heads-up flops search (to the end of the game, sampling the
        turn and river; off by default: within a few seconds the sampled solve stays far from
        equilibrium, about 150% of the pot exploitable on a reduced flop after 5 s, see
        docs/search.md, so the blueprint plays them unless asked).
    :ivar threads: threads of a solve: a heads-up flop iteration walks this many sampled
        boards at once, one per thread; turns and rivers split the first chance node's cards
        over them; multiway solves run this many MCCFR threads.
    :ivar flop_memory: most gigabytes of a heads-up flop solve's tables (they grow with the
        boards reached; the solve stops, and plays what it has, before passing it).
    :ivar mccfr_iterations: most iterations of one multiway (MCCFR) solve.
    :ivar multiway_bets, multiway_raises, multiway_raise_cap: the sizes of pots of three or
        more players (fewer than heads-up: the tree grows with every player).
    :ivar algorithm: the vector solver's preset (``lcfr``: Linear CFR, as Pluribus; ``dcfr``...).
    :ivar play: ``current`` (final iteration, as Pluribus) or ``average``.
    :ivar streets: rounds that search (1 flop, 2 turn, 3 river).
    :ivar k: continuation strategies a player picks from at a depth-limited subgame's leaves (1-4).
    :ivar preflop_off: the first round searches after an opponent's raise more than this many
        chips from every blueprint raise there, with at most four players left (0: never).
    :ivar preflop_bets: the first round's raise sizes in such a search (pot fractions, allin).
    :ivar bets, raises: the subgame's sizes, as ``gamesolve spot`` writes them.

    The sizes' defaults are the ``small`` preset; ``preset=NAME`` in the options sets them all
    from another (:mod:`gamesolve_nlth.search.presets`), size options given with it override it.
    """

    seconds: float = 5.0
    iterations: int = 1000
    heads_up_flop: bool = False
    flop_memory: float = 2.0
    mccfr_iterations: int = 200_000
    algorithm: str = attrs.field(default="lcfr", validator=attrs.validators.in_(tuple(TABULAR_ALGORITHMS)))
    play: str = attrs.field(default="current", validator=attrs.validators.in_(("current", "average")))
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

    @classmethod
    def from_options(cls, options: Mapping[str, str]) -> NLTHSearchConfig:
        """A configuration from ``KEY=VALUE`` strings; :class:`ValueError` names a bad one.
        ``preset=NAME`` stands for the preset's sizes; other options override them."""
        options = dict(options)
        if "preset" in options:
            preset = attrs.asdict(search_preset(str(options.pop("preset"))))
            options = {**{key: str(value) for key, value in preset.items()}, **options}
        known = {
            "seconds": float, "iterations": int, "algorithm": str, "play": str, "bets": str, "raises": str,
            "streets": lambda v: tuple(sorted({int(x) for x in v.split(",")})), "raise_cap": int,
            "allin_threshold": float, "threads": int, "mccfr_iterations": int, "multiway_bets": str,
            "multiway_raises": str, "multiway_raise_cap": int, "k": int,
            "preflop_off": int, "preflop_bets": str, "flop_memory": float, "heads_up_flop": lambda v: parse_boolean(v, "heads_up_flop"),
        }  # fmt: skip
        values = {}
        for key, raw in options.items():
            if key not in known:
                raise ValueError(f"unknown nlth search option {key!r} (known: store, preset, {', '.join(known)})")
            try:
                values[key] = known[key](str(raw))
            except ValueError:
                raise ValueError(f"search option {key}={raw!r} is not valid") from None
        checks = {
            "seconds": lambda v: v >= 0, "iterations": lambda v: v >= 1, "raise_cap": lambda v: v >= 0,
            "mccfr_iterations": lambda v: v >= 1, "multiway_raise_cap": lambda v: v >= 0, "k": lambda v: 1 <= v <= 4,
            "allin_threshold": lambda v: 0 < v <= 1, "threads": lambda v: v >= 1,
            "streets": lambda v: set(v) <= {1, 2, 3}, "flop_memory": lambda v: v > 0,
        }  # fmt: skip
        for key, ok in checks.items():
            if key in values and not ok(values[key]):
                raise ValueError(f"search option {key}={options[key]!r} is out of range")
        try:
            config = cls(**values)
        except ValueError as exc:
            raise ValueError(f"search option {exc.args[0]}") from None
        config.sizes()  # bad sizes fail here, before any hand
        config.multiway_sizes()
        return config

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


@attrs.frozen
class Decision:
    """One decision of the agent: its round, the seconds it took (searches since the last
    decision included) and whether a search decided it."""

    street: int
    seconds: float
    searched: bool


@attrs.frozen(eq=False)
class _Solved:
    """A solved round: the subgame and the strategies."""

    form: object
    average: np.ndarray | None
    current: np.ndarray | None
    row_offset: np.ndarray
    iterations: int
    #: a vector CFR solver whose nodes are read one at a time (``average`` and ``current`` are
    #: None): expanding every row of a turn subgame takes 0.2-0.8 s of a decision's budget, and
    #: a decision reads a handful of nodes
    solver: VectorCFR | None = None

    def rows(self, node: int, which: str) -> np.ndarray | None:
        """``[1326, actions]`` the strategy at ``node``; None where the solver never reached
        it (a sampling solver allocates rows on the first visit)."""
        n_act = int(self.form.num_actions[node])
        base = int(self.row_offset[self.form.row_owner[node]])
        if base < 0:
            return None
        if self.solver is not None:
            return self.solver.node_strategy(node, which)
        rows = self.average if which == "average" else self.current
        return np.asarray(rows[base : base + NUM_HANDS * n_act], dtype=np.float64).reshape(NUM_HANDS, n_act)


class NLTHSearchAgent(Agent):
    """Plays one seat with real-time search (see the module docstring).

    Its strategy over its whole range (``range_probabilities``, for local best response): at a
    decision it searched, the rows of that solve for every hole-card pair (for the hand it
    holds, exactly what :meth:`act` samples from); at a state it has not acted at, what a copy
    of it that follows the hand there would play (searching there if the round searches); the
    blueprint's where the blueprint plays.
    """

    name = "search"
    strategy_is_exact = False
    """For the hand it holds the exposure is what it plays; for its other hands it is a model:
    an agent actually holding one would have frozen its own earlier rows with that hand's
    probabilities and carried its own range with them (Algorithm 2, line 13) and, under a
    time budget, solved for a different time. Local best response may use a model; AIVAT
    over every hand of the range does not: it evaluates the agent on the hand it holds alone
    (``own_strategy_is_exact``)."""
    own_strategy_is_exact = True
    """The exposure for the hand the agent holds is exactly what it plays (tested): AIVAT's
    corrections at chance and at its own decisions hold with that hand alone."""

    def __init__(self, game: NLTHGame, blueprint, config: NLTHSearchConfig = NLTHSearchConfig(), seed: int = 0):
        self.game = game
        self.blueprint = blueprint
        self.config = config
        self.sizes = config.sizes()
        self.seed = seed
        self.new_hand(0, 0)

    # -- a hand --------------------------------------------------------------------------
    def new_hand(self, seat: int, hand: int) -> None:
        self.blueprint.new_hand(seat, hand)
        self.rng = np.random.default_rng(hand_seed(self.seed, hand))
        self.seat = seat
        self.decisions: list[Decision] = []  # this hand's
        self.ranges = ItemRanges.initial(HAND_CARDS, self.game.num_players)  # at the round's root
        self.root: NLTHState | None = None  # the round's root
        self.actions: list[tuple[NLTHState, int, int]] = []  # (state, player, action) since the root
        self.cards: list[int] = []  # board cards dealt since the root
        self.added: dict[tuple[int, ...], set[int]] = {}  # path -> raise-to amounts added this round
        self.frozen: dict[tuple[int, ...], dict[int, float]] = {}  # our path -> probabilities played
        self.solved: _Solved | None = None
        self.stale = False  # an action was added since the last solve
        self._built = None  # (added, the round's subgame)
        self._round_spot = None
        self.busy = 0.0
        self._deadline: float | None = None  # when the current decision's time budget ends
        # Seconds per subgame node the last solve of each kind took to read its strategies
        # out, which a decision's budget reserves (sampled flop and MCCFR solves; a vector CFR
        # solve is read node by node when asked, about nothing).
        self._readout: dict[str, float] = {}
        self.preflop_root = False  # the first round searches from an off-tree raise
        self._seen: NLTHState | None = None  # the state after the last transition observed
        self._played: dict[tuple[int, ...], tuple[list[int], np.ndarray] | None] = {}  # history -> exposure
        self._probes: dict[tuple[int, ...], tuple[list[int], np.ndarray] | None] = {}  # hypothetical states'

    def observe(self, state: NLTHState, action: int) -> None:
        started = time.perf_counter()
        player = state.current_player()
        if player == CHANCE:
            if int(state.s[E.H_NDEALT]) >= 2 * self.game.num_players:  # a board card (hole cards are private)
                self.cards.append(int(action))
        else:
            if player != self.seat and self._searching() and not self._offered(state, action):
                # Lines 5-7: the action joins the subgame where it was taken; the round is
                # re-solved from its root before sigma or play needs it.
                self.added.setdefault(self._path(state), set()).add(action_raise_to(self._spot_label(state, action)))
                self.stale = True
            self.actions.append((state, player, int(action)))
        child = self._seen = state.child(action)
        if child.current_player() >= 0 and (self.root is None or child.street != self.root.street):
            self._new_round(child)
        elif player >= 0 and player != self.seat and child.current_player() >= 0 and self._off_blueprint(state, player, action):
            self._move_root(child)
        self.busy += time.perf_counter() - started

    def act(self, state: NLTHState, seat: int) -> int:
        started = time.perf_counter()
        searched = self._searching()
        action = None
        if searched:
            # The budget is the decision's, as the match measures it: the work done while
            # observing since the last decision (beliefs, a re-solve) and building the subgame
            # count against it.
            self._deadline = started + self.config.seconds - self.busy
            try:
                action = self._search_action(state)
            finally:
                self._deadline = None
        if action is None:
            searched = False
            self._played[tuple(state.history)] = None
            action = self.blueprint.act(state, seat)
        self.decisions.append(Decision(state.street, self.busy + time.perf_counter() - started, searched))
        self.busy = 0.0
        return action

    @property
    def last_searched(self) -> bool:
        return bool(self.decisions) and self.decisions[-1].searched

    def _budget(self, reserve: float = 0.0) -> float | None:
        """Seconds a solve may take: None without a budget; the rest of the current
        decision's budget less ``reserve`` (the read-out that follows the solve) when a decision
        asks for the solve (at least a tenth of the budget, so that the solver runs at all), the
        whole budget otherwise (a re-solve between decisions)."""
        if self.config.seconds <= 0:
            return None
        if self._deadline is None:
            return self.config.seconds
        return max(self._deadline - time.perf_counter() - reserve, 0.1 * self.config.seconds)

    # -- the first round: the blueprint unless an opponent bets far off its sizes ---------------
    def _off_blueprint(self, state: NLTHState, player: int, action: int) -> bool:
        """Supplement: in the first round, an opponent's raise more than ``preflop_off`` chips
        from every raise the blueprint has there, with at most four players left (and the
        agent among them), makes the agent search the rest of the round."""
        if state.street != 0 or action < 2 or self.preflop_root or self.config.preflop_off <= 0:
            return False
        in_hand = [p for p, a in enumerate(state.in_hand) if a]
        if len(in_hand) > 4 or self.seat not in in_hand:
            return False
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

    def _move_root(self, state: NLTHState) -> None:
        """The first round's search starts at the public state after the off-tree raise
        (unsafe search from there), with the beliefs carried to it by sigma (the blueprint)."""
        ranges = self.ranges
        for before, player, action in self.actions:
            ranges = ranges.after_action(player, self._sigma(before, player, action))
        self.ranges, self.root, self.preflop_root = ranges, state, True
        self.actions, self.added, self.frozen = [], {}, {}
        self.solved, self.stale, self._built, self._round_spot = None, False, None, None

    # -- beliefs ---------------------------------------------------------------------------
    def _new_round(self, root: NLTHState) -> None:
        """CHECKNEWROUND: carry the beliefs to the new round's root with sigma."""
        if self.stale:
            self._solve()  # sigma of this round includes the added actions
        ranges = self.ranges
        for state, player, action in self.actions:
            ranges = ranges.after_action(player, self._sigma(state, player, action))
        for card in self.cards:
            ranges = ranges.after_item(card)
        if self.root is None:  # the first round: the board is whatever is out already (none)
            for card in root.board:
                ranges = ranges.after_item(card)
        self.ranges, self.root = ranges, root
        self.actions, self.cards, self.added, self.frozen = [], [], {}, {}
        self.solved, self.stale, self._built, self._round_spot = None, False, None, None

    def _sigma(self, state: NLTHState, player: int, action: int) -> np.ndarray:
        """``float[1326]``: sigma's probability of ``action`` at ``state`` for each hand of
        ``player``: the last solve's average where it covers the state, else the blueprint;
        for the agent's own action, what it played with for its actual hand."""
        out = None
        label = self._spot_label(state, action) if self.solved is not None else None
        if self.solved is not None:
            node = _walk(self.solved.form, self._path(state))
            labels = [] if node is None else [int(a) for a in self.solved.form.labels(node)]
            rows = self.solved.rows(node, "average") if label in labels else None
            if rows is not None:
                out = rows[:, labels.index(label)].copy()
        if out is None:
            out = self._blueprint_probs(state, player, action)
        played = self.frozen.get(self._path(state)) if player == self.seat else None
        if played is not None:
            out[hand_index(*state.hole_cards(self.seat))] = played.get(label, 0.0)
        return out

    def _blueprint_probs(self, state: NLTHState, player: int, action: int) -> np.ndarray:
        board = set(state.board)
        free = np.array([h for h in range(NUM_HANDS) if int(HAND_CARDS[h, 0]) not in board and int(HAND_CARDS[h, 1]) not in board])
        actions, probs = self.blueprint.range_probabilities(state, player, HAND_CARDS[free].astype(np.int64))
        out = np.zeros(NUM_HANDS)
        out[free] = probs[:, _closest(actions, action)]
        return out

    # -- the subgame -----------------------------------------------------------------------
    def _searching(self) -> bool:
        """Whether this round searches: a searched street, and at least two players in the
        hand with chips behind (heads-up: both players; multiway: the turn and the river)."""
        return self._mode() is not None

    def _mode(self) -> str | None:
        """``"heads-up"`` (vector CFR), ``"multiway"`` (MCCFR) or None (the blueprint plays)."""
        root = self.root
        if root is None:
            return None
        active = [p for p, a in enumerate(root.in_hand) if a]
        if root.street == 0:
            chips = sum(root.stacks[p] > 0 for p in active)
            return "first-round" if self.preflop_root and chips >= 2 else None
        if root.street not in self.config.streets:
            return None
        if len(active) == 2:
            if root.street == 1 and not self.config.heads_up_flop:
                return None
            return "heads-up" if all(root.stacks[p] > 0 for p in active) else None
        with_chips = sum(root.stacks[p] > 0 for p in active)
        if with_chips < 2:
            return None
        return "multiway" if root.street >= 2 else "multiway-limited"

    def _spot(self) -> tuple[Spot, tuple[int, int]]:
        """The round's root as a two-player spot, and the real seats of its players."""
        if self._round_spot is None:
            self._round_spot = self._make_spot()
        return self._round_spot

    def _make_spot(self) -> tuple[Spot, tuple[int, int]]:
        root = self.root
        first = root.current_player()
        other = next(p for p, a in enumerate(root.in_hand) if a and p != first)
        pot = root.pot + root.pot % 2  # both players "put in" half (dead money shared; see docs/search.md)
        stack = min(root.stacks[first], root.stacks[other])
        s = self.sizes
        spot = Spot(tuple(root.board), pot, stack, s["flop"], s["turn"], s["river"], self.config.allin_threshold,
                    self.config.raise_cap, self.game.big_blind)  # fmt: skip
        return spot, (first, other)

    def _form(self):
        """The round's subgame with the actions added so far (built once per addition); a
        multiway subgame's deals come from the beliefs at the round's root."""
        key = tuple(sorted((k, tuple(sorted(v))) for k, v in self.added.items()))
        if self._built is None or self._built[0] != key:
            if self._mode() == "heads-up":
                spot, _ = self._spot()
                # A flop runs on one board's tree, relabelled with each iteration's turn and river.
                form = build_spot(spot, self.added, deal=_template_cards(spot.board) if len(spot.board) == 3 else None)
            else:
                # A multiway flop stops at the turn or right after the flop's second raise
                # (supplement), its leaves valued by rollouts of the blueprint's continuations.
                mode = self._mode()
                depth = None if mode == "multiway" else DepthLimit(raises=2 if mode == "multiway-limited" else None, k=self.config.k)
                form = build_multiway(self.root.s, self.config.multiway_sizes(), self.added, self.ranges.reach,
                                      tuple(self.root.board), depth, self._leaf_values)  # fmt: skip
            self._built = (key, form)
        return self._built[1]

    def _frozen_rows(self, form) -> dict[tuple[int, int], np.ndarray]:
        """Line 13: the agent's own earlier actions in the round, for its actual hand."""
        mine = hand_index(*self.root.hole_cards(self.seat))
        frozen = {}
        for path, played in self.frozen.items():
            node = _walk(form, path)
            if node is not None:
                frozen[(node, mine)] = np.array([played.get(int(a), 0.0) for a in form.labels(node)])
        return frozen

    def _solve(self) -> None:
        """Search(G_root): the round's subgame from its root, with the added actions and the
        agent's own earlier actions in the round frozen for its actual hand; anytime: it
        stops when the time budget is spent and plays what there is."""
        self.solved, self.stale = None, False
        if self._mode() in ("multiway", "multiway-limited", "first-round"):
            self._solve_multiway()
            return
        spot, seats = self._spot()
        form = self._form()
        reach = spot_ranges(spot, self.ranges.reach[seats[0]], self.ranges.reach[seats[1]])
        if why_no_deal(reach) is not None:
            return  # the beliefs say this cannot happen: play the blueprint
        config, frozen = TABULAR_ALGORITHMS[self.config.algorithm], self._frozen_rows(form)
        sampled = len(spot.board) == 3
        if sampled:
            board = tuple(spot.board)
            solver = SampledChanceCFR(
                form, config, pool=[c for c in range(52) if c not in board], strengths=lambda cards: hand_strengths(board + cards),
                seed=int(self.rng.integers(2**31)), root_reach=reach, frozen=frozen,
                boards_per_iteration=self.config.threads, dtype=np.float32, max_bytes=int(self.config.flop_memory * 2**30),
            )  # fmt: skip
        else:
            solver = VectorCFR(form, config, root_reach=reach, frozen=frozen, threads=self.config.threads)
        budget = self._budget(self._readout.get("sampled", 0.0) * form.num_nodes if sampled else 0.0)
        # Anytime: no step that would end past the budget is started (the last one's length
        # predicts the next's; a turn iteration can take a few tenths of a second, a flop
        # iteration milliseconds, so the clock is read every 8 of those).
        limits = SolveLimits(self.config.iterations, seconds=budget, step=8 if sampled else 1)
        solve_until(solver, limits, exhausted=lambda: sampled and solver.full)
        if sampled:
            read = time.perf_counter()
            self.solved = _Solved(form, solver.average_rows(), solver.current_rows(), solver.row_offset, solver.iterations)
            self._readout["sampled"] = (time.perf_counter() - read) / form.num_nodes
        else:
            self.solved = _Solved(form, None, None, solver.row_offset, solver.iterations, solver)

    def _leaf_values(self, leaves) -> LeafValues:
        """Where each leaf of the round's subgame enters the blueprint's tree (the blueprint
        agent's deterministic translation of the line), with the pots' ratio."""
        game = continuation_game(self.blueprint)
        n = self.game.num_players
        tree_seat = np.array([self.blueprint._tree_seat(s, self.root.button) for s in range(n)], np.int64)
        entry = np.full(len(leaves), -1, np.int64)
        ratio = np.ones(len(leaves))
        stake = np.zeros((len(leaves), n))
        for i, (s, path) in enumerate(leaves):
            state = self.root
            for action in path:
                state = state.child(action)
            located = self.blueprint.locate_line(state, draw=False)
            if located is None:
                continue  # the line left the blueprint's tree: the leaf refunds the stakes
            node, line = located
            entry[i] = node
            ratio[i] = sum(int(s[E.COMMIT + q]) for q in range(n)) / line.pot
            stake[i] = [line.committed[tree_seat[q]] for q in range(n)]
        return LeafValues(game, np.argsort(tree_seat), tree_seat, entry, ratio, stake)

    def _solve_multiway(self) -> None:
        """External-sampling Linear MCCFR (regrets and averages discounted by t/(t+1) every
        ``mccfr_iterations / 100`` iterations), deals from the beliefs."""
        try:
            form = self._form()
        except ValueError:
            return  # a range the board empties: the beliefs say this cannot happen
        total = self.config.mccfr_iterations
        config = MCCFRConfig(
            prune=False, average="sampled", discount_interval=str(max(1, total // 100)), lcfr_threshold=str(total + 1),
            prune_threshold="off", strategy_interval="off", snapshot_interval="off", snapshot_start="off",
        )  # fmt: skip
        trainer = MCCFRTrainer(form, config, seed=int(self.rng.integers(2**31)), threads=self.config.threads,
                               frozen=self._frozen_rows(form))  # fmt: skip
        budget = self._budget(self._readout.get("mccfr", 0.0) * form.num_nodes)
        minutes = budget / 60 if budget is not None else None
        trainer.run(iterations=total, minutes=minutes)
        read = time.perf_counter()
        offsets = trainer.node_offset.astype(np.int64)
        self.solved = _Solved(form, trainer.average_rows(), trainer.current_rows(), offsets, trainer.counters.iteration)
        self._readout["mccfr"] = (time.perf_counter() - read) / form.num_nodes

    def _path(self, state: NLTHState) -> tuple[int, ...]:
        """The subgame labels of the round's actions before ``state``."""
        return tuple(self._spot_label(before, a) for before, _, a in self.actions if len(before.history) < len(state.history))

    def _spot_label(self, state: NLTHState, action: int) -> int:
        """A real action as the subgame's label: heads-up, raises past the effective stack are
        the spot's all-in (a multiway subgame starts from the real hand: labels are the actions)."""
        if action in (FOLD, CHECK_CALL) or self._mode() != "heads-up":
            return int(action)
        spot, _ = self._spot()
        return raise_action(min(action_raise_to(action), spot.stack))

    def _offered(self, state: NLTHState, action: int) -> bool:
        """Whether the round's subgame offers ``action`` at ``state``."""
        form = self._form()
        node = _walk(form, self._path(state))
        return node is not None and self._spot_label(state, action) in {int(a) for a in form.labels(node)}

    def _strategy(self, state: NLTHState) -> tuple[tuple[int, ...], list[int], np.ndarray] | None:
        """The searched strategy at ``state`` (solving first where needed): the path to it,
        the subgame's labels there and ``rows[1326, labels]`` the agent plays; None where the
        blueprint plays."""
        if self.solved is None or self.stale:
            self._solve()
        if self.solved is None:
            return None
        path = self._path(state)
        node = _walk(self.solved.form, path)
        if node is None:
            return None
        rows = self.solved.rows(node, self.config.play)
        if rows is None:
            return None
        return path, [int(a) for a in self.solved.form.labels(node)], rows

    def _search_action(self, state: NLTHState) -> int | None:
        found = self._strategy(state)
        if found is None:
            return None
        path, labels, rows = found
        probs = rows[hand_index(*state.hole_cards(self.seat))]
        self.frozen[path] = {a: float(p) for a, p in zip(labels, probs)}  # line 13
        self._played[tuple(state.history)] = _by_real_action(state, labels, rows)
        label = labels[int(self.rng.choice(len(labels), p=probs / probs.sum()))]
        return _real_action(state, label)

    # -- the strategy over the range (local best response) ----------------------------------
    def range_probabilities(self, state: NLTHState, seat: int, holes: np.ndarray) -> tuple[list[int], np.ndarray]:
        """The agent's strategy at ``state`` for each of ``holes`` (int64[n, 2], none touching
        the board): the real actions and ``probs[n, actions]`` (see the class docstring).
        Neither the agent's state nor its random numbers change."""
        key = tuple(state.history)
        if key in self._played:
            exposed = self._played[key]
        else:
            if key not in self._probes:
                self._probes[key] = self._probe(state)
            exposed = self._probes[key]
        if exposed is None:
            return self.blueprint.range_probabilities(state, seat, holes)
        actions, rows = exposed
        return actions, rows[_PAIR_INDEX[holes[:, 0], holes[:, 1]]]

    def _probe(self, state: NLTHState) -> tuple[list[int], np.ndarray] | None:
        """What the agent would play at ``state``, a state after the ones it has seen: a copy
        of it observes the rest of the way and answers (None: the blueprint plays there)."""
        seen = self._seen
        if seen is None or tuple(state.history[: len(seen.history)]) != tuple(seen.history):
            return None
        probe = copy.copy(self)
        probe.rng = copy.deepcopy(self.rng)
        probe.decisions, probe.actions, probe.cards = list(self.decisions), list(self.actions), list(self.cards)
        probe.added = {path: set(amounts) for path, amounts in self.added.items()}
        probe.frozen, probe._played, probe._probes, probe._deadline = dict(self.frozen), {}, {}, None
        before = seen
        for action in state.history[len(seen.history) :]:
            probe.observe(before, action)
            before = before.child(action)
        found = probe._strategy(state) if probe._searching() else None
        return None if found is None else _by_real_action(state, found[1], found[2])


_PAIR_INDEX = np.full((52, 52), -1, dtype=np.int64)
_PAIR_INDEX[HAND_CARDS[:, 0], HAND_CARDS[:, 1]] = _PAIR_INDEX[HAND_CARDS[:, 1], HAND_CARDS[:, 0]] = np.arange(NUM_HANDS)


def _by_real_action(state: NLTHState, labels: list[int], rows: np.ndarray) -> tuple[list[int], np.ndarray]:
    """Subgame rows as the real actions :meth:`NLTHSearchAgent.act` plays for them (labels
    that land on the same real action merged), each row normalised as ``act`` samples it."""
    real = [_real_action(state, label) for label in labels]
    actions = sorted(set(real))
    merged = np.zeros((rows.shape[0], len(actions)))
    for col, action in enumerate(real):
        merged[:, actions.index(action)] += rows[:, col]
    total = merged.sum(axis=1, keepdims=True)
    return actions, np.divide(merged, total, out=np.full_like(merged, 1.0 / len(actions)), where=total > 0)


def _template_cards(board: tuple[int, ...]) -> tuple[int, int]:
    """The turn and river cards of a flop's one-board template (any two off the board: the
    sampling solver relabels them every iteration)."""
    first, second = [c for c in range(52) if c not in board][:2]
    return first, second


def _walk(form, path: tuple[int, ...]) -> int | None:
    """The node reached from the root by ``path`` (edge labels), None if it leaves the form."""
    node = 0
    for label in path:
        labels = [int(a) for a in form.labels(node)]
        if label not in labels:
            return None
        node = int(form.children(node)[labels.index(label)])
    return node


def _real_action(state: NLTHState, label: int) -> int:
    if label == FOLD and state.call_amount > 0:
        return FOLD
    lo, hi = state.min_raise_to, state.max_raise_to
    if label in (FOLD, CHECK_CALL) or lo is None:
        return CHECK_CALL
    return raise_action(min(max(action_raise_to(label), lo), hi))


def _closest(actions: list[int], action: int) -> int:
    """The column of ``action`` among the blueprint's real ``actions``, else of the nearest
    one of its kind (raises by the ratio of raise-to amounts)."""
    if action in actions:
        return actions.index(action)
    raises = [i for i, a in enumerate(actions) if a >= 2]
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
