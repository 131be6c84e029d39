"""Hold'em evaluation: equities, exposed strategies, AIVAT over 1,326 pairs, local best response."""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import numpy as np
import pytest
from click.testing import CliRunner

from gamesolve.cli import cli
from gamesolve.evaluate.aivat import HandLog, estimator_for
from gamesolve.evaluate.match import make_agents, play_match
from gamesolve_nlth.agents import CallAgent, FoldAgent, RandomAgent
from gamesolve_nlth.cards import cards_str, parse_cards
from gamesolve_nlth.evaluate.aivat import HoleCardAIVAT
from gamesolve_nlth.evaluate.equity import equity_vector, turn_equities
from gamesolve_nlth.evaluate.hands import HOLES, hole_index, possible, preflop_classes
from gamesolve_nlth.evaluate.preflop import canonical_matchups, matchup_score
from gamesolve_nlth.evaluate.stakes import EQUITY_EDGES, STRENGTH_EDGES, StakesTable, cells, load_table, table_shape
from gamesolve_nlth.evaluator import equity_vs_hand
from gamesolve.game.poker_form import RAISE
from gamesolve_nlth.state import CHECK_CALL, FOLD, NLTHGame, action_raise_to
from tests.command_output import succeeded


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


# ---- hole-card pairs and equities -------------------------------------------------------------
def test_the_1326_pairs_are_indexed_both_ways():
    assert len(HOLES) == 1326
    assert all(hole_index(a, b) == k == hole_index(b, a) for k, (a, b) in enumerate(HOLES))
    assert possible([0, 1]).sum() == 1326 - 2 * 51 + 1
    assert sorted(set(preflop_classes())) == list(range(169))


@pytest.mark.parametrize("board_size", [3, 4, 5])
def test_equity_vectors_are_exact(board_size):
    rng = random.Random(board_size)
    for _ in range(3):
        cards = rng.sample(range(52), 4 + board_size)
        hero, other, board = cards[:2], cards[2:4], cards[4:]
        eq = equity_vector(hero, board)
        assert eq[hole_index(*other)] == pytest.approx(float(equity_vs_hand(cards_str(hero), cards_str(other), cards_str(board))), abs=1e-12)
        assert np.isnan(eq[hole_index(hero[0], board[0])])  # impossible pairs


@pytest.mark.parametrize("board", [[3, 17, 29, 44], [3, 17, 29, 44, 50]], ids=["turn", "river"])
def test_an_equity_vector_is_the_plain_count_of_seven_card_showdowns_over_every_river(board):
    from gamesolve_nlth.evaluator import evaluate_batch

    hero = [12, 40]
    rivers = [[]] if len(board) == 5 else [[c] for c in range(52) if c not in hero + board]
    score, count = np.zeros(len(HOLES)), np.zeros(len(HOLES))
    for river in rivers:
        full = board + river
        ok = np.array([not {a, b} & set(hero + full) for a, b in HOLES])
        mine = evaluate_batch(np.array([hero + full], dtype=np.int8))[0]
        theirs = evaluate_batch(np.array([[a, b, *full] for a, b in HOLES[ok]], dtype=np.int8))
        score[ok] += (mine > theirs) + 0.5 * (mine == theirs)
        count[ok] += 1
    expected = np.where(count > 0, score / np.maximum(count, 1), np.nan)
    np.testing.assert_array_equal(equity_vector(hero, board), expected)


