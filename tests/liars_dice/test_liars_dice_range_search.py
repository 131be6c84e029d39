"""The core's range search agent on a form that names no public states (a factored contract
above its key limit, as Liar's Dice with two dice of six sides is): histories found by walking
the form, the blueprint read by public node, search from where the rest of the game is small.

Liar's Dice with one die stands in for the large game: its form is compiled here with no keys
(``key_limit=0``), and every answer is checked against the same form with keys."""

import functools
import json
import re

import numpy as np
import pytest
from click.testing import CliRunner

import gamesolve_liars_dice.plugin
from gamesolve import cli as cli_module
from gamesolve.evaluate.vector_best_response import evaluate_rows
from gamesolve.game import contract_compiler
from gamesolve.game.compile import factored_form
from gamesolve.game.factored import FormError
from gamesolve.plugins import make_plugin_manager
from gamesolve.search.form_domain import LAST_ROUND, FormSearchDomain
from gamesolve.search.locate import FormLocator
from gamesolve.search.player import PolicyPlayer, range_search_player
from gamesolve.search.policy import NodePolicy, StoredPolicy, StoreRows
from gamesolve.search.solve_log import SolveLogError, SolveReplay
from gamesolve.search.subgame import DepthLimit
from gamesolve.store.strategy_store import StrategyStore
from tests.command_output import last_json


@pytest.fixture(scope="module")
def host():
    return make_plugin_manager(strict=True, entry_points=False, plugins=[gamesolve_liars_dice.plugin])


@pytest.fixture(scope="module")
def game(host):
    return host.games.get("liars_dice").create()


@pytest.fixture(scope="module")
def keyed(game, host):
    return factored_form(game, host.pm)


@pytest.fixture(scope="module")
def keyless(game):
    return contract_compiler.compile_contract(game.factored_contract(), game.name, dict(game.params), game.describe(), key_limit=0)


@pytest.fixture(scope="module")
def store(tmp_path_factory, host):
    """A short mccfr-p blueprint of Liar's Dice 1x6 (iteration cap, seed)."""
    out = tmp_path_factory.mktemp("ld16") / "bp"
    mp = pytest.MonkeyPatch()
    mp.setattr(cli_module, "plugin_host", lambda dirs=(): host)
    try:
        result = CliRunner().invoke(cli_module.cli, ["solve", "--game", "liars_dice", "--algo", "mccfr-p", "--iterations", "20000",
                                                     "--seed", "1", "--out", str(out)])  # fmt: skip
    finally:
        mp.undo()
    assert result.exit_code == 0, result.output
    return out


def decision_histories(game, limit=None):
    """Every decision history of ``game`` (depth first), at most ``limit`` of them."""
    out, stack = [], [game.new_initial_state()]
    while stack and (limit is None or len(out) < limit):
        state = stack.pop()
        if state.is_terminal():
            continue
        if state.is_chance_node():
            stack.extend(state.child(a) for a, _ in state.chance_outcomes())
            continue
        out.append(state)
        stack.extend(state.child(a) for a in state.legal_actions())
    return out


def test_a_form_without_keys_finds_every_history_where_the_keyed_form_does(game, keyed, keyless):
    assert keyless.locate is None and keyless.num_nodes == keyed.num_nodes
    by_key, by_walk = FormLocator(game, keyed), FormLocator(game, keyless)
    assert by_key.keyed and not by_walk.keyed
    for state in decision_histories(game, limit=5000):
        assert by_walk.node(state) == by_key.node(state)
        assert [by_walk.private(state, p) for p in (0, 1)] == [by_key.private(state, p) for p in (0, 1)]


def test_a_blueprint_read_by_public_node_plays_what_the_keyed_store_reads(game, keyed, keyless, store):
    blueprint = StrategyStore(store / "blueprint")
    by_node = NodePolicy(StoreRows(blueprint), FormLocator(game, keyless))
    by_key = StoredPolicy(blueprint, keyed.locate)
    for state in decision_histories(game, limit=2000)[::7]:
        player = state.current_player()
        np.testing.assert_array_equal(by_node.probs(state, player), by_key.probs(state, player))


def test_a_history_the_form_does_not_hold_is_named_in_the_error(game, keyless):
    class Stranger:  # a public path the form does not have
        def public_state_key(self):
            return "1x1 1x1"

    locator = FormLocator(game, keyless)
    locator._contract = type("C", (), {"public_path": lambda self, state: (0, 0)})()
    with pytest.raises(FormError, match="'1x1 1x1': edge 0 is not an action"):
        locator.node(Stranger())


