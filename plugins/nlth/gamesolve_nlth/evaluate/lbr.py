"""Local best response for hold'em (Lisý & Bowling, "Equilibrium approximation quality of
current no-limit poker bots", 2017).

LBR plays one seat against an agent whose strategy it can read (``range_probabilities``:
the agent's action probabilities for every hole-card pair it could hold). It keeps the
agent's *range*, a weight per pair updated by Bayes' rule at each of the agent's actions and
zeroed for pairs that share a card with LBR's own cards or the board. At its own turn it
assumes the hand will be checked down after the agent's response and picks, among fold,
call and a small set of bets, the action of highest expected value:

* ``WP``: LBR's pot share against the range at showdown, exact by enumerating every board
  completion heads-up (flop, turn, river; before the flop from the exact preflop table,
  ``gamesolve abstraction equity``), by sampling with several opponents in the hand;
* calling ``asked`` chips into a pot of ``pot``: ``WP * pot - (1 - WP) * asked`` (folding is 0);
* betting ``b`` chips: the agent folds with ``fp`` (its range's fold probability facing the
  bet, read from its strategy at the hypothetical state), else calls and LBR's share is
  ``WP'`` against the calling part of the range:
  ``fp * pot + (1 - fp) * (WP' * (pot + b - asked) - (1 - WP') * b)``;
* LBR folds when nothing is worth more than folding (and checks rather than folds when free).

The bets considered are fractions of the pot (after calling) per betting round plus
all-in: a parameter, with presets (``fcpa``: fold, call, pot, all-in, the set the paper
reports most; ``fc``; ``fchpa`` adding half-pot; ``wide``). Before the flop LBR calls by
default (``preflop=call``, as in the paper's main experiments); ``preflop=lbr`` applies the
same rule there with the preflop table.

The value LBR wins is a lower bound on the agent's exploitability: LBR is a legitimate
strategy that sees only its own cards and the public actions (and the agent's strategy, as
a best response may). Questions about the agent's strategy at hypothetical states never
touch the agent's random numbers: an off-tree bet of LBR that the blueprint has not met in
this hand is read with its deterministic translation.
"""

from __future__ import annotations

import attrs
import numpy as np
from numba import njit

from gamesolve.agents import Agent, hand_seed
from gamesolve.game.state import CHANCE
from gamesolve.rng import xorshift, xorshift_state
from gamesolve_nlth.agents.equity import pot_share
from gamesolve_nlth.evaluate.equity import cached_equity_vector
from gamesolve_nlth.evaluate.hands import HOLES, NUM_HOLES, hole_index, possible
from gamesolve_nlth.evaluate.preflop import preflop_table
from gamesolve_nlth.state import CHECK_CALL, FOLD, NLTHGame, NLTHState, raise_action

PRESETS: dict[str, tuple[tuple[float, ...], ...]] = {
    "fcpa": ((1.0,), (1.0,), (1.0,), (1.0,)),
    "fc": ((), (), (), ()),
    "fchpa": ((0.5, 1.0), (0.5, 1.0), (0.5, 1.0), (0.5, 1.0)),
    "wide": ((0.5, 1.0, 2.0), (0.25, 0.5, 0.75, 1.0, 1.5, 2.0), (0.25, 0.5, 0.75, 1.0, 1.5, 2.0), (0.25, 0.5, 0.75, 1.0, 1.5, 2.0)),
}


def _sizes(text: str) -> tuple[tuple[float, ...], ...]:
    """A preset name, or per-round pot fractions: ``"0.5,1/1/1/1"`` (rounds split by ``/``;
    one group applies to every round)."""
    if text in PRESETS:
        return PRESETS[text]
    try:
        groups = [tuple(float(x) for x in g.split(",") if x.strip()) for g in text.split("/")]
    except ValueError:
        raise ValueError(f"bet sizes: a preset ({', '.join(PRESETS)}) or pot fractions like 0.5,1/1/1/1, got {text!r}") from None
    if len(groups) == 1:
        groups = groups * 4
    if len(groups) != 4 or any(f <= 0 for g in groups for f in g):
        raise ValueError(f"bet sizes: four groups of positive pot fractions (or one for every round), got {text!r}")
    return tuple(groups)


