"""Card abstraction: equity kernels, EMD, k-means, per-flop buckets, cache, CLI.

The full ``tiny`` build (every canonical hand of every round, ~1.5 minutes on 2 cores) is in the
slow-marked test at the end (``pytest -m slow``); the default tests use one flop at a time
(``buckets_for_flop``, the same kernels on a restricted set of hands) and a synthetic store.
"""

from __future__ import annotations

import time

import numpy as np
import pytest
from click.testing import CliRunner

from gamesolve_nlth.abstraction import (
    CANONICAL_COUNTS,
    CardAbstractionParams,
    abstraction_path,
    build_card_abstraction,
    buckets_for_flop,
    cache_root,
    load_card_abstraction,
    preset,
    quality_report,
)
from gamesolve_nlth.abstraction import card_abstraction as ca
from gamesolve_nlth.abstraction import equity as eq
from gamesolve_nlth.abstraction.emd import (
    assign_greedy,
    assign_greedy_pruned,
    cdf_features,
    compress_atoms,
    emd_1d,
    emd_greedy,
    neighbour_order,
    pairwise_l1,
    pivot_functions,
    sparse_project,
)
from gamesolve_nlth.abstraction.kmeans import _kmeans_1d_dp, kmeans_1d, kmeans_emd, kmeans_l1
from gamesolve_nlth.cards import parse_cards
from gamesolve_nlth.evaluator import evaluate7
from tests.command_output import last_json


def brute_river_value(hole, board):
    """2 * wins + ties of ``hole`` against all 990 opponent hands (pure Python)."""
    dead = set(hole) | set(board)
    deck = [c for c in range(52) if c not in dead]
    mine = evaluate7(*hole, *board)
    v = 0
    for i in range(len(deck)):
        for j in range(i + 1, len(deck)):
            theirs = evaluate7(deck[i], deck[j], *board)
            v += 2 if mine > theirs else (1 if mine == theirs else 0)
    return v


# ----------------------------------------------------------------------------------------------
# Equity kernels
# ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("board", ["AsKd2c7h9s", "2c3c4c5c6c", "AhAdAcKsKd", "Ts9s8d2h2c"])
def test_board_values_match_brute_force(board):
    b = np.array(parse_cards(board), np.int64)
    h0, h1, values = eq.board_values(b)
    assert len(set(zip(h0.tolist(), h1.tolist()))) == 1081
    assert values.min() >= 0 and values.max() <= eq.RIVER_SCALE
    rng = np.random.default_rng(1)
    for p in rng.choice(1081, 6, replace=False):
        assert values[p] == brute_river_value((int(h0[p]), int(h1[p])), b.tolist())
    # zero-sum: over all hole pairs, mean equity is exactly 1/2 for every opponent-pair matchup
    assert values.sum() * 2 == 1081 * eq.RIVER_SCALE


def test_flop_turn_features_match_brute_force():
    flop = np.array(parse_cards("Kh8d3c"), np.int64)
    rv = eq.flop_river_values(flop)
    value_bucket = np.arange(eq.RIVER_SCALE + 1, dtype=np.int64)  # identity: atoms = values
    turn_cards, holes, atoms, equity = eq.flop_turn_features(flop, rv, value_bucket)
    assert len(turn_cards) == 49 * 1128
    for i in (0, 12345, 55271):
        t = int(turn_cards[i])
        hi = int(np.floor((1 + np.sqrt(1 + 8 * holes[i])) / 2))
        lo = int(holes[i]) - hi * (hi - 1) // 2
        assert eq.hole_pair_index(lo, hi) == holes[i]
        board4 = flop.tolist() + [t]
        rivers = [c for c in range(52) if c not in set(board4) | {lo, hi}]
        if i == 0:  # one full brute-force check of a turn hand (46 rivers x 990 opponents)
            want = sorted(brute_river_value((lo, hi), board4 + [r]) for r in rivers)
            assert sorted(atoms[i].tolist()) == want
        want_eq = np.mean([rv[t, r, holes[i]] for r in rivers]) / eq.RIVER_SCALE
        assert equity[i] == pytest.approx(want_eq)
        assert rv[t, rivers[0], holes[i]] == rv[rivers[0], t, holes[i]]