@pytest.mark.parametrize("street", [1, 2, 3])
def test_a_worlds_stakes_cell_bins_strength_and_equity_as_digitize_with_nan_as_zero(street):
    rng = np.random.default_rng(street)
    strength = np.concatenate([rng.random(500), STRENGTH_EDGES, [np.nan, 0.0, 1.0]])
    equity = np.concatenate([rng.random(500), EQUITY_EDGES[:3], [0.5, np.nan, 0.0, 1.0]])
    ns, ne = len(STRENGTH_EDGES) + 1, len(EQUITY_EDGES) + 1
    a = np.digitize(np.nan_to_num(strength), STRENGTH_EDGES)
    e = 0 if street == 1 else np.digitize(np.nan_to_num(equity), EQUITY_EDGES)
    for opponent in (0.3, 0.75, 0.99):
        b = int(np.digitize(opponent, STRENGTH_EDGES))
        expected = (((street - 1) * ns + a) * ns + b) * ne + e
        np.testing.assert_array_equal(cells(street, strength, opponent, equity), expected)


def test_turn_equities_of_every_turn_card_match_one_board_at_a_time():
    hero, flop = [12, 40], [3, 17, 29]
    cards = [c for c in range(52) if c not in hero + flop]
    every = turn_equities(hero, flop, cards)
    for i in (0, 20, 46):
        np.testing.assert_allclose(every[i], 1.0 - equity_vector(hero, flop + [cards[i]]), atol=1e-12, equal_nan=True)


def test_preflop_matchups_reduce_to_47008_classes_that_share_their_equity():
    pairs, cls, swapped, reps = canonical_matchups()
    assert len(pairs) == 1326 * 1225 // 2 and len(reps) == 47_008
    a, b = HOLES[hole_index(51, 47)], HOLES[hole_index(50, 46)]  # AsKs vs AhKh: a split almost always
    score, boards = matchup_score(a[0], a[1], b[0], b[1])
    assert boards == 1_712_304 and Fraction(score, 2 * boards) == equity_vs_hand("AsKs", "AhKh")
    t = int(np.flatnonzero((pairs[:, 0] == hole_index(0, 5)) & (pairs[:, 1] == hole_index(48, 51)))[0])  # 2c3d vs AcAs
    x, y = reps[cls[t]]
    s, n = matchup_score(*HOLES[x], *HOLES[y])
    rep = s / (2 * n)
    assert (1 - rep if swapped[t] else rep) == pytest.approx(float(equity_vs_hand("2c3d", "AcAs")), abs=1e-12)


def test_the_check_down_value_is_a_martingale_under_chance():
    """V before a card = the expected V after it, card removal included: what lets a chance
    correction use the values before and after a street's cards only."""
    game = NLTHGame(2)
    state = game.new_initial_state(cards="AsKd QhJh 7c8c2d")  # seat 0 AsKd, seat 1 QhJh, flop 7c8c2d
    state.apply("cc").apply("cc")  # limp, check: to the flop
    estimator = HoleCardAIVAT(game, CallAgent(game), preflop=None, stakes=None)
    w = possible(state.hole_cards(1) + state.board) * np.random.default_rng(0).random(1326)
    before = estimator._value(state, 0, w)
    expected = 0.0
    for c in range(52):  # P(c | O) = sum_k w_k p(c | k) / sum_k w_k, p(c | k) = 1/45 unless k holds c
        if c in state.hole_cards(1) or c in state.board:
            continue
        wc = w * possible([c])
        expected += wc.sum() / (45 * w.sum()) * estimator._value(state, 0, wc, board=state.board + [c], street=2)
    assert expected == pytest.approx(before, abs=1e-9)


def mean_card_correction(estimator, state, seat, street):
    """The turn's (or river's) correction of ``seat`` for every card left in the deck (the
    other players' cards out), and its mean over them, each card weighted by its probability
    given random range weights of ``seat`` (card removal included)."""
    board = state.board[: 3 if street == "turn" else 4]
    out = [c for p in range(state.num_players) if p != seat for c in state.hole_cards(p)] + board
    w = possible(out) * np.random.default_rng(2).random(1326)
    deck = [c for c in range(52) if c not in out]
    mean, terms = 0.0, []
    for c in deck:
        wc = w * possible([c])
        term = estimator._street_term(state, seat, w, wc, board, board + [c])
        terms.append(term)
        mean += wc.sum() / ((len(deck) - 2) * w.sum()) * term
    return mean, terms


