"""k-means variants used by the card abstraction.

* :func:`kmeans_1d` — optimal weighted 1-D k-means (dynamic programming over the distinct
  values, as in Ckmeans.1d.dp), used for river equity: exact, deterministic, sorted.
* :func:`kmeans_l1` — Lloyd's algorithm with the L1 distance and mean updates over dense
  vectors (turn hands as gap-scaled CDFs: L1 = EMD, see ``emd.py``).
* :func:`kmeans_emd` — Lloyd's algorithm with the greedy EMD over sparse histograms and dense
  centroids (flop hands over turn buckets).

Both Lloyd variants start from k-means++ (D^2 sampling; every random draw from a
``numpy.random.Generator`` seeded by the caller), stop after ``iters`` iterations or when fewer
than ``tol`` of the points change cluster, and re-seed an empty cluster with the point farthest
from its centroid.
"""

from __future__ import annotations

from typing import Callable

import numpy as np
from numba import njit

from .emd import assign_l1


# ----------------------------------------------------------------------------------------------
# 1-D optimal k-means
# ----------------------------------------------------------------------------------------------
@njit(cache=True)
def _kmeans_1d_dp(x, w, k):
    """Optimal split of sorted distinct ``x`` (weights ``w``) into k contiguous clusters.

    Returns the start position of each cluster (int64[k]). O(k m^2) worst case, pruned by the
    monotonicity of the optimal split point.
    """
    m = x.shape[0]
    sw = np.zeros(m + 1)
    swx = np.zeros(m + 1)
    swx2 = np.zeros(m + 1)
    for i in range(m):
        sw[i + 1] = sw[i] + w[i]
        swx[i + 1] = swx[i] + w[i] * x[i]
        swx2[i + 1] = swx2[i] + w[i] * x[i] * x[i]
    cost = np.full((k, m), np.inf)
    arg = np.zeros((k, m), np.int64)
    for j in range(m):  # one cluster over 0..j
        s = sw[j + 1]
        cost[0, j] = swx2[j + 1] - swx[j + 1] * swx[j + 1] / s if s > 0 else 0.0
    for q in range(1, k):
        lo_prev = q
        for j in range(q, m):
            best = np.inf
            besti = j
            for i in range(max(lo_prev, q), j + 1):  # cluster q covers i..j
                s = sw[j + 1] - sw[i]
                a = swx[j + 1] - swx[i]
                c = swx2[j + 1] - swx2[i] - (a * a / s if s > 0 else 0.0)
                v = cost[q - 1, i - 1] + c
                if v < best:
                    best = v
                    besti = i
            cost[q, j] = best
            arg[q, j] = besti
            lo_prev = besti
    starts = np.zeros(k, np.int64)
    j = m - 1
    for q in range(k - 1, 0, -1):
        starts[q] = arg[q, j]
        j = starts[q] - 1
    return starts


