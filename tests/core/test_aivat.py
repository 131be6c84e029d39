"""AIVAT is unbiased: exactly (every hand enumerated) on Kuhn, statistically on Leduc, N players."""

from __future__ import annotations

import math

import numpy as np
import pytest

import gamesolve_kuhn.plugin
import gamesolve_leduc.plugin
from gamesolve.agents import Agent
from gamesolve.evaluate.aivat import AivatError, HandLog, TreeValues, WorldAIVAT, estimator_for, profile_slots
from gamesolve.evaluate.best_response import TreeEvaluator
from gamesolve.evaluate.exposure import exposure_of
from gamesolve.evaluate.match import play_match
from gamesolve.game.state import CHANCE
from gamesolve.plugins import make_plugin_manager
from gamesolve.game.factored_compiler import compile_factored
from gamesolve.search import TabularPolicy
from gamesolve.search.player import PolicyPlayer, keyed_range_search_player
from gamesolve.solve.cfr import TABULAR_ALGORITHMS, TabularCFR
from gamesolve_kuhn import KuhnGame
from gamesolve_leduc import LeducGame


def cfr_policy(tree, iterations: int, algo: str = "cfr+") -> np.ndarray:
    solver = TabularCFR(tree, TABULAR_ALGORITHMS[algo])
    solver.run(iterations)
    return solver.average_policy()


def slot_player(tree) -> np.ndarray:
    return np.repeat(tree.infoset_player, np.diff(tree.infoset_slot_start))


def exact_value(tree, policies: list[np.ndarray], seating: list[int]) -> np.ndarray:
    """Each seat's expected value when seat ``s`` plays ``policies[seating[s]]``."""
    owner = slot_player(tree)
    profile = np.empty(tree.num_slots)
    for seat, who in enumerate(seating):
        profile[owner == seat] = policies[who][owner == seat]
    return TreeEvaluator(tree).expected_values(profile)


def all_hands(game, seated):
    """Every hand with its probability when ``seated[s]`` (exposing agents) play seat ``s``."""
    stack = [(game.new_initial_state(), 1.0, ())]
    while stack:
        state, prob, steps = stack.pop()
        if state.is_terminal():
            yield prob, HandLog(steps, state)
            continue
        player = state.current_player()
        if player == CHANCE:
            dist = state.chance_outcomes()
        else:
            dist = seated[player].action_probabilities(state, player, steps).items()
        for action, p in dist:
            if p > 0:
                stack.append((state.child(action), prob * p, steps + ((state, action),)))


@pytest.mark.parametrize("players", [2, 3])
def test_on_kuhn_the_expected_estimate_is_exactly_the_expected_value(players, kuhn2_tree, kuhn3_tree):
    tree = kuhn2_tree if players == 2 else kuhn3_tree
    game = KuhnGame(players)
    known = cfr_policy(tree, 200)
    others = [tree.uniform_policy(), cfr_policy(tree, 2, "cfr")]
    seating = [0, 1, 2][:players]
    policies = [known] + others[: players - 1]
    for seat in range(players):  # the known agent in every seat
        order = [(seating[(s - seat) % players]) for s in range(players)]
        seated = [exposure_of(PolicyPlayer(TabularPolicy.from_slots(tree, policies[w]))) for w in order]
        values = TreeValues(tree, known)  # the known agent's self-play values
        estimator = WorldAIVAT(game, seated[seat], values)
        mean_aivat = mean_plain = second_aivat = second_plain = 0.0
        for prob, log in all_hands(game, seated):
            a = estimator.estimate(log, seat)
            u = log.final.returns()[seat]
            mean_aivat += prob * a
            mean_plain += prob * u
            second_aivat += prob * a * a
            second_plain += prob * u * u
        exact = exact_value(tree, policies, order)[seat]
        assert mean_aivat == pytest.approx(exact, abs=1e-12)
        assert mean_plain == pytest.approx(exact, abs=1e-12)
        assert second_aivat - mean_aivat**2 < second_plain - mean_plain**2  # and the variance falls


def test_on_kuhn_a_worthless_value_function_still_gives_an_unbiased_estimate(kuhn2_tree):
    game, tree = KuhnGame(2), kuhn2_tree
    known, other = cfr_policy(tree, 50), tree.uniform_policy()
    seated = [exposure_of(PolicyPlayer(TabularPolicy.from_slots(tree, p))) for p in (known, other)]
    noise = np.random.default_rng(0).normal(size=(2, tree.num_nodes)) * 5

    class Noise(TreeValues):
        def value(self, cursor, state, seat):
            return float(noise[seat, cursor])

    estimator = WorldAIVAT(game, seated[0], Noise(tree, known))
    mean = sum(prob * estimator.estimate(log, 0) for prob, log in all_hands(game, seated))
    assert mean == pytest.approx(exact_value(tree, [known, other], [0, 1])[0], abs=1e-12)


@pytest.fixture(scope="module")
def leduc_host():
    return make_plugin_manager(strict=True, entry_points=False, plugins=[gamesolve_kuhn.plugin, gamesolve_leduc.plugin])


