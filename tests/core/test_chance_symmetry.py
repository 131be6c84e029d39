"""gamesolve.game.symmetry: restricting a chance symmetry to the kept private states."""

from __future__ import annotations

import numpy as np
import pytest

from gamesolve.game.symmetry import ChanceSymmetry, restrict


def _symmetry() -> ChanceSymmetry:
    perms = np.array([[1, 0, 3, 2, 4, 5], [0, 1, 2, 3, 5, 4], [1, 0, 2, 3, 5, 4]], dtype=np.int32)
    return ChanceSymmetry(np.zeros(2, np.int64), np.zeros(0, np.int32), np.zeros(0, np.int32), perms)


def test_restrict_renumbers_the_kept_states():
    got = restrict(_symmetry(), np.array([0, 1, 4, 5]))
    assert got.perms.tolist() == [[1, 0, 2, 3], [0, 1, 3, 2], [1, 0, 3, 2]]


def test_restrict_gives_c_ordered_permutations():
    """numba types a Fortran-ordered array apart from a C-ordered one: a layout that depends on
    the path compiled the vector CFR kernels twice (issue 36)."""
    perms = restrict(_symmetry(), np.arange(6)).perms
    assert perms.flags.c_contiguous and perms.dtype == np.int32


def test_restrict_refuses_a_kept_set_the_permutations_leave():
    with pytest.raises(ValueError):
        restrict(_symmetry(), np.array([0, 2]))