def search_agent(game, keyless, store, **options):
    blueprint = NodePolicy(StoreRows(StrategyStore(store / "blueprint")), FormLocator(game, keyless))
    return range_search_player(game, blueprint, {"seconds": "0", **options}, seed=3)


def play_to(agent, game, seat, rolls, bids):
    """Deal ``rolls`` and make ``bids`` in front of ``agent`` (in ``seat``); the state after them."""
    agent.new_hand(seat, 0)
    state = game.new_initial_state()
    for action in [r - 1 for r in rolls] + list(bids):
        agent.observe(state, action)
        state = state.child(action)
    return state


def test_the_ranges_reach_the_search_root_by_the_blueprint(game, keyed, keyless, store):
    """Before the root the blueprint plays: each player's reach over its dice is the product of
    the blueprint's probabilities of the bids it made (read here by key, on the keyed form)."""
    agent = search_agent(game, keyless, store, end_nodes="200")
    bids = (1, 4, 7)  # 1x2, 1x5, 2x2: the rest of the game after 2x2 has 31 public nodes
    state = play_to(agent, game, 0, (3, 5), bids)
    assert agent.plan is not None and agent.domain.round_of(state) == LAST_ROUND
    blueprint = StoredPolicy(StrategyStore(store / "blueprint"), keyed.locate)
    expected = np.ones((2, 6))
    before = game.new_initial_state().child(2).child(4)
    for bid in bids:
        player = before.current_player()
        node, _ = keyed.locate(before.information_state_key(player))
        legal = list(before.legal_actions())
        for s in range(6):
            expected[player, s] *= blueprint.action_probs(keyed.key_of(node, s), len(legal))[legal.index(bid)]
        before = before.child(bid)
    np.testing.assert_allclose(agent.ranges.reach, expected, rtol=1e-12)


def test_before_the_rest_of_the_game_is_small_the_blueprint_plays(game, keyless, store):
    agent = search_agent(game, keyless, store, end_nodes="200")
    state = play_to(agent, game, 0, (3, 5), ())
    agent.act(state, 0)
    assert agent.plan is None and not agent.last_searched


def test_a_search_over_the_whole_game_solves_it(game, keyless, store):
    """Where the whole game is small enough the first decision is the root: its solve, read
    as a profile of the game, is near an equilibrium (best response over the form)."""
    agent = search_agent(game, keyless, store, end_nodes=str(keyless.num_nodes), iterations="400", algorithm="dcfr")
    state = play_to(agent, game, 0, (2, 6), ())
    agent.act(state, 0)
    assert agent.last_searched
    solver = agent.solved.solver
    assert agent.solved.form.num_nodes == keyless.num_nodes
    nash_conv = evaluate_rows(agent.solved.form, solver.row_offset, solver.average_rows(), zero_sum=True).nash_conv
    assert nash_conv < 0.01


def test_unknown_search_options_are_named(game, keyless, store):
    with pytest.raises(ValueError, match=r"unknown search option for liars_dice.*: 'colour' \(known: seconds, iterations"):
        search_agent(game, keyless, store, colour="red")


def test_leaves_of_a_form_without_keys_take_the_stores_continuation_strategies(game, keyless, store):
    with pytest.raises(ValueError, match="bias_factor and rollouts apply to a blueprint read by key"):
        search_agent(game, keyless, store, depth="2", rollouts="2")


def test_match_plays_the_search_agent_over_a_blueprint_on_a_form_without_keys(host, store, monkeypatch, tmp_path):
    """On the command line, as on Liar's Dice 2x6: `search:` over a training store whose form
    has no keys is the range search agent, `policy:` reads the blueprint by node."""
    monkeypatch.setattr(contract_compiler, "compile_contract", functools.partial(contract_compiler.compile_contract, key_limit=0))
    monkeypatch.setattr(cli_module, "plugin_host", lambda dirs=(): host)
    blueprint = store / "blueprint"  # the strategy store (the training store also holds a policy: Liar's Dice 1x6 is small)
    agents = f"search:store={blueprint}:seconds=0:iterations=50:end_nodes=500,policy:store={blueprint}"
    result = CliRunner().invoke(cli_module.cli, ["match", "--game", "liars_dice", "--agents", agents, "--hands", "40", "--json"],
                                catch_exceptions=False)  # fmt: skip
    assert result.exit_code == 0, result.output
    search, _ = last_json(result.stdout)["agents"]
    assert search["name"].startswith("search:") and 0 < search["latency"]["searched"]["decisions"] < search["latency"]["decisions"]



