"""AIVAT for hold'em over the 1,326 hole-card pairs (the core's estimator, as arrays).

The mathematics is :mod:`gamesolve.evaluate.aivat`'s: the agent's *worlds* are the hole-card
pairs it could hold; their weights are chance's (uniform over the pairs that share no card
with the other players' hole cards and the board dealt so far: card removal) times the
agent's probability of each action it took (its strategy over its whole range, read with
``range_probabilities``). The estimate of a hand is the agent's payoff averaged over its
worlds at the end, minus a correction at every chance event and every decision of the
agent, ``V(after) - E[V(after) | before]``; none at the other players' decisions.

The value function ``v`` (fixed before the match, never fitted on its hands) is the
*check-down value*: what the agent would win if nobody bet again, with the chips matched so
far (an unmatched excess goes back to its owner, folded players' chips stay in the pot):
``v = alpha[street] * ((2 m + dead) * equity - m)``, ``m`` the matched amount, the equity
the agent's exact pot share against the opponent's hand over every completion of the board
(enumerated on the flop, turn and river; the cached table of
:mod:`gamesolve_nlth.evaluate.preflop` before the flop), and ``v`` = the payoff itself at
the end of the hand. Check-down equity is a martingale under chance, so the expected value
after a street's cards is the value before them and a chance correction needs only the
values before and after the street's cards.

After the flop ``v`` adds the *stakes model* (:mod:`gamesolve_nlth.evaluate.stakes`): the
effective stack still behind times a table, fitted on calibration hands before the match,
of how much of it hands of given strengths win or lose beyond their check-down value. That
part is no martingale: the turn's and the river's corrections subtract its expectation over
the card (enumerated), the flop's an unbiased estimate of it (independent sampled flops).

Given a model of the opponent (``opponent``: ``tag``'s exposed model, say), ``v`` at a decision
on the streets of ``walk`` is instead the value of the rest of the street
(:mod:`gamesolve_nlth.evaluate.rest_of_street`): the agent's exact range strategy against the
model, walked to the end of the street, where the check-down value with the stakes model
takes over. The opponent's bets and raises it foresees no longer move the value; a card's
correction walks the street after every turn or river card, and after sampled flops (the
walk's excess over the check-down value, drawn as for the stakes model). Across the river
card (``cross``), the turn's walk ends in every world's mean of the river's walk over the
river cards; the turn card's expectation is then the exact one of the walk that stops there
plus the crossing walk's excess over it, sampled over turn cards. ``VALUE_FUNCTIONS`` names
the choices ``gamesolve match --aivat-values`` offers.

Corrections are computed where the pot is heads-up (the agent and one opponent still in the
hand): the opponent's hand then decides the showdown alone. Where three or more players
are in the hand (six-player pots before the flop), events go uncorrected; so do events
before the flop when the preflop table has not been built (``gamesolve abstraction
equity``). Leaving an event uncorrected keeps the estimate unbiased; it only reduces less
variance.
"""

from __future__ import annotations

import zlib
from math import comb

import numpy as np
from numba import njit

from gamesolve.array_loops import copy_into
from gamesolve.evaluate.aivat import AivatError
from gamesolve.game.state import CHANCE
from gamesolve_nlth import engine as E
from gamesolve_nlth.evaluate.equity import cached_equity_vector, turn_equities
from gamesolve_nlth.evaluate.hands import HOLES, hole_index, possible
from gamesolve_nlth.evaluate.preflop import preflop_table
from gamesolve_nlth.evaluate.rest_of_street import opponent_model, range_model, rest_of_street, rest_of_street_after_cards, with_cards
from gamesolve_nlth.evaluate.stakes import load_table
from gamesolve_nlth.state import NLTHGame, NLTHState

STREET_OF_BOARD = {0: 0, 3: 1, 4: 2, 5: 3}
FLOP_SAMPLES = 64  # flops drawn for the expectation of the stakes surplus after the flop
CARD_SAMPLES = 8  # turn cards drawn for the expectation of a crossing walk's excess after the turn


@njit(cache=True)
def showdown_payoffs(s, seat, holes, out):
    """The payoff of ``seat`` at the showdown of terminal state ``s`` with each of ``holes``
    as its hole cards (the engine's own pot and odd-chip rules)."""
    t = s.copy()
    base = E.CARDS + 2 * seat
    for k in range(holes.shape[0]):
        copy_into(t, s)
        t[base] = holes[k, 0]
        t[base + 1] = holes[k, 1]
        E._showdown(t)
        out[k] = t[E.PAYOFF + seat]


