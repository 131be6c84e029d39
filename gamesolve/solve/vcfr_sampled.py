"""Vector-form CFR with public chance sampling over a one-board template, for subgames that
run to the end of the game from an early round (supplement, "Further details of the
real-time search algorithm": vector-form Linear CFR where only public board cards are
sampled).

The whole tree of such a subgame (a hold'em flop to the river: every turn and river card)
is too large to build and to keep tables for within one decision's time, but the betting
below a public chance node does not depend on the outcome dealt there. So the game is built
once with **one outcome at every public chance node** (the *template*: the subgame's tree
for one board), and each iteration relabels the template's chance edges with a freshly drawn
board and walks it with the very kernels of :class:`~gamesolve.solve.vcfr.VectorCFR`
(:func:`gamesolve.solve.kernels.vcfr.run`; no kernel of its own, so nothing new to compile).

Tables are allocated lazily per board reached: the rows of the template's level-0 nodes (the
current round) once; the rows of level ``L`` nodes in one block per prefix of ``L``
outcomes, on its first draw. Memory grows with the boards reached, at most the full tree's.

**Why the sampled pass is unbiased.** Chance at a level-``L`` node deals one of the ``m_L``
items still in the pool (``m_L = len(pool) - L``) with probability ``chance_weight`` each
(uniform given both players' private states; states holding the item get none of it). The
full pass adds ``sum_c w * v_c`` at such a node (``v_c``: the values below outcome ``c``,
zero for states holding ``c``). The sampled pass draws ``c`` uniformly from the ``m_L``
items and adds ``m_L * w * v_c``: its expectation is the full sum. The draws at deeper
levels are independent of everything above given the prefix, so by induction from the
leaves up, every node's sampled values are unbiased for its full values, given the
strategies at the start of the pass (which the pass does not change before reading: a row's
strategy is read before its regrets move). Hence:

* a level-0 node (visited every pass) gets an unbiased estimate of its full regret update;
* a level-``L`` node of board prefix ``b`` is visited with probability ``q_b`` (the chance
  of drawing ``b``) and then gets an unbiased estimate of its full update, so its expected
  update is ``q_b`` times the full one: a positive constant per row across iterations, which
  regret matching, Linear / DCFR discounting and CFR+ clipping all ignore.

Discounting (Linear CFR, DCFR) multiplies every regret by ``d_t`` after iteration ``t``;
the kernel does it for the rows a pass visits. A block not drawn at iterations ``a+1 .. t-1``
gets the product of the factors it missed (per sign, from running sums of their logarithms)
just before it is walked at ``t``, so each row's regrets equal what discounting every
iteration with a zero update when not drawn would give. The average strategy of a level-0
row is exact per iteration; deeper rows average over the iterations that drew them.

**Several boards per iteration, one per thread** (``boards_per_iteration=T``). An
iteration draws ``T`` boards whose first items (the turn cards on a flop) are distinct: the
first items without replacement, the rest of each board uniformly from the items left, so
that each board alone is uniform. Each player's pass walks the ``T`` boards on ``T``
threads against the strategies at the start of the pass; then

* a level-0 row adds the **mean** of the ``T`` boards' updates (regrets and average sums),
  summed in board order whatever order the threads finish in, and is discounted (or CFR+
  clipped) once, after the mean. Each board's update is unbiased for the full one, so their
  mean is too (linearity of expectation needs no independence between the boards), with
  less variance; iteration ``t``'s weight and the discount schedule are unchanged. (Every
  thread writes its level-0 updates undiscounted into its own scratch block of the table,
  the rows being the kernel's fixed rows for the pass: their strategy read from a buffer
  filled before the threads start, their discount applied after the pass.)
* a deeper block belongs to one board of the batch (distinct first items: distinct
  prefixes), which updates it in place, as a single-board iteration would. A level-``L``
  block of prefix ``b`` is now walked with probability ``T q_b`` per iteration (``q_b``
  with one board), again a positive constant per row, which regret matching, discounting
  and clipping ignore; its average strategy averages over the iterations that walked it.

With ``T = 1`` nothing changes: the same draws, the same kernels, the same bits.

``tests/nlth/test_sampled_flop.py`` checks the argument: the mean over every board of the
sampled first pass (root values, level-0 regrets, deeper regrets scaled by their ``1 /
q_b``) equals the full pass to 1e-9 on a small hold'em flop, and the sampled solver's
average strategy, mapped onto the full tree, has an exact exploitability that falls towards
0; with several boards, that an iteration's level-0 update is the mean of the boards'
updates from the same tables, discounted once (1e-12), that each deeper block takes its
board's own update to the bit, that the tables do not depend on the threads' timing, and
that the exploitability falls as with one board.
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Callable, Mapping, Sequence
from functools import partial

import numpy as np

from gamesolve.game.factored import CHANCE, CONTEST, DECISION, FactoredGame, FormError
from gamesolve.game.removal import item_removal
from gamesolve.solve.kernels import vcfr as K
from gamesolve.solve.cfr import TABULAR_ALGORITHMS, CFRConfig
from gamesolve.solve.vcfr import VectorCFR, _offsets
from gamesolve.threads import run_parts

_BOARD_FIELDS = ("path_strength", "path_order", "path_groups", "path_bounds", "path_items")
"""The fields of the removal bundle that change with the board drawn (one path's rows)."""

_Lane = namedtuple("_Lane", "tree removal scratch fixed values base")
"""What one thread of a several-board iteration walks with: its own copies of the arrays a
board relabels (tree, removal), path buffers, frozen-row flags (``fixed`` shares the
strategy buffer), root values, and the arena base of its level-0 scratch rows."""


class SampledChanceCFR(VectorCFR):
    """:class:`VectorCFR` over a one-board template with public chance sampling (see the
    module docstring). It exposes the level-0 rows only (:meth:`average_rows`,
    :meth:`current_rows`, :attr:`row_offset`: -1 at deeper nodes); :meth:`copy_into` puts
    every table it has into a full-tree :class:`VectorCFR` of the same game, for an exact
    best response.

    :param template: the game with one outcome at every public chance node and item removal;
        a chance node at level ``L`` deals the ``L + 1``-th public item; contests lie at the
        deepest level only.
    :param pool: the items chance may deal from the root (the deck's cards left); level
        ``L`` draws uniformly among those not drawn above it.
    :param strengths: ``strengths(items) -> int[S]``: every private state's contest strength
        on the complete board ``items`` (one item per level, in order), the template's layout.
    :param seed: of the board draws (the same seed, the same boards).
    :param boards_per_iteration: boards an iteration walks at once, one per thread, their
        level-0 update averaged (module docstring); 1 (the default) walks one board, whose
        flop lines ``threads`` may split as :class:`VectorCFR` does. With more, ``threads``
        must stay 1 (the boards are the parallel work).
    :param max_bytes: most bytes of tables; :meth:`run` stops early (and sets :attr:`full`)
        rather than allocate a block past it. None: no limit but the machine's.
    """

    def __init__(self, template: FactoredGame, config: CFRConfig = TABULAR_ALGORITHMS["lcfr"], *,
                 pool: Sequence[int], strengths: Callable[[tuple[int, ...]], np.ndarray], seed: int = 0,
                 root_reach: np.ndarray | None = None, frozen: Mapping[tuple[int, int], np.ndarray] | None = None,
                 threads: int = 1, boards_per_iteration: int = 1, dtype=np.float64,
                 max_bytes: int | None = None):  # fmt: skip
        if template.removal is None:
            raise FormError("public chance sampling over a template needs a game with item removal")
        if np.dtype(dtype) not in (np.float32, np.float64):
            # Its arena moves and discounts whole blocks of floats (16-bit tables: VectorCFR only).
            raise ValueError(f"sampled vcfr tables are float32 or float64, not {np.dtype(dtype)}")
        form = template
        chance = np.flatnonzero(form.node_kind == CHANCE)
        if np.any(form.num_actions[chance] != 1):
            raise FormError("a sampling template has exactly one outcome at every public chance node")
        level = form.node_level.astype(np.int64)
        self.levels = int(level.max()) + 1
        deepest = level == self.levels - 1
        contests = np.flatnonzero(form.term_kind == CONTEST)
        if np.any(~deepest[contests]):
            raise FormError("a sampling template's contests lie at its deepest public level")
        paths = np.unique(form.removal.node_path[deepest])
        if len(paths) != 1:
            raise FormError("a sampling template has one board at its deepest level")
        if frozen and any(level[node] != 0 for node, _ in frozen):
            raise FormError("frozen rows of a sampling template lie at its first public level")
        if len(pool) < self.levels - 1:
            raise FormError(f"a pool of {len(pool)} items cannot deal {self.levels - 1} public outcomes")
        batch = int(boards_per_iteration)
        if batch < 1:
            raise ValueError(f"boards_per_iteration must be at least 1, got {boards_per_iteration}")
        if batch > 1:
            if threads != 1:
                raise ValueError("with several boards per iteration each board has its own thread: leave threads at 1")
            if self.levels < 2 or len(pool) < batch:
                raise FormError(f"{batch} boards per iteration need a public chance level and {batch} items to deal first")
            decision = form.node_kind == DECISION
            if np.any(decision & (level > 0) & (form.row_owner != np.arange(form.num_nodes))):
                raise FormError("several boards per iteration need the rows shared by several nodes at the first public level")
        super().__init__(form, config, root_reach=root_reach, frozen=frozen, threads=threads, dtype=dtype)
        n, s = form.num_nodes, len(self.states)
        self.pool = np.asarray(pool, dtype=np.int64)
        self._strengths = strengths
        self._path = int(paths[0])
        self._rng = np.random.default_rng(seed)
        self._dtype = np.dtype(dtype)
        self.max_bytes = max_bytes
        self.full = False
        # Rows: one block per level and board prefix; a node's rows at its block's base + local offset.
        owners = (form.node_kind == DECISION) & (form.row_owner == np.arange(n))
        self._owners = np.flatnonzero(owners)
        self._owner_level = level[self._owners]
        self._local = np.full(n, -1, dtype=np.int64)
        self._block_size = np.zeros(self.levels, dtype=np.int64)
        for lv in range(self.levels):
            mine = owners & (level == lv)
            self._local[mine] = _offsets(mine, form.num_actions, s)[mine]
            self._block_size[lv] = int((form.num_actions[mine].astype(np.int64) * s).sum())
        top = owners & (level == 0)
        self._top_offset = np.where(top, self._local, -1)
        self.row_offset = _offsets(top, form.num_actions, self.num_states)  # the public layout of level-0 rows
        self._fixed, self._frozen_rows = self._fixed_rows(self._top_offset, frozen or {})
        # With a limit the tables are allocated at it at once: zeros from the system are mapped
        # on first touch, so untouched boards cost nothing and nothing is ever copied to grow.
        # Several boards per iteration: after the level-0 rows, one block of scratch rows per board.
        self.boards_per_iteration = batch
        top_rows = int(self._block_size[0]) * (1 + (batch if batch > 1 else 0))
        room = top_rows if max_bytes is None else max(max_bytes // (2 * self._dtype.itemsize), top_rows)
        self._regrets = np.zeros(max(room, 1), dtype=self._dtype)
        self._avg = np.zeros(len(self._regrets), dtype=self._dtype)  # not zeros_like: that one writes every page
        self._used = top_rows
        self._blocks: dict[tuple[int, ...], int] = {(): 0}
        self._last: dict[tuple[int, ...], int] = {(): 0}
        self._log_discount = np.zeros((2, 1))  # running sums of log d_t (positive, negative regrets)
        # Chance edges relabelled per board, weights scaled by the number of outcomes each stands for.
        self._chance_edges = [form.child_start[chance[level[chance] == lv]].astype(np.int64) for lv in range(self.levels - 1)]
        weight = self.removal.chance_weight.copy()
        for lv in range(self.levels - 1):
            weight[chance[level[chance] == lv]] *= len(self.pool) - lv
        self._tree = self._tree._replace(edge_label=form.edge_label.copy())
        rm = self.removal
        self.removal = rm._replace(chance_weight=weight, **{f: getattr(rm, f).copy() for f in _BOARD_FIELDS})
        self._boards: dict[tuple[int, ...], tuple] = {}
        self._top_view()
        if batch > 1:
            self._batch_fixed, self._lanes = self._new_lanes(batch, frozen or {}, top)

    def _new_lanes(self, count: int, frozen: Mapping[tuple[int, int], np.ndarray], top: np.ndarray) -> tuple[K.Fixed, list[_Lane]]:
        """The threads of a several-board iteration: every level-0 row becomes a fixed row (its
        strategy read from a buffer filled before the threads start, its update left
        undiscounted for the combination), and each thread gets its own :data:`_Lane`."""
        fixed, _ = self._fixed_rows(self._top_offset, frozen, also=top)
        size = int(self._block_size[0])
        lanes = []
        for i in range(count):
            tree = self._tree if i == 0 else self._tree._replace(edge_label=self._tree.edge_label.copy())
            rm = self.removal if i == 0 else self.removal._replace(**{f: getattr(self.removal, f).copy() for f in _BOARD_FIELDS})
            seen = np.zeros_like(fixed.seen)
            lanes.append(_Lane(tree, rm, self._new_scratch(1), fixed._replace(seen=seen), np.zeros(len(self.states)), size * (1 + i)))
        return fixed, lanes

    # -- one iteration ---------------------------------------------------------------------
    def draw(self) -> tuple[int, ...]:
        """The next board: one item per chance level, uniformly without replacement."""
        return tuple(int(c) for c in self._rng.choice(self.pool, size=self.levels - 1, replace=False))

    def draw_boards(self) -> list[tuple[int, ...]]:
        """The next iteration's :attr:`boards_per_iteration` boards: one :meth:`draw`; with
        several, their first items drawn without replacement (distinct), the rest of each
        board uniformly from the items left, so each board alone is uniform."""
        if self.boards_per_iteration == 1:
            return [self.draw()]
        boards = []
        for first in self._rng.choice(self.pool, size=self.boards_per_iteration, replace=False):
            rest = self._rng.choice(self.pool[self.pool != first], size=self.levels - 2, replace=False)
            boards.append((int(first), *(int(c) for c in rest)))
        return boards

    def run(self, iterations: int, batch: int = 0, on_batch: Callable[[int], None] | None = None) -> None:
        """``iterations`` more iterations, each on freshly drawn boards (:meth:`draw_boards`;
        stops early, with :attr:`full` set, if a new board's tables would pass
        :attr:`max_bytes`); ``on_batch(1)`` after each (``batch`` is :class:`VectorCFR`'s and
        ignored here)."""
        if iterations <= 0:
            raise ValueError(f"iterations must be positive, got {iterations}")
        for _ in range(iterations):
            if not self.run_boards(self.draw_boards()):
                break
            if on_batch is not None:
                on_batch(1)

    def run_board(self, board: tuple[int, ...], players: int | None = None) -> bool:
        """One iteration on ``board`` (both players' passes; ``players=1``: player 0's pass
        only, for checks). False, and nothing done, when its tables do not fit."""
        t = self.iterations + 1
        bases = self._bases(board)
        if bases is None:
            return False
        self._relabel(self._tree, self.removal, board)
        self.tables = K.VectorTables(self._walk_offsets(board, bases, t), self._regrets, self._avg, self.tables.root_reach)
        self.iterate(t, t, players)
        self.iterations = t
        self._top_view()
        return True

    def run_boards(self, boards: Sequence[tuple[int, ...]], players: int | None = None) -> bool:
        """One iteration on ``boards`` at once (one: :meth:`run_board`; else as many as
        :attr:`boards_per_iteration`, with distinct first items), one thread per board: each
        walks its board against the strategies at the start of the player's pass; the
        level-0 rows take the mean of the boards' updates, discounted once; each deeper block
        its one board's update. False, and nothing walked, when their tables do not fit."""
        if len(boards) == 1:
            return self.run_board(boards[0], players)
        if len(boards) != self.boards_per_iteration:
            raise ValueError(f"this solver walks {self.boards_per_iteration} boards an iteration, not {len(boards)}")
        if len({board[0] for board in boards}) != len(boards):
            raise ValueError("the boards of one iteration need distinct first items (their deeper rows would collide)")
        t = self.iterations + 1
        bases = []
        for board in boards:
            bases.append(self._bases(board))
            if bases[-1] is None:
                return False
        self._top_view()  # allocating may have moved the tables
        self._discount_logs(t)  # grown here, not by the threads' catch-ups
        top, fixed = self.tables, self._batch_fixed
        top_owners = self._owners[self._owner_level == 0]
        weight, pos_d, neg_d = K.factors(self.schedule, t)
        walks: list[K.VectorTables | None] = [None] * len(boards)

        def walk(p: int, i: int) -> None:
            lane = self._lanes[i]
            if walks[i] is None:  # the first pass sets its board up, on its own thread (distinct blocks)
                offset = self._walk_offsets(boards[i], bases[i], t)
                offset[top_owners] += lane.base
                self._relabel(lane.tree, lane.removal, boards[i])
                walks[i] = K.VectorTables(offset, self._regrets, self._avg, top.root_reach)
            form = K.FormArrays(lane.tree, self._terminals, self.terminal_deals, lane.removal, self._symmetry)
            ps = K.Pass(p, t, weight, pos_d, neg_d, K.UPDATE, self._regrets, True)
            K.one_pass(form, walks[i], self.schedule, lane.fixed, self._no_cuts, self._no_cuts, lane.scratch, ps, lane.values,
                       K.WHOLE, 0, 0, 0, 0, 0)  # fmt: skip

        scratch = np.array([lane.base for lane in self._lanes], dtype=np.int64)
        size = np.int64(self._block_size[0])
        for p in range(self.form.num_players if players is None else players):
            K._fill_fixed(self._tree, top, fixed)
            run_parts(len(self._lanes), partial(walk, p))
            # The boards' updates of the level-0 rows (in their scratch blocks, zero before
            # the pass), summed in board order whatever order the threads finished in: their
            # mean is added, the scratch zeroed, then the rows discounted once.
            K.add_mean(self._regrets, size, scratch)
            K.add_mean(self._avg, size, scratch)
            np.logical_or.reduce([lane.fixed.seen for lane in self._lanes], out=fixed.seen)
            K._finish_fixed(self._tree, top, fixed, self.schedule, p, pos_d, neg_d)
            self._root_values[:] = np.mean([lane.values for lane in self._lanes], axis=0)
        self.iterations = t
        return True

    def root_values(self) -> np.ndarray:
        """The last pass's values at the root per kept private state (player 1's; player 0's
        after ``run_board(..., players=1)``; their mean over the boards of a several-board
        iteration)."""
        return self._root_values.copy()

    def _bases(self, board: tuple[int, ...]) -> list[int] | None:
        """The bases of ``board``'s blocks, level by level (allocated on first use); None,
        with :attr:`full` set, when one does not fit."""
        bases = []
        for lv in range(self.levels):
            base = self._block(board[:lv])
            if base < 0:
                self.full = True
                return None
            bases.append(base)
        return bases

    def _walk_offsets(self, board: tuple[int, ...], bases: list[int], t: int) -> np.ndarray:
        """Every owner node's rows for walking ``board`` at iteration ``t``, after its deeper
        blocks caught up with the discounts they missed."""
        for lv in range(1, self.levels):
            self._catch_up(board[:lv], bases[lv], t)
        offset = np.full(self.form.num_nodes, -1, dtype=np.int64)
        offset[self._owners] = self._local[self._owners] + np.asarray(bases, dtype=np.int64)[self._owner_level]
        return offset

    def _relabel(self, tree, removal, board: tuple[int, ...]) -> None:
        """Deal ``board`` in ``tree``'s chance edges and ``removal``'s contest fields."""
        for lv, edges in enumerate(self._chance_edges):
            tree.edge_label[edges] = board[lv]
        for field, value in zip(_BOARD_FIELDS, self._board(board)):
            getattr(removal, field)[self._path] = value

    def _board(self, board: tuple[int, ...]) -> tuple:
        """The contest fields of ``board``'s path (:data:`_BOARD_FIELDS`)."""
        found = self._boards.get(board)
        if found is None:
            strength = np.asarray(self._strengths(board))[self.states][None, :]
            rm = item_removal(self.removal.items, self.removal.n_items, self.removal.node_path, strength, self.removal.chance_weight)
            found = self._boards[board] = tuple(getattr(rm, f)[0] for f in _BOARD_FIELDS)
        return found

    def _block(self, prefix: tuple[int, ...]) -> int:
        """The base of ``prefix``'s block (allocated zero on first use); -1 if it does not fit."""
        base = self._blocks.get(prefix)
        if base is not None:
            return base
        size = int(self._block_size[len(prefix)])
        if self.max_bytes is not None and self._used + size > len(self._regrets):
            return -1
        if self._used + size > len(self._regrets):
            grown = max(2 * len(self._regrets), self._used + size)
            for name in ("_regrets", "_avg"):
                old = getattr(self, name)
                new = np.zeros(grown, dtype=self._dtype)
                new[: self._used] = old[: self._used]
                setattr(self, name, new)
        base = self._blocks[prefix] = self._used
        self._last[prefix] = self.iterations
        self._used += size
        return base

    def _catch_up(self, prefix: tuple[int, ...], base: int, t: int) -> None:
        """The discounts of the iterations since ``prefix``'s block was last walked."""
        last = self._last[prefix]
        self._last[prefix] = t
        if not self.config.discount or last >= t - 1:
            return
        logs = self._discount_logs(t - 1)
        pos, neg = np.exp(logs[:, t - 1] - logs[:, last])
        block = self._regrets[base : base + int(self._block_size[len(prefix)])]
        block *= np.where(block > 0, pos, neg).astype(self._dtype)

    def _discount_logs(self, t: int) -> np.ndarray:
        """``[2, >t]``: sums over ``s <= k`` of log d_s for positive and negative regrets."""
        if self._log_discount.shape[1] <= t:
            k = np.arange(1, 2 * t + 2, dtype=np.float64)
            ta, tb = k**self.config.alpha, k**self.config.beta
            steps = np.stack([np.log(ta / (ta + 1.0)), np.log(tb / (tb + 1.0))])
            self._log_discount = np.concatenate([np.zeros((2, 1)), np.cumsum(steps, axis=1)], axis=1)
        return self._log_discount

    def _top_view(self) -> None:
        """The tables as :class:`VectorCFR`'s readers see them: the level-0 rows."""
        size = int(self._block_size[0])
        self.tables = K.VectorTables(self._top_offset, self._regrets[:size], self._avg[:size], self.tables.root_reach)

    # -- reading ---------------------------------------------------------------------------
    def block(self, prefix: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray] | None:
        """Views of the regrets and average sums of the rows of board ``prefix`` (``()``: the
        first level's; one item: the next level's for that item; ...), in the template's
        layout of that level (None: never drawn)."""
        base = self._blocks.get(tuple(prefix))
        if base is None:
            return None
        end = base + int(self._block_size[len(prefix)])
        return self._regrets[base:end], self._avg[base:end]

    @property
    def boards(self) -> int:
        """Complete boards reached so far."""
        return sum(len(p) == self.levels - 1 for p in self._blocks)

    @property
    def table_bytes(self) -> int:
        return 2 * self._dtype.itemsize * self._used

    def exploitability(self, which: str = "average"):
        raise NotImplementedError("a sampled solve's exploitability: copy_into() a full-tree VectorCFR of the game")

    def copy_into(self, full: VectorCFR) -> None:
        """Put this solve's regrets and average sums into ``full``, a :class:`VectorCFR` over
        the whole game this template stands for (same root reach): every full node takes the
        rows of its template node in its board's block (zero, i.e. uniform, for boards never
        drawn). Then ``full.exploitability()`` is this solve's exact exploitability."""
        if not np.array_equal(full.states, self.states):
            raise ValueError("the full solver's private states differ from the sampled solve's (root reach)")
        big, small = full.form, self.form
        s = len(self.states)
        full.tables.regrets[:] = 0.0
        full.tables.avg[:] = 0.0
        stack = [(0, 0, ())]
        while stack:
            node, mine, board = stack.pop()
            kind = big.node_kind[node]
            children = big.child_list[big.child_start[node] : big.child_start[node + 1]]
            if kind == CHANCE:
                child = small.child_list[small.child_start[mine]]
                labels = big.edge_label[big.child_start[node] : big.child_start[node + 1]]
                stack.extend((int(c), int(child), board + (int(item),)) for c, item in zip(children, labels))
                continue
            if kind == DECISION:
                base = self._blocks.get(board)
                if base is not None and big.row_owner[node] == node:
                    size = big.num_actions_at(node) * s
                    dst = int(full.tables.row_offset[node])
                    src = base + int(self._local[mine])
                    full.tables.regrets[dst : dst + size] = self._regrets[src : src + size]
                    full.tables.avg[dst : dst + size] = self._avg[src : src + size]
            mine_children = small.child_list[small.child_start[mine] : small.child_start[mine + 1]]
            stack.extend((int(c), int(m), board) for c, m in zip(children, mine_children))
