"""External-sampling MCCFR with discounting and pruning (Algorithm 1), checked exactly on Kuhn and Leduc."""

import numpy as np
import pytest

from gamesolve.evaluate.best_response import TreeEvaluator
from gamesolve.game.factored import DECISION, SMALL_GAME_MCCFR_DEFAULTS
from gamesolve.solve.kernels import mccfr as K
from gamesolve.solve.mccfr import MCCFRConfig, MCCFRTrainer
from gamesolve.solve.schedule import Schedule
from gamesolve_kuhn import KuhnGame
from gamesolve_kuhn.poker_form import kuhn_form
from gamesolve_leduc import LeducGame
from gamesolve_leduc.poker_form import leduc_form


def toy_config(**overrides):
    return MCCFRConfig.from_options(SMALL_GAME_MCCFR_DEFAULTS, **overrides)


def trained(tree, iterations, seed=0, threads=1, **overrides):
    trainer = MCCFRTrainer(tree, toy_config(**overrides), seed=seed, threads=threads)
    trainer.run(iterations=iterations)
    return trainer


def exploitability(trainer, explicit_tree, which="average"):
    return TreeEvaluator(explicit_tree).evaluate(trainer.explicit_policy(explicit_tree, which))


@pytest.fixture(scope="module")
def leduc2_poker():
    return leduc_form(LeducGame(2))


def test_kuhn_after_100k_iterations_is_nearly_unexploitable(kuhn2_tree):
    trainer = trained(kuhn_form(KuhnGame(2)), 100_000)
    ev = exploitability(trainer, kuhn2_tree)
    assert ev.exploitability < 5e-3
    assert ev.game_value == pytest.approx(-1 / 18, abs=5e-3)


def test_leduc_converges_with_pruning(leduc2_poker, leduc2_tree):
    trainer = trained(leduc2_poker, 3_000_000, prune=True)
    assert exploitability(trainer, leduc2_tree).exploitability < 0.02


def test_paper_averaging_also_converges_on_leduc(leduc2_poker, leduc2_tree):
    trainer = trained(leduc2_poker, 3_000_000, average="pluribus", strategy_interval="100", snapshot_interval="20k", snapshot_start="200k")
    assert trainer.counters.snapshots > 100 and trainer.phi.sum() > 0
    assert exploitability(trainer, leduc2_tree).exploitability < 0.1


def test_three_player_leduc_nash_conv_decreases_with_iterations(leduc3_tree):
    tree = leduc_form(LeducGame(3))
    trainer = MCCFRTrainer(tree, toy_config(), seed=3)
    evaluator = TreeEvaluator(leduc3_tree)
    nash_conv = []
    for target in (3_000, 30_000, 300_000):
        trainer.run(iterations=target - trainer.counters.iteration)
        nash_conv.append(evaluator.evaluate(trainer.explicit_policy(leduc3_tree)).nash_conv)
    assert nash_conv[0] > nash_conv[1] > nash_conv[2]


def test_same_seed_single_thread_is_deterministic(leduc2_poker):
    a, b = trained(leduc2_poker, 20_000, seed=5), trained(leduc2_poker, 20_000, seed=5)
    assert np.array_equal(a.regrets, b.regrets) and np.array_equal(a.avg, b.avg)
    assert not np.array_equal(a.regrets, trained(leduc2_poker, 20_000, seed=6).regrets)


def test_resuming_from_a_checkpoint_gives_identical_regrets(leduc2_poker):
    overrides = {"prune_threshold": "10k", "prune_below": "-2000", "discount_interval": "1000", "lcfr_threshold": "30k"}
    whole = trained(leduc2_poker, 40_000, seed=9, **overrides)
    first = trained(leduc2_poker, 20_000, seed=9, **overrides)
    arrays, meta = first.state()
    second = MCCFRTrainer(leduc2_poker, toy_config(**overrides), seed=9)
    second.load_state({k: np.array(v) for k, v in arrays.items()}, meta)
    second.run(iterations=20_000)
    assert second.counters.iteration == 40_000
    assert np.array_equal(whole.regrets, second.regrets)
    assert np.array_equal(whole.avg, second.avg)


