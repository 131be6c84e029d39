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
(:func:`gamesolve.solve.vcfr_kernels.run`; no kernel of its own, so nothing new to compile).

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

``tests/core/test_vcfr_sampled.py`` checks the argument: the mean over every board of the
sampled first pass (root values, level-0 regrets, deeper regrets scaled by their ``1 /
q_b``) equals the full pass to 1e-9 on a small hold'em flop, and the sampled solver's
average strategy, mapped onto the full tree, has an exact exploitability that falls towards 0.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np

from gamesolve.game.factored import CHANCE, CONTEST, DECISION, FactoredGame, FormError
from gamesolve.game.removal import item_removal
from gamesolve.solve import vcfr_kernels as K
from gamesolve.solve.cfr import TABULAR_ALGORITHMS, CFRConfig
from gamesolve.solve.vcfr import VectorCFR, _offsets

_BOARD_FIELDS = ("path_strength", "path_order", "path_groups", "path_bounds", "path_items")
"""The fields of the removal bundle that change with the board drawn (one path's rows)."""


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
    :param max_bytes: most bytes of tables; :meth:`run` stops early (and sets :attr:`full`)
        rather than allocate a block past it. None: no limit but the machine's.
    """

    def __init__(self, template: FactoredGame, config: CFRConfig = TABULAR_ALGORITHMS["lcfr"], *,
                 pool: Sequence[int], strengths: Callable[[tuple[int, ...]], np.ndarray], seed: int = 0,
                 root_reach: np.ndarray | None = None, frozen: Mapping[tuple[int, int], np.ndarray] | None = None,
                 threads: int = 1, dtype=np.float64, max_bytes: int | None = None):  # fmt: skip
        if template.removal is None:
            raise FormError("public chance sampling over a template needs a game with item removal")
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
        room = int(self._block_size[0]) if max_bytes is None else max(max_bytes // (2 * self._dtype.itemsize), int(self._block_size[0]))
        self._regrets = np.zeros(max(room, 1), dtype=self._dtype)
        self._avg = np.zeros(len(self._regrets), dtype=self._dtype)  # not zeros_like: that one writes every page
        self._used = int(self._block_size[0])
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

    # -- one iteration ---------------------------------------------------------------------
    def draw(self) -> tuple[int, ...]:
        """The next board: one item per chance level, uniformly without replacement."""
        return tuple(int(c) for c in self._rng.choice(self.pool, size=self.levels - 1, replace=False))

    def run(self, iterations: int, batch: int = 0, on_batch: Callable[[int], None] | None = None) -> None:
        """``iterations`` more iterations, each on a freshly drawn board (stops early, with
        :attr:`full` set, if a new board's tables would pass :attr:`max_bytes`);
        ``on_batch(1)`` after each (``batch`` is :class:`VectorCFR`'s and ignored here)."""
        if iterations <= 0:
            raise ValueError(f"iterations must be positive, got {iterations}")
        for _ in range(iterations):
            if not self.run_board(self.draw()):
                break
            if on_batch is not None:
                on_batch(1)

    def run_board(self, board: tuple[int, ...], players: int | None = None) -> bool:
        """One iteration on ``board`` (both players' passes; ``players=1``: player 0's pass
        only, for checks). False, and nothing done, when its tables do not fit."""
        t = self.iterations + 1
        bases = []
        for lv in range(self.levels):
            base = self._block(board[:lv])
            if base < 0:
                self.full = True
                return False
            bases.append(base)
        for lv in range(1, self.levels):
            self._catch_up(board[:lv], bases[lv], t)
        offset = np.full(self.form.num_nodes, -1, dtype=np.int64)
        offset[self._owners] = self._local[self._owners] + np.asarray(bases, dtype=np.int64)[self._owner_level]
        for lv, edges in enumerate(self._chance_edges):
            self._tree.edge_label[edges] = board[lv]
        for field, value in zip(_BOARD_FIELDS, self._board(board)):
            getattr(self.removal, field)[self._path] = value
        self.tables = K.VectorTables(offset, self._regrets, self._avg, self.tables.root_reach)
        self.iterate(t, t, players)
        self.iterations = t
        self._top_view()
        return True

    def root_values(self) -> np.ndarray:
        """The last pass's values at the root per kept private state (player 1's; player 0's
        after ``run_board(..., players=1)``)."""
        return self._root_values.copy()

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
                    size = int(big.num_actions[node]) * s
                    dst = int(full.tables.row_offset[node])
                    src = base + int(self._local[mine])
                    full.tables.regrets[dst : dst + size] = self._regrets[src : src + size]
                    full.tables.avg[dst : dst + size] = self._avg[src : src + size]
            mine_children = small.child_list[small.child_start[mine] : small.child_start[mine + 1]]
            stack.extend((int(c), int(m), board) for c, m in zip(children, mine_children))
