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

Beliefs come in two representations (``SearchConfig.beliefs``, :mod:`gamesolve.search.beliefs`):
``range`` (per-player vectors over private states: what scales) and ``exact`` (every history
enumerated: the check). Both feed the same subgame (cut from the game's lossless factored
form) and solver, so they agree to rounding.

Searches are pure functions of (root beliefs, added actions, frozen probabilities), so a
:class:`SearchCache` shared by agents with one configuration memoises them; composing the
agent's whole strategy for exact evaluation relies on that.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping

import attrs
import numpy as np

from gamesolve.game.continuation import MAX_CONTINUATIONS
from gamesolve.game.factored import CHANCE as CHANCE_NODE
from gamesolve.game.factored import FactoredGame, FormError
from gamesolve.game.state import CHANCE, Game, State
from gamesolve.options import typed_options
from gamesolve.search.abstraction import ActionAbstraction, AllActions
from gamesolve.search.beliefs import PublicBeliefState, RangeBeliefs
from gamesolve.search.leaves import ContinuationStrategies, ExactLeafValues, LeafEvaluator, SampledLeafValues
from gamesolve.search.locate import public_nodes
from gamesolve.search.policy import Policy
from gamesolve.search.solve import MCCFRSubgameSolver, SearchResult, SizeDependentSolver, SubgameSolver, VectorSubgameSolver
from gamesolve.search.subgame import DepthLimit, SubgameSpec, build_subgame
from gamesolve.solve.cfr import TABULAR_ALGORITHMS


@attrs.frozen
class SearchConfig:
    """Parameters of the real-time search.

    :ivar k: continuation strategies per player at leaves (1 = blueprint-valued leaves).
    :ivar depth: where leaves are (default: end of the betting round).
    :ivar iterations: Linear CFR iterations per search.
    :ivar algorithm: the vector solver's preset (``lcfr``, ``dcfr``, ``cfr+``, ``cfr``).
    :ivar play: ``current`` (the final iteration, as Pluribus) or ``average``.
    :ivar first_round: ``search`` (search from the first decision) or ``blueprint``
        (Pluribus: play the blueprint in the first round unless an opponent goes off-tree).
    :ivar bias_factor: multiplier of the biased continuation strategies (paper: 5).
    :ivar search_rounds: betting rounds (0 = the first) in which the agent searches; None:
        all. In other rounds it keeps the last search's strategy where that covers the
        round, else the blueprint (beliefs still move with the root).
    :ivar sampling_above: subgames with more public nodes than this are solved by Linear
        MCCFR (``mccfr_iterations``), as Pluribus does for large subgames; None: always
        vector CFR (``iterations`` of ``algorithm``).
    :ivar rollouts: leaf values from this many sampled rollouts per deal and joint
        continuation choice; None: exact leaf values (small games).
    :ivar beliefs: ``range`` (vectors over private states) or ``exact`` (every history).
    :ivar seed: seed of the sampling solver and of the rollouts.
    :ivar seconds: time budget of a vector-CFR search (anytime: it plays what it has when the
        budget ends); 0: none, ``iterations`` decide alone and play is reproducible anywhere.
    """

    k: int = 4
    depth: DepthLimit = DepthLimit()
    iterations: int = 1000
    algorithm: str = attrs.field(default="lcfr", validator=attrs.validators.in_(tuple(TABULAR_ALGORITHMS)))
    play: str = attrs.field(default="current", validator=attrs.validators.in_(("current", "average")))
    first_round: str = attrs.field(default="search", validator=attrs.validators.in_(("search", "blueprint")))
    bias_factor: float = 5.0
    search_rounds: tuple[int, ...] | None = None
    sampling_above: int | None = None
    mccfr_iterations: int = 100_000
    rollouts: int | None = None
    beliefs: str = attrs.field(default="range", validator=attrs.validators.in_(("range", "exact")))
    seed: int = 0
    seconds: float = 0.0

    @classmethod
    def from_options(cls, options: Mapping[str, str]) -> SearchConfig:
        """A configuration from ``KEY=VALUE`` strings (the command line's ``-s``): ``k``,
        ``iterations``, ``algorithm``, ``play``, ``first_round``, ``bias_factor``, ``depth``
        (``round``, ``game``, or ``+``-joined ``round``, ``actions:N``, ``raises:N``),
        ``search_rounds`` (comma-separated, 0 = the first), ``sampling_above``,
        ``mccfr_iterations``, ``rollouts``, ``beliefs``, ``seed``, ``seconds``. :class:`ValueError` names
        a bad one."""
        known = {
            "k": int, "iterations": int, "algorithm": str, "play": str, "first_round": str, "bias_factor": float,
            "depth": DepthLimit.parse, "search_rounds": lambda v: tuple(int(x) for x in v.split(",")),
            "sampling_above": int, "mccfr_iterations": int, "rollouts": int, "beliefs": str, "seed": int,
            "seconds": float,
        }  # fmt: skip
        values = typed_options(options, known)
        for key in ("k", "iterations", "mccfr_iterations", "rollouts"):
            if key in values and values[key] < 1:
                raise ValueError(f"search option {key} must be at least 1, got {values[key]}")
        if "k" in values and values["k"] > MAX_CONTINUATIONS:
            raise ValueError(f"search option k must be at most {MAX_CONTINUATIONS}, got {values['k']}")
        if "bias_factor" in values and not values["bias_factor"] > 0:
            raise ValueError(f"search option bias_factor must be positive, got {values['bias_factor']}")
        if "seconds" in values and not values["seconds"] >= 0:
            raise ValueError(f"search option seconds must be at least 0, got {values['seconds']}")
        if "sampling_above" in values and values["sampling_above"] < 0:
            raise ValueError(f"search option sampling_above must be at least 0, got {values['sampling_above']}")
        try:
            return cls(**values)
        except ValueError as exc:  # attrs validators: keep their message only
            raise ValueError(f"search option {exc.args[0]}") from None

    def solver(self) -> SubgameSolver:
        full_width = VectorSubgameSolver(self.iterations, self.algorithm, self.seconds or None)
        if self.sampling_above is None:
            return full_width
        return SizeDependentSolver(full_width, MCCFRSubgameSolver(self.mccfr_iterations, self.seed), self.sampling_above)

    def leaf_values(self, form: FactoredGame, blueprint: Policy) -> LeafEvaluator:
        continuations = ContinuationStrategies(form, blueprint, self.k, self.bias_factor)
        if self.rollouts is None:
            return ExactLeafValues(continuations)
        return SampledLeafValues(continuations, self.rollouts, self.seed)