class HoleCardAIVAT:
    """AIVAT estimates for an agent with ``range_probabilities`` in hold'em.

    :param alphas: ``alpha[street]`` of the check-down value (1: the check-down value
        itself); fixed before the match.
    :param preflop: the preflop equity table (default: the cached one, if built).
    :param stakes: the stakes model's table (:mod:`gamesolve_nlth.evaluate.stakes`; default:
        the one shipped; None: check-down values alone).
    :param opponent: a model of the opponent (an agent's ``action_probabilities`` for its own
        cards, fixed before the match: ``tag``'s exposed model, say); with it, on the streets
        of ``walk`` (1 the flop, 2 the turn, 3 the river) ``v`` at a decision is the value of
        the rest of the street (:mod:`gamesolve_nlth.evaluate.rest_of_street`): the agent's
        exact range strategy against the model, the check-down value (with the stakes model)
        where the street ends and cards follow. A card's correction then walks every turn or
        river card, and ``flop_samples`` sampled flops.
    :param cross: streets of ``walk`` (2 the turn, 3 the river) whose card the walk crosses:
        where the previous street's betting ends with chips behind, ``v`` is the mean over
        every card of the street (each world's card removal) of the walk after it, instead
        of the check-down value with the stakes model. The expectation over the card before
        (the turn's, for ``cross=(3,)``) is then the exact one of the walk that does not
        cross plus an unbiased estimate of the excess: its mean over ``card_samples`` cards
        drawn from a seed of the state before the card.
    :param own_hand: the worlds are the hand the agent holds only (no imaginary hole cards):
        for an agent that exposes exactly only the strategy it plays with that hand (the search
        agent). Corrections at chance nodes and at its own decisions stay unbiased; its hole
        cards' luck is left to the match's duplicate deals.
    """

    def __init__(self, game: NLTHGame, agent, alphas=(1.0, 1.0, 1.0, 1.0), preflop="cached", stakes="shipped",
                 opponent=None, walk=(1, 2, 3), flop_samples=FLOP_SAMPLES, cross=(), card_samples=CARD_SAMPLES,
                 own_hand=False):  # fmt: skip
        self.game = game
        self.agent = agent
        self.alphas = tuple(float(a) for a in alphas)
        self.preflop = preflop_table() if isinstance(preflop, str) else preflop
        self.stakes = load_table() if isinstance(stakes, str) else stakes
        self.opponent = opponent
        self.walk = frozenset(int(s) for s in walk) if opponent is not None else frozenset()
        if not self.walk <= {1, 2, 3}:
            raise ValueError(f"the rest of the street is walked after the flop (streets 1 to 3), not {sorted(self.walk)}")
        self.flop_samples = int(flop_samples)
        self.cross = frozenset(int(s) for s in cross) if opponent is not None else frozenset()
        if not self.cross <= self.walk & {2, 3}:
            raise ValueError(f"the walk crosses the turn or the river card of a walked street (streets {sorted(self.walk & {2, 3})}), not {sorted(self.cross)}")
        self.card_samples = int(card_samples)
        self.own_hand = bool(own_hand)
        self._crossed: dict = {}  # the walks after every card of the hand's chance nodes (cleared per hand)
        self._ranges = range_model(agent)
        self.description = (f"check-down equity x alpha {list(self.alphas)}"
                            + (" + stakes model after the flop" if self.stakes is not None else "")
                            + (f"; the rest of the street against a model of the opponent on streets {sorted(self.walk)}" if self.walk else "")
                            + (f", across the cards of streets {sorted(self.cross)}" if self.cross else "")
                            + "; corrections in heads-up pots"
                            + ("; the hand held only (no imaginary hole cards)" if self.own_hand else "")
                            + ("" if self.preflop is not None else ", after the flop only (no preflop equity table)"))

    def estimate(self, log, seat: int) -> float:
        return self.terms(log, seat)["estimate"]

    # -- the estimate ------------------------------------------------------------------------
    def terms(self, log, seat: int) -> dict:
        """``estimate``, ``final`` (the payoff averaged over the worlds) and ``corrections``
        (``(label, value)`` per corrected event) of one hand."""
        final = log.final
        self._crossed.clear()
        others = [p for p in range(self.game.num_players) if p != seat]
        seen = [c for p in others for c in final.hole_cards(p)]
        w = possible(seen).astype(np.float64)  # chance: uniform over pairs that avoid the others' cards
        if self.own_hand:
            held = np.zeros_like(w)
            held[hole_index(*final.hole_cards(seat))] = 1.0
            w = held
        corrections: list[tuple[str, float]] = []
        steps = list(log.steps)
        i = 0
        while i < len(steps):
            state, action = steps[i]
            player = state.current_player()
            if player == CHANCE:
                j = i
                while j < len(steps) and steps[j][0].current_player() == CHANCE:
                    j += 1
                after = steps[j][0] if j < len(steps) else final
                w = self._chance_block(state, after, seat, w, corrections)
                i = j
                continue
            if player == seat:
                w = self._decision(state, action, seat, w, corrections)
            i += 1
        value = self._final_value(final, seat, w)
        return {"estimate": value - sum(v for _, v in corrections), "final": value, "corrections": corrections}

    def _chance_block(self, before: NLTHState, after: NLTHState, seat: int, w: np.ndarray, corrections) -> np.ndarray:
        """Cards dealt between two decisions: the hole cards, or one or more streets of board."""
        board0, board1 = before.board, after.board
        if len(board1) == len(board0):  # hole cards
            if not board0 and self.game.num_players == 2 and self.preflop is not None:
                # From the root, where v = 0 (all deals equally likely: mean equity 1/2).
                corrections.append(("hole cards", self._value(after, seat, w)))
            return w
        prev = list(board0)
        for size in (3, 4, 5):  # a street at a time: alpha may differ by street
            if len(prev) < size <= len(board1):
                cut = board1[:size]
                w_next = w * possible(cut[len(prev):])
                # With more than two players the flop has no correction: the check-down value's
                # martingale shortcut would ignore the folded players' cards, which are out of
                # the deck, and enumerating every flop costs too much (dropping a term keeps the
                # estimate unbiased).
                if seat_in_heads_up_pot(before, seat) and (prev or self.preflop is not None) and (size > 3 or self.game.num_players == 2):
                    corrections.append((f"board {size}", self._street_term(before, seat, w, w_next, prev, cut)))
                w, prev = w_next, cut
        return w

    def _street_term(self, before, seat, w, w_next, prev, cut) -> float:
        """V(after the street's cards) - E[V(after) | before]. Check-down values are a
        martingale under chance, so their expectation is the value before the cards (the
        state between two streets has the same commitments, so ``before`` serves for both
        boards), heads-up: with more players the folded players' cards are out of the deck,
        which the check-down equities ignore, so the turn's and the river's expectations
        enumerate the card over the deck as it is. The stakes model's surplus is no martingale:
        its expectation enumerates the turn or the river card, and samples the flop
        (:meth:`_expected_flop_surplus`)."""
        street = STREET_OF_BOARD[len(cut)]
        if street in self.walk and len(before.board) == len(prev) and self._chips(before, seat)[3] > 0:
            if len(cut) == 3:
                return self._walked_flop_term(before, seat, w, w_next, cut)
            return self._walked_card_term(before, seat, w, cut[-1])
        if self.stakes is None or self._chips(before, seat)[3] <= 0:
            if self.game.num_players > 2:
                expected = self._expected_after_card(before, seat, w, prev, street, stakes=False)
            else:
                expected = self._value(before, seat, w, board=prev, street=street, stakes=False)
            return self._value(before, seat, w_next, board=cut, street=street, stakes=False) - expected
        if len(cut) == 3:
            expected = self._value(before, seat, w, board=prev, street=street, stakes=False) + self._expected_flop_surplus(before, seat, w)
        else:
            expected = self._expected_after_card(before, seat, w, prev, street)
        return self._value(before, seat, w_next, board=cut, street=street) - expected

    def _stakes_surplus(self, state, seat):
        """The stakes model's surplus after a flop dealt at ``state``, as a function of the flop."""
        opponent, _, _, behind = self._chips(state, seat)
        hole = state.hole_cards(opponent)
        return lambda flop: self.stakes.surplus(flop, hole, None, 1, behind)

    def _flop_surplus_samples(self, state, seat, w, samples: int) -> np.ndarray:
        """:meth:`_card_samples` of the stakes model's surplus after the flop."""
        return self._card_samples(state, seat, w, samples, self._stakes_surplus(state, seat))

    @classmethod
    def _sampled_expectation(cls, state, seat, w, samples: int, surplus, count: int = 3) -> float:
        """An unbiased estimate of E[surplus after the next ``count`` cards | O]: ``C`` times
        the mean of :meth:`_card_samples`."""
        d = len(_unseen_cards(state, seat, state.board))
        return comb(d, count) / comb(d - 2, count) * float(cls._card_samples(state, seat, w, samples, surplus, count).mean())

    @staticmethod
    def _card_samples(state, seat, w, samples: int, surplus, count: int = 3) -> np.ndarray:
        """``samples`` independent draws whose mean is E[surplus after the next ``count``
        cards (the flop, or a turn card) | O] / C: per draw ``count`` cards uniform over the
        ``D`` cards the agent's opponents do not see, and ``sum_(k avoiding them) w_k
        surplus(cards)_k / sum_k w_k``; ``C = C(D, count) / C(D - 2, count)`` turns the mean
        into the expectation. The draws are seeded by the state before the cards and the
        opponents' cards, never by the cards dealt."""
        others = [c for p in range(state.num_players) if p != seat for c in state.hole_cards(p)]
        deck = np.array(_unseen_cards(state, seat, state.board))
        rng = np.random.default_rng(zlib.crc32(f"{state.public_state_key()}|{others}".encode()))
        out = np.empty(samples)
        for i in range(samples):
            cards = [int(c) for c in rng.choice(deck, count, replace=False)]
            wf = w * possible(cards)
            keep = wf > 0
            out[i] = float(np.dot(wf[keep], surplus(cards)[keep])) / w.sum()
        return out

    def _expected_flop_surplus(self, state, seat, w) -> float:
        return self._sampled_expectation(state, seat, w, FLOP_SAMPLES, self._stakes_surplus(state, seat))

    def _expected_after_card(self, state, seat, w, board, street, stakes=True) -> float:
        """E[V(board + one card) | O] (:meth:`_expected_over_cards`; with the stakes model's
        surplus unless ``stakes`` is False). The turn's equities come from one pass over every
        turn and river (:func:`turn_equities`)."""
        deck = _unseen_cards(state, seat, board)
        if len(board) == 3:
            hole, _, m, dead, behind = self._check_down(state, seat, board)
            cards = [c for c in range(52) if c not in set(board) | set(hole)]
            turn = dict(zip(cards, turn_equities(hole, board, cards)))
            values = {c: self._v(turn[c], m, dead, behind, hole, board + [c], street, stakes) for c in deck}
        else:
            values = {c: self._value_vector(state, seat, board + [c], street, stakes) for c in deck}
        return self._expected_over_cards(values, w)

    def _walked_flop_term(self, before, seat, w, w_next, flop) -> float:
        """V(after the flop) - E[V(after) | before] where ``v`` after the flop is the walk of the
        rest of the street. The expectation is the check-down value before the flop (a
        martingale) plus an unbiased estimate of the walk's excess over the check-down value
        after the flop: the mean over flops drawn as for the stakes model
        (:meth:`_card_samples`, ``flop_samples`` of them)."""
        def excess(cards):
            return (self._value_vector(with_cards(before, cards, seat), seat)
                    - self._value_vector(before, seat, board=cards, street=1, stakes=False))  # fmt: skip

        expected = (self._value(before, seat, w, board=[], street=1, stakes=False)
                    + self._sampled_expectation(before, seat, w, self.flop_samples, excess))  # fmt: skip
        return self._value(with_cards(before, flop, seat), seat, w_next) - expected

    def _walked_card_term(self, before, seat, w, card) -> float:
        """V(after the card) - E[V(after) | before] where ``v`` after the card is the walk of the
        rest of the street: every card the opponent does not see is dealt and walked. When the
        walk after the card crosses the next card (``cross``), the expectation is the exact
        one of the walk that does not cross plus an unbiased estimate of the excess
        (:meth:`_sampled_expectation`, ``card_samples`` cards)."""
        if before.street + 1 not in self.cross:  # ``before`` is at the card's street already
            return self._card_term(self._walked_cards(before, seat), w, card)
        after = self._value_vector(with_cards(before, [card], seat), seat)
        realized = _mean_over_worlds(w * possible([card]), after)

        def excess(cards):
            state = with_cards(before, cards, seat)
            return self._value_vector(state, seat) - self._value_vector(state, seat, cross=False)

        expected = (self._expected_over_cards(self._walked_cards(before, seat, cross=False), w)
                    + self._sampled_expectation(before, seat, w, self.card_samples, excess, 1))  # fmt: skip
        return realized - expected

    def _walked_cards(self, before, seat, cross=True) -> dict[int, np.ndarray]:
        """``v`` of every world after each card the opponent does not see (dealt at ``before``)."""
        cards = _unseen_cards(before, seat, before.board)
        return dict(zip(cards, self._walks_after_cards(before, seat, cards, cross)))

    def _walks_after_cards(self, before, seat, cards, cross=True) -> np.ndarray:
        """float64[len(cards), 1326]: the walk of the street after each of ``cards`` dealt at
        ``before`` (kept for this hand)."""
        key = (before.history, seat, cross)
        if key not in self._crossed:
            leaf = lambda s: self._value_vector(s, seat, cross=cross)  # noqa: E731
            self._crossed[key] = rest_of_street_after_cards(before, seat, cards, self._ranges, self.opponent, leaf)
        return self._crossed[key]

    def _crossing_value(self, before, seat) -> np.ndarray:
        """``v`` at a chance node whose card the walk crosses: every world's mean over the
        cards it does not hold of the walk after them."""
        cards = _unseen_cards(before, seat, before.board)
        walks = self._walks_after_cards(before, seat, cards)
        ok = np.isfinite(walks).any(axis=0)
        return np.where(ok, np.nansum(walks, axis=0) / (len(cards) - 2), np.nan)

    @classmethod
    def _card_term(cls, values: dict[int, np.ndarray], w: np.ndarray, card: int) -> float:
        """V(after ``card``) - E[V(after) | O] from ``v`` after every card."""
        return _mean_over_worlds(w * possible([card]), values[card]) - cls._expected_over_cards(values, w)

    @staticmethod
    def _expected_over_cards(values: dict[int, np.ndarray], w: np.ndarray) -> float:
        """E[V(after one card) | O] from ``v`` after each card the opponent does not see:
        ``sum_c sum_(k without c) w_k v_k(c) / (N sum_k w_k)``, ``N`` the cards a world does
        not see (each card dealt with probability 1/N, card removal included)."""
        total = 0.0
        for c, v in values.items():
            wc = w * possible([c])
            keep = wc > 0
            total += float(np.dot(wc[keep], v[keep]))
        return total / ((len(values) - 2) * w.sum())

    def _decision_values(self, state: NLTHState, seat: int, actions: list[int]) -> list[np.ndarray]:
        """v of every world after each action of the agent."""
        return [self._value_vector(state.child(a), seat) for a in actions]

    def _decision(self, state: NLTHState, action: int, seat: int, w: np.ndarray, corrections) -> np.ndarray:
        w = w * possible(state.board)  # no-op after dealt cards; needed for hands dealt up front
        valid = np.flatnonzero(w > 0)
        actions, probs = self.agent.range_probabilities(state, seat, HOLES[valid])
        try:
            col = actions.index(int(action))
        except ValueError:
            raise ValueError(f"the agent in seat {seat} played {action}, which its exposed strategy does not offer ({actions})") from None
        sigma = np.zeros((len(w), len(actions)))
        sigma[valid] = probs
        w_next = w * sigma[:, col]
        if not w_next.sum() > 0:
            raise ValueError(f"the agent in seat {seat} played {action}, which its exposed strategy gives probability 0 with its whole range")
        if seat_in_heads_up_pot(state, seat) and (state.board or self.preflop is not None):
            expected = 0.0
            realized = 0.0
            children = self._decision_values(state, seat, actions)
            for b, v in enumerate(children):
                wb = w * sigma[:, b]
                if not wb.sum() > 0:
                    continue
                expected += float(np.dot(wb, np.nan_to_num(v)))
                if b == col:
                    realized = float(np.dot(wb, np.nan_to_num(v)) / wb.sum())
            corrections.append((f"decision {state.street}", realized - expected / w.sum()))
        return w_next

    def _final_value(self, final: NLTHState, seat: int, w: np.ndarray) -> float:
        if not final.in_hand[seat] or sum(final.in_hand) == 1 or not E.at_showdown(final.s):
            return float(final.returns()[seat])
        w = w * possible(final.board)
        valid = np.flatnonzero(w > 0)
        out = np.empty(len(valid))
        showdown_payoffs(final.s, seat, HOLES[valid], out)
        return float(np.dot(w[valid], out) / w[valid].sum())

    # -- the value function -------------------------------------------------------------------
    def _value(self, state: NLTHState, seat: int, w: np.ndarray, board=None, street=None, stakes=True) -> float:
        """V: the weighted mean of v over the worlds at ``state`` (optionally with another
        board of the same street sequence, and the alpha of ``street``)."""
        return _mean_over_worlds(w, self._value_vector(state, seat, board, street, stakes))

    def _value_vector(self, state: NLTHState, seat: int, board=None, street=None, stakes=True, cross=True) -> np.ndarray:
        """v of every world at ``state`` (float64[1326]; NaN where a world is impossible):
        the check-down value, plus the stakes model's surplus after the flop (``stakes``); the
        walk of the rest of the street at a walked decision; the mean of the next street's
        walk over its card at a chance node of ``cross`` (unless ``cross`` is False)."""
        if not state.in_hand[seat]:
            return np.full(len(HOLES), float(state.returns()[seat]) if state.is_terminal() else -state.committed[seat], dtype=np.float64)
        if board is None and state.street in self.walk and not state.is_terminal() and not state.is_chance_node() and seat_in_heads_up_pot(state, seat):
            return rest_of_street(state, seat, self._ranges, self.opponent, lambda s: self._value_vector(s, seat, cross=cross))
        if (board is None and cross and state.is_chance_node() and state.street in self.cross and state.board
                and seat_in_heads_up_pot(state, seat) and self._chips(state, seat)[3] > 0):  # fmt: skip
            return self._crossing_value(state, seat)
        if state.is_terminal():
            if sum(state.in_hand) == 1:
                return np.full(len(HOLES), float(state.returns()[seat]))
            out = np.full(len(HOLES), np.nan)
            ok = possible(state.board + [c for p in range(state.num_players) if p != seat for c in state.hole_cards(p)])
            part = np.empty(int(ok.sum()))
            showdown_payoffs(state.s, seat, HOLES[ok], part)
            out[ok] = part
            return out
        board = state.board if board is None else list(board)
        street = STREET_OF_BOARD.get(len(board), 1) if street is None else street
        hole, equity, m, dead, behind = self._check_down(state, seat, board)
        return self._v(equity, m, dead, behind, hole, board, street, stakes)

    def _v(self, equity, m, dead, behind, hole, board, street, stakes) -> np.ndarray:
        """The check-down value of every world, plus the stakes model's surplus after the flop."""
        v = self.alphas[street] * ((2 * m + dead) * equity - m)
        if stakes and self.stakes is not None and board:
            v = v + self.stakes.surplus(board, hole, equity, street, behind)
        return v

    def _check_down(self, state: NLTHState, seat: int, board: list[int]):
        """The opponent's hole cards, every world's equity against them, the matched amount,
        the folded players' chips and the effective stack still behind."""
        opponent, m, dead, behind = self._chips(state, seat)
        hole = state.hole_cards(opponent)
        if len(board) == 0:
            equity = 1.0 - self.preflop[hole_index(*hole)].astype(np.float64)  # the world's share against the opponent's hand
        else:
            equity = 1.0 - cached_equity_vector(tuple(hole), tuple(board))
        return hole, equity, m, dead, behind

    @staticmethod
    def _chips(state: NLTHState, seat: int) -> tuple[int, int, int, int]:
        """The opponent in a heads-up pot, the matched amount, the folded players' chips and
        the effective stack behind."""
        opponent = next(p for p in range(state.num_players) if p != seat and state.in_hand[p])
        committed, stacks = state.committed, state.stacks
        m = min(committed[seat], committed[opponent])
        dead = sum(c for p, c in enumerate(committed) if not state.in_hand[p])
        behind = min(committed[seat] + stacks[seat], committed[opponent] + stacks[opponent]) - m
        return opponent, m, dead, behind

    def stakes_rows(self, log, seat: int) -> list[tuple[int, float, float]]:
        """Calibration rows of one hand for :func:`gamesolve_nlth.evaluate.stakes.fit_table`:
        at every decision after the flop in a heads-up pot with chips behind, the table cell of
        the agent's actual hand, the effective stack behind and its final payoff minus its
        check-down value there."""
        from gamesolve_nlth.evaluate.stakes import cells, strength_vector

        payoff = float(log.final.returns()[seat])
        k = hole_index(*log.final.hole_cards(seat))
        rows = []
        for state, _ in log.steps:
            if state.current_player() == CHANCE or not state.board or not seat_in_heads_up_pot(state, seat):
                continue
            hole, equity, m, dead, behind = self._check_down(state, seat, state.board)
            if behind <= 0:
                continue
            s = strength_vector(tuple(state.board))
            cell = cells(state.street, s[k : k + 1], float(s[hole_index(*hole)]), equity[k : k + 1])[0]
            rows.append((int(cell), float(behind), payoff - ((2 * m + dead) * equity[k] - m)))
        return rows


