"""Real-time search for hold'em: the agent searches heads-up flops, turns and rivers from
the round's root, adds an opponent's off-tree bet and re-solves, freezes its own play for its
actual hand, and carries range beliefs between rounds by Bayes' rule with sigma."""

from __future__ import annotations

import attrs
import numpy as np
import pytest

from gamesolve.search.beliefs import ItemRanges
from gamesolve_nlth.cards import parse_cards
from gamesolve_nlth.search.agent import NLTHSearchAgent, NLTHSearchConfig
from gamesolve_nlth.search.presets import SEARCH_PRESETS
from gamesolve_nlth.spot.hands import HAND_CARDS, NUM_HANDS, hand_index
from gamesolve_nlth.state import CHECK_CALL, NLTHGame, raise_action

DECK = parse_cards("AsKd" "QhQc" "2h7c9s" "Td" "3c")  # hole cards of seats 0 and 1, flop, turn, river
QUICK = {"seconds": "0", "iterations": "8", "heads_up_flop": "1"}


def play(agent, seat, opponent, deck=DECK, until=None):
    """One heads-up hand: chance deals ``deck`` in order, ``agent`` plays ``seat``,
    ``opponent(state)`` the other seat; every transition is shown to the agent. Stops early
    at the first state where ``until(state)`` holds."""
    game = agent.game
    agent.new_hand(seat, 0)
    state, k, log = game.new_initial_state(), 0, []
    while not state.is_terminal() and not (until is not None and until(state)):
        p = state.current_player()
        if p < 0:
            action, k = deck[k], k + 1
        elif p == seat:
            action = agent.act(state, seat)
        else:
            action = opponent(state)
        log.append((state, action))
        agent.observe(state, action)
        state = state.child(action)
    return state, log


def caller(state):
    return CHECK_CALL


def odd_sizer_on(street):
    """An opponent that checks and calls, except on ``street``: it bets 333 when checked to,
    and raises to 17 chips above the minimum when facing a bet (sizes no search abstraction
    offers)."""

    def opponent(state):
        if state.street == street and state.min_raise_to is not None:
            if max(state.bets) == 0:
                return raise_action(333)
            if state.bets[state.current_player()] == 0:
                return raise_action(min(state.min_raise_to + 17, state.max_raise_to))
        return CHECK_CALL

    return opponent


odd_sizer = odd_sizer_on(2)


AGENT_SEAT = 1  # the big blind heads-up: first to act after the flop, never facing a bet against `caller`


class CallingBlueprint:
    """A stand-in blueprint that checks and calls (so every hand reaches the river), with
    hand-dependent probabilities for Bayes' rule: calling a bet with probability
    ``0.3 + 0.7 * (h mod 7) / 6`` for hand ``h``, checking always."""

    def new_hand(self, seat, hand):
        pass

    def act(self, state, seat):
        return CHECK_CALL

    def range_probabilities(self, state, seat, holes):
        if state.call_amount == 0:
            return [CHECK_CALL], np.ones((len(holes), 1))
        h = np.array([hand_index(int(a), int(b)) for a, b in holes])
        call = 0.3 + 0.7 * (h % 7) / 6
        return [0, CHECK_CALL], np.stack([1 - call, call], axis=1)


@pytest.fixture
def agent_factory():
    def make(**options):
        config = NLTHSearchConfig.from_options({**QUICK, **options})
        return NLTHSearchAgent(NLTHGame(players=2), CallingBlueprint(), config, seed=7)

    return make


def test_search_plays_legal_hands_against_a_trained_blueprint(hu_blueprint):
    """The agent over a real blueprint store, through the match runner."""
    from gamesolve.evaluate.match import make_agents, play_match
    from gamesolve.plugins import make_plugin_manager
    from gamesolve_nlth import plugin as nlth_plugin

    host = make_plugin_manager(strict=True, entry_points=False, plugins=[nlth_plugin])
    game = NLTHGame(players=2)
    texts = [f"search:store={hu_blueprint}:seconds=0:iterations=4", f"blueprint:store={hu_blueprint}"]
    agents, names = make_agents(host.agents, game, texts, 3, plugins=host.pm)
    result = play_match(game, agents, 8, seed=3, names=names)
    assert result.hands == 8
    assert agents[0].decisions and all(d.seconds >= 0 for d in agents[0].decisions)


