"""Multiway hold'em search: the subgame from a real hand's round root over every seat (its
tree equals a plain walk of the rules engine, dead money and side pots included), deals drawn
from the range beliefs with card removal, and the search agent playing three-player pots on
the turn and the river with external-sampling MCCFR."""

from __future__ import annotations

import numpy as np
import pytest

from gamesolve.game.factored import CHANCE, DECISION, ROLLOUT, TERMINAL, subtree_ends
from gamesolve.game.terminals import terminal_value
from gamesolve_nlth import engine as E
from gamesolve_nlth.betting.subgame import ALLIN, StreetSizes, SubgameSizes, apply_action, sized_actions
from gamesolve_nlth.cards import parse_cards
from gamesolve_nlth.evaluator import evaluate7
from gamesolve_nlth.search import multiway as M
from gamesolve_nlth.search.agent import NLTHSearchAgent, NLTHSearchConfig
from gamesolve_nlth.spot.hands import HAND_CARDS, NUM_HANDS, hand_index
from gamesolve_nlth.state import CHECK_CALL, NLTHGame, raise_action

# Seats 0-3 hole cards, then flop, turn, river.
DECK4 = parse_cards("AsKd" "QhQc" "7s7d" "JcTc" "2h7c9s" "Td" "3c")
SIZES = SubgameSizes({1: StreetSizes((1.0,), ()), 2: StreetSizes((0.5, ALLIN), (ALLIN,)), 3: StreetSizes((1.0,), (ALLIN,))}, 1, 0.67)


def turn_root(folds=(3,), players=4, stacks=None):
    """A hand where everybody calls preflop except ``folds`` (who fold at their first turn),
    the flop goes check-check, dealt from DECK4: the turn's first decision."""
    game = NLTHGame(players=players, button=0, **({"stacks": stacks} if stacks else {}))
    state, k = game.new_initial_state(), 0
    while state.street < 2 or state.current_player() < 0:
        p = state.current_player()
        if p < 0:
            state, k = state.child(DECK4[k]), k + 1
        elif p in folds and state.street == 0 and state.call_amount > 0:
            state = state.apply("f")
        else:
            state = state.apply("cc")
    return state


def walk_engine(root, sizes, board):
    """Every (path, kind, actor, commitments, folded) of the subgame by a plain recursive walk
    of the engine, in preorder (the oracle for the builder's copies of river subtrees)."""
    out = []
    n = int(root[E.H_N])
    rs = np.array([int(root[E.STACK + q]) for q in range(n)])
    rc = np.array([int(root[E.COMMIT + q]) for q in range(n)])

    def rec(s, cards):
        actor = int(E.next_actor(s))
        kind = DECISION if actor >= 0 else CHANCE if actor == E.CHANCE else TERMINAL
        out.append((kind, actor if actor >= 0 else -1, tuple(int(s[E.COMMIT + q]) for q in range(n))))
        if kind == DECISION:
            p = E.actor(s)
            street = sizes.streets[E.street(s)] if E.raises(s) <= sizes.raise_cap else None  # no raise before the root
            for k, amount in sized_actions(s, street, int(rc[p]), rs[p], sizes.allin_threshold):
                rec(apply_action(s, k, amount)[0], cards)
        elif kind == CHANCE:
            free = [c for c in range(52) if not (int(s[E.H_USED]) >> c) & 1]
            for card in (c for c in range(52) if c not in cards):
                child = s.copy()
                E.deal_card(child, card if card in free else free[0])
                rec(child, cards + (card,))

    rec(root.copy(), tuple(board))
    return out


def test_the_subgame_tree_equals_a_plain_walk_of_the_rules_engine():
    root = turn_root()
    form = M.build_multiway(root.s, SIZES, board=tuple(root.board))
    form.check()
    expected = walk_engine(root.s, SIZES, root.board)
    assert form.num_nodes == len(expected)
    got = [(int(k), int(p), tuple(int(c) for c in commit)) for k, p, commit in zip(form.node_kind, form.node_player, _commits(form))]
    assert got == expected


def _commits(form):
    """Chips each seat has put in at every node (settled values are minus the commitments)."""
    return -form.settled_value


def test_folded_seats_are_settled_and_their_chips_are_dead_money_for_the_winner():
    root = turn_root(folds=(3,))
    form = M.build_multiway(root.s, SIZES, board=tuple(root.board))
    assert form.settled[0, 3] and not form.settled[0, :3].any()
    # A fold ending: the last player in takes every chip put in, the folded seat's included.
    ends = np.flatnonzero((form.node_kind == TERMINAL) & (form.term_kind == 0))
    node = ends[0]
    winner = int(np.flatnonzero(form.payoff[node] > 0)[0])
    assert form.payoff[node, winner] == pytest.approx(_commits(form)[node].sum() - _commits(form)[node, winner])