@pytest.mark.parametrize("street", ["turn", "river"])
def test_a_card_correction_with_the_stakes_model_has_mean_zero(street):
    """The stakes value is no martingale: the turn's and the river's corrections subtract the
    expectation over the card. Averaged over every card with its probability given the
    opponent's view (card removal by the agent's weighted range), the correction is 0 for any
    table (here random noise) and any range weights."""
    game = NLTHGame(2)
    state = game.new_initial_state(cards="AsKd QhJh 7c8c2d9s")
    state.apply(("cbr", 300)).apply("cc").apply(("cbr", 400)).apply("cc")  # to the flop's end: 700 matched
    if street == "river":
        state.apply("cc").apply("cc")
    table = StakesTable(np.random.default_rng(1).normal(0, 0.3, int(np.prod(table_shape()))))
    estimator = HoleCardAIVAT(game, CallAgent(game), preflop=None, stakes=table)
    mean, terms = mean_card_correction(estimator, state, 0, street)
    assert np.std(terms) > 10  # the corrections are not trivially 0
    assert mean == pytest.approx(0.0, abs=1e-9)


@pytest.mark.parametrize("stakes", [False, True], ids=["check-down", "stakes"])
@pytest.mark.parametrize("street", ["turn", "river"])
def test_a_card_correction_has_mean_zero_over_the_deck_without_the_folded_players_cards(street, stakes):
    """Three players, the first folded preflop (AsKd): its cards are out of the deck, which
    the check-down equities of the heads-up pot ignore, so their value is no martingale under
    the real deal; the correction subtracts the expectation over the cards really left."""
    game = NLTHGame(3)
    state = game.new_initial_state(cards="AsKd QhJh 9c9d 2d7c8c9sTs")
    state.apply("f").apply("cc").apply("cc")  # seat 0 folds; seats 1 and 2 see the flop
    state.apply("cc").apply("cc")  # checked through: the turn is next
    if street == "river":
        state.apply("cc").apply("cc")
    table = StakesTable(np.random.default_rng(1).normal(0, 0.3, int(np.prod(table_shape())))) if stakes else None
    estimator = HoleCardAIVAT(game, CallAgent(game), preflop=None, stakes=table)
    mean, terms = mean_card_correction(estimator, state, 1, street)
    assert np.std(terms) > 1  # the corrections are not trivially 0
    assert mean == pytest.approx(0.0, abs=1e-9)


@pytest.mark.slow  # the exact sum over every flop: about a minute
def test_the_flop_surplus_is_sampled_without_bias():
    """The flop's expectation of the stakes surplus is a mean of independent draws: their
    mean agrees with the exact sum over all 19,600 flops (card removal included) within 4
    standard errors."""
    game = NLTHGame(2)
    state = game.new_initial_state(cards="AsKd QhJh")
    state.apply(("cbr", 300)).apply("cc")  # the chance node before the flop: 300 matched
    table = StakesTable(np.random.default_rng(3).normal(0, 0.3, int(np.prod(table_shape()))))
    estimator = HoleCardAIVAT(game, CallAgent(game), preflop=None, stakes=table)
    w = possible(state.hole_cards(1)) * np.random.default_rng(4).random(1326)
    deck = [c for c in range(52) if c not in state.hole_cards(1)]
    exact = 0.0
    for flop in itertools.combinations(deck, 3):
        wf = w * possible(flop)
        keep = wf > 0
        exact += float(np.dot(wf[keep], table.surplus(list(flop), state.hole_cards(1), None, 1, 9700)[keep]))
    exact /= math.comb(len(deck) - 2, 3) * w.sum()
    draws = estimator._flop_surplus_samples(state, 0, w, 2000) * math.comb(len(deck), 3) / math.comb(len(deck) - 2, 3)
    assert abs(draws.mean() - exact) < 4 * draws.std() / math.sqrt(len(draws))
    assert draws.std() > 10


