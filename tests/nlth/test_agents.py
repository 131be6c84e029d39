"""Baseline NLTH agents (random, call, tag), NLTH matches, and PHH hand histories from `match`."""

from __future__ import annotations

import random

import pytest
from click.testing import CliRunner

from gamesolve import cli as cli_module
from gamesolve.cli import cli
from gamesolve.evaluate.match import make_agents, play_match
from gamesolve_nlth.agents import CallAgent, RandomAgent, TagAgent, chen_score, mc_equity
from gamesolve_nlth.cards import parse_cards
from gamesolve_nlth.state import CHECK_CALL, FOLD, NLTHGame, action_raise_to
from tests.command_output import last_json


def assert_legal(state, action):
    kinds = state.legal_action_kinds()
    if action == FOLD:
        assert "f" in kinds, f"fold chosen when checking is free: {state}"
    elif action != CHECK_CALL:
        assert "cbr" in kinds, f"raise chosen when no raise is legal: {state}"
        assert state.min_raise_to <= action_raise_to(action) <= state.max_raise_to


def random_states(count: int, seed: int):
    """Decision states from random hands: 2, 3, 6 players, deep and short (uneven) stacks."""
    rng = random.Random(seed)
    driver = RandomAgent(NLTHGame(2), seed=seed)
    out = []
    for k in range(count):
        n = (2, 3, 6)[k % 3]
        stacks = 10000 if k % 2 == 0 else ",".join(str(rng.randint(30, 3000)) for _ in range(n))
        game = NLTHGame(players=n, stacks=stacks, button=rng.randrange(n))
        st = game.new_initial_state()
        while not st.is_terminal():
            if st.is_chance_node():
                st.apply_action(rng.choice(st.legal_actions()))
                continue
            out.append(st.clone())
            st.apply_action(driver.act(st, st.current_player()))
    return out


@pytest.fixture(scope="module")
def decision_states():
    return random_states(90, 11)


@pytest.mark.parametrize("make", [RandomAgent, lambda g, seed: RandomAgent(g, seed, sizes="uniform"), CallAgent, lambda g, seed: TagAgent(g, seed, samples=50)], ids=["random", "random-uniform", "call", "tag"])
def test_agents_choose_only_legal_actions(make, decision_states):
    assert len(decision_states) > 300
    agents = {}
    for st in decision_states:
        agent = agents.setdefault(id(st.game), make(st.game, 5))
        seat = st.current_player()
        action = agent.act(st, seat)
        assert_legal(st, action)
        st.child(action)  # the engine accepts it too


def test_call_agent_never_folds(decision_states):
    assert all(CallAgent(st.game).act(st, st.current_player()) == CHECK_CALL for st in decision_states)


def test_random_agent_is_deterministic_for_a_seed(decision_states):
    a, b = RandomAgent(NLTHGame(6), seed=3), RandomAgent(NLTHGame(6), seed=3)
    assert [a.act(s, s.current_player()) for s in decision_states] == [b.act(s, s.current_player()) for s in decision_states]


def six_max_preflop(utg_cards: str):
    """Six players, button seat 0: seat 3 is under the gun and first to act."""
    game = NLTHGame(players=6, button=0)
    others = [c for c in range(52) if c not in parse_cards(utg_cards)]
    cards = others[:6] + parse_cards(utg_cards) + others[6:10]
    st = game.new_initial_state(cards=cards)
    assert st.current_player() == 3 and st.hole_cards(3) == parse_cards(utg_cards)
    return st


def test_tag_folds_seven_deuce_offsuit_under_the_gun():
    st = six_max_preflop("7c2d")
    assert TagAgent(st.game, seed=0).act(st, 3) == FOLD


def test_tag_raises_aces_under_the_gun():
    st = six_max_preflop("AsAh")
    action = TagAgent(st.game, seed=0).act(st, 3)
    assert action >= 2 and action_raise_to(action) == 300  # opens to 3 big blinds


def test_tag_reraises_aces_facing_a_raise():
    """Seat 3 opens to 300, seat 4 folds, seat 5 (aces) 3-bets to 3x."""
    game = NLTHGame(players=6, button=0)
    cards = [c for c in range(52) if c not in parse_cards("AsAh")][:10] + parse_cards("AsAh")
    st = game.new_initial_state(cards=cards).apply(("cbr", 300)).apply("f")
    assert st.current_player() == 5 and st.hole_cards(5) == parse_cards("AsAh")
    action = TagAgent(game, seed=0).act(st, 5)
    assert action >= 2 and action_raise_to(action) == 900


def test_tag_checks_a_weak_hand_in_the_big_blind_when_checking_is_free():
    game = NLTHGame(players=2, button=0)
    st = game.new_initial_state(cards=parse_cards("AsAh") + parse_cards("7c2d")).apply("cc")
    assert st.current_player() == 1
    assert TagAgent(game, seed=0).act(st, 1) == CHECK_CALL


def test_chen_scores_of_known_hands():
    score = lambda text: chen_score(*parse_cards(text))  # noqa: E731
    assert score("AsAh") == 20 and score("KsKh") == 16 and score("2s2h") == 5
    assert score("AsKs") == 12 and score("AsKd") == 10 and score("7c2d") == -1
    assert score("JsTs") == 9  # 6 + 2 suited + 1 connected below a queen