def test_a_showdown_pays_what_the_rules_engine_pays_side_pots_included():
    root = turn_root(folds=(), stacks="10000,10000,400,10000")  # seat 2 is short: a side pot
    form = M.build_multiway(root.s, SIZES, board=tuple(root.board))
    river = DECK4[12]
    ends = subtree_ends(form)
    under = np.zeros(form.num_nodes, dtype=bool)  # the subtrees below the real river card
    for k in np.flatnonzero((form.node_kind[np.repeat(np.arange(form.num_nodes), form.num_actions)] == CHANCE) & (form.edge_label == river)):
        c = form.child_list[k]
        under[c : ends[c]] = True
    shows = np.flatnonzero(under & (form.node_kind == TERMINAL) & (form.term_kind == 1))
    commit = _commits(form)
    node = max(shows, key=lambda n: commit[n].sum())  # the biggest pot
    assert commit[node, 2] < commit[node].max()  # seat 2 all-in for less: a side pot
    board = DECK4[8:13]
    strength = np.array([[evaluate7(*DECK4[2 * q : 2 * q + 2], *board) for q in range(4)]], dtype=np.int32)
    values = [terminal_value(form.terminal_arrays(), node, q, strength, np.zeros(1, np.int64), 0) for q in range(4)]
    s = root.s.copy()  # the engine holds the real hole cards: replay the line to its showdown
    for is_card, label in _path_to(form, node):
        if is_card:
            E.deal_card(s, label)
        else:
            _engine_step(s, label)
    assert E.is_terminal(s)
    assert values == pytest.approx([float(v) for v in E.payoffs(s)])


def _path_to(form, target):
    """``[(is a card, label), ...]`` from the root to ``target``."""
    parent = np.repeat(np.arange(form.num_nodes), form.num_actions)
    edge = np.zeros(form.num_nodes, dtype=np.int64)
    edge[form.child_list] = np.arange(len(form.child_list))
    path = []
    while target > 0:
        k = edge[target]
        path.append((form.node_kind[parent[k]] == CHANCE, int(form.edge_label[k])))
        target = parent[k]
    return path[::-1]


def _engine_step(s, label):
    from gamesolve_nlth.state import FOLD, action_raise_to

    if label == FOLD:
        E.apply_fold(s)
    elif label == CHECK_CALL:
        E.apply_call(s)
    else:
        E.apply_raise_to(s, action_raise_to(label))


def test_deals_follow_the_product_of_the_ranges_with_card_removal():
    root = turn_root()
    beliefs = np.zeros((4, NUM_HANDS))
    aces, kings = hand_index(*parse_cards("AhAc")), hand_index(*parse_cards("KhKc"))
    either = [hand_index(*parse_cards("AhKh")), hand_index(*parse_cards("AcKc"))]
    beliefs[0, aces] = 1.0
    beliefs[1, kings] = 1.0
    beliefs[2, either] = 1.0  # both collide with seat 0's or 1's hand... except none: AhKh holds Ah
    beliefs[2, hand_index(*parse_cards("5h5c"))] = 1.0
    beliefs[3] = 1.0  # folded: ignored
    deals = M.belief_deals(beliefs, np.array([True, True, True, False]), tuple(root.board), 2)
    batch = deals.batch(3, 0, 400)
    assert set(batch.private[:, 0, 2]) == {aces} and set(batch.private[:, 1, 2]) == {kings}
    assert set(batch.private[:, 2, 2]) == {hand_index(*parse_cards("5h5c"))}  # the others collide
    used = set(root.board) | set(parse_cards("AhAcKhKc5h5c"))
    assert not set(batch.public[:, 0]) & used and len(set(batch.public[:, 0])) > 20
    board = list(root.board)
    for i in range(5):
        full = board + [int(batch.public[i, 0])]
        assert batch.strength[i, 0] == evaluate7(*parse_cards("AhAc"), *full)


