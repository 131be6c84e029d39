"""Baseline NLTH agents: ``random``, ``call``, ``fold`` and a rule-based tight-aggressive ``tag``.

Every agent decides only from what its seat may know: its own hole cards, the board and the
public betting (``state.log``, pot, bets, stacks). Every random choice comes from the agent's
own ``random.Random(seed)``.

``random``
    Picks a legal action kind (fold / check-call / bet-raise) uniformly at random. A raise size
    is then drawn uniformly from five sizes -- the minimum raise, raises of 1/2, 1 and 2 pots,
    and all-in -- each clipped to the legal range (option ``sizes=uniform``: uniform over every
    legal amount from the minimum raise to all-in instead). Checking is always legal when fold
    is not (the engine does not offer a fold when checking is free).

``call``
    Always checks or calls.

``fold``
    Folds whenever it faces a bet and checks otherwise (the rules offer no fold when checking
    is free): the "always fold" player local best response is checked against.

``random``, ``call`` and ``fold`` expose their strategy exactly (``action_probabilities``,
``range_probabilities``: the same for every hand), so AIVAT can evaluate them and local best
response can track their ranges. ``tag`` exposes a *model* of its strategy for local best
response: the rules above with the Monte Carlo equity of each hand drawn from a seed of the
public state, not from the agent's own stream (which nobody else may read); its real play
differs by that Monte Carlo noise, so it sets ``strategy_is_exact = False`` and AIVAT does
not evaluate it.

``tag``
    Tight-aggressive rules.

    *Preflop* hands are scored with Bill Chen's formula (AA 20, KK 16, AKs 12, TT 10, AKo 10,
    KQo 8, 72o -1). With no raise yet the agent opens to 3 big blinds (plus one per limper) when
    the score reaches a threshold that falls with position: 10 with five or more players still
    to act behind it, then 9, 8, 7 and 6 with one or none; otherwise it checks if it may, or
    folds. Facing one raise it 3-bets to 3x with a score of 12+ (JJ+, AKs), calls with 8+ when
    the call costs at most 10% of its stack, else folds. Facing two or more raises it re-raises
    (2.5x) with 16+ (KK+), calls with 12+ when the call costs at most 30% of its stack, else
    folds. A raise that would commit half of its chips goes all-in instead.

    *Postflop* it estimates its equity (pot share at showdown) by Monte Carlo against the
    opponents still in the hand holding random hands (``samples``, default 300; numba kernel
    :func:`gamesolve_nlth.agents.equity.mc_equity_kernel`, seeded per decision), and its
    per-opponent strength ``equity ** (1 / opponents)``. Facing a bet it raises (pot-sized)
    with strength 0.88+, calls when equity exceeds the pot odds ``call / (pot + call)`` by 5
    points, and folds otherwise. When it may check it bets 3/4 pot with strength 0.75+; as the
    last preflop raiser on the flop it continuation-bets half the pot with probability
    ``cbet`` (default 0.6); otherwise it checks.
"""

from __future__ import annotations

import math
import random
import zlib

import numpy as np

from gamesolve.agents import Agent, hand_seed
from gamesolve_nlth.agents.equity import mc_equity_kernel
from gamesolve_nlth.state import CHECK_CALL, FOLD, NLTHGame, NLTHState, raise_action

_RANDOM_POT_FRACTIONS = (0.5, 1.0, 2.0)


def _check_game(game) -> NLTHGame:
    if not isinstance(game, NLTHGame):
        raise ValueError(f"NLTH agents play nlth, not {getattr(game, 'name', game)!r}")
    return game


def _clip_raise(state: NLTHState, target: float) -> int:
    lo, hi = state.min_raise_to, state.max_raise_to
    return raise_action(int(min(max(round(target), lo), hi)))


def pot_raise_to(state: NLTHState, seat: int, fraction: float) -> float:
    """The raise-to amount of a raise of ``fraction`` of the pot (after calling)."""
    call = state.call_amount
    top = state.bets[seat] + call
    return top + fraction * (state.pot + call)