def _mean_over_worlds(w: np.ndarray, v: np.ndarray) -> float:
    """The mean of ``v`` over the worlds of positive weight ``w`` (``v`` is NaN elsewhere)."""
    keep = w > 0
    return float(np.dot(w[keep], v[keep])) / float(w[keep].sum())


def _unseen_cards(state: NLTHState, seat: int, board) -> list[int]:
    """The cards the agent's opponents do not see at ``state`` with ``board`` dealt: the next
    card's possible values, in order."""
    seen = set(board) | {c for p in range(state.num_players) if p != seat for c in state.hole_cards(p)}
    return [c for c in range(52) if c not in seen]


def seat_in_heads_up_pot(state: NLTHState, seat: int) -> bool:
    alive = state.in_hand
    return alive[seat] and sum(alive) == 2


VALUE_FUNCTIONS = {
    "check-down": dict(stakes=None),
    "stakes": dict(),
    "river-walk": dict(walk=(3,)),
    "turn-walk": dict(walk=(2, 3)),
    "turn-cross-walk": dict(walk=(2, 3), cross=(3,)),
    "flop-walk": dict(walk=(1, 2, 3)),
    "cross-walk": dict(walk=(1, 2, 3), cross=(3,)),
}
"""The value functions ``gamesolve match --aivat-values`` offers, from the fastest and least
precise to the slowest and most (docs/evaluation.md, Hold'em figures): ``HoleCardAIVAT``'s
options; those with ``walk`` walk against a model of the heads-up opponent."""
DEFAULT_VALUES = "stakes"


