"""16-bit node blocks of the vector-CFR tables: b-inary/postflop-solver's compressed storage.

postflop-solver's ``compression`` option stores each node's cumulative regrets as ``i16`` and
its cumulative strategy as ``u16``, each block with one float scale, decodes a block to
floats when it is read, updates it, and encodes it again with the scale recomputed from the
block's new largest magnitude (rounded to the nearest level, no stochastic rounding). Half
the table memory and half its traffic, for a relative precision of 1/32767 (regrets) or
1/65535 (strategy sums) of the block's largest entry.

Here a block is one owner node's entries (every action, every private state; action-major
as :data:`~gamesolve.solve.kernels.vcfr.VectorTables`), and its scale (float32, one per
node) is the value of one level: an entry is ``code * scale``. Regret matching and the
normalised average are unchanged by a positive factor common to the block, so they read
the codes directly (:func:`~gamesolve.solve.kernels.vcfr._node_strategy`); only the
updates decode and encode, through the float64 buffer of the node's action values.

The kernels here are plain functions over arrays, called once per node update.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gamesolve.solve.kernels.regret_matching import updated_regret

SIGNED_LEVELS = 32767.0
"""Largest ``int16`` code: a regret block's largest magnitude maps to +-32767."""
UNSIGNED_LEVELS = 65535.0
"""Largest ``uint16`` code: an average block's largest entry maps to 65535."""

@njit(cache=True)
def encode_block(values, n_act, n_states, table, row0, levels):
    """Encode ``values[a, s]`` (``a < n_act``, ``s < n_states``) into ``table[row0 + a *
    n_states + s]`` as the nearest multiple of the returned float32 scale (largest magnitude
    / ``levels``; 0 for an all-zero block). ``levels`` is :data:`SIGNED_LEVELS` for an
    ``int16`` table, :data:`UNSIGNED_LEVELS` for a ``uint16`` one (its values must be
    non-negative). Codes are clamped to +-``levels``, so that a scale rounded down to float32
    cannot overflow them."""
    m = 0.0
    for a in range(n_act):
        v = values[a]
        for s in range(n_states):
            x = abs(v[s])
            m = x if x > m else m
    scale = np.float32(m / levels)
    inv = 1.0 / np.float64(scale) if scale > 0 else 0.0
    lo = -levels if levels == SIGNED_LEVELS else 0.0
    for a in range(n_act):
        v = values[a]
        blk = table[row0 + a * n_states : row0 + (a + 1) * n_states]
        for s in range(n_states):
            x = v[s] * inv
            x = levels if x > levels else lo if x < lo else x
            # Nearest, halves away from zero: truncation of x +- 1/2 (about 3x faster here
            # than math.floor, which does not vectorise to the integer store).
            blk[s] = np.int32(x + 0.5 if x >= 0.0 else x - 0.5)
    return scale


@njit(cache=True)
def add_average(avg, avg_scale, node, row0, n_act, n_states, reach_p, weight, sigma, buf):
    """The average-strategy update of node ``node``'s ``uint16`` block at ``row0``: decode,
    add ``reach_p[s] * weight * sigma[a, s]``, encode (``buf[A, S]``: float64 scratch)."""
    scale = np.float64(avg_scale[node])
    for a in range(n_act):
        blk = avg[row0 + a * n_states : row0 + (a + 1) * n_states]
        sig_a, out = sigma[a], buf[a]
        for s in range(n_states):
            out[s] = blk[s] * scale + reach_p[s] * weight * sig_a[s]
    avg_scale[node] = encode_block(buf, n_act, n_states, avg, row0, UNSIGNED_LEVELS)


@njit(cache=True)
def add_regrets(regrets, regret_scale, node, row0, n_act, n_states, act, value, clip, scaled, pos_d, neg_d):
    """The regret update of node ``node``'s ``int16`` block at ``row0``: decode, add each
    action's advantage ``act[a, s] - value[s]``, clip or discount
    (:func:`~gamesolve.solve.kernels.regret_matching.updated_regret`, as the float tables),
    encode. ``act`` (the children's values, not needed afterwards) takes the new regrets."""
    scale = np.float64(regret_scale[node])
    for a in range(n_act):
        blk = regrets[row0 + a * n_states : row0 + (a + 1) * n_states]
        out = act[a]
        for s in range(n_states):
            out[s] = updated_regret(blk[s] * scale + (out[s] - value[s]), clip, scaled, pos_d, neg_d)
    regret_scale[node] = encode_block(act, n_act, n_states, regrets, row0, SIGNED_LEVELS)


@njit(cache=True)
def decode_blocks(table, scale, row_offset, n_act, n_states, out):
    """Every owner node's block of ``table`` times its scale into ``out`` (float64, the same
    layout): the values the codes stand for."""
    for node in range(row_offset.shape[0]):
        row0 = row_offset[node]
        if row0 < 0:
            continue
        sc = np.float64(scale[node])
        for i in range(row0, row0 + n_act[node] * n_states):
            out[i] = table[i] * sc
