"""The hold'em search agent's range beliefs against exact enumeration, on a reduced hold'em.

The engine always deals from 52 cards, so the reduction is made by the profile: the stand-in
blueprint's first-round actions never come from a hand outside a 12-card sub-deck, so every
deal with a hole card outside it has probability 0 and the hand is a hold'em whose hole
cards come from those 12 cards (the board from the rest of the deck, three of its cards from
the sub-deck). The heads-up hand: the first round and the flop play the blueprint, the turn
is searched, the opponent's odd-sized turn bet is added and the turn re-solved with the
agent's own check frozen for its actual hand, and the beliefs reach the river root.

The check (independent of :class:`ItemRanges`): enumerate every deal of the hole cards
consistent with the board, weight it by each player's probability of each action of the
history with its cards (the blueprint's where the round was not searched, the latest turn
search's average where it was, and for the agent's own actual hand what it played with), and
compare the conditional distribution over deals with the one the agent's two range vectors
make (their product over disjoint hands).
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

from gamesolve.game.factored import DECISION
from gamesolve.solve.vcfr import VectorCFR
from gamesolve_nlth.cards import parse_cards
from gamesolve_nlth.search.agent import NLTHSearchAgent, NLTHSearchConfig
from gamesolve_nlth.spot.hands import HAND_CARDS, NUM_HANDS, hand_index
from gamesolve_nlth.spot.tree import spot_ranges
from gamesolve_nlth.state import CHECK_CALL, FOLD, NLTHGame, raise_action
from tests.nlth.test_search_agent import play

SUB_DECK = parse_cards("AsAhKsKhQsQhJsJhTsTh9s9h")
BOARD = parse_cards("Qs7c2d" "Kh" "Js")  # flop, turn, river: three cards of the sub-deck
HOLES = (parse_cards("AsAh"), parse_cards("QhTs"))  # seat 0 (button, small blind), seat 1 (the agent)
AGENT = 1
IN_SUB_DECK = np.isin(HAND_CARDS, SUB_DECK).all(axis=1)


def check_call_probability(street: int, seat: int, hand: int) -> float:
    """The stand-in blueprint's probability of checking or calling with ``hand``: zero outside
    the sub-deck in the first round, hand-dependent everywhere."""
    if street == 0 and not IN_SUB_DECK[hand]:
        return 0.0
    return 0.15 + 0.8 * ((7 * hand + 3 * street + seat) % 11) / 10


class StandInBlueprint:
    """Checks and calls, with the hand-dependent probabilities above (the rest raises to
    three big blinds) for Bayes' rule."""

    def new_hand(self, seat, hand):
        pass

    def act(self, state, seat):
        return CHECK_CALL

    def range_probabilities(self, state, seat, holes):
        call = np.array([check_call_probability(state.street, seat, hand_index(int(a), int(b))) for a, b in holes])
        other = FOLD if state.call_amount > 0 else raise_action(max(state.bets) + 300)
        return [other, CHECK_CALL], np.stack([1 - call, call], axis=1)


def opponent(state):
    """Checks and calls, except on the turn: bets 333 when checked to and raises 17 chips over
    the minimum when bet into (sizes the search's abstraction does not offer)."""
    if state.street == 2 and state.min_raise_to is not None:
        if max(state.bets) == 0:
            return raise_action(333)
        if state.bets[state.current_player()] == 0:
            return raise_action(state.min_raise_to + 17)
    return CHECK_CALL


def walk(form, labels):
    node = 0
    for label in labels:
        node = int(form.children(node)[[int(a) for a in form.labels(node)].index(label)])
    return node


def column(form, node, label):
    return [int(a) for a in form.labels(node)].index(label)


@pytest.fixture(scope="module")
def hand():
    """Plays the hand; records the history, every turn search, what the agent played with on
    the turn for its actual hand, and its beliefs (and the river solve) at its first river
    decision."""
    game = NLTHGame(players=2)
    config = NLTHSearchConfig.from_options({"seconds": "0", "iterations": "8", "bets": "50%", "raises": "none", "streets": "2,3"})
    agent = NLTHSearchAgent(game, StandInBlueprint(), config, seed=7)
    record = {"turn_solves": [], "played": {}, "river": None}
    solve, search_action = agent._solve, agent._search_action

    def spy_solve():
        frozen = dict(agent.frozen)
        solve()
        if agent.root.street == 2:
            record["turn_solves"].append(agent.solved)
        elif agent.root.street == 3 and record["river"] is None:
            record["river"] = (agent.ranges, agent.solved, frozen)

    def spy_search_action(state):
        action = search_action(state)
        if state.street == 2:
            labels = [int(x) for _, _, x in agent.actions]
            node = walk(agent.solved.form, labels)
            rows = agent.solved.rows(node, "current")
            record["played"][len(labels)] = rows[hand_index(*HOLES[AGENT])].copy()
        return action

    agent._solve, agent._search_action = spy_solve, spy_search_action
    _, log = play(agent, AGENT, opponent, [*HOLES[0], *HOLES[1], *BOARD], until=lambda _: record["river"] is not None)
    history = [(state, state.current_player(), int(action)) for state, action in log if state.current_player() >= 0 and state.street < 3]
    assert record["river"] is not None, "the hand reached the agent's river decision"
    assert len(record["turn_solves"]) >= 2, "the odd turn bet made the agent re-solve the turn"
    assert record["played"], "the agent acted on the turn before the re-solve"
    return game, agent, history, record