def test_on_leduc_over_many_seeds_aivat_agrees_with_the_plain_mean_and_the_exact_value(leduc2_tree, leduc_host):
    tree, game = leduc2_tree, LeducGame(2)
    strong, weak = cfr_policy(tree, 300), cfr_policy(tree, 3, "cfr")
    exact = np.mean([exact_value(tree, [strong, weak], order)[seat] for seat, order in ((0, [0, 1]), (1, [1, 0]))])
    samples_plain, samples_aivat = [], []
    for seed in range(6):
        agents = [PolicyPlayer(TabularPolicy.from_slots(tree, strong), seed), PolicyPlayer(TabularPolicy.from_slots(tree, weak), seed + 100)]
        result = play_match(game, agents, 300, seed=seed, aivat=True, plugins=leduc_host.pm)
        a = result.agents[0]
        samples_plain.append((a.win_rate, a.stderr))
        samples_aivat.append((a.aivat["win_rate"], a.aivat["stderr"]))
        assert a.aivat["variance_reduction"] > 2

    def pooled(samples):  # equal sample sizes: mean of means, SE of the mean of means
        means = np.array([m for m, _ in samples])
        return means.mean(), math.sqrt(sum(se**2 for _, se in samples)) / len(samples)

    plain, plain_se = pooled(samples_plain)
    aivat, aivat_se = pooled(samples_aivat)
    assert abs(aivat - exact) < 2 * aivat_se
    assert abs(plain - exact) < 2 * plain_se
    assert abs(aivat - plain) < 2 * math.hypot(aivat_se, plain_se)
    assert aivat_se < plain_se / 1.5


def test_the_search_agent_exposes_exactly_the_strategy_it_plays(kuhn2_tree, leduc_host):
    game = KuhnGame(2)
    blueprint = TabularPolicy.from_slots(kuhn2_tree, cfr_policy(kuhn2_tree, 20, "cfr"))
    player = keyed_range_search_player(game, compile_factored(game), blueprint, {"k": "2", "iterations": "100", "seconds": "0"}, 3)
    other = PolicyPlayer(TabularPolicy.from_slots(kuhn2_tree, kuhn2_tree.uniform_policy()), seed=4)
    exposure = exposure_of(player)
    assert getattr(exposure, "strategy_is_exact", True)
    checked = 0
    for hand in range(30):
        seat = hand % 2
        seated = [player, other] if seat == 0 else [other, player]
        for s, agent in enumerate(seated):
            agent.new_hand(s, hand)
        state, steps, rng = game.new_initial_state(), [], np.random.default_rng(hand)
        while not state.is_terminal():
            p = state.current_player()
            if p == CHANCE:
                outcomes = state.chance_outcomes()
                action = outcomes[rng.integers(len(outcomes))][0]
            else:
                if p == seat:
                    exposed = exposure.action_probabilities(state, seat, tuple(steps))
                    assert exposed == player.policy(state)
                    checked += 1
                action = seated[p].act(state, p)
            for agent in seated:
                agent.observe(state, action)
            steps.append((state, action))
            state = state.child(action)
    assert checked > 30


def test_an_exposed_strategy_that_contradicts_play_is_reported(kuhn2_tree):
    game, tree = KuhnGame(2), kuhn2_tree
    always_pass = np.tile([1.0, 0.0], tree.num_infosets)
    liar = exposure_of(PolicyPlayer(TabularPolicy.from_slots(tree, always_pass)))
    state = game.new_initial_state().child(0).child(1)
    log = HandLog(((game.new_initial_state(), 0), (game.new_initial_state().child(0), 1), (state, 1)), state.child(1).child(1))
    with pytest.raises(AivatError, match="probability 0"):
        WorldAIVAT(game, liar, TreeValues(tree, always_pass)).estimate(log, 0)


def test_the_core_estimator_offers_no_choice_of_value_function(leduc2_tree, leduc_host):
    agent = PolicyPlayer(TabularPolicy.from_slots(leduc2_tree, leduc2_tree.uniform_policy()))
    with pytest.raises(AivatError, match="no value function 'stakes' for leduc"):
        estimator_for(LeducGame(2), agent, leduc_host.pm, values="stakes")


def test_match_reports_aivat_beside_the_raw_win_rate(leduc2_tree, leduc_host):
    game = LeducGame(2)
    agents = [PolicyPlayer(TabularPolicy.from_slots(leduc2_tree, cfr_policy(leduc2_tree, 50))), PolicyPlayer(TabularPolicy.from_slots(leduc2_tree, leduc2_tree.uniform_policy()))]
    result = play_match(game, agents, 40, seed=1, aivat=True, plugins=leduc_host.pm)
    report = result.as_dict()["agents"][0]
    assert set(report["aivat"]) == {"win_rate", "stderr", "p_value", "variance_reduction", "values", "complement"}
    assert any("AIVAT" in line for line in result.summary_lines())
    again = play_match(game, agents, 40, seed=1, aivat=True, plugins=leduc_host.pm, workers=2)
    assert again.agents[0].aivat == result.agents[0].aivat  # workers give the same estimates


