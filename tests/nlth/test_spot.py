"""Spot solving: hold'em spots as factored games with card removal, solved by vector CFR and
checked against a brute-force best response over every pair of hands."""

import numpy as np
import pytest

from gamesolve.game.factored import CHANCE, DECISION, FIXED, TERMINAL, FormError
from gamesolve.search.solve_loop import iterations_to_check
from gamesolve.solve.cfr import TABULAR_ALGORITHMS
from gamesolve.solve.spec import Progress
from gamesolve.solve.vcfr import VectorCFR
from gamesolve_nlth.cards import parse_cards
from gamesolve_nlth.spot.hands import HAND_CARDS, NUM_HANDS, RangeError, hand_class, parse_range
from gamesolve_nlth.spot.solve import action_names, strategy_at, walk_line
from gamesolve_nlth.spot.suits import card_classes
from gamesolve_nlth.spot.tree import ALLIN, Spot, SpotError, StreetSizes, build_spot, disjoint_mass, hand_strengths, spot_ranges

SIZES = StreetSizes(bets=(0.5, 1.0, ALLIN), raises=(1.0, ALLIN))
RANGE = "22+,A2s+,K9s+,QTs+,JTs,ATo+,KJo+"


def river_spot(board="QsJh2h8d3c", **kw):
    return Spot(tuple(parse_cards(board)), 1000, 9000, SIZES, SIZES, SIZES, **kw)


def compatible(board):
    """[1326, 1326]: the two hands share no card and neither touches the board."""
    cards = HAND_CARDS.astype(int)
    masks = (np.int64(1) << cards[:, 0]) | (np.int64(1) << cards[:, 1])
    board_mask = sum(np.int64(1) << c for c in board)
    clear = (masks & board_mask) == 0
    return ((masks[:, None] & masks[None, :]) == 0) & clear[:, None] & clear[None, :]


def brute_force_best_response(form, rows, row_offset, reach, p, board):
    """The best-response value of ``p`` against the other's ``rows``, by walking the river
    tree with an explicit pair-by-pair payoff matrix at every terminal (no card-removal
    algebra, no sorted sweep)."""
    q = 1 - p
    compat = compatible(board).astype(float)
    strength = hand_strengths(board)
    wins = (strength[:, None] > strength[None, :]) & (compat > 0)
    loses = (strength[:, None] < strength[None, :]) & (compat > 0)

    def walk(node, r_q):
        kind = form.node_kind[node]
        if kind == TERMINAL:
            if form.term_kind[node] == FIXED:
                return form.payoff[node, p] * (compat @ r_q)
            stake = min(form.payoff[node, 0], form.payoff[node, 1])
            return stake * (wins.astype(float) @ r_q - loses.astype(float) @ r_q)
        kids = form.children(node)
        n = len(kids)
        if form.node_player[node] == p:
            return np.max([walk(c, r_q) for c in kids], axis=0)
        base = row_offset[node]
        values = 0.0
        for a, c in enumerate(kids):
            sigma = rows[base + np.arange(NUM_HANDS) * n + a]
            values = values + walk(c, r_q * sigma)
        return values

    v = walk(0, reach[q])
    mass = reach[p] @ compat @ reach[q]
    return float(reach[p] @ v) / mass


@pytest.fixture(scope="module")
def solved_river():
    spot = river_spot()
    form = build_spot(spot)
    r = parse_range(RANGE)
    reach = spot_ranges(spot, r, r)
    solver = VectorCFR(form, TABULAR_ALGORITHMS["dcfr"], root_reach=reach)
    solver.run(60)
    return spot, form, reach, solver


def test_the_vector_exploitability_of_a_river_spot_equals_brute_force(solved_river):
    spot, form, reach, solver = solved_river
    _, values = solver.exploitability()
    rows = solver.average_rows()
    for p in range(2):
        expected = brute_force_best_response(form, rows, solver.row_offset, reach, p, spot.board)
        assert values[p] == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_a_river_spot_converges_below_a_third_of_a_percent_of_the_pot(dtype):
    spot = river_spot()
    r = parse_range(RANGE)
    solver = VectorCFR(build_spot(spot), TABULAR_ALGORITHMS["dcfr"], root_reach=spot_ranges(spot, r, r), dtype=dtype)
    solver.run(300)
    exploitability, _ = solver.exploitability()
    assert 0 <= exploitability / spot.pot < 0.003


