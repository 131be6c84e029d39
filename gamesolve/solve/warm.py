"""Compiling a solve's training kernels in a second process while the first builds the game's
form (issue 36 item 4: warm ahead).

On a fresh install numba compiles the MCCFR kernels when the training starts: for hold'em's
``tiny`` preset about 35 s of README command 1's 2 training minutes. What decides the kernels'
types is the form's tree and array types, not its slow part (nlth: the card abstraction,
about a minute to build). So a plugin's *stand-in* form (``gamesolve_stand_in_form``: the same
tree and array types, made in seconds) trained for a few iterations in a child process
compiles the same kernels into numba's on-disk cache while the parent builds the real form,
mostly on the core the parent's single-threaded steps leave idle. The parent then loads them.
Two processes never compile one kernel at once (:mod:`gamesolve.compile_lock`): whichever
comes second waits for the first and loads its result.

The child is best effort and writes nothing but numba's cache and a marker: its output goes
nowhere, its failure changes nothing in the parent (which compiles what it lacks, as without
it), and the parent stops it when the parent ends. The marker (in the kernel cache's folder, so
a changed kernel source starts without one) says a child finished once for this game, its
parameters and preset (with a stand-in trained, or none offered): later runs do not start
it again. ``GAMESOLVE_WARM=0`` turns it off (the test
suite does, but for the test of this module: its two workers already keep both cores busy).

The plumbing (:func:`start_child`, :func:`child_main`, :func:`warm_marker`, :func:`stop_warm`)
serves any command's child: ``gamesolve spot`` compiles its vector CFR kernels likewise
(``gamesolve_nlth/spot/warm.py``).
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: Iterations the child trains the stand-in for: enough to run every kernel of a training
#: batch once, a few milliseconds of work.
WARM_ITERATIONS = 2_000


def warm_spec(request) -> dict[str, Any]:
    """What the child needs to rebuild the run's game and stand-in form and train it as the
    run will: game, parameters, preset, plugins, the options given (as the stored config
    spells them) with pruning by algorithm, threads (0: the form's default) and seed."""
    import attrs

    from gamesolve.solve.mccfr import MCCFRConfig

    given = attrs.evolve(MCCFRConfig(), **request.options).as_dict()
    options = {key: given[key] for key in request.options}
    options["prune"] = request.algo == "mccfr-p"
    return {
        "game": request.game.name,
        "params": {k: str(v) for k, v in request.game.params.items()},
        "preset": request.preset,
        "plugins_dirs": [str(d) for d in request.plugins_dirs],
        "options": options,
        "threads": 0 if request.auto_threads else int(request.threads),
        "seed": int(request.seed),
    }


def warm_marker(name: str, key: dict[str, Any]) -> Path | None:
    """Where a finished child of ``name`` (a game, or a command) leaves its marker for ``key``
    (what decides the kernels' types): in the kernel cache's folder, so that clearing the
    cache clears the markers; None without a kernel cache folder."""
    folder = os.environ.get("NUMBA_CACHE_DIR")
    if not folder:
        return None
    digest = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:16]
    return Path(folder) / ".warm" / f"{name}-{digest}"


def start_child(module: str, spec: dict[str, Any], marker: Path | None) -> subprocess.Popen | None:
    """``python -m module SPEC`` (a module whose ``main`` is :func:`child_main`), or None: turned
    off (``GAMESOLVE_WARM=0``), no kernel cache folder, or the marker says a child finished."""
    if os.environ.get("GAMESOLVE_WARM", "1") == "0" or marker is None or marker.exists():
        return None
    # PYTHONSAFEPATH (python -P): ``-m`` would put the working folder first on the child's
    # path, and a folder holding another checkout's ``gamesolve`` would then compile its kernels.
    env = {**os.environ, "PYTHONSAFEPATH": "1"}
    try:
        return subprocess.Popen([sys.executable, "-m", module, json.dumps(spec)], env=env,
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    except OSError:
        return None


def child_main(argv: list[str], work: Callable[[dict[str, Any]], object], marker: Callable[[dict[str, Any]], Path | None]) -> int:
    """A child's body: ``work(spec)`` at a lower priority, then leave ``marker(spec)`` (also when
    the work found nothing to do: there is nothing to do next time either)."""
    spec = json.loads(argv[0])
    try:
        os.nice(10)  # the parent's work first: the child is for the cores it leaves idle
    except OSError:
        pass
    work(spec)
    path = marker(spec)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch()
    return 0


def _marker(spec: dict[str, Any]) -> Path | None:
    # The kernels' types depend on the game and its form, not on the seed or the options' values.
    return warm_marker(spec["game"], {k: spec[k] for k in ("game", "params", "preset", "plugins_dirs")})


def start_warm(request, pm) -> subprocess.Popen | None:
    """The child compiling ``request``'s training kernels on a stand-in form, or None: turned
    off, a Ray run (its workers compile their own), no plugin offers a stand-in, or an earlier
    child finished for the same arguments with the same kernel sources."""
    if request.ray is not None or request.resume or not pm.hook.gamesolve_stand_in_form.get_hookimpls():
        return None
    spec = warm_spec(request)
    return start_child("gamesolve.solve.warm", spec, _marker(spec))


def stop_warm(child: subprocess.Popen | None) -> None:
    """End the child if it still runs (a parent's training may end before the child's)."""
    if child is None or child.poll() is not None:
        return
    child.terminate()
    try:
        child.wait(timeout=5)
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()


def warm(spec: dict[str, Any]) -> bool:
    """Train the stand-in form of ``spec`` for :data:`WARM_ITERATIONS` iterations (compiling
    the kernels as the run will); False when no plugin offers a stand-in for it."""
    from gamesolve.plugins import rebuild_game
    from gamesolve.solve.mccfr import MCCFRConfig, MCCFRTrainer

    host, game = rebuild_game(spec["game"], spec["params"], tuple(spec["plugins_dirs"]))
    form = host.pm.hook.gamesolve_stand_in_form(game=game, options={"preset": spec["preset"]} if spec["preset"] else {})
    if form is None:
        return False
    config = MCCFRConfig.from_options({**form.mccfr_defaults, **spec["options"]})
    threads = spec["threads"] or int(form.default_threads or 1)
    MCCFRTrainer(form, config, threads=threads, seed=spec["seed"]).run(iterations=WARM_ITERATIONS)
    return True


def main(argv: list[str]) -> int:
    """The child: warm ``argv[0]``'s spec, then leave the marker."""
    return child_main(argv, warm, _marker)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
