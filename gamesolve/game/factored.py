"""The factored form: how every game reaches the sampled and vector solvers (DESIGN.md,
principle 1).

A game is factored into

* a **public tree** (preorder arrays, parents first): who acts, the (abstract) actions,
  public chance nodes whose outcomes everybody sees;
* each player's **private state** per round (a card, a die, a bucket, one of 1,326 hands):
  an information set is a pair (node, private state of the acting player at the node's
  round), so a decision node has one table row per private state;
* **deals**: samples of everything chance decides, i.e. each player's private state per
  round and the outcome of every public chance level (:mod:`gamesolve.game.deals`). Small
  games list their deals with probabilities; the list is also the *compatibility rule*
  (which private states can coexist: card removal), used exactly by vector-form CFR and by
  range beliefs. Games whose deals cannot be listed (hold'em) generate them;
* **terminal values** in three kinds (:mod:`gamesolve.game.terminals`): fixed payoffs (a
  fold), a contest of private strengths per deal (a showdown: each stake layer split among
  the strongest contenders who paid into it), or an explicit table over the listed deals.
  Each kind has a scalar entry point (one deal: MCCFR) and a vector one (ranges: vector CFR).

Two more facts let the kernels skip work without knowing any game: ``settled[n, p]`` says
player ``p`` has nothing left to decide below ``n`` and receives ``settled_value[n, p]``
whatever happens (poker: folded), and ``row_owner[n]`` lets decision nodes a player cannot
tell apart share one set of table rows (a search leaf's hidden continuation choices).

Poker's implementation is :mod:`gamesolve.game.poker_form`; any State-contract game gets one
from :mod:`gamesolve.game.factored_compiler`.
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Callable
from functools import cached_property
from typing import Any

import attrs
import numpy as np
from numba import njit

from gamesolve.errors import UserError
from gamesolve.game.deals import Deals
from gamesolve.game.form_records import ChanceSymmetry, Removal, Rollout

DECISION, CHANCE, TERMINAL = 0, 1, 2
"""Node kinds of the public tree."""

FIXED, CONTEST, TABLE, ROLLOUT = 0, 1, 2, 3
"""Terminal kinds: fixed payoffs, a contest of private strengths, an explicit table over deals,
and a depth-limited subgame's leaf valued by rollouts of continuation strategies
(:mod:`gamesolve.game.rollout`; sampling solvers only)."""

SMALL_GAME_MCCFR_DEFAULTS = {
    # The paper's schedules (in minutes of an 8-day run) with one minute read as 10,000
    # iterations, which is about a second of training on a small game.
    "discount_interval": "100k",
    "lcfr_threshold": "4M",
    "prune_threshold": "2M",
    "strategy_interval": "10k",
    "snapshot_interval": "2M",
    "snapshot_start": "8M",
    # Reach-weighted averages of every round: small games are checked by exact
    # exploitability, which the paper's snapshot averaging does not drive to zero.
    "average": "sampled",
}
"""MCCFR defaults for exactly solvable games (Kuhn, Leduc, Liar's Dice, generic forms)."""

TreeArrays = namedtuple(
    "TreeArrays",
    "kind player round level child_start child_list edge_label row_owner settled settled_value num_private",
)
"""The public tree as the kernels read it (a typed bundle instead of a dozen arguments)."""

TerminalArrays = namedtuple("TerminalArrays", "kind payoff contender row table")
"""Terminal values as the kernels read them (see :mod:`gamesolve.game.terminals`); ``table``
is deal-major here, ``table[deal, term_row[n], p]`` (:meth:`FactoredGame.terminal_arrays`)."""


class FormError(UserError):
    """A factored form cannot be built or used as asked; the message is fit to show a user."""


@attrs.frozen(eq=False)
class FactoredGame:
    """A game in factored form (see the module docstring).

    Array shapes: ``N`` public nodes, ``E`` edges, ``P`` players, ``R`` rounds, ``T`` table
    terminals, ``D`` listed deals.
    """

    game_name: str
    params: dict[str, Any]
    num_players: int
    num_rounds: int
    # -- the public tree ----------------------------------------------------------------
    node_kind: np.ndarray  # int8[N]: DECISION, CHANCE or TERMINAL
    node_player: np.ndarray  # int32[N]: the acting player at DECISION nodes, else -1
    node_round: np.ndarray  # int32[N]: the round (which private state of each player applies)
    node_level: np.ndarray  # int32[N]: public chance nodes above (a chance node's outcome index in a deal)
    child_start: np.ndarray  # int32[N+1]: CSR offsets into child_list
    child_list: np.ndarray  # int32[E]: children in action order
    edge_label: np.ndarray  # int64[E]: the game's action, or the public outcome of a chance edge
    edge_class: np.ndarray  # int8[E]: action class (``class_names``) for biased continuations, -1 none
    row_owner: np.ndarray  # int32[N]: the node whose table rows a decision node uses
    settled: np.ndarray  # bool[N, P]: p has nothing left to decide below n ...
    settled_value: np.ndarray  # float64[N, P]: ... and receives this whatever happens
    # -- terminal values ----------------------------------------------------------------
    term_kind: np.ndarray  # int8[N]: FIXED, CONTEST or TABLE at terminals, -1 elsewhere
    payoff: np.ndarray  # float64[N, P]: FIXED payoffs; CONTEST: each player's stake
    contender: np.ndarray  # bool[N, P]: CONTEST: who competes for the stakes
    term_row: np.ndarray  # int32[N]: TABLE: row of ``table``, -1 elsewhere
    table: np.ndarray  # float64[T, D, P]: TABLE payoffs per listed deal
    # -- private states and chance ------------------------------------------------------
    num_private: np.ndarray  # int32[R]: private states per player in each round
    deals: Deals | None  # None: no sampling solver (an item-removal form: vcfr only)
    # -- what the Python side needs ------------------------------------------------------
    class_names: tuple[str, ...] = ()
    regret_scale: float = 1.0  # int32 regret units per payoff unit (MCCFR)
    mccfr_defaults: dict[str, Any] = attrs.field(factory=dict)
    default_minutes: float | None = None  # training time when neither iterations nor minutes are given
    default_threads: int | None = None  # MCCFR training threads when --threads is not given (None: one)
    describe: str = ""  # one line naming the abstraction
    node_keys: tuple[str, ...] = ()  # the game's public state key of each node, where known
    # information-state key -> (node, private state); for games whose form maps back exactly
    locate: Callable[[str], tuple[int, int]] | None = None
    # (node, private state) -> the game's information-state key (None where it cannot occur)
    key_of: Callable[[int, int], str | None] | None = None
    # (decision node, player) -> {the player's information-state key there: private state}
    private_keys: Callable[[int, int], dict[str, int]] | None = None
    lossless: bool = False  # infosets are exactly the game's (exact evaluation, search)
    # Card removal without listed deals (two players: gamesolve/game/removal.py; three:
    # gamesolve/game/removal_multi.py): the items each private state holds, strengths per
    # public chance path, chance weights.
    removal: Removal | None = attrs.field(default=None, validator=attrs.validators.optional(attrs.validators.instance_of(Removal)))
    # Rollout terminals (gamesolve/game/rollout.py).
    rollout: Rollout | None = attrs.field(default=None, validator=attrs.validators.optional(attrs.validators.instance_of(Rollout)))
    # Public chance outcomes dealt once for their symmetric twins (gamesolve/game/symmetry.py):
    # valid while every player's reach is invariant under its permutations.
    symmetry: ChanceSymmetry | None = attrs.field(
        default=None, validator=attrs.validators.optional(attrs.validators.instance_of(ChanceSymmetry))
    )

    # -- shapes -------------------------------------------------------------------------
    @property
    def num_nodes(self) -> int:
        return len(self.node_kind)

    @property
    def num_actions(self) -> np.ndarray:
        return np.diff(self.child_start).astype(np.int32)

    @property
    def num_levels(self) -> int:
        """Public chance levels a deal carries outcomes for."""
        return self.deals.num_levels if self.deals is not None else int(self.node_level.max(initial=0)) + 1

    def row_sizes(self) -> np.ndarray:
        """Table entries each node owns: private states of its round times its actions (0 at
        chance nodes, terminals and decision nodes that use another node's rows)."""
        sizes = self.num_private[self.node_round].astype(np.int64) * self.num_actions
        sizes[(self.node_kind != DECISION) | (self.row_owner != np.arange(self.num_nodes))] = 0
        return sizes

    def summary(self) -> dict[str, int]:
        owners = (self.node_kind == DECISION) & (self.row_owner == np.arange(self.num_nodes))
        return {
            "public_nodes": self.num_nodes,
            "decision_nodes": int((self.node_kind == DECISION).sum()),
            "chance_nodes": int((self.node_kind == CHANCE).sum()),
            "infosets": int(self.num_private[self.node_round[owners]].sum()),
            "infoset_actions": int(self.row_sizes().sum()),
            "deals": self.deals.count if self.deals is not None and self.deals.listed is not None else -1,
        }

    # -- the kernels' view ----------------------------------------------------------------
    def tree_arrays(self) -> TreeArrays:
        return TreeArrays(
            self.node_kind, self.node_player, self.node_round, self.node_level, self.child_start,
            self.child_list, self.edge_label, self.row_owner, self.settled, self.settled_value, self.num_private,
        )  # fmt: skip

    def terminal_arrays(self) -> TerminalArrays:
        """Terminal values as the kernels read them. Their ``table`` is deal-major,
        ``[D, T, P]``: an MCCFR iteration reads one deal's payoffs, which then lie together
        (10% faster on Liar's Dice than ``[T, D, P]``, whose reads land 36 x 2 values apart)."""
        return TerminalArrays(self.term_kind, self.payoff, self.contender, self.term_row, self._table_by_deal)

    @cached_property
    def _table_by_deal(self) -> np.ndarray:
        """The kernels' copy of ``table``, deal-major (see :meth:`terminal_arrays`), made on
        first use: a form no kernel reads holds its table once. (A cached property: attrs keeps
        it beside the fields, out of pickles and evolve copies, and no code here writes to
        the frozen form.)"""
        return np.ascontiguousarray(self.table.transpose(1, 0, 2))

    # -- facts the search and the agents read -------------------------------------------
    def num_actions_at(self, node: int) -> int:
        """Actions at ``node`` (:attr:`num_actions` builds the whole array: use this in loops)."""
        return int(self.child_start[node + 1] - self.child_start[node])

    def children(self, node: int) -> np.ndarray:
        return self.child_list[self.child_start[node] : self.child_start[node + 1]]

    def labels(self, node: int) -> np.ndarray:
        return self.edge_label[self.child_start[node] : self.child_start[node + 1]]

    def in_play(self, node: int) -> list[int]:
        """Players with something still to decide below ``node`` (not settled)."""
        return [p for p in range(self.num_players) if not self.settled[node, p]]

    def has_constant_private_states(self) -> bool:
        """Whether every player keeps one private state through the game (vector CFR and range
        beliefs carry one vector per player through round changes only then)."""
        listed = self.deals.listed if self.deals is not None else None
        if listed is None:
            return False
        first = listed.private[:, :, :1]
        return bool(np.all(listed.private == first)) and bool(np.all(self.num_private == self.num_private[0]))

    def check(self) -> None:
        """Raise :class:`FormError` where the arrays contradict each other (cheap; run by the
        compilers and by tests)."""
        n, p = self.num_nodes, self.num_players
        if len(self.child_start) != n + 1 or self.child_start[-1] != len(self.child_list):
            raise FormError("child_start does not match child_list")
        if len(self.edge_label) != len(self.child_list) or len(self.edge_class) != len(self.child_list):
            raise FormError("edge arrays do not match child_list")
        for name in ("settled", "settled_value", "payoff", "contender"):
            if getattr(self, name).shape != (n, p):
                raise FormError(f"{name} has shape {getattr(self, name).shape}, expected {(n, p)}")
        if np.any(self.child_list[: len(self.child_list)] <= np.repeat(np.arange(n), self.num_actions)):
            raise FormError("the public tree is not in preorder (a child precedes its parent)")
        decision = self.node_kind == DECISION
        if np.any(self.num_actions[decision] < 1):
            raise FormError("a decision node has no actions")
        terminal = self.node_kind == TERMINAL
        if np.any(self.num_actions[terminal] != 0) or np.any(self.term_kind[terminal] < 0):
            raise FormError("a terminal has children or no terminal kind")
        owners = self.row_owner[decision]
        if np.any(self.node_player[owners] != self.node_player[decision]) or np.any(
            self.num_actions[owners] != self.num_actions[decision]
        ):
            raise FormError("nodes sharing table rows disagree on player or action count")
        if np.any(self.row_owner[owners] != owners):
            raise FormError("a row owner uses another node's rows")
        if np.any((self.node_kind == CHANCE) & (self.node_level >= max(self.num_levels, 0))):
            raise FormError("a public chance node has no outcome in the deals")
        if len(self.num_private) != self.num_rounds or np.any(self.node_round >= self.num_rounds):
            raise FormError("node rounds and private-state rounds disagree")


def chance_paths(form: FactoredGame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each node's public chance path (outcomes of the chance nodes above it, numbered) and,
    per path, the listed deals consistent with it (CSR ``start`` into ``members``): deals of
    positive probability whose public outcomes match the path's so far."""
    deals = form.deals.listed
    ends = subtree_ends(form)
    path_of = np.zeros(form.num_nodes, dtype=np.int32)
    outcomes: list[tuple[int, ...]] = [()]
    index: dict[tuple[int, ...], int] = {(): 0}
    for node in np.flatnonzero(form.node_kind == CHANCE):
        for k in range(form.child_start[node], form.child_start[node + 1]):
            path = outcomes[path_of[node]] + (int(form.edge_label[k]),)
            if path not in index:
                index[path] = len(outcomes)
                outcomes.append(path)
            child = form.child_list[k]
            # The whole subtree of the child (preorder: a range) inherits the path; deeper
            # chance nodes, met later in preorder, overwrite their own subtrees.
            path_of[child : ends[child]] = index[path]
    members = []
    for path in outcomes:
        ok = deals.prob > 0
        for level, outcome in enumerate(path):
            ok = ok & (deals.public[:, level] == outcome)
        members.append(np.flatnonzero(ok))
    start = np.zeros(len(outcomes) + 1, dtype=np.int64)
    np.cumsum([len(m) for m in members], out=start[1:])
    return path_of, start, np.concatenate(members).astype(np.int64)


def subtree_ends(form: FactoredGame) -> np.ndarray:
    """One past the last node of each node's subtree (preorder: every subtree is a range)."""
    return _subtree_ends(form.child_start, form.child_list, form.num_nodes)


def round_segments(form: FactoredGame, actions: int | None, raises: int | None) -> np.ndarray:
    """``int32[N]``: which stretch of its round each node is in, the round (from the root or its
    last public chance node) cut into stretches of ``actions`` actions or ``raises`` raises,
    whichever ends first (the ``raise`` action class; None: no such limit). A stretch starts
    where the one before it reached a limit: where a depth-limited subgame from the stretch's
    start has its leaves."""
    raise_class = form.class_names.index("raise") if "raise" in form.class_names else -1
    return _round_segments(form.node_kind, form.child_start, form.child_list, form.edge_class, raise_class,
                           0 if actions is None else actions, 0 if raises is None else raises, form.num_nodes)  # fmt: skip


@njit(cache=True)
def _round_segments(kind, child_start, child_list, edge_class, raise_class, max_actions, max_raises, num_nodes):
    segment = np.zeros(num_nodes, dtype=np.int32)
    actions = np.zeros(num_nodes, dtype=np.int32)  # since the stretch started
    raises = np.zeros(num_nodes, dtype=np.int32)
    for node in range(num_nodes):  # parents come before their children
        for k in range(child_start[node], child_start[node + 1]):
            child = child_list[k]
            if kind[node] == CHANCE:
                continue  # a new round: its first stretch, nothing counted
            a = actions[node] + 1
            r = raises[node] + (1 if raise_class >= 0 and edge_class[k] == raise_class else 0)
            if (max_actions > 0 and a >= max_actions) or (max_raises > 0 and r >= max_raises):
                segment[child] = segment[node] + 1
            else:
                segment[child], actions[child], raises[child] = segment[node], a, r
    return segment


@njit(cache=True)
def _subtree_ends(child_start, child_list, num_nodes):
    # Children come after their parents, so a backward sweep sees every child's end final
    # before its parent's (16.7 million nodes of Liar's Dice 2x6 in a fraction of a second).
    end = np.arange(1, num_nodes + 1, dtype=np.int64)
    for node in range(num_nodes - 1, -1, -1):
        for k in range(child_start[node], child_start[node + 1]):
            c = child_list[k]
            if end[c] > end[node]:
                end[node] = end[c]
    return end

