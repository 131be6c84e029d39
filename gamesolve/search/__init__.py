"""Real-time search: depth-limited subgames with continuation-strategy leaves and nested
unsafe search (Brown & Sandholm 2019, supplement, Algorithm 2). See docs/search.md."""

from gamesolve.search.adapter import ActionAbstraction, AllActions, LeafMapping, PokerAdapter, RemoveActions, identity_mapping
from gamesolve.search.beliefs import PublicBeliefState, ZeroReachError
from gamesolve.search.compose import compose_agent_policy
from gamesolve.search.leaves import BIASES, ContinuationStrategies, ExactLeafValues, LeafEvaluator, SampledLeafValues
from gamesolve.search.nested import SearchAgent, SearchCache, SearchConfig
from gamesolve.search.policy import Policy, StrategyTable, TabularPolicy
from gamesolve.search.solve import MCCFRSubgameSolver, SearchResult, SubgameSolver, TabularSubgameSolver
from gamesolve.search.subgame import DepthLimit, Subgame, SubgameSpec

__all__ = [
    "ActionAbstraction", "AllActions", "BIASES", "ContinuationStrategies", "DepthLimit", "ExactLeafValues",
    "LeafEvaluator", "LeafMapping", "MCCFRSubgameSolver", "Policy", "PokerAdapter", "PublicBeliefState", "RemoveActions",
    "SampledLeafValues", "SearchAgent", "SearchCache", "SearchConfig", "SearchResult", "StrategyTable", "Subgame", "SubgameSolver",
    "SubgameSpec", "TabularPolicy", "TabularSubgameSolver", "ZeroReachError", "compose_agent_policy",
    "identity_mapping",
]