def test_the_stakes_table_shipped_was_fitted_on_other_hands_than_the_documented_matches():
    table = load_table()
    assert table.table.shape == (int(np.prod(table_shape())),) and np.all(np.isfinite(table.table))
    assert table.info["seed"] != 1 and "aivat_fit.py" in table.info["command"]  # docs/evaluation.md's matches use seed 1


# ---- exposed strategies ---------------------------------------------------------------------------
def raises_played_and_in_the_tree(agent, state):
    """``[(real raise-to, the tree's raise-to)]`` of the blueprint's raises below all-in at
    ``state``, and the real action of each tree edge there."""
    store = agent.store
    node, _ = agent._locate(state)
    played = [a for a, _ in agent.strategy(state, state.current_player())]  # one per tree edge, in order
    edges = range(int(store.child_start[node]), int(store.child_start[node + 1]))
    pairs = [(action_raise_to(a), action_raise_to(int(store.edge_label[k])))
             for k, a in zip(edges, played) if store.edge_class[k] == RAISE and action_raise_to(a) < state.max_raise_to]  # fmt: skip
    return pairs, played


@pytest.mark.parametrize("button", [0, 1])
def test_heads_up_the_blueprint_bets_the_trees_sizes_on_the_trees_own_lines(hu_blueprint, nlth_host, button):
    """Heads-up, the button posts the small blind and acts first before the flop. On the
    tree's own lines the real pot is the tree's, so every raise the agent plays is the tree's
    raise-to amount: its pot fractions are the tree's (blinds seated wrongly would scale them)."""
    game = NLTHGame(2)
    (agent,), _ = make_agents(nlth_host.agents, game, [f"blueprint:store={hu_blueprint}"], 0)
    root = game.new_initial_state(cards="7s2d QhJh", button=button)
    assert root.current_player() == button and root.bets[button] == game.small_blind
    pairs, played = raises_played_and_in_the_tree(agent, root)
    for action in played:  # the big blind's answer to each of the small blind's actions
        after = root.child(action)
        if not after.is_terminal() and after.street == 0:
            pairs += raises_played_and_in_the_tree(agent, after)[0]
    assert len(pairs) >= 1  # the small blind's open (tiny has no limp; the big blind's only re-raise is all-in)
    assert all(real == tree for real, tree in pairs)


@pytest.mark.parametrize("make", [RandomAgent, CallAgent, FoldAgent], ids=["random", "call", "fold"])
def test_baseline_agents_expose_the_distribution_they_play(make):
    game = NLTHGame(2)
    state = game.new_initial_state(cards="AsKd QhJh")
    state.apply(("cbr", 300))
    agent = make(game, 0)
    exposed = agent.action_probabilities(state, 1)
    assert sum(exposed.values()) == pytest.approx(1.0)
    counts: dict[int, int] = {}
    for hand in range(3000):
        agent.new_hand(1, hand)
        a = agent.act(state, 1)
        counts[a] = counts.get(a, 0) + 1
    assert set(counts) <= set(exposed)
    for a, p in exposed.items():
        assert counts.get(a, 0) / 3000 == pytest.approx(p, abs=0.03)
    actions, probs = agent.range_probabilities(state, 1, HOLES[:5])
    assert probs.shape == (5, len(actions)) and np.allclose(probs.sum(axis=1), 1.0)


def test_the_blueprint_exposes_the_distribution_it_plays(hu_blueprint, nlth_host):
    game = NLTHGame(2)
    (agent,), _ = make_agents(nlth_host.agents, game, [f"blueprint:store={hu_blueprint}"], 0)
    state = game.new_initial_state(cards="7s2d QhJh", button=1)  # seat 1 (the button) acts first
    exposed = agent.action_probabilities(state, 1)
    counts: dict[int, int] = {}
    for hand in range(2000):
        agent.new_hand(1, hand)
        a = agent.act(state, 1)
        counts[a] = counts.get(a, 0) + 1
    assert set(counts) <= set(exposed)
    for a, p in exposed.items():
        assert counts.get(a, 0) / 2000 == pytest.approx(p, abs=0.04)
    actions, probs = agent.range_probabilities(state, 1, HOLES[[hole_index(*state.hole_cards(1)), 0, 100]])
    assert {a: p for a, p in zip(actions, probs[0]) if p > 0} == pytest.approx(exposed)


