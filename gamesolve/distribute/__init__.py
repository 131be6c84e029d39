"""MCCFR with pruning (Algorithm 1) across the worker processes of a Ray cluster: the
distribution package, over the trainer interface of :mod:`gamesolve.solve.trainer`.

Modules: :mod:`~gamesolve.distribute.ray_trainer` (the head: rounds, schedules,
checkpoints, recovery; :func:`~gamesolve.distribute.ray_trainer.ray_trainer` is the factory
the ``solve`` command hands the MCCFR solver), :mod:`~gamesolve.distribute.worker` (a Ray
worker: replica or row cache, and shard), :mod:`~gamesolve.distribute.parts` (checkpoints
in shard parts), :mod:`~gamesolve.distribute.shards` (rows moved and merged) and
:mod:`~gamesolve.distribute.row_cache` (a worker's bounded cache of rows).

Design (docs/distributed.md):

* **Shards.** The authoritative tables are split by information set: worker ``s`` of ``n``
  holds the rows (regrets, sampled averages, phi, snapshot sums) of the owner nodes
  ``o % n == s`` (:mod:`gamesolve.distribute.shards`). Shards write their part of every
  checkpoint in parallel; :class:`~gamesolve.distribute.ray_trainer.RayTrainer` seals the generation.
* **Rounds.** The head cuts the run into rounds at the same boundaries as one process's
  batches (schedules in iterations fall exactly on them). In a round each worker runs its
  share of the iterations (globally numbered: deal ``i`` is iteration ``i``'s, as in one
  process) with the single-process kernel on its replica of the tables, marking the rows it
  writes; then it sends those rows to their shards (one compact block per shard), each shard
  merges the workers' changes into its rows (:func:`~gamesolve.distribute.shards.merge_rows`),
  and every replica takes the merged rows. A replica counts its own regret increments W
  times (for the W workers, who sample the same distribution), and a shard adds the mean of
  the workers' changes: the merged row is the mean of the replicas, and during a round each
  replica's rows estimate the merged ones, so long rounds do not overshoot (summed changes
  did: each worker pushed a row on for a round as if alone).
* **Round length** adapts to what a round costs: about 3 s of training, longer when the
  exchange between rounds would otherwise take more than a tenth of the round
  (:func:`~gamesolve.distribute.ray_trainer.next_round`); the summary reports the seconds spent training and synchronising.
* **Row caches** (``cache_rows``): instead of a replica, a worker holds at most that many
  rows (:class:`~gamesolve.distribute.row_cache.RowCache`); the iterations that meet an absent
  row are undone and deferred, the shards serve the missing rows (one request per worker
  and shard per pass), and the deferred iterations run again, until the round is done.
* **Schedules** (discount, pruning, UPDATE-STRATEGY, snapshots) are the single-process
  driver's (:class:`~gamesolve.solve.scheduled_run.ScheduledRun`), fired between rounds: a discount
  is applied to replicas and shards alike, snapshots are taken by each shard of its rows,
  UPDATE-STRATEGY runs on worker 0 and its phi changes travel with the next round's rows.
* **Failures.** A worker lost mid-run (its process or its machine) is replaced when the
  cluster can place a new one, else its share goes to the others; every worker then
  reloads the last checkpoint (at most one interval is lost). ``--resume`` continues a store
  with any number of workers, or one written by one process.
"""
