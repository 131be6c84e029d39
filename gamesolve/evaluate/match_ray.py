"""``gamesolve match --ray``: a match's deals played by the workers of a Ray cluster.

Each worker rebuilds the table in its own process from a :class:`TableSpec` (the game, the
agent texts, the seed: agents are built with the seeds one process gives them, and reseed per
hand), then plays ranges of deals; the ranges come back in deal order, so the result is the
single process's (:func:`gamesolve.evaluate.match.play_match`).
"""

from __future__ import annotations

import attrs


@attrs.frozen
class TableSpec:
    """What rebuilds a match's table in another process."""

    game: str
    params: dict[str, str]
    agents: tuple[str, ...]
    seed: int
    keep_hands: bool = False
    aivat: bool = False
    aivat_values: str | None = None
    plugins_dirs: tuple[str, ...] = ()


def build_table(spec: TableSpec):
    """The match table of ``spec``, with its agents built as the command builds them."""
    from gamesolve.evaluate.match import Table, make_agents
    from gamesolve.ray_cluster import worker_game

    host, game = worker_game(spec.game, spec.params, spec.plugins_dirs)
    agents, names = make_agents(host.agents, game, spec.agents, spec.seed, plugins=host.pm)
    estimators = None
    if spec.aivat:
        from gamesolve.evaluate.aivat import aivat_estimators

        estimators = aivat_estimators(game, agents, host.pm, spec.aivat_values)
    return Table(game, list(agents), names, spec.seed, spec.keep_hands, estimators)


class MatchWorker:
    """A Ray worker holding one table (wrapped with ``ray.remote`` by :func:`play_on_ray`)."""

    def __init__(self, spec: TableSpec):
        self.table = build_table(spec)

    def play(self, first: int, last: int):
        return self.table.play_deals(first, last)


def play_on_ray(spec: TableSpec, n_deals: int, workers: int, address: str, progress=None) -> list:
    """Deal ranges played by ``workers`` Ray workers, results in deal order."""
    from ray.util import ActorPool

    from gamesolve.ray_cluster import connect

    ray = connect(address, cpus=workers)
    actor = ray.remote(num_cpus=1)(MatchWorker)
    pool = ActorPool([actor.options(scheduling_strategy="SPREAD").remote(spec) for _ in range(workers)])
    size = max(1, min(64, n_deals // (workers * 8)))
    chunks = [(a, min(a + size, n_deals)) for a in range(0, n_deals, size)]
    played = []
    for part in pool.map(lambda worker, bounds: worker.play.remote(*bounds), chunks):
        played.append(part)
        if progress is not None:
            progress.advance(len(part[0]) * len(spec.agents))
    return played


def ray_runner(spec: TableSpec, address: str):
    """The ``remote`` of :func:`gamesolve.evaluate.match.play_match` that plays its deals on the
    Ray cluster at ``address`` (or ``local``), each worker rebuilding the table from ``spec``."""

    def run(n_deals: int, workers: int, progress=None) -> list:
        return play_on_ray(spec, n_deals, workers, address, progress)

    return run