def test_item_ranges_remove_dealt_cards_and_multiply_by_the_action_probability():
    ranges = ItemRanges.initial(HAND_CARDS, 2).after_item(51)
    holding = (HAND_CARDS == 51).any(axis=1)
    assert not ranges.reach[:, holding].any() and ranges.reach[:, ~holding].all()
    probs = np.linspace(0, 1, NUM_HANDS)
    after = ranges.after_action(1, probs)
    assert np.array_equal(after.reach[1], ranges.reach[1] * probs)
    assert np.array_equal(after.reach[0], ranges.reach[0])


def test_an_action_the_profile_never_takes_leaves_the_beliefs_as_they_were():
    ranges = ItemRanges.initial(HAND_CARDS, 2)
    after = ranges.after_action(0, np.zeros(NUM_HANDS))
    assert np.array_equal(after.reach, ranges.reach) and after.skipped_updates == 1


def test_bad_search_options_are_refused_before_any_store_is_read():
    with pytest.raises(ValueError, match="unknown nlth search option"):
        NLTHSearchConfig.from_options({"depth": "round"})
    with pytest.raises(ValueError, match="not a bet size"):
        NLTHSearchConfig.from_options({"bets": "huge"})
    with pytest.raises(ValueError, match="out of range"):
        NLTHSearchConfig.from_options({"streets": "0,2"})


def test_the_default_sizes_are_the_small_preset():
    assert NLTHSearchConfig() == NLTHSearchConfig.from_options({"preset": "small"})


def test_a_size_preset_sets_every_size_and_options_given_with_it_override_it():
    config = NLTHSearchConfig.from_options({"preset": "tiny", "raise_cap": "3"})
    tiny = SEARCH_PRESETS["tiny"]
    assert (config.bets, config.raises, config.multiway_bets, config.preflop_bets) == (
        tiny.bets, tiny.raises, tiny.multiway_bets, tiny.preflop_bets)  # fmt: skip
    assert config.raise_cap == 3 != tiny.raise_cap


def test_an_unknown_preset_is_refused_naming_the_known_ones():
    with pytest.raises(ValueError, match="unknown search preset 'huge' .*tiny, small, pluribus, paper"):
        NLTHSearchConfig.from_options({"preset": "huge"})


def test_the_default_solves_subgames_with_dcfr_and_plays_its_final_iteration():
    config = NLTHSearchConfig()
    assert (config.algorithm, config.play) == ("dcfr", "current")


def test_the_paper_preset_plays_as_pluribus_over_the_default_sizes():
    config = NLTHSearchConfig.from_options({"preset": "paper"})
    assert (config.algorithm, config.play) == ("lcfr", "current")
    assert attrs.evolve(config, algorithm="dcfr") == NLTHSearchConfig()
    assert NLTHSearchConfig.from_options({"preset": "paper", "play": "average"}).play == "average"


@pytest.mark.parametrize("name", list(SEARCH_PRESETS))
def test_every_size_preset_offers_one_to_six_raise_sizes_on_every_street(name):
    config = NLTHSearchConfig.from_options({"preset": name})
    heads_up, multiway = config.sizes(), config.multiway_sizes()
    for street in heads_up.values():
        assert 1 <= len(street.bets) <= 6 and 1 <= len(street.raises) <= 6
    for street in multiway.streets.values():
        assert 1 <= len(street.bets) <= 6 and 1 <= len(street.raises) <= 6


def test_a_river_subgame_offers_the_presets_sizes(agent_factory):
    """Facing no bet on the river (pot 200, 9,900 behind): check and the bets of the preset."""

    def root_actions(preset):
        agent = agent_factory(preset=preset, streets="3")
        state, _ = play(agent, AGENT_SEAT, caller, until=lambda s: s.street == 3 and s.current_player() == AGENT_SEAT)
        agent.act(state, AGENT_SEAT)
        return len(agent.solved.form.labels(0))

    assert root_actions("tiny") == 1 + 2  # pot, all-in
    assert root_actions("small") == 1 + 3  # half pot, pot, all-in
    assert root_actions("pluribus") == 1 + 5  # 25% and 50% of 200 both bet the big blind, 100


