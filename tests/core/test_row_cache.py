"""Row caches: Ray workers that hold a bounded cache of the tables' rows and fetch the
others from their shards (gamesolve/distribute/row_cache.py, docs/distributed.md), driven in
this process as :class:`~gamesolve.distribute.ray_trainer.RayTrainer` drives them on a cluster
(tests/core/test_ray.py runs them there)."""

from __future__ import annotations

import numpy as np
import pytest

from gamesolve.distribute.row_cache import RowCache
from gamesolve.distribute.shards import Rows, allocate, gather, load_parts, owners_of
from gamesolve.distribute.worker import MCCFRWorker, WorkerSpec, build_form
from gamesolve.evaluate.best_response import exact_evaluator
from gamesolve.solve.mccfr import MCCFRConfig, MCCFRTrainer

LEDUC_ROWS = 288


@pytest.fixture(scope="module")
def form():
    return build_form(WorkerSpec("leduc", {"players": "2"}, None, (), {}, 0))


def fetched_until_done(cache: RowCache, shard: MCCFRTrainer, first: int, n: int) -> None:
    """Iterations ``first + 1 .. first + n`` in ``cache``, its missing rows fetched from ``shard``."""
    missing = cache.start(first, n, True)
    while len(cache.pending):
        allocate(shard, missing)
        cache.insert(Rows(missing, gather(shard, missing, shard.regrets)))
        missing = cache.run_pending()


def cached(cache: RowCache, table: np.ndarray) -> dict[int, list[float]]:
    t = cache.trainer
    return {int(o): gather(t, np.array([o]), table).tolist() for o in owners_of(t)}


@pytest.mark.parametrize("average", ["pluribus", "sampled"])
def test_an_iteration_that_fetches_its_rows_ends_as_with_every_row_at_hand(form, average):
    # Every iteration of the cold cache meets absent rows, is undone and runs again after
    # the fetch: it must end exactly as the same iteration on a cache holding every row
    # (regrets, averages, and phi of UPDATE-STRATEGY, which runs every iteration here).
    config = MCCFRConfig.from_options(form.mccfr_defaults, prune=True, prune_threshold=0, average=average, strategy_interval=1)
    shard = MCCFRTrainer(form, config, seed=5)
    shard.run(iterations=300)  # rows with values to fetch
    warm, cold = (RowCache(form, config, limit=LEDUC_ROWS, seed=5) for _ in range(2))
    everything = owners_of(shard)
    for cache in (warm, cold):
        load_parts(cache.trainer, [({"regrets": shard.regrets, "node_offset": shard.node_offset, "phi": shard.phi}, 0, 1)],
                   keep=lambda owners: cache.pinned[owners])  # fmt: skip
    warm.insert(Rows(everything, gather(shard, everything, shard.regrets)))
    for i in range(300, 340):
        warm.start(i, 1, True)
        assert not len(warm.pending)
        fetched_until_done(cold, shard, i, 1)
    assert cold.fetched > 0 and cold.passes > warm.passes
    mine = cached(cold, cold.trainer.regrets)
    assert mine == {o: r for o, r in cached(warm, warm.trainer.regrets).items() if o in mine}
    assert np.array_equal(cold.trainer.phi, warm.trainer.phi) and cold.trainer.phi.any() == (average == "pluribus")
    if average == "sampled":
        averages = cached(cold, cold.trainer.avg)
        assert averages == {o: r for o, r in cached(warm, warm.trainer.avg).items() if o in averages}


def rounds_with_caches(config: MCCFRConfig, workers: int, iterations: int, per_worker: int, limit: int) -> list[MCCFRWorker]:
    """Rounds as the head runs them with row caches: fetch passes, exchanges when a cache is
    blocked, then the round's exchange (merge by shard, apply)."""
    spec = WorkerSpec("leduc", {"players": "2"}, None, (), config.as_dict(), 3, cache_rows=limit)
    team = [MCCFRWorker(spec) for _ in range(workers)]
    for i, w in enumerate(team):
        w.reset(i, workers, 0)

    def exchange() -> None:
        sent = [w.take() for w in team]
        merged = [w.merge(*[sent[v][s] for v in range(workers)]) for s, w in enumerate(team)]
        for w in team:
            w.apply(*merged)

    for first in range(0, iterations, per_worker * workers):
        asked = [w.begin(first + i * per_worker, per_worker, False) for i, w in enumerate(team)]
        while any(a[-1]["pending"] for a in asked):
            if any(a[-1]["blocked"] for a in asked):
                exchange()
                asked = [w.more() for w in team]
                continue
            served = [w.serve(*[asked[v][s] for v in range(workers)]) for s, w in enumerate(team)]
            asked = [w.more(*[served[s][v] for s in range(workers)]) for v, w in enumerate(team)]
        exchange()
    return team


def test_two_workers_with_caches_of_five_sixths_of_the_rows_train_leduc_about_as_well_as_one_process(form, leduc2_tree):
    config = MCCFRConfig.from_options(form.mccfr_defaults, prune=True)
    one = MCCFRTrainer(form, config, seed=3)
    one.run(iterations=10000)
    team = rounds_with_caches(config, 2, 10000, 25, limit=240)
    assert max(w.cache.peak for w in team) <= 240 < LEDUC_ROWS
    assert min(w.cache.fetched for w in team) > LEDUC_ROWS  # rows were evicted and fetched again
    rows = MCCFRTrainer(form, config, seed=3)
    for i, w in enumerate(team):
        load_parts(rows, [(w.part(), i, 2)])
    evaluate = exact_evaluator(leduc2_tree)
    mine = evaluate(rows.explicit_policy(leduc2_tree))["exploitability"]
    theirs = evaluate(one.explicit_policy(leduc2_tree))["exploitability"]
    assert mine <= 1.5 * theirs, (mine, theirs)


def test_a_cache_smaller_than_the_rows_of_an_iteration_is_refused(form):
    config = MCCFRConfig.from_options(form.mccfr_defaults, prune=True)
    with pytest.raises(MemoryError, match="cannot hold the rows of one iteration"):
        rounds_with_caches(config, 1, 100, 50, limit=60)
