"""Agents for matches that play a stored policy: as it is (``policy``), or as the blueprint of
real-time search (``search``, Algorithm 2: the core's range search agent,
:class:`~gamesolve.search.range_agent.RangeSearchAgent` over
:class:`~gamesolve.search.form_domain.FormSearchDomain`).

Both read any stored strategy: a policy store (``gamesolve solve --out`` of a tabular or vector
solver, or the ``policy`` of an MCCFR store) or a blueprint strategy store (read through the
factored form it was trained on: by key where the form keeps keys, else by public node,
:class:`~gamesolve.search.policy.NodePolicy`, as for Liar's Dice with two dice of six sides).
``search`` searches over the game's lossless factored form. Registered by the core like any
plugin's agents::

    gamesolve solve --game leduc -p abstraction=coarse --algo mccfr-p --iterations 1000000 --out bp
    gamesolve match --game leduc --agents search:store=bp,policy:store=bp --hands 20000
    gamesolve match --game leduc --agents search:store=bp:k=1:play=average,policy:store=bp
    gamesolve match --game liars_dice -p dice=2 --agents search:store=bp:seconds=0:iterations=200,policy:store=bp

Options: ``store=PATH`` (both); ``policy=average|current`` (which stored policy); for
``search`` those of :func:`range_search_player` (``k``, ``play``, ``depth``, ``iterations``,
``seconds``, ``beliefs=exact`` for the check that enumerates histories, ...).
"""

from __future__ import annotations

from typing import Any

import attrs
import numpy as np

from gamesolve.agents import Agent, AgentSpec, hand_seed
from gamesolve.game.continuation import MAX_CONTINUATIONS
from gamesolve.game.factored import FactoredGame
from gamesolve.game.state import Game, State
from gamesolve.hookspecs import hookimpl
from gamesolve.options import typed_options
from gamesolve.search.abstraction import ActionAbstraction
from gamesolve.search.form_domain import END_NODES, FormSearchDomain
from gamesolve.search.leaves import ContinuationStrategies, ExactLeafValues, SampledLeafValues, StoredLeafValues
from gamesolve.search.locate import FormLocator
from gamesolve.search.policy import KeyedRows, NodePolicy, Policy, StoredPolicy, StoreRows, TabularPolicy
from gamesolve.search.range_agent import RangeSearchAgent, SolveMemo
from gamesolve.search.range_solve import RangeSolveConfig
from gamesolve.search.subgame import DepthLimit


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
    search, e.g. hold'em), else the core's range search agent (:func:`range_search_player`)
    over the game's lossless form (:func:`search_form`)."""
    if plugins is not None:
        given = {"store": store, **({"policy": policy} if policy != "average" else {}), **options}
        agent = plugins.hook.gamesolve_search_agent(game=game, options=given, seed=seed)
        if agent is not None:
            return agent

    blueprint = stored_policy(game, store, policy, plugins)
    if isinstance(blueprint, NodePolicy):  # a form too large to name its public states
        return range_search_player(game, blueprint, options, seed)
    return keyed_range_search_player(game, search_form(game, plugins), blueprint, options, seed)


RANGE_OPTIONS = {
    "seconds": float, "iterations": int, "mccfr_iterations": int, "algorithm": str, "play": str, "threads": int,
    "end_nodes": int, "depth": DepthLimit.parse, "k": int, "bias_factor": float, "rollouts": int, "seed": int,
    "first_round": str, "search_rounds": lambda text: tuple(int(x) for x in text.split(",")), "sampling_above": int,
    "beliefs": str, "record": str, "replay": str,
}  # fmt: skip


