"""Real-time search: depth-limited subgames with continuation-strategy leaves and nested
unsafe search (Brown & Sandholm 2019, supplement, Algorithm 2). See docs/search.md."""

from gamesolve.search.abstraction import ActionAbstraction, AllActions, RemoveActions
from gamesolve.search.beliefs import PublicBeliefState, RangeBeliefs, ZeroReachError
from gamesolve.search.compose import compose_agent_policy
from gamesolve.search.leaves import ContinuationStrategies, ExactLeafValues, LeafEvaluator, SampledLeafValues
from gamesolve.search.nested import SearchAgent, SearchCache, SearchConfig, SearchForm
from gamesolve.search.policy import Policy, StoredPolicy, TabularPolicy
from gamesolve.search.solve import MCCFRSubgameSolver, SearchResult, SubgameSolver, VectorSubgameSolver
from gamesolve.search.subgame import DepthLimit, Subgame, SubgameSpec, build_subgame

__all__ = [
    "ActionAbstraction", "AllActions", "ContinuationStrategies", "DepthLimit", "ExactLeafValues", "LeafEvaluator",
    "MCCFRSubgameSolver", "Policy", "PublicBeliefState", "RangeBeliefs", "RemoveActions", "SampledLeafValues",
    "SearchAgent", "SearchCache", "SearchConfig", "SearchForm", "SearchResult", "StoredPolicy", "Subgame",
    "SubgameSolver", "SubgameSpec", "TabularPolicy", "VectorSubgameSolver", "ZeroReachError", "build_subgame",
    "compose_agent_policy",
]
