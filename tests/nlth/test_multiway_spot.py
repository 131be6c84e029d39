"""Three-player hold'em spots: the multiway showdown over ranges with card removal, and river
and turn spots solved by vector CFR, checked against brute force over every tuple of hands."""

import functools

import attrs
import numpy as np
import pytest

from gamesolve.game.factored import CHANCE, CONTEST, DECISION, FIXED, TERMINAL, FormError, TerminalArrays
from gamesolve.game.removal import item_removal
from gamesolve.game.removal_multi import three_player_cfv
from gamesolve.solve.cfr import TABULAR_ALGORITHMS
from gamesolve.solve.vcfr import VectorCFR
from gamesolve_nlth.cards import parse_cards
from gamesolve_nlth.spot.hands import HAND_CARDS, NUM_HANDS
from gamesolve_nlth.spot.tree import ALLIN, Spot, SpotError, StreetSizes, build_spot, hand_strengths, spot_ranges
from tests.multiway_oracle import brute_force_cfv

SMALL = StreetSizes(bets=(0.5, ALLIN), raises=(ALLIN,))


def random_board(rng, cards=5):
    return tuple(int(c) for c in rng.choice(52, cards, replace=False))


def random_range(rng, board, hands, cards=None):
    """Random weights on ``hands`` random hands off the board (from ``cards`` only, if given:
    a few cards make the players' hands collide often)."""
    pool = [h for h, (x, y) in enumerate(HAND_CARDS) if x not in board and y not in board and (cards is None or {x, y} <= cards)]
    out = np.zeros(NUM_HANDS)
    out[rng.choice(pool, min(hands, len(pool)), replace=False)] = rng.uniform(0.1, 1.0, min(hands, len(pool)))
    return out


def river_terminal(board, kind, payoff, contender):
    strength = hand_strengths(board)
    rm = item_removal(HAND_CARDS, 52, np.zeros(1, np.int32), strength[None, :], np.ones(1))
    term = TerminalArrays(
        np.array([kind], np.int8), np.array([payoff], np.float64), np.array([contender], np.bool_),
        np.full(1, -1, np.int32), np.zeros((0, 0, 3)),
    )  # fmt: skip
    return term, rm, strength


SHOWDOWNS = [
    (CONTEST, [500.0, 500.0, 500.0], [True, True, True]),  # one pot
    (CONTEST, [200.0, 900.0, 900.0], [True, True, True]),  # an all-in for less: a side pot
    (CONTEST, [900.0, 450.0, 200.0], [True, True, True]),  # two side pots
    (CONTEST, [300.0, 900.0, 900.0], [False, True, True]),  # a folded player's dead money
    (CONTEST, [900.0, 900.0, 300.0], [True, True, False]),
    (FIXED, [-300.0, 1200.0, -900.0], [False, True, False]),  # everybody else folded
]


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("showdown", range(len(SHOWDOWNS)))
def test_the_multiway_showdown_equals_brute_force_on_random_3_player_river_spots(seed, showdown):
    rng = np.random.default_rng(100 * seed + showdown)
    board = random_board(rng)
    term, rm, strength = river_terminal(board, *SHOWDOWNS[showdown])
    # Two of the four seeds draw the ranges from a dozen cards, so the hands collide often.
    cards = set(int(c) for c in rng.choice([c for c in range(52) if c not in board], 12, replace=False)) if seed % 2 else None
    reach = np.stack([random_range(rng, board, 40, cards) for _ in range(3)])
    for p in range(3):
        out = np.zeros(NUM_HANDS)
        three_player_cfv(term, rm, 0, p, reach, out)
        states = np.concatenate([np.flatnonzero(reach[p]), rng.choice(NUM_HANDS, 10, replace=False)])
        expected = brute_force_cfv(term.kind[0], term.payoff[0], term.contender[0], p, reach, HAND_CARDS, strength, states)
        assert out[states] == pytest.approx(expected, rel=1e-9, abs=1e-9)


@functools.cache
def river_strengths(board):
    return hand_strengths(board)


def brute_force_value(form, rows, row_offset, reach, p, board, best_response):
    """``p``'s value (``best_response``: of a best response) against the others' ``rows``, by
    walking the tree with every terminal valued by the brute-force oracle; a dealt card is
    uniform over the cards neither on the board nor in the three hands, and removes the hands
    holding it."""
    mine = np.flatnonzero(reach[p])

    def walk(node, r, cards):
        if form.node_kind[node] == TERMINAL:
            strength = river_strengths(cards) if len(cards) == 5 else None  # no showdown before the river
            return brute_force_cfv(form.term_kind[node], form.payoff[node], form.contender[node], p, r, HAND_CARDS, strength, mine)
        kids = form.children(node)
        if form.node_kind[node] == CHANCE:
            values = 0.0
            for card, c in zip(form.labels(node), kids):
                holding = (HAND_CARDS == card).any(axis=1)
                values = values + np.where(holding[mine], 0.0, walk(c, r * ~holding, cards + (int(card),)))
            return values / (52 - len(cards) - 6)
        actor = form.node_player[node]
        sigma = [rows[row_offset[node] + mine * len(kids) + a] for a in range(len(kids))]
        if actor == p and best_response:
            return np.max([walk(c, r, cards) for c in kids], axis=0)
        if actor == p:
            return sum(s * walk(c, r, cards) for s, c in zip(sigma, kids))
        values = 0.0
        for a, c in enumerate(kids):
            child = r.copy()
            child[actor] *= rows[row_offset[node] + np.arange(NUM_HANDS) * len(kids) + a]
            values = values + walk(c, child, cards)
        return values

    mass = brute_force_cfv(FIXED, [1.0, 1.0, 1.0], [True] * 3, p, reach, HAND_CARDS, None, mine)  # a fixed terminal paying 1
    return float(reach[p, mine] @ walk(0, reach, tuple(board))) / float(reach[p, mine] @ mass)