@attrs.frozen
class RangeSearchOptions:
    """The ``search:`` options of the core's range search agent, checked (:meth:`parse`).

    :ivar solve: how subgames are solved and played (``seconds``, ``iterations``,
        ``mccfr_iterations``, ``algorithm``, ``play``, ``threads``, the solve log's ``record``
        and ``replay``: :class:`RangeSolveConfig`).
    :ivar end_nodes: search to the end of the game once the rest has at most this many nodes.
    :ivar depth: where subgames end before that (:meth:`DepthLimit.parse`: ``round``, ``game``,
        ``actions:N``, ``raises:N`` joined by ``+``; a number N is ``round+actions:N``); None:
        the blueprint plays there.
    :ivar k: continuation strategies per player at the leaves, biased by ``bias_factor``.
    :ivar rollouts: leaf values from this many sampled rollouts (seeded by ``seed``); None: exact.
    :ivar first_round: ``blueprint``: the first betting round plays the blueprint (Pluribus).
    :ivar search_rounds: the betting rounds that search (0 the first); None: all.
    :ivar sampling_above: subgames of more public nodes are solved by Linear MCCFR
        (``mccfr_iterations``, Pluribus' choice for large subgames); None: vector CFR always.
    :ivar beliefs: ``range`` (vectors over private states) or ``exact`` (every history
        enumerated: the check, on forms with keys).
    """

    solve: RangeSolveConfig
    end_nodes: int = END_NODES
    depth: DepthLimit | None = None
    k: int = 4
    bias_factor: float | None = None
    rollouts: int | None = None
    seed: int = 0
    first_round: str = "search"
    search_rounds: tuple[int, ...] | None = None
    sampling_above: int | None = None
    beliefs: str = "range"

    @classmethod
    def parse(cls, options: dict[str, str], what: str = "search option", keyed: bool = True) -> RangeSearchOptions:
        """The options of ``search:KEY=VALUE:...``; a :class:`ValueError` names a bad one (``what``
        starts an unknown one's message). ``keyed``: the blueprint is read by key (a game small
        enough for keys), so ``depth`` is ``round`` and ``seconds`` 0 (no time budget: play
        reproducible anywhere) unless given."""
        values = typed_options(options, RANGE_OPTIONS, what + ":")
        if keyed:
            values.setdefault("seconds", 0.0)
            values.setdefault("depth", DepthLimit())
        solve = RangeSolveConfig(**{key: values.pop(key) for key in list(values) if key in attrs.fields_dict(RangeSolveConfig)})
        parsed = cls(solve, **values)
        if parsed.first_round not in ("search", "blueprint"):
            raise ValueError(f"search option first_round must be search or blueprint, got {parsed.first_round!r}")
        if not 1 <= parsed.k <= MAX_CONTINUATIONS:
            raise ValueError(f"search option k must be {'at least 1' if parsed.k < 1 else f'at most {MAX_CONTINUATIONS}'}, got {parsed.k}")
        if parsed.bias_factor is not None and not parsed.bias_factor > 0:
            raise ValueError(f"search option bias_factor must be positive, got {parsed.bias_factor}")
        if parsed.rollouts is not None and parsed.rollouts < 1:
            raise ValueError(f"search option rollouts must be at least 1, got {parsed.rollouts}")
        if parsed.end_nodes < 1:
            raise ValueError(f"search option end_nodes must be at least 1, got {parsed.end_nodes}")
        if parsed.sampling_above is not None and parsed.sampling_above < 0:
            raise ValueError(f"search option sampling_above must be at least 0, got {parsed.sampling_above}")
        if parsed.beliefs not in ("range", "exact"):
            raise ValueError(f"search option beliefs must be range or exact, got {parsed.beliefs!r}")
        return parsed

    def report(self) -> dict[str, Any]:
        """The options as ``exploitability --search`` reports them."""
        return {**attrs.asdict(self.solve), "k": self.k, "depth": None if self.depth is None else str(self.depth),
                "end_nodes": self.end_nodes, "bias_factor": self.bias_factor, "rollouts": self.rollouts,
                "first_round": self.first_round, "search_rounds": None if self.search_rounds is None else list(self.search_rounds),
                "sampling_above": self.sampling_above, "beliefs": self.beliefs}  # fmt: skip


