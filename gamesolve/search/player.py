"""Agents for matches that play a stored policy: as it is (``policy``), or as the blueprint of
real-time search (``search``, Algorithm 2 via :class:`~gamesolve.search.nested.SearchAgent`).

Both work for any game small enough for the explicit compiler and read any stored strategy:
a policy store (``gamesolve solve --out`` of a tabular or vector solver, or the ``policy``
of an MCCFR store) or a blueprint strategy store (read through the factored form it was
trained on). ``search`` searches over the game's lossless factored form. Registered by the
core like any plugin's agents::

    gamesolve solve --game leduc -p abstraction=coarse --algo mccfr-p --iterations 1000000 --out bp
    gamesolve match --game leduc --agents search:store=bp,policy:store=bp --hands 20000
    gamesolve match --game leduc --agents search:store=bp:k=1:play=average,policy:store=bp

Options: ``store=PATH`` (both); ``policy=average|current`` (which stored policy); for
``search`` every :meth:`SearchConfig.from_options` key (``k``, ``play``, ``depth``, ...).

A blueprint trained on a form too large to name its public states (a factored contract above
its key limit: Liar's Dice with two dice of six sides) is read by public node instead
(:class:`~gamesolve.search.policy.NodePolicy`), and ``search`` over it is the core's range
search agent (:class:`~gamesolve.search.range_agent.RangeSearchAgent` over
:class:`~gamesolve.search.form_domain.FormSearchDomain`; options ``seconds``, ``iterations``,
``algorithm``, ``play``, ``threads``, ``end_nodes``, ``depth``, ``k``)::

    gamesolve match --game liars_dice -p dice=2 --agents search:store=bp:seconds=0:iterations=200,policy:store=bp
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gamesolve.agents import Agent, AgentSpec, hand_seed
from gamesolve.game.state import Game, State
from gamesolve.hookspecs import hookimpl
from gamesolve.options import typed_options
from gamesolve.search.form_domain import END_NODES, FormSearchDomain
from gamesolve.search.leaves import ContinuationStrategies, ExactLeafValues, StoredLeafValues
from gamesolve.search.locate import FormLocator
from gamesolve.search.nested import SearchAgent, SearchCache, SearchConfig, SearchForm
from gamesolve.search.policy import KeyedRows, NodePolicy, Policy, StoredPolicy, StoreRows, TabularPolicy
from gamesolve.search.range_agent import RangeSearchAgent
from gamesolve.search.range_solve import RangeSolveConfig


class PolicyPlayer(Agent):
    """Samples its action from a :class:`Policy` (reseeded per hand)."""

    name = "policy"

    def __init__(self, policy: Policy, seed: int = 0):
        self.policy = policy
        self.seed = seed
        self.rng = np.random.default_rng(seed)

    def new_hand(self, seat: int, hand: int) -> None:
        self.rng = np.random.default_rng(hand_seed(self.seed, hand))

    def act(self, state: State, seat: int) -> int:
        legal = list(state.legal_actions())
        p = np.asarray(self.policy.probs(state, seat), dtype=np.float64)
        return int(legal[self.rng.choice(len(legal), p=p / p.sum())])


class SearchPlayer(Agent):
    """Real-time search in a match: one :class:`SearchAgent` per seat it is dealt, all
    sharing one search cache (searches repeat across hands); reseeded per hand."""

    name = "search"

    def __init__(self, game: Game, blueprint: Policy, form: SearchForm, config: SearchConfig, seed: int = 0):
        self.game = game
        self.blueprint = blueprint
        self.form = form
        self.config = config
        self.seed = seed
        self.cache = SearchCache()
        self._by_seat: dict[int, SearchAgent] = {}
        self.agent: SearchAgent | None = None
        self.rng = np.random.default_rng(seed)

    def new_hand(self, seat: int, hand: int) -> None:
        agent = self._by_seat.get(seat)
        if agent is None:
            agent = self._by_seat[seat] = SearchAgent(self.game, self.blueprint, self.form, seat, self.config, cache=self.cache)
        agent.new_hand()
        self.agent = agent
        self.rng = np.random.default_rng(hand_seed(self.seed, hand))

    def observe(self, state: State, action: int) -> None:
        self.agent.observe(state, action)

    def act(self, state: State, seat: int) -> int:
        return self.agent.act(state, self.rng)

    @property
    def last_searched(self) -> bool:
        """Whether a search decided the latest decision (matches report those decisions'
        latency apart)."""
        return self.agent is not None and self.agent.searched


def stored_policy(game: Game, store: str | None, which: str, plugins: Any = None) -> Policy:
    """The strategy in ``store``: a policy store read onto ``game``'s explicit tree, or a
    blueprint strategy store read through the factored form it was trained on."""
    from pathlib import Path

    from gamesolve.game.compile import compiled_tree, factored_form
    from gamesolve.store import checkpoint, strategy_store
    from gamesolve.store.policy_store import read_policy
    from gamesolve.store.form_cache import FormCache
    from gamesolve.store.zarr_io import open_group

    if not store:
        raise ValueError("needs store=PATH (a policy or strategy store, e.g. from `gamesolve solve --out PATH`)")
    if which not in ("average", "current"):
        raise ValueError(f"policy must be 'average' or 'current', got {which!r}")
    root = open_group(store, "policy or strategy store")  # checks every file under the path
    fmt = root.attrs.get("format")
    blueprint_path = None
    if fmt == strategy_store.FORMAT:
        blueprint_path = Path(store)
    elif fmt == checkpoint.FORMAT and "policy" not in root and "blueprint" in root:
        blueprint_path = Path(store) / "blueprint"  # a training store without an explicit policy
    if blueprint_path is not None:
        blueprint = strategy_store.StrategyStore(blueprint_path)  # before compiling: a wrong store fails fast
        if blueprint.attrs.get("game") != game.name:
            raise ValueError(f"{store} holds a blueprint for {blueprint.attrs.get('game')}, not {game.name}")
        if which != "average":
            raise ValueError("a blueprint strategy store holds the average strategy only (policy=average)")
        form = factored_form(game, plugins, options={k: v for k, v in blueprint.attrs["params"].items() if k == "preset"},
                             cache=FormCache())  # fmt: skip
        if form.num_nodes != len(blueprint.node_kind):
            raise ValueError(f"{store} was trained on another form of {game.describe()}")
        if form.locate is None:  # a form above the contract's key limit: read by public node
            return NodePolicy(StoreRows(blueprint), FormLocator(game, form))
        return StoredPolicy(blueprint, form.locate)
    stored = read_policy(Path(store))  # before compiling: a wrong store fails fast
    if stored.game != game.name:
        raise ValueError(f"{store} holds a policy for {stored.game}, not {game.name}")
    tree = compiled_tree(game, plugins)
    return TabularPolicy.from_slots(tree, stored.policy_for(tree, which))


def make_policy_player(game: Game, seed: int, plugins: Any = None, store: str | None = None,
                       policy: str = "average") -> PolicyPlayer:
    return PolicyPlayer(stored_policy(game, store, policy, plugins), seed)


def make_search_player(game: Game, seed: int, plugins: Any = None, store: str | None = None,
                       policy: str = "average", **options: str) -> Agent:
    """The game's plugin's search agent where it has one (games too large for the core's
    search, e.g. hold'em), else :class:`SearchPlayer` over :func:`search_form`."""
    if plugins is not None:
        given = {"store": store, **({"policy": policy} if policy != "average" else {}), **options}
        agent = plugins.hook.gamesolve_search_agent(game=game, options=given, seed=seed)
        if agent is not None:
            return agent

    options = dict(options)
    agent = options.pop("agent", "nested")
    if agent not in ("nested", "range"):
        raise ValueError(f"search option agent must be nested or range, got {agent!r}")
    blueprint = stored_policy(game, store, policy, plugins)
    if isinstance(blueprint, NodePolicy):  # a form too large to name its public states
        return range_search_player(game, blueprint, options, seed)
    if agent == "range":
        return keyed_range_search_player(game, search_form(game, plugins).form, blueprint, options, seed)
    config = SearchConfig.from_options(options)
    return SearchPlayer(game, blueprint, search_form(game, plugins), config, seed)


RANGE_OPTIONS = {"seconds": float, "iterations": int, "algorithm": str, "play": str, "threads": int, "end_nodes": int,
                 "depth": int, "k": int}  # fmt: skip


def range_search_player(game: Game, blueprint: NodePolicy, options: dict[str, str], seed: int,
                        keyed: Policy | None = None) -> RangeSearchAgent:  # fmt: skip
    """The core's range search agent over the form ``blueprint`` is read through
    (:class:`~gamesolve.search.form_domain.FormSearchDomain`), options as the ``search:`` agent
    text gives them: ``seconds``, ``iterations``, ``algorithm``, ``play``, ``threads``
    (:class:`RangeSolveConfig`); ``end_nodes`` (search to the end of the game from there);
    ``depth`` (before that, subgames of this many actions whose leaves are valued by the
    blueprint's ``k`` continuation strategies; 0, the default: the blueprint plays there).
    ``keyed``: the blueprint as a policy read by key, where the form keeps keys (its
    continuation strategies are then computed exactly, :class:`ExactLeafValues`); else the
    strategy store's own continuation strategies value the leaves."""
    values = typed_options(options, RANGE_OPTIONS, f"search option for {game.describe()}:")
    end_nodes = values.pop("end_nodes", END_NODES)
    depth = values.pop("depth", 0) or None
    k = values.pop("k", 4)
    config = RangeSolveConfig(**values)  # ValueError naming a bad option
    form = blueprint.locator.form
    leaves = None
    if depth is not None:
        leaves = StoredLeafValues(form, blueprint.rows.store, k) if keyed is None else ExactLeafValues(ContinuationStrategies(form, keyed, k))
    domain = FormSearchDomain(form, blueprint.rows, blueprint.locator, end_nodes, depth, leaves)
    return RangeSearchAgent(game, PolicyPlayer(keyed or blueprint, seed), domain, config, seed)


def keyed_range_search_player(game: Game, form, blueprint: Policy, options: dict[str, str], seed: int) -> RangeSearchAgent:
    """:func:`range_search_player` over ``blueprint`` read by key on ``form``, the game's
    lossless form with keys (its continuation leaves computed exactly)."""
    rows = NodePolicy(KeyedRows(form, blueprint), FormLocator(game, form))
    return range_search_player(game, rows, options, seed, keyed=blueprint)


def search_form(game: Game, plugins: Any = None) -> SearchForm:
    """The lossless factored form the core's search walks: the generic compiler's where the
    game's histories allow it, else a plugin's lossless form or the game's factored contract's
    (Liar's Dice with two dice: public nodes, not histories; a :class:`FormError` says so
    where that form names no public states, e.g. above the contract compiler's key limit)."""
    from gamesolve.game.compile import factored_form
    from gamesolve.game.factored_compiler import MAX_HISTORIES, compile_factored
    from gamesolve.game.tree_size import too_big
    from gamesolve.store.form_cache import FormCache

    if too_big(game, MAX_HISTORIES, "the generic compiler") is None:
        return SearchForm(compile_factored(game))
    return SearchForm(factored_form(game, plugins, lossless=True, cache=FormCache()))


@hookimpl
def gamesolve_register_agents(register):
    register(AgentSpec("policy", make_policy_player,
                       "plays a stored policy (store=PATH, policy=average|current); explicit-tree games",
                       needs_plugins=True))  # fmt: skip
    register(AgentSpec("search", make_search_player,
                       "real-time search (Algorithm 2) over a stored blueprint (store=PATH, k=, play=, depth=, ...)",
                       needs_plugins=True))  # fmt: skip