def test_regrets_are_int32_and_respect_the_floor(leduc2_poker):
    trainer = trained(leduc2_poker, 50_000, regret_floor="-5000", prune_below="-4000")
    assert trainer.regrets.dtype == np.int32
    assert trainer.regrets[: trainer.used].min() >= -5000


def test_pruning_skips_work_on_very_negative_actions(leduc2_poker):
    plain = trained(leduc2_poker, 200_000, prune=False, prune_below="-2000", prune_threshold="1000", seed=1)
    pruned = trained(leduc2_poker, 200_000, prune=True, prune_below="-2000", prune_threshold="1000", seed=1)
    assert pruned.counters.nodes_visited < 0.9 * plain.counters.nodes_visited


def test_rows_are_allocated_only_when_first_reached():
    tree = leduc_form(LeducGame(3))
    trainer = MCCFRTrainer(tree, toy_config(), seed=0)
    first_round = (tree.node_kind == 0) & (tree.node_round == 0)
    assert (trainer.node_offset[first_round] >= 0).all()  # the first round up front
    assert (trainer.node_offset[~first_round] < 0).all()
    trainer.run(iterations=10)
    allocated = (trainer.node_offset >= 0) & ~first_round
    assert 0 < allocated.sum() < (~first_round & (tree.node_kind == 0)).sum()
    report = trainer.memory_report()
    assert report["allocated_infoset_actions"] < tree.row_sizes().sum()


def test_linear_discount_fires_every_interval_before_the_threshold(leduc2_poker):
    # Algorithm 1: discount at t = 1000, 2000, 3000, 4000 (t < LCFR_Threshold = 5000).
    trainer = trained(leduc2_poker, 10_000, discount_interval="1000", lcfr_threshold="5000")
    assert trainer.counters.discounts == 4


def test_the_papers_schedule_gives_39_discounts():
    clock = MCCFRConfig().clock  # every 10 minutes while t < 400 minutes
    due = [k for k in range(1, 60) if clock.discount_due(k, 0, 10_000.0)]
    assert due == list(range(1, 40))


def test_pruning_starts_at_the_iteration_after_the_threshold():
    clock = toy_config(prune_threshold="1000").clock
    assert not clock.prune_active(1000, 0.0) and clock.prune_active(1001, 0.0)


def test_a_run_prunes_from_the_first_batch_after_the_threshold(leduc2_poker):
    config = toy_config(prune_threshold="1000")
    trainer = MCCFRTrainer(leduc2_poker, config, seed=0)
    trainer.run(iterations=1000)
    assert trainer._next_stop(None) > 1000
    assert config.clock.prune_active(trainer.counters.iteration + 1, 0.0)


def test_the_first_snapshot_is_taken_at_snapshot_start(leduc2_poker):
    trainer = trained(leduc2_poker, 3_000, average="pluribus", snapshot_start="2000", snapshot_interval="500")
    # At 2,000, 2,500 and 3,000.
    assert trainer.counters.snapshots == 3


def test_time_based_strategy_updates_draw_their_own_deals(leduc2_poker):
    trainer = MCCFRTrainer(leduc2_poker, toy_config(average="pluribus", strategy_interval="1s"), seed=0)
    trainer.update_strategy()
    trainer.counters.strategy_updates += 1
    trainer.update_strategy()
    # Each pass follows one deal per player: phi counts first-round actions of both players.
    assert trainer.phi.sum() >= 4


def test_discount_kernel_scales_regrets_and_averages():
    regrets = np.array([10, -7, 3, 99], dtype=np.int32)
    phi, avg = np.array([2.0], dtype=np.float32), np.array([4.0, 8.0], dtype=np.float32)
    K.discount(regrets, 3, phi, avg, 0.5)
    assert regrets.tolist() == [5, -3, 2, 99] and phi[0] == 1.0 and avg.tolist() == [2.0, 4.0]


def test_two_threads_share_the_tables_and_converge(leduc2_poker, leduc2_tree):
    trainer = trained(leduc2_poker, 2_000_000, threads=2)
    assert trainer.counters.iteration == 2_000_000
    assert exploitability(trainer, leduc2_tree).exploitability < 0.03


def test_update_strategy_counts_first_round_actions(leduc2_poker):
    trainer = trained(leduc2_poker, 1_000, average="pluribus", strategy_interval="10")
    # 100 UPDATE-STRATEGY passes for each of 2 players; each counts one action per own node reached.
    assert trainer.phi.sum() >= 200