def test_the_strategy_at_a_line_weights_each_hand_by_both_players_play_along_it_with_card_removal(solved_river):
    spot, form, reach, solver = solved_river
    path = walk_line(spot, form, ("bet 500", "raise to 2500"))  # ip raises oop's half-pot bet: oop to act
    actor, overall, _ = strategy_at(spot, form, solver, reach, path)
    assert actor == 0
    (root, bet), (facing, raise_) = path
    oop_reach = reach[0] * solver.node_strategy(root)[:, bet]
    ip_reach = reach[1] * solver.node_strategy(facing)[:, raise_]
    node = int(form.child_list[form.child_start[facing] + raise_])
    probs = solver.node_strategy(node)
    pairs = compatible(spot.board) * np.outer(oop_reach, ip_reach)  # every deal, by brute force
    brute = pairs.sum(axis=1) @ probs / pairs.sum()
    assert list(overall) == action_names(spot, form, path) and list(overall)[:2] == ["fold", "call"]
    assert np.allclose(list(overall.values()), brute, rtol=1e-12, atol=1e-15)


def test_a_line_names_actions_as_the_output_does_and_refuses_others_with_the_choices(solved_river):
    spot, form, _, _ = solved_river
    assert walk_line(spot, form, ("check", "bet 1000 (100%)", "raise 4000")) == walk_line(
        spot, form, ("Check", "bet  1000", "raise to 4000 (400%)"))  # fmt: skip
    with pytest.raises(SpotError, match="the choices are check, bet 500 .50%., bet 1000 .100%., allin"):
        walk_line(spot, form, ("bet 700",))
    with pytest.raises(SpotError, match="ends the hand"):
        walk_line(spot, form, ("check", "check"))


def test_hands_outside_both_ranges_are_left_out_and_play_uniformly(solved_river):
    spot, form, reach, solver = solved_river
    held = np.flatnonzero(reach.any(axis=0))
    assert np.array_equal(solver.states, held) and len(held) < NUM_HANDS
    rows = solver.average_rows()
    outside = np.setdiff1d(np.arange(NUM_HANDS), held)[0]
    assert np.array_equal(solver.row(rows, 0, outside), np.full(form.num_actions[0], 1 / form.num_actions[0]))
    assert np.allclose(solver.node_strategy(0)[held], rows[np.arange(NUM_HANDS)[held, None] * form.num_actions[0] + np.arange(form.num_actions[0])])


def small_turn_spot(board="QsJh2h8s"):
    sizes = StreetSizes(bets=(1.0,), raises=())
    return Spot(tuple(parse_cards(board)), 1000, 9000, sizes, sizes, sizes, raise_cap=0)


def test_mirror_image_river_cards_are_dealt_once_with_the_same_values():
    # Clubs and diamonds are interchangeable on QsJh2h8s: 35 classes of the 48 river cards.
    spot = small_turn_spot()
    r = spot_ranges(spot, parse_range(RANGE), parse_range("22+,A2s+,KTo+"))
    full, mirrored = build_spot(spot), build_spot(spot, symmetric=True)
    assert set(mirrored.num_actions[mirrored.node_kind == CHANCE]) == {35}
    assert set(full.num_actions[full.node_kind == CHANCE]) == {48}
    solvers = [VectorCFR(form, TABULAR_ALGORITHMS["dcfr"], root_reach=r) for form in (full, mirrored)]
    for solver in solvers:
        solver.run(40)
    (e_full, v_full), (e_mirror, v_mirror) = (s.exploitability() for s in solvers)
    assert v_mirror == pytest.approx(v_full, abs=1e-9)
    assert np.allclose(solvers[1].node_strategy(0), solvers[0].node_strategy(0), atol=1e-9)


def test_only_the_spots_own_suit_symmetries_merge_cards():
    # QsJh2h: clubs and diamonds are alike. After the Qc, clubs and spades look alike on the
    # board, but the flop's play told them apart: they stay apart.
    flop = tuple(parse_cards("QsJh2h"))
    kept = {card: [t for t, _ in twins] for card, twins in card_classes(flop, flop)}
    assert len(kept) == 36 and kept[parse_cards("Ac")[0]] == parse_cards("Ad")
    turn = flop + tuple(parse_cards("Qc"))
    assert all(twins == [] for _, twins in card_classes(turn, flop))
    assert len(card_classes(turn, turn)) < 48  # as a turn spot, clubs and spades are alike


