"""Nested unsafe search (Algorithm 2) as the core's range search agent plays it on 2-player
Leduc: roots per betting round, off-tree actions added and re-solved, the searcher's own
probabilities frozen for the hand it holds."""

import numpy as np
import pytest

from gamesolve.search import RemoveActions, SolveMemo

CALL, RAISE = 1, 2
NO_RAISE_AFTER_CHECK = RemoveActions({"?:c": (RAISE,)})  # an opponent's raise there is off-tree


def play(agent, state, actions):
    """Feed ``actions`` (chance outcomes included) to the agent; its own actions go through
    ``policy`` first, as at the table (which freezes them)."""
    for a in actions:
        if state.current_player() == agent.seat:
            agent.policy(state)
        agent.observe(state, a)
        state = state.child(a)
    return state


def labels_at(solved, path):
    """The subgame's actions at the node ``path`` (labels from the root) leads to."""
    node = 0
    for label in path:
        labels = [int(a) for a in solved.form.labels(node)]
        node = int(solved.form.children(node)[labels.index(label)])
    return [int(a) for a in solved.form.labels(node)], node


@pytest.fixture
def agent(search_agent, coarse_blueprint):
    """Seat 0, whose subgames do not let player 1 raise after a check."""
    return search_agent(coarse_blueprint, 0, abstraction=NO_RAISE_AFTER_CHECK, iterations=200)


def test_the_first_search_is_rooted_at_the_start_of_the_first_round(agent, leduc2):
    start = play(agent, leduc2.new_initial_state(), [4, 0])
    agent.policy(start)
    assert agent.root.public_state_key() == "?:" and agent.memo.solves == 1


def test_the_root_moves_to_the_start_of_each_new_betting_round(agent, leduc2):
    play(agent, leduc2.new_initial_state(), [4, 0, CALL, CALL, 2])
    assert agent.root.public_state_key() == "2:cc|"
    domain = agent.domain
    node = domain.locator.node(agent.root)
    weights = domain.form.deals.listed.weights(agent.ranges.reach, domain.form.node_round[node], domain.outcomes(node))
    assert np.count_nonzero(weights) == 20  # the 20 deals consistent with the board


def test_an_off_tree_action_is_added_and_the_subgame_re_solved_from_the_round_root(agent, leduc2):
    state = play(agent, leduc2.new_initial_state(), [4, 0, CALL])
    first = agent.solved
    assert RAISE not in labels_at(first, (CALL,))[0]  # the abstraction has no raise after a check
    state = play(agent, state, [RAISE])
    assert agent.added == {(CALL,): {RAISE}} and agent.stale
    agent.policy(state)
    assert agent.root.public_state_key() == "?:" and agent.solved is not first and agent.memo.solves == 2
    assert RAISE in labels_at(agent.solved, (CALL,))[0]


def test_the_searchers_probabilities_for_its_actual_hand_stay_frozen_after_a_re_solve(agent, leduc2):
    start = play(agent, leduc2.new_initial_state(), [4, 0])
    played = agent.policy(start)
    state = play(agent, start, [CALL, RAISE])
    agent.policy(state)  # re-solved with the raise added
    mine = agent.domain.private_index(start, 0)
    labels, root = labels_at(agent.solved, ())
    assert agent.solved.rows(root, "current")[mine] == pytest.approx([played[a] for a in labels])
    assert agent.policy(start) == pytest.approx(played)
    assert agent._sigma(start, 0, CALL)[mine] == pytest.approx(played[CALL])


def test_only_the_actual_hand_is_frozen_not_other_hands_or_opponents(agent, leduc2):
    start = play(agent, leduc2.new_initial_state(), [4, 0])
    agent.policy(start)
    state = play(agent, start, [CALL, RAISE])
    agent.policy(state)
    assert set(agent.frozen) == {(), (CALL, RAISE)}  # its own two decisions, not the opponent's
    mine = agent.domain.private_index(start, 0)
    assert {private for _, private in agent._frozen_rows(agent.solved.form)} == {mine}  # not its other hands


def test_searches_are_deterministic_and_shared_through_the_memo(search_agent, coarse_blueprint, leduc2):
    memo = SolveMemo()
    a = search_agent(coarse_blueprint, 0, memo=memo, iterations=200)
    b = search_agent(coarse_blueprint, 1, memo=memo, iterations=200)
    play(a, leduc2.new_initial_state(), [4, 0])
    state = play(b, leduc2.new_initial_state(), [4, 0, CALL])
    a.policy(leduc2.new_initial_state().child(4).child(0))
    b.policy(state)
    assert memo.solves == 1 and a.solved is b.solved


def test_the_agent_plays_the_final_iteration_and_believes_the_average(search_agent, coarse_blueprint, leduc2):
    agent = search_agent(coarse_blueprint, 0, iterations=200)
    state = play(agent, leduc2.new_initial_state(), [0, 4])
    played = agent.policy(state)
    labels, root = labels_at(agent.solved, ())
    mine = agent.domain.private_index(state, 0)
    assert [played[a] for a in labels] == pytest.approx(agent.solved.rows(root, "current")[mine])
    opponent = play(agent, state, [CALL])
    labels, node = labels_at(agent.solved, (CALL,))
    assert agent._sigma(opponent, 1, RAISE) == pytest.approx(agent.solved.rows(node, "average")[:, labels.index(RAISE)])


def test_act_samples_from_the_policy_with_the_hands_seeded_generator(search_agent, coarse_blueprint, leduc2):
    def actions():
        agent = search_agent(coarse_blueprint, 0, iterations=200)
        out = []
        for hand in range(20):
            agent.new_hand(0, hand)
            state = play(agent, leduc2.new_initial_state(), [4, 0])
            support = {a for a, p in agent.fork().policy(state).items() if p > 0}
            out.append(agent.act(state, 0))
            assert out[-1] in support
        return out

    assert actions() == actions()


def test_with_a_blueprint_first_round_only_an_off_tree_action_triggers_a_search(search_agent, coarse_blueprint, leduc2):
    """Pluribus plays the blueprint in the first round unless an opponent goes off-tree; the
    search then starts at the public state after that action."""
    agent = search_agent(coarse_blueprint, 0, abstraction=NO_RAISE_AFTER_CHECK, iterations=200, first_round="blueprint")
    start = play(agent, leduc2.new_initial_state(), [4, 0])
    assert agent.plan is None and list(agent.policy(start).values()) == pytest.approx(coarse_blueprint.probs(start, 0))
    state = play(agent, start, [CALL, RAISE])
    assert agent.root.public_state_key() == "?:cr" and agent.plan is not None
    agent.policy(state)
    assert agent.memo.solves == 1


def test_past_a_mid_round_depth_limit_the_root_moves_where_the_last_subgame_had_its_leaves(search_agent, coarse_blueprint, leduc2):
    agent = search_agent(coarse_blueprint, 1, iterations=200, depth="actions:1")
    state = play(agent, leduc2.new_initial_state(), [4, 0, CALL])
    agent.policy(state)
    assert agent.root.public_state_key() == "?:c"