def make_estimator(game, agent, opponents=(), values=None):
    """The hook's answer: a :class:`HoleCardAIVAT` for agents that expose their range (over
    the hand they hold alone for an agent whose exposure is exact only there), with
    the value function named ``values`` (:data:`VALUE_FUNCTIONS`; None: ``stakes``). A walk
    needs a heads-up game and an opponent of which :func:`opponent_model` has a model."""
    name = DEFAULT_VALUES if values is None else values
    if name not in VALUE_FUNCTIONS:
        raise AivatError(f"no AIVAT value function {name!r} for hold'em; choose among {', '.join(VALUE_FUNCTIONS)}")
    if not isinstance(game, NLTHGame) or not hasattr(agent, "range_probabilities"):
        return None
    options = dict(VALUE_FUNCTIONS[name])
    if not getattr(agent, "strategy_is_exact", True):  # a model of the play (tag): AIVAT would be biased
        if not getattr(agent, "own_strategy_is_exact", False):
            return None
        options["own_hand"] = True  # exact for the hand it holds (the search agent): that hand alone
    if "walk" in options:
        model = opponent_model(opponents[0]) if len(opponents) == 1 else None
        if model is None:
            raise AivatError(f"AIVAT values {name!r} walk against a model of the heads-up opponent: "
                             "a two-player match against tag, random, call, fold or a blueprint")  # fmt: skip
        options["opponent"] = model
    estimator = HoleCardAIVAT(game, agent, **options)
    estimator.description = f"{name}: {estimator.description}"
    return estimator


