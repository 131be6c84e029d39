"""The *stakes* part of AIVAT's hold'em value function: what the rest of the stacks add.

The check-down value prices a hand at the chips matched so far. After the flop, hands are
often played for much more: when both players hold strong hands the stacks go in. The
stakes model adds to the check-down value of a world ``k`` (the agent's hole cards)

    R * T[street, bin(s_k), bin(s_opp), bin(eq_k)]

``R`` the effective stack still behind (the smaller of the two players' chips, minus the
matched amount), ``s`` a hand's *strength* (the percentile of its best hand with the board
among all hole-card pairs the board allows: what it has made so far, no draws), ``eq_k`` the
world's exact check-down equity against the opponent's hand (a feature on the turn and the
river; not on the flop, whose 19,600 boards are sampled). ``T`` is the mean share of the
remaining stack the agent won or lost beyond its check-down value, fitted by weighted least
squares (weights ``R**2``, shrunk toward 0) on calibration hands played *before* the match
(:func:`fit_table`, ``benchmarks/aivat_fit.py``): never on the hands it evaluates. AIVAT
stays unbiased whatever the table holds; a good table only reduces more variance.

The table shipped (``stakes-hu.json``) records how it was fitted in its attributes.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import attrs
import numpy as np
from numba import njit

from gamesolve_nlth.evaluate.hands import HOLES, NUM_HOLES, hole_index, possible
from gamesolve_nlth.evaluator import evaluate5, evaluate6, evaluate7

STRENGTH_EDGES = (0.5, 0.75, 0.9, 0.97)  # strength bins: [0, .5), [.5, .75), ... [.97, 1]
EQUITY_EDGES = (0.2, 0.5, 0.8)
SHIPPED = Path(__file__).with_name("stakes-hu.json")
KIND = "gamesolve-nlth-aivat-stakes"


@njit(cache=True)
def made_hand_values(board, holes, out):
    """``out[k]`` = the value of pair ``k``'s best hand with the 3, 4 or 5 board cards
    (-1 where the pair shares a card with the board)."""
    n = board.shape[0]
    for k in range(holes.shape[0]):
        a, b = holes[k, 0], holes[k, 1]
        clash = False
        for i in range(n):
            if board[i] == a or board[i] == b:
                clash = True
        if clash:
            out[k] = -1
        elif n == 3:
            out[k] = evaluate5(a, b, board[0], board[1], board[2])
        elif n == 4:
            out[k] = evaluate6(a, b, board[0], board[1], board[2], board[3])
        else:
            out[k] = evaluate7(a, b, board[0], board[1], board[2], board[3], board[4])


@functools.lru_cache(maxsize=256)
def strength_vector(board: tuple[int, ...]) -> np.ndarray:
    """float64[1326]: each pair's strength on ``board`` (3 to 5 cards): the share of the
    other possible pairs its best hand beats, ties counting half (NaN where impossible)."""
    values = np.empty(NUM_HOLES, dtype=np.int64)
    made_hand_values(np.asarray(board, dtype=np.int64), HOLES, values)
    ok = possible(board)
    ranked = np.sort(values[ok])
    below = np.searchsorted(ranked, values, side="left")
    equal = np.searchsorted(ranked, values, side="right") - below
    out = np.where(ok, (below + 0.5 * (equal - 1)) / (len(ranked) - 1), np.nan)
    out.setflags(write=False)
    return out


_STRENGTH_EDGES = np.array(STRENGTH_EDGES)
_EQUITY_EDGES = np.array(EQUITY_EDGES)


def cells(street: int, strength: np.ndarray, opponent_strength: float, equity: np.ndarray) -> np.ndarray:
    """The flat index of the table cell of each world (street 1 to 3). On the flop the
    equity is not a feature (its bin is 0): the flop's correction then needs only strengths
    for its expectation over the 19,600 flops (sampled, see ``HoleCardAIVAT``). A NaN
    (an impossible world) falls in the first bin."""
    out = np.empty(len(strength), dtype=np.int64)
    _cells(street, np.asarray(strength, dtype=np.float64), float(opponent_strength), np.asarray(equity, dtype=np.float64),
           _STRENGTH_EDGES, _EQUITY_EDGES, out)  # fmt: skip
    return out


@njit(cache=True, inline="always")
def _bin(x, edges):
    """``np.digitize(np.nan_to_num(x), edges)``: how many edges are <= x (NaN: none)."""
    i = 0
    for e in edges:
        if x >= e:
            i += 1
    return i


@njit(cache=True)
def _cells(street, strength, opponent_strength, equity, strength_edges, equity_edges, out):
    # A kernel, not numpy's digitize and nan_to_num: AIVAT asks for a board's cells tens of
    # thousands of times a match, where numpy's per-call overhead was most of their cost.
    ns, ne = strength_edges.shape[0] + 1, equity_edges.shape[0] + 1
    b = _bin(opponent_strength, strength_edges)
    for k in range(strength.shape[0]):
        e = 0 if street == 1 else _bin(equity[k], equity_edges)
        out[k] = (((street - 1) * ns + _bin(strength[k], strength_edges)) * ns + b) * ne + e


def table_shape() -> tuple[int, int, int, int]:
    return (3, len(STRENGTH_EDGES) + 1, len(STRENGTH_EDGES) + 1, len(EQUITY_EDGES) + 1)


@attrs.frozen
class StakesTable:
    """``T`` (flat, :func:`cells` indexes it) and what it was fitted on."""

    table: np.ndarray
    info: dict = attrs.field(factory=dict)

    def surplus(self, board, opponent_hole, equity: np.ndarray, street: int, behind: float) -> np.ndarray:
        """``behind * T[cell]`` of every world on ``board`` (float64[1326])."""
        if behind <= 0:
            return np.zeros(NUM_HOLES)
        s = strength_vector(tuple(int(c) for c in board))
        return behind * self.table[cells(street, s, float(s[hole_index(*opponent_hole)]), equity)]

    def save(self, path) -> None:
        Path(path).write_text(json.dumps({"kind": KIND, "strength_edges": list(STRENGTH_EDGES), "equity_edges": list(EQUITY_EDGES),
                                          "shape": list(table_shape()), "table": [round(float(x), 6) for x in self.table],
                                          "attrs": self.info}, indent=1) + "\n")  # fmt: skip


def load_table(path=SHIPPED) -> StakesTable:
    data = json.loads(Path(path).read_text())
    if data.get("kind") != KIND or tuple(data["strength_edges"]) != STRENGTH_EDGES or tuple(data["equity_edges"]) != EQUITY_EDGES:
        raise ValueError(f"{path}: not a stakes table of this version")
    return StakesTable(np.asarray(data["table"], dtype=np.float64), data.get("attrs", {}))


def fit_table(rows: np.ndarray, shrink: float = 5.0, attributes: dict | None = None) -> StakesTable:
    """Fit ``T`` from calibration rows ``(cell, behind, payoff - check-down value)``: per cell
    ``sum(R d) / (sum(R**2) + shrink * mean(R**2))``, the least-squares share shrunk toward 0."""
    rows = np.asarray(rows, dtype=np.float64).reshape(-1, 3)
    cell, behind, d = rows[:, 0].astype(np.int64), rows[:, 1], rows[:, 2]
    size = int(np.prod(table_shape()))
    num = np.bincount(cell, weights=behind * d, minlength=size)
    den = np.bincount(cell, weights=behind**2, minlength=size)
    prior = shrink * (float(np.mean(behind**2)) if len(rows) else 1.0)
    counts = np.bincount(cell, minlength=size)
    info = dict(attributes or {}, rows=int(len(rows)), shrink=shrink, counts=[int(c) for c in counts])
    return StakesTable(num / (den + prior), info)