def action_probability(record, history, t, hands):
    """Each player's probability of the ``t``-th action of the history with its hand in a deal:
    the blueprint before the turn; on the turn the latest search's average, and for the
    agent's actual hand the probabilities it played with."""
    state, player, action = history[t]
    hand = hands[player]
    if state.street < 2:
        p = check_call_probability(state.street, player, hand)
        return p if action == CHECK_CALL else 1 - p
    solved = record["turn_solves"][-1]
    turn = [a for s, _, a in history[:t] if s.street == 2]
    node = walk(solved.form, turn)
    col = column(solved.form, node, action)
    if player == AGENT and hand == hand_index(*HOLES[AGENT]):
        return float(record["played"][len(turn)][col])
    return float(solved.rows(node, "average")[hand, col])


def exact_deal_distribution(record, history):
    """``{(hand of seat 0, hand of seat 1): probability}`` by enumerating every deal of the hole
    cards from the sub-deck that the board allows; every deal has the same chance probability."""
    cards = [c for c in SUB_DECK if c not in BOARD]
    pairs = [hand_index(a, b) for a, b in combinations(cards, 2)]
    weights = {}
    for h0 in pairs:
        for h1 in pairs:
            if set(HAND_CARDS[h0]) & set(HAND_CARDS[h1]):
                continue
            w = 1.0
            for t in range(len(history)):
                w *= action_probability(record, history, t, (h0, h1))
            weights[(h0, h1)] = w
    total = sum(weights.values())
    return {deal: w / total for deal, w in weights.items()}


def deal_distribution_of(reach):
    """``float[1326, 1326]`` the joint distribution two range vectors make: their product over
    disjoint hands, normalised."""
    disjoint = ~(HAND_CARDS[:, None, :, None] == HAND_CARDS[None, :, None, :]).any(axis=(2, 3))
    joint = reach[0][:, None] * reach[1][None, :] * disjoint
    return joint / joint.sum()


def test_the_stand_in_profile_deals_hole_cards_from_the_sub_deck_only():
    first_round = np.array([check_call_probability(0, seat, h) for seat in (0, 1) for h in range(NUM_HANDS)]).reshape(2, -1)
    assert not first_round[:, ~IN_SUB_DECK].any() and first_round[:, IN_SUB_DECK].all()


def test_river_beliefs_equal_the_exact_distribution_over_deals(hand):
    _, _, history, record = hand
    ranges, _, _ = record["river"]
    exact = exact_deal_distribution(record, history)
    assert np.abs(deal_distribution_of(ranges.reach) - as_matrix(exact)).max() < 1e-9
    # the history has what the check is about: actions on every street before the river,
    # an odd-sized turn raise by the opponent (added to the turn's subgame, re-solved)
    assert {s.street for s, _, _ in history} == {0, 1, 2}
    assert any(s.street == 2 and p != AGENT and a >= 2 for s, p, a in history)


def exact_factors(exact):
    """``float[2, 1326]``: each player's factor of the exact distribution (a deal's
    probability is one player's factor times the other's), read off ratios of deals that
    share a hand, relative to a reference hand of seat 0."""
    factors = np.zeros((2, NUM_HANDS))
    ref = next(h0 for h0, _ in exact)
    for h0 in {a for a, _ in exact}:
        h1 = next(b for a, b in exact if a == h0 and (ref, b) in exact and exact[(ref, b)] > 0)
        factors[0, h0] = exact[(h0, h1)] / exact[(ref, h1)]
    for h1 in {b for _, b in exact}:
        h0 = next(a for a, b in exact if b == h1 and factors[0, a] > 0)
        factors[1, h1] = exact[(h0, h1)] / factors[0, h0]
    return factors


def test_the_river_subgame_values_from_the_beliefs_equal_those_from_the_exact_distribution(hand):
    """Each player's best-response value in the river subgame against the strategy the agent
    solved there, from the agent's beliefs and from the exact distribution (per deal, in
    chips): equal. (Solving again from the exact distribution is no check at 1e-9: regret
    matching jumps where regrets tie, and scaling the beliefs by 3 already changes the
    solve's second iterate; docs/search.md, "Chaos".)"""
    _, agent, history, record = hand
    ranges, solved, frozen = record["river"]
    assert not frozen  # the river's first solve: nothing of the agent's is frozen yet
    factors = exact_factors(exact_deal_distribution(record, history))
    assert np.abs(deal_distribution_of(factors) - as_matrix(exact_deal_distribution(record, history))).max() < 1e-12
    spot, seats = agent.plan.spot, agent.plan.seats
    form = solved.form
    profile = {
        (node, h): row
        for node in range(form.num_nodes) if form.node_kind[node] == DECISION
        for h, row in enumerate(solved.rows(node, "average"))
    }  # fmt: skip
    values = []
    for reach in (ranges.reach, factors):
        evaluator = VectorCFR(form, root_reach=spot_ranges(spot, reach[seats[0]], reach[seats[1]]), frozen=profile)
        values.append(evaluator.exploitability("current")[1])  # every row frozen: the solved profile
    assert np.allclose(values[0], values[1], rtol=0, atol=1e-9)
    assert abs(values[0][0] - values[0][1]) > 1  # the players' values differ: a real subgame


def as_matrix(exact):
    out = np.zeros((NUM_HANDS, NUM_HANDS))
    for (h0, h1), p in exact.items():
        out[h0, h1] = p
    return out
