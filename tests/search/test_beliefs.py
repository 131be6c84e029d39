"""Public belief states: Bayes' rule with the profile in force."""

import numpy as np
import pytest

from gamesolve.search import PublicBeliefState
from gamesolve_leduc import LeducGame

RAISE, CALL = 2, 1


def dealt(game):
    """The public state after both private cards: every deal, uniformly."""
    pbs = PublicBeliefState.initial(game)
    return pbs.after_chance("?:").after_chance("?:")


def raise_probability_by_rank(probs):
    """A profile for player 0 at the first decision: raise with probability probs[rank]."""

    def prob(state, player, action):
        rank = state.private[player] // 2
        return probs[rank] if action == RAISE else 1.0 - probs[rank]

    return prob


def test_every_deal_is_a_history_of_the_first_public_state():
    pbs = dealt(LeducGame(2))
    assert len(pbs) == 30 and np.allclose(pbs.weights(), 1 / 30)
    assert pbs.beliefs(0) == pytest.approx({f"{c}:?:": 1 / 6 for c in range(6)})


def test_a_hand_that_never_takes_an_action_has_zero_probability_after_it():
    pbs = dealt(LeducGame(2)).after_action(RAISE, raise_probability_by_rank([0.5, 0.5, 0.0]))
    beliefs = pbs.beliefs(0)
    assert beliefs["4:?:r"] == beliefs["5:?:r"] == 0.0  # kings never raise
    assert sum(beliefs.values()) == pytest.approx(1.0)


def test_beliefs_follow_bayes_rule():
    pbs = dealt(LeducGame(2)).after_action(RAISE, raise_probability_by_rank([0.2, 0.4, 0.8]))
    beliefs = pbs.beliefs(0)
    assert beliefs["0:?:r"] == pytest.approx(0.2 / (2 * 1.4))
    assert beliefs["5:?:r"] == pytest.approx(0.8 / (2 * 1.4))


def test_only_the_actor_is_updated_and_card_removal_still_applies():
    pbs = dealt(LeducGame(2)).after_action(RAISE, raise_probability_by_rank([0.0, 0.0, 1.0]))
    beliefs = pbs.beliefs(1)  # player 0 holds a king: player 1 holds the other king less often
    assert beliefs["4:?:r"] == pytest.approx(1 / 10) and beliefs["0:?:r"] == pytest.approx(2 / 10)


def test_a_public_card_keeps_only_consistent_histories():
    pbs = dealt(LeducGame(2)).after_action(CALL, lambda s, p, a: 1.0).after_action(CALL, lambda s, p, a: 1.0)
    flop = pbs.after_chance("3:cc|")
    assert len(flop) == 20 and all(3 not in s.private for s in flop.states)


def test_an_action_the_profile_never_takes_leaves_the_beliefs_unchanged():
    pbs = dealt(LeducGame(2)).after_action(RAISE, lambda s, p, a: 0.0)
    assert pbs.skipped_updates == 1
    assert pbs.beliefs(0) == pytest.approx({f"{c}:?:r": 1 / 6 for c in range(6)})