class _HandBlind:
    """The strategy exposure of agents that ignore their cards: one distribution for all."""

    def action_probabilities(self, state: NLTHState, seat: int, path=()) -> dict[int, float]:
        raise NotImplementedError

    def range_probabilities(self, state: NLTHState, seat: int, holes: np.ndarray) -> tuple[list[int], np.ndarray]:
        dist = self.action_probabilities(state, seat)
        actions = sorted(dist)
        return actions, np.tile(np.array([dist[a] for a in actions]), (len(holes), 1))


class RandomAgent(_HandBlind, Agent):
    """Uniformly random legal action kind; raise sizes as in the module doc."""

    name = "random"

    def __init__(self, game, seed: int = 0, sizes: str = "pot"):
        _check_game(game)
        if sizes not in ("pot", "uniform"):
            raise ValueError(f"sizes must be 'pot' or 'uniform', got {sizes!r}")
        self.seed = seed
        self.rng = random.Random(seed)
        self.sizes = sizes

    def new_hand(self, seat: int, hand: int) -> None:
        self.rng = random.Random(hand_seed(self.seed, hand))

    def act(self, state: NLTHState, seat: int) -> int:
        kind = self.rng.choice(state.legal_action_kinds())
        if kind == "f":
            return FOLD
        if kind == "cc":
            return CHECK_CALL
        lo, hi = state.min_raise_to, state.max_raise_to
        if self.sizes == "uniform":
            return raise_action(self.rng.randint(lo, hi))
        k = self.rng.randrange(len(_RANDOM_POT_FRACTIONS) + 2)
        return self._raise_sizes(state, seat)[k]

    @staticmethod
    def _raise_sizes(state: NLTHState, seat: int) -> list[int]:
        lo, hi = state.min_raise_to, state.max_raise_to
        return [raise_action(lo), raise_action(hi)] + [_clip_raise(state, pot_raise_to(state, seat, f)) for f in _RANDOM_POT_FRACTIONS]

    def action_probabilities(self, state: NLTHState, seat: int, path=()) -> dict[int, float]:
        kinds = state.legal_action_kinds()
        dist: dict[int, float] = {}
        for kind in kinds:
            if kind == "f":
                dist[FOLD] = dist.get(FOLD, 0.0) + 1.0 / len(kinds)
            elif kind == "cc":
                dist[CHECK_CALL] = dist.get(CHECK_CALL, 0.0) + 1.0 / len(kinds)
            elif self.sizes == "uniform":
                lo, hi = state.min_raise_to, state.max_raise_to
                for amount in range(lo, hi + 1):
                    dist[raise_action(amount)] = 1.0 / len(kinds) / (hi - lo + 1)
            else:
                sizes = self._raise_sizes(state, seat)
                for a in sizes:
                    dist[a] = dist.get(a, 0.0) + 1.0 / len(kinds) / len(sizes)
        return dist


class CallAgent(_HandBlind, Agent):
    """Always checks or calls (a "calling station")."""

    name = "call"

    def __init__(self, game, seed: int = 0):
        _check_game(game)

    def act(self, state: NLTHState, seat: int) -> int:
        return CHECK_CALL

    def action_probabilities(self, state: NLTHState, seat: int, path=()) -> dict[int, float]:
        return {CHECK_CALL: 1.0}


class FoldAgent(_HandBlind, Agent):
    """Folds to any bet, checks when checking is free."""

    name = "fold"

    def __init__(self, game, seed: int = 0):
        _check_game(game)

    def act(self, state: NLTHState, seat: int) -> int:
        return FOLD if state.call_amount > 0 else CHECK_CALL

    def action_probabilities(self, state: NLTHState, seat: int, path=()) -> dict[int, float]:
        return {self.act(state, seat): 1.0}