def play_hands(agent, opponent, game, hands, seed=0):
    """``hands`` hands of ``agent`` against ``opponent``, alternating seats; every action taken."""
    rng = np.random.default_rng(seed)
    actions = []
    for hand in range(hands):
        seat = hand % 2
        agent.new_hand(seat, hand)
        opponent.new_hand(1 - seat, hand)
        state = game.new_initial_state()
        while not state.is_terminal():
            player = state.current_player()
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = outcomes[rng.choice(len(outcomes), p=[p for _, p in outcomes])][0]
            else:
                action = (agent if player == seat else opponent).act(state, player)
            agent.observe(state, action)
            actions.append(action)
            state = state.child(action)
    return actions


def test_a_kept_solve_plays_what_solving_again_would(game, keyless, store, monkeypatch):
    """Solves are kept across hands by root and ranges: the same actions as solving every
    time, with fewer solves."""
    from gamesolve.search import range_agent

    solves = []
    solve = range_agent.solve_subgame
    monkeypatch.setattr(range_agent, "solve_subgame", lambda *args: solves.append(1) or solve(*args))
    opponent = PolicyPlayer(NodePolicy(StoreRows(StrategyStore(store / "blueprint")), FormLocator(game, keyless)), seed=9)
    kept = search_agent(game, keyless, store, end_nodes="300", iterations="30")
    kept_actions = play_hands(kept, opponent, game, 60)
    kept_solves = len(solves)
    fresh = search_agent(game, keyless, store, end_nodes="300", iterations="30")
    fresh.memo.max_bytes = 0
    assert play_hands(fresh, opponent, game, 60) == kept_actions
    assert 0 < kept_solves < len(solves) - kept_solves


@pytest.mark.parametrize("option, message", [
    ({"iterations": "0"}, "search option iterations must be at least 1, got 0"),
    ({"seconds": "-1"}, "search option seconds must be at least 0, got -1.0"),
    ({"threads": "0"}, "search option threads must be at least 1, got 0"),
    ({"play": "best"}, "search option play must be one of current, average, got 'best'"),
])  # fmt: skip
def test_a_bad_search_option_value_is_named(game, keyless, store, option, message):
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        search_agent(game, keyless, store, **option)


def test_a_form_whose_private_states_change_at_public_chance_is_refused_with_its_reason():
    import attrs

    from gamesolve.game.factored_compiler import compile_factored
    from gamesolve_leduc import LeducGame

    leduc = compile_factored(LeducGame(2))
    changing = attrs.evolve(leduc, num_private=np.array([6, 7], dtype=np.int32))  # a seventh state after the board
    with pytest.raises(FormError, match="leduc: search over ranges needs private states that public chance leaves as they are"):
        FormSearchDomain(changing, rows=None, locator=None)


def test_stored_leaf_values_follow_the_stores_continuation_strategies(keyed, store):
    """A leaf's value on a deal for a joint choice is the terminal its two stored continuation
    strategies lead to (read here one action at a time through the store's own reader)."""
    from gamesolve.search.leaves import StoredLeafValues

    blueprint = StrategyStore(store / "blueprint")
    leaves = StoredLeafValues(keyed, blueprint, k=4)
    deals = keyed.deals.listed
    for leaf in (1, 40, 700):
        values = leaves.values(leaf, [0, 1])
        assert values.shape == (16, deals.count, 2)
        for combo, (c0, c1) in enumerate([(a, b) for a in range(4) for b in range(4)]):
            for d in range(0, deals.count, 5):
                node = leaf
                while keyed.node_kind[node] != 2:  # TERMINAL
                    actor = int(keyed.node_player[node])
                    choice = (c0, c1)[actor]
                    node = int(keyed.children(node)[blueprint.continuation(choice, node, int(deals.private[d, actor, 0]))])
                np.testing.assert_array_equal(values[combo, d], keyed.table[keyed.term_row[node], d])


def test_a_depth_limited_search_moves_its_root_every_depth_actions(game, keyless, store):
    agent = search_agent(game, keyless, store, depth="2", end_nodes="100", iterations="20")
    state = play_to(agent, game, 0, (3, 5), ())
    assert agent.plan is not None and agent.plan.depth == DepthLimit(actions=2)
    agent.act(state, 0)
    assert agent.last_searched and agent.domain.leaves.leaves_evaluated > 0
    for bid in (1, 3):  # two bids later: the next round's root
        agent.observe(state, bid)
        state = state.child(bid)
    assert agent.root.public_state_key() == "1x2 1x4" and agent.domain.round_of(state) == 1
    assert agent.ranges.reach[1].sum() < 6  # the opponent's bid moved its range


