"""The `policy` and `search` agents: stored policies in matches, with and without real-time search."""

import pytest

import gamesolve_kuhn.plugin
import gamesolve_leduc.plugin
from gamesolve.evaluate.match import MatchError, make_agents, play_match
from gamesolve.plugins import make_plugin_manager
from gamesolve.store.policy_store import write_policy
from gamesolve_kuhn import KuhnGame
from gamesolve_leduc import LeducGame


@pytest.fixture(scope="module")
def plugins():
    return make_plugin_manager(strict=True, entry_points=False, plugins=[gamesolve_kuhn.plugin, gamesolve_leduc.plugin])


@pytest.fixture(scope="module")
def blueprint_store(tmp_path_factory, leduc2_tree, coarse_blueprint_slots):
    path = tmp_path_factory.mktemp("bp") / "coarse.zarr"
    write_policy(path, leduc2_tree, coarse_blueprint_slots, algo="mccfr-p")
    return str(path)


@pytest.fixture(scope="module")
def leduc():
    """The game the store was written for (the coarse abstraction only matters to MCCFR)."""
    return LeducGame(2)


def leduc_match(plugins, game, texts, hands, seed=0, workers=1):
    agents, names = make_agents(plugins.agents, game, texts, seed, plugins=plugins.pm)
    return play_match(game, agents, hands, seed=seed, names=names, workers=workers)


def test_the_search_agent_beats_its_own_blueprint_head_to_head(plugins, leduc, blueprint_store):
    # 4,000 hands: over match seeds 1-7 the p-value was 8e-7 to 4e-5 there (1e-25 at the
    # 12,000 hands this played before; 2,000 hands: up to 3e-3, too close to 0.01). One
    # process: forked workers would each pay the searches' warm-up again (the memo of solves).
    search, blueprint = leduc_match(
        plugins, leduc, [f"search:store={blueprint_store}", f"policy:store={blueprint_store}"], 4000, seed=1
    ).agents
    assert search.win_rate > 0 and search.p_value < 0.01


def test_search_options_reach_the_agent(plugins, leduc, blueprint_store):
    (agent,), _ = make_agents(plugins.agents, leduc, [f"search:store={blueprint_store}:k=1:play=average"], 0, plugins=plugins.pm)
    assert agent.config.play == "average" and agent.domain.leaves.continuations.k == 1
    (exact,), _ = make_agents(plugins.agents, leduc, [f"search:store={blueprint_store}:beliefs=exact:sampling_above=10"], 0,
                              plugins=plugins.pm)  # fmt: skip
    assert exact.domain.exact_beliefs and exact.domain.sampling_above == 10


def test_a_search_match_over_workers_equals_the_single_process_one(plugins, leduc, blueprint_store):
    texts = [f"search:store={blueprint_store}", f"policy:store={blueprint_store}"]
    # 100 deals: the workers take turns at chunks of 6 (play_match's split), each with its own
    # copy of the agents (and of their memo of solves)
    one = leduc_match(plugins, leduc, texts, 200, seed=4)
    two = leduc_match(plugins, leduc, texts, 200, seed=4, workers=2)
    assert [a.total for a in one.agents] == [a.total for a in two.agents]


def test_a_match_reports_the_latency_of_the_search_agents_searched_decisions(plugins, leduc, blueprint_store):
    search, blueprint = leduc_match(plugins, leduc, [f"search:store={blueprint_store}", f"policy:store={blueprint_store}"], 200).agents
    assert 0 < search.latency["searched"]["decisions"] <= search.latency["decisions"]
    assert "searched" not in blueprint.latency


def test_a_search_with_a_time_budget_plays_what_it_has_when_it_ends(plugins, leduc, blueprint_store):
    texts = [f"search:store={blueprint_store}:seconds=0.01:iterations=1000000", f"policy:store={blueprint_store}"]
    search, _ = leduc_match(plugins, leduc, texts, 20).agents
    assert search.latency["searched"]["p95"] < 2.0  # a million iterations would take minutes


