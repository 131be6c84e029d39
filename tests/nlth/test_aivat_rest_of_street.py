"""AIVAT's rest-of-street value: the known agent's range strategy against a model of the
opponent, walked to the end of the street (docs/evaluation.md, AIVAT)."""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from gamesolve.evaluate.match import make_agents
from gamesolve.plugins import make_plugin_manager
from gamesolve_nlth import plugin as nlth_plugin
from gamesolve_nlth.agents import CallAgent, FoldAgent, RandomAgent, TagAgent
from gamesolve_nlth.evaluate.aivat import HoleCardAIVAT, _unseen_cards, showdown_payoffs
from gamesolve_nlth.evaluate.hands import HOLES, possible
from gamesolve_nlth.evaluate.rest_of_street import opponent_model, rest_of_street, rest_of_street_after_cards, with_cards
from gamesolve_nlth.evaluate.stakes import StakesTable, table_shape
from gamesolve_nlth.state import CHECK_CALL, NLTHGame, raise_action


class NoisyRange:
    """A known agent whose strategy differs by hole cards: check or call, or bet the pot, with
    probabilities drawn from a hash of the hole cards and the public state."""

    def range_probabilities(self, state, seat, holes):
        if state.min_raise_to is None:
            return [CHECK_CALL], np.ones((len(holes), 1))
        key = zlib.crc32(state.public_state_key().encode())
        p = ((holes[:, 0] * 53 + holes[:, 1] + key) % 97) / 96.0
        bet = raise_action(min(state.max_raise_to, max(state.min_raise_to, max(state.bets) + state.pot)))
        return [CHECK_CALL, bet], np.stack([1 - p, p], axis=1)


def river_state(game):
    state = game.new_initial_state(cards="AsKd QhJh 7c8c2d9sTs")
    state.apply(("cbr", 300)).apply("cc").apply(("cbr", 400)).apply("cc").apply("cc").apply("cc")
    return state  # the river's first decision: 700 matched, 9,300 behind


def test_the_walk_is_the_check_down_value_when_nobody_bets():
    game = NLTHGame(2)
    state = river_state(game)
    estimator = HoleCardAIVAT(game, CallAgent(game), preflop=None, stakes=None, opponent=FoldAgent(game), walk=(3,))
    walked = estimator._value_vector(state, 0)
    check_down = HoleCardAIVAT(game, CallAgent(game), preflop=None, stakes=None)._value_vector(state, 0)
    ok = possible(state.board + state.hole_cards(1))
    assert np.isnan(walked[~ok]).all()
    assert walked[ok] == pytest.approx(check_down[ok], abs=1e-9)


def test_the_walk_weights_the_agents_bets_and_the_opponents_folds():
    """``random`` bets half the time when it may check; ``fold`` then folds (the agent wins
    the 700 the opponent put in) and otherwise checks behind to the showdown."""
    game = NLTHGame(2)
    state = river_state(game)
    estimator = HoleCardAIVAT(game, RandomAgent(game), preflop=None, stakes=None, opponent=FoldAgent(game), walk=(3,))
    walked = estimator._value_vector(state, 0)
    ok = possible(state.board + state.hole_cards(1))
    showdown = state.child(CHECK_CALL).child(CHECK_CALL)
    payoffs = np.empty(int(ok.sum()))
    showdown_payoffs(showdown.s, 0, HOLES[ok], payoffs)
    assert walked[ok] == pytest.approx(0.5 * 700 + 0.5 * payoffs, abs=1e-9)


@pytest.mark.parametrize("street", ["turn", "river"])
def test_a_walked_card_correction_has_mean_zero(street):
    """With the walk, a card's correction subtracts the mean of the walk over every card.
    Averaged over every card with its probability given the opponent's view (card removal by
    the agent's weighted range), the correction is 0, whatever the model of the opponent
    (``tag``'s), the agent's range strategy (noise) and the leaf values (a stakes table of
    noise on the turn)."""
    game = NLTHGame(2)
    state = game.new_initial_state(cards="AsKd QhJh 7c8c2d" + ("9s" if street == "river" else ""))
    state.apply(("cbr", 300)).apply("cc").apply(("cbr", 400)).apply("cc")  # the chance node before the turn
    if street == "river":
        state.apply("cc").apply("cc")  # the chance node before the river
    assert state.is_chance_node()
    table = StakesTable(np.random.default_rng(1).normal(0, 0.3, int(np.prod(table_shape()))))
    estimator = HoleCardAIVAT(game, NoisyRange(), preflop=None, stakes=table, opponent=TagAgent(game, samples=20), walk=(2, 3))
    w = possible(state.hole_cards(1) + state.board) * np.random.default_rng(2).random(1326)
    values = estimator._walked_cards(state, 0)
    assert len(values) == 52 - 2 - len(state.board)
    some = next(iter(values))
    assert values[some] == pytest.approx(estimator._value_vector(with_cards(state, [some], 0), 0), nan_ok=True)
    mean, terms = 0.0, []
    for c in values:
        term = estimator._card_term(values, w, c)
        terms.append(term)
        mean += (w * possible([c])).sum() / ((len(values) - 2) * w.sum()) * term
    assert np.std(terms) > 10  # the corrections are not trivially 0
    assert mean == pytest.approx(0.0, abs=1e-9)