@attrs.frozen
class LBRConfig:
    """:ivar sizes: pot fractions LBR may bet, per betting round (all-in is always considered
        unless ``all_in`` is false). :ivar preflop: ``call`` or ``lbr``. :ivar all_in: consider
        all-in. :ivar samples: Monte Carlo samples of WP with several opponents in the hand."""

    sizes: tuple[tuple[float, ...], ...] = PRESETS["fcpa"]
    preflop: str = attrs.field(default="call", validator=attrs.validators.in_(("call", "lbr")))
    all_in: bool = True
    samples: int = 2000

    @classmethod
    def from_options(cls, options: dict[str, str]) -> LBRConfig:
        known = {"sizes", "preflop", "all_in", "samples"}
        unknown = set(options) - known
        if unknown:
            raise ValueError(f"unknown LBR option {', '.join(sorted(unknown))} (known: {', '.join(sorted(known))})")
        values: dict = {}
        if "sizes" in options:
            values["sizes"] = _sizes(options["sizes"])
        if "preflop" in options:
            if options["preflop"] not in ("call", "lbr"):
                raise ValueError(f"LBR option preflop must be call or lbr, got {options['preflop']!r}")
            values["preflop"] = options["preflop"]
        if "all_in" in options:
            values["all_in"] = str(options["all_in"]).lower() in ("1", "true", "yes", "on")
        if "samples" in options:
            try:
                values["samples"] = int(options["samples"])
            except ValueError:
                raise ValueError(f"LBR option samples must be an integer, got {options['samples']!r}") from None
            if values["samples"] < 1:
                raise ValueError("LBR option samples must be at least 1")
        return cls(**values)

    def as_dict(self) -> dict:
        return {"sizes": [list(g) for g in self.sizes], "preflop": self.preflop, "all_in": self.all_in, "samples": self.samples}


class LBRAgent(Agent):
    """Local best response in seat ``agent 0`` of a match against ``opponents`` (agents 1..P-1,
    seated by the match's rotation: agent ``i`` in seat ``(i + r) % P`` in rotation ``r``)."""

    name = "lbr"

    def __init__(self, game: NLTHGame, opponents: list, config: LBRConfig = LBRConfig(), seed: int = 0):
        if len(opponents) != game.num_players - 1:
            raise ValueError(f"LBR at a {game.num_players}-player table needs {game.num_players - 1} opponents")
        for agent in opponents:
            if not hasattr(agent, "range_probabilities"):
                raise ValueError(f"agent {getattr(agent, 'name', agent)!r} does not expose its strategy; LBR needs it "
                                 "(blueprint, random, call and fold do)")  # fmt: skip
        if config.preflop == "lbr" and preflop_table() is None:
            raise ValueError("preflop=lbr needs the preflop equity table: run `gamesolve abstraction equity` once")
        self.game = game
        self.opponents = list(opponents)
        self.config = config
        self.seed = seed
        self.rng = np.random.default_rng(seed)
        self.by_seat: dict[int, object] = {}
        self.ranges: dict[int, np.ndarray] = {}
        self.decisions: list[dict] = []  # what LBR computed at its turns this hand (for tests)
        self.surprises = 0  # opponent actions its exposed strategy gave probability 0 (models only)

    def new_hand(self, seat: int, hand: int) -> None:
        n = self.game.num_players
        rotation = seat  # LBR is agent 0 of the match
        self.by_seat = {(i + rotation) % n: agent for i, agent in enumerate(self.opponents, start=1)}
        self.ranges = {s: np.ones(NUM_HOLES) for s in self.by_seat}
        self.rng = np.random.default_rng(hand_seed(self.seed, hand))
        self.decisions = []

    def observe(self, state: NLTHState, action: int) -> None:
        player = state.current_player()
        if player == CHANCE or player not in self.by_seat:
            return
        r = self.ranges[player]
        r *= possible(state.board)  # card removal (LBR's own cards are removed when it decides)
        live = np.flatnonzero(r > 0)
        actions, probs = self.by_seat[player].range_probabilities(state, player, HOLES[live])
        if int(action) not in actions:  # a model of the agent (tag) can be surprised: keep the range
            self.surprises += 1
            return
        updated = probs[:, actions.index(int(action))]
        if not np.dot(r[live], updated) > 0:
            self.surprises += 1
            return
        r[live] *= updated

    # -- deciding ----------------------------------------------------------------------------
    def act(self, state: NLTHState, seat: int) -> int:
        if state.street == 0 and self.config.preflop == "call":
            return CHECK_CALL
        hole = state.hole_cards(seat)
        known = possible(hole + state.board)
        alive = [s for s in self.by_seat if state.in_hand[s]]
        ranges = {s: self.ranges[s] * known for s in alive}
        if any(not r.sum() > 0 for r in ranges.values()):  # a range emptied by rounding: play safe
            return CHECK_CALL
        pot, asked = state.pot, state.call_amount
        if len(alive) == 1:
            s = alive[0]
            eq = self._equities(hole, state.board)
            wp = _share(ranges[s], eq)
        else:
            eq = None
            wp = self._sampled_wp(hole, state.board, [ranges[s] for s in alive])
        utils = {CHECK_CALL: wp * pot - (1.0 - wp) * asked}
        for target in self._bets(state, seat):
            action = raise_action(target)
            b = target - state.bets[seat]
            fp, continuing = self._responses(state.child(action), ranges)
            if eq is not None:
                wp_call = _share(continuing[alive[0]], eq) if continuing[alive[0]].sum() > 0 else wp
            else:
                wp_call = self._sampled_wp(hole, state.board, [continuing[s] for s in alive]) if fp < 1 else wp
            b_eff = asked + min(b - asked, max(state.stacks[s] for s in alive))  # an opponent cannot call more than it has
            utils[action] = fp * pot + (1.0 - fp) * (wp_call * (pot + b_eff - asked) - (1.0 - wp_call) * b_eff)
        best = max(utils, key=lambda a: (utils[a], a == CHECK_CALL))
        choice = best if utils[best] > 0 or asked == 0 else FOLD
        self.decisions.append({"street": state.street, "wp": wp, "utils": dict(utils), "action": choice})
        return choice

    def _bets(self, state: NLTHState, seat: int) -> list[int]:
        lo, hi = state.min_raise_to, state.max_raise_to
        if lo is None:
            return []
        call = state.call_amount
        top = state.bets[seat] + call
        targets = {int(min(max(round(top + f * (state.pot + call)), lo), hi)) for f in self.config.sizes[state.street]}
        if self.config.all_in:
            targets.add(hi)
        return sorted(targets)

    def _responses(self, after: NLTHState, ranges: dict[int, np.ndarray]) -> tuple[float, dict[int, np.ndarray]]:
        """The probability that every opponent folds to LBR's bet (following the folds one
        opponent after another), and each opponent's range given that it does not fold."""
        fold_all = 1.0
        continuing = {}
        state = after
        for s in ranges:
            continuing[s] = ranges[s].copy()
        while not state.is_terminal() and state.current_player() in ranges:
            s = state.current_player()
            r = ranges[s]
            live = np.flatnonzero(r > 0)
            actions, probs = self.by_seat[s].range_probabilities(state, s, HOLES[live])
            p_fold = probs[:, actions.index(FOLD)] if FOLD in actions else np.zeros(len(live))
            fold_all *= float(np.dot(r[live], p_fold) / r[live].sum())
            continuing[s][live] = r[live] * (1.0 - p_fold)
            if FOLD not in actions:
                break
            state = state.child(FOLD)
        return fold_all, continuing

    def _equities(self, hole: list[int], board: list[int]) -> np.ndarray:
        """LBR's pot share against each pair (heads-up)."""
        if len(board) == 0:
            return preflop_table()[hole_index(*hole)].astype(np.float64)
        return cached_equity_vector(tuple(hole), tuple(board))

    def _sampled_wp(self, hole: list[int], board: list[int], ranges: list[np.ndarray]) -> float:
        """LBR's pot share against several ranges at once, by sampling their hands and the board."""
        cdfs = np.cumsum(np.array(ranges, dtype=np.float64), axis=1)
        seed = int(self.rng.integers(2**62))
        return float(_sample_share(np.asarray(hole, np.int64), np.asarray(board, np.int64), cdfs, HOLES,
                                   int(self.config.samples), seed))  # fmt: skip