def test_the_policy_agent_needs_a_store_of_its_game(plugins, leduc, blueprint_store):
    with pytest.raises(MatchError, match="store=PATH"):
        make_agents(plugins.agents, leduc, ["policy"], 0, plugins=plugins.pm)
    with pytest.raises(MatchError, match="not kuhn"):
        make_agents(plugins.agents, KuhnGame(2), [f"policy:store={blueprint_store}"], 0, plugins=plugins.pm)


def test_search_needs_public_states_a_hidden_action_is_refused(example_plugin_path, tmp_path):
    from gamesolve.game.explicit_tree import compile_explicit_tree

    host = make_plugin_manager(strict=True, entry_points=False, plugins_dirs=[example_plugin_path])
    game = host.games.get("biased-rps").create(2)
    tree = compile_explicit_tree(game)
    write_policy(tmp_path / "rps.zarr", tree, tree.uniform_policy())
    with pytest.raises(MatchError, match="hidden action"):
        make_agents(host.agents, game, [f"search:store={tmp_path / 'rps.zarr'}"], 0, plugins=host.pm)


def test_a_bad_search_option_is_refused(plugins, leduc, blueprint_store):
    with pytest.raises(MatchError, match="unknown search option"):
        make_agents(plugins.agents, leduc, [f"search:store={blueprint_store}:colour=red"], 0, plugins=plugins.pm)


def test_search_reads_a_blueprint_strategy_store_through_the_form_it_was_trained_on(plugins, tmp_path, coarse_blueprint):
    from gamesolve.search import StoredPolicy
    from gamesolve.search.player import stored_policy
    from gamesolve.solve.mccfr import MCCFRConfig, MCCFRTrainer
    from gamesolve.game.factored import SMALL_GAME_MCCFR_DEFAULTS
    from gamesolve.store.strategy_store import write_strategy
    from gamesolve_leduc.poker_form import leduc_form

    game = LeducGame(2, abstraction="coarse")
    form = leduc_form(game, "coarse")
    trainer = MCCFRTrainer(form, MCCFRConfig.from_options(SMALL_GAME_MCCFR_DEFAULTS), seed=0)
    trainer.run(iterations=20_000)
    write_strategy(tmp_path / "bp", form, trainer.average_rows(), trainer.node_offset)  # a strategy store
    policy = stored_policy(game, str(tmp_path / "bp"), "average", plugins.pm)
    assert isinstance(policy, StoredPolicy)
    # The store's probabilities (uint16) are the trainer's to 1e-4, read by key.
    node, private = form.locate("4:1:cc|")
    offset = trainer.node_offset[node]
    n = form.num_actions[node]
    expected = trainer.average_rows()[offset + private * n : offset + (private + 1) * n]
    assert policy.action_probs("4:1:cc|", n) == pytest.approx(expected, abs=1e-4)
    (agent,), _ = make_agents(plugins.agents, game, [f"search:store={tmp_path / 'bp'}:iterations=50"], 0, plugins=plugins.pm)
    assert agent.config.iterations == 50


def test_the_range_agent_beats_its_blueprint_on_leduc(plugins, leduc, blueprint_store):
    """The core's range search agent (gamesolve/search/form_domain.py) on a game
    with public chance between its rounds: depth-limited first-round subgames with exact
    continuation leaves, the second round to the end."""
    text = f"search:store={blueprint_store}:seconds=0:iterations=200:play=average:depth=4"
    search, _ = leduc_match(plugins, leduc, [text, f"policy:store={blueprint_store}"], 3000, seed=1).agents
    assert search.win_rate > 0 and search.p_value < 0.01
    assert search.latency["searched"]["decisions"] > 0


def test_an_unknown_search_option_is_named_with_the_known_ones(plugins, leduc, blueprint_store):
    with pytest.raises(MatchError, match=r"unknown search option for leduc .*: 'agent' \(known: seconds, iterations, "):
        make_agents(plugins.agents, leduc, [f"search:store={blueprint_store}:agent=nested"], 0, plugins=plugins.pm)
