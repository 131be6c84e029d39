"""The seams for large games, checked on Leduc against the exact versions: leaf values from
sampled rollouts and subgames solved by Linear MCCFR."""

import numpy as np
import pytest

from gamesolve.evaluate.best_response import TreeEvaluator
from gamesolve.search import (
    ContinuationStrategies, ExactLeafValues, SampledLeafValues, SearchAgent, SearchCache,
    SearchConfig, TabularPolicy, compose_agent_policy,
)  # fmt: skip


@pytest.fixture(scope="module")
def uniform_continuations(leduc2_tree, adapter):
    """Uniform-blueprint continuations: their rollouts vary a lot, a hard case for sampling."""
    return ContinuationStrategies.first(4, TabularPolicy.from_slots(leduc2_tree, leduc2_tree.uniform_policy()), adapter)


@pytest.fixture(scope="module")
def leaf(leduc2):
    """End of round 1 after raise, call, both players holding different ranks."""
    state = leduc2.new_initial_state()
    state = state.child(state.chance_outcomes()[0][0])
    state = state.child(state.chance_outcomes()[2][0])
    return state.child(2).child(1)


def max_error(evaluator, exact, state):
    return np.abs(evaluator.values(state) - exact).max()


def test_sampled_leaf_values_approach_the_exact_values_as_rollouts_grow(uniform_continuations, leaf):
    exact = ExactLeafValues(uniform_continuations, 2).values(leaf)
    few = max_error(SampledLeafValues(uniform_continuations, 2, rollouts=10, seed=0), exact, leaf)
    many = max_error(SampledLeafValues(uniform_continuations, 2, rollouts=1000, seed=0), exact, leaf)
    assert many < few / 3
    assert many < 1.0  # chips; the values span about 4.6


def test_sampled_leaf_values_depend_only_on_the_seed_and_the_leaf(uniform_continuations, leaf, leduc2):
    other = leduc2.new_initial_state()
    other = other.child(other.chance_outcomes()[1][0])
    other = other.child(other.chance_outcomes()[4][0]).child(1).child(1)
    a = SampledLeafValues(uniform_continuations, 2, rollouts=20, seed=7)
    b = SampledLeafValues(uniform_continuations, 2, rollouts=20, seed=7)
    first = a.values(leaf)
    b.values(other)  # a different evaluation order
    assert np.array_equal(first, b.values(leaf))
    assert not np.array_equal(first, SampledLeafValues(uniform_continuations, 2, rollouts=20, seed=8).values(leaf))


def test_sampled_leaf_values_refuse_zero_rollouts(uniform_continuations):
    with pytest.raises(ValueError, match="rollouts"):
        SampledLeafValues(uniform_continuations, 2, rollouts=0)


def composed_exploitability(leduc2, leduc2_tree, blueprint, adapter, config, **agent_options):
    cache = SearchCache()
    policy = compose_agent_policy(
        leduc2, leduc2_tree, lambda seat: SearchAgent(leduc2, blueprint, adapter, seat, config, cache=cache, **agent_options)
    )
    return TreeEvaluator(leduc2_tree).evaluate(policy).exploitability


def test_search_with_linear_mccfr_subgames_gets_most_of_full_width_linear_cfrs_gain(
    leduc2, leduc2_tree, coarse_blueprint_slots, coarse_blueprint, adapter
):
    tabular = composed_exploitability(leduc2, leduc2_tree, coarse_blueprint, adapter, SearchConfig(k=4, play="average"))
    sampled = composed_exploitability(
        leduc2, leduc2_tree, coarse_blueprint, adapter,
        SearchConfig(k=4, play="average", sampling_above=0, mccfr_iterations=20_000),
    )  # fmt: skip
    blueprint = TreeEvaluator(leduc2_tree).evaluate(coarse_blueprint_slots).exploitability
    # Subgame solutions are not unique, so the composed strategies differ; sampling keeps
    # at least half of the full-width search's improvement over the blueprint.
    assert tabular < blueprint and sampled < blueprint
    assert blueprint - sampled > 0.5 * (blueprint - tabular)


def test_subgames_up_to_the_sampling_threshold_are_solved_full_width(leduc2, leduc2_tree, coarse_blueprint, adapter):
    tabular = composed_exploitability(leduc2, leduc2_tree, coarse_blueprint, adapter, SearchConfig(k=1, play="average"))
    below = composed_exploitability(
        leduc2, leduc2_tree, coarse_blueprint, adapter, SearchConfig(k=1, play="average", sampling_above=10**9)
    )
    assert below == tabular


def test_search_with_rollout_leaf_values_still_beats_the_blueprint(
    leduc2, leduc2_tree, coarse_blueprint_slots, coarse_blueprint, adapter
):
    searched = composed_exploitability(
        leduc2, leduc2_tree, coarse_blueprint, adapter, SearchConfig(k=4, play="average", rollouts=30)
    )
    assert searched < TreeEvaluator(leduc2_tree).evaluate(coarse_blueprint_slots).exploitability