def test_turn_equity_equals_equity_against_every_opponent_hand():
    """Mean river equity over the 46 rivers = exact all-in equity against a random hand, checked
    with the evaluator's exact hand-vs-hand enumeration (an independent code path)."""
    from gamesolve_nlth.evaluator import showdown_counts

    flop = parse_cards("9c9d4s")
    rv = eq.flop_river_values(np.array(flop, np.int64))
    turn_cards, holes, atoms, equity = eq.flop_turn_features(
        np.array(flop, np.int64), rv, np.arange(eq.RIVER_SCALE + 1, dtype=np.int64)
    )
    hole, turn = parse_cards("AhKh"), parse_cards("2h")[0]
    i = int(np.flatnonzero((turn_cards == turn) & (holes == eq.hole_pair_index(*hole)))[0])
    board = flop + [turn]
    rest = [c for c in range(52) if c not in set(board) | set(hole)]
    wins = ties = total = 0
    for a in range(len(rest)):
        for b in range(a + 1, len(rest)):
            w, t, lo = showdown_counts(hole, [rest[a], rest[b]], board)
            wins, ties, total = wins + w, ties + t, total + w + t + lo
    assert equity[i] == pytest.approx((wins + ties / 2) / total, abs=1e-12)


@pytest.fixture(scope="module")
def turn_boards_and_river_values():
    """Canonical 4-card boards (rainbow, two-tone, monotone, two pairs, quads, trips, and random
    ones) and the river stage's two value tables, filled for every river board they reach."""
    board_ix, river_ix = ca._indexer((4,)), ca._indexer((5,))
    named = ["2c7d9hKs", "Ts9s8d2h", "AsKsQsJs", "7h7d2c2s", "AhAdAcAs", "5c5d5h9c"]
    ids = [board_ix.index(parse_cards(b), round=0) for b in named]
    ids += np.random.default_rng(11).choice(board_ix.size(0), 6, replace=False).tolist()
    boards = board_ix.unindex_batch(np.array(ids), 0)
    rivers = sorted({river_ix.index([*b.tolist(), c], round=0) for b in boards for c in range(52) if c not in b})
    values = np.empty(CANONICAL_COUNTS[3], np.int16)  # only the hands on those river boards are written
    rows = np.empty((len(rivers), eq.NUM_HOLE_PAIRS), np.int16)
    eq.river_values_for_boards(river_ix.unindex_batch(np.array(rivers), 0), ca._indexer((2, 5)).tables[1], values, rows)
    by_board = np.empty((river_ix.size(0), eq.NUM_HOLE_PAIRS), np.int16)
    by_board[rivers] = rows
    return boards, values, by_board


def test_turn_board_features_equal_the_per_hand_features(turn_boards_and_river_values):
    """The board-by-board kernel (suit renaming, one read per river card) gives every hand the
    river values and equity of the per-hand kernel (one index_row per river card)."""
    boards, values, by_board = turn_boards_and_river_values
    t_turn = ca._indexer((2, 4)).tables[1]
    # identity: atoms are the river values; int32 like the build's labels (kmeans_1d), so these
    # parallel kernels compile once for the build and the tests, not once for each (issue 36)
    value_bucket = np.arange(eq.RIVER_SCALE + 1, dtype=np.int32)
    n = len(boards) * 1128
    index, atoms, equity = np.empty(n, np.int64), np.empty((n, 46), np.int16), np.empty(n)
    eq.turn_board_features(boards, t_turn, ca._indexer((5,)).tables[0], by_board, value_bucket, index, atoms, equity)
    kept = np.flatnonzero(index >= 0)
    want_atoms, want_equity = np.empty((len(kept), 46), np.int16), np.empty(len(kept))
    eq.turn_features(index[kept], t_turn, ca._indexer((2, 5)).tables[1], values, value_bucket, want_atoms, want_equity)
    # the same multiset per hand (the river cards come in another order when the canonical hand
    # names the suits differently): what the histograms, their only consumer, depend on
    assert np.array_equal(np.sort(atoms[kept], axis=1), np.sort(want_atoms, axis=1))
    assert np.array_equal(equity[kept], want_equity)