def test_monte_carlo_equity_is_close_to_exact_and_seeded():
    e = mc_equity(parse_cards("AsAh"), [], 1, 4000, 1)
    assert e == pytest.approx(0.852, abs=0.02)  # AA vs a random hand: 85.2%
    assert e == mc_equity(parse_cards("AsAh"), [], 1, 4000, 1)
    assert mc_equity(parse_cards("AsKs"), parse_cards("QsJsTs"), 3, 200, 9) == 1.0  # royal flush
    assert mc_equity(parse_cards("AsAh"), [], 5, 4000, 2) < e  # more opponents, less equity


# ---- matches ------------------------------------------------------------------------------------
def nlth_match(host, names, hands, seed=0, keep_hands=False, workers=1, **params):
    game = NLTHGame(players=len(names), **params)
    agents, labels = make_agents(host.agents, game, names, seed)
    return play_match(game, agents, hands, seed=seed, names=labels, keep_hands=keep_hands, workers=workers)


def test_baseline_agents_are_registered_for_nlth(nlth_host):
    assert {"random", "call", "tag"} <= set(nlth_host.agents.names())
    assert all(nlth_host.agents.get(n).games == ("nlth",) for n in ("random", "call", "tag"))


def test_duplicate_dealing_gives_a_seat_the_same_cards_in_every_rotation(nlth_host):
    result = nlth_match(nlth_host, ["tag", "random", "call"], 60, seed=2, keep_hands=True)
    by_deal = {}
    for r in result.records:
        by_deal.setdefault(r.deal, []).append(r.state)
    for states in by_deal.values():
        for seat in range(3):
            assert len({tuple(s.hole_cards(seat)) for s in states}) == 1
        boards = [s.board for s in states]
        longest = max(boards, key=len)
        assert all(b == longest[: len(b)] for b in boards)


def test_nlth_match_is_zero_sum_and_in_mbb_per_game(nlth_host):
    result = nlth_match(nlth_host, ["random", "random", "call"], 90, seed=4)
    assert result.unit == "mbb/game"
    assert sum(a.total for a in result.agents) == 0
    hands = result.hands
    assert result.agents[0].win_rate == pytest.approx(result.agents[0].total / hands * 1000 / 100)


def test_baseline_agents_reseed_per_hand_so_workers_do_not_change_a_match(nlth_host):
    names = ["tag", "random", "call", "tag"]
    one = nlth_match(nlth_host, names, 120, seed=5, keep_hands=True)
    two = nlth_match(nlth_host, names, 120, seed=5, keep_hands=True, workers=2)
    assert [a.total for a in one.agents] == [a.total for a in two.agents]
    assert [r.state.player_actions() for r in one.records] == [r.state.player_actions() for r in two.records]


def test_tag_beats_a_calling_station(nlth_host):
    tag, call = nlth_match(nlth_host, ["tag", "call"], 400, seed=1).agents
    assert tag.win_rate > 0 and tag.p_value < 0.01


def test_tag_beats_the_random_agent(nlth_host):
    tag, rnd = nlth_match(nlth_host, ["tag", "random"], 1600, seed=1).agents
    assert tag.win_rate > 0 and tag.p_value < 0.05


# ---- the command line: PHH hand histories -------------------------------------------------------
@pytest.fixture
def run(nlth_host, monkeypatch):
    monkeypatch.setattr(cli_module, "plugin_host", lambda dirs=(): nlth_host)

    def invoke(*args):
        return CliRunner().invoke(cli, list(args), catch_exceptions=False)

    return invoke


def test_match_writes_phh_files_pokerkit_replays(run, tmp_path):
    from pokerkit import HandHistory

    folder = tmp_path / "hh"
    result = run("match", "--game", "nlth", "--agents", "tag,random,call", "--hands", "12", "--hh", str(folder), "--json")
    assert result.exit_code == 0, result.output
    data = last_json(result.stdout)
    assert data["unit"] == "mbb/game" and data["hand_histories"]["hands"] == 12
    files = sorted(folder.glob("*.phh"))
    assert len(files) == 12
    for path in files:
        hh = HandHistory.loads(path.read_text())
        for final in hh:
            pass
        assert list(final.stacks) == list(hh.finishing_stacks)
        assert sorted(hh.players) == ["call", "random", "tag"]


def test_match_writes_one_phhs_file_with_every_hand(run, tmp_path):
    from pokerkit import HandHistory

    path = tmp_path / "match.phhs"
    result = run("match", "--game", "nlth", "--agents", "random,call", "--hands", "10", "--hh", str(path))
    assert result.exit_code == 0, result.output
    assert len(list(HandHistory.loads_all(path.read_text()))) == 10


def test_match_with_too_few_agents_for_the_players_is_a_one_line_error(run):
    result = run("match", "--game", "nlth", "--agents", "tag,call", "--players", "6")
    assert result.exit_code == 2
    assert result.stderr.strip() == "Error: --players 6 needs 6 agents, got 2 (tag,call)"


def test_match_with_one_agent_is_a_one_line_error(run):
    result = run("match", "--game", "nlth", "--agents", "tag")
    assert result.exit_code == 2 and len(result.stderr.strip().splitlines()) == 1
    assert "2 to 9 players" in result.stderr


def test_match_with_a_bad_agent_option_is_a_one_line_error(run):
    result = run("match", "--game", "nlth", "--agents", "tag:cbet=2,call")
    assert result.exit_code == 2 and "cbet must be a probability" in result.stderr
