"""gamesolve's ACPC dealer and clients play over TCP on localhost: every line the dealer sends
is open-spiel universal_poker's ACPC state string for that hand, as that player sees it; the
results are pokerkit's (replaying the dealer's PHH log) and universal_poker's (but for the odd
chips of split pots, which ACPC splits in fractions), and every client counts the same result
as the dealer."""

from __future__ import annotations

from itertools import groupby

import pytest

from gamesolve_nlth.acpc.dealer import log_paths

from gamesolve.plugins import make_plugin_manager
from tests.nlth.acpc_table import expected_lines, play_over_tcp, universal_poker

pytest.importorskip("pyspiel")
pytestmark = pytest.mark.oracle

AGENTS = {2: ["tag", "random"], 6: ["tag", "random", "call", "tag", "random", "call"]}


@pytest.fixture(scope="module")
def host():
    return make_plugin_manager(strict=True)


def check_match(host, players: int, hands: int, seed: int, tmp_path) -> dict:
    pokerkit = pytest.importorskip("pokerkit")
    game = host.games.get("nlth").create(players)
    played = play_over_tcp(host, game, AGENTS[players], hands, seed, log=tmp_path / "match")
    up = universal_poker(game)
    by_hand = {h: [line for _, line in group] for h, group in groupby(played.transcript, key=lambda x: int(x[1].split(":")[2]))}
    assert sorted(by_hand) == list(range(hands))
    fractional = 0
    for h, sent in by_hand.items():
        steps, returns = expected_lines(up, game, seed, h, sent[-1])
        assert sent == [line for step in steps for line in step], f"hand {h}"
        values = [played.dealer.values[h][(p + h) % players] for p in range(players)]
        if all(float(r).is_integer() for r in returns):
            assert values == returns, f"hand {h}"
        else:  # ACPC splits a pot's odd chips in fractions; the engine gives them to one winner
            fractional += 1
            assert sum(values) == 0 and max(abs(v - r) for v, r in zip(values, returns)) < players, f"hand {h}"
    phh_text = log_paths(tmp_path / "match")[2].read_text()
    for h, history in enumerate(pokerkit.HandHistory.loads_all(phh_text)):
        *_, final = history  # PHH lists players by position, as ACPC does
        assert list(final.payoffs) == [played.dealer.values[h][(p + h) % players] for p in range(players)], f"hand {h}"
    for seat, result in enumerate(played.clients):
        assert result.values == [row[seat] for row in played.dealer.values]
        assert not result.untracked
    assert not played.dealer.corrections
    return {"fractional": fractional, "seconds": played.dealer.seconds}


def test_heads_up_lines_and_results_equal_universal_poker(host, tmp_path):
    check_match(host, 2, hands=200, seed=11, tmp_path=tmp_path)


def test_six_player_lines_and_results_equal_universal_poker(host, tmp_path):
    check_match(host, 6, hands=100, seed=12, tmp_path=tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 6])
def test_a_thousand_hands_over_tcp_equal_universal_poker(host, players, tmp_path):
    check_match(host, players, hands=1000, seed=100 + players, tmp_path=tmp_path)


@pytest.mark.slow
def test_the_search_agent_plays_over_tcp_and_searches(host, hu_blueprint):
    """Real-time search at an ACPC table: it follows every hand, and searches where it would in
    a match (heads-up turns and rivers; flops with heads_up_flop=1)."""
    from gamesolve.evaluate.match import make_agents

    game = host.games.get("nlth").create(2)
    agents, _ = make_agents(host.agents, game, [f"search:store={hu_blueprint}:seconds=0.3", f"blueprint:store={hu_blueprint}"],
                            seed=5, plugins=host.pm)  # fmt: skip
    searched = []
    act = agents[0].act

    def recording_act(state, seat):
        action = act(state, seat)
        searched.append(agents[0].decisions[-1].searched)
        return action

    agents[0].act = recording_act
    played = play_over_tcp(host, game, agents, hands=30, seed=5, timeout=300)
    assert not played.clients[0].untracked
    assert played.clients[0].values == [row[0] for row in played.dealer.values]
    assert any(searched) and not all(searched)