class SearchForm:
    """The game's lossless factored form as the search walks it: nodes by public state key,
    parents, and the public chance outcomes above each node."""

    def __init__(self, form: FactoredGame):
        if form.key_of is None or form.private_keys is None or not form.node_keys:
            raise FormError(f"search walks a lossless form whose public states name its nodes; the form of {form.game_name} "
                            f"({form.num_nodes:,} public nodes) has no such keys (an abstraction, or a factored contract "
                            f"above its key limit)")  # fmt: skip
        self.form = form
        self.node = public_nodes(form)
        self.parent = np.full(form.num_nodes, -1, dtype=np.int64)
        self.parent[form.child_list] = np.repeat(np.arange(form.num_nodes), form.num_actions)
        self.edge_into = np.full(form.num_nodes, -1, dtype=np.int64)
        self.edge_into[form.child_list] = np.arange(len(form.child_list))

    def of(self, state: State) -> int:
        return self.node[state.public_state_key()]

    def outcomes(self, node: int) -> tuple[int, ...]:
        out = []
        while self.parent[node] >= 0:
            if self.form.node_kind[self.parent[node]] == CHANCE_NODE:
                out.append(int(self.form.edge_label[self.edge_into[node]]))
            node = int(self.parent[node])
        return tuple(reversed(out))

    def child(self, node: int, action: int) -> int:
        labels = [int(a) for a in self.form.labels(node)]
        return int(self.form.children(node)[labels.index(int(action))])

    def actions(self, key: str) -> list[int]:
        """The legal actions at information set ``key`` (its node's labels)."""
        return [int(a) for a in self.form.labels(self.form.locate(key)[0])]


class SearchCache:
    """Memoised searches, root beliefs and leaf values, shared by agents of one game,
    blueprint, abstraction and configuration."""

    def __init__(self):
        self.searches: dict = {}
        self.roots: dict = {}
        self.leaf_values: dict = {}
        self.solves = 0


def _frozen_key(frozen: Mapping[str, Mapping[int, float]]) -> tuple:
    return tuple(sorted((k, tuple(sorted(d.items()))) for k, d in frozen.items()))