def test_deals_are_a_function_of_the_seed_and_the_deal_number():
    root = turn_root()
    deals = M.belief_deals(np.ones((4, NUM_HANDS)), np.array([True, True, True, False]), tuple(root.board), 2)
    a, b = deals.batch(5, 10, 20), deals.batch(5, 0, 30)
    assert np.array_equal(a.private, b.private[10:]) and np.array_equal(a.public, b.public[10:])
    # Uniform ranges: each seat's hands are (roughly) uniform over the hands the board leaves.
    many = deals.batch(1, 0, 20_000)
    counts = np.bincount(many.private[:, 0, 2], minlength=NUM_HANDS)
    free = ~np.array([any(int(c) in root.board for c in HAND_CARDS[h]) for h in range(NUM_HANDS)])
    assert counts[~free].sum() == 0 and counts[free].max() < 5 * counts[free].mean()


@pytest.mark.parametrize("players", [4, 6])
def test_sampled_showdowns_pay_on_average_what_the_exact_expectation_pays(players):
    """The search's multiway showdown is sampled: the mean payoff over drawn deals is within a
    few standard errors of the exact expectation (every card-disjoint tuple of hands, brute
    force), side pots and a folded seat's dead money included. Error figures by player count
    and deals: benchmarks/multiway_sampled_showdown.py."""
    from tests.multiway_oracle import _showdowns, expected_payoffs

    rng = np.random.default_rng(players)
    board = parse_cards("Ks9h4d2c2s")
    free = np.flatnonzero(~np.isin(HAND_CARDS, board).any(axis=1))
    beliefs = np.zeros((players, NUM_HANDS))
    for q in range(players - 1):
        beliefs[q, rng.choice(free, 12, replace=False)] = rng.uniform(0.1, 1.0, 12)
    stake = np.array([200.0, 900.0, 500.0, 900.0, 900.0][: players - 1] + [150.0])  # side pots; the last seat folded
    contender = np.arange(players) < players - 1
    strength = np.array([evaluate7(*HAND_CARDS[h], *board) if h in free else 0 for h in range(NUM_HANDS)])
    exact = expected_payoffs(beliefs, stake, contender, HAND_CARDS, strength)
    deals = 20_000
    batch = M.belief_deals(beliefs, contender, tuple(board), 1).batch(11, 0, deals)
    for p in range(players - 1):
        pay = np.empty(deals)
        _showdowns(stake[None, :], contender[None, :], p, batch.strength.astype(np.int32), pay)
        se = pay.std(ddof=1) / np.sqrt(deals)
        assert abs(pay.mean() - exact[p]) < 4 * se, (p, pay.mean(), exact[p], se)
    assert abs(exact.sum() - 150.0) < 1e-9  # the live seats share the folded seat's 150 chips


class CallingBlueprint:
    """Checks and calls (so hands reach the river), calling bets with hand-dependent
    probabilities for Bayes' rule."""

    def new_hand(self, seat, hand):
        pass

    def act(self, state, seat):
        return CHECK_CALL

    def range_probabilities(self, state, seat, holes):
        if state.call_amount == 0:
            return [CHECK_CALL], np.ones((len(holes), 1))
        h = np.array([hand_index(int(a), int(b)) for a, b in holes])
        call = 0.3 + 0.7 * (h % 7) / 6
        return [0, CHECK_CALL], np.stack([1 - call, call], axis=1)


def play_three_handed(agent, seat, opponent):
    game = agent.game
    agent.new_hand(seat, 0)
    state, k = game.new_initial_state(), 0
    deck = DECK4[:6] + DECK4[8:]
    while not state.is_terminal():
        p = state.current_player()
        action = (deck[k] if p < 0 else agent.act(state, seat) if p == seat else opponent(state))
        k += p < 0
        agent.observe(state, action)
        state = state.child(action)
    return state


def test_three_handed_turns_and_rivers_are_searched_with_mccfr():
    config = NLTHSearchConfig.from_options({"seconds": "0", "mccfr_iterations": "3000", "streets": "2,3"})
    agent = NLTHSearchAgent(NLTHGame(players=3), CallingBlueprint(), config, seed=2)
    solves = []
    original = agent._solve

    def spy():
        original()
        solves.append((agent.root.street, agent.solved))

    agent._solve = spy
    final = play_three_handed(agent, 1, lambda s: CHECK_CALL)
    assert final.is_terminal()
    by_street = {}
    for d in agent.decisions:
        by_street.setdefault(d.round, set()).add(d.searched)
    assert by_street[2] == {True} and by_street[3] == {True} and by_street[0] == {False}
    assert {street for street, _ in solves} == {2, 3}
    assert all(s.iterations == 3000 and s.form.num_players == 3 for _, s in solves)


