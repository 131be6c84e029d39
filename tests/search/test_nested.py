"""Nested unsafe search (Algorithm 2): roots per betting round, off-tree actions, freezing."""

import numpy as np
import pytest

from gamesolve.search import DepthLimit, RemoveActions, SearchAgent, SearchCache, SearchConfig

CALL, RAISE = 1, 2
SMALL = SearchConfig(iterations=200)


def play(agent, state, actions):
    """Feed ``actions`` (chance outcomes included) to the agent; its own actions go
    through ``policy`` first, as at the table."""
    for a in actions:
        if state.current_player() == agent.seat:
            agent.policy(state)
        agent.observe(state, a)
        state = state.child(a)
    return state


@pytest.fixture
def agent(leduc2, coarse_blueprint, leduc2_search):
    """Seat 0, whose subgames do not let player 1 raise after a check (an off-tree raise)."""
    return SearchAgent(leduc2, coarse_blueprint, leduc2_search, seat=0, config=SMALL,
                       abstraction=RemoveActions({"?:c": (RAISE,)}))


def test_the_first_search_is_rooted_at_the_start_of_the_first_round(agent, leduc2):
    play(agent, leduc2.new_initial_state(), [4, 0])
    assert agent.searches == [("new round", "?:")]


def test_the_root_moves_to_the_start_of_each_new_betting_round(agent, leduc2):
    play(agent, leduc2.new_initial_state(), [4, 0, CALL, CALL, 2])
    assert [root for _, root in agent.searches] == ["?:", "2:cc|"]
    assert np.count_nonzero(agent.root.deal_weights()) == 20  # the 20 deals consistent with the board


def test_an_off_tree_action_is_added_and_the_subgame_re_solved_from_the_round_root(agent, leduc2):
    state = play(agent, leduc2.new_initial_state(), [4, 0, CALL])
    first = agent.sigma
    assert first.distribution("4:?:cr") is None  # the abstraction had no raise after a check
    play(agent, state, [RAISE])
    assert agent.searches[-1] == ("off-tree action", "?:")
    assert ("?:c", RAISE) in agent.added
    assert agent.sigma is not first and agent.sigma.distribution("4:?:cr") is not None


def test_the_searchers_probabilities_for_its_actual_hand_stay_frozen_after_a_re_solve(agent, leduc2):
    start = play(agent, leduc2.new_initial_state(), [4, 0])
    played = agent.policy(start)
    play(agent, start, [CALL, RAISE])
    assert agent.sigma.distribution("4:?:", "current") == pytest.approx(played)  # fixed in the re-solve
    assert agent.policy(start) == played
    assert agent._sigma_prob("4:?:", 0, CALL) == pytest.approx(played[CALL])


def test_only_the_actual_hand_is_frozen_not_other_hands_or_opponents(agent, leduc2):
    play(agent, leduc2.new_initial_state(), [4, 0, CALL, RAISE])
    assert set(agent.frozen) == {"4:?:"}
    assert agent.sigma.distribution("0:?:") is not None  # the searcher's other hands are re-solved
    assert agent.sigma.distribution("0:?:cr") is not None  # and so is the opponent


def test_searches_are_deterministic_and_shared_through_the_cache(leduc2, coarse_blueprint, leduc2_search):
    cache = SearchCache()
    a = SearchAgent(leduc2, coarse_blueprint, leduc2_search, seat=0, config=SMALL, cache=cache)
    b = SearchAgent(leduc2, coarse_blueprint, leduc2_search, seat=1, config=SMALL, cache=cache)
    play(a, leduc2.new_initial_state(), [4, 0])
    play(b, leduc2.new_initial_state(), [4, 0])
    assert cache.solves == 1 and a.sigma is b.sigma


def test_the_agent_plays_the_final_iteration_and_believes_the_average(leduc2, coarse_blueprint, leduc2_search):
    agent = SearchAgent(leduc2, coarse_blueprint, leduc2_search, seat=0, config=SMALL)
    state = play(agent, leduc2.new_initial_state(), [0, 4])
    key = state.information_state_key(0)
    assert agent.policy(state) == agent.sigma.distribution(key, "current")
    opponent = state.child(CALL).information_state_key(1)
    assert agent._sigma_prob(opponent, 1, RAISE) == agent.sigma.distribution(opponent, "average")[RAISE]


def test_act_samples_from_the_policy_with_a_seeded_generator(leduc2, coarse_blueprint, leduc2_search):
    agent = SearchAgent(leduc2, coarse_blueprint, leduc2_search, seat=0, config=SMALL)
    state = play(agent, leduc2.new_initial_state(), [4, 0])
    first = [agent.fork().act(state, np.random.default_rng(seed)) for seed in range(20)]
    again = [agent.fork().act(state, np.random.default_rng(seed)) for seed in range(20)]
    assert first == again
    assert set(first) <= {a for a, p in agent.policy(state).items() if p > 0}


def test_with_a_blueprint_first_round_only_an_off_tree_action_triggers_a_search(leduc2, coarse_blueprint, leduc2_search):
    config = SearchConfig(iterations=200, first_round="blueprint")
    agent = SearchAgent(leduc2, coarse_blueprint, leduc2_search, seat=0, config=config,
                        abstraction=RemoveActions({"?:c": (RAISE,)}))
    start = play(agent, leduc2.new_initial_state(), [4, 0])
    assert agent.searches == [] and list(agent.policy(start).values()) == pytest.approx(coarse_blueprint.probs(start, 0))
    play(agent, start, [CALL, RAISE])
    assert agent.searches == [("off-tree action", "?:")]


def test_past_a_mid_round_depth_limit_the_root_moves_to_the_current_public_state(leduc2, coarse_blueprint, leduc2_search):
    agent = SearchAgent(leduc2, coarse_blueprint, leduc2_search, seat=1, config=SearchConfig(iterations=200, depth=DepthLimit(actions=1)))
    state = play(agent, leduc2.new_initial_state(), [4, 0, CALL])
    agent.policy(state)
    assert [root for _, root in agent.searches] == ["?:", "?:c"]
    assert agent.searches[-1][0] == "past the leaves"