class Hidden(Agent):
    """Plays a policy agent's moves without exposing its strategy (as a search agent whose
    strategy over its other hands is only modelled)."""

    def __init__(self, inner):
        self.inner = inner
        self.name = "hidden"

    def new_hand(self, seat, hand):
        self.inner.new_hand(seat, hand)

    def act(self, state, seat):
        return self.inner.act(state, seat)

    def observe(self, state, action):
        self.inner.observe(state, action)


def test_the_one_agent_that_hides_its_strategy_gets_minus_the_others_aivat_sum(kuhn3_tree, leduc_host):
    game, tree = KuhnGame(3), kuhn3_tree
    agents = [Hidden(PolicyPlayer(TabularPolicy.from_slots(tree, cfr_policy(tree, 2, "cfr")), 5))]
    agents += [PolicyPlayer(TabularPolicy.from_slots(tree, cfr_policy(tree, 100)), 6 + i) for i in range(2)]
    result = play_match(game, agents, 300, seed=2, aivat=True, plugins=leduc_host.pm)
    hidden, *known = result.agents
    assert hidden.aivat["complement"] and not any(a.aivat["complement"] for a in known)
    assert hidden.aivat["win_rate"] == pytest.approx(-sum(a.aivat["win_rate"] for a in known), abs=1e-12)
    assert hidden.win_rate == pytest.approx(-sum(a.win_rate for a in known), abs=1e-12)
    assert any("minus the others' AIVAT sum" in line for line in result.summary_lines())


def test_the_per_deal_estimates_are_the_ones_the_win_rates_average(kuhn3_tree, leduc_host):
    """``aivat_deals`` keeps each deal's estimates (a paired analysis of two matches on the same
    deals needs them): their means are the reported AIVAT win rates, the complement's included."""
    tree = kuhn3_tree
    agents = [Hidden(PolicyPlayer(TabularPolicy.from_slots(tree, cfr_policy(tree, 2, "cfr")), 5))]
    agents += [PolicyPlayer(TabularPolicy.from_slots(tree, cfr_policy(tree, 100)), 6 + i) for i in range(2)]
    result = play_match(KuhnGame(3), agents, 60, seed=3, aivat=True, plugins=leduc_host.pm)
    assert len(result.aivat_deals) == result.deals
    for i, agent in enumerate(result.agents):
        per_deal = [row[i] * result.scale for row in result.aivat_deals]
        assert math.fsum(per_deal) / len(per_deal) == pytest.approx(agent.aivat["win_rate"], abs=1e-12)
    assert play_match(KuhnGame(3), agents, 60, seed=3).aivat_deals == []


def test_the_complement_estimate_is_unbiased_and_sharper_than_the_raw_result(leduc2_tree, leduc_host):
    tree, game = leduc2_tree, LeducGame(2)
    strong, weak = cfr_policy(tree, 300), cfr_policy(tree, 3, "cfr")
    exact = np.mean([exact_value(tree, [weak, strong], order)[seat] for seat, order in ((0, [0, 1]), (1, [1, 0]))])
    raw, corrected = [], []
    for seed in range(4):
        agents = [Hidden(PolicyPlayer(TabularPolicy.from_slots(tree, weak), seed + 100)), PolicyPlayer(TabularPolicy.from_slots(tree, strong), seed)]
        hidden = play_match(game, agents, 300, seed=seed, aivat=True, plugins=leduc_host.pm).agents[0]
        raw.append(hidden.win_rate)
        corrected.append((hidden.aivat["win_rate"], hidden.aivat["stderr"]))
        assert hidden.aivat["variance_reduction"] > 2
    mean = np.mean([m for m, _ in corrected])
    se = math.sqrt(sum(s**2 for _, s in corrected)) / len(corrected)
    assert abs(mean - exact) < 2.5 * se


def test_no_complement_when_two_agents_hide_their_strategy_or_the_game_is_not_zero_sum(kuhn3_tree, leduc_host):
    tree = kuhn3_tree
    policy = TabularPolicy.from_slots(tree, cfr_policy(tree, 20))
    two_hidden = [Hidden(PolicyPlayer(policy, 1)), Hidden(PolicyPlayer(policy, 2)), PolicyPlayer(policy, 3)]
    result = play_match(KuhnGame(3), two_hidden, 30, seed=1, aivat=True, plugins=leduc_host.pm)
    assert [a.aivat is None for a in result.agents] == [True, True, False]

    class NotZeroSum(KuhnGame):
        zero_sum = False

    one_hidden = [Hidden(PolicyPlayer(policy, 1)), PolicyPlayer(policy, 2), PolicyPlayer(policy, 3)]
    result = play_match(NotZeroSum(3), one_hidden, 30, seed=1, aivat=True, plugins=leduc_host.pm)
    assert result.agents[0].aivat is None and result.agents[1].aivat is not None


def test_profile_slots_reads_a_tabular_policy(kuhn2_tree):
    slots = cfr_policy(kuhn2_tree, 10)
    assert np.allclose(profile_slots(kuhn2_tree, TabularPolicy.from_slots(kuhn2_tree, slots)), slots)