def test_turn_board_features_give_each_hand_on_a_board_once(turn_boards_and_river_values):
    boards, _, by_board = turn_boards_and_river_values
    turn_ix = ca._indexer((2, 4))
    n = len(boards) * 1128
    index = np.empty(n, np.int64)
    eq.turn_board_features(boards, turn_ix.tables[1], ca._indexer((5,)).tables[0], by_board,
                           np.arange(eq.RIVER_SCALE + 1, dtype=np.int32), index, np.empty((n, 46), np.int16),
                           np.empty(n))  # fmt: skip
    for b, board in enumerate(boards.tolist()):
        off = [c for c in range(52) if c not in board]
        hands = [[off[x], off[y], *board] for x in range(48) for y in range(x + 1, 48)]
        kept = index[b * 1128 : (b + 1) * 1128]
        kept = kept[kept >= 0]
        assert sorted(kept.tolist()) == sorted(set(turn_ix.index_batch(np.array(hands), round=1).tolist()))
    assert (index[4 * 1128 : 5 * 1128] >= 0).sum() < 1128 / 4  # AhAdAcAs: hands repeat under suit swaps


# ----------------------------------------------------------------------------------------------
# EMD
# ----------------------------------------------------------------------------------------------
def test_emd_1d_known_values_and_scipy():
    x = [0.0, 0.5, 1.0]
    assert emd_1d([1, 0, 0], [0, 0, 1], x) == pytest.approx(1.0)
    assert emd_1d([0.5, 0.5, 0], [0, 0.5, 0.5], x) == pytest.approx(0.5)
    assert emd_1d([0.2, 0.3, 0.5], [0.2, 0.3, 0.5], x) == 0.0
    stats = pytest.importorskip("scipy.stats")
    rng = np.random.default_rng(0)
    for _ in range(20):
        pos = np.sort(rng.random(7))
        p, q = rng.dirichlet(np.ones(7)), rng.dirichlet(np.ones(7))
        assert emd_1d(p, q, pos) == pytest.approx(stats.wasserstein_distance(pos, pos, p, q))


def test_cdf_features_turn_l1_into_emd():
    rng = np.random.default_rng(2)
    k = 9
    pos = np.sort(rng.random(k))
    atoms = rng.integers(0, k, (30, 46)).astype(np.int32)
    x = cdf_features(atoms, k, np.diff(pos))
    hist = np.stack([np.bincount(a, minlength=k) / 46 for a in atoms])
    for i, j in [(0, 1), (2, 3), (4, 29)]:
        assert np.abs(x[i] - x[j]).sum() == pytest.approx(emd_1d(hist[i], hist[j], pos), abs=1e-5)


def _exact_emd(p, q, dist):
    """Transport problem solved with scipy's linprog (test oracle only)."""
    optimize = pytest.importorskip("scipy.optimize")
    n, m = len(p), len(q)
    a_eq = []
    for i in range(n):
        row = np.zeros((n, m))
        row[i] = 1
        a_eq.append(row.ravel())
    for j in range(m):
        col = np.zeros((n, m))
        col[:, j] = 1
        a_eq.append(col.ravel())
    res = optimize.linprog(dist.ravel(), A_eq=np.array(a_eq), b_eq=np.concatenate([p, q]), bounds=(0, None), method="highs")
    assert res.success
    return res.fun


