"""Real-time search: depth-limited subgames with continuation-strategy leaves and nested
unsafe search (Brown & Sandholm 2019, supplement, Algorithm 2), one agent for every game
(:class:`RangeSearchAgent`). See docs/search.md."""

from gamesolve.search.abstraction import ActionAbstraction, AllActions, RemoveActions
from gamesolve.search.beliefs import HistoryRanges, ItemRanges, PublicBeliefState, ZeroReachError
from gamesolve.search.compose import compose_agent_policy, compose_form_policy
from gamesolve.search.domain import RangeSubgame, RoundPlan, SampledChance, SearchDomain
from gamesolve.search.leaves import ContinuationStrategies, ExactLeafValues, LeafEvaluator, SampledLeafValues
from gamesolve.search.policy import Policy, StoredPolicy, TabularPolicy
from gamesolve.search.range_agent import Decision, RangeSearchAgent, SolveMemo
from gamesolve.search.range_solve import RangeSolveConfig, SolvedSubgame, solve_subgame
from gamesolve.search.subgame import DepthLimit, Subgame, SubgameSpec, build_subgame

__all__ = [
    "ActionAbstraction", "AllActions", "ContinuationStrategies", "Decision", "DepthLimit", "ExactLeafValues",
    "HistoryRanges", "ItemRanges", "LeafEvaluator", "Policy", "PublicBeliefState", "RangeSearchAgent",
    "RangeSolveConfig", "RangeSubgame", "RemoveActions", "RoundPlan", "SampledChance", "SampledLeafValues",
    "SearchDomain", "SolveMemo", "SolvedSubgame", "StoredPolicy", "Subgame", "SubgameSpec", "TabularPolicy",
    "ZeroReachError", "build_subgame", "compose_agent_policy", "compose_form_policy", "solve_subgame",
]
