"""The match runner: duplicate dealing, determinism, statistics, and the `match` command."""

from __future__ import annotations

import json
import math
import random
import time

import pytest
from click.testing import CliRunner

import gamesolve_kuhn.plugin
from gamesolve import cli as cli_module
from gamesolve import hookimpl
from gamesolve.agents import Agent, AgentSpec, hand_seed
from gamesolve.cli import cli
from gamesolve.evaluate.match import (
    AgentResult,
    MatchError,
    MatchResult,
    default_names,
    deals_for,
    make_agents,
    parse_agent,
    play_match,
    unit_of,
)
from gamesolve.evaluate.statistics import one_tailed_p_value, win_rate
from gamesolve.game.state import CHANCE, TERMINAL, Game, State
from gamesolve.plugins import make_plugin_manager
from gamesolve_kuhn import KuhnGame
from tests.command_output import last_json

PASS, BET = 0, 1


class KuhnEquilibrium(Agent):
    """Two-player Kuhn equilibrium with alpha = 0 (never bets first; calls Q 1/3; bluffs J 1/3)."""

    name = "kuhn-nash"

    def __init__(self, game, seed):
        self.rng = random.Random(seed)

    def act(self, state, seat):
        key = state.information_state_key(seat)
        card, history = int(key[0]), key[1:]
        if history == "":  # first to act
            return PASS
        if history == "p":  # second, after a check
            return BET if card == 2 or (card == 0 and self.rng.random() < 1 / 3) else PASS
        # facing a bet ("b" or "pb")
        return BET if card == 2 or (card == 1 and self.rng.random() < 1 / 3) else PASS


class AlwaysBet(Agent):
    name = "always-bet"

    def __init__(self, game, seed):
        pass

    def act(self, state, seat):
        return BET


class UniformRandom(Agent):
    name = "uniform"

    def __init__(self, game, seed):
        self.rng = random.Random(seed)

    def act(self, state, seat):
        return self.rng.choice(state.legal_actions())


class ReseedingUniform(UniformRandom):
    """Uniformly random, reseeded per hand as the Agent contract recommends."""

    name = "reseeding-uniform"

    def __init__(self, game, seed):
        self.seed = seed

    def new_hand(self, seat, hand):
        self.rng = random.Random(hand_seed(self.seed, hand))


class KuhnTestAgents:
    @hookimpl
    def gamesolve_register_agents(self, register):
        register(AgentSpec("kuhn-nash", KuhnEquilibrium, "test equilibrium", ("kuhn",)))
        register(AgentSpec("always-bet", AlwaysBet, "test: always bets or calls", ("kuhn",)))
        register(AgentSpec("uniform", UniformRandom, "test: uniformly random legal action"))
        register(AgentSpec("reseeding-uniform", ReseedingUniform, "test: uniformly random, reseeded per hand"))


@pytest.fixture(scope="module")
def match_host():
    return make_plugin_manager(strict=True, entry_points=False, plugins=[gamesolve_kuhn.plugin, KuhnTestAgents()])


def kuhn_match(host, names, hands, seed=0, players=None, keep_hands=False, workers=1):
    game = KuhnGame(players or len(names))
    agents, labels = make_agents(host.agents, game, names, seed)
    return play_match(game, agents, hands, seed=seed, names=labels, keep_hands=keep_hands, workers=workers)


# ---- the runner ---------------------------------------------------------------------------------
def test_a_match_is_deterministic_for_a_seed(match_host):
    a = kuhn_match(match_host, ["uniform", "kuhn-nash"], 400, seed=7)
    b = kuhn_match(match_host, ["uniform", "kuhn-nash"], 400, seed=7)
    c = kuhn_match(match_host, ["uniform", "kuhn-nash"], 400, seed=8)
    assert [x.total for x in a.agents] == [x.total for x in b.agents]
    assert [x.stderr for x in a.agents] == [x.stderr for x in b.agents]
    assert [x.total for x in a.agents] != [x.total for x in c.agents]


def test_a_match_over_worker_processes_equals_the_single_process_match(match_host):
    names = ["reseeding-uniform", "reseeding-uniform", "always-bet"]
    one = kuhn_match(match_host, names, 3_000, seed=3, keep_hands=True)
    three = kuhn_match(match_host, names, 3_000, seed=3, keep_hands=True, workers=3)
    assert [(a.total, a.stderr) for a in one.agents] == [(a.total, a.stderr) for a in three.agents]
    assert [r.returns for r in one.records] == [r.returns for r in three.records]
    assert [r.state.information_state_key(0) for r in one.records] == [r.state.information_state_key(0) for r in three.records]