def test_greedy_emd_hand_checked():
    # three clusters on a line at 0, 1, 3
    dist = np.abs(np.subtract.outer([0.0, 1.0, 3.0], [0.0, 1.0, 3.0]))
    # all mass at cluster 0 -> centroid (0.5, 0.25, 0.25): 0.25 * 1 + 0.25 * 3 = 1.0
    assert emd_greedy(np.array([0], np.int32), np.array([1.0]), np.array([0.5, 0.25, 0.25]), dist) == pytest.approx(1.0)
    # (0.5 at 0, 0.5 at 2) -> (0.5 at 1, 0.5 at 2): move 0.5 from 0 to 1
    bins = np.array([0, 2], np.int32)
    assert emd_greedy(bins, np.array([0.5, 0.5]), np.array([0.0, 0.5, 0.5]), dist) == pytest.approx(0.5)
    assert emd_greedy(bins, np.array([0.5, 0.5]), np.array([0.5, 0.0, 0.5]), dist) == pytest.approx(0.0)


def test_greedy_emd_is_a_transport_cost_close_to_exact():
    rng = np.random.default_rng(3)
    ratios = []
    for _ in range(25):
        k = 6
        pts = rng.random((k, 3))
        dist = np.abs(pts[:, None, :] - pts[None, :, :]).sum(-1)
        nz = rng.integers(1, 4)
        bins = np.sort(rng.choice(k, nz, replace=False)).astype(np.int32)
        mass = rng.dirichlet(np.ones(nz))
        q = rng.dirichlet(np.ones(k))
        p = np.zeros(k)
        p[bins] = mass
        exact = _exact_emd(p, q, dist)
        greedy = emd_greedy(bins, mass, q, dist)
        assert greedy >= exact - 1e-9  # a feasible plan's cost
        if nz == 1:
            assert greedy == pytest.approx(exact)  # one source: the only plan
        ratios.append(greedy / max(exact, 1e-12))
    assert np.median(ratios) < 1.2


def test_pruned_assignment_matches_unpruned():
    rng = np.random.default_rng(4)
    k, n, c = 40, 400, 25
    pts = np.cumsum(rng.random((k, 10)), axis=1)
    dist = pairwise_l1(pts)
    order = neighbour_order(dist)
    atoms = np.clip(rng.integers(0, k, n)[:, None] + rng.integers(-6, 7, (n, 47)), 0, k - 1).astype(np.int32)
    bins, mass, nnz = compress_atoms(atoms, k)
    cent = np.stack([np.bincount(atoms[i], minlength=k) / 47 for i in rng.choice(n, c, replace=False)])
    cent = 0.7 * cent + 0.3 * rng.dirichlet(np.ones(k), c)
    lab1, d1 = np.zeros(n, np.int64), np.zeros(n)
    assign_greedy(bins, mass, nnz, cent, order, dist, lab1, d1)
    f = pivot_functions(dist, 8, pts.sum(axis=1) / 1e3)
    lab2, d2 = np.zeros(n, np.int64), np.zeros(n)
    evals = assign_greedy_pruned(bins, mass, nnz, cent, order, dist, sparse_project(bins, mass, nnz, f), cent @ f, lab2, d2)
    assert np.array_equal(lab1, lab2)
    np.testing.assert_allclose(d1, d2)
    assert evals < n * c


# ----------------------------------------------------------------------------------------------
# k-means
# ----------------------------------------------------------------------------------------------
def test_kmeans_1d_is_optimal():
    import itertools

    rng = np.random.default_rng(5)
    for _ in range(5):
        m, k = 9, 3
        x = np.sort(rng.choice(50, m, replace=False)).astype(float)
        w = rng.integers(1, 10, m).astype(float)

        def sse(starts):
            ends = list(starts[1:]) + [m]
            tot = 0.0
            for s, e in zip(starts, ends):
                mu = np.average(x[s:e], weights=w[s:e])
                tot += float(np.sum(w[s:e] * (x[s:e] - mu) ** 2))
            return tot

        best = min(sse((0,) + cut) for cut in itertools.combinations(range(1, m), k - 1))
        assert sse(tuple(_kmeans_1d_dp(x, w, k))) == pytest.approx(best)
    counts = np.zeros(20)
    counts[[2, 3, 10, 11, 18]] = [5, 5, 1, 1, 9]
    cent, vb = kmeans_1d(counts, 3)
    assert np.all(np.diff(cent) > 0) and vb[2] == vb[3] == 0 and vb[10] == vb[11] == 1 and vb[18] == 2
    assert np.all(np.diff(vb) >= 0) and len(vb) == 20


