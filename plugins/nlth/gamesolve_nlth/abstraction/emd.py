"""Earth mover's distances used by the potential-aware abstraction.

Two cases occur:

* **Histograms over points on a line** (a turn hand's histogram over river buckets, each river
  bucket sitting at its centroid equity). The EMD has the closed form
  ``sum_k |P_k - Q_k| * (x_{k+1} - x_k)`` with ``P, Q`` the cumulative histograms. Scaling
  each CDF coordinate by its gap (:func:`cdf_features`) turns it into a plain L1 distance, so
  k-means on turn hands is L1 k-means over those vectors (means of CDFs are CDFs of means).
* **Histograms over arbitrary clusters** (a flop hand's histogram over turn buckets, with the
  ground distance between turn buckets = the EMD between their centroids). Solving the transport
  problem for every (hand, centroid) pair is far too slow, so, as in Ganzfried & Sandholm
  (AAAI 2014, Algorithm 2), :func:`emd_greedy` moves each of the hand's atoms to the centroid's
  bins in order of increasing ground distance, round by round over the atoms. The result is the
  cost of a feasible transport plan: an upper bound on the exact EMD, equal to it in simple
  cases (tests compare it with ``scipy.optimize.linprog``).

The kernels over many hands are ``nogil=True`` loops over rows ``lo .. hi - 1`` run on Python
threads by a wrapper of the old name (:func:`gamesolve.threads.run_blocks`), not ``prange``
loops: numba compiles a ``parallel=True`` body again, inlined with ``_emd_greedy`` and the rest,
in its parfor wrapper, which was most of a cold ``abstraction build`` (this module's
compilation in a cold tiny build: 23 -> 11 processor seconds; issue 36, docs/benchmarks.md,
"The card abstraction's parallel kernels on Python threads").
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gamesolve.threads import run_blocks

#: Blocks per call of the kernels whose rows cost unevenly (the pruned greedy EMD stops early
#: for some hands): the threads pull them as they finish one.
UNEVEN_BLOCKS = 32


def emd_1d(p: np.ndarray, q: np.ndarray, positions: np.ndarray) -> float:
    """Exact EMD between two histograms (same total mass) over sorted ``positions``."""
    p = np.asarray(p, float)
    q = np.asarray(q, float)
    gaps = np.diff(np.asarray(positions, float))
    return float(np.sum(np.abs(np.cumsum(p - q)[:-1]) * gaps))


def cdf_features(atoms: np.ndarray, n_bins: int, gaps: np.ndarray) -> np.ndarray:
    """Gap-scaled cumulative histograms (float32[n, n_bins - 1]) of rows of bucket ids.

    ``atoms[i]`` lists the next-round buckets of hand i's completions (equal masses);
    ``gaps[k] = x_{k+1} - x_k`` for the bucket positions ``x``. L1 distance between two rows is
    the EMD between the two histograms. Rows in blocks on numba's threads.
    """
    out = np.empty((atoms.shape[0], n_bins - 1), np.float32)
    run_blocks(atoms.shape[0], lambda lo, hi: _cdf_rows(atoms, n_bins, gaps, out, lo, hi))
    return out


@njit(cache=True, nogil=True)
def _cdf_rows(atoms, n_bins, gaps, out, lo, hi):
    """:func:`cdf_features` of the rows ``lo .. hi - 1`` into ``out``."""
    m = atoms.shape[1]
    h = np.empty(n_bins, np.float64)  # once per call, not per row (see blueprint/deals.py's deal_range)
    for i in range(lo, hi):
        for k in range(n_bins):
            h[k] = 0.0
        for j in range(m):
            h[atoms[i, j]] += 1.0
        acc = 0.0
        for k in range(n_bins - 1):
            acc += h[k]
            out[i, k] = np.float32(acc / m * gaps[k])


@njit(cache=True)
def compress_atoms(atoms, n_bins):
    """Sparse form of rows of bucket ids: (bins int32[n, m], mass float64[n, m], nnz int32[n]).

    Row i's distinct buckets are ``bins[i, :nnz[i]]`` with masses (fractions of the row) in
    ``mass[i, :nnz[i]]``.
    """
    n, m = atoms.shape
    bins = np.zeros((n, m), np.int32)
    mass = np.zeros((n, m), np.float64)
    nnz = np.zeros(n, np.int32)
    count = np.zeros(n_bins, np.int64)
    for i in range(n):
        for j in range(m):
            count[atoms[i, j]] += 1
        z = 0
        for j in range(m):
            b = atoms[i, j]
            if count[b] > 0:
                bins[i, z] = b
                mass[i, z] = count[b] / m
                count[b] = 0
                z += 1
        nnz[i] = z
    return bins, mass, nnz


@njit(cache=True, inline="always")
def _emd_greedy(bins, mass, nnz, row, centroid, order, dist, targets, rem, bound=np.inf):
    """Greedy transport cost from the sparse hand ``row`` to a dense centroid (see module doc).

    Neighbour rank by neighbour rank, each unfinished atom sends what it can to its next
    nearest centroid bin. Finished atoms leave the active list (swap with the last one).
    Returns as soon as the cost reaches ``bound`` (the cost only grows), so nearest-centroid
    searches can abandon hopeless candidates early.
    """
    k = centroid.shape[0]
    for t in range(k):
        targets[t] = centroid[t]
    act = nnz[row]
    for j in range(act):
        rem[j] = j  # rem holds active atom numbers in the first act slots ...
    cost = 0.0
    for r in range(k):
        j = 0
        while j < act:
            a = np.int64(rem[j])
            need = rem[bins.shape[1] + a]
            b = bins[row, a]
            t = order[b, r]
            avail = targets[t]
            if avail <= 0.0:
                j += 1
                continue
            if need <= avail + 1e-12:
                cost += need * dist[b, t]
                targets[t] = avail - need
                act -= 1
                rem[j] = rem[act]
            else:
                cost += avail * dist[b, t]
                rem[bins.shape[1] + a] = need - avail
                targets[t] = 0.0
                j += 1
        if act == 0 or cost >= bound:
            break
    return cost


@njit(cache=True, inline="always")
def _init_rem(mass, row, nnz, rem, width):
    for j in range(nnz[row]):
        rem[width + j] = mass[row, j]


@njit(cache=True)
def emd_greedy(bins, mass, centroid, dist):
    """Greedy EMD from one sparse histogram (``bins``, ``mass``) to a dense ``centroid`` under
    the ground distance matrix ``dist`` (Ganzfried & Sandholm 2014, Algorithm 2)."""
    order = np.empty(dist.shape, np.int64)
    for b in range(dist.shape[0]):
        order[b] = np.argsort(dist[b], kind="mergesort")
    nz = bins.shape[0]
    b2 = bins.reshape((1, nz))
    m2 = mass.reshape((1, nz))
    nnz = np.array([nz], np.int32)
    rem = np.empty(2 * nz)
    _init_rem(m2, 0, nnz, rem, nz)
    return _emd_greedy(b2, m2, nnz, 0, centroid, order, dist, np.empty(centroid.shape[0]), rem)


def assign_greedy(bins: np.ndarray, mass: np.ndarray, nnz: np.ndarray, centroids: np.ndarray, order: np.ndarray,
                  dist: np.ndarray, labels: np.ndarray, dists: np.ndarray) -> None:
    """Nearest centroid of every sparse hand under the greedy EMD (hands in blocks on numba's threads)."""
    run_blocks(bins.shape[0], lambda lo, hi: _assign_greedy_rows(
        bins, mass, nnz, centroids, order, dist, labels, dists, lo, hi), blocks=UNEVEN_BLOCKS)  # fmt: skip


@njit(cache=True, nogil=True)
def _assign_greedy_rows(bins, mass, nnz, centroids, order, dist, labels, dists, lo, hi):
    """:func:`assign_greedy` on the hands ``lo .. hi - 1``."""
    c, k = centroids.shape
    targets = np.empty(k, np.float64)  # work arrays once per call (_emd_greedy fills them)
    rem = np.empty(2 * bins.shape[1], np.float64)
    for i in range(lo, hi):
        best = np.inf
        arg = 0
        for j in range(c):
            _init_rem(mass, i, nnz, rem, bins.shape[1])
            d = _emd_greedy(bins, mass, nnz, i, centroids[j], order, dist, targets, rem, best)
            if d < best:
                best = d
                arg = j
        labels[i] = arg
        dists[i] = best


def assign_l1(x: np.ndarray, centroids: np.ndarray, labels: np.ndarray, dists: np.ndarray) -> None:
    """Nearest centroid of every row of ``x`` under the L1 distance (rows in blocks on numba's threads)."""
    run_blocks(x.shape[0], lambda lo, hi: _assign_l1_rows(x, centroids, labels, dists, lo, hi))


@njit(cache=True, nogil=True, fastmath=True)
def _assign_l1_rows(x, centroids, labels, dists, lo, hi):
    """:func:`assign_l1` on the rows ``lo .. hi - 1``."""
    d = x.shape[1]
    c = centroids.shape[0]
    for i in range(lo, hi):
        best = np.inf
        arg = 0
        for j in range(c):
            s = np.float32(0.0)
            for k in range(d):
                s += abs(x[i, k] - centroids[j, k])
            if s < best:
                best = s
                arg = j
        labels[i] = arg
        dists[i] = best


@njit(cache=True)
def pairwise_l1(a):
    """L1 distances between all rows of ``a`` (float64[n, n])."""
    n = a.shape[0]
    out = np.zeros((n, n), np.float64)
    for i in range(n):
        for j in range(i + 1, n):
            s = 0.0
            for k in range(a.shape[1]):
                s += abs(np.float64(a[i, k]) - np.float64(a[j, k]))
            out[i, j] = s
            out[j, i] = s
    return out


def neighbour_order(dist: np.ndarray) -> np.ndarray:
    """Per bucket, all buckets by increasing ground distance (ties by index): int64[k, k]."""
    return np.argsort(dist, axis=1, kind="stable").astype(np.int64)


def greedy_to_labels(bins: np.ndarray, mass: np.ndarray, nnz: np.ndarray, centroids: np.ndarray, labels: np.ndarray,
                     order: np.ndarray, dist: np.ndarray) -> np.ndarray:
    """Greedy EMD of every sparse hand to the centroid of its own label (float64[n]; hands in
    blocks on numba's threads)."""
    out = np.empty(bins.shape[0], np.float64)
    run_blocks(bins.shape[0], lambda lo, hi: _greedy_to_labels_rows(
        bins, mass, nnz, centroids, labels, order, dist, out, lo, hi), blocks=UNEVEN_BLOCKS)  # fmt: skip
    return out


@njit(cache=True, nogil=True)
def _greedy_to_labels_rows(bins, mass, nnz, centroids, labels, order, dist, out, lo, hi):
    """:func:`greedy_to_labels` of the hands ``lo .. hi - 1`` into ``out``."""
    k = centroids.shape[1]
    targets = np.empty(k, np.float64)  # work arrays once per call (_emd_greedy fills them)
    rem = np.empty(2 * bins.shape[1], np.float64)
    for i in range(lo, hi):
        _init_rem(mass, i, nnz, rem, bins.shape[1])
        out[i] = _emd_greedy(bins, mass, nnz, i, centroids[labels[i]], order, dist, targets, rem)


# ----------------------------------------------------------------------------------------------
# Pruning with lower bounds (exact: never changes which centroid is nearest)
# ----------------------------------------------------------------------------------------------
# For any 1-Lipschitz function f of the ground metric, |E_P f - E_Q f| <= EMD(P, Q) (Kantorovich-
# Rubinstein) <= greedy EMD(P, Q). So if max over a few such f of |E_P f - E_Q f| is already no
# smaller than the best greedy EMD found, that centroid cannot win. We use f_m(b) = dist[b, p_m]
# for pivot buckets p_m (1-Lipschitz by the triangle inequality) plus any extra columns the
# caller proves 1-Lipschitz (the turn buckets' mean equity).


def pivot_functions(dist: np.ndarray, n_pivots: int = 16, extra: np.ndarray | None = None) -> np.ndarray:
    """1-Lipschitz functions of the buckets (float64[k, m]) for the lower bounds: distances to
    ``n_pivots`` pivots chosen by farthest-point traversal, plus the columns of ``extra``."""
    k = dist.shape[0]
    cols = [] if extra is None else [np.asarray(extra, np.float64).reshape(k, -1)]
    p = int(np.argmax(dist.sum(axis=1)))
    near = np.full(k, np.inf)
    for _ in range(min(n_pivots, k)):
        cols.append(dist[:, p : p + 1])
        near = np.minimum(near, dist[:, p])
        p = int(np.argmax(near))
    return np.ascontiguousarray(np.hstack(cols))


def sparse_project(bins: np.ndarray, mass: np.ndarray, nnz: np.ndarray, f: np.ndarray) -> np.ndarray:
    """E_P f for every sparse row P: float64[n, m] (rows in blocks on numba's threads)."""
    out = np.zeros((bins.shape[0], f.shape[1]))
    run_blocks(bins.shape[0], lambda lo, hi: _sparse_project_rows(bins, mass, nnz, f, out, lo, hi))
    return out


@njit(cache=True, nogil=True)
def _sparse_project_rows(bins, mass, nnz, f, out, lo, hi):
    """:func:`sparse_project` of the rows ``lo .. hi - 1`` into ``out`` (zeros)."""
    m = f.shape[1]
    for i in range(lo, hi):
        for j in range(nnz[i]):
            b = bins[i, j]
            w = mass[i, j]
            for q in range(m):
                out[i, q] += w * f[b, q]


def assign_greedy_pruned(bins: np.ndarray, mass: np.ndarray, nnz: np.ndarray, centroids: np.ndarray,
                         order: np.ndarray, dist: np.ndarray, pf: np.ndarray, cf: np.ndarray, labels: np.ndarray,
                         dists: np.ndarray) -> int:
    """Same result as :func:`assign_greedy` (nearest centroid under the greedy EMD), visiting
    centroids by increasing lower bound ``max_m |pf[i, m] - cf[c, m]|`` and stopping when the
    bound reaches the best distance found; partial transports stop at the best as well.
    Returns the number of greedy EMDs evaluated. Hands in blocks pulled by numba's threads
    (uneven costs); the per-block counts are integers, added in block order."""
    return sum(run_blocks(bins.shape[0], lambda lo, hi: _assign_pruned_rows(
        bins, mass, nnz, centroids, order, dist, pf, cf, labels, dists, lo, hi), blocks=UNEVEN_BLOCKS))  # fmt: skip


@njit(cache=True, nogil=True)
def _assign_pruned_rows(bins, mass, nnz, centroids, order, dist, pf, cf, labels, dists, lo, hi):
    """:func:`assign_greedy_pruned` on the hands ``lo .. hi - 1``; the number of greedy EMDs."""
    c, k = centroids.shape
    m = pf.shape[1]
    evals = np.int64(0)
    targets = np.empty(k, np.float64)  # work arrays once per call (_emd_greedy fills them)
    rem = np.empty(2 * bins.shape[1], np.float64)
    lb = np.empty(c, np.float64)
    for i in range(lo, hi):
        for j in range(c):
            v = 0.0
            for q in range(m):
                d = abs(pf[i, q] - cf[j, q])
                if d > v:
                    v = d
            lb[j] = v
        visit = np.argsort(lb)
        best = np.inf
        arg = visit[0]
        e = 0
        for jj in range(c):
            j = visit[jj]
            if lb[j] >= best:
                break
            _init_rem(mass, i, nnz, rem, bins.shape[1])
            d = _emd_greedy(bins, mass, nnz, i, centroids[j], order, dist, targets, rem, best)
            e += 1
            if d < best:
                best = d
                arg = j
        labels[i] = arg
        dists[i] = best
        evals += e
    return evals


def update_min_greedy(bins: np.ndarray, mass: np.ndarray, nnz: np.ndarray, centroid: np.ndarray, order: np.ndarray,
                      dist: np.ndarray, pf: np.ndarray, cf_row: np.ndarray, best: np.ndarray) -> None:
    """best[i] = min(best[i], greedy EMD(i, centroid)), skipping rows the lower bound rules out
    (k-means++ seeding). Hands in blocks pulled by numba's threads (uneven costs)."""
    run_blocks(bins.shape[0], lambda lo, hi: _update_min_rows(
        bins, mass, nnz, centroid, order, dist, pf, cf_row, best, lo, hi), blocks=UNEVEN_BLOCKS)  # fmt: skip


@njit(cache=True, nogil=True)
def _update_min_rows(bins, mass, nnz, centroid, order, dist, pf, cf_row, best, lo, hi):
    """:func:`update_min_greedy` on the hands ``lo .. hi - 1``."""
    k = centroid.shape[0]
    m = pf.shape[1]
    targets = np.empty(k, np.float64)  # work arrays once per call (_emd_greedy fills them)
    rem = np.empty(2 * bins.shape[1], np.float64)
    for i in range(lo, hi):
        v = 0.0
        for q in range(m):
            d = abs(pf[i, q] - cf_row[q])
            if d > v:
                v = d
        if v >= best[i]:
            continue
        _init_rem(mass, i, nnz, rem, bins.shape[1])
        d = _emd_greedy(bins, mass, nnz, i, centroid, order, dist, targets, rem, best[i])
        if d < best[i]:
            best[i] = d
