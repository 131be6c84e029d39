"""The optional records a :class:`~gamesolve.game.factored.FactoredGame` carries besides its
arrays: card removal without listed deals, rollout terminals and symmetric chance outcomes.

They are defined here, below :mod:`gamesolve.game.factored`, so that the form can name their
types: :mod:`gamesolve.game.rollout` builds on the form (it reads a continuation game's
arrays), so the record could not live there without the two modules importing each other.
The modules that build and read them (:mod:`gamesolve.game.removal`,
:mod:`gamesolve.game.rollout`, :mod:`gamesolve.game.symmetry`) import them from here and
explain them. They are namedtuples, not attrs classes, because the numba kernels take them as
arguments.
"""

from __future__ import annotations

from collections import namedtuple

Removal = namedtuple(
    "Removal", "items n_items node_path path_strength path_order path_groups path_bounds path_items chance_weight holders"
)
"""Item removal as the vector kernels read it: ``items[s]`` (up to 2 item numbers, -1 for
none), the number of items, each node's public chance path, each path's contest strength of
every private state (``path_strength[path, s]``; larger is better; negative: the state holds
one of the path's public items and cannot be at a contest there) and the states in order of
strength (``path_order[path]``), each node's chance weight (1 elsewhere), and whether each
state holds each item (``holders[item, s]``: a chance outcome's states that lose their reach,
read as one contiguous row).

The two-player contest reads each path's order cut into groups of equal strength, states of
negative strength left out: group ``g < path_groups[path]`` is the positions
``path_bounds[path, g] : path_bounds[path, g + 1]`` of ``path_order[path]``, and
``path_items[path, k]`` are the items of the state at position ``k`` (-1 as ``n_items``).
Build it with :func:`gamesolve.game.removal.item_removal`."""

RemovalThree = namedtuple("RemovalThree", Removal._fields)
"""The same bundle for a game of three players: a type of its own, so that a kernel compiled for
two players leaves the three-player terminal sums out (see :data:`Removal`)."""

Rollout = namedtuple(
    "Rollout",
    "kind player round child_start child_list row_owner settled settled_value "
    "t_kind t_payoff t_contender t_row t_table "
    "infoset_start packed bits player_of entry choice ratio entry_stake",
)
"""Rollout terminals as the kernels read them (flat: parallel kernels take no nested
bundles): the continuation game's public tree and terminal arrays (``t_*``, as
:class:`~gamesolve.game.factored.TerminalArrays`), its continuation strategies
(``infoset_start[node]``, ``packed[k]``: bit-packed action indices of ``bits`` bits),
``player_of`` (continuation player -> subgame player) and, per subgame node, the leaf's entry
node, choices ``[N, P]`` (by subgame player), ratio and entry stakes ``[N, P]``. Build it with
:func:`gamesolve.game.rollout.make_rollout`."""

ChanceSymmetry = namedtuple("ChanceSymmetry", "twin_start twin_item twin_perm perms")
"""``twin_start`` int64[E+1] (CSR over edges), ``twin_item`` int32[T] (the twin's dealt item),
``twin_perm`` int32[T] (its row of ``perms``), ``perms`` int32[M, S] (``perms[m, s]``: the
state whose value below the kept outcome is ``s``'s value below the twin; see
:mod:`gamesolve.game.symmetry`)."""