def test_ranges_that_tell_mirror_suits_apart_are_refused_on_a_symmetric_spot():
    spot = small_turn_spot()
    r = spot_ranges(spot, parse_range("AcKc"), parse_range(RANGE))
    with pytest.raises(FormError, match="tell apart"):
        VectorCFR(build_spot(spot, symmetric=True), root_reach=r)


def test_threads_over_turn_and_river_cards_give_the_single_thread_result(monkeypatch):
    spot = small_turn_spot()
    r = parse_range(RANGE)
    form = build_spot(spot, symmetric=True)
    one = VectorCFR(form, root_reach=spot_ranges(spot, r, r), dtype=np.float32)
    monkeypatch.setattr(VectorCFR, "parallel_min", 0)
    two = VectorCFR(form, root_reach=spot_ranges(spot, r, r), dtype=np.float32, threads=2)
    assert two.parallel_jobs == 35 * int(np.sum(form.node_kind[form.node_level == 0] == CHANCE))
    one.run(20)
    two.run(20)
    assert np.array_equal(one.tables.regrets, two.tables.regrets)
    assert np.array_equal(one.tables.avg, two.tables.avg)
    assert one.exploitability() == two.exploitability()


def test_a_line_through_a_dealt_card_takes_the_card_out_of_both_ranges():
    spot = small_turn_spot("QsJh2h8d")
    r = parse_range(RANGE)
    reach = spot_ranges(spot, r, r)
    form = build_spot(spot)
    solver = VectorCFR(form, TABULAR_ALGORITHMS["dcfr"], root_reach=reach)
    solver.run(10)
    path = walk_line(spot, form, ("check", "bet 1000", "call", "Kd"))
    actor, overall, _ = strategy_at(spot, form, solver, reach, path)
    assert actor == 0 and action_names(spot, form, path) == ["check", "bet 3000 (100%)"]  # the river's pot is 3000
    (root, check), (ip, bet), (oop, call), _ = path
    oop_reach = reach[0] * solver.node_strategy(root)[:, check] * solver.node_strategy(oop)[:, call]
    ip_reach = reach[1] * solver.node_strategy(ip)[:, bet]
    node = int(form.child_list[form.child_start[path[-1][0]] + path[-1][1]])
    pairs = compatible(spot.board + (parse_cards("Kd")[0],)) * np.outer(oop_reach, ip_reach)
    brute = pairs.sum(axis=1) @ solver.node_strategy(node) / pairs.sum()
    assert np.allclose(list(overall.values()), brute, rtol=1e-12, atol=1e-15)
    with pytest.raises(SpotError, match="ends the street: add the card"):
        walk_line(spot, form, ("check", "check"))
    with pytest.raises(SpotError, match="name a card the board leaves"):
        walk_line(spot, form, ("check", "check", "Qs"))


def test_the_turn_deals_every_river_card_once_and_removes_it_from_both_ranges():
    sizes = StreetSizes(bets=(1.0,), raises=())
    spot = Spot(tuple(parse_cards("QsJh2h8d")), 1000, 9000, sizes, sizes, sizes, raise_cap=0)
    form = build_spot(spot)
    chance = np.flatnonzero(form.node_kind == CHANCE)
    assert len(chance) > 0
    for node in chance:
        assert sorted(form.labels(node)) == sorted(set(range(52)) - set(spot.board))
        assert form.removal.chance_weight[node] == pytest.approx(1 / 44)


class CountingProgress(Progress):
    def __init__(self):
        self.started, self.done = [], 0

    def start(self, total, unit, description):
        self.started.append((total, unit))

    def advance(self, amount, **fields):
        self.done += amount


def test_building_a_spot_reports_every_node_it_builds():
    sizes = StreetSizes(bets=(0.5, 1.0, ALLIN), raises=(1.0, ALLIN))
    spot = Spot(tuple(parse_cards("QsJh2h8d")), 1000, 9000, sizes, sizes, sizes, raise_cap=3)
    progress = CountingProgress()
    form = build_spot(spot, progress=progress)
    assert form.num_nodes > 10_000  # more than one progress step
    assert progress.started == [(None, "nodes")]
    assert progress.done == form.num_nodes


def test_bets_become_all_in_past_the_threshold():
    spot = river_spot(allin_threshold=0.05)  # any pot-fraction bet commits > 5% of 9,000
    form = build_spot(spot)
    root_actions = sorted(int(a) for a in form.labels(0))
    assert root_actions == [1, 2 + 9000]  # check, or all-in (a bet of the whole 9,000 behind)


