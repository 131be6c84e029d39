"""Spot solving: hold'em spots as factored games with card removal, solved by vector CFR and
checked against a brute-force best response over every pair of hands."""

import numpy as np
import pytest

from gamesolve.game.factored import CHANCE, DECISION, FIXED, TERMINAL
from gamesolve.solve.cfr import TABULAR_ALGORITHMS
from gamesolve.solve.vcfr import VectorCFR
from gamesolve_nlth.cards import parse_cards
from gamesolve_nlth.spot.hands import HAND_CARDS, NUM_HANDS, RangeError, hand_class, parse_range
from gamesolve_nlth.spot.tree import ALLIN, Spot, SpotError, StreetSizes, build_spot, hand_strengths, spot_ranges

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


def test_a_river_spot_converges_below_a_third_of_a_percent_of_the_pot():
    spot = river_spot()
    r = parse_range(RANGE)
    solver = VectorCFR(build_spot(spot), TABULAR_ALGORITHMS["dcfr"], root_reach=spot_ranges(spot, r, r))
    solver.run(300)
    exploitability, _ = solver.exploitability()
    assert 0 <= exploitability / spot.pot < 0.003


def test_the_turn_deals_every_river_card_once_and_removes_it_from_both_ranges():
    sizes = StreetSizes(bets=(1.0,), raises=())
    spot = Spot(tuple(parse_cards("QsJh2h8d")), 1000, 9000, sizes, sizes, sizes, raise_cap=0)
    form = build_spot(spot)
    chance = np.flatnonzero(form.node_kind == CHANCE)
    assert len(chance) > 0
    for node in chance:
        assert sorted(form.labels(node)) == sorted(set(range(52)) - set(spot.board))
        assert form.removal.chance_weight[node] == pytest.approx(1 / 44)


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


@pytest.mark.parametrize("board", ["QsJh", "QsQsJh", "QsJh2h8d3c4c"])
def test_bad_boards_are_refused(board):
    with pytest.raises(SpotError):
        Spot(tuple(parse_cards(board)), 1000, 9000)