def test_a_multiway_off_tree_bet_is_added_to_the_subgame_where_it_was_taken():
    config = NLTHSearchConfig.from_options({"seconds": "0", "mccfr_iterations": "500", "streets": "2,3"})
    agent = NLTHSearchAgent(NLTHGame(players=3), CallingBlueprint(), config, seed=2)

    def odd(state):  # a turn bet no abstraction offers
        if state.street == 2 and state.min_raise_to is not None and max(state.bets) == 0:
            return raise_action(333)
        return CHECK_CALL

    solves = []
    original = agent._solve

    def spy():
        original()
        solves.append((agent.root.street, {k: set(v) for k, v in agent.added.items()}, agent.solved))

    agent._solve = spy
    play_three_handed(agent, 2, odd)
    turn = [(added, solved) for street, added, solved in solves if street == 2]
    # The bet came before the agent's first turn decision: the round's solve includes it.
    assert turn
    (path, labels), = turn[-1][0].items()
    assert labels == {raise_action(333)}
    node = 0
    form = turn[-1][1].form
    for label in path:
        node = int(form.children(node)[[int(a) for a in form.labels(node)].index(label)])
    assert raise_action(333) in [int(a) for a in form.labels(node)]
    assert all(d.searched for d in agent.decisions if d.round >= 2)


def test_same_seed_same_multiway_play():
    def run():
        config = NLTHSearchConfig.from_options({"seconds": "0", "mccfr_iterations": "800", "streets": "2,3"})
        agent = NLTHSearchAgent(NLTHGame(players=3), CallingBlueprint(), config, seed=4)
        return play_three_handed(agent, 0, lambda s: CHECK_CALL).history

    assert run() == run()


# ---- depth-limited multiway flops: leaves valued by rollouts of the blueprint's continuations ----
FLOP_DECK = parse_cards("AsKd" "QhQc" "7s7d" "JcTc" "2c3d" "4h5h" "2h7c9s" "Td" "3c")


def six_max_to_the_flop(agent, seat):
    """Seats 1, 2, 3 limp to the flop (the others fold; the agent's preflop call is imposed,
    not asked), shown to the agent action by action."""
    game = agent.game
    agent.new_hand(seat, 0)
    state, k = game.new_initial_state(), 0
    while state.street < 1 or state.current_player() < 0:
        p = state.current_player()
        if p < 0:
            action, k = FLOP_DECK[k], k + 1
        else:
            action = 0 if p in (4, 5, 0) and state.call_amount > 0 else CHECK_CALL
        agent.observe(state, action)
        state = state.child(action)
    return state


@pytest.fixture(scope="module")
def flop_agent(trained):
    from gamesolve_nlth.search.agent import make_search_agent

    out, _ = trained
    agent = make_search_agent(NLTHGame(players=6, button=0), 1, {"store": str(out), "seconds": "0", "mccfr_iterations": "2000"})
    state = six_max_to_the_flop(agent, 1)
    return agent, state


def test_a_multiway_flop_subgame_stops_at_the_turn_with_a_choice_of_continuations(flop_agent):
    agent, state = flop_agent
    assert agent.plan.mode == "multiway-limited"
    form = agent._subgame().form
    rollout = np.flatnonzero(form.term_kind == ROLLOUT)
    assert len(rollout) and not (form.node_kind == CHANCE).any()  # no turn card inside
    # A leaf with three players able to act: 4 x 4 x 4 joint choices, each chooser's nodes
    # sharing one set of rows.
    entry = form.rollout.entry[rollout]
    assert (entry >= 0).all()
    choosers = form.rollout.choice[rollout].max(axis=0)
    assert set(np.flatnonzero(choosers == 3)) == {1, 2, 3}
    decisions = np.flatnonzero(form.node_kind == DECISION)
    shared = decisions[form.row_owner[decisions] != decisions]
    assert len(shared) > 0 and all(form.node_player[form.row_owner[n]] == form.node_player[n] for n in shared)