def test_kmeans_seeded_and_deterministic():
    rng = np.random.default_rng(6)
    x = np.vstack([rng.normal(m, 0.1, (100, 4)) for m in (0, 1, 2)]).astype(np.float32)
    c1, _ = kmeans_l1(x, 3, 10, seed=7)
    c2, _ = kmeans_l1(x, 3, 10, seed=7)
    assert np.array_equal(c1, c2)
    assert sorted(np.round(c1[:, 0]).tolist()) == [0.0, 1.0, 2.0]
    k = 12
    dist = pairwise_l1(np.cumsum(rng.random((k, 4)), axis=1))
    atoms = np.clip(rng.integers(0, k, 300)[:, None] + rng.integers(-2, 3, (300, 47)), 0, k - 1).astype(np.int32)
    bins, mass, nnz = compress_atoms(atoms, k)
    e1, i1 = kmeans_emd(bins, mass, nnz, k, dist, 5, 8, seed=3)
    e2, _ = kmeans_emd(bins, mass, nnz, k, dist, 5, 8, seed=3)
    assert np.array_equal(e1, e2) and e1.shape == (5, k)
    np.testing.assert_allclose(e1.sum(axis=1), 1.0)


# ----------------------------------------------------------------------------------------------
# Per-flop buckets (the search's use): the whole pipeline on the hands of one flop
# ----------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def flop_buckets():
    return buckets_for_flop("Qs7h2d", counts=(12, 10), flop_buckets=8, iters=10, seed=0)


def test_buckets_for_flop_cover_every_hand(flop_buckets):
    fb = flop_buckets
    flop = set(parse_cards("Qs7h2d"))
    valid_t = fb.turn >= 0
    assert valid_t.sum() == 49 * 1128 and fb.turn.max() < 12
    assert (fb.river >= 0).sum() == 49 * 48 * 1081 and fb.river.max() < 10
    assert (fb.flop >= 0).sum() == 1176 and fb.flop.max() < 8
    for c in flop:
        assert (fb.turn[c] == -1).all() and (fb.river[:, c] == -1).all()
    h = parse_cards("AsKs")
    assert fb.turn_bucket(h, parse_cards("Js")[0]) == fb.turn[parse_cards("Js")[0], eq.hole_pair_index(*h)]
    assert fb.river_bucket(h, 10, 20) == fb.river_bucket(h, 20, 10) >= 0


def test_buckets_for_flop_river_ordered_by_equity(flop_buckets):
    rv = eq.flop_river_values(np.array(parse_cards("Qs7h2d"), np.int64))
    ok = rv >= 0
    vals, buckets = rv[ok].astype(int), flop_buckets.river[ok]
    lo = np.array([vals[buckets == b].min() for b in range(10)])
    hi = np.array([vals[buckets == b].max() for b in range(10)])
    assert np.all(hi[:-1] < lo[1:])  # bucket 0 = weakest, no overlap
    assert np.all(np.diff(flop_buckets.river_centroids) > 0)


def test_potential_aware_beats_equity_percentile(flop_buckets):
    q = flop_buckets.quality
    for rnd in ("flop", "turn"):
        assert q[rnd]["emd"] < q[rnd]["percentile_emd"], (rnd, q[rnd])
    # both see the same equities: the percentile abstraction is built for equity std
    assert q["turn"]["percentile_equity_std"] > 0


def test_buckets_for_flop_deterministic_and_validated(flop_buckets):
    again = buckets_for_flop("Qs7h2d", counts=(12, 10), flop_buckets=8, iters=10, seed=0)
    assert np.array_equal(again.turn, flop_buckets.turn) and np.array_equal(again.flop, flop_buckets.flop)
    with pytest.raises(ValueError):
        buckets_for_flop("QsQs2d", counts=(4, 4))


