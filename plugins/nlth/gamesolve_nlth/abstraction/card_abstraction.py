"""Build, cache, load and query the NLTH card abstraction.

Rounds and tables (imperfect recall: the whole board as one set)::

    round    indexer   table length   bucket by
    preflop  (2,)      169            lossless (bucket = preflop index)
    flop     (2, 3)    1,286,792      greedy-EMD k-means of the histogram over turn buckets
    turn     (2, 4)    13,960,050     1-D EMD k-means of the histogram over river buckets
    river    (2, 5)    123,156,254    optimal 1-D k-means of equity vs a random hand

A lookup is ``tables[round][indexer.index(hole + board)]`` (:meth:`CardAbstraction.bucket`).
See docs/abstraction.md for the method and the quality figures.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

import numba
import numpy as np
from numba import njit

from gamesolve.provenance import source_revision
from gamesolve.threads import run_blocks

from ..isomorphism import HandIndexer
from . import equity as eq
from .cache import STORE_FORMAT, STORE_KIND, abstraction_path
from .emd import (
    assign_greedy_pruned,
    assign_l1,
    cdf_features,
    compress_atoms,
    greedy_to_labels,
    neighbour_order,
    pairwise_l1,
    sparse_project,
)
from .kmeans import kmeans_1d, kmeans_emd, kmeans_l1, sparse_means
from .presets import ALGORITHM_VERSION, CANONICAL_COUNTS, ROUND_NAMES, CardAbstractionParams

CHUNK = 1 << 19  # canonical hands per kernel call between progress updates
TURN_BOARDS = 448  # 4-card boards per turn assignment chunk (~500,000 hands, like CHUNK)


class _NoProgress:
    def start(self, total, unit, description):
        pass

    def advance(self, amount, **fields):
        pass

    def note(self, message):
        pass


def _code_version() -> str:
    try:
        from importlib.metadata import version

        v = version("gamesolve-nlth")
    except Exception:  # pragma: no cover - source tree
        v = "0+source"
    return f"gamesolve-nlth {v}, card abstraction algorithm {ALGORITHM_VERSION}"


def _bucket_dtype(k: int):
    return np.uint8 if k <= 256 else np.uint16


# ----------------------------------------------------------------------------------------------
# Quality helpers
# ----------------------------------------------------------------------------------------------
def within_bucket_std(labels: np.ndarray, values: np.ndarray, k: int, weights: np.ndarray | None = None) -> float:
    """Mean over hands of the standard deviation of ``values`` inside the hand's bucket
    (i.e. the size-weighted mean of per-bucket standard deviations)."""
    w = np.ones(len(values)) if weights is None else np.asarray(weights, float)
    n = np.bincount(labels, weights=w, minlength=k)
    s1 = np.bincount(labels, weights=w * values, minlength=k)
    s2 = np.bincount(labels, weights=w * values * values, minlength=k)
    nz = n > 0
    mean = s1[nz] / n[nz]
    var = np.maximum(s2[nz] / n[nz] - mean * mean, 0.0)
    return float(np.sum(n[nz] * np.sqrt(var)) / n.sum())


def percentile_buckets(values: np.ndarray, k: int) -> np.ndarray:
    """Equity-percentile abstraction: k equal-frequency buckets of ``values`` (0 = lowest).
    Equal values share a bucket, so a bucket may be empty when values tie heavily."""
    edges = np.quantile(values, np.linspace(0, 1, k + 1)[1:-1])
    return np.searchsorted(edges, values, side="right").astype(np.int64)


# ----------------------------------------------------------------------------------------------
# The abstraction object
# ----------------------------------------------------------------------------------------------
_INDEXERS: dict[tuple, HandIndexer] = {}


def _indexer(rounds: tuple) -> HandIndexer:
    if rounds not in _INDEXERS:
        _INDEXERS[rounds] = HandIndexer(rounds)
    return _INDEXERS[rounds]


@dataclass
class CardAbstraction:
    """Bucket tables of the four rounds plus what was learnt building them.

    ``tables[r]`` maps the canonical index of a round-r hand (``(2,)``, ``(2,3)``, ``(2,4)``,
    ``(2,5)`` indexers) to its bucket. ``attrs`` holds parameters, timings and quality.
    ``flop_equity`` and ``turn_equity`` (per canonical hand) are kept by a build and saved, but
    :func:`load_card_abstraction` leaves them ``None``: no player needs them, and reading the
    turn's (56 MB) took a fifth of every hold'em process's abstraction load.
    """

    params: CardAbstractionParams
    tables: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
    flop_equity: np.ndarray | None
    turn_equity: np.ndarray | None
    river_centroids: np.ndarray
    turn_centroids: np.ndarray
    flop_centroids: np.ndarray
    turn_ground: np.ndarray
    attrs: dict
    path: Path | None = None

    @property
    def num_buckets(self) -> tuple[int, int, int, int]:
        return tuple(int(x) for x in self.attrs["num_buckets"])

    @property
    def quality(self) -> dict:
        return self.attrs.get("quality", {})

    def index(self, round: int, cards) -> int:
        """Canonical index of hole + board for ``round`` (0 preflop .. 3 river)."""
        cards = [int(c) for c in cards]
        if len(cards) != (2, 5, 6, 7)[round]:
            raise ValueError(f"{ROUND_NAMES[round]} needs {(2, 5, 6, 7)[round]} cards (hole + board), got {len(cards)}")
        if round == 0:
            return _indexer((2,)).index(cards)
        return _indexer((2, round + 2)).index(cards, round=1)

    def bucket(self, round: int, cards) -> int:
        """Bucket of one hand: ``cards`` = 2 hole cards followed by the board so far."""
        return int(self.tables[round][self.index(round, cards)])

    def buckets(self, round: int, cards: np.ndarray) -> np.ndarray:
        """Buckets (int64[n]) of an (n, 2 + board) card array."""
        cards = np.asarray(cards)
        ix = _indexer((2,)) if round == 0 else _indexer((2, round + 2))
        idx = ix.index_batch(cards, round=0 if round == 0 else 1)
        return self.tables[round][idx].astype(np.int64)


# ----------------------------------------------------------------------------------------------
# Build
# ----------------------------------------------------------------------------------------------
def build_card_abstraction(
    params: CardAbstractionParams,
    cache_dir: str | os.PathLike | None = None,
    threads: int | None = None,
    progress=None,
    force: bool = False,
    save: bool = True,
    ray: str | None = None,
    workers: int = 2,
) -> CardAbstraction:
    """The card abstraction for ``params``: loaded from the cache if present, else built
    (and saved atomically unless ``save`` is false). ``threads`` sets numba's thread count;
    ``ray`` (a Ray cluster's address, or ``local``) has ``workers`` workers compute the
    turn and flop hands' features and buckets, chunk by chunk (the same tables)."""
    path = abstraction_path(params, cache_dir)
    if not force and _cached(path):
        return load_card_abstraction(path)
    progress = progress or _NoProgress()
    cluster = Cluster(ray, workers)
    if not save:
        return _build(params, threads, progress, path, save, cluster)
    from gamesolve.store.lock import StoreLock

    # One builder per abstraction: a second process waits for the first, then reuses its tables.
    path.parent.mkdir(parents=True, exist_ok=True)
    with StoreLock(path, lock_file=path.with_name(f".{path.name}.lock")).acquire(wait=True):
        if not force and (_cached(path) or _adopt_legacy(path)):
            return load_card_abstraction(path)
        progress.note(f"building card abstraction {path.name} with {params.buckets} buckets (once: cached in {path})")
        return _build(params, threads, progress, path, save, cluster)


def _cached(path: Path) -> bool:
    """Whether the cache holds sealed tables at ``path`` (with a manifest of digests)."""
    from gamesolve.store.integrity import MANIFEST

    return path.exists() and (path / MANIFEST).exists()


def adopt_cached(path: Path) -> None:
    """Seal cached tables at ``path`` written before stores carried manifests (see
    :func:`_adopt_legacy`); nothing to do for sealed tables."""
    from gamesolve.store.lock import StoreLock

    if _cached(path) or not path.is_dir():
        return
    with StoreLock(path, lock_file=path.with_name(f".{path.name}.lock")).acquire(wait=True):
        _cached(path) or _adopt_legacy(path)


# Kept: card abstraction caches from before manifests may sit in a user's cache folder, and
# rebuilding one takes long and replaces a folder other processes may be reading.
def _adopt_legacy(path: Path) -> bool:
    """Seal tables cached by a gamesolve that wrote no manifests, if they are complete (the
    attribute written last, every table of its full length); True if ``path`` is now sealed.
    Their bytes from before this point cannot be vouched for, but they were written
    atomically; rebuilding instead would replace a folder other processes may be reading."""
    import warnings

    import zarr

    from gamesolve.store.integrity import seal

    if not path.is_dir():
        return False
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            g = zarr.open_group(str(path), mode="r")
            attrs = dict(g.attrs)
            ok = attrs.get("kind") == STORE_KIND and attrs.get("complete") and attrs.get("format") == STORE_FORMAT
            ok = ok and all(name in g and g[name].shape == (n,) for name, n in zip(ROUND_NAMES, CANONICAL_COUNTS))
            ok = ok and all(name in g for name in _ARRAYS + ("river_equity_x1980",))
    except Exception:  # anything unreadable is simply not adopted (it is rebuilt)
        return False
    if ok:
        seal(path)
    return bool(ok)


@dataclass(frozen=True)
class Cluster:
    """Where the chunked stages run: here (``address`` None) or on a Ray cluster."""

    address: str | None = None
    workers: int = 2

    def map(self, fn, chunks, **shared):
        """``fn(chunk, **shared)`` for each chunk, in order (:func:`gamesolve.ray_cluster.map_chunks`)."""
        from gamesolve.ray_cluster import map_chunks

        return map_chunks(fn, chunks, shared, self.address, self.workers)


def _build(params: CardAbstractionParams, threads: int | None, progress, path: Path, save: bool,
           cluster: Cluster = Cluster()) -> CardAbstraction:  # fmt: skip
    if threads is not None:
        numba.set_num_threads(int(threads))
    t_start = time.perf_counter()
    stages: dict[str, float] = {}
    quality: dict[str, dict] = {}

    t0 = time.perf_counter()
    river = river_stage(params, progress)
    stages["river"] = time.perf_counter() - t0
    quality["river"] = river.quality
    progress.note(f"river: {river.k} buckets, {stages['river']:.1f} s")

    t0 = time.perf_counter()
    turn = turn_stage(params, river, progress, cluster)
    river.by_board = None  # 357 MB only the turn stage reads
    stages["turn"] = time.perf_counter() - t0
    quality["turn"] = turn.quality
    progress.note(f"turn: {turn.k} buckets, {stages['turn']:.1f} s")

    t0 = time.perf_counter()
    flop = flop_stage(params, river, turn, progress, cluster)
    stages["flop"] = time.perf_counter() - t0
    quality["flop"] = flop.quality
    progress.note(f"flop: {flop.k} buckets, {stages['flop']:.1f} s")
    quality["preflop"] = {"buckets": 169, "hands": 169, "lossless": True}

    attrs = {
        "kind": STORE_KIND,
        "format": STORE_FORMAT,
        "params": params.to_dict(),
        "hash": params.key(),
        "num_buckets": [169, flop.k, turn.k, river.k],
        "canonical_counts": list(CANONICAL_COUNTS),
        "indexers": {"preflop": [2], "flop": [2, 3], "turn": [2, 4], "river": [2, 5]},
        "code_version": _code_version(),
        "threads": numba.get_num_threads(),
        "stage_seconds": stages,
        "quality": quality,
    }
    ab = CardAbstraction(
        params=params,
        tables=(np.arange(169, dtype=np.uint8), flop.table, turn.table, river.table),
        flop_equity=flop.equity.astype(np.float32),
        turn_equity=turn.equity,
        river_centroids=river.centroids,
        turn_centroids=turn.centroids,
        flop_centroids=flop.centroids,
        turn_ground=flop.ground,
        attrs=attrs,
    )
    attrs["build_seconds"] = time.perf_counter() - t_start
    if save:
        t0 = time.perf_counter()
        ab.path = _save(ab, path, river.values)
        attrs["save_seconds"] = time.perf_counter() - t0
    return ab


class _Stage(SimpleNamespace):
    """What one round's stage hands to the next (tables, centroids, quality)."""


def river_stage(params: CardAbstractionParams, progress) -> _Stage:
    """Exact equity of every canonical river hand; optimal 1-D k-means into river buckets."""
    t_river = _indexer((2, 5)).tables[1]
    boards_ix = _indexer((5,))
    boards = boards_ix.unindex_batch(np.arange(boards_ix.size(0)), 0)
    values = np.full(CANONICAL_COUNTS[3], -1, np.int16)
    by_board = np.empty((len(boards), eq.NUM_HOLE_PAIRS), np.int16)  # 357 MB, for the turn stage
    progress.start(len(boards), "boards", "river equity")
    step = 4096
    for lo in range(0, len(boards), step):
        eq.river_values_for_boards(boards[lo : lo + step], t_river, values, by_board[lo : lo + step])
        progress.advance(min(step, len(boards) - lo))
    counts = eq.river_value_counts(values, eq.RIVER_SCALE + 1)
    if counts.sum() != CANONICAL_COUNTS[3]:
        raise RuntimeError("river equity: some canonical river hands were not reached")
    centroids_v, value_bucket = kmeans_1d(counts, params.river_buckets)
    centroids = centroids_v / eq.RIVER_SCALE
    kr = len(centroids)
    table = np.empty(CANONICAL_COUNTS[3], _bucket_dtype(kr))
    eq.map_values(values, value_bucket.astype(table.dtype), table)
    equity = np.arange(eq.RIVER_SCALE + 1) / eq.RIVER_SCALE
    pct_value_bucket = np.minimum((np.cumsum(counts) - counts) * kr // counts.sum(), kr - 1)
    quality = {
        "buckets": kr,
        "hands": int(counts.sum()),
        "equity_std": within_bucket_std(value_bucket, equity, kr, counts),
        "percentile_equity_std": within_bucket_std(pct_value_bucket, equity, kr, counts),
    }
    return _Stage(k=kr, values=values, by_board=by_board, value_bucket=value_bucket, centroids=centroids, table=table,
                  quality=quality)


def turn_stage(params: CardAbstractionParams, river: _Stage, progress, cluster: Cluster = Cluster()) -> _Stage:
    """Histograms over river buckets of the 46 river cards; k-means under the 1-D EMD."""
    t_turn, t_river = _indexer((2, 4)).tables[1], _indexer((2, 5)).tables[1]
    n_turn = CANONICAL_COUNTS[2]
    kr = river.k
    gaps = np.diff(river.centroids)
    rng = np.random.default_rng(params.seed)
    if params.turn_sample == 0 or params.turn_sample >= n_turn:
        fit_idx = np.arange(n_turn, dtype=np.int64)
    else:
        fit_idx = np.sort(rng.choice(n_turn, params.turn_sample, replace=False)).astype(np.int64)
    atoms = np.empty((len(fit_idx), 46), np.int16)
    fit_eq = np.empty(len(fit_idx))

    def features(i, a, e):
        eq.turn_features(i, t_turn, t_river, river.values, river.value_bucket, a, e)

    _chunked_features(progress, "turn features (fit sample)", fit_idx, atoms, fit_eq, features)
    x = cdf_features(atoms, kr, gaps)
    del atoms
    cdf, info = kmeans_l1(x, params.turn_buckets, params.iters, params.seed + 1, params.tol, progress, "turn")
    kt = len(cdf)
    fit_labels = np.zeros(len(x), np.int64)
    fit_d = np.zeros(len(x), np.float32)
    assign_l1(x, cdf, fit_labels, fit_d)
    # the percentile baseline on the same sample: its centroids are its buckets' mean CDFs
    pct = percentile_buckets(fit_eq, kt)
    pct_cent = np.zeros((kt, x.shape[1]))
    _add_rows(pct_cent, pct, x)
    pct_cent /= np.maximum(np.bincount(pct, minlength=kt), 1)[:, None]
    pct_emd = _mean_l1_to_labels(x, pct_cent.astype(np.float32), pct)
    del x
    # centroids as histograms over river buckets (the CDF centroids divided by the gaps)
    cum = np.hstack([cdf.astype(np.float64) / gaps, np.ones((kt, 1))])
    centroids = np.diff(np.hstack([np.zeros((kt, 1)), cum]), axis=1)
    # assign every canonical turn hand, 4-card board by board (see eq.turn_board_features)
    table = np.empty(n_turn, _bucket_dtype(kt))
    equity = np.empty(n_turn, np.float32)
    dist = np.empty(n_turn, np.float32)
    reached = np.zeros(n_turn, bool)
    progress.start(n_turn, "hands", "turn assignment")
    n_boards = _indexer((4,)).size(0)
    chunks = [(lo, min(n_boards, lo + TURN_BOARDS)) for lo in range(0, n_boards, TURN_BOARDS)]
    results = cluster.map(turn_assignment, chunks, by_board=river.by_board, value_bucket=river.value_bucket, gaps=gaps,
                          cdf=cdf)  # fmt: skip
    for idx, lab, e, d in results:
        if reached[idx].any():
            raise RuntimeError("turn assignment: a canonical turn hand was reached from two boards")
        reached[idx] = True
        table[idx] = lab
        equity[idx] = e
        dist[idx] = d
        progress.advance(len(idx))
    if not reached.all():
        raise RuntimeError("turn assignment: some canonical turn hands were not reached")
    emd_sum = 0.0
    for lo in range(0, n_turn, CHUNK):  # summed in fixed index blocks: the same float whatever the chunks
        emd_sum += float(dist[lo : lo + CHUNK].sum(dtype=np.float64))
    labels = table.astype(np.int64)
    e64 = equity.astype(np.float64)
    quality = {
        "buckets": kt,
        "hands": n_turn,
        "equity_std": within_bucket_std(labels, e64, kt),
        "percentile_equity_std": within_bucket_std(percentile_buckets(e64, kt), e64, kt),
        "emd": emd_sum / n_turn,
        "emd_fit_sample": float(fit_d.mean()),
        "percentile_emd_fit_sample": pct_emd,
        "fit_hands": int(len(fit_idx)),
        "kmeans_iterations": info["iterations"],
    }
    return _Stage(k=kt, cdf=cdf, centroids=centroids, table=table, equity=equity, quality=quality)


def turn_assignment(bounds, by_board, value_bucket, gaps, cdf):
    """Turn hands on the canonical 4-card boards ``bounds[0] .. bounds[1] - 1``: their canonical
    indices (each once), buckets (nearest CDF centroid), equities and distances to the centroid
    (a chunk of :func:`turn_stage`; ``by_board`` as filled by the river stage)."""
    boards = _indexer((4,)).unindex_batch(np.arange(bounds[0], bounds[1]), 0)
    n = len(boards) * 1128
    index = np.empty(n, np.int64)
    atoms = np.empty((n, 46), np.int16)
    equity = np.empty(n)
    eq.turn_board_features(boards, _indexer((2, 4)).tables[1], _indexer((5,)).tables[0], by_board, value_bucket, index,
                           atoms, equity)  # fmt: skip
    keep = np.flatnonzero(index >= 0)
    lab = np.empty(len(keep), np.int64)
    d = np.empty(len(keep), np.float32)
    assign_l1(cdf_features(atoms[keep], len(gaps) + 1, gaps), cdf, lab, d)
    return index[keep], lab, equity[keep], d


def flop_features(bounds, turn_table, turn_equity, turn_buckets):
    """Flop hands ``bounds[0] .. bounds[1] - 1``: sparse histograms over turn buckets and
    equities (a chunk of :func:`flop_features_all`)."""
    idx = np.arange(bounds[0], bounds[1], dtype=np.int64)
    atoms = np.empty((len(idx), 47), np.int32)
    equity = np.empty(len(idx))
    eq.flop_features(idx, _indexer((2, 3)).tables[1], _indexer((2, 4)).tables[1], turn_table, turn_equity, atoms, equity)
    return (*compress_atoms(atoms, turn_buckets), equity)


def flop_features_all(turn: _Stage, progress, cluster: Cluster = Cluster()) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Sparse histograms over turn buckets of every canonical flop hand, and flop equities."""
    n_flop = CANONICAL_COUNTS[1]
    chunks = [(lo, min(n_flop, lo + CHUNK)) for lo in range(0, n_flop, CHUNK)]
    progress.start(n_flop, "hands", "flop features")
    parts = []
    for (lo, hi), part in zip(chunks, cluster.map(flop_features, chunks, turn_table=turn.table, turn_equity=turn.equity,
                                                  turn_buckets=turn.k)):  # fmt: skip
        parts.append(part)
        progress.advance(hi - lo)
    return tuple(np.concatenate([p[j] for p in parts]) for j in range(4))


def flop_assignment(chunk, centroids, order, ground, f, cf):
    """Nearest centroid (greedy EMD, pruned) of a chunk of sparse flop histograms
    ``(bins, mass, nnz)``, and the distance (a chunk of :func:`flop_stage`)."""
    bins, mass, nnz = chunk
    labels = np.empty(len(nnz), np.int64)
    d = np.empty(len(nnz))
    assign_greedy_pruned(bins, mass, nnz, centroids, order, ground, sparse_project(bins, mass, nnz, f), cf, labels, d)
    return labels, d


def flop_stage(params: CardAbstractionParams, river: _Stage, turn: _Stage, progress, cluster: Cluster = Cluster()) -> _Stage:
    """Histograms over turn buckets of the 47 turn cards; greedy-EMD k-means with the ground
    distance between turn buckets = the EMD between their centroids."""
    kt = turn.k
    ground = pairwise_l1(turn.cdf.astype(np.float64))  # = 1-D EMD between turn centroids
    # a turn bucket's mean equity is 1-Lipschitz for that ground distance (a lower-bound column)
    mean_eq = -turn.cdf.astype(np.float64).sum(axis=1)
    order = neighbour_order(ground)
    bins, mass, nnz, equity = flop_features_all(turn, progress, cluster)
    n_flop = len(equity)
    if params.flop_sample == 0 or params.flop_sample >= n_flop:
        fit = np.arange(n_flop)
    else:
        fit = np.sort(np.random.default_rng(params.seed + 2).choice(n_flop, params.flop_sample, replace=False))
    centroids, info = kmeans_emd(
        bins[fit], mass[fit], nnz[fit], kt, ground, params.flop_buckets, params.iters, params.seed + 3, params.tol,
        progress, lipschitz=mean_eq, label="flop",
    )
    kf = len(centroids)
    f = info["pivots"]
    labels = np.empty(n_flop, np.int64)
    d = np.empty(n_flop)
    cf = centroids @ f
    progress.start(n_flop, "hands", "flop assignment")
    step = 1 << 15
    bounds = [(lo, min(n_flop, lo + step)) for lo in range(0, n_flop, step)]
    chunks = [(bins[lo:hi], mass[lo:hi], nnz[lo:hi]) for lo, hi in bounds]
    for (lo, hi), (lab, dist) in zip(bounds, cluster.map(flop_assignment, chunks, centroids=centroids, order=order,
                                                         ground=ground, f=f, cf=cf)):  # fmt: skip
        labels[lo:hi] = lab
        d[lo:hi] = dist
        progress.advance(hi - lo)
    pct = percentile_buckets(equity, kf)
    pct_cent, _ = sparse_means(bins, mass, nnz, pct, kf, kt)
    pct_emd = greedy_to_labels(bins, mass, nnz, pct_cent, pct, order, ground)
    quality = {
        "buckets": kf,
        "hands": n_flop,
        "equity_std": within_bucket_std(labels, equity, kf),
        "percentile_equity_std": within_bucket_std(pct, equity, kf),
        "emd": float(d.mean()),
        "percentile_emd": float(pct_emd.mean()),
        "fit_hands": int(len(fit)),
        "kmeans_iterations": info["iterations"],
        "kmeans_emd_evals": info["emd_evals"],
    }
    return _Stage(k=kf, table=labels.astype(_bucket_dtype(kf)), equity=equity, centroids=centroids, ground=ground, quality=quality)


def _mean_l1_to_labels(x: np.ndarray, centroids: np.ndarray, labels: np.ndarray) -> float:
    """Mean L1 distance of each row of ``x`` to the centroid of its label: the rows' distances in
    blocks on numba's threads (a ``nogil`` kernel, not ``prange``: see ``equity.py``), then their
    mean in one pass in row order (the same float whatever the threads)."""
    out = np.empty(x.shape[0])
    run_blocks(x.shape[0], lambda lo, hi: _l1_to_labels_rows(x, centroids, labels, out, lo, hi))
    return _mean(out)


@njit(cache=True, nogil=True)
def _l1_to_labels_rows(x, centroids, labels, out, lo, hi):
    """L1 distance of the rows ``lo .. hi - 1`` of ``x`` to their label's centroid, into ``out``."""
    d = x.shape[1]
    for i in range(lo, hi):
        s = 0.0
        for k in range(d):
            s += abs(np.float64(x[i, k]) - np.float64(centroids[labels[i], k]))
        out[i] = s


@njit(cache=True)
def _mean(a):
    return a.mean()


@njit(cache=True)
def _add_rows(sums, labels, x):
    for i in range(x.shape[0]):
        for j in range(x.shape[1]):
            sums[labels[i], j] += x[i, j]


def _chunked_features(progress, label, indices, atoms, equity, kernel):
    progress.start(len(indices), "hands", label)
    for lo in range(0, len(indices), CHUNK):
        hi = min(len(indices), lo + CHUNK)
        kernel(indices[lo:hi], atoms[lo:hi], equity[lo:hi])
        progress.advance(hi - lo)


# ----------------------------------------------------------------------------------------------
# Store
# ----------------------------------------------------------------------------------------------
_ARRAYS = ("flop_equity", "turn_equity", "river_centroids", "turn_centroids", "flop_centroids", "turn_ground")
_UNLOADED = ("flop_equity", "turn_equity")  # saved, not read back (see CardAbstraction)


def _save(ab: CardAbstraction, path: Path, river_values: np.ndarray) -> Path:
    from gamesolve.store.zarr_io import atomic_group, write_array

    with atomic_group(path, "the card abstraction") as g:
        for r, name in enumerate(ROUND_NAMES):
            write_array(g, name, ab.tables[r], chunk=1 << 22)
        for name in _ARRAYS:
            write_array(g, name, getattr(ab, name), chunk=1 << 22)
        write_array(g, "river_equity_x1980", river_values, chunk=1 << 22)
        g.attrs.update(json.loads(json.dumps({**ab.attrs, "source": source_revision(), "complete": True})))
    return path


def stand_in_abstraction(params: CardAbstractionParams) -> CardAbstraction:
    """An abstraction with ``params``' bucket counts and the tables' types, every postflop
    hand in bucket 0: made at once (its tables are zero pages until written), for compiling
    the kernels that read a real one (``gamesolve_stand_in_form``). Useless for play."""
    ks = (params.flop_buckets, params.turn_buckets, params.river_buckets)
    tables = (np.arange(169, dtype=np.uint8),
              *(np.zeros(n, _bucket_dtype(k)) for n, k in zip(CANONICAL_COUNTS[1:], ks)))  # fmt: skip
    empty = np.zeros((0, 0), np.float32)
    return CardAbstraction(params=params, tables=tables, flop_equity=None, turn_equity=None, river_centroids=empty,
                           turn_centroids=empty, flop_centroids=empty, turn_ground=empty,
                           attrs={"num_buckets": [169, *ks], "stand_in": True})  # fmt: skip


def load_card_abstraction(path: str | os.PathLike) -> CardAbstraction:
    """Load a saved abstraction folder (raises ``StoreError`` if it is not one)."""
    from gamesolve.store.zarr_io import StoreError, open_group

    g = open_group(path, "card abstraction")
    attrs = dict(g.attrs)
    if attrs.get("kind") != STORE_KIND or not attrs.get("complete"):
        raise StoreError(f"{path} is not a complete gamesolve card abstraction")
    if attrs.get("format") != STORE_FORMAT:
        raise StoreError(f"{path}: card abstraction format {attrs.get('format')} (expected {STORE_FORMAT}); rebuild it")
    params = CardAbstractionParams(**attrs["params"])
    for name, n in zip(ROUND_NAMES, CANONICAL_COUNTS):
        if name not in g or g[name].shape != (n,):
            raise StoreError(f"{path}: table {name!r} missing or not of length {n:,}; rebuild it")
    arr = {name: np.asarray(g[name][...]) for name in ROUND_NAMES + _ARRAYS if name not in _UNLOADED}
    return CardAbstraction(
        params=params,
        tables=tuple(arr[name] for name in ROUND_NAMES),
        path=Path(path),
        attrs=attrs,
        **{name: arr.get(name) for name in _ARRAYS},
    )


def load_river_equity(ab: CardAbstraction) -> np.ndarray:
    """Exact river equity (float32, vs a random hand) of every canonical (2,5) hand."""
    from gamesolve.store.zarr_io import open_group

    if ab.path is None:
        raise ValueError("abstraction was not saved")
    v = np.asarray(open_group(ab.path)["river_equity_x1980"][...])
    return v.astype(np.float32) / eq.RIVER_SCALE