def test_the_blueprints_range_is_each_pairs_own_strategy_after_the_flop(hu_blueprint, nlth_host):
    """The range question (buckets of every pair per board, a node's strategy read for many
    buckets at once, the node kept per betting history) agrees with the strategy the agent
    plays holding each pair."""
    game = NLTHGame(2)
    (agent,), _ = make_agents(nlth_host.agents, game, [f"blueprint:store={hu_blueprint}"], 0)

    def flop(cards, board="7c8c2d"):
        return game.new_initial_state(cards=f"{cards} QhJh {board}", button=1).apply("cc").apply("cc")  # the big blind acts

    holes = HOLES[possible(parse_cards("QhJh7c8c2d"))][::37]
    state = flop("AsKd")
    for ask in (agent.range_probabilities, agent.model_range_probabilities, agent.model_range_probabilities):  # the last one cached
        actions, probs = ask(state, 0, holes)
        for row, (a, b) in zip(probs, holes):
            played = {x: p for x, p in agent.strategy(flop(cards_str([int(a), int(b)])), 0) if p > 0}
            merged = {x: p for x, p in zip(actions, row) if p > 0}
            assert merged == pytest.approx(played)
    other = agent.model_range_probabilities(flop("AsKd", "9h9d4s"), 0, holes[:3])  # the same betting, another board
    assert other[1].shape == (3, len(other[0]))


# ---- AIVAT -----------------------------------------------------------------------------------------
def aivat_match(host, agents, hands, seed, workers=1):
    game = NLTHGame(2)
    built, names = make_agents(host.agents, game, agents, seed)
    return play_match(game, built, hands, seed=seed, names=names, aivat=True, plugins=host.pm, workers=workers)


def test_aivat_of_random_against_itself_is_unbiased_and_much_sharper(nlth_host):
    result = aivat_match(nlth_host, ["random", "random"], 400, seed=3)
    for agent in result.agents:
        a = agent.aivat
        assert abs(a["win_rate"]) < 2 * a["stderr"]  # the true value is 0 by symmetry
        assert a["variance_reduction"] > 2


def test_aivat_of_the_blueprint_against_itself_is_unbiased(hu_blueprint, nlth_host):
    """Unbiased only: against itself, duplicate deals already cancel most of the cards' luck
    in the raw estimate (both seatings play alike), so AIVAT need not be sharper here; it is
    against another agent (next test). Of three briefly trained blueprints, one gave an AIVAT
    SE below the raw one, two above (216 against 193, 490 against 188)."""
    spec = f"blueprint:store={hu_blueprint}"
    a = aivat_match(nlth_host, [spec, spec], 300, seed=5).agents[0].aivat
    assert abs(a["win_rate"]) < 2 * a["stderr"]


def test_aivat_agrees_with_the_raw_estimate_against_an_unknown_agent_and_is_sharper(hu_blueprint, nlth_host):
    result = aivat_match(nlth_host, [f"blueprint:store={hu_blueprint}", "tag:samples=50"], 300, seed=7)
    raw, a = result.agents[0], result.agents[0].aivat
    assert abs(raw.win_rate - a["win_rate"]) < 2 * math.hypot(raw.stderr, a["stderr"])
    assert a["stderr"] < raw.stderr
    assert result.agents[1].aivat["complement"]  # tag does not expose its strategy: minus the blueprint's estimate