# ----------------------------------------------------------------------------------------------
# Cache, store and CLI (a synthetic store with the real table lengths)
# ----------------------------------------------------------------------------------------------
def _fake_abstraction(params):
    kf, kt, kr = params.flop_buckets, params.turn_buckets, params.river_buckets
    attrs = {
        "kind": "gamesolve-nlth-card-abstraction",
        "format": 1,
        "params": params.to_dict(),
        "hash": params.key(),
        "num_buckets": [169, kf, kt, kr],
        "stage_seconds": {},
        "build_seconds": 1.0,
        "quality": {"flop": {"buckets": kf, "hands": 1, "equity_std": 0.1, "emd": 0.01, "percentile_emd": 0.02}},
    }
    return ca.CardAbstraction(
        params=params,
        tables=(np.arange(169, dtype=np.uint8),) + tuple(np.zeros(n, np.uint8) for n in CANONICAL_COUNTS[1:]),
        flop_equity=np.zeros(CANONICAL_COUNTS[1], np.float32),
        turn_equity=np.zeros(3, np.float32),
        river_centroids=np.linspace(0, 1, kr),
        turn_centroids=np.zeros((kt, kr)),
        flop_centroids=np.zeros((kf, kt)),
        turn_ground=np.zeros((kt, kt)),
        attrs=attrs,
    )


@pytest.fixture(scope="module")
def fake_cache(tmp_path_factory):
    root = tmp_path_factory.mktemp("cache")
    params = preset("tiny")
    ca._save(_fake_abstraction(params), abstraction_path(params, root), np.zeros(10, np.int16))
    return root