def test_each_deals_returns_are_its_winnings_per_hand_and_average_to_the_win_rates(match_host):
    """``deal_returns`` (for paired analyses of matches on the same deals) equal each deal's
    hands summed seat by seat over its rotations, and their means are the reported win rates."""
    result = kuhn_match(match_host, ["uniform", "uniform", "always-bet"], 60, seed=4, keep_hands=True)
    p = result.players
    expected = [[0.0] * p for _ in range(result.deals)]
    for record in result.records:
        for i in range(p):
            expected[record.deal][i] += record.returns[(i + record.rotation) % p] / p
    assert result.deal_returns == [pytest.approx(row) for row in expected]
    for i, agent in enumerate(result.agents):
        assert math.fsum(row[i] for row in result.deal_returns) / result.deals * result.scale == pytest.approx(agent.win_rate)


def test_a_match_needs_at_least_one_worker(match_host):
    with pytest.raises(MatchError, match="workers"):
        kuhn_match(match_host, ["uniform", "uniform"], 10, workers=0)


def test_hands_are_rounded_up_to_whole_duplicate_deals(match_host):
    result = kuhn_match(match_host, ["uniform", "uniform", "uniform"], 10)
    assert result.deals == deals_for(10, 3) == 4 and result.hands == 12
    assert all(a.hands == 12 for a in result.agents)


def test_duplicate_dealing_gives_each_seat_the_same_cards_in_every_rotation(match_host):
    result = kuhn_match(match_host, ["uniform", "uniform", "always-bet"], 30, keep_hands=True)
    by_deal = {}
    for record in result.records:
        by_deal.setdefault(record.deal, []).append(record)
    for records in by_deal.values():
        assert len(records) == 3
        assert len({r.state.cards for r in records}) == 1
        # and each agent sat in every seat once
        for seat in range(3):
            assert {r.seats[seat] for r in records} == {"uniform#1", "uniform#2", "always-bet"}
    assert len({records[0].state.cards for records in by_deal.values()}) > 1  # deals differ


def test_the_match_is_zero_sum(match_host):
    result = kuhn_match(match_host, ["uniform", "always-bet", "uniform"], 300)
    assert sum(a.total for a in result.agents) == pytest.approx(0.0, abs=1e-9)
    assert sum(a.win_rate for a in result.agents) == pytest.approx(0.0, abs=1e-9)


def test_identical_agents_have_symmetric_win_rates_near_zero(match_host):
    result = kuhn_match(match_host, ["uniform", "uniform"], 4000, seed=3)
    a, b = result.agents
    assert a.win_rate == pytest.approx(-b.win_rate, abs=1e-12)
    assert a.stderr == pytest.approx(b.stderr)
    assert abs(a.win_rate) < 4 * a.stderr
    assert a.p_value == pytest.approx(1 - b.p_value)


def test_the_equilibrium_beats_an_always_betting_agent(match_host):
    result = kuhn_match(match_host, ["kuhn-nash", "always-bet"], 4000, seed=1)
    nash, bettor = result.agents
    assert nash.win_rate > 0 and nash.p_value < 0.001
    assert bettor.p_value > 0.999


def test_a_match_needs_one_agent_per_player(match_host):
    game = KuhnGame(3)
    agents, _ = make_agents(match_host.agents, KuhnGame(2), ["uniform", "uniform"], 0)
    with pytest.raises(MatchError, match="needs 3 agents, got 2"):
        play_match(game, agents, 10)


def test_an_agent_for_another_game_is_refused(match_host):
    from gamesolve_leduc import LeducGame

    with pytest.raises(MatchError, match="does not play leduc"):
        make_agents(match_host.agents, LeducGame(2), ["always-bet", "uniform"], 0)


def test_an_illegal_action_names_the_agent():
    class Illegal(Agent):
        name = "illegal"

        def act(self, state, seat):
            return 5

    with pytest.raises(MatchError, match="agent 'illegal' in seat"):
        play_match(KuhnGame(2), [Illegal(), Illegal()], 2)


def test_poker_with_a_big_blind_is_reported_in_mbb_per_game():
    class Game:
        params = {"big_blind": 100}

    assert unit_of(Game()) == ("mbb/game", 10.0)
    assert unit_of(KuhnGame(2)) == ("units/game", 1.0)