@pytest.mark.parametrize("text, iterations, minutes", [("10000", 10000, None), ("10k", 10000, None), ("2M", 2_000_000, None), ("10min", None, 10.0), ("30s", None, 0.5), ("2h", None, 120.0), ("off", None, None)])
def test_schedules_parse_iterations_or_time(text, iterations, minutes):
    schedule = Schedule.parse(text)
    assert (schedule.iterations, schedule.minutes) == (iterations, minutes)
    assert Schedule.parse(str(schedule)) == schedule


def test_bad_schedule_is_refused():
    with pytest.raises(ValueError, match="not a schedule"):
        Schedule.parse("ten minutes")


def test_a_bare_m_is_refused_as_ambiguous():
    with pytest.raises(ValueError, match="ambiguous.*10min.*10M"):
        Schedule.parse("10m")
    assert Schedule.parse("10m", legacy=True) == Schedule(minutes=10.0)


@pytest.mark.parametrize("options, message", [
    ({"regret_floor": "-3e9"}, "int32"),
    ({"regret_floor": "5"}, "negative"),
    ({"prune_below": "-4e8"}, "at least regret_floor"),
    ({"prune_probability": "1.5"}, r"\[0, 1\]"),
    ({"discount_interval": "10min", "lcfr_threshold": "4M"}, "both be iterations"),
    ({"snapshot_interval": "1000", "snapshot_start": "1h"}, "both be iterations"),
    ({"prune": "maybe"}, "true or false"),
    ({"discount_interval": "0"}, "positive"),
])
def test_bad_mccfr_options_are_refused(options, message):
    with pytest.raises(ValueError, match=message):
        MCCFRConfig.from_options({}, **options)


def test_unknown_option_is_refused():
    with pytest.raises(ValueError, match="unknown MCCFR option"):
        MCCFRConfig.from_options({}, prune_treshold="1")


def test_time_based_schedules_run_on_leduc_as_they_do_on_holdem(leduc2_poker):
    # Hold'em's presets give every schedule in time; the same clock on a small game.
    config = toy_config(
        average="pluribus", discount_interval="1s", lcfr_threshold="3s", prune_threshold="1s",
        strategy_interval="1s", snapshot_interval="1s", snapshot_start="2s",
    )  # fmt: skip
    # The kernels compile in another trainer first: a first batch that compiled (a cold cache,
    # or waiting on another worker's compile) ran past every schedule at once, and one check
    # takes one snapshot, so the run ended with one (a race CI met under load).
    MCCFRTrainer(leduc2_poker, config, seed=1).run(iterations=200)
    trainer = MCCFRTrainer(leduc2_poker, config, seed=0)
    trainer.run(minutes=6 / 60)
    k = trainer.counters
    assert k.discounts == 2  # at 1 s and 2 s; 3 s is the threshold
    assert k.strategy_updates >= 3 and trainer.phi.sum() > 0
    assert k.snapshots >= 2  # from 2 s on, every second (due at 2, 3, 4 and 5 s)


def first_round_entries(form):
    return int(form.row_sizes()[form.node_round == 0].sum())


def test_full_tables_drop_row_allocations_and_count_them_instead_of_failing(leduc2_poker):
    # Room for the first round's rows only: every later row is refused, and the run goes on.
    trainer = MCCFRTrainer(leduc2_poker, toy_config(), seed=0, capacity=first_round_entries(leduc2_poker))
    trainer.run(iterations=2_000)
    assert trainer.counters.iteration == 2_000
    assert trainer.counters.dropped_rows > 0
    later = (leduc2_poker.node_kind == 0) & (leduc2_poker.node_round > 0)
    assert (trainer.node_offset[later] < 0).all()


def test_a_reservoir_holds_what_one_iteration_allocates(leduc2_poker, monkeypatch):
    # A thread takes a fresh reservoir only between iterations: rows that do not fit in what
    # is left are skipped by that traversal. A fixed 1,024-entry margin was under two rows of
    # the six-player small preset, and 20M iterations skipped 49,307 row allocations with the
    # tables two-thirds empty. Shrunk constants make Leduc's rows as large in proportion.
    import gamesolve.solve.mccfr as mccfr

    monkeypatch.setattr(mccfr, "RESERVOIR", 48)
    monkeypatch.setattr(mccfr, "REFILL_BELOW", 8)
    trainer = MCCFRTrainer(leduc2_poker, toy_config(), seed=0)
    trainer.run(iterations=20_000)
    assert trainer.counters.dropped_rows == 0
    assert (trainer.node_offset[leduc2_poker.node_kind == 0] >= 0).all()