def _share(weights: np.ndarray, eq: np.ndarray) -> float:
    keep = weights > 0
    return float(np.dot(weights[keep], eq[keep]) / weights[keep].sum())


@njit(cache=True)
def _sample_share(hole, board, cdfs, holes, samples, seed):
    """Monte Carlo pot share against opponents drawn from the rows of ``cdfs`` (cumulative
    range weights), with card removal by rejection, and the rest of the board drawn at
    random. Its own xorshift generator: a seed gives the same answer everywhere."""
    state = xorshift_state(seed)
    n_opp = cdfs.shape[0]
    nb = board.shape[0]
    used = np.zeros(52, np.bool_)
    hands = np.empty((n_opp, 2), np.int64)
    full = np.empty(5, np.int64)
    total = 0.0
    got = 0
    tries = 0
    while got < samples and tries < samples * 20:
        tries += 1
        used[:] = False
        used[hole[0]] = True
        used[hole[1]] = True
        for i in range(nb):
            used[board[i]] = True
            full[i] = board[i]
        ok = True
        for o in range(n_opp):
            u = np.int64(xorshift(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0) * cdfs[o, -1]  # 53 bits: [0, 1)
            k = np.searchsorted(cdfs[o], u, side="right")
            if k >= holes.shape[0]:
                k = holes.shape[0] - 1
            a, b = holes[k, 0], holes[k, 1]
            if used[a] or used[b]:
                ok = False
                break
            used[a] = True
            used[b] = True
            hands[o, 0] = a
            hands[o, 1] = b
        if not ok:
            continue
        for i in range(nb, 5):
            while True:
                c = np.int64(xorshift(state) >> np.uint64(1)) % 52
                if not used[c]:
                    break
            used[c] = True
            full[i] = c
        total += pot_share(hole, hands, full)
        got += 1
    return total / max(got, 1)


def make_lbr_agent(game, opponents, options, seed):
    """The hook's answer for hold'em."""
    if not isinstance(game, NLTHGame):
        return None
    return LBRAgent(game, opponents, LBRConfig.from_options(dict(options)), seed)