def test_agent_options_are_parsed_from_name_colon_key_value():
    assert parse_agent("blueprint:store=/x/y.zarr:samples=5") == ("blueprint", {"store": "/x/y.zarr", "samples": "5"})
    assert parse_agent("tag") == ("tag", {})
    with pytest.raises(MatchError, match="not KEY=VALUE"):
        parse_agent("tag:samples")


def test_repeated_agent_names_are_numbered():
    assert default_names(["tag", "call", "tag"]) == ["tag#1", "call", "tag#2"]


# ---- statistics ---------------------------------------------------------------------------------
def test_one_tailed_p_value_is_the_normal_upper_tail():
    assert one_tailed_p_value(0.0, 1.0) == pytest.approx(0.5)
    assert one_tailed_p_value(2.0, 1.0) == pytest.approx(0.022750, abs=1e-6)
    assert one_tailed_p_value(-2.0, 1.0) == pytest.approx(1 - 0.022750, abs=1e-6)
    assert one_tailed_p_value(1.0, 0.0) == 0.0


def test_win_rate_standard_error_is_sample_sd_over_sqrt_n():
    wr = win_rate([1.0, 2.0, 3.0, 4.0])
    assert wr.mean == 2.5 and wr.samples == 4
    assert wr.stderr == pytest.approx((5 / 3) ** 0.5 / 2)


# ---- the command line ---------------------------------------------------------------------------
@pytest.fixture
def run(match_host, monkeypatch):
    monkeypatch.setattr(cli_module, "plugin_host", lambda dirs=(): match_host)

    def invoke(*args):
        return CliRunner().invoke(cli, list(args), catch_exceptions=False)

    return invoke


def one_line_error(result) -> str:
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def test_match_json_reports_each_agents_win_rate(run):
    result = run("match", "--game", "kuhn", "--agents", "kuhn-nash,always-bet", "--hands", "200", "--seed", "4", "--json")
    assert result.exit_code == 0, result.output
    data = last_json(result.stdout)
    assert data["hands"] == 200 and data["deals"] == 100 and data["unit"] == "units/game"
    assert [a["name"] for a in data["agents"]] == ["kuhn-nash", "always-bet"]
    assert {"win_rate", "stderr", "p_value", "hands", "total"} <= set(data["agents"][0])


def _strict(constant):
    raise ValueError(f"{constant} is not JSON")


def test_a_standard_error_that_does_not_exist_is_null_in_json_and_n_a_in_the_summary(run):
    # One duplicate deal: one sample per seat, no standard error.
    result = run("match", "--game", "kuhn", "--agents", "uniform,uniform", "--hands", "2", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout.strip().splitlines()[-1], parse_constant=_strict)
    assert data["agents"][0]["stderr"] is None and data["agents"][0]["p_value"] is None
    text = run("match", "--game", "kuhn", "--agents", "uniform,uniform", "--hands", "2").stdout
    assert "n/a" in text and "nan" not in text


def test_match_readable_summary(run):
    result = run("match", "--game", "kuhn", "--agents", "uniform,uniform", "--hands", "20")
    assert result.exit_code == 0, result.output
    assert "uniform#1" in result.stdout and "units/game" in result.stdout


def test_match_with_more_agents_than_players_is_a_one_line_error(run):
    line = one_line_error(run("match", "--game", "kuhn", "--agents", "uniform,uniform,uniform", "--players", "2"))
    assert "--players 2 needs 2 agents, got 3" in line


def test_match_with_an_unknown_agent_is_a_one_line_error(run):
    line = one_line_error(run("match", "--game", "kuhn", "--agents", "uniform,nobody"))
    assert "unknown agent 'nobody'" in line and "kuhn-nash" in line


def test_match_with_zero_hands_is_a_one_line_error(run):
    assert "--hands must be positive" in one_line_error(run("match", "--game", "kuhn", "--agents", "uniform,uniform", "--hands", "0"))


def test_match_hand_histories_for_a_game_without_a_writer_is_a_one_line_error(run, tmp_path):
    line = one_line_error(run("match", "--game", "kuhn", "--agents", "uniform,uniform", "--hh", str(tmp_path / "x.phhs")))
    assert "no plugin writes hand histories for kuhn" in line
    assert not (tmp_path / "x.phhs").exists()


def test_match_with_bad_agent_options_is_a_one_line_error(run):
    assert "bad options" in one_line_error(run("match", "--game", "kuhn", "--agents", "uniform:depth=3,uniform"))


# ---- replaying a deal when the recorded outcome is no longer legal ------------------------------


