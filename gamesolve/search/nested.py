"""Nested unsafe search (Algorithm 2 of the supplement) and the search agent.

:class:`SearchAgent` plays one seat of a hand. It sees only what its seat sees: public
state keys and its own information-state keys (it never reads other players' cards).

* The root of every subgame is the public state at the start of the current betting round
  (lines 2, 16-19): when a new round starts, the beliefs are carried to the new root by
  Bayes' rule with the profile ``sigma`` in force and the subgame is searched again.
* ``sigma`` is the blueprint until the first search, then the latest search's *average*
  strategy; the agent *plays* the final iteration's strategy (``SearchConfig.play``).
* When an opponent takes an action the subgame's action abstraction does not offer, the
  action is added at that public state and the subgame is re-solved from the round's root
  (lines 4-8).
* Once the agent has acted at an information set its probabilities there are frozen for
  its actual hand only (line 13): later searches in the round keep them (the subgame turns
  that information set into a chance node), while its other hands and the opponents stay
  free. Moving the root at a new round freezes everything before it.
* With a depth limit inside a round (after some actions or raises) play can pass the
  leaves; then the root moves to the current public state (an extension: Algorithm 2 only
  moves it at new rounds because Pluribus' mid-round leaves lead to a re-search anyway).

Searches are pure functions of (root beliefs, added actions, frozen probabilities), so a
:class:`SearchCache` shared by agents with one configuration memoises them; composing the
agent's whole strategy for exact evaluation relies on that.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping

import attrs
import numpy as np

from gamesolve.game.state import CHANCE, Game, State
from gamesolve.search.adapter import RAISE, ActionAbstraction, AllActions, LeafMapping, PokerAdapter, identity_mapping
from gamesolve.search.beliefs import PublicBeliefState
from gamesolve.search.leaves import BIASES, ContinuationStrategies, ExactLeafValues, LeafEvaluator, SampledLeafValues
from gamesolve.search.policy import Policy
from gamesolve.search.solve import MCCFRSubgameSolver, SearchResult, SizeDependentSolver, SubgameSolver, TabularSubgameSolver
from gamesolve.search.subgame import DepthLimit, Subgame, SubgameSpec
from gamesolve.solve.cfr import TABULAR_ALGORITHMS


@attrs.frozen
class SearchConfig:
    """Parameters of the real-time search.

    :ivar k: continuation strategies per player at leaves (1 = blueprint-valued leaves).
    :ivar depth: where leaves are (default: end of the betting round).
    :ivar iterations: Linear CFR iterations per search.
    :ivar play: ``current`` (the final iteration, as Pluribus) or ``average``.
    :ivar first_round: ``search`` (search from the first decision) or ``blueprint``
        (Pluribus: play the blueprint in the first round unless an opponent goes off-tree).
    :ivar bias_factor: multiplier of the biased continuation strategies (paper: 5).
    :ivar search_rounds: betting rounds (0 = the first) in which the agent searches; None:
        all. In other rounds it keeps the last search's strategy where that covers the
        round, else the blueprint (beliefs still move with the root).
    :ivar sampling_above: subgames with more nodes than this are solved by Linear MCCFR
        (``mccfr_iterations``), as Pluribus does for large subgames; None: always
        full-width (``iterations`` of ``algorithm``).
    :ivar rollouts: leaf values from this many sampled rollouts per joint continuation
        choice; None: exact leaf values (small games).
    :ivar seed: seed of the sampling solver and of the rollouts.
    """

    k: int = 4
    depth: DepthLimit = DepthLimit()
    iterations: int = 1000
    algorithm: str = "lcfr"
    play: str = attrs.field(default="current", validator=attrs.validators.in_(("current", "average")))
    first_round: str = attrs.field(default="search", validator=attrs.validators.in_(("search", "blueprint")))
    bias_factor: float = 5.0
    search_rounds: tuple[int, ...] | None = None
    sampling_above: int | None = None
    mccfr_iterations: int = 100_000
    rollouts: int | None = None
    seed: int = 0

    @classmethod
    def from_options(cls, options: Mapping[str, str]) -> SearchConfig:
        """A configuration from ``KEY=VALUE`` strings (the command line's ``-s``): ``k``,
        ``iterations``, ``algorithm``, ``play``, ``first_round``, ``bias_factor``, ``depth``
        (``round``, ``game``, or ``+``-joined ``round``, ``actions:N``, ``raises:N``),
        ``search_rounds`` (comma-separated, 0 = the first), ``sampling_above``,
        ``mccfr_iterations``, ``rollouts``, ``seed``. :class:`ValueError` names a bad one."""
        known = {
            "k": int, "iterations": int, "algorithm": str, "play": str, "first_round": str, "bias_factor": float,
            "depth": _parse_depth, "search_rounds": lambda v: tuple(int(x) for x in v.split(",")),
            "sampling_above": int, "mccfr_iterations": int, "rollouts": int, "seed": int,
        }  # fmt: skip
        values = {}
        for key, raw in options.items():
            if key not in known:
                raise ValueError(f"unknown search option {key!r} (known: {', '.join(known)})")
            try:
                values[key] = known[key](str(raw))
            except ValueError:
                raise ValueError(f"search option {key}={raw!r} is not valid") from None
        for key in ("k", "iterations", "mccfr_iterations", "rollouts"):
            if key in values and values[key] < 1:
                raise ValueError(f"search option {key} must be at least 1, got {values[key]}")
        if "k" in values and values["k"] > len(BIASES):
            raise ValueError(f"search option k must be at most {len(BIASES)}, got {values['k']}")
        if values.get("algorithm", "lcfr") not in TABULAR_ALGORITHMS:
            raise ValueError(f"search option algorithm must be one of {', '.join(TABULAR_ALGORITHMS)}")
        try:
            return cls(**values)
        except ValueError as exc:  # attrs validators: keep their message only
            raise ValueError(f"search option {exc.args[0]}") from None

    def solver(self) -> SubgameSolver:
        full_width = TabularSubgameSolver(self.iterations, self.algorithm)
        if self.sampling_above is None:
            return full_width
        return SizeDependentSolver(full_width, MCCFRSubgameSolver(self.mccfr_iterations, self.seed), self.sampling_above)

    def leaf_values(self, blueprint: Policy, adapter: PokerAdapter, num_players: int,
                    leaf_mapping: LeafMapping = identity_mapping) -> LeafEvaluator:
        continuations = ContinuationStrategies.first(self.k, blueprint, adapter, self.bias_factor)
        if self.rollouts is None:
            return ExactLeafValues(continuations, num_players, leaf_mapping)
        return SampledLeafValues(continuations, num_players, self.rollouts, self.seed, leaf_mapping)


def _parse_depth(text: str) -> DepthLimit:
    if text == "game":
        return DepthLimit.end_of_game()
    end_of_round, limits = False, {}
    for part in text.split("+"):
        name, _, n = part.partition(":")
        if name == "round" and not n:
            end_of_round = True
        elif name in ("actions", "raises") and n:
            limits[name] = int(n)
        else:
            raise ValueError(part)
    return DepthLimit(end_of_round=end_of_round, **limits)


class SearchCache:
    """Memoised searches and root beliefs, shared by agents of one game, blueprint,
    abstraction and configuration."""

    def __init__(self):
        self.searches: dict = {}
        self.roots: dict = {}
        self.solves = 0


def _frozen_key(frozen: Mapping[str, Mapping[int, float]]) -> tuple:
    return tuple(sorted((k, tuple(sorted(d.items()))) for k, d in frozen.items()))


class SearchAgent:
    """Plays ``seat`` with nested unsafe search (see the module docstring).

    Protocol of a hand: :meth:`new_hand`, then :meth:`observe` for every transition of the
    real game (chance included; the agent reads only the next public state), and
    :meth:`policy` / :meth:`act` when it is the agent's turn.
    """

    def __init__(self, game: Game, blueprint: Policy, adapter: PokerAdapter, seat: int,
                 config: SearchConfig = SearchConfig(), abstraction: ActionAbstraction | None = None,
                 leaf_mapping: LeafMapping = identity_mapping, solver: SubgameSolver | None = None,
                 leaf_values: LeafEvaluator | None = None, cache: SearchCache | None = None):
        self.game = game
        self.blueprint = blueprint
        self.adapter = adapter
        self.seat = seat
        self.config = config
        self.abstraction = abstraction if abstraction is not None else AllActions()
        self.solver = solver or config.solver()
        if leaf_values is None and not config.depth.unlimited:
            leaf_values = config.leaf_values(blueprint, adapter, game.num_players, leaf_mapping)
        self.leaf_values = leaf_values
        self.cache = cache if cache is not None else SearchCache()
        self.new_hand()

    # -- hand state ---------------------------------------------------------------------
    def new_hand(self) -> None:
        self.root = PublicBeliefState.initial(self.game)  # G_root with its beliefs
        self.root_key: tuple = ("start",)
        self.root_round = -1
        self.first_round = None
        self.events: list[tuple[str, object]] = []  # public events since the root
        self.added: set[tuple[str, int]] = set()
        self.frozen: dict[str, dict[int, float]] = {}
        self.sigma: SearchResult | None = None
        self.sigma_key: tuple = ("blueprint",)
        self.searches: list[tuple[str, str]] = []  # (reason, root public key) of each search

    def fork(self) -> SearchAgent:
        """An independent copy of the hand state (shares the blueprint and the cache)."""
        other = copy.copy(self)
        other.events = list(self.events)
        other.added = set(self.added)
        other.frozen = dict(self.frozen)
        other.searches = list(self.searches)
        return other

    # -- the profile sigma --------------------------------------------------------------
    def _blueprint_distribution(self, state: State, player: int) -> dict[int, float]:
        probs = self.blueprint.probs(state, player)
        return {int(a): float(p) for a, p in zip(state.legal_actions(), probs)}

    def _sigma_prob(self, state: State, player: int, action: int) -> float:
        key = state.information_state_key(player)
        if player == self.seat and key in self.frozen:
            return self.frozen[key].get(int(action), 0.0)
        if self.sigma is not None and key in self.sigma.average:
            return self.sigma.average.action_prob(key, action)
        return self._blueprint_distribution(state, player).get(int(action), 0.0)

    def _offered(self, state: State) -> set[int]:
        key = state.public_state_key()
        return set(self.abstraction.actions(state)) | {a for (k, a) in self.added if k == key}

    # -- Algorithm 2 ----------------------------------------------------------------------
    def observe(self, state: State, action: int) -> None:
        """A transition of the real game: ``action`` taken at ``state`` (by anyone, or chance)."""
        player = state.current_player()
        child = state.child(action)
        if player == CHANCE:
            self.events.append(("chance", child.public_state_key()))
        else:
            if player == self.seat:
                if state.information_state_key(player) not in self.frozen:
                    self.policy(state)  # OURTURN: freezes the probabilities it acts with
            elif int(action) not in self._offered(state):  # OPPONENTTURN, lines 5-8
                self.added.add((state.public_state_key(), int(action)))
                self._search("off-tree action")
            self.events.append(("action", int(action)))
        self._check_new_round(child)

    def policy(self, state: State) -> dict[int, float]:
        """The agent's action probabilities at its turn; they become frozen (line 13)."""
        if state.current_player() != self.seat:
            raise ValueError(f"it is player {state.current_player()}'s turn, not seat {self.seat}'s")
        key = state.information_state_key(self.seat)
        if key in self.frozen:
            return dict(self.frozen[key])
        if self.sigma is None and self._searching():
            self._search("first decision")
        elif self.sigma is not None and self._beyond_leaves():
            self._move_root("past the leaves")
        table = None
        if self.sigma is not None:
            table = self.sigma.current if self.config.play == "current" else self.sigma.average
        if table is not None and key in table:
            dist = table.distribution(key)
        else:  # blueprint round, or a hand the search gave probability 0 (never played)
            dist = self._blueprint_distribution(state, self.seat)
        self.frozen[key] = dist
        return dict(dist)

    def act(self, state: State, rng: np.random.Generator) -> int:
        dist = self.policy(state)
        actions = list(dist)
        p = np.array([dist[a] for a in actions])
        return int(actions[rng.choice(len(actions), p=p / p.sum())])

    def _searching(self) -> bool:
        rounds = self.config.search_rounds
        if rounds is not None and self.root_round - self.first_round not in rounds:
            return False
        return self.config.first_round == "search" or self.root_round > self.first_round

    def _beyond_leaves(self) -> bool:
        d = self.config.depth
        actions = sum(1 for kind, _ in self.events if kind == "action")
        if d.actions is not None and actions >= d.actions:
            return True
        if d.raises is None:
            return False
        # Count raises by replaying the public events on one history of the root.
        raises, state = 0, self.root.representative
        for kind, x in self.events:
            if kind == "action":
                raises += self.adapter.classify(state, x)[0] == RAISE
                state = state.child(x)
            else:
                state = next(state.child(a) for a, _ in state.chance_outcomes()
                             if state.child(a).public_state_key() == x)
        return raises >= d.raises

    def _check_new_round(self, child: State) -> None:
        """CHECKNEWROUND (lines 16-19): a decision node of a later round becomes the root."""
        if child.current_player() < 0:
            return
        r = self.adapter.betting_round(child)
        if r <= self.root_round:
            return
        if self.first_round is None:
            self.first_round = r
        self._move_root("new round", r)

    def _move_root(self, reason: str, new_round: int | None = None) -> None:
        # Frozen probabilities change the beliefs only where they differ from sigma's average
        # (with play="average" they never do, and hands then share their searches).
        frozen = {k: d for k, d in self.frozen.items()
                  if self.sigma is None or k not in self.sigma.average or d != self.sigma.average.distribution(k)}
        key = (self.root_key, self.sigma_key, _frozen_key(frozen), tuple(self.events))
        root = self.cache.roots.get(key)
        if root is None:
            root = self.root
            for kind, x in self.events:
                root = root.after_chance(x) if kind == "chance" else root.after_action(x, self._sigma_prob)
            self.cache.roots[key] = root
        self.root, self.root_key = root, key
        if new_round is not None:
            self.root_round = new_round
        self.events = []
        self.frozen = {}  # everything before the root is fixed through the beliefs
        # Without a new search the agent keeps sigma where it reaches (an end-of-game
        # search covers later rounds) and falls back to the blueprint beyond it.
        if self._searching():
            self._search(reason)

    def _search(self, reason: str) -> None:
        """Search(G_root): solve the subgame from the round's root with the current additions
        and frozen probabilities; memoised in the shared cache."""
        frozen_key = _frozen_key(self.frozen)
        key = (self.config, self.solver, self.root_key, tuple(sorted(self.added)), self.seat if frozen_key else -1, frozen_key)
        result = self.cache.searches.get(key)
        if result is None:
            spec = SubgameSpec(
                root=self.root, adapter=self.adapter, abstraction=self.abstraction, depth=self.config.depth,
                leaf_values=self.leaf_values, added=frozenset(self.added),
                frozen={k: dict(v) for k, v in self.frozen.items()}, frozen_player=self.seat,
            )
            result = self.solver.solve(Subgame(spec))
            self.cache.searches[key] = result
            self.cache.solves += 1
        self.sigma, self.sigma_key = result, key
        self.searches.append((reason, self.root.public_key()))
