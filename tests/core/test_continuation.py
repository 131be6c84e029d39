"""Continuation strategies: biased by x5, one sampled action per infoset, packed in few bits."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from gamesolve.game import continuation as C
from gamesolve.game.poker_form import FOLD, RAISE
from gamesolve_leduc import LeducGame
from gamesolve_leduc.poker_form import leduc_form


@settings(deadline=None)  # the first example compiles the numba packer
@given(st.integers(1, 6), st.lists(st.integers(0, 63), min_size=1, max_size=200))
def test_packing_round_trips(bits, values):
    values = np.array([v % (1 << bits) for v in values])
    packed = C.pack(values, bits)
    assert len(packed) == -(-len(values) * bits // 8)  # the fewest whole bytes
    assert C.unpack(packed, bits, len(values)).tolist() == values.tolist()
    assert [C.unpack_one(packed, bits, i) for i in range(len(values))] == values.tolist()


def uniform_choices(tree, seed):
    sizes = tree.row_sizes()
    node_offset = np.where(sizes > 0, np.cumsum(sizes) - sizes, -1)
    rows = np.zeros(int(sizes.sum()))
    for node in np.flatnonzero(sizes > 0):
        n_act = tree.child_start[node + 1] - tree.child_start[node]
        rows[node_offset[node] : node_offset[node] + sizes[node]] = 1.0 / n_act
    start, count = C.infoset_numbering(node_offset, tree.node_kind, tree.node_round, tree.row_owner, tree.num_private)
    out = np.zeros((4, count), dtype=np.uint8)
    for k in range(4):
        C.sample_continuations(rows, node_offset, tree.node_kind, tree.node_round, tree.child_start,
                               tree.edge_class, tree.row_owner, tree.num_private, start, 5.0, seed * 4 + k, k, out[k])  # fmt: skip
    return out, start


def kind_share(tree, choices, start, kind, bias=None):
    """Share of infosets (offering ``kind``) whose sampled action is ``kind``; with ``bias``,
    the share expected when a uniform blueprint's ``kind`` is multiplied by it."""
    hits = expected = total = 0
    for node in np.flatnonzero(start >= 0):
        kinds = tree.edge_class[tree.child_start[node] : tree.child_start[node + 1]]
        if kind not in kinds:
            continue
        for b in range(tree.num_private[tree.node_round[node]]):
            total += 1
            hits += kinds[choices[start[node] + b]] == kind
            if bias:
                expected += bias / (bias + len(kinds) - 1)
    return expected / total if bias else hits / total


def test_continuations_are_the_blueprint_then_one_per_action_class():
    assert C.continuation_names(("fold", "call", "raise")) == ("blueprint", "fold", "call", "raise")
    assert C.continuation_names(("bid", "liar")) == ("blueprint", "bid", "liar")


def test_biased_continuations_favour_their_action_by_the_factor():
    tree = leduc_form(LeducGame(3), "card")
    out, start = uniform_choices(tree, seed=1)
    # With a uniform blueprint over n actions, fold x5 gives fold 5 / (5 + n - 1) of the time.
    assert kind_share(tree, out[0], start, FOLD) < 0.45
    assert abs(kind_share(tree, out[1], start, FOLD) - kind_share(tree, out[1], start, FOLD, bias=5.0)) < 0.03
    assert kind_share(tree, out[3], start, RAISE) > kind_share(tree, out[0], start, RAISE) + 0.2


def test_sampling_is_seeded():
    tree = leduc_form(LeducGame(2))
    assert np.array_equal(uniform_choices(tree, 3)[0], uniform_choices(tree, 3)[0])
    assert not np.array_equal(uniform_choices(tree, 3)[0], uniform_choices(tree, 4)[0])