class _PickThenDraw(State):
    """Player 0 picks 0 or 1, then chance draws from {0, 1} after a 0 and from {2, 3} after a 1."""

    def __init__(self, history=()):
        self.history = history

    def current_player(self):
        return (0, CHANCE, TERMINAL)[min(len(self.history), 2)]

    def legal_actions(self):
        return [0, 1] if len(self.history) == 0 else [a for a, _ in self.chance_outcomes()] if len(self.history) == 1 else []

    def chance_outcomes(self):
        base = 2 * self.history[0]
        return [(base, 0.5), (base + 1, 0.5)]

    def child(self, action):
        return _PickThenDraw(self.history + (action,))

    def returns(self):
        return [float(self.history[1]), -float(self.history[1])]

    def information_state_key(self, player):
        return str(self.history)

    def public_state_key(self):
        return str(self.history)


class _PickThenDrawGame(Game):
    name = "pick-then-draw"

    def new_initial_state(self):
        return _PickThenDraw()


class _Picks(Agent):
    def __init__(self, pick):
        self.pick = pick

    def act(self, state, seat):
        return self.pick


def test_a_recorded_chance_outcome_that_became_illegal_is_drawn_afresh():
    # seat 0 picks 0 in rotation 0 and 1 in rotation 1: the first draw cannot be replayed
    result = play_match(_PickThenDrawGame(2), [_Picks(0), _Picks(1)], 40, keep_hands=True)
    for record in result.records:
        assert record.state.history[1] in ((0, 1) if record.state.history[0] == 0 else (2, 3))


class SlowPasser(Agent):
    """Passes, after thinking ``seconds`` per decision (half of it while observing)."""

    name = "slow"

    def __init__(self, seconds):
        self.seconds = seconds

    def observe(self, state, action):
        if state.current_player() not in (CHANCE, self.seat):
            time.sleep(self.seconds / 2)

    def new_hand(self, seat, hand):
        self.seat = seat

    def act(self, state, seat):
        time.sleep(self.seconds / 2)
        return PASS


def test_seconds_per_decision_are_reported_with_the_time_spent_observing():
    result = play_match(KuhnGame(2), [SlowPasser(0.2), SlowPasser(0.0)], 2, seed=0)
    slow, quick = result.agents
    assert slow.latency["decisions"] >= 2
    assert 0.1 <= slow.latency["median"] < 1.0  # act's half, plus the observed half where the other acted first
    assert quick.latency["p95"] < 0.05
    assert set(slow.latency["by_round"]) == {0}  # Kuhn has no rounds
    assert any("seconds per decision" in line for line in result.summary_lines())
    assert json.loads(json.dumps(result.as_dict()))["agents"][0]["latency"]["decisions"] == slow.latency["decisions"]


class SearchingPasser(SlowPasser):
    """Says a search decided every other decision; only those take time."""

    def __init__(self, seconds):
        super().__init__(seconds)
        self.count = 0

    def act(self, state, seat):
        self.count += 1
        self.last_searched = self.count % 2 == 1
        if self.last_searched:
            time.sleep(self.seconds)
        return PASS


def test_latency_over_the_decisions_a_search_decided_is_reported_apart():
    result = play_match(KuhnGame(2), [SearchingPasser(0.1), SlowPasser(0.0)], 4, seed=0)
    searching, quick = result.agents
    searched = searching.latency["searched"]
    assert 0 < searched["decisions"] < searching.latency["decisions"]
    assert searched["median"] >= 0.1
    assert "searched" not in quick.latency
    assert any("searched decisions" in line for line in result.summary_lines())


def test_the_summary_columns_line_up_whatever_the_agents_names():
    names = ["search:store=/some/long/path/to/a/blueprint", "tag"]
    aivat = {"win_rate": 1.0, "stderr": 2.0, "p_value": 0.3, "variance_reduction": 1.5}
    agents = [AgentResult(n, 12.5, 3.0, 0.1, 1.0, 10, aivat=aivat) for n in names]
    lines = MatchResult("nlth", 2, 5, 10, "mbb/game", 1.0, agents, 1.0, 0).summary_lines()
    headers = [line for line in lines if line.startswith("agent")]
    raw = [line for line in lines if "+12.50" in line]
    corrected = [line for line in lines if "+1.00" in line]
    assert len(headers) == 2 and len(raw) == 2 and len(corrected) == 2
    unit_end = {h.index("mbb/game") + len("mbb/game") for h in headers}
    assert unit_end == {r.index("+12.50") + len("+12.50") for r in raw} == {c.index("+1.00") + len("+1.00") for c in corrected}