def test_the_raise_cap_limits_raises_after_the_first_bet():
    spot = river_spot(raise_cap=0)
    form = build_spot(spot)
    decision = np.flatnonzero(form.node_kind == DECISION)
    raises = [sum(1 for c in form.edge_class[form.child_start[n] : form.child_start[n + 1]] if c == 2) for n in decision]
    facing_bet = [n for n in decision if form.labels(n)[0] == 0]  # fold is first when facing a bet
    assert all(raises[list(decision).index(n)] == 0 for n in facing_bet)


@pytest.mark.parametrize("text, hands", [("AA", 6), ("AKs", 4), ("AKo", 12), ("AK", 16), ("22+", 78), ("ATs+", 16),
                                         ("KTo+", 36), ("99-66", 24), ("A5s-A2s", 16), ("AsKs", 1), ("any", 1326)])
def test_ranges_in_the_usual_syntax(text, hands):
    assert int((parse_range(text) > 0).sum()) == hands


def test_range_weights_and_classes():
    w = parse_range("AA,KQs:0.5,T9o")
    assert w.sum() == pytest.approx(6 + 2 + 12)
    assert {hand_class(h) for h in np.flatnonzero(w)} == {"AA", "KQs", "T9o"}


@pytest.mark.parametrize("text", ["AX", "AAs", "KQs:2", "A5s-K2s", "", "AsAs"])
def test_bad_ranges_are_refused(text):
    with pytest.raises(RangeError):
        parse_range(text)


def test_the_disjoint_mass_of_two_ranges_is_the_brute_force_sum_over_card_disjoint_pairs():
    rng = np.random.default_rng(3)
    r0, r1 = rng.uniform(size=(2, NUM_HANDS)) * (rng.uniform(size=(2, NUM_HANDS)) < 0.05)
    cards = [set(map(int, HAND_CARDS[h])) for h in range(NUM_HANDS)]
    brute = sum(r0[a] * r1[b] for a in np.flatnonzero(r0) for b in np.flatnonzero(r1) if not cards[a] & cards[b])
    assert disjoint_mass(r0, r1) == pytest.approx(brute, rel=1e-12)


@pytest.mark.parametrize("board", ["QsJh", "QsQsJh", "QsJh2h8d3c4c"])
def test_bad_boards_are_refused(board):
    with pytest.raises(SpotError):
        Spot(tuple(parse_cards(board)), 1000, 9000)


def test_exploitability_checks_come_every_check_every_iterations_until_two_predict_the_target():
    assert iterations_to_check([], 0.3, 10) == 10
    assert iterations_to_check([(10, 35.8)], 0.3, 10) == 10
    # Early checks predict the target far off: at most half the iterations so far ahead.
    assert iterations_to_check([(90, 1.41), (100, 1.12)], 0.3, 10) == 50
    # Exploitability falling as t^-2 from 1.2% at 100 reaches 0.31% at 196.7: checked at 193.
    assert iterations_to_check([(150, 1.2 * (100 / 150) ** 2), (160, 1.2 * (100 / 160) ** 2)], 0.31, 10) == 33
    # Close to the target, or not improving: every check_every iterations.
    assert iterations_to_check([(190, 0.333), (200, 0.303)], 0.3, 10) == 10
    assert iterations_to_check([(190, 0.33), (200, 0.34)], 0.3, 10) == 10


@pytest.mark.parametrize("which", ["average", "current"])
def test_node_strategy_is_the_public_rows_to_the_bit_at_every_decision(which):
    # The search agent reads single nodes (node_strategy) instead of expanding every row.
    spot = river_spot()
    r = parse_range(RANGE)
    form = build_spot(spot)
    reach = spot_ranges(spot, r, r)
    held = int(np.flatnonzero(reach[0])[0])  # a hand whose root row is frozen (current rows re-impose it)
    frozen = {(0, held): np.eye(form.num_actions[0])[-1]}
    solver = VectorCFR(form, TABULAR_ALGORITHMS["dcfr"], root_reach=reach, dtype=np.float32, frozen=frozen)
    solver.run(20)
    rows = solver.average_rows() if which == "average" else solver.current_rows()
    decisions = [node for node in range(form.num_nodes) if solver.row_offset[node] >= 0]
    assert len(decisions) > 3
    for node in decisions:
        n_act = form.num_actions[node]
        expected = rows[solver.row_offset[node] : solver.row_offset[node] + NUM_HANDS * n_act].reshape(NUM_HANDS, n_act)
        assert np.array_equal(solver.node_strategy(node, which), expected), node
