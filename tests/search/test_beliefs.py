"""Beliefs: Bayes' rule with the profile in force, by enumeration and by range vectors."""

import numpy as np
import pytest

from gamesolve.game.state import CHANCE
from gamesolve.search import HistoryRanges, ItemRanges, PublicBeliefState
from gamesolve.search.locate import FormLocator
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


# -- ranges: the same updates on vectors over private states --------------------------------

def walk(leduc2_form, actions, profile):
    """Ranges (:class:`ItemRanges`) and enumerated histories (:class:`HistoryRanges`) through the
    same hand: ``actions`` from the start (the deals included), each action's probability for
    every private state (Leduc: the card) from ``profile(card, action)``."""
    game = LeducGame(2)
    exact = HistoryRanges.initial(FormLocator(game, leduc2_form))
    ranged = ItemRanges.initial(np.full((6, 1), -1), 2)
    state = game.new_initial_state()
    for action in actions:
        player = state.current_player()
        if player == CHANCE:
            exact, ranged = exact.after_chance(state, action), ranged.after_chance(state, action)
        else:
            probs = np.array([profile(card, action) for card in range(6)])
            exact, ranged = exact.after_action(player, probs, action), ranged.after_action(player, probs, action)
        state = state.child(action)
    return state, exact, ranged


def by_rank(probs):
    """Raise with probability ``probs[rank]``, else check or call."""
    return lambda card, action: probs[card // 2] if action == RAISE else 1.0 - probs[card // 2]


@pytest.mark.parametrize("actions, board", [
    ([4, 0, RAISE], None),
    ([4, 0, RAISE, RAISE], None),
    ([4, 0, CALL, CALL, 3], 3),
    ([4, 1, RAISE, CALL, 0], 0),
])  # fmt: skip
def test_ranges_equal_the_reach_read_off_every_history(leduc2_form, actions, board):
    """Where a player can hold a card (not the board's) the two agree; the enumeration gives
    the board's card reach 0, ranges leave its removal to the subgame's deals."""
    _, exact, ranged = walk(leduc2_form, actions, by_rank([0.2, 0.5, 0.9]))
    possible = [card for card in range(6) if card != board]
    assert np.allclose(exact.reach[:, possible], ranged.reach[:, possible], rtol=0, atol=1e-15)
    if board is not None:
        assert not exact.reach[:, board].any()


def test_an_action_no_private_state_takes_leaves_the_ranges_unchanged(leduc2_form):
    _, exact, ranged = walk(leduc2_form, [4, 0, RAISE], lambda card, action: 0.0)
    assert ranged.skipped_updates == exact.skipped_updates == 1
    assert (ranged.reach == 1).all()