def test_match_aivat_values_walk_against_a_model_of_the_opponent():
    report = succeeded(run("match", "--game", "nlth", "--agents", "call,tag:samples=20", "--hands", "2", "--seed", "2",
                           "--aivat-values", "turn-cross-walk", "--json"))  # fmt: skip (no flop walk: its 64 flops take seconds a hand)
    values = report["agents"][0]["aivat"]["values"]
    assert values.startswith("turn-cross-walk:") and "across the cards of streets [3]" in values
    assert report["agents"][1]["aivat"]["complement"]  # tag's exposure is a model, not its strategy


def test_the_aivat_estimator_walks_against_the_opponent_it_is_given(nlth_host):
    game = NLTHGame(2)
    (call, tag), _ = make_agents(nlth_host.agents, game, ["call", "tag"], 0)
    estimator = estimator_for(game, call, nlth_host.pm, [tag], "turn-walk")
    assert estimator.opponent is tag and estimator.walk == {2, 3} and not estimator.cross
    assert estimator_for(game, call, nlth_host.pm, [tag]).walk == frozenset()  # the default: stakes, no walk


@pytest.mark.parametrize(("agents", "values", "message"), [
    ("call,tag", "nope", "choose among check-down, stakes"),
    ("call,tag,tag", "river-walk", "heads-up opponent"),
])  # fmt: skip
def test_match_refuses_aivat_values_it_cannot_use(agents, values, message):
    result = run("match", "--game", "nlth", "--agents", agents, "--hands", "2", "--aivat-values", values)
    assert result.exit_code == 2 and message in result.output and "Traceback" not in result.output


def test_an_aivat_hand_averages_the_final_payoff_over_the_agents_range():
    """The call agent's range is every pair: at a showdown the estimate's final term is the
    mean payoff over the pairs that avoid the opponent's cards and the board."""
    game = NLTHGame(2)
    state = game.new_initial_state(cards="AsKd QhJh 7c8c2d9sTs")
    steps = []
    for action in ("cc", "cc", "cc", "cc", "cc", "cc", "cc", "cc"):
        before = state.clone()
        state.apply(action)
        steps.append((before, CHECK_CALL))
    terms = HoleCardAIVAT(game, CallAgent(game), preflop=None).terms(HandLog(tuple(steps), state), 0)
    ok = possible(state.hole_cards(1) + state.board)
    from gamesolve_nlth.evaluator import evaluate7

    theirs = evaluate7(*state.hole_cards(1), *state.board)
    mine = np.array([evaluate7(a, b, *state.board) for a, b in HOLES[ok]])
    expected = (100 * (mine > theirs) - 100 * (mine < theirs)).mean()
    assert terms["final"] == pytest.approx(expected)


def test_an_own_hand_estimate_ends_on_the_payoff_of_the_hand_held():
    game = NLTHGame(2)
    state = game.new_initial_state(cards="AsKd QhJh 7c8c2d9sTs")
    steps = []
    for _ in range(8):
        before = state.clone()
        state.apply("cc")
        steps.append((before, CHECK_CALL))
    terms = HoleCardAIVAT(game, CallAgent(game), preflop=None, own_hand=True).terms(HandLog(tuple(steps), state), 0)
    assert terms["final"] == state.returns()[0] == -100  # AsKd loses to the queen-high straight


def test_an_own_hand_decision_correction_has_mean_zero_under_the_strategy_of_the_hand_held():
    """Evaluated on the hand it holds alone (an agent exact only there: the search agent), a
    decision's correction averages to 0 over the actions that hand plays, with their
    probabilities."""
    game = NLTHGame(2)
    state = game.new_initial_state(cards="AsKd QhJh 7c8c2d")
    state.apply(("cbr", 300)).apply("cc").apply(("cbr", 400))  # the flop, 600 in the pot, a bet of 400 to face
    seat = state.current_player()
    agent = RandomAgent(game)
    estimator = HoleCardAIVAT(game, agent, preflop=None, own_hand=True)
    w = np.zeros(len(HOLES))
    w[hole_index(*state.hole_cards(seat))] = 1.0
    actions, probs = agent.range_probabilities(state, seat, np.array([state.hole_cards(seat)]))
    terms = []
    for action in actions:
        corrections = []
        estimator._decision(state, action, seat, w, corrections)
        terms.append(corrections[0][1])
    assert np.std(terms) > 10  # the corrections are not trivially 0
    assert float(np.dot(probs[0], terms)) == pytest.approx(0.0, abs=1e-9)


