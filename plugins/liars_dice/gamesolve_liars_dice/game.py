"""Liar's Dice, move for move as open-spiel's ``liars_dice`` (open_spiel/games/liars_dice/liars_dice.cc).

open-spiel's rules and defaults (2 players, 1 die each, 6 sides, bidding rule ``reset-face``):

* Chance rolls every die before anyone bids: player 0's dice, then player 1's. Chance action
  ``i`` is face ``i + 1``, each with probability ``1 / sides``. A player sees only their own
  dice, and only as a multiset: open-spiel sorts each player's dice once all are rolled.
* Player 0 bids first, then the players take turns. A bid ``q x f`` claims that at least
  ``q`` of all the dice show face ``f``; the highest face is wild and counts for every face.
  Every bid must have a higher action number than the bid before it, so the numbering *is*
  the bid order: under ``reset-face``, action ``(q - 1) * sides + (f - 1)`` (1x1, 1x2, ...,
  1x6, 2x1, ...); under ``reset-quantity``, ``(f - 1) * total_dice + (q - 1)`` (1x1, 2x1,
  ..., 1x2, ...).
* Action ``total_dice * sides`` is "liar", legal once a bid has been made. After the highest
  bid only "liar" is left: only a call ends the game.
* On "liar" the dice are counted: if at least ``q`` show ``f`` or the wild face, the bidder
  wins 1 and the caller loses 1; otherwise the caller wins 1 and the bidder loses 1.
"""

from __future__ import annotations

import attrs

from gamesolve.game import CHANCE, TERMINAL, Game, ParameterError, State

BIDDING_RULES = ("reset-face", "reset-quantity")


def _at_least(low: int):
    def check(_instance, attribute, value):
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise ParameterError(f"parameter {attribute.name!r} must be an integer of at least {low}, got {value!r}")

    return check


def _only_two_players(_instance, _attribute, value):
    # open-spiel's liars_dice declares min_num_players = max_num_players = 2.
    if value != 2:
        raise ParameterError(f"liars_dice is for 2 players (open-spiel's limit), got {value!r}")


def _bidding_rule(_instance, _attribute, value):
    if value not in BIDDING_RULES:
        raise ParameterError(f"parameter 'bidding_rule' must be reset-face or reset-quantity, got {value!r}")