def test_a_card_the_agent_holds_can_be_dealt_to_its_other_worlds():
    game = NLTHGame(2)
    state = game.new_initial_state(cards="AsKd QhJh 7c8c2d9s")
    state.apply("cc").apply("cc").apply("cc").apply("cc").apply("cc").apply("cc")  # before the river
    after = with_cards(state, [state.hole_cards(0)[0]], 0)  # the agent's own ace of spades
    assert after.board == state.board + [state.hole_cards(0)[0]]
    assert not after.is_chance_node() and not after.is_terminal()  # the river's first decision


def test_the_blueprints_model_strategy_ignores_this_hands_random_translations(hu_blueprint):
    """The walk's range strategy must be a function of the history: an off-tree bet gets the
    deterministic translation, whatever the hand drew."""
    game = NLTHGame(2)
    host = make_plugin_manager(strict=True, entry_points=False, plugins=[nlth_plugin])
    (agent,), _ = make_agents(host.agents, game, [f"blueprint:store={hu_blueprint}"], 0)
    (fresh,), _ = make_agents(host.agents, game, [f"blueprint:store={hu_blueprint}"], 0)
    state = game.new_initial_state(cards="7s2d QhJh", button=1)
    state.apply(("cbr", 500))  # an off-tree open: the big blind translates it at random
    holes = HOLES[:40]
    deterministic = fresh.range_probabilities(state, 0, holes)
    differed = False
    for hand in range(40):  # until this hand's draw differs from the deterministic translation
        agent.new_hand(0, hand)
        agent.act(state, 0)
        differed = not np.array_equal(agent.range_probabilities(state, 0, holes)[1], deterministic[1])
        if differed:
            break
    assert differed
    actions, probs = agent.model_range_probabilities(state, 0, holes)
    assert actions == deterministic[0] and np.array_equal(probs, deterministic[1])


def before_the_river(game):
    state = game.new_initial_state(cards="AsKd QhJh 7c8c2d9s")
    state.apply(("cbr", 300)).apply("cc").apply(("cbr", 400)).apply("cc").apply("cc").apply("cc")  # 9,300 behind
    assert state.is_chance_node()
    return state


def crossing_estimator(game, **options):
    table = StakesTable(np.random.default_rng(1).normal(0, 0.3, int(np.prod(table_shape()))))
    return HoleCardAIVAT(game, NoisyRange(), preflop=None, stakes=table, opponent=TagAgent(game, samples=20),
                         walk=(2, 3), cross=(3,), **options)  # fmt: skip


def test_one_walk_over_every_card_equals_the_walk_after_each_card():
    game = NLTHGame(2)
    state = before_the_river(game)
    estimator = crossing_estimator(game)
    cards = [0, 5, 13, 51, state.hole_cards(0)[0]]  # the last one is the agent's own ace
    walks = rest_of_street_after_cards(state, 0, cards, estimator._ranges, estimator.opponent, lambda s: estimator._value_vector(s, 0))
    for row, c in zip(walks, cards):
        one = rest_of_street(with_cards(state, [c], 0), 0, estimator._ranges, estimator.opponent, lambda s: estimator._value_vector(s, 0))
        assert row == pytest.approx(one, abs=1e-9, nan_ok=True)
    assert np.isnan(walks[-1][HOLES[:, 0] == state.hole_cards(0)[0]]).all()  # worlds holding the card dealt


