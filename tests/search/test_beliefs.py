"""Beliefs: Bayes' rule with the profile in force, by enumeration and by range vectors."""

import numpy as np
import pytest

from gamesolve.search import PublicBeliefState, RangeBeliefs
from gamesolve_leduc import LeducGame

RAISE, CALL = 2, 1


def dealt(game):
    """The public state after both private cards: every deal, uniformly."""
    pbs = PublicBeliefState.initial(game)
    return pbs.after_chance("?:").after_chance("?:")


def raise_probability_by_rank(probs):
    """A profile for player 0 at the first decision: raise with probability probs[rank]."""

    def prob(key, player, action):
        rank = int(key.split(":")[0]) // 2
        return probs[rank] if action == RAISE else 1.0 - probs[rank]

    return prob


def always(key, player, action):
    return 1.0


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
    pbs = dealt(LeducGame(2)).after_action(CALL, always).after_action(CALL, always)
    flop = pbs.after_chance("3:cc|")
    assert len(flop) == 20 and all(3 not in s.private for s in flop.states)


def test_an_action_the_profile_never_takes_leaves_the_beliefs_unchanged():
    pbs = dealt(LeducGame(2)).after_action(RAISE, lambda key, p, a: 0.0)
    assert pbs.skipped_updates == 1
    assert pbs.beliefs(0) == pytest.approx({f"{c}:?:r": 1 / 6 for c in range(6)})


# -- range beliefs: the same updates on vectors over private states -----------------------

def walk(form, events, prob):
    """Both representations through the same public events."""
    exact = PublicBeliefState.initial(LeducGame(2)).after_chance("?:").after_chance("?:")
    ranged = RangeBeliefs.initial(form).after_chance("?:")
    for kind, x in events:
        exact = exact.after_chance(x) if kind == "chance" else exact.after_action(x, prob)
        ranged = ranged.after_chance(x) if kind == "chance" else ranged.after_action(x, prob)
    return exact, ranged


@pytest.mark.parametrize("events", [
    [("action", RAISE)],
    [("action", RAISE), ("action", RAISE)],
    [("action", CALL), ("action", CALL), ("chance", "3:cc|")],
    [("action", RAISE), ("action", CALL), ("chance", "0:rc|"), ("action", RAISE)],
])
def test_range_beliefs_equal_the_enumeration(events, leduc2_search):
    form = leduc2_search.form
    profile = raise_probability_by_rank([0.2, 0.5, 0.9])
    exact, ranged = walk(form, events, profile)
    node = leduc2_search.node[exact.public_key()]
    assert ranged.node == node
    if form.node_kind[node] == 0:
        assert np.array_equal(exact.root_reach(form, node), ranged.root_reach(form, node))
        for player in range(2):
            assert np.allclose(exact.marginal(form, node, player), ranged.marginal(form, node, player), atol=1e-12)


def test_range_beliefs_remove_the_cards_the_board_shows(leduc2_search):
    form = leduc2_search.form
    _, ranged = walk(form, [("action", CALL), ("action", CALL), ("chance", "3:cc|")], always)
    node = ranged.node
    # Card 3 is on the board: nobody holds it; each other card is equally likely.
    marginal = ranged.marginal(form, node, 0)
    assert marginal[3] == 0.0 and marginal == pytest.approx([0.2, 0.2, 0.2, 0.0, 0.2, 0.2])
