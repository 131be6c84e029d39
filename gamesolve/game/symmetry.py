"""Symmetric public chance outcomes: deal one outcome of each symmetry class and add the others'
values as permutations of its values (b-inary/postflop-solver's suit isomorphism of turn and
river cards).

When the game and every player's reach at a public chance node are invariant under a
permutation of private states that maps public outcome ``c`` to ``c'`` (hold'em: a suit swap,
on a board and ranges that do not tell those suits apart), the subtree below ``c'`` is the
image of the one below ``c``: only ``c``'s subtree is kept, and a state ``s`` receives, besides
its value below ``c``, the value below ``c`` of the state ``perm[s]`` that the permutation maps
to ``s``. CFR from symmetric reach keeps symmetric strategies, so this is exact (up to
rounding) and saves the twins' subtrees: their nodes, table rows and work.

Each chance edge ``k`` lists its twins (CSR ``twin_start[k] .. twin_start[k + 1]``): the item
(public card) a twin deals and the row of ``perms`` it uses. :func:`restrict` follows a
solver that keeps only some private states.
"""

from __future__ import annotations

import numpy as np

from gamesolve.game.form_records import ChanceSymmetry


def no_symmetry(num_edges: int, num_states: int) -> ChanceSymmetry:
    """Every outcome dealt (no twins)."""
    return ChanceSymmetry(np.zeros(num_edges + 1, np.int64), np.zeros(0, np.int32), np.zeros(0, np.int32),
                          np.zeros((0, num_states), np.int32))  # fmt: skip


def has_twins(sym: ChanceSymmetry) -> bool:
    return len(sym.twin_item) > 0


def invariant(sym: ChanceSymmetry, reach: np.ndarray) -> bool:
    """Whether every player's reach ``[P, S]`` is unchanged by each permutation (the
    condition for twins to stand for the outcomes they replace)."""
    return all(np.array_equal(reach[:, perm], reach) for perm in sym.perms)


def restrict(sym: ChanceSymmetry, keep: np.ndarray) -> ChanceSymmetry:
    """The symmetry over the kept states (``keep``: indices of the full states, increasing);
    the kept set must be closed under every permutation."""
    compact = np.full(sym.perms.shape[1], -1, dtype=np.int32)
    compact[keep] = np.arange(len(keep), dtype=np.int32)
    perms = compact[sym.perms[:, keep]]
    if np.any(perms < 0):
        raise ValueError("the kept private states are not closed under the chance symmetry")
    # C order: the fancy index above gives a Fortran-ordered array, and numba compiles the
    # vector CFR kernels again for each layout (a spot with mirror-image cards and one
    # without paid two compilations of the whole kernel tree; issue 36)
    return ChanceSymmetry(sym.twin_start, sym.twin_item, sym.twin_perm, np.ascontiguousarray(perms, dtype=np.int32))
