"""The seams for large games, checked on Leduc against the exact versions: leaf values from
sampled rollouts and subgames solved by Linear MCCFR."""

from gamesolve.evaluate.best_response import TreeEvaluator


def test_search_with_linear_mccfr_subgames_gets_most_of_full_width_linear_cfrs_gain(
    leduc2_tree, coarse_blueprint_slots, coarse_blueprint, composed
):
    tabular = composed(coarse_blueprint, k=4, play="average")
    sampled = composed(coarse_blueprint, k=4, play="average", sampling_above=0, mccfr_iterations=20_000)
    blueprint = TreeEvaluator(leduc2_tree).evaluate(coarse_blueprint_slots).exploitability
    # Subgame solutions are not unique, so the composed strategies differ; sampling keeps
    # at least half of the full-width search's improvement over the blueprint.
    assert tabular < blueprint and sampled < blueprint
    assert blueprint - sampled > 0.5 * (blueprint - tabular)


def test_subgames_up_to_the_sampling_threshold_are_solved_full_width(coarse_blueprint, composed):
    full_width = composed(coarse_blueprint, k=1, play="average")
    below = composed(coarse_blueprint, k=1, play="average", sampling_above=10**9)
    assert below == full_width


def test_search_with_rollout_leaf_values_still_beats_the_blueprint(leduc2_tree, coarse_blueprint_slots, coarse_blueprint, composed):
    searched = composed(coarse_blueprint, k=4, play="average", rollouts=30)
    assert searched < TreeEvaluator(leduc2_tree).evaluate(coarse_blueprint_slots).exploitability