def test_a_rollout_value_is_the_blueprint_played_out_by_the_chosen_continuations(flop_agent):
    """The kernel's rollout against a walk of the strategy store in Python (its own unpacking
    of the continuation bits, buckets from the agent's card tables)."""
    from gamesolve.game.rollout import rollout_value

    agent, state = flop_agent
    form = agent._subgame().form
    ro = form.rollout
    store, cards = agent.blueprint.store, agent.blueprint.cards
    batch, full = form.deals.sample(11, 0, 4)
    checked = 0
    for node in np.flatnonzero(form.term_kind == ROLLOUT)[::7][:12]:
        for d in range(4):
            board = [int(c) for c in full[d]]
            for p in (1, 2, 3):
                got = rollout_value(ro, form.payoff, node, p, batch.cont, batch.cont_strength, d)
                c = int(ro.entry[node])
                while store.node_kind[c] == DECISION:
                    actor = int(store.node_player[c])
                    seat = int(ro.player_of[actor])
                    hole = [int(x) for x in HAND_CARDS[batch.private[d, seat, 1]]]
                    bucket = cards.bucket(int(store.node_round[c]), hole, board)
                    a = store.continuation(int(ro.choice[node, seat]), c, bucket)
                    c = int(store.child_list[store.child_start[c] + a])
                q = int(np.flatnonzero(ro.player_of == p)[0])
                v = terminal_value(agent_form(agent).terminal_arrays(), c, q, batch.cont_strength[d : d + 1], np.zeros(1, np.int64), 0)
                expected = ro.ratio[node] * (v + ro.entry_stake[node, p]) - form.payoff[node, p]
                assert got == pytest.approx(expected, abs=1e-9)
                checked += 1
    assert checked >= 36


def agent_form(agent):
    from gamesolve_nlth.search.continuation import continuation_game

    return continuation_game(agent.blueprint).form


def play_out(agent, state, board_cards):
    """The hand from ``state`` to its end: the agent plays seat 1, the others check and call,
    chance deals ``board_cards[len(board)]``; every transition is shown to the agent."""
    while not state.is_terminal():
        p = state.current_player()
        if p < 0:
            action = board_cards[len(state.board)]
        elif p == 1:
            action = agent.act(state, 1)
        else:
            action = CHECK_CALL
        agent.observe(state, action)
        state = state.child(action)


def test_the_agent_searches_a_multiway_flop_and_plays_it(flop_agent):
    agent, state = flop_agent
    play_out(agent, state, FLOP_DECK[12:])
    assert agent.decisions and agent.decisions[0].round == 1
    assert all(d.searched for d in agent.decisions)  # the flop and any later street


# ---- heads-up flops, depth-limited (heads_up_flop=limited) ------------------------------------
HU_DECK = parse_cards("AsKd" "QhQc" "2h7c9s" "Td" "3c")  # seats 0 and 1, flop, turn, river


@pytest.fixture(scope="module")
def hu_flop_agent(hu_blueprint):
    """The search agent over the heads-up blueprint with depth-limited heads-up flops, at the
    flop after a limp and a check (it is the big blind, first to act there)."""
    from gamesolve_nlth.search.agent import make_search_agent

    agent = make_search_agent(NLTHGame(players=2, button=0), 1, {
        "store": str(hu_blueprint), "seconds": "0", "iterations": "8", "mccfr_iterations": "2000",
        "heads_up_flop": "limited"})  # fmt: skip
    return agent, heads_up_to_the_flop(agent)


def heads_up_to_the_flop(agent):
    """A limp and a check to the flop (imposed, not asked), shown to the agent in seat 1."""
    agent.new_hand(1, 0)
    state, k = agent.game.new_initial_state(), 0
    while state.street < 1 or state.current_player() < 0:
        if state.current_player() < 0:
            action, k = HU_DECK[k], k + 1
        else:
            action = CHECK_CALL
        agent.observe(state, action)
        state = state.child(action)
    return state


def test_a_limited_heads_up_flop_stops_at_the_turn_with_both_players_choosing_continuations(hu_flop_agent):
    agent, state = hu_flop_agent
    agent.act(state, 1)
    assert agent.plan.mode == "multiway-limited"
    form = agent._subgame().form
    rollout = np.flatnonzero(form.term_kind == ROLLOUT)
    assert len(rollout) and not (form.node_kind == CHANCE).any()  # no turn card inside
    # At a leaf where neither player is all in, each picks one of the k = 4 continuations.
    choosers = form.rollout.choice[rollout].max(axis=0)
    assert set(np.flatnonzero(choosers == 3)) == {0, 1}


def test_a_limited_heads_up_flop_is_searched_and_the_hand_played_to_its_end(hu_blueprint):
    from gamesolve_nlth.search.agent import make_search_agent

    agent = make_search_agent(NLTHGame(players=2, button=0), 1, {
        "store": str(hu_blueprint), "seconds": "0", "iterations": "8", "mccfr_iterations": "2000",
        "heads_up_flop": "limited", "bets": "50%", "raises": "none"})  # fmt: skip
    play_out(agent, heads_up_to_the_flop(agent), HU_DECK[4:])
    searched = {d.round: d.searched for d in agent.decisions}
    assert searched.get(1) is True and all(searched[r] for r in searched if r >= 1)


