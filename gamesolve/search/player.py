"""Agents for matches that play a stored policy: as it is (``policy``), or as the blueprint of
real-time search (``search``, Algorithm 2 via :class:`~gamesolve.search.nested.SearchAgent`).

Both work for any game small enough for the explicit compiler (the stored policy is read
onto the game's explicit tree); ``search`` also needs the game's plugin to answer
``gamesolve_search_adapter``. Registered by the core like any plugin's agents::

    gamesolve solve --game leduc -p abstraction=coarse --algo mccfr-p --iterations 1000000 --out bp
    gamesolve match --game leduc --agents search:store=bp,policy:store=bp --hands 20000
    gamesolve match --game leduc --agents search:store=bp:k=1:play=average,policy:store=bp

Options: ``store=PATH`` (both); ``policy=average|current`` (which stored policy); for
``search`` every :meth:`SearchConfig.from_options` key (``k``, ``play``, ``depth``, ...).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gamesolve.agents import Agent, AgentSpec, hand_seed
from gamesolve.game.state import Game, State
from gamesolve.hookspecs import hookimpl
from gamesolve.search.adapter import PokerAdapter
from gamesolve.search.nested import SearchAgent, SearchCache, SearchConfig
from gamesolve.search.policy import Policy, TabularPolicy


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

    def __init__(self, game: Game, blueprint: Policy, adapter: PokerAdapter, config: SearchConfig, seed: int = 0):
        self.game = game
        self.blueprint = blueprint
        self.adapter = adapter
        self.config = config
        self.seed = seed
        self.cache = SearchCache()
        self._by_seat: dict[int, SearchAgent] = {}
        self.agent: SearchAgent | None = None
        self.rng = np.random.default_rng(seed)

    def new_hand(self, seat: int, hand: int) -> None:
        agent = self._by_seat.get(seat)
        if agent is None:
            agent = self._by_seat[seat] = SearchAgent(
                self.game, self.blueprint, self.adapter, seat, self.config, cache=self.cache
            )
        agent.new_hand()
        self.agent = agent
        self.rng = np.random.default_rng(hand_seed(self.seed, hand))

    def observe(self, state: State, action: int) -> None:
        self.agent.observe(state, action)

    def act(self, state: State, seat: int) -> int:
        return self.agent.act(state, self.rng)


def stored_policy(game: Game, store: str | None, which: str, plugins: Any = None) -> TabularPolicy:
    """The policy of a policy store, read onto ``game``'s explicit tree."""
    from gamesolve.game.compile import compiled_tree
    from gamesolve.store.policy_store import read_policy

    if not store:
        raise ValueError("needs store=PATH (a policy store, e.g. from `gamesolve solve --out PATH`)")
    if which not in ("average", "current"):
        raise ValueError(f"policy must be 'average' or 'current', got {which!r}")
    stored = read_policy(store)  # before compiling: a wrong store fails fast
    if stored.game != game.name:
        raise ValueError(f"{store} holds a policy for {stored.game}, not {game.name}")
    tree = compiled_tree(game, plugins)
    return TabularPolicy.from_slots(tree, stored.policy_for(tree, which))


def make_policy_player(game: Game, seed: int, plugins: Any = None, store: str | None = None,
                       policy: str = "average") -> PolicyPlayer:
    return PolicyPlayer(stored_policy(game, store, policy, plugins), seed)


def make_search_player(game: Game, seed: int, plugins: Any = None, store: str | None = None,
                       policy: str = "average", **options: str) -> SearchPlayer:
    config = SearchConfig.from_options(options)
    adapter = plugins.hook.gamesolve_search_adapter(game=game) if plugins is not None else None
    if adapter is None:
        raise ValueError(f"no plugin supports real-time search for {game.name}")
    return SearchPlayer(game, stored_policy(game, store, policy, plugins), adapter, config, seed)


@hookimpl
def gamesolve_register_agents(register):
    register(AgentSpec("policy", make_policy_player,
                       "plays a stored policy (store=PATH, policy=average|current); explicit-tree games",
                       needs_plugins=True))  # fmt: skip
    register(AgentSpec("search", make_search_player,
                       "real-time search (Algorithm 2) over a stored blueprint (store=PATH, k=, play=, depth=, ...)",
                       needs_plugins=True))  # fmt: skip
