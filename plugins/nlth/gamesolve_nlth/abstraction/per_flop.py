"""Buckets computed separately for one flop (for real-time search).

Pluribus's search used, for the rounds after the current one, 500 buckets per round computed
separately for each flop with the potential-aware EMD algorithm. :func:`buckets_for_flop` does
that for one flop: it clusters only the hands consistent with the flop, with the same kernels as
the blueprint abstraction:

* river: every (turn, river, hole pair) on this flop (1,176 runouts x 1,081 holes), bucketed by
  optimal 1-D k-means of exact equity against a random hand (bucket 0 = weakest);
* turn: every (turn, hole pair) (49 x 1,128 = 55,272 hands), k-means under the 1-D EMD of
  their histograms over this flop's river buckets;
* flop (optional, ``flop_buckets``): the 1,176 hole pairs, greedy-EMD k-means of their
  histograms over this flop's turn buckets (the search itself treats its current round
  losslessly, so by default the flop is not bucketed).

Tables are dense and keyed by cards, with -1 where cards clash: ``turn[turn_card, hole]``,
``river[turn_card, river_card, hole]`` (both card orders filled), ``flop[hole]``, with ``hole``
= :func:`~gamesolve_nlth.abstraction.equity.hole_pair_index`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..cards import parse_cards
from . import equity as eq
from .card_abstraction import _mean_l1_to_labels, percentile_buckets, within_bucket_std
from .emd import assign_greedy, assign_l1, cdf_features, compress_atoms, greedy_to_labels, neighbour_order, pairwise_l1
from .kmeans import kmeans_1d, kmeans_emd, kmeans_l1, sparse_means


@dataclass
class FlopBuckets:
    """Buckets of the later rounds for one flop (see module docstring for the layout)."""

    flop_cards: tuple[int, int, int]
    turn: np.ndarray  # int32[52, 1326]
    river: np.ndarray  # int32[52, 52, 1326]
    river_centroids: np.ndarray  # equity of each river bucket, ascending
    turn_centroids: np.ndarray  # float32[k_turn, k_river - 1]: gap-scaled CDFs over river buckets
    flop: np.ndarray | None = None  # int32[1326] when flop buckets were requested
    quality: dict = field(default_factory=dict)

    def turn_bucket(self, hole, turn: int) -> int:
        return int(self.turn[int(turn), eq.hole_pair_index(int(hole[0]), int(hole[1]))])

    def river_bucket(self, hole, turn: int, river: int) -> int:
        return int(self.river[int(turn), int(river), eq.hole_pair_index(int(hole[0]), int(hole[1]))])


def buckets_for_flop(
    flop_cards,
    counts: tuple[int, int] = (500, 500),
    flop_buckets: int | None = None,
    iters: int = 20,
    seed: int = 0,
    turn_sample: int = 0,
    tol: float = 1e-3,
    progress=None,
) -> FlopBuckets:
    """Turn and river buckets (``counts = (turn, river)``) for the hands on one flop.

    ``flop_cards``: three cards (ints or a string like ``"AsKd2c"``). ``turn_sample`` > 0 fits
    the turn k-means on that many of the 55,272 turn hands (then assigns all). Every random
    choice derives from ``seed``. With ``flop_buckets`` the flop's 1,176 hole pairs are
    clustered too and ``quality`` compares that with an equity-percentile bucketing.
    """
    flop = parse_cards(flop_cards) if isinstance(flop_cards, str) else [int(c) for c in flop_cards]
    if len(flop) != 3 or len(set(flop)) != 3 or not all(0 <= c < 52 for c in flop):
        raise ValueError(f"a flop is three distinct cards, not {flop_cards!r}")
    k_turn, k_river = (int(c) for c in counts)
    flop_arr = np.array(flop, np.int64)
    quality: dict = {}

    # river: exact equity of every runout x hole, optimal 1-D k-means
    rv = eq.flop_river_values(flop_arr)
    lower = np.triu(np.ones((52, 52), bool), 1)[:, :, None] & (rv >= 0)  # each runout once
    vals = rv[lower].astype(np.int64)
    hist = np.bincount(vals, minlength=eq.RIVER_SCALE + 1)
    cent_v, value_bucket = kmeans_1d(hist, k_river)
    kr = len(cent_v)
    river = np.where(rv >= 0, value_bucket[np.maximum(rv, 0)], -1).astype(np.int32)
    values = np.arange(eq.RIVER_SCALE + 1) / eq.RIVER_SCALE
    quality["river"] = {"buckets": kr, "hands": int(hist.sum()), "equity_std": within_bucket_std(value_bucket, values, kr, hist)}

    # turn: 1-D EMD k-means over histograms of river buckets
    river_centroids = cent_v / eq.RIVER_SCALE
    gaps = np.diff(river_centroids) if kr > 1 else np.zeros(0)
    turn_cards, holes, atoms, t_eq = eq.flop_turn_features(flop_arr, rv, value_bucket.astype(np.int64))
    x = cdf_features(atoms, kr, gaps) if kr > 1 else np.zeros((len(atoms), 1), np.float32)
    n = len(x)
    fit = np.arange(n) if not turn_sample or turn_sample >= n else np.sort(np.random.default_rng(seed).choice(n, turn_sample, replace=False))
    turn_cdf, _ = kmeans_l1(x[fit], k_turn, iters, seed + 1, tol, progress, "turn")
    kt = len(turn_cdf)
    labels = np.empty(n, np.int64)
    d = np.empty(n, np.float32)
    assign_l1(x, turn_cdf, labels, d)
    turn = np.full((52, 1326), -1, np.int32)
    turn[turn_cards, holes] = labels
    pct = percentile_buckets(t_eq, kt)
    pct_cent = np.zeros((kt, x.shape[1]))
    np.add.at(pct_cent, pct, x)
    pct_cent /= np.maximum(np.bincount(pct, minlength=kt), 1)[:, None]
    quality["turn"] = {
        "buckets": kt,
        "hands": n,
        "equity_std": within_bucket_std(labels, t_eq, kt),
        "percentile_equity_std": within_bucket_std(pct, t_eq, kt),
        "emd": float(d.mean()),
        "percentile_emd": float(_mean_l1_to_labels(x, pct_cent.astype(np.float32), pct)),
    }

    flop_table = None
    if flop_buckets:
        ground = pairwise_l1(turn_cdf.astype(np.float64))
        order = neighbour_order(ground)
        hp = np.array(sorted({int(h) for h in holes}), np.int64)  # the 1,176 hole pairs
        pos = np.full(1326, -1, np.int64)
        pos[hp] = np.arange(len(hp))
        f_atoms = np.empty((len(hp), 47), np.int32)
        fill = np.zeros(len(hp), np.int64)
        f_eq = np.zeros(len(hp))
        rows = pos[holes]
        for i in range(n):  # 55k rows: each (turn, hole) is one completion of the flop hand `hole`
            r = rows[i]
            f_atoms[r, fill[r]] = labels[i]
            fill[r] += 1
        np.add.at(f_eq, rows, t_eq / 47.0)
        assert (fill == 47).all()
        bins, mass, nnz = compress_atoms(f_atoms, kt)
        fcent, _ = kmeans_emd(bins, mass, nnz, kt, ground, flop_buckets, iters, seed + 2, tol, progress, label="flop")
        kf = len(fcent)
        fl = np.empty(len(hp), np.int64)
        fd = np.empty(len(hp))
        assign_greedy(bins, mass, nnz, fcent, order, ground, fl, fd)
        flop_table = np.full(1326, -1, np.int32)
        flop_table[hp] = fl
        pct = percentile_buckets(f_eq, kf)
        pcent, _ = sparse_means(bins, mass, nnz, pct, kf, kt)
        quality["flop"] = {
            "buckets": kf,
            "hands": len(hp),
            "equity_std": within_bucket_std(fl, f_eq, kf),
            "percentile_equity_std": within_bucket_std(pct, f_eq, kf),
            "emd": float(fd.mean()),
            "percentile_emd": float(greedy_to_labels(bins, mass, nnz, pcent, pct, order, ground).mean()),
        }
    return FlopBuckets(
        flop_cards=tuple(flop),
        turn=turn,
        river=river,
        river_centroids=river_centroids,
        turn_centroids=turn_cdf,
        flop=flop_table,
        quality=quality,
    )
