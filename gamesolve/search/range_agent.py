"""Real-time search over ranges for games too large to enumerate (supplement, "Further details
of the real-time search algorithm"; Algorithm 2): one agent for every game whose plugin
supplies a :class:`~gamesolve.search.domain.SearchDomain`.

How a hand goes for the agent in ``seat``:

* Beliefs are one vector over the private states per player
  (:class:`~gamesolve.search.beliefs.ItemRanges`), at the root of the current betting round.
  When a round ends they are carried to the next root by Bayes' rule with the profile sigma
  (lines 16-19): the blueprint where the round was not searched, else the latest search's
  *average* strategy; for the agent's own actions, the probabilities it actually played with
  for its actual private state (line 13), sigma for its other states. Public items dealt remove
  the states holding them.
* Which rounds search, and the subgame of each, are the plugin's
  (:meth:`~gamesolve.search.domain.SearchDomain.plan`); the solver is the core's, picked by the
  subgame's shape (:func:`~gamesolve.search.range_solve.solve_subgame`).
* An opponent's action the subgame does not offer is added where it was taken and the round is
  re-solved from its root (lines 5-8), with the agent's own earlier actions in the round
  frozen for its actual private state.
* An opponent's action the plugin names a trigger (hold'em: a first-round raise far from the
  blueprint's sizes) moves the root to the state after it, the beliefs carried there by the
  blueprint, and the rest of the round is searched.
* Each solve runs until its time budget (``seconds``, the decision's: observing and building
  count against it) or its iteration cap; the agent plays the final iteration's strategy
  (``play=current``, as Pluribus) and keeps the average as sigma. Other decisions play the
  blueprint. Every decision is recorded (:class:`Decision`).
* ``record=PATH`` logs each solve's iterations; ``replay=PATH`` stops each solve at the logged
  iterations instead of a clock, which plays a time-budgeted match again to the bit
  (:mod:`gamesolve.search.solve_log`). Copies made to probe the agent's strategy elsewhere
  (:meth:`fork`) neither log nor replay; under a replay they solve to the iteration caps.
"""

from __future__ import annotations

import copy
import hashlib
import time

import attrs
import numpy as np

from gamesolve.agents import Agent, hand_seed
from gamesolve.game.state import CHANCE, State
from gamesolve.search.beliefs import ItemRanges
from gamesolve.search.domain import Path, RangeSubgame, RoundPlan, SearchDomain
from gamesolve.search.range_solve import RangeSolveConfig, SolvedSubgame, solve_subgame
from gamesolve.search.solve_log import LoggedSolve, SolveRecorder, SolveReplay


@attrs.frozen
class Decision:
    """One decision of the agent: its round, the seconds it took (searches since the last
    decision included) and whether a search decided it."""

    round: int
    seconds: float
    searched: bool