@attrs.frozen
class LiarsDiceRules:
    """One setting of the game, and the tables every state of it shares."""

    players: int = attrs.field(default=2, validator=_only_two_players)
    dice: int = attrs.field(default=1, validator=_at_least(1))  # per player
    sides: int = attrs.field(default=6, validator=_at_least(1))
    bidding_rule: str = attrs.field(default="reset-face", validator=_bidding_rule)
    # Derived once (after the validators ran), so states never recompute them.
    total_dice: int = attrs.field(init=False)
    liar: int = attrs.field(init=False)  # the "liar" action; also the number of bids
    bids: tuple[tuple[int, int], ...] = attrs.field(init=False)  # (quantity, face) of each bid action
    bid_names: tuple[str, ...] = attrs.field(init=False)
    chance: tuple[tuple[int, float], ...] = attrs.field(init=False)

    def __attrs_post_init__(self):
        total = self.players * self.dice
        if self.bidding_rule == "reset-face":
            bids = tuple((b // self.sides + 1, b % self.sides + 1) for b in range(total * self.sides))
        else:
            bids = tuple((b % total + 1, b // total + 1) for b in range(total * self.sides))
        object.__setattr__(self, "total_dice", total)
        object.__setattr__(self, "liar", total * self.sides)
        object.__setattr__(self, "bids", bids)
        object.__setattr__(self, "bid_names", tuple(f"{q}x{f}" for q, f in bids))
        object.__setattr__(self, "chance", tuple((i, 1.0 / self.sides) for i in range(self.sides)))


class LiarsDiceState(State):
    """One history: the faces rolled so far (in rolling order) and the bids made.

    ``own`` holds, once every die is rolled, each player's sorted dice as they appear in
    that player's information-state key, and ``public`` the bids as text: both are built
    once and extended by ``child``, since a compiler asks for the keys at every history.
    """

    __slots__ = ("rules", "rolls", "own", "bids", "public")

    def __init__(self, rules: LiarsDiceRules, rolls: tuple[int, ...] = (), own: tuple[str, ...] | None = None,
                 bids: tuple[int, ...] = (), public: str = "-"):  # fmt: skip
        self.rules = rules
        self.rolls = rolls
        self.own = own
        self.bids = bids
        self.public = public

    def current_player(self) -> int:
        if self.own is None:
            return CHANCE
        if self.bids and self.bids[-1] == self.rules.liar:
            return TERMINAL
        return len(self.bids) % self.rules.players

    def legal_actions(self) -> list[int]:
        if self.own is None or (self.bids and self.bids[-1] == self.rules.liar):
            return []
        if not self.bids:
            return list(range(self.rules.liar))  # no one can call liar before the first bid
        return list(range(self.bids[-1] + 1, self.rules.liar + 1))

    def chance_outcomes(self) -> tuple[tuple[int, float], ...]:
        return self.rules.chance if self.own is None else ()

    def child(self, action: int) -> LiarsDiceState:
        rules = self.rules
        if self.own is None:
            if not 0 <= action < rules.sides:
                raise ValueError(f"chance action {action} is not a face (0..{rules.sides - 1} roll faces 1..{rules.sides})")
            rolls = self.rolls + (action + 1,)
            own = None
            if len(rolls) == rules.total_dice:
                # Sorted, as open-spiel sorts them: a player knows the multiset of their dice,
                # not the order they fell in, so our infosets and open-spiel's coincide one to one.
                d = rules.dice
                own = tuple(",".join(map(str, sorted(rolls[p * d:(p + 1) * d]))) for p in range(rules.players))
            return LiarsDiceState(rules, rolls, own)
        if action not in self.legal_actions():
            raise ValueError(f"action {action} is not legal here (legal: {self.legal_actions()})")
        name = "liar" if action == rules.liar else rules.bid_names[action]
        public = name if not self.bids else f"{self.public} {name}"
        return LiarsDiceState(rules, self.rolls, self.own, self.bids + (action,), public)

    def returns(self) -> list[float]:
        n = self.rules.players
        if self.current_player() != TERMINAL:
            return [0.0] * n
        quantity, face = self.rules.bids[self.bids[-2]]
        wild = self.rules.sides
        matches = sum(1 for x in self.rolls if x == face or x == wild)
        bidder, caller = (len(self.bids) - 2) % n, (len(self.bids) - 1) % n
        winner, loser = (bidder, caller) if matches >= quantity else (caller, bidder)
        out = [0.0] * n
        out[winner], out[loser] = 1.0, -1.0
        return out

    def information_state_key(self, player: int) -> str:
        """The player's own dice (sorted; ``?`` for a die not rolled yet) and the bids, e.g. ``"2,5|1x4 2x6"``."""
        if self.own is not None:
            return f"{self.own[player]}|{self.public}"
        d = self.rules.dice
        rolled = sorted(self.rolls[player * d:(player + 1) * d])
        return ",".join([str(x) for x in rolled] + ["?"] * (d - len(rolled))) + "|-"

    def public_state_key(self) -> str:
        """The bids so far (``-`` before the first); the dice stay private to the end."""
        return self.public

    def action_to_string(self, action: int) -> str:
        if self.own is None:
            return f"roll {action + 1}"
        if action == self.rules.liar:
            return "liar"
        return self.rules.bid_names[action] if 0 <= action < self.rules.liar else str(action)

    def __repr__(self) -> str:
        return f"LiarsDiceState(rolls={self.rolls}, bids={self.public!r})"


class LiarsDiceGame(Game):
    """Liar's Dice with open-spiel's rules; parameters as open-spiel's, renamed
    (``numdice`` -> ``dice``, ``dice_sides`` -> ``sides``)."""

    name = "liars_dice"

    def __init__(self, players: int = 2, dice: int = 1, sides: int = 6, bidding_rule: str = "reset-face"):
        self.rules = LiarsDiceRules(players, dice, sides, bidding_rule)
        super().__init__(players, {"dice": dice, "sides": sides, "bidding_rule": bidding_rule})

    def new_initial_state(self) -> LiarsDiceState:
        return LiarsDiceState(self.rules)

    def num_histories(self) -> int:
        """Histories in the whole game tree, counted without walking it.

        Chance nodes: one per partial roll sequence. After each of the ``sides ** total_dice``
        roll sequences, every increasing sequence of the ``B`` bids is a decision node
        (``2 ** B``) and every non-empty one followed by "liar" is a terminal (``2 ** B - 1``).
        """
        s, t, b = self.rules.sides, self.rules.total_dice, self.rules.liar
        rolling = sum(s**k for k in range(t))
        return rolling + s**t * (2 ** (b + 1) - 1)

    def factored_contract(self):
        """The bids as a public tree over each player's dice (contract.py): compiling it costs
        bid sequences, not bid sequences times rolls."""
        from gamesolve_liars_dice.contract import LiarsDiceContract

        return LiarsDiceContract(self.rules)