# -- the solve log: a time-budgeted match played again to the bit --------------------------


def logged_solves(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.mark.parametrize("solver", [{}, {"sampling_above": "0"}], ids=["vector-cfr", "mccfr"])
def test_a_replayed_solve_log_plays_the_time_budgeted_hands_again(game, keyless, store, tmp_path, solver):
    """Under a time budget each solve stops where the clock says; the log of its iterations
    makes the same hands play the same actions again with no clock."""
    opponent = PolicyPlayer(NodePolicy(StoreRows(StrategyStore(store / "blueprint")), FormLocator(game, keyless)), seed=9)
    log = tmp_path / "solves.jsonl"
    options = {"end_nodes": "300", "iterations": "100000", "mccfr_iterations": "10000000", **solver}
    timed = search_agent(game, keyless, store, seconds="0.02", record=str(log), **options)
    actions = play_hands(timed, opponent, game, 30)
    solves = logged_solves(log)
    assert len(solves) > 10
    assert len({s["iterations"] for s in solves}) > 1  # the clock stopped them, not a cap
    replay = search_agent(game, keyless, store, seconds="0.02", replay=str(log), record=str(tmp_path / "again.jsonl"), **options)
    assert play_hands(replay, opponent, game, 30) == actions
    replayed_solves = logged_solves(tmp_path / "again.jsonl")
    assert replayed_solves == solves


def test_a_replay_of_another_match_is_refused_naming_the_hand(game, keyless, store, tmp_path):
    opponent = PolicyPlayer(NodePolicy(StoreRows(StrategyStore(store / "blueprint")), FormLocator(game, keyless)), seed=9)
    log = tmp_path / "solves.jsonl"
    log.write_text(json.dumps({"hand": 999, "seat": 0, "solve": 0, "round": 0, "iterations": 5, "nodes": 10}) + "\n")
    replay = search_agent(game, keyless, store, end_nodes="300", replay=str(log))
    with pytest.raises(SolveLogError, match=r"holds no solve 0 of hand \d+ in seat \d: the replay is not the recorded match"):
        play_hands(replay, opponent, game, 30)


def test_a_replayed_solve_of_another_size_is_refused(game, keyless, store, tmp_path):
    opponent = PolicyPlayer(NodePolicy(StoreRows(StrategyStore(store / "blueprint")), FormLocator(game, keyless)), seed=9)
    log = tmp_path / "solves.jsonl"
    play_hands(search_agent(game, keyless, store, end_nodes="300", iterations="5", record=str(log)), opponent, game, 30)
    first = logged_solves(log)[0]
    log.write_text(json.dumps({**first, "nodes": first["nodes"] + 1}) + "\n")
    replay = search_agent(game, keyless, store, end_nodes="300", iterations="5", replay=str(log))
    with pytest.raises(SolveLogError, match=f"solve 0 of hand {first['hand']} in seat {first['seat']} has .* nodes in round .*, the log's"):
        play_hands(replay, opponent, game, 30)


def test_a_solve_log_cut_short_by_a_crash_reads_to_its_last_whole_line(tmp_path):
    log = tmp_path / "solves.jsonl"
    whole = json.dumps({"hand": 3, "seat": 1, "solve": 0, "round": 2, "iterations": 17, "nodes": 40})
    log.write_text(whole + "\n" + whole[:20])
    assert SolveReplay(log).solve(3, 1, 0, 2, 40) == 17


def test_a_solve_log_with_a_bad_line_inside_names_it(tmp_path):
    log = tmp_path / "solves.jsonl"
    whole = json.dumps({"hand": 3, "seat": 1, "solve": 0, "round": 2, "iterations": 17, "nodes": 40})
    log.write_text("garbage\n" + whole + "\n")
    with pytest.raises(SolveLogError, match=r"solves.jsonl, line 1: not a solve log entry: 'garbage'"):
        SolveReplay(log)


def test_a_missing_solve_log_is_named(game, keyless, store, tmp_path):
    with pytest.raises(SolveLogError, match=r"search option replay: cannot read the solve log '.*nowhere.jsonl'"):
        search_agent(game, keyless, store, replay=str(tmp_path / "nowhere.jsonl"))