class RangeSearchAgent(Agent):
    """Plays one seat with real-time search (see the module docstring) over ``blueprint``, an
    agent of the game (``act``, ``new_hand``, ``range_probabilities``).

    Its strategy over its whole range (:meth:`range_probabilities`, for local best response): at
    a decision it searched, the rows of that solve for every private state (for the one it
    holds, exactly what :meth:`act` samples from); at a state it has not acted at, what a copy
    of it that follows the hand there would play (searching there if the round searches); the
    blueprint's where the blueprint plays.
    """

    name = "search"
    strategy_is_exact = False
    """For the private state the agent holds the exposure is what it plays; for its other states
    it is a model: an agent actually holding one would have frozen its own earlier rows with that
    state's probabilities and carried its own range with them (Algorithm 2, line 13) and, under
    a time budget, solved for a different time. Local best response may use a model; AIVAT over
    every state of the range does not: it evaluates the agent on the state it holds alone
    (``own_strategy_is_exact``)."""
    own_strategy_is_exact = True
    """The exposure for the private state the agent holds is exactly what it plays (tested):
    AIVAT's corrections at chance and at its own decisions hold with that state alone."""

    def __init__(self, game, blueprint, domain: SearchDomain, config: RangeSolveConfig = RangeSolveConfig(), seed: int = 0,
                 memo: SolveMemo | None = None):  # fmt: skip
        self.game = game
        self.blueprint = blueprint
        self.domain = domain
        self._recorder = SolveRecorder(config.record) if config.record else None
        self._replay = SolveReplay(config.replay) if config.replay else None
        # A replay runs no clock: its solves stop at the logged iterations.
        self.config = config if self._replay is None else attrs.evolve(config, seconds=0.0)
        self.num_private = int(domain.items.shape[0])
        self.seed = seed
        self.memo = memo if memo is not None else SolveMemo()
        self.settings: dict = {}  # the options it was built with, to report (e.g. ``exploitability --search``)
        self.new_hand(0, 0)

    # -- random numbers ------------------------------------------------------------------
    @property
    def rng(self) -> np.random.Generator:
        """This hand's random numbers. A copy made by :meth:`fork` holds the generator's state
        and builds its own generator only if it draws (the walk that composes the agent's
        strategy forks it at every observation and draws nothing)."""
        if self._rng is None:
            bits = self._bits(0)
            bits.state = self._rng_state
            self._rng = np.random.Generator(bits)
        return self._rng

    @rng.setter
    def rng(self, rng: np.random.Generator) -> None:
        self._rng, self._rng_state = rng, None
        self._bits = type(rng.bit_generator)

    def _rng_copy_state(self) -> dict:
        return self._rng_state if self._rng is None else self._rng.bit_generator.state

    # -- a hand --------------------------------------------------------------------------
    def new_hand(self, seat: int, hand: int) -> None:
        self.blueprint.new_hand(seat, hand)
        self.hand = hand
        self.rng = np.random.default_rng(hand_seed(self.seed, hand))
        self._start_hand(seat)

    def _start_hand(self, seat: int) -> None:
        """The agent's state at the start of a hand in ``seat`` (the blueprint's and the
        random numbers aside)."""
        self.seat = seat
        self.decisions: list[Decision] = []  # this hand's
        self.solves_in_hand = 0  # solves run (kept ones aside): their numbers in a solve log
        initial = getattr(self.domain, "initial_ranges", None)  # beliefs of another kind (the exact check)
        self.ranges = initial() if initial is not None else ItemRanges.initial(self.domain.items, self.game.num_players)
        self.root: State | None = None  # the round's root
        self.plan: RoundPlan | None = None  # how the round searches (None: the blueprint plays it)
        self.triggered = False  # the root was moved to an opponent's triggering action
        # (state, player, action) since the root, chance included: a round may span public chance
        # (a subgame searched to the end of the game), whose outcome is then on the path
        self.actions: list[tuple[State, int, int]] = []
        self.dealt: list[int] = []  # public items dealt since the root
        self.added: dict[Path, set[int]] = {}  # path -> labels added this round
        self.frozen: dict[Path, dict[int, float]] = {}  # our path -> probabilities played
        self.solved: SolvedSubgame | None = None
        self.stale = False  # an action was added since the last solve
        self._built: tuple[tuple, RangeSubgame | None] | None = None  # (added, the round's subgame)
        self.busy = 0.0
        self._deadline: float | None = None  # when the current decision's time budget ends
        # Seconds per subgame node the last solve of each kind took to read its strategies
        # out, which a decision's budget reserves (sampled-chance and MCCFR solves; a vector
        # CFR solve is read node by node when asked, about nothing).
        self._readout: dict[str, float] = {}
        self._seen: State | None = None  # the state after the last transition observed
        self._played: dict[tuple[int, ...], tuple[list[int], np.ndarray] | None] = {}  # history -> exposure
        self._probes: dict[tuple[int, ...], tuple[list[int], np.ndarray] | None] = {}  # hypothetical states'

    def observe(self, state: State, action: int) -> None:
        started = time.perf_counter()
        player = state.current_player()
        child = self._seen = state.child(action)
        if player == CHANCE:
            before = len(self.domain.public_items(state))
            self.dealt.extend(int(i) for i in self.domain.public_items(child)[before:])
        else:
            if player != self.seat and self.plan is not None and not self._offered(state, action):
                # Lines 5-7: the action joins the subgame where it was taken; the round is
                # re-solved from its root before sigma or play needs it.
                self.added.setdefault(self._path(state), set()).add(self.plan.label(state, action))
                self.stale = True
        self.actions.append((state, player, int(action)))
        if child.current_player() >= 0 and (self.root is None or self.domain.round_of(child) != self.domain.round_of(self.root)):
            self._new_round(child)
        elif (player >= 0 and player != self.seat and child.current_player() >= 0 and not self.triggered
              and self.domain.triggers(state, player, action, self.seat)):  # fmt: skip
            self._move_root(child)
        self.busy += time.perf_counter() - started

    def act(self, state: State, seat: int) -> int:
        started = time.perf_counter()
        searched = self.plan is not None
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
            self._played[_history(state)] = None
            action = self.blueprint.act(state, seat)
        self.decisions.append(Decision(self.domain.round_of(state), self.busy + time.perf_counter() - started, searched))
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

    # -- roots and beliefs ----------------------------------------------------------------
    def _move_root(self, state: State) -> None:
        """A triggered search starts at the public state after the opponent's action (unsafe
        search from there), with the beliefs carried to it by sigma."""
        self.ranges, self.root, self.triggered = self._carried(), state, True
        self.actions, self.added, self.frozen = [], {}, {}
        self._reset_round()

    def _new_round(self, root: State) -> None:
        """CHECKNEWROUND: carry the beliefs to the new round's root with sigma."""
        if self.stale:
            self._solve()  # sigma of this round includes the added actions
        ranges = self._carried()
        for item in self.dealt:
            ranges = ranges.after_item(item)
        if self.root is None:  # the first round: the public items are whatever is out already
            for item in self.domain.public_items(root):
                ranges = ranges.after_item(item)
        self.ranges, self.root = ranges, root
        self.actions, self.dealt, self.added, self.frozen = [], [], {}, {}
        self._reset_round()

    def _carried(self):
        """The beliefs at the root carried along the round's transitions: Bayes' rule with sigma
        at every action (lines 16-19), chance outcomes as the beliefs follow them (ranges need
        only the public items, which :meth:`_new_round` removes; enumerated histories expand)."""
        ranges = self.ranges
        for state, player, action in self.actions:
            if player == CHANCE:
                ranges = ranges.after_chance(state, action)
            else:
                ranges = ranges.after_action(player, self._sigma(state, player, action), action)
        return ranges

    def _reset_round(self) -> None:
        self.solved, self.stale, self._built = None, False, None
        self.plan = self.domain.plan(self.root, self.seat, self.triggered)

    def _sigma(self, state: State, player: int, action: int) -> np.ndarray:
        """``float[S]``: sigma's probability of ``action`` at ``state`` for each private state
        of ``player``: the last solve's average where it covers the state, else the blueprint;
        for the agent's own action, what it played with for its actual private state."""
        out = None
        label = self._label(state, action) if self.solved is not None else None
        if self.solved is not None:
            node = _walk(self.solved.form, self._path(state))
            labels = [] if node is None else [int(a) for a in self.solved.form.labels(node)]
            rows = self.solved.rows(node, "average") if label in labels else None
            if rows is not None:
                out = rows[:, labels.index(label)].copy()
        if out is None:
            out = self.domain.blueprint_probs(state, player, action)
        played = self.frozen.get(self._path(state)) if player == self.seat else None
        if played is not None:
            out[self.domain.private_index(state, self.seat)] = played.get(label, 0.0)
        return out

    # -- the subgame -----------------------------------------------------------------------
    def _subgame(self) -> RangeSubgame | None:
        """The round's subgame with the actions added so far (built once per addition)."""
        key = tuple(sorted((k, tuple(sorted(v))) for k, v in self.added.items()))
        if self._built is None or self._built[0] != key:
            self._built = (key, self.plan.subgame(self.added, self.ranges))
        return self._built[1]

    def _frozen_rows(self, form) -> dict[tuple[int, int], np.ndarray]:
        """Line 13: the agent's own earlier actions in the round, for its actual private state."""
        mine = self.domain.private_index(self.root, self.seat)
        frozen = {}
        for path, played in self.frozen.items():
            node = _walk(form, path)
            if node is not None:
                frozen[(node, mine)] = np.array([played.get(int(a), 0.0) for a in form.labels(node)])
        return frozen

    def _solve(self) -> None:
        """Search(G_root): the round's subgame from its root, with the added actions and the
        agent's own earlier actions in the round frozen for its actual private state; anytime:
        it stops when the time budget is spent and plays what there is."""
        self.solved, self.stale = None, False
        key = self._memo_key()
        kept = self.memo.get(key)
        if kept is not None:
            self.solved = kept
            return
        subgame = self._subgame()
        if subgame is None:
            return  # the beliefs say this cannot happen: play the blueprint
        # A kept solve must be the one computed again: a sampling solver is then seeded by what
        # decides the solve (and the agent's seed), not by the hand's random numbers.
        rng = self.rng if key is None else np.random.default_rng([self.seed, _digest(key)])
        nodes, number, round_ = int(subgame.form.num_nodes), self.solves_in_hand, int(self.domain.round_of(self.root))
        stop_at = None if self._replay is None else self._replay.solve(self.hand, self.seat, number, round_, nodes)
        self.solved = solve_subgame(subgame, self.config, self.num_private, self._frozen_rows(subgame.form), rng,
                                    self._budget, self._readout, stop_at)  # fmt: skip
        self.memo.solves += 1
        self.solves_in_hand += 1
        if self._recorder is not None:
            self._recorder.write(self.hand, self.seat, number, LoggedSolve(round_, int(self.solved.iterations), nodes))
        if key is not None:
            self.memo.keep(key, self.solved)

    def _memo_key(self) -> tuple | None:
        """What decides the round's solve, where a kept one may stand for it (:class:`SolveMemo`)."""
        plan_key = getattr(self.plan, "memo_key", None)
        # A solve log numbers every solve of a hand: none is skipped for a kept one.
        if plan_key is None or self.config.seconds > 0 or self._recorder is not None or self._replay is not None:
            return None
        added = tuple(sorted((path, tuple(sorted(labels))) for path, labels in self.added.items()))
        frozen = tuple(sorted((path, tuple(sorted(played.items()))) for path, played in self.frozen.items()))
        # Frozen rows are the held private state's: a solve with some is that state's alone.
        mine = self.domain.private_index(self.root, self.seat) if frozen else None
        return plan_key, self.ranges.reach.tobytes(), added, frozen, mine

    def _path(self, state: State) -> Path:
        """The subgame labels of the round's actions before ``state`` (one of them, or the
        state after all of them)."""
        actions = self.actions
        for i, (before, _, _) in enumerate(actions):
            if before is state:
                actions = actions[:i]
                break
        return tuple(self._label(before, a) for before, _, a in actions)

    def _label(self, state: State, action: int) -> int:
        """``action`` as the round's subgame labels it (a round that does not search: itself)."""
        return int(action) if self.plan is None else self.plan.label(state, action)

    def _offered(self, state: State, action: int) -> bool:
        """Whether the round's subgame offers ``action`` at ``state`` (a plan whose subgames
        offer every action says so: ``offers_every_action``)."""
        if getattr(self.plan, "offers_every_action", False):
            return True
        subgame = self._subgame()
        node = None if subgame is None else _walk(subgame.form, self._path(state))
        return node is not None and self.plan.label(state, action) in {int(a) for a in subgame.form.labels(node)}

    def _strategy(self, state: State) -> tuple[Path, list[int], np.ndarray] | None:
        """The searched strategy at ``state`` (solving first where needed): the path to it,
        the subgame's labels there and ``rows[S, labels]`` the agent plays; None where the
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

    def _frozen_play(self, state: State) -> tuple[list[int], np.ndarray, np.ndarray] | None:
        """The searched strategy at ``state`` (labels, rows over the range) and the probabilities
        of the private state the agent holds, which are frozen there (line 13); None where the
        blueprint plays."""
        found = self._strategy(state)
        if found is None:
            return None
        path, labels, rows = found
        probs = rows[self.domain.private_index(state, self.seat)]
        self.frozen[path] = {a: float(p) for a, p in zip(labels, probs)}
        return labels, rows, probs

    def _search_action(self, state: State) -> int | None:
        found = self._frozen_play(state)
        if found is None:
            return None
        labels, rows, probs = found
        self._played[_history(state)] = _by_real_action(self.domain, state, labels, rows)
        label = labels[int(self.rng.choice(len(labels), p=probs / probs.sum()))]
        return self.domain.real_action(state, label)

    # -- the strategy over the range (local best response) ----------------------------------
    def range_probabilities(self, state: State, seat: int, privates: np.ndarray) -> tuple[list[int], np.ndarray]:
        """The agent's strategy at ``state`` for each of ``privates`` (as the plugin's agents
        name private states: hold'em ``int[n, 2]`` hole cards none touching the board): the
        real actions and ``probs[n, actions]`` (see the class docstring). Neither the agent's
        state nor its random numbers change."""
        key = _history(state)
        if key in self._played:
            exposed = self._played[key]
        else:
            if key not in self._probes:
                self._probes[key] = self._probe(state)
            exposed = self._probes[key]
        if exposed is None:
            return self.blueprint.range_probabilities(state, seat, privates)
        actions, rows = exposed
        return actions, rows[self.domain.private_indices(privates)]

    def fork(self) -> RangeSearchAgent:
        """A copy that goes on from here on its own (beliefs, the round's solve, added actions,
        frozen rows, random numbers); the kept solves are shared."""
        other = copy.copy(self)
        other._rng, other._rng_state = None, self._rng_copy_state()
        other._recorder = other._replay = None  # its solves are not the match's
        other.decisions, other.actions, other.dealt = list(self.decisions), list(self.actions), list(self.dealt)
        other.added = {path: set(labels) for path, labels in self.added.items()}
        other.frozen, other._played, other._probes, other._deadline = dict(self.frozen), {}, {}, None
        return other

    def replayed(self, seat: int, path) -> RangeSearchAgent:
        """A copy that played the hand of ``path`` (its ``(state, action)`` transitions from the
        start) in ``seat``: what an agent holding that hand's private state would have done (its
        own earlier rows frozen with that state's probabilities). Nothing of this agent changes;
        the kept solves are shared. Its :meth:`policy` is the agent's exposure over its range
        (exact without a time budget: the solves depend on the hand alone)."""
        probe = self.fork()
        probe._start_hand(seat)
        for before, action in path:
            probe.observe(before, action)
        return probe

    def policy(self, state: State) -> dict[int, float]:
        """``{real action: probability}`` that :meth:`act` samples from at ``state`` for the
        private state the agent holds, its row there frozen as :meth:`act` freezes it; the
        blueprint's where it plays. The walk that composes the agent's whole strategy for an
        exact best response asks this, then forks the agent (``seconds=0``: no time budget)."""
        found = self._frozen_play(state) if self.plan is not None else None
        if found is None:
            mine = self.domain.private_index(state, self.seat)
            return {int(a): float(self.domain.blueprint_probs(state, self.seat, int(a))[mine]) for a in state.legal_actions()}
        labels, _, probs = found
        actions, merged = _by_real_action(self.domain, state, labels, probs[None, :])
        return dict(zip(actions, merged[0].tolist()))

    def _probe(self, state: State) -> tuple[list[int], np.ndarray] | None:
        """What the agent would play at ``state``, a state after the ones it has seen: a copy
        of it observes the rest of the way and answers (None: the blueprint plays there)."""
        seen = self._seen
        if seen is None or not hasattr(state, "history") or tuple(state.history[: len(seen.history)]) != tuple(seen.history):
            return None
        probe = self.fork()
        before = seen
        for action in state.history[len(seen.history) :]:
            probe.observe(before, action)
            before = before.child(action)
        found = probe._strategy(state) if probe.plan is not None else None
        return None if found is None else _by_real_action(self.domain, state, found[1], found[2])


class SolveMemo:
    """Solves kept across hands (and by the agents sharing it), by what decides them: the plan's
    key (a plugin that names its round's subgame), the ranges at the root, the added actions and
    the frozen rows. Only solves without a time budget are kept: they stop at their iteration
    cap, and draw no random numbers (vector CFR) or draw them from a seed made of what decides
    the solve (Linear MCCFR), so a kept solve is exactly the one that would be computed again.
    The most recently used are kept up to ``max_bytes`` of their tables (None: all, as
    composing the agent's whole strategy wants; a Liar's Dice 2x6 subgame of 32,768 nodes holds
    about 30 MB, a Leduc round's a few kilobytes); ``solves`` counts the solves run."""

    def __init__(self, max_bytes: int | None = 2**30):
        self.max_bytes = max_bytes
        self.solves = 0
        self._kept: dict[tuple, tuple[SolvedSubgame, int]] = {}
        self._bytes = 0

    def get(self, key: tuple | None) -> SolvedSubgame | None:
        if key is None or key not in self._kept:
            return None
        kept = self._kept[key] = self._kept.pop(key)  # the most recently used last
        return kept[0]

    def keep(self, key: tuple, solved: SolvedSubgame) -> None:
        size = _array_bytes(solved.solver if solved.solver is not None else solved)
        self._kept[key] = (solved, size)
        self._bytes += size
        while self.max_bytes is not None and self._bytes > self.max_bytes:
            self._bytes -= self._kept.pop(next(iter(self._kept)))[1]


def _digest(key: tuple) -> int:
    """A stable 64-bit number of ``key`` (Python's ``hash`` of strings changes per process)."""
    return int.from_bytes(hashlib.blake2b(repr(key).encode(), digest_size=8).digest(), "little")


def _array_bytes(holder) -> int:
    """The bytes of the arrays ``holder`` holds (its own and in its bundles of arrays)."""
    total = 0
    for value in (attrs.asdict(holder, recurse=False) if attrs.has(type(holder)) else vars(holder)).values():
        parts = value if isinstance(value, tuple) else (value,)
        total += sum(part.nbytes for part in parts if isinstance(part, np.ndarray))
    return total


def _history(state: State):
    """A key of ``state`` within a hand: its actions where the state keeps them (hold'em), else
    its public state key (the agent's own private state is the same all hand)."""
    history = getattr(state, "history", None)
    return tuple(history) if history is not None else state.public_state_key()


def _by_real_action(domain: SearchDomain, state: State, labels: list[int], rows: np.ndarray) -> tuple[list[int], np.ndarray]:
    """Subgame rows as the real actions :meth:`RangeSearchAgent.act` plays for them (labels
    that land on the same real action merged), each row normalised as ``act`` samples it."""
    real = [domain.real_action(state, label) for label in labels]
    actions = sorted(set(real))
    merged = np.zeros((rows.shape[0], len(actions)))
    for col, action in enumerate(real):
        merged[:, actions.index(action)] += rows[:, col]
    total = merged.sum(axis=1, keepdims=True)
    return actions, np.divide(merged, total, out=np.full_like(merged, 1.0 / len(actions)), where=total > 0)


def _walk(form, path: Path) -> int | None:
    """The node reached from the root by ``path`` (edge labels), None if it leaves the form."""
    node = 0
    for label in path:
        labels = [int(a) for a in form.labels(node)]
        if label not in labels:
            return None
        node = int(form.children(node)[labels.index(label)])
    return node