def assert_vector_nash_conv_equals_brute_force(spot, reach, solver):
    _, best = solver.exploitability()
    rows = solver.average_rows()
    form = solver.form
    brute_best = [brute_force_value(form, rows, solver.row_offset, reach, p, spot.board, True) for p in range(3)]
    brute_values = [brute_force_value(form, rows, solver.row_offset, reach, p, spot.board, False) for p in range(3)]
    assert best == pytest.approx(brute_best, abs=1e-9)
    assert sum(brute_values) == pytest.approx(0.0, abs=1e-9)  # zero-sum: NashConv is the sum of the best responses
    assert sum(best) == pytest.approx(sum(b - v for b, v in zip(brute_best, brute_values)), abs=1e-9)


@pytest.fixture(scope="module")
def solved_three_player_river():
    rng = np.random.default_rng(7)
    board = tuple(parse_cards("QsJh2h8d3c"))
    spot = Spot(board, 999, 9000, SMALL, SMALL, SMALL, raise_cap=1, players=3)
    cards = set(int(c) for c in rng.choice([c for c in range(52) if c not in board], 12, replace=False))
    reach = spot_ranges(spot, *(random_range(rng, board, 12, cards) for _ in range(3)))
    solver = VectorCFR(build_spot(spot), TABULAR_ALGORITHMS["dcfr"], root_reach=reach)
    solver.run(30)
    return spot, reach, solver


def test_the_vector_nash_conv_of_a_3_player_river_spot_equals_brute_force(solved_three_player_river):
    assert_vector_nash_conv_equals_brute_force(*solved_three_player_river)


def test_the_vector_nash_conv_of_a_3_player_turn_spot_equals_brute_force():
    rng = np.random.default_rng(3)
    board = tuple(parse_cards("QsJh2h8d"))
    turn, river = StreetSizes(bets=(1.0,), raises=()), StreetSizes(bets=(), raises=())  # the river checked down
    spot = Spot(board, 999, 9000, turn, turn, river, raise_cap=0, players=3)
    cards = set(int(c) for c in rng.choice([c for c in range(52) if c not in board], 10, replace=False))
    reach = spot_ranges(spot, *(random_range(rng, board, 6, cards) for _ in range(3)))
    solver = VectorCFR(build_spot(spot), TABULAR_ALGORITHMS["dcfr"], root_reach=reach)
    solver.run(3)
    assert_vector_nash_conv_equals_brute_force(spot, reach, solver)


def test_a_3_player_river_spot_converges_to_a_small_nash_conv():
    sizes = StreetSizes(bets=(1.0,), raises=())
    spot = Spot(tuple(parse_cards("QsJh2h8d3c")), 999, 9000, sizes, sizes, sizes, raise_cap=0, players=3)
    r = np.zeros(NUM_HANDS)
    r[[h for h, (x, y) in enumerate(HAND_CARDS) if x >= 36 and y >= 36]] = 1.0  # every hand of jacks and better
    solver = VectorCFR(build_spot(spot), TABULAR_ALGORITHMS["dcfr"], root_reach=spot_ranges(spot, r, r, r))
    solver.run(10)
    early = sum(solver.exploitability()[1])
    solver.run(90)
    late = sum(solver.exploitability()[1])
    assert 0 <= late < early / 10 and late / spot.pot < 0.005


def test_three_players_put_equal_shares_of_the_pot_in_and_act_in_seat_order():
    spot = Spot(tuple(parse_cards("QsJh2h8d3c")), 999, 9000, SMALL, SMALL, SMALL, players=3)
    form = build_spot(spot)
    assert form.num_players == 3
    everybody_checks = [0]
    while form.node_kind[everybody_checks[-1]] == DECISION:
        node = everybody_checks[-1]
        everybody_checks.append(form.children(node)[list(form.labels(node)).index(1)])
    assert [form.node_player[n] for n in everybody_checks[:-1]] == [0, 1, 2]
    end = everybody_checks[-1]
    assert form.term_kind[end] == CONTEST and list(form.payoff[end]) == [333, 333, 333]


def test_a_3_player_turn_deals_each_river_card_with_the_cards_of_three_hands_removed():
    sizes = StreetSizes(bets=(1.0,), raises=())
    form = build_spot(Spot(tuple(parse_cards("QsJh2h8d")), 999, 9000, sizes, sizes, sizes, raise_cap=0, players=3))
    chance = np.flatnonzero(form.node_kind == CHANCE)
    assert len(chance) > 0 and np.all(form.removal.chance_weight[chance] == pytest.approx(1 / 42))


@pytest.mark.parametrize("players, pot", [(4, 1000), (3, 1000), (1, 1000)])
def test_spots_of_other_sizes_or_unshareable_pots_are_refused(players, pot):
    with pytest.raises(SpotError):
        Spot(tuple(parse_cards("QsJh2h8d3c")), pot, 9000, players=players)


def test_vcfr_refuses_item_removal_for_four_players():
    form = build_spot(Spot(tuple(parse_cards("QsJh2h8d3c")), 999, 9000, SMALL, SMALL, SMALL, players=3))
    with pytest.raises(FormError, match="two or three players"):
        VectorCFR(attrs.evolve(form, num_players=4))


def test_a_3_player_spot_needs_three_ranges():
    spot = Spot(tuple(parse_cards("QsJh2h8d3c")), 999, 9000, players=3)
    with pytest.raises(SpotError):
        spot_ranges(spot, np.ones(NUM_HANDS), np.ones(NUM_HANDS))