def kmeans_1d(counts: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Optimal weighted 1-D k-means over integer values ``0..len(counts)-1``.

    ``counts[v]`` is the weight of value v. Returns ``(centroids float64[k'], value_bucket
    int32[len(counts)])`` with centroids ascending (bucket 0 = smallest values) and every value,
    present or not, mapped to a bucket (absent values go to the bucket of the nearest present
    value below, or the first bucket). ``k' = min(k, number of present values)``.
    """
    counts = np.asarray(counts, np.float64)
    present = np.flatnonzero(counts > 0)
    if present.size == 0:
        raise ValueError("kmeans_1d: no values")
    k = int(min(k, present.size))
    x = present.astype(np.float64)
    w = counts[present]
    starts = _kmeans_1d_dp(x, w, k)
    ends = np.append(starts[1:], present.size)
    centroids = np.array([np.average(x[s:e], weights=w[s:e]) for s, e in zip(starts, ends)])
    value_bucket = np.zeros(counts.size, np.int32)
    for b, (s, e) in enumerate(zip(starts, ends)):
        lo = 0 if b == 0 else int(present[s])
        value_bucket[lo:] = b
    return centroids, value_bucket


# ----------------------------------------------------------------------------------------------
# Lloyd drivers
# ----------------------------------------------------------------------------------------------
def _kmeanspp(n: int, k: int, dist_to: Callable[[int], np.ndarray], rng: np.random.Generator, progress=None) -> list[int]:
    """k-means++ seeds (row numbers); ``dist_to(i)`` gives distances of all points to point i."""
    first = int(rng.integers(n))
    chosen = [first]
    best = dist_to(first).astype(np.float64)
    if progress is not None:
        progress.advance(1)
    for _ in range(1, k):
        p = best * best
        total = p.sum()
        if total <= 0:  # fewer distinct points than clusters: pick unused rows
            rest = np.setdiff1d(np.arange(n), chosen)
            nxt = int(rng.choice(rest))
        else:
            nxt = int(rng.choice(n, p=p / total))
        chosen.append(nxt)
        np.minimum(best, dist_to(nxt), out=best)
        if progress is not None:
            progress.advance(1)
    return chosen


def _reseed_empty(counts: np.ndarray, dists: np.ndarray, labels: np.ndarray) -> list[tuple[int, int]]:
    """(cluster, point) pairs re-seeding empty clusters with the farthest points."""
    empty = np.flatnonzero(counts == 0)
    if empty.size == 0:
        return []
    far = np.argsort(-dists, kind="stable")[: empty.size]
    return list(zip(empty.tolist(), far.tolist()))


def kmeans_l1(
    x: np.ndarray, k: int, iters: int, seed: int, tol: float = 1e-3, progress=None, label: str = "k-means"
) -> tuple[np.ndarray, dict]:
    """L1 k-means (mean updates) of float32 rows ``x``. Returns (centroids float32[k, d], info).

    ``progress`` (optional) gets one bar for the seeding and one for the iterations."""
    x = np.ascontiguousarray(x, np.float32)
    n = x.shape[0]
    k = min(k, n)
    rng = np.random.default_rng(seed)
    labels = np.zeros(n, np.int64)
    dists = np.zeros(n, np.float32)

    def dist_to(i):
        d = np.zeros(n, np.float32)
        assign_l1(x, x[i : i + 1], np.zeros(n, np.int64), d)
        return d

    if progress is not None:
        progress.start(k, "seeds", f"{label}: k-means++ seeding ({n:,} points)")
    centroids = x[_kmeanspp(n, k, dist_to, rng, progress)].copy()
    if progress is not None:
        progress.start(iters, "iter", f"{label}: Lloyd iterations ({n:,} points, {k} clusters)")
    info = {"iterations": 0, "changed": []}
    prev = np.full(n, -1, np.int64)
    for it in range(iters):
        assign_l1(x, centroids, labels, dists)
        changed = float(np.mean(labels != prev))
        info["iterations"] = it + 1
        info["changed"].append(changed)
        if progress is not None:
            progress.advance(1, inertia=f"{float(dists.mean()):.5f}", changed=f"{changed:.4f}")
        prev = labels.copy()
        counts = np.bincount(labels, minlength=k)
        sums = np.zeros((k, x.shape[1]), np.float64)
        _scatter_add(sums, labels, x)
        nz = counts > 0
        centroids[nz] = (sums[nz] / counts[nz, None]).astype(np.float32)
        for c, p in _reseed_empty(counts, dists, labels):
            centroids[c] = x[p]
        if changed < tol:
            break
    assign_l1(x, centroids, labels, dists)
    info["inertia"] = float(dists.mean())
    return centroids, info


@njit(cache=True)
def _scatter_add(sums, labels, x):
    for i in range(x.shape[0]):
        for j in range(x.shape[1]):
            sums[labels[i], j] += x[i, j]


@njit(cache=True)
def sparse_means(bins, mass, nnz, labels, k, n_bins):
    """Mean dense histogram (float64[k, n_bins]) of the sparse rows in each cluster."""
    sums = np.zeros((k, n_bins))
    counts = np.zeros(k)
    for i in range(bins.shape[0]):
        c = labels[i]
        counts[c] += 1.0
        for j in range(nnz[i]):
            sums[c, bins[i, j]] += mass[i, j]
    for c in range(k):
        if counts[c] > 0:
            for b in range(n_bins):
                sums[c, b] /= counts[c]
    return sums, counts


def _dense_row(bins, mass, nnz, i, n_bins):
    row = np.zeros(n_bins)
    row[bins[i, : nnz[i]]] = mass[i, : nnz[i]]
    return row


def kmeans_emd(
    bins, mass, nnz, n_bins: int, dist: np.ndarray, k: int, iters: int, seed: int, tol: float = 1e-3, progress=None,
    lipschitz: np.ndarray | None = None,
    label: str = "k-means",
):
    """Greedy-EMD k-means of sparse histograms over ``n_bins`` buckets with ground distance
    ``dist``. Returns (centroids float64[k, n_bins], info).

    Nearest-centroid searches are pruned with Kantorovich-Rubinstein lower bounds (see
    ``emd.assign_greedy_pruned``); ``lipschitz`` adds columns of 1-Lipschitz bucket functions to
    the distance-to-pivot ones. Pruning never changes the result.
    """
    from .emd import assign_greedy_pruned, neighbour_order, pivot_functions, sparse_project, update_min_greedy

    n = bins.shape[0]
    k = min(k, n)
    order = neighbour_order(dist)
    f = pivot_functions(dist, 16, lipschitz)
    pf = sparse_project(bins, mass, nnz, f)
    rng = np.random.default_rng(seed)
    labels = np.zeros(n, np.int64)
    dists = np.zeros(n, np.float64)

    # k-means++ seeding
    if progress is not None:
        progress.start(k, "seeds", f"{label}: k-means++ seeding ({n:,} points)")
    first = int(rng.integers(n))
    seeds = [first]
    best = np.full(n, np.inf)
    row = _dense_row(bins, mass, nnz, first, n_bins)
    update_min_greedy(bins, mass, nnz, row, order, dist, pf, row @ f, best)
    if progress is not None:
        progress.advance(1)
    for _ in range(1, k):
        p = best * best
        total = p.sum()
        nxt = int(rng.choice(n, p=p / total)) if total > 0 else int(rng.choice(np.setdiff1d(np.arange(n), seeds)))
        seeds.append(nxt)
        row = _dense_row(bins, mass, nnz, nxt, n_bins)
        update_min_greedy(bins, mass, nnz, row, order, dist, pf, row @ f, best)
        if progress is not None:
            progress.advance(1)
    if progress is not None:
        progress.start(iters, "iter", f"{label}: Lloyd iterations ({n:,} points, {k} clusters)")
    centroids = np.stack([_dense_row(bins, mass, nnz, i, n_bins) for i in seeds])
    info = {"iterations": 0, "changed": [], "emd_evals": 0}
    prev = np.full(n, -1, np.int64)
    for it in range(iters):
        info["emd_evals"] += int(assign_greedy_pruned(bins, mass, nnz, centroids, order, dist, pf, centroids @ f, labels, dists))
        changed = float(np.mean(labels != prev))
        info["iterations"] = it + 1
        info["changed"].append(changed)
        if progress is not None:
            progress.advance(1, inertia=f"{float(dists.mean()):.5f}", changed=f"{changed:.4f}")
        prev = labels.copy()
        sums, counts = sparse_means(bins, mass, nnz, labels, k, n_bins)
        nz = counts > 0
        centroids[nz] = sums[nz]
        for c, p in _reseed_empty(counts, dists, labels):
            centroids[c] = _dense_row(bins, mass, nnz, p, n_bins)
        if changed < tol:
            break
    assign_greedy_pruned(bins, mass, nnz, centroids, order, dist, pf, centroids @ f, labels, dists)
    info["inertia"] = float(dists.mean())
    info["pivots"] = f
    return centroids, info
