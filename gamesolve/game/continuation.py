"""Continuation strategies for depth-limited search (Pluribus, "Depth-limited search").

At a subgame's leaves each player picks one of k strategies for the rest of the game: the
blueprint, and the blueprint with the probabilities of one class of actions multiplied by
``bias`` (5 in the paper) and renormalised; poker's classes are folding, calling and raising,
other games name their own (``State.action_class``). Each is stored compressed to *one
sampled action per abstract information set*, in the fewest bits that hold an action index.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from gamesolve.game.factored import DECISION
from gamesolve.rng import categorical, splitmix

MAX_CONTINUATIONS = 4
"""Pluribus' k: the blueprint and three biased strategies."""


def continuation_names(class_names: tuple[str, ...]) -> tuple[str, ...]:
    """The continuation strategies of a game with these action classes: the blueprint, then
    one biased towards each class (at most :data:`MAX_CONTINUATIONS` in all)."""
    return (("blueprint",) + tuple(class_names))[:MAX_CONTINUATIONS]


@njit(cache=True)
def sample_continuations(strategy, node_offset, node_kind, node_round, child_start, edge_class, row_owner,
                         num_private, infoset_start, bias, seed, k, out):  # fmt: skip
    """``out[infoset]`` = an action index sampled from continuation strategy ``k`` (0 the
    blueprint, ``k > 0`` the blueprint with actions of class ``k - 1`` made ``bias`` times as
    likely) at every allocated infoset. One strategy per call, so writing a large blueprint
    needs one byte per infoset at a time."""
    state = np.uint64(seed) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(1)
    probs = np.empty(256)
    for node in range(node_kind.shape[0]):
        off = node_offset[node]
        if off < 0 or node_kind[node] != DECISION or row_owner[node] != node:
            continue
        c0 = child_start[node]
        n_act = child_start[node + 1] - c0
        for b in range(num_private[node_round[node]]):
            row = off + b * n_act
            total = 0.0
            for a in range(n_act):
                p = strategy[row + a]
                if k > 0 and edge_class[c0 + a] == k - 1:
                    p *= bias
                probs[a] = p
                total += p
            state, u = splitmix(state)
            out[infoset_start[node] + b] = 0 if total <= 0.0 else categorical(u * total, probs, 0, n_act)


def infoset_numbering(node_offset: np.ndarray, node_kind: np.ndarray, node_round: np.ndarray,
                      row_owner: np.ndarray, num_private: np.ndarray) -> tuple[np.ndarray, int]:  # fmt: skip
    """``infoset_start[node]`` (first infoset number of each allocated row owner, -1
    elsewhere) and the number of infosets, numbering nodes in order and private states within."""
    allocated = (node_offset >= 0) & (node_kind == DECISION) & (row_owner == np.arange(len(node_kind)))
    counts = np.where(allocated, num_private[node_round], 0).astype(np.int64)
    start = np.cumsum(counts) - counts
    return np.where(allocated, start, -1), int(counts.sum())


def bits_for(max_actions: int) -> int:
    return max(1, math.ceil(math.log2(max(2, max_actions))))


@njit(cache=True)
def _pack(values, bits, out):
    for i in range(values.shape[0]):
        v = values[i]
        for j in range(bits):
            if (v >> j) & 1:
                pos = i * bits + j
                out[pos >> 3] |= np.uint8(1 << (7 - (pos & 7)))


def pack(values: np.ndarray, bits: int) -> np.ndarray:
    """Pack non-negative ints below ``2**bits`` into bytes, ``bits`` bits each (bit j of value
    i at bit position ``i * bits + j``, most significant first within a byte, as np.packbits)."""
    out = np.zeros(-(-len(values) * bits // 8), dtype=np.uint8)
    _pack(np.ascontiguousarray(values), bits, out)
    return out


@njit(cache=True, inline="always")
def packed_action(packed, k, bits, info):
    """Continuation strategy ``k``'s action index at information set ``info`` in ``packed[k]``
    (:func:`pack`'s layout), for kernels that play the stored continuations."""
    value = 0
    for j in range(bits):
        g = info * bits + j
        value |= ((packed[k, g >> 3] >> (7 - (g & 7))) & 1) << j
    return value


def unpack(packed: np.ndarray, bits: int, count: int) -> np.ndarray:
    flat = np.unpackbits(packed)[: count * bits].reshape(count, bits).astype(np.int64)
    return (flat << np.arange(bits)).sum(axis=1)


def unpack_one(packed, bits: int, index: int) -> int:
    """One value, reading only the bytes that hold it (for lazily read stores)."""
    first, last = index * bits, (index + 1) * bits - 1
    chunk = np.unpackbits(np.asarray(packed[first // 8 : last // 8 + 1], dtype=np.uint8))
    offset = first - (first // 8) * 8
    value = 0
    for j in range(bits):
        value |= int(chunk[offset + j]) << j
    return value