def test_heads_up_flops_turns_and_rivers_are_searched_and_the_first_round_plays_the_blueprint(agent_factory):
    agent = agent_factory(bets="50%", raises="none")  # no all-in: the hand reaches the river
    play(agent, AGENT_SEAT, caller)
    by_street = {d.round: d.searched for d in agent.decisions}
    assert by_street == {0: False, 1: True, 2: True, 3: True}
    assert all(d.seconds >= 0 for d in agent.decisions)


def test_by_default_heads_up_flops_play_the_blueprint(agent_factory):
    agent = agent_factory(bets="50%", raises="none", heads_up_flop="0")
    play(agent, AGENT_SEAT, caller)
    assert {d.round: d.searched for d in agent.decisions} == {0: False, 1: False, 2: True, 3: True}
    assert NLTHSearchConfig().heads_up_flop == "off"


@pytest.mark.parametrize("street", [1, 2], ids=["flop", "turn"])
def test_an_off_tree_bet_is_added_where_it_was_taken_and_the_round_re_solved(agent_factory, street):
    agent = agent_factory(bets="50%", raises="none")
    solves = []
    original = agent._solve

    def spy():
        original()
        solves.append((agent.root.street, dict(agent.added), agent.solved))

    agent._solve = spy
    _, log = play(agent, AGENT_SEAT, odd_sizer_on(street))
    odd = [(s, a) for s, a in log if s.street == street and s.current_player() == 1 - AGENT_SEAT and a >= 2]
    assert odd, "the opponent made its odd-sized bet"
    turn = [(added, solved) for st, added, solved in solves if st == street]
    assert len(turn) >= 2 and not turn[0][0]  # the round's first solve, then a re-solve with the bet
    (path, labels), = turn[-1][0].items()
    node = 0
    form = turn[-1][1].form
    for label in path:
        node = int(form.children(node)[[int(a) for a in form.labels(node)].index(label)])
    assert sorted(labels) == [odd[0][1]]
    assert odd[0][1] in [int(a) for a in form.labels(node)]


def record_solves(agent):
    """The agent's solves as they happen: (street, frozen own play before it, the solve)."""
    solves = []
    original = agent._solve

    def spy():
        frozen = dict(agent.frozen)
        original()
        solves.append((agent.root.street, frozen, agent.solved))

    agent._solve = spy
    return solves


@pytest.mark.parametrize("street", [1, 2], ids=["flop", "turn"])
def test_own_play_is_frozen_for_the_actual_hand_when_the_round_is_re_solved(agent_factory, street):
    agent = agent_factory(bets="50%", raises="none")
    solves = record_solves(agent)
    play(agent, AGENT_SEAT, odd_sizer_on(street))
    _, frozen, solved = next((st, f, so) for st, f, so in solves if st == street and f)
    mine = hand_index(*DECK[2 * AGENT_SEAT : 2 * AGENT_SEAT + 2])
    for path, played in frozen.items():
        node = 0
        for label in path:
            node = int(solved.form.children(node)[[int(a) for a in solved.form.labels(node)].index(label)])
        labels = [int(a) for a in solved.form.labels(node)]
        expected = np.array([played[a] for a in labels])
        assert np.allclose(solved.rows(node, "current")[mine], expected)
        assert np.allclose(solved.rows(node, "average")[mine], expected)


def test_with_two_threads_a_flop_iteration_walks_two_boards_and_own_play_stays_frozen(agent_factory, monkeypatch):
    from gamesolve.search import range_agent, range_solve

    made = []

    class Recorded(range_solve.SampledChanceCFR):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            made.append(self)

    monkeypatch.setattr(range_solve, "SampledChanceCFR", Recorded)
    agent = agent_factory(bets="50%", raises="none", threads="2")
    solves = record_solves(agent)
    play(agent, AGENT_SEAT, odd_sizer_on(1))
    assert len(made) >= 2 and all(s.boards_per_iteration == 2 and s.iterations == 8 for s in made)
    assert all(8 < s.boards <= 16 for s in made)  # 16 boards walked, with distinct turns in each pair
    frozen, solved = next((f, so) for st, f, so in solves if st == 1 and f)
    mine = hand_index(*DECK[2 * AGENT_SEAT : 2 * AGENT_SEAT + 2])
    for path, played in frozen.items():
        node = range_agent._walk(solved.form, path)
        expected = np.array([played[int(a)] for a in solved.form.labels(node)])
        assert np.allclose(solved.rows(node, "current")[mine], expected)