def range_search_player(game: Game, blueprint: NodePolicy, options: dict[str, str], seed: int,
                        keyed: Policy | None = None, memo: SolveMemo | None = None,
                        abstraction: ActionAbstraction | None = None) -> RangeSearchAgent:  # fmt: skip
    """The core's range search agent over the form ``blueprint`` is read through
    (:class:`~gamesolve.search.form_domain.FormSearchDomain`), ``options`` as the ``search:``
    agent text gives them (:class:`RangeSearchOptions`).

    ``keyed``: the blueprint as a policy read by key, where the form keeps keys: its
    continuation strategies are then played out exactly (:class:`ExactLeafValues`) or by
    sampled rollouts; else the strategy store's own continuation strategies value the leaves,
    and without ``depth`` the blueprint plays until the rest of the game has at most
    ``end_nodes`` nodes. ``memo``: kept solves shared with other agents (:class:`SolveMemo`).
    ``abstraction``: the actions subgames offer (None: all; e.g.
    :class:`~gamesolve.search.abstraction.RemoveActions` to test off-tree actions)."""
    parsed = RangeSearchOptions.parse(options, f"search option for {game.describe()}", keyed is not None)
    form = blueprint.locator.form
    depth, leaves = parsed.depth, None
    if depth is not None and not depth.unlimited:
        if keyed is None:
            if parsed.bias_factor is not None or parsed.rollouts is not None:
                raise ValueError("search options bias_factor and rollouts apply to a blueprint read by key; the leaves of "
                                 "a form without keys are valued by the strategy store's own continuation strategies")  # fmt: skip
            leaves = StoredLeafValues(form, blueprint.rows.store, parsed.k)
        else:
            continuations = ContinuationStrategies(form, keyed, parsed.k, 5.0 if parsed.bias_factor is None else parsed.bias_factor)
            exact = parsed.rollouts is None
            leaves = ExactLeafValues(continuations) if exact else SampledLeafValues(continuations, parsed.rollouts, parsed.seed)
    domain = FormSearchDomain(form, blueprint.rows, blueprint.locator, parsed.end_nodes, depth, leaves,
                              parsed.first_round == "search", parsed.search_rounds, abstraction, parsed.sampling_above,
                              parsed.beliefs == "exact")  # fmt: skip
    agent = RangeSearchAgent(game, PolicyPlayer(keyed or blueprint, seed), domain, parsed.solve, seed, memo)
    agent.settings = parsed.report()
    return agent


def keyed_range_search_player(game: Game, form, blueprint: Policy, options: dict[str, str], seed: int,
                              memo: SolveMemo | None = None, abstraction: ActionAbstraction | None = None) -> RangeSearchAgent:  # fmt: skip
    """:func:`range_search_player` over ``blueprint`` read by key on ``form``, the game's
    lossless form with keys (its continuation leaves computed exactly)."""
    rows = NodePolicy(KeyedRows(form, blueprint), FormLocator(game, form))
    return range_search_player(game, rows, options, seed, keyed=blueprint, memo=memo, abstraction=abstraction)


def search_form(game: Game, plugins: Any = None) -> FactoredGame:
    """The lossless factored form the core's search walks: the generic compiler's where the
    game's histories allow it, else a plugin's lossless form or the game's factored contract's
    (Liar's Dice with two dice: public nodes, not histories; a :class:`FormError` says so
    where that form names no public states, e.g. above the contract compiler's key limit)."""
    from gamesolve.game.compile import factored_form
    from gamesolve.game.factored_compiler import MAX_HISTORIES, compile_factored
    from gamesolve.game.tree_size import too_big
    from gamesolve.store.form_cache import FormCache

    if too_big(game, MAX_HISTORIES, "the generic compiler") is None:
        return compile_factored(game)
    return factored_form(game, plugins, lossless=True, cache=FormCache())


@hookimpl
def gamesolve_register_agents(register):
    register(AgentSpec("policy", make_policy_player,
                       "plays a stored policy (store=PATH, policy=average|current); explicit-tree games",
                       needs_plugins=True))  # fmt: skip
    register(AgentSpec("search", make_search_player,
                       "real-time search (Algorithm 2) over a stored blueprint (store=PATH, k=, play=, depth=, ...)",
                       needs_plugins=True))  # fmt: skip
