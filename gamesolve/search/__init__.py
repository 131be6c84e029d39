"""Real-time search: depth-limited subgames with continuation-strategy leaves and nested
unsafe search (Brown & Sandholm 2019, supplement, Algorithm 2). See docs/search.md."""

from gamesolve.search.abstraction import ActionAbstraction, AllActions, RemoveActions
from gamesolve.search.beliefs import PublicBeliefState, RangeBeliefs, ZeroReachError
from gamesolve.search.compose import compose_agent_policy
from gamesolve.search.domain import RangeSubgame, RoundPlan, SampledChance, SearchDomain
from gamesolve.search.leaves import ContinuationStrategies, ExactLeafValues, LeafEvaluator, SampledLeafValues
from gamesolve.search.nested import SearchAgent, SearchCache, SearchConfig, SearchForm
from gamesolve.search.policy import Policy, StoredPolicy, TabularPolicy
from gamesolve.search.range_agent import Decision, RangeSearchAgent
from gamesolve.search.range_solve import RangeSolveConfig, SolvedSubgame, solve_subgame
from gamesolve.search.solve import MCCFRSubgameSolver, SearchResult, SubgameSolver, VectorSubgameSolver
from gamesolve.search.subgame import DepthLimit, Subgame, SubgameSpec, build_subgame

__all__ = [
    "ActionAbstraction", "AllActions", "ContinuationStrategies", "Decision", "DepthLimit", "ExactLeafValues",
    "LeafEvaluator", "MCCFRSubgameSolver", "Policy", "PublicBeliefState", "RangeBeliefs", "RangeSearchAgent",
    "RangeSolveConfig", "RangeSubgame", "RemoveActions", "RoundPlan", "SampledChance", "SampledLeafValues",
    "SearchAgent", "SearchCache", "SearchConfig", "SearchDomain", "SearchForm", "SearchResult", "SolvedSubgame",
    "StoredPolicy", "Subgame", "SubgameSolver", "SubgameSpec", "TabularPolicy", "VectorSubgameSolver",
    "ZeroReachError", "build_subgame", "compose_agent_policy", "solve_subgame",
]
