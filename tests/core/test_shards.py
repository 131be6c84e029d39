"""Sharded tables and rounds of merged changes, in one process (docs/distributed.md).

The Ray workers of a distributed run are :class:`~gamesolve.distribute.worker.MCCFRWorker`
objects; here they are driven round by round in this process, as
:class:`~gamesolve.distribute.ray_trainer.RayTrainer` drives them on a cluster
(tests/core/test_ray.py runs them there)."""

from __future__ import annotations

import numpy as np
import pytest

from gamesolve.distribute.ray_trainer import next_round
from gamesolve.distribute.shards import Rows, allocate, load_parts, merge_rows, owners_of, row_index
from gamesolve.distribute.worker import MCCFRWorker, WorkerSpec, build_form
from gamesolve.evaluate.best_response import exact_evaluator
from gamesolve.solve.mccfr import MCCFRConfig, MCCFRTrainer


@pytest.fixture(scope="module")
def leduc():
    form = build_form(WorkerSpec("leduc", {"players": "2"}, None, (), {}, 0))
    config = MCCFRConfig.from_options(form.mccfr_defaults, prune=True)
    return form, config, WorkerSpec("leduc", {"players": "2"}, None, (), config.as_dict(), 3)


def train_in_rounds(spec: WorkerSpec, workers: int, iterations: int, per_worker: int) -> list[MCCFRWorker]:
    """Rounds as the head runs them: each worker its share, then merge by shard, then apply."""
    team = [MCCFRWorker(spec) for _ in range(workers)]
    for i, w in enumerate(team):
        w.reset(i, workers, 0)
    done = 0
    while done < iterations:
        n = min(per_worker * workers, iterations - done)
        shares = [n // workers + (1 if i < n % workers else 0) for i in range(workers)]
        starts = done + np.concatenate([[0], np.cumsum(shares)[:-1]])
        sent = [w.train(int(s), int(c), False) for w, s, c in zip(team, starts, shares)]
        merged = [w.merge(*[sent[v][s] for v in range(workers)]) for s, w in enumerate(team)]
        for w in team:
            w.apply(*merged)
        done += n
    return team


def gathered(form, config, team: list[MCCFRWorker], seed: int = 3) -> MCCFRTrainer:
    trainer = MCCFRTrainer(form, config, seed=seed)
    for i, w in enumerate(team):
        load_parts(trainer, [(w.part(), i, len(team))])
    return trainer


def by_owner(trainer: MCCFRTrainer) -> dict[int, list[int]]:
    owners = owners_of(trainer)
    return {int(o): trainer.regrets[row_index(trainer, np.array([o]))].tolist() for o in owners}


def test_one_worker_trains_exactly_as_one_process(leduc, leduc2_tree):
    form, config, spec = leduc
    one = MCCFRTrainer(form, config, seed=3)
    one.run(iterations=3000)
    team = train_in_rounds(spec, 1, 3000, 250)
    rows = gathered(form, config, team)
    mine, theirs = by_owner(rows), by_owner(one)
    assert {o: r for o, r in mine.items() if any(r)} == {o: r for o, r in theirs.items() if any(r)}
    evaluate = exact_evaluator(leduc2_tree)
    assert evaluate(rows.explicit_policy(leduc2_tree))["nash_conv"] == pytest.approx(
        evaluate(one.explicit_policy(leduc2_tree))["nash_conv"], rel=1e-9)


def test_two_workers_in_short_rounds_train_leduc_about_as_well_as_one_process(leduc, leduc2_tree):
    form, config, spec = leduc
    one = MCCFRTrainer(form, config, seed=3)
    one.run(iterations=20000)
    rows = gathered(form, config, train_in_rounds(spec, 2, 20000, 25))
    evaluate = exact_evaluator(leduc2_tree)
    mine = evaluate(rows.explicit_policy(leduc2_tree))["exploitability"]
    theirs = evaluate(one.explicit_policy(leduc2_tree))["exploitability"]
    assert mine <= 1.5 * theirs, (mine, theirs)


@pytest.mark.parametrize("workers", [2, 4])
def test_workers_in_long_rounds_train_leduc_as_well_as_one_process(leduc, leduc2_tree, workers):
    # Ten rounds in 50,000 iterations: every one of Leduc's rows changes thousands of times
    # per worker and round. Summed changes (each worker pushing a row on as if alone) were
    # 4x (two workers) and 10x (four) worse than one process here; each replica counting its
    # increments for the team and the shards taking the mean train as well as one process.
    form, config, spec = leduc
    one = MCCFRTrainer(form, config, seed=3)
    one.run(iterations=50000)
    rows = gathered(form, config, train_in_rounds(spec, workers, 50000, 5000 // workers))
    evaluate = exact_evaluator(leduc2_tree)
    mine = evaluate(rows.explicit_policy(leduc2_tree))["exploitability"]
    theirs = evaluate(one.explicit_policy(leduc2_tree))["exploitability"]
    assert mine <= 1.5 * theirs, (mine, theirs)


def test_a_shard_merges_the_mean_change_of_workers_whose_replicas_count_theirs_for_the_team(leduc):
    form, config, spec = leduc
    team = [MCCFRWorker(spec) for _ in range(3)]
    for i, w in enumerate(team):
        w.reset(i, 3, 0)
    assert [w.replica.scale for w in team] == [3 * team[0].shard.scale] * 3
    owner = np.array([int(np.flatnonzero(form.row_sizes())[-1])])
    shard = team[int(owner[0]) % 3]
    allocate(shard.shard, owner)
    size = int(shard.shard.sizes[owner[0]])
    shard.shard.regrets[row_index(shard.shard, owner)] = 100
    changes = [Rows(owner, np.full(size, 100 + d, dtype=np.int32)) for d in (30, 60, -3)]  # replicas' values
    merged = shard.merge(*changes)
    assert merged.regrets.tolist() == [129] * size  # 100 + (30 + 60 - 3) / 3


def test_rounds_lengthen_until_the_exchange_is_a_small_share_of_them():
    # A round of 2,000 iterations: 2 ms in the kernels, 10 ms at the head (Ray's calls and
    # the merge): the next one is 4x longer (at most 4x a round).
    assert next_round(2000, wall=0.012, training=0.002, workers=2) == 8000
    # About 3 s once the exchange is small beside the training ...
    assert next_round(1_000_000, wall=1.5, training=1.45, workers=2) == 2_000_000
    assert next_round(2_000_000, wall=3.0, training=2.9, workers=2) == 2_000_000
    # ... and longer when 3 s rounds would spend more than a tenth synchronising (1 s of
    # exchange: rounds of 10 s) ...
    assert next_round(300_000, wall=3.0, training=2.0, workers=8) == 1_000_000
    # ... up to 30 s.
    assert next_round(300_000, wall=12.0, training=2.0, workers=8) == 750_000
    assert next_round(100, wall=0.0, training=0.0, workers=2) == 200  # at least 100 a worker


def test_a_shard_adds_every_workers_change_to_a_row(leduc):
    form, config, _ = leduc
    shard = MCCFRTrainer(form, config)
    owner = np.array([int(np.flatnonzero(form.row_sizes())[-1])])
    allocate(shard, owner)
    size = int(shard.sizes[owner[0]])
    shard.regrets[row_index(shard, owner)] = 100
    a, b = np.full(size, 130, dtype=np.int32), np.full(size, 90, dtype=np.int32)
    a[0], b[0] = -309_999_990, -309_999_990  # two large negative changes: clipped at the floor
    merged = merge_rows(shard, [Rows(owner, a), Rows(owner, b)], floor=-310_000_000)
    assert merged.regrets[1:].tolist() == [120] * (size - 1)  # 100 + 30 - 10
    assert merged.regrets[0] == -310_000_000
    assert shard.regrets[row_index(shard, owner)].tolist() == merged.regrets.tolist()


def test_a_checkpoint_of_three_shards_loads_into_two_and_into_one_process(leduc):
    form, config, spec = leduc
    three = train_in_rounds(spec, 3, 2000, 100)
    parts = [(w.part(), i, 3) for i, w in enumerate(three)]
    two = [MCCFRWorker(spec) for _ in range(2)]
    for i, w in enumerate(two):
        w.reset(i, 2, 2000)
        load_parts(w.shard, parts, keep=lambda owners, i=i: owners % 2 == i)
    whole = MCCFRTrainer(form, config, seed=3)
    load_parts(whole, parts)
    assert by_owner(gathered(form, config, two)) == by_owner(whole)
    assert np.array_equal(gathered(form, config, two).phi, whole.phi)
    assert any(any(r) for r in by_owner(whole).values())