def chen_score(c0: int, c1: int) -> int:
    """Bill Chen's preflop score of two hole cards (``rank * 4 + suit``), halves rounded up."""
    r0, r1 = max(c0 >> 2, c1 >> 2), min(c0 >> 2, c1 >> 2)
    high = {12: 10.0, 11: 8.0, 10: 7.0, 9: 6.0}.get(r0, (r0 + 2) / 2.0)
    if r0 == r1:
        return math.ceil(max(5.0, 2.0 * high))
    score = high
    if (c0 & 3) == (c1 & 3):
        score += 2.0
    gap = r0 - r1 - 1
    score -= (0.0, 1.0, 2.0, 4.0)[gap] if gap < 4 else 5.0
    if gap <= 1 and r0 < 10:  # both cards below a queen
        score += 1.0
    return math.ceil(score)


def mc_equity(hole, board, opponents: int, samples: int, seed: int) -> float:
    """Monte Carlo pot share of ``hole`` on ``board`` against ``opponents`` random hands."""
    return float(
        mc_equity_kernel(
            np.asarray(hole, np.int64), np.asarray(board, np.int64).reshape(-1), int(opponents), int(samples), int(seed)
        )
    )


class TagAgent(Agent):
    """Rule-based tight-aggressive player (see the module doc for every rule)."""

    name = "tag"

    OPEN_THRESHOLDS = {5: 10, 4: 9, 3: 8, 2: 7}  # players left to act behind -> Chen score to open

    def __init__(self, game, seed: int = 0, samples: int | str = 300, cbet: float | str = 0.6):
        self.game = _check_game(game)
        self.seed = seed
        self.rng = random.Random(seed)
        self.samples = int(samples)
        self.cbet = float(cbet)
        if self.samples < 1:
            raise ValueError(f"samples must be at least 1, got {samples}")
        if not 0.0 <= self.cbet <= 1.0:
            raise ValueError(f"cbet must be a probability in [0, 1], got {cbet}")

    def new_hand(self, seat: int, hand: int) -> None:
        self.rng = random.Random(hand_seed(self.seed, hand))

    # ---- helpers ----------------------------------------------------------------------------
    def _raise(self, state: NLTHState, seat: int, target: float) -> int:
        """Raise to about ``target`` (clipped); all-in if that commits half our chips; call if no raise is legal."""
        if "cbr" not in state.legal_action_kinds():
            return CHECK_CALL
        chips = state.stacks[seat] + state.bets[seat]
        if target >= 0.5 * chips:
            return raise_action(state.max_raise_to)
        return _clip_raise(state, target)

    def _fold_or_check(self, state: NLTHState) -> int:
        return CHECK_CALL if state.call_amount == 0 else FOLD

    @staticmethod
    def players_behind(state: NLTHState, seat: int) -> int:
        """Players acting after ``seat`` in the first preflop orbit (blinds included)."""
        n = state.num_players
        first = state.button if n == 2 else (state.button + 3) % n
        return n - 1 - (seat - first) % n

    # ---- decisions --------------------------------------------------------------------------
    def act(self, state: NLTHState, seat: int) -> int:
        if state.street == 0:
            return self._preflop(state, seat)
        return self._postflop(state, seat)

    def _preflop(self, state: NLTHState, seat: int) -> int:
        hole = state.hole_cards(seat)
        return self._preflop_action(state, seat, chen_score(hole[0], hole[1]))

    def _preflop_action(self, state: NLTHState, seat: int, score: int) -> int:
        bb = self.game.big_blind
        call = state.call_amount
        stack = state.stacks[seat]
        top = state.bets[seat] + call
        raises = sum(1 for street, s, a in state.log if street == 0 and a >= 2)
        if raises == 0:
            behind = self.players_behind(state, seat)
            threshold = self.OPEN_THRESHOLDS.get(min(behind, 5), 6)
            if score >= threshold:
                limpers = sum(1 for street, s, a in state.log if street == 0 and a == CHECK_CALL)
                return self._raise(state, seat, (3 + limpers) * bb)
            return self._fold_or_check(state)
        if raises == 1:
            if score >= 12:
                return self._raise(state, seat, 3 * top)
            if score >= 8 and call <= 0.10 * stack:
                return CHECK_CALL
            return self._fold_or_check(state)
        if score >= 16:
            return self._raise(state, seat, 2.5 * top)
        if score >= 12 and call <= 0.30 * stack:
            return CHECK_CALL
        return self._fold_or_check(state)

    def _postflop(self, state: NLTHState, seat: int) -> int:
        hole = state.hole_cards(seat)
        opponents = sum(1 for s, alive in enumerate(state.in_hand) if alive and s != seat)
        equity = mc_equity(hole, state.board, max(1, opponents), self.samples, self.rng.getrandbits(62))
        action, cbet = self._postflop_choice(state, seat, equity, opponents)
        if cbet is not None and self.rng.random() < self.cbet:
            return cbet
        return action

    def _postflop_choice(self, state: NLTHState, seat: int, equity: float, opponents: int) -> tuple[int, int | None]:
        """The action for ``equity``, and the continuation bet taken with probability ``cbet``
        instead of it (None when there is no such choice)."""
        strength = equity ** (1.0 / max(1, opponents))
        call = state.call_amount
        pot = state.pot
        if call > 0:
            if strength >= 0.88 and "cbr" in state.legal_action_kinds():
                return self._raise(state, seat, pot_raise_to(state, seat, 1.0)), None
            if equity >= call / (pot + call) + 0.05:
                return CHECK_CALL, None
            return FOLD, None
        if strength >= 0.75:
            return self._raise(state, seat, pot_raise_to(state, seat, 0.75)), None
        if state.street == 1 and self._was_preflop_aggressor(state, seat) and self._no_bet_yet(state):
            return CHECK_CALL, self._raise(state, seat, pot_raise_to(state, seat, 0.5))
        return CHECK_CALL, None

    # -- a model of the strategy, for local best response (see the module doc) -------------------
    strategy_is_exact = False

    def action_probabilities(self, state: NLTHState, seat: int, path=()) -> dict[int, float]:
        actions, probs = self.range_probabilities(state, seat, np.asarray([state.hole_cards(seat)], dtype=np.int64))
        return {a: float(p) for a, p in zip(actions, probs[0]) if p > 0}

    def range_probabilities(self, state: NLTHState, seat: int, holes: np.ndarray) -> tuple[list[int], np.ndarray]:
        rows: list[dict[int, float]] = []
        if state.street == 0:
            by_score: dict[int, int] = {}
            for a, b in holes:
                score = chen_score(int(a), int(b))
                if score not in by_score:
                    by_score[score] = self._preflop_action(state, seat, score)
                rows.append({by_score[score]: 1.0})
        else:
            opponents = sum(1 for s, alive in enumerate(state.in_hand) if alive and s != seat)
            seed = zlib.crc32(state.public_state_key().encode())
            for a, b in holes:
                equity = mc_equity([int(a), int(b)], state.board, max(1, opponents), self.samples, seed)
                action, cbet = self._postflop_choice(state, seat, equity, opponents)
                if cbet is None:
                    rows.append({action: 1.0})
                else:
                    rows.append({cbet: self.cbet, action: 1.0 - self.cbet})
        actions = sorted({x for row in rows for x in row})
        probs = np.array([[row.get(x, 0.0) for x in actions] for row in rows]).reshape(len(rows), len(actions))
        return actions, probs

    @staticmethod
    def _was_preflop_aggressor(state: NLTHState, seat: int) -> bool:
        last = -1
        for street, s, a in state.log:
            if street == 0 and a >= 2:
                last = s
        return last == seat

    @staticmethod
    def _no_bet_yet(state: NLTHState) -> bool:
        street = state.street
        return not any(st == street and a >= 2 for st, _, a in state.log)


def make_random_agent(game, seed, **options):
    return RandomAgent(game, seed, **options)


def make_call_agent(game, seed, **options):
    return CallAgent(game, seed, **options)


def make_fold_agent(game, seed, **options):
    return FoldAgent(game, seed, **options)


def make_tag_agent(game, seed, **options):
    return TagAgent(game, seed, **options)