def test_a_crossed_card_is_a_martingale_of_the_walk():
    """Crossing the river, ``v`` before it is every world's mean of the river's walk over the
    cards it does not hold: the expectation of the river card's value (card removal by the
    agent's weighted range) is the value before it, so its correction has mean zero and no
    jump is left uncorrected at the card."""
    game = NLTHGame(2)
    state = before_the_river(game)
    estimator = crossing_estimator(game)
    w = possible(state.hole_cards(1) + state.board) * np.random.default_rng(2).random(1326)
    before = estimator._value(state, 0, w)
    assert before == pytest.approx(estimator._expected_over_cards(estimator._walked_cards(state, 0), w), abs=1e-9)
    check_down = HoleCardAIVAT(game, NoisyRange(), preflop=None, stakes=None)._value(state, 0, w)
    assert abs(before - check_down) > 10  # the walk is not the check-down value


def test_the_sampled_expectation_over_a_card_is_unbiased():
    """The turn card's expectation samples cards (as the flop's samples flops): ``C`` times
    the mean of a draw is the exact expectation over every card, card removal included."""
    game = NLTHGame(2)
    state = game.new_initial_state(cards="AsKd QhJh 7c8c2d")
    state.apply("cc").apply("cc").apply("cc").apply("cc")  # before the turn
    rng = np.random.default_rng(3)
    table = {c: rng.normal(0, 100, 1326) for c in range(52)}
    w = possible(state.hole_cards(1) + state.board) * rng.random(1326)
    exact = HoleCardAIVAT._expected_over_cards({c: table[c] for c in _unseen_cards(state, 0, state.board)}, w)
    draws = HoleCardAIVAT._card_samples(state, 0, w, 4000, lambda cards: table[cards[0]], 1)
    d = len(_unseen_cards(state, 0, state.board))
    estimate, se = d / (d - 2) * draws.mean(), d / (d - 2) * draws.std() / np.sqrt(len(draws))
    assert abs(estimate - exact) < 4 * se
    assert HoleCardAIVAT._sampled_expectation(state, 0, w, 4000, lambda cards: table[cards[0]], 1) == pytest.approx(estimate)


@pytest.mark.slow  # about 20 s: every turn card's walk across every river card
def test_a_turn_card_correction_across_the_river_has_mean_zero(monkeypatch):
    """The turn card's correction when the turn's walk crosses the river: its expectation is
    the exact one of the walk that stops at the river plus the sampled excess. With the exact
    sum over every card in place of the samples, the correction averages to 0 (1e-9) over
    every turn card weighted by its probability."""
    game = NLTHGame(2)
    state = game.new_initial_state(cards="AsKd QhJh 7c8c2d")
    state.apply(("cbr", 300)).apply("cc").apply(("cbr", 400)).apply("cc")  # before the turn, 9,300 behind
    estimator = crossing_estimator(game)

    def exact(state, seat, w, samples, surplus, count):
        return HoleCardAIVAT._expected_over_cards({c: surplus([c]) for c in _unseen_cards(state, seat, state.board)}, w)

    monkeypatch.setattr(estimator, "_sampled_expectation", exact)
    w = possible(state.hole_cards(1) + state.board) * np.random.default_rng(2).random(1326)
    cards = _unseen_cards(state, 0, state.board)
    terms = [estimator._walked_card_term(state, 0, w, c) for c in cards]
    mean = sum((w * possible([c])).sum() / ((len(cards) - 2) * w.sum()) * t for c, t in zip(cards, terms))
    assert np.std(terms) > 10
    assert mean == pytest.approx(0.0, abs=1e-9)


def test_the_opponents_model_is_a_function_of_the_history(hu_blueprint):
    """``tag`` and the baselines model themselves (their exposed strategies read no random
    numbers); a blueprint opponent is modelled with every off-tree bet translated
    deterministically."""
    game = NLTHGame(2)
    host = make_plugin_manager(strict=True, entry_points=False, plugins=[nlth_plugin])
    (blueprint, tag), _ = make_agents(host.agents, game, [f"blueprint:store={hu_blueprint}", "tag"], 0)
    assert opponent_model(tag) is tag
    state = game.new_initial_state(cards="7s2d QhJh", button=1)
    state.apply(("cbr", 500))  # an off-tree open: the big blind (seat 0) answers
    actions, probs = blueprint.model_range_probabilities(state, 0, np.asarray([state.hole_cards(0)], dtype=np.int64))
    expected = {a: p for a, p in zip(actions, probs[0]) if p > 0}
    assert opponent_model(blueprint).action_probabilities(state, 0) == pytest.approx(expected)
    assert opponent_model(object()) is None
