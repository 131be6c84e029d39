"""``--ray [ADDRESS|local]``: connecting to a Ray cluster (docs/distributed.md).

Ray is an optional dependency (``pip install 'gamesolve[ray]'``); without it ``--ray`` is one
line and exit status 2. ``local`` starts a private single-machine Ray for this process (no
dashboard); any other value is the address of a cluster started with ``ray start --head``
(``ray start --address HEAD:PORT`` on the other machines). Workers start with this
process's ``GAMESOLVE_*`` and ``NUMBA_*`` environment variables, so that they use the same
caches and settings; every machine needs gamesolve and the game plugins installed, and the
stores (``--out``, the card abstraction cache) on a file system all machines share.
"""

from __future__ import annotations

import os
from typing import Any

from gamesolve.errors import UserError
from gamesolve.plugins import rebuild_game

MISSING = "--ray needs Ray, which is not installed: pip install 'gamesolve[ray]'"


def require_ray():
    """The ``ray`` module, or a one-line :class:`UserError` if it is not installed."""
    try:
        import ray
    except ImportError:
        raise UserError(MISSING) from None
    return ray


def worker_environment() -> dict[str, str]:
    """The variables Ray workers get from this process (caches, fsync, plugin folders)."""
    return {k: v for k, v in os.environ.items() if k.startswith(("GAMESOLVE_", "NUMBA_"))}


def connect(address: str, cpus: int | None = None) -> Any:
    """Connect this process to the Ray cluster at ``address`` (``local``: start a private
    one with ``cpus`` CPUs) unless it already is; returns the ``ray`` module."""
    ray = require_ray()
    if ray.is_initialized():
        return ray
    options: dict[str, Any] = {
        "log_to_driver": False,
        "logging_level": "ERROR",
        "configure_logging": True,
    }
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    try:
        if address == "local":
            # The private Ray's processes start from this one and inherit its environment, so
            # no runtime environment: with one, Ray starts a new worker process for it instead
            # of using those it started with the node (1.5-2 s more before the first round).
            ray.init(num_cpus=cpus, include_dashboard=False, **options)
        else:
            ray.init(address=address, runtime_env={"env_vars": worker_environment()}, **options)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        message = " ".join(str(exc).split())[:300]
        raise UserError(f"cannot use the Ray cluster at {address}: {message}") from None
    return ray


worker_game = rebuild_game
"""The plugin host and the game, rebuilt on a worker (:func:`gamesolve.plugins.rebuild_game`)."""


def is_worker_loss(exc: BaseException) -> bool:
    """Whether ``exc`` says a Ray worker (or its machine) was lost, rather than a bug."""
    ray = require_ray()
    lost = (ray.exceptions.RayActorError, ray.exceptions.WorkerCrashedError, ray.exceptions.ObjectLostError,
            ray.exceptions.GetTimeoutError)  # fmt: skip
    return isinstance(exc, lost) or type(exc).__name__ == "NodeDiedError"


def map_chunks(fn, chunks, shared: dict[str, Any], address: str | None = None, workers: int = 2):
    """Yield ``fn(chunk, **shared)`` for each chunk, in order: here, or (``address``) as Ray
    tasks of one CPU spread over the cluster, at most two per worker in flight, with each of
    ``shared`` sent to the cluster once. ``fn`` must be a module-level function (workers
    import it) that leaves ``shared`` unchanged (workers see it read-only)."""
    if address is None:
        for chunk in chunks:
            yield fn(chunk, **shared)
        return
    ray = connect(address, cpus=workers)
    refs = {key: ray.put(value) for key, value in shared.items()}
    task = ray.remote(num_cpus=1, scheduling_strategy="SPREAD")(_one_thread)
    chunks = list(chunks)
    pending = []
    for chunk in chunks:
        pending.append(task.remote(fn, chunk, **refs))
        if len(pending) >= 2 * workers:
            yield ray.get(pending.pop(0))
    for ref in pending:
        yield ray.get(ref)


def _one_thread(fn, chunk, **shared):
    """``fn`` in a Ray task, with numba on the one CPU the task holds."""
    import numba

    numba.set_num_threads(1)
    return fn(chunk, **shared)