def test_an_agent_exact_only_for_the_hand_it_holds_is_evaluated_on_that_hand(nlth_host):
    game = NLTHGame(2)

    class OwnHandOnly(RandomAgent):
        strategy_is_exact = False
        own_strategy_is_exact = True

    (tag,), _ = make_agents(nlth_host.agents, game, ["tag"], 0)
    assert estimator_for(game, OwnHandOnly(game), nlth_host.pm, [tag]).own_hand
    assert not estimator_for(game, RandomAgent(game), nlth_host.pm, [tag]).own_hand
    assert estimator_for(game, tag, nlth_host.pm, [RandomAgent(game)]) is None


# ---- local best response ------------------------------------------------------------------------
def test_lbr_wins_exactly_750_mbb_per_game_against_always_fold():
    report = succeeded(run("lbr", "--game", "nlth", "-p", "players=2", "--agent", "fold", "--hands", "100", "--seed", "2", "--json"))
    assert report["mbb_per_game"] == 750.0 and report["se"] == 0.0 and report["hands"] == 100


@pytest.mark.parametrize("agent,hands", [("call", "200"), ("random", "600")])
def test_lbr_wins_large_amounts_against_call_and_random(agent, hands):
    report = succeeded(run("lbr", "--game", "nlth", "-p", "players=2", "--agent", agent, "--hands", hands, "--seed", "1", "--json"))
    assert report["mbb_per_game"] > 2000 and report["mbb_per_game"] > 3 * report["se"]


def test_a_trained_blueprint_is_not_significantly_more_exploitable_than_random(hu_blueprint):
    values = {}
    for agent in ("random", f"blueprint:store={hu_blueprint}"):
        values[agent] = succeeded(run("lbr", "--game", "nlth", "-p", "players=2", "--agent", agent, "--hands", "400",
                                      "--seed", "4", "--json"))  # fmt: skip
    r, b = values["random"], values[f"blueprint:store={hu_blueprint}"]
    assert b["mbb_per_game"] - r["mbb_per_game"] < 2 * math.hypot(b["se"], r["se"])


def test_lbr_gives_the_same_result_with_workers(nlth_host):
    one = succeeded(run("lbr", "--game", "nlth", "-p", "players=2", "--agent", "random", "--hands", "100", "--json"))
    two = succeeded(run("lbr", "--game", "nlth", "-p", "players=2", "--agent", "random", "--hands", "100", "--workers", "2", "--json"))
    assert (one["mbb_per_game"], one["se"]) == (two["mbb_per_game"], two["se"])


def test_lbr_bad_input_is_one_line_and_exit_status_2():
    for args, message in (
        (("--agent", "blueprint"), "needs store=PATH"),
        (("--agent", "call", "-o", "sizes=huge"), "bet sizes"),
        (("--agent", "call", "-o", "colour=red"), "unknown LBR option"),
        (("--agent", "nobody"), "nobody"),
        (("--agent", "call", "--hands", "0"), "--hands must be positive"),
    ):
        result = run("lbr", "--game", "nlth", "-p", "players=2", *args)
        assert result.exit_code == 2, result.output
        assert message in result.output and "Traceback" not in result.output
    result = run("lbr", "--game", "kuhn", "--agent", "policy")
    assert result.exit_code == 2


