"""A gamesolve kernel's numba cache is filed by module, not by path: a second copy of the
same source (another clone, a moved checkout, a worktree) loads what the first compiled
(gamesolve/kernel_locator.py)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

from tests.command_output import last_json

KERNEL = """from numba import njit


@njit(cache=True)
def add_one(x):
    return x + 1
"""

RUN = "import json, {package}.kernels as k; k.add_one(1); s = k.add_one.stats; print(json.dumps([sum(s.cache_hits.values()), sum(s.cache_misses.values())]))"


def cache_stats(source_root, package, cache):
    """(cache hits, cache misses) of one call in a fresh process importing from ``source_root``."""
    env = {**os.environ, "PYTHONPATH": str(source_root), "NUMBA_CACHE_DIR": str(cache)}
    out = subprocess.run([sys.executable, "-c", RUN.format(package=package)], env=env, capture_output=True, text=True,
                         check=True, cwd=source_root).stdout  # fmt: skip
    return tuple(last_json(out))


def make_package(root, name):
    (root / name).mkdir(parents=True)
    (root / name / "__init__.py").write_text("")
    (root / name / "kernels.py").write_text(KERNEL)


def test_a_second_copy_of_a_gamesolve_module_loads_the_firsts_compiled_kernel(tmp_path):
    make_package(tmp_path / "first", "gamesolve_probe")
    shutil.copytree(tmp_path / "first", tmp_path / "second")  # same text, another path
    cache = tmp_path / "cache"
    assert cache_stats(tmp_path / "first", "gamesolve_probe", cache) == (0, 1)
    assert cache_stats(tmp_path / "second", "gamesolve_probe", cache) == (1, 0)
    assert [p.name for p in cache.iterdir() if not p.name.startswith(".")] == ["gamesolve_probe"]


def test_a_changed_copy_compiles_again(tmp_path):
    make_package(tmp_path / "first", "gamesolve_probe")
    shutil.copytree(tmp_path / "first", tmp_path / "second")
    (tmp_path / "second" / "gamesolve_probe" / "kernels.py").write_text(KERNEL.replace("x + 1", "x + 2"))
    cache = tmp_path / "cache"
    cache_stats(tmp_path / "first", "gamesolve_probe", cache)
    assert cache_stats(tmp_path / "second", "gamesolve_probe", cache) == (0, 1)


def test_other_packages_kernels_are_filed_by_path_as_numba_files_them(tmp_path):
    make_package(tmp_path / "first", "probe")
    shutil.copytree(tmp_path / "first", tmp_path / "second")
    cache = tmp_path / "cache"
    cache_stats(tmp_path / "first", "probe", cache)
    assert cache_stats(tmp_path / "second", "probe", cache) == (0, 1)