def test_cache_paths(tmp_path, monkeypatch):
    p = preset("tiny")
    assert abstraction_path(p, tmp_path) == tmp_path / "abstraction" / p.key()
    assert p.key() == CardAbstractionParams(**p.to_dict()).key()
    assert p.with_(seed=1).key() != p.key() and preset("small").key() != p.key()
    monkeypatch.setenv("GAMESOLVE_CACHE_DIR", str(tmp_path / "env"))
    assert cache_root() == tmp_path / "env"
    monkeypatch.delenv("GAMESOLVE_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_root() == tmp_path / "xdg" / "gamesolve"
    with pytest.raises(ValueError):
        CardAbstractionParams(flop_buckets=1)
    with pytest.raises(ValueError):
        preset("huge")


def test_cached_store_is_reused(fake_cache, monkeypatch):
    def boom(*a, **k):
        raise AssertionError("rebuilt although cached")

    monkeypatch.setattr(ca, "river_stage", boom)
    ab = build_card_abstraction(preset("tiny"), cache_dir=fake_cache)
    assert ab.path == abstraction_path(preset("tiny"), fake_cache)
    assert [len(t) for t in ab.tables] == list(CANONICAL_COUNTS)
    assert quality_report(ab)["flop"]["emd"] == 0.01
    with pytest.raises(AssertionError, match="rebuilt"):  # other parameters: another folder
        build_card_abstraction(preset("tiny").with_(seed=5), cache_dir=fake_cache)


def test_a_saved_abstraction_records_the_code_that_wrote_it(fake_cache):
    from gamesolve.provenance import source_revision

    ab = load_card_abstraction(abstraction_path(preset("tiny"), fake_cache))
    assert ab.attrs["source"] == source_revision()  # commit and dirty flag; None outside a git checkout


def test_load_rejects_foreign_store(tmp_path):
    from gamesolve.store.zarr_io import StoreError, atomic_group

    with atomic_group(tmp_path / "x") as g:
        g.attrs["kind"] = "something else"
    with pytest.raises(StoreError):
        load_card_abstraction(tmp_path / "x")
    with pytest.raises(StoreError):
        load_card_abstraction(tmp_path / "missing")


def test_cli(fake_cache, tmp_path):
    import click

    from gamesolve_nlth import plugin
    from gamesolve_nlth.abstraction.cli import abstraction_group

    root = click.Group()
    plugin.gamesolve_register_commands(cli=root)
    assert root.commands["abstraction"] is abstraction_group()
    runner = CliRunner()
    res = runner.invoke(root, ["abstraction", "build", "--preset", "tiny", "--cache-dir", str(fake_cache), "--json"])
    assert res.exit_code == 0, res.output
    out = last_json(res)
    assert out["cached"] is True and out["num_buckets"] == [169, 16, 16, 16]
    res = runner.invoke(root, ["abstraction", "quality", "--preset", "tiny", "--cache-dir", str(fake_cache)])
    assert res.exit_code == 0 and "flop" in res.output
    res = runner.invoke(root, ["abstraction", "quality", "--preset", "tiny", "--cache-dir", str(tmp_path)])
    assert res.exit_code == 2 and "not built" in res.output
    res = runner.invoke(root, ["abstraction", "build", "--preset", "nope"])
    assert res.exit_code == 2 and "nope" in res.output


def test_plugin_adds_the_abstraction_commands():
    import click

    from gamesolve.plugins import make_plugin_manager
    from gamesolve_nlth import plugin

    host = make_plugin_manager(strict=True, entry_points=False, plugins=[plugin])
    root = click.Group()
    host.pm.hook.gamesolve_register_commands(cli=root)
    assert "abstraction" in root.commands
    res = CliRunner().invoke(root, ["abstraction", "--help"])
    assert res.exit_code == 0 and "build" in res.output and "quality" in res.output and "info" in res.output


# ----------------------------------------------------------------------------------------------
# The real tiny build (slow: ~1.5 minutes on 2 cores)
# ----------------------------------------------------------------------------------------------
@pytest.mark.slow
def test_tiny_build_end_to_end(tmp_path):
    from gamesolve_nlth.abstraction import load_river_equity
    from gamesolve_nlth.isomorphism import HandIndexer

    params = preset("tiny")
    ab = build_card_abstraction(params, cache_dir=tmp_path)
    assert [len(t) for t in ab.tables] == list(CANONICAL_COUNTS)
    for r, k in enumerate(ab.num_buckets):
        assert int(ab.tables[r].max()) < k
        assert len(np.unique(ab.tables[r])) == k  # every bucket used
    # river buckets ordered by equity (bucket 0 = weakest), no overlap
    river_eq = load_river_equity(ab)
    lo = np.full(16, np.inf)
    hi = np.full(16, -np.inf)
    np.minimum.at(lo, ab.tables[3], river_eq)
    np.maximum.at(hi, ab.tables[3], river_eq)
    assert np.all(hi[:-1] < lo[1:])
    # lookups agree with tables and are suit-invariant
    rng = np.random.default_rng(0)
    for _ in range(20):
        deal = rng.choice(52, 7, replace=False).tolist()
        perm = rng.permutation(4)
        swapped = [(c & ~3) | int(perm[c & 3]) for c in deal]
        for r, n in ((0, 2), (1, 5), (2, 6), (3, 7)):
            assert ab.bucket(r, deal[:n]) == ab.bucket(r, swapped[:n])
        idx = HandIndexer((2, 5)).index(deal, round=1)
        assert ab.bucket(3, deal) == ab.tables[3][idx]
    q = ab.quality
    assert q["flop"]["emd"] < q["flop"]["percentile_emd"]
    assert q["turn"]["emd_fit_sample"] < q["turn"]["percentile_emd_fit_sample"]
    assert q["river"]["equity_std"] <= q["river"]["percentile_equity_std"]
    # second build: reused from the cache
    t0 = time.perf_counter()
    again = build_card_abstraction(params, cache_dir=tmp_path)
    assert time.perf_counter() - t0 < 15
    assert all(np.array_equal(a, b) for a, b in zip(again.tables, ab.tables))