@pytest.mark.parametrize(("raw", "mode"), [("limited", "limited"), ("sampled", "sampled"), ("off", "off"),
                                           ("1", "sampled"), ("true", "sampled"), ("0", "off")])  # fmt: skip
def test_heads_up_flop_takes_a_mode_or_a_boolean(raw, mode):
    assert NLTHSearchConfig.from_options({"heads_up_flop": raw}).heads_up_flop == mode


def test_an_unknown_heads_up_flop_mode_is_refused_naming_the_modes():
    with pytest.raises(ValueError, match="off, sampled, limited"):
        NLTHSearchConfig.from_options({"heads_up_flop": "deep"})


# ---- the first round: the blueprint, unless an opponent raises far off its sizes ---------------
def first_round_to_the_agent(agent, button_action):
    """Seats 3, 4 and 5 fold, the button (seat 0) plays ``button_action``: three players are
    left and the agent (seat 1, the small blind) is to act."""
    game = agent.game
    agent.new_hand(1, 0)
    state, k = game.new_initial_state(), 0
    script = {3: 0, 4: 0, 5: 0, 0: button_action}
    while state.current_player() != 1:
        p = state.current_player()
        action = FLOP_DECK[k] if p < 0 else script[p]
        k += p < 0
        agent.observe(state, action)
        state = state.child(action)
    return state


def blueprint_raises(agent, state):
    """The raise-to amounts the blueprint has at ``state`` for the player to act."""
    from gamesolve_nlth.state import action_raise_to

    bp = agent.blueprint
    node, line = bp.locate_line(state, draw=False)
    store = bp.store
    p = state.current_player()
    return [action_raise_to(bp._real_action(state, p, node, line, k)) for k in range(int(store.child_start[node]), int(store.child_start[node + 1])) if store.edge_class[k] == 2]


@pytest.fixture(scope="module")
def first_round_agent(trained):
    from gamesolve_nlth.search.agent import make_search_agent

    out, _ = trained
    return make_search_agent(NLTHGame(players=6, button=0), 1, {"store": str(out), "seconds": "0", "mccfr_iterations": "2000"})


def test_a_first_round_raise_far_from_every_blueprint_size_is_searched(first_round_agent):
    agent = first_round_agent
    game = agent.game
    probe = game.new_initial_state()
    for c in FLOP_DECK[:12]:
        probe = probe.child(c)
    probe = probe.child(0).child(0).child(0)  # the button's decision
    far = max(blueprint_raises(agent, probe)) // 2 + 333
    assert min(abs(far - s) for s in blueprint_raises(agent, probe)) > 100
    state = first_round_to_the_agent(agent, raise_action(far))
    assert agent.plan.mode == "first-round" and agent.root.history == state.history
    agent.act(state, 1)
    assert agent.decisions[-1].round == 0 and agent.decisions[-1].searched
    form = agent.solved.form
    assert (form.term_kind == ROLLOUT).any() and not (form.node_kind == CHANCE).any()


def test_an_open_limp_where_the_blueprint_has_none_is_searched(first_round_agent):
    agent = first_round_agent
    state = first_round_to_the_agent(agent, CHECK_CALL)  # an open limp: the tiny tree has none
    assert agent.plan.mode == "first-round" and agent.root.history == state.history
    agent.act(state, 1)
    assert agent.decisions[-1].round == 0 and agent.decisions[-1].searched


def test_a_limp_is_followed_in_the_beliefs_as_the_blueprints_smallest_raise():
    from gamesolve_nlth.search.agent import _closest

    actions = [0, raise_action(250), raise_action(400), raise_action(10_000)]
    assert _closest(actions, CHECK_CALL) == 1
    assert _closest([0, CHECK_CALL, raise_action(250)], CHECK_CALL) == 1
    assert _closest([CHECK_CALL, raise_action(250)], 0) == 0


def test_a_first_round_raise_near_a_blueprint_size_plays_the_blueprint(first_round_agent):
    agent = first_round_agent
    probe = agent.game.new_initial_state()
    for c in FLOP_DECK[:12]:
        probe = probe.child(c)
    probe = probe.child(0).child(0).child(0)
    near = min(blueprint_raises(agent, probe)) + 60
    state = first_round_to_the_agent(agent, raise_action(near))
    agent.act(state, 1)
    assert agent.plan is None and not agent.decisions[-1].searched