def test_the_tables_layout_does_not_depend_on_how_the_run_is_cut_into_batches(leduc2_poker, monkeypatch):
    # Batches end where the clock says: a reservoir taken at a batch's end instead of where an
    # iteration ran it low put rows elsewhere, so one seed stored different bits.
    import gamesolve.solve.mccfr as mccfr

    monkeypatch.setattr(mccfr, "RESERVOIR", 48)
    monkeypatch.setattr(mccfr, "REFILL_BELOW", 8)
    monkeypatch.setattr(mccfr, "ROWS_PER_ITERATION", 6)
    runs = []
    for batch in (1_000, 1):
        trainer = MCCFRTrainer(leduc2_poker, toy_config(), seed=0)
        while trainer.counters.iteration < 3_000:
            n = min(batch, 3_000 - trainer.counters.iteration)
            trainer._run_batch(n, prune_active=False)
            trainer.counters.iteration += n
        runs.append(trainer)
    assert runs[0].used > mccfr.headroom(runs[0]._max_row)[1]  # a second reservoir was taken
    assert np.array_equal(runs[0].node_offset, runs[1].node_offset)
    assert np.array_equal(runs[0].regrets, runs[1].regrets)


def test_the_default_capacity_holds_every_row_with_each_reservoirs_unused_rest():
    from gamesolve.solve.mccfr import default_capacity, headroom

    total, max_row = 1_000_000_000, 1_200
    refill_below, reservoir = headroom(max_row)
    capacity = default_capacity(total, max_row, threads=2)
    # worst case: every reservoir handed out is left with refill_below + max_row - 1 unused
    per_reservoir = reservoir - (refill_below + max_row - 1)
    reservoirs = -(-total // per_reservoir) + 2
    assert capacity >= reservoirs * reservoir
    assert capacity < 1.1 * total


def test_a_capacity_below_the_first_rounds_rows_is_refused(leduc2_poker):
    with pytest.raises(ValueError, match="first round"):
        MCCFRTrainer(leduc2_poker, toy_config(), capacity=first_round_entries(leduc2_poker) - 1)


def test_a_huge_regret_scale_saturates_regrets_and_counts_them(leduc2_poker):
    # Leduc's payoffs reach 13 chips: at 1e9 units per chip one update overflows int32.
    trainer = trained(leduc2_poker, 2_000, regret_scale="1e9")
    assert trainer.counters.saturated_regrets > 0
    assert trainer.regrets.max() == np.iinfo(np.int32).max


def test_no_regret_saturates_at_the_default_scale(leduc2_poker):
    assert trained(leduc2_poker, 20_000).counters.saturated_regrets == 0


def round1_row(trainer):
    """An allocated later-round row with at least two actions: (node, offset, actions)."""
    form = trainer.form
    for node in np.flatnonzero((form.node_kind == 0) & (form.node_round > 0) & (trainer.node_offset >= 0)):
        if form.row_owner[node] == node and form.num_actions[node] >= 2:
            return int(node), int(trainer.node_offset[node]), int(form.num_actions[node])
    raise AssertionError("no later-round row allocated")


def test_a_probability_of_1e_4_survives_a_stored_strategy_snapshot(leduc2_poker, tmp_path):
    from gamesolve.store.checkpoint import SnapshotSink

    trainer = trained(leduc2_poker, 1_000, average="pluribus", snapshot_start="off")
    node, row, n_act = round1_row(trainer)
    trainer.regrets[row : row + n_act] = [9_999, 1] + [0] * (n_act - 2)  # regret matching: 0.9999 and 1e-4
    trainer.snapshot_sink = SnapshotSink(tmp_path)
    trainer.take_snapshot()  # written to disk as uint16, read back by the average
    stored = trainer.average_rows()[row : row + n_act]
    assert stored[1] == pytest.approx(1e-4, rel=0.1)  # 7 / 65535 = 1.07e-4; uint8 stored 0
    assert stored[0] == pytest.approx(0.9999, abs=1e-4)


def test_a_probability_of_1e_4_survives_the_strategy_store(leduc2_poker, tmp_path):
    from gamesolve.store.strategy_store import StrategyStore, write_strategy

    trainer = trained(leduc2_poker, 1_000)
    node, row, n_act = round1_row(trainer)
    rows = trainer.average_rows()
    rows[row : row + n_act] = [0.9999, 1e-4] + [0.0] * (n_act - 2)  # private state 0's row
    write_strategy(tmp_path / "blueprint", leduc2_poker, rows, trainer.node_offset)
    probs = StrategyStore(tmp_path / "blueprint").probabilities(node, 0)
    assert probs[1] == pytest.approx(1e-4, rel=0.1)
    assert probs[0] == pytest.approx(0.9999, abs=1e-4)


def test_table_terminals_read_deal_major_give_the_forms_payoffs():
    from gamesolve.game.factored import TABLE
    from gamesolve.game.factored_compiler import compile_factored
    from gamesolve.game.terminals import terminal_value
    from gamesolve_liars_dice import LiarsDiceGame

    form = compile_factored(LiarsDiceGame())
    term = form.terminal_arrays()  # the kernels' view: table[deal, row, player]
    deals = form.deals.listed
    index = np.arange(deals.count, dtype=np.int64)
    rng = np.random.default_rng(0)
    nodes = np.flatnonzero(form.term_kind == TABLE)
    for node, d in zip(rng.choice(nodes, 200), rng.integers(0, deals.count, 200)):
        for p in range(2):
            assert terminal_value(term, node, p, deals.strength, index, d) == form.table[form.term_row[node], d, p]


def test_the_strategy_store_reads_many_private_states_at_once(leduc2_poker, tmp_path):
    from gamesolve.store.strategy_store import StrategyStore, write_strategy

    trainer = trained(leduc2_poker, 1_000)
    write_strategy(tmp_path / "blueprint", leduc2_poker, trainer.average_rows(), trainer.node_offset)
    store = StrategyStore(tmp_path / "blueprint")
    for node in np.flatnonzero(store.node_kind == DECISION)[:50]:
        privates = np.arange(int(store.num_private[store.node_round[node]]))[::-1]
        expected = np.array([store.probabilities(int(node), int(k)) for k in privates])
        assert np.array_equal(store.probabilities_of(int(node), privates), expected)


def _bound_by_recursion(form) -> int:
    """iteration_allocation_bound's definition, walked recursively: per traverser, its own
    actions all explored, one child elsewhere; rows not allocated up front; summed."""
    import sys

    from gamesolve.game.factored import DECISION, TERMINAL

    sizes = form.row_sizes()
    new = np.where((sizes > 0) & (form.node_round == 0), 0, sizes)
    sys.setrecursionlimit(10_000)

    def walk(node, p):
        if form.node_kind[node] == TERMINAL:
            return 0
        below = [walk(c, p) for c in form.child_list[form.child_start[node]: form.child_start[node + 1]]]
        if form.node_kind[node] != DECISION:
            return max(below)
        return int(new[form.row_owner[node]]) + (sum(below) if form.node_player[node] == p else max(below))

    return sum(walk(0, p) for p in range(form.num_players))


def test_the_iteration_allocation_bound_is_its_definition(leduc2_poker):
    trainer = MCCFRTrainer(leduc2_poker, toy_config(), seed=0)
    assert trainer.per_iteration == _bound_by_recursion(leduc2_poker) > 0


@pytest.mark.parametrize("players", [2, 3])
def test_no_iteration_allocates_more_table_entries_than_the_bound(players):
    # Leduc: the second round's rows are allocated as play reaches them (Kuhn's all come up front)
    trainer = MCCFRTrainer(leduc_form(LeducGame(players)), toy_config(), seed=0)
    allocated = lambda: int(trainer.sizes[trainer.node_offset >= 0].sum())  # noqa: E731
    grown = []
    for _ in range(300):
        before = allocated()
        trainer._run_batch(1, prune_active=False)
        trainer.counters.iteration += 1
        grown.append(allocated() - before)
    assert 0 < max(grown) <= trainer.per_iteration
    assert trainer._refill_below >= trainer.per_iteration  # so a reservoir holds any one iteration


@pytest.mark.parametrize("average", ["sampled", "pluribus"])
def test_the_released_average_equals_the_average_and_frees_the_tables(leduc2_poker, average):
    trainer = trained(leduc2_poker, 20_000, seed=5, average=average, snapshot_start=5_000, snapshot_interval=5_000)
    expected = trainer.average_rows()
    released = trainer.release_average_rows()
    assert released.dtype == np.float32
    np.testing.assert_array_equal(released, expected)
    assert len(trainer.regrets) == 0 and len(trainer.avg) == 0


def test_the_exact_strategy_update_is_the_expectation_of_the_sampled_one(leduc2_poker):
    """``strategy_update=exact`` adds what the paper's sampled UPDATE-STRATEGY adds on average
    (per row, up to the deal's probability of the private state): many sampled updates over
    frozen regrets give the same first-round average, row by row."""
    sampled = trained(leduc2_poker, 20_000, average="pluribus", strategy_interval="off")
    exact = MCCFRTrainer(leduc2_poker, toy_config(average="pluribus", strategy_update="exact"), seed=0)
    exact.tables.regrets[:] = sampled.tables.regrets
    exact.tables.node_offset[:] = sampled.tables.node_offset
    exact.update_strategy(weight=2.0)
    for k in range(20_000):  # sampled updates, each on a fresh deal; the regrets do not move
        sampled.counters.strategy_updates = k
        sampled.update_strategy()
    form, offset = leduc2_poker, sampled.node_offset
    checked = 0
    for node in np.flatnonzero((form.node_kind == DECISION) & (form.node_round == 0)):
        n_act = int(form.num_actions[node])
        for s in range(int(form.num_private[0])):
            row = int(offset[node]) + s * n_act
            a, b = sampled.phi[row: row + n_act], exact.phi[row: row + n_act]
            assert (a.sum() > 0) == (b.sum() > 0)
            if a.sum() >= 200:  # enough samples to compare the normalised rows
                np.testing.assert_allclose(a / a.sum(), b / b.sum(), atol=0.06)
                checked += 1
    assert checked >= 10 and exact.phi.sum() > 0


def test_exact_strategy_updates_converge_and_are_deterministic(leduc2_poker, leduc2_tree):
    options = dict(average="pluribus", strategy_update="exact", strategy_interval="1000", snapshot_interval="20k",
                   snapshot_start="200k")  # fmt: skip
    a = trained(leduc2_poker, 1_000_000, **options)
    b = trained(leduc2_poker, 1_000_000, **options)
    assert a.counters.strategy_updates == 1000
    assert np.array_equal(a.phi, b.phi) and np.array_equal(a.average_rows(), b.average_rows())
    assert exploitability(a, leduc2_tree).exploitability < 0.15


def test_prefetching_with_edge_row_hints_leaves_a_run_as_it_was(leduc2_poker, monkeypatch):
    plain = trained(leduc2_poker, 200_000, prune=True, prune_threshold="50k")
    assert not plain._settings(True).prefetch
    monkeypatch.setattr(K, "PREFETCH_NODES", 0)  # Leduc traversed as a large tree is
    prefetched = trained(leduc2_poker, 200_000, prune=True, prune_threshold="50k")
    assert prefetched._settings(True).prefetch
    for name in ("regrets", "avg", "phi", "node_offset"):
        assert np.array_equal(getattr(plain, name), getattr(prefetched, name)), name


def test_the_edge_row_hints_follow_the_rows_the_traversal_reached(monkeypatch):
    form = leduc_form(LeducGame(2))
    monkeypatch.setattr(K, "PREFETCH_NODES", 0)
    trainer = trained(form, 20_000)
    edges, child = trainer._edges, form.child_list
    decision = form.node_kind[child] == DECISION
    offsets = trainer.node_offset[form.row_owner[child]]
    assert np.array_equal(edges["row"][decision & (offsets >= 0)], offsets[decision & (offsets >= 0)])
    assert (edges["row"][~decision] == -1).all()
    assert (offsets[decision] >= 0).sum() > (form.node_round[child[decision]] == 0).sum()  # later rounds reached too