def test_beliefs_at_the_river_are_the_turn_root_beliefs_times_sigma(agent_factory):
    agent = agent_factory(play="average", bets="50%", raises="none")
    turn = {}

    original = agent._new_round

    def spy(root):
        if root.street == 3:
            turn["ranges"], turn["solved"], turn["actions"] = agent.ranges, agent.solved, list(agent.actions)
        original(root)

    agent._new_round = spy
    play(agent, AGENT_SEAT, caller)
    ranges, solved, actions = turn["ranges"], turn["solved"], turn["actions"]
    expected = ranges.reach.copy()
    node = 0
    for state, player, action in actions:
        if player < 0:
            continue  # the river card (the round's transitions include chance)
        labels = [int(a) for a in solved.form.labels(node)]
        # (with play=average, what the agent played with its own hand is sigma too)
        expected[player] *= solved.rows(node, "average")[:, labels.index(action)]
        node = int(solved.form.children(node)[labels.index(action)])
    river = DECK[8]
    expected[:, (HAND_CARDS == river).any(axis=1)] = 0.0
    assert np.allclose(agent.ranges.reach, expected)


def test_the_same_seed_plays_the_same_hand(agent_factory):
    a, b = agent_factory(), agent_factory()
    _, log_a = play(a, AGENT_SEAT, odd_sizer)
    _, log_b = play(b, AGENT_SEAT, odd_sizer)
    assert [x for _, x in log_a] == [x for _, x in log_b]


def reach_first_river_decision(agent, seat, opponent, deck=DECK):
    """The agent's first river decision of a hand played by :func:`play` (it has seen
    everything before it)."""
    state, _ = play(agent, seat, opponent, deck, until=lambda s: s.street == 3 and s.current_player() == seat)
    return state


def test_the_exposed_strategy_is_the_distribution_the_agent_plays(agent_factory):
    agent = agent_factory(bets="50%,allin", raises="none", streets="3")
    state = reach_first_river_decision(agent, AGENT_SEAT, caller)
    mine = np.array([DECK[2 * AGENT_SEAT : 2 * AGENT_SEAT + 2]], dtype=np.int64)
    asked = agent.range_probabilities(state, AGENT_SEAT, mine)  # before acting: a copy of the agent searches
    draws = [agent.act(state, AGENT_SEAT) for _ in range(4000)]
    actions, probs = agent.range_probabilities(state, AGENT_SEAT, mine)  # what it played with
    assert asked[0] == actions and np.array_equal(asked[1], probs)
    assert len(actions) == 3 and agent.decisions[-1].searched
    for action, p in zip(actions, probs[0]):
        frequency = draws.count(action) / len(draws)
        assert abs(frequency - p) <= 4 * np.sqrt(p * (1 - p) / len(draws)) + 1e-12


def test_the_exposed_strategy_for_another_hand_is_what_the_agent_holding_it_plays(agent_factory):
    """Same public history, the agent's hole cards swapped for others: the first agent's
    exposure for the second's hand is the second's own strategy (no own row was frozen)."""
    other = DECK[:2] + parse_cards("8d8h") + DECK[4:]
    exposures = []
    for deck in (DECK, other):
        agent = agent_factory(bets="50%,allin", raises="none", streets="3")
        state = reach_first_river_decision(agent, AGENT_SEAT, caller, deck)
        exposures.append(agent.range_probabilities(state, AGENT_SEAT, np.array([other[2:4]], dtype=np.int64)))
    assert exposures[0][0] == exposures[1][0]
    assert np.array_equal(exposures[0][1], exposures[1][1])


def test_local_best_response_plays_against_the_search_agent(hu_blueprint):
    from gamesolve.evaluate.lbr import run_lbr
    from gamesolve.plugins import make_plugin_manager
    from gamesolve_nlth import plugin as nlth_plugin

    host = make_plugin_manager(strict=True, entry_points=False, plugins=[nlth_plugin])
    result = run_lbr(host, NLTHGame(players=2), f"search:store={hu_blueprint}:seconds=0:iterations=4", 2, seed=2)
    assert result.hands == 2 and np.isfinite(result.mbb_per_game)