class SearchAgent:
    """Plays ``seat`` with nested unsafe search (see the module docstring).

    Protocol of a hand: :meth:`new_hand`, then :meth:`observe` for every transition of the
    real game (chance included; the agent reads only the next public state), and
    :meth:`policy` / :meth:`act` when it is the agent's turn.
    """

    def __init__(self, game: Game, blueprint: Policy, form: FactoredGame | SearchForm, seat: int,
                 config: SearchConfig = SearchConfig(), abstraction: ActionAbstraction | None = None,
                 solver: SubgameSolver | None = None, leaf_values: LeafEvaluator | None = None,
                 cache: SearchCache | None = None):  # fmt: skip
        self.game = game
        self.blueprint = blueprint
        self.search_form = form if isinstance(form, SearchForm) else SearchForm(form)
        self.form = self.search_form.form
        self.seat = seat
        self.config = config
        self.abstraction = abstraction if abstraction is not None else AllActions()
        self.solver = solver or config.solver()
        self.cache = cache if cache is not None else SearchCache()
        if leaf_values is None and not config.depth.unlimited:
            key = ("leaves", config.k, config.bias_factor, config.rollouts, config.seed)
            leaf_values = self.cache.leaf_values.get(key)
            if leaf_values is None:
                leaf_values = self.cache.leaf_values[key] = config.leaf_values(self.form, blueprint)
        self.leaf_values = leaf_values
        self.new_hand()

    # -- hand state ---------------------------------------------------------------------
    def new_hand(self) -> None:
        if self.config.beliefs == "exact":
            self.root = PublicBeliefState.initial(self.game)  # G_root with its beliefs
        else:
            self.root = RangeBeliefs.initial(self.form)
        self.root_key: tuple = ("start",)
        self.root_round = -1
        self.first_round = None
        self.events: list[tuple[str, object]] = []  # public events since the root
        self.added: set[tuple[str, int]] = set()  # (public state key, action)
        self.frozen: dict[str, dict[int, float]] = {}
        self.sigma: SearchResult | None = None
        self.sigma_key: tuple = ("blueprint",)
        self.searches: list[tuple[str, str]] = []  # (reason, root public key) of each search
        self.searched = False  # whether a search decided the latest decision

    def fork(self) -> SearchAgent:
        """An independent copy of the hand state (shares the blueprint and the cache)."""
        other = copy.copy(self)
        other.events = list(self.events)
        other.added = set(self.added)
        other.frozen = dict(self.frozen)
        other.searches = list(self.searches)
        return other

    # -- the profile sigma --------------------------------------------------------------
    def _blueprint_distribution(self, key: str) -> dict[int, float]:
        actions = self.search_form.actions(key)
        probs = self.blueprint.action_probs(key, len(actions))
        return {a: float(p) for a, p in zip(actions, probs)}

    def _sigma_prob(self, key: str, player: int, action: int) -> float:
        """The profile sigma's probability of ``action`` at ``key``: the searcher's frozen
        probabilities, else the latest search's average, else the blueprint."""
        if player == self.seat and key in self.frozen:
            return self.frozen[key].get(int(action), 0.0)
        if self.sigma is not None:
            dist = self.sigma.distribution(key, "average")
            if dist is not None:
                return dist.get(int(action), 0.0)
        return self._blueprint_distribution(key).get(int(action), 0.0)

    def _offered(self, state: State) -> set[int]:
        key = state.public_state_key()
        node = self.search_form.node[key]
        return set(self.abstraction.offered(self.form, node)) | {a for (k, a) in self.added if k == key}

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
        dist = None
        if self.sigma is not None:
            dist = self.sigma.distribution(key, self.config.play)
        self.searched = dist is not None  # (the decision record: a search decided it)
        if dist is None:  # blueprint round, or a hand the search gave probability 0 (never played)
            dist = self._blueprint_distribution(key)
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
        # Count raises by replaying the public events from the root's node.
        sf = self.search_form
        raise_class = self.form.class_names.index("raise")
        raises, node = 0, sf.node[self.root.public_key()]
        for kind, x in self.events:
            if kind == "action":
                child = sf.child(node, x)
                raises += int(self.form.edge_class[sf.edge_into[child]] == raise_class)
                node = child
            else:
                node = sf.node[x]
        return raises >= d.raises

    def _check_new_round(self, child: State) -> None:
        """CHECKNEWROUND (lines 16-19): a decision node of a later round becomes the root."""
        if child.current_player() < 0:
            return
        r = int(self.form.node_round[self.search_form.of(child)])
        if r <= self.root_round:
            return
        if self.first_round is None:
            self.first_round = r
        self._move_root("new round", r)

    def _move_root(self, reason: str, new_round: int | None = None) -> None:
        # Frozen probabilities change the beliefs only where they differ from sigma's average
        # (with play="average" they never do, and hands then share their searches).
        frozen = {k: d for k, d in self.frozen.items()
                  if self.sigma is None or self.sigma.distribution(k, "average") != d}
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
            sf = self.search_form
            node = sf.node[self.root.public_key()]
            frozen = {}
            for info_key, dist in self.frozen.items():
                frozen[self.form.locate(info_key)] = dict(dist)
            spec = SubgameSpec(
                form=self.form, root=node, root_reach=self.root.root_reach(self.form, node), outcomes=sf.outcomes(node),
                abstraction=self.abstraction, depth=self.config.depth, leaf_values=self.leaf_values,
                added=frozenset((sf.node[k], a) for k, a in self.added), frozen=frozen,
            )  # fmt: skip
            result = self.solver.solve(build_subgame(spec))
            self.cache.searches[key] = result
            self.cache.solves += 1
        self.sigma, self.sigma_key = result, key
        self.searches.append((reason, self.root.public_key()))