def test_lbr_needs_an_agent_that_exposes_its_strategy():
    from gamesolve.agents import Agent
    from gamesolve_nlth.evaluate.lbr import LBRAgent

    class Secret(Agent):
        def act(self, state, seat):
            return CHECK_CALL

    with pytest.raises(ValueError, match="does not expose its strategy"):
        LBRAgent(NLTHGame(2), [Secret()])


def test_lbr_plays_six_handed_against_five_copies():
    report = succeeded(run("lbr", "--game", "nlth", "--agent", "call", "--hands", "30", "-o", "samples=200", "--json"))
    assert report["players"] == 6 and report["hands"] == 30 and report["mbb_per_game"] > 0


# ---- the preflop chart --------------------------------------------------------------------------
def test_the_preflop_chart_of_a_blueprint_renders(hu_blueprint, tmp_path):
    from gamesolve_nlth.evaluate.chart import cell_name, raise_frequencies

    assert [cell_name(0, 0), cell_name(0, 1), cell_name(1, 0), cell_name(12, 11)] == ["AA", "AKs", "AKo", "32o"]
    grids = raise_frequencies(hu_blueprint)
    assert list(grids) == ["SB"] and grids["SB"].shape == (13, 13)
    assert ((grids["SB"] >= 0) & (grids["SB"] <= 1)).all()
    for name in ("chart.png", "chart.html"):
        result = run("plot", hu_blueprint, "--kind", "strategy", "--out", tmp_path / name)
        assert result.exit_code == 0, result.output
    assert (tmp_path / "chart.png").read_bytes()[:4] == b"\x89PNG"
    assert "AKs: raise" in (tmp_path / "chart.html").read_text()


def test_fold_is_registered_and_folds_only_to_bets():
    game = NLTHGame(2)
    state = game.new_initial_state(cards="AsKd QhJh", button=1)
    agent = FoldAgent(game)
    assert agent.act(state, 1) == FOLD  # the small blind owes 50
    state.apply("cc")
    assert agent.act(state, 0) == CHECK_CALL  # the big blind may check


def test_lbr_shoves_the_nuts_and_gives_up_the_worst_hand_against_a_calling_station():
    from gamesolve_nlth.evaluate.lbr import LBRAgent

    game = NLTHGame(2)
    for cards, expected in (("AhKh 2c3d QhJhTh4s8c", "all-in"), ("2c3d AhKs QhJhTh4s8c", "check")):
        state = game.new_initial_state(cards=cards, button=1)
        for _ in range(6):  # limp, check; check, check on the flop and the turn: the river, seat 0 to act
            state.apply("cc")
        lbr = LBRAgent(game, [CallAgent(game)])
        lbr.new_hand(0, 0)
        action = lbr.act(state, 0)
        assert (action == state.max_raise_to + 2) == (expected == "all-in")
        assert (action == CHECK_CALL) == (expected == "check")
        assert lbr.decisions[-1]["wp"] == pytest.approx(1.0 if expected == "all-in" else 0.0, abs=0.01)


def test_lbr_sampled_equity_draws_opponents_from_the_whole_range():
    """Against two opponents' ranges the pot share is sampled: with one opponent holding AA
    or 34s with equal weight (the sampler is not told which is likelier), KK's share is the
    mean of its two exact equities, not the equity against the hand listed first."""
    from gamesolve_nlth.evaluate.lbr import _sample_share

    hole, board = np.array(parse_cards("KsKd"), np.int64), np.array(parse_cards("2c7d9h"), np.int64)
    aces, low = hole_index(*parse_cards("AsAc")), hole_index(*parse_cards("3h4h"))
    weights = np.zeros(len(HOLES))
    weights[[aces, low]] = 1.0
    eq = equity_vector(hole, board)
    share = _sample_share(hole, board, np.cumsum(weights)[None, :], HOLES, 20_000, 1)
    assert share == pytest.approx((eq[aces] + eq[low]) / 2, abs=0.02)  # SE about 0.003
