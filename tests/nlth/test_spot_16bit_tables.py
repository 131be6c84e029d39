"""16-bit vector-CFR tables (``gamesolve spot --precision 16``): b-inary/postflop-solver's
compressed storage, int16 regrets and uint16 average sums with one float32 scale per node.

They solve a river spot to the same target as the float32 tables, within a stated margin of
their exploitability; that exploitability is the exact (float64) best response to the
strategy the codes stand for; a code is within half a level of the value it stores; and the
tables take half the memory of float32's."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from gamesolve import cli as cli_module
from gamesolve.cli import cli
from gamesolve.game.factored import FormError
from gamesolve.plugins import make_plugin_manager
from gamesolve.solve.kernels.compressed import SIGNED_LEVELS, UNSIGNED_LEVELS, decode_blocks, encode_block
from gamesolve.solve.vcfr import TooBig, VectorCFR
from gamesolve_nlth import plugin as nlth_plugin
from gamesolve_nlth.cards import parse_cards
from gamesolve_nlth.spot.hands import parse_range
from gamesolve_nlth.spot.solve import SPOT_WEIGHTINGS, spot_solver
from gamesolve_nlth.spot.tree import ALLIN, Spot, StreetSizes, build_spot, spot_ranges

SIZES = StreetSizes(bets=(0.5, 1.0, ALLIN), raises=(1.0, ALLIN))
RANGE = "22+,A2s+,K9s+,QTs+,JTs,ATo+,KJo+"
TARGET = 0.003  # of the pot: the river spot's target in docs/spot.md
MARGIN = 0.001  # of the pot: the most the 16-bit tables' exploitability may exceed float32's (0.045% here)
ITERATIONS = 300


def river():
    spot = Spot(tuple(parse_cards("QsJh2h8d3c")), 1000, 9000, SIZES, SIZES, SIZES)
    r = parse_range(RANGE)
    return spot, build_spot(spot), spot_ranges(spot, r, r)


@pytest.fixture(scope="module")
def solved():
    """The river spot solved with float32 and with 16-bit tables, the same iterations."""
    spot, form, reach = river()
    out = {}
    for dtype in (np.float32, np.int16):
        solver = VectorCFR(form, SPOT_WEIGHTINGS["dcfr"], root_reach=reach, dtype=dtype)
        solver.run(ITERATIONS)
        out[dtype] = solver
    return spot, form, reach, out


def test_16_bit_tables_solve_a_river_spot_below_the_target_and_near_float32(solved):
    spot, _, _, solvers = solved
    e32 = solvers[np.float32].exploitability()[0] / spot.pot
    e16 = solvers[np.int16].exploitability()[0] / spot.pot
    assert 0 <= e16 < TARGET
    assert e16 - e32 < MARGIN, (e16, e32)


def test_the_16_bit_exploitability_is_the_float64_best_response_to_the_decoded_strategy(solved):
    # The codes decoded into a float64 solver's average table: the same strategy, so the same
    # best response, computed in float64 by the same passes (the scale cancels in the
    # normalisation; only rounding of the division may differ).
    spot, form, reach, solvers = solved
    packed = solvers[np.int16]
    exact = VectorCFR(form, SPOT_WEIGHTINGS["dcfr"], root_reach=reach, dtype=np.float64)
    t = packed.tables
    decode_blocks(t.avg, t.avg_scale, t.row_offset, form.num_actions, len(packed.states), exact.tables.avg)
    mean, values = packed.exploitability()
    exact_mean, exact_values = exact.exploitability()
    assert values == pytest.approx(exact_values, rel=1e-12, abs=1e-9)
    assert mean == pytest.approx(exact_mean, rel=1e-12, abs=1e-9)


def test_16_bit_tables_take_half_the_memory_of_float32(solved):
    _, form, _, solvers = solved
    t32, t16 = solvers[np.float32].tables, solvers[np.int16].tables
    assert (t16.regrets.dtype, t16.avg.dtype) == (np.int16, np.uint16)
    assert t16.regrets.nbytes + t16.avg.nbytes == (t32.regrets.nbytes + t32.avg.nbytes) // 2
    # Plus one float32 scale per node and table: 8 bytes a node against 8 x actions x hands.
    scales = t16.regret_scale.nbytes + t16.avg_scale.nbytes
    assert scales == 8 * form.num_nodes
    assert t16.regrets.nbytes + t16.avg.nbytes + scales < 0.51 * (t32.regrets.nbytes + t32.avg.nbytes)


@pytest.mark.parametrize("dtype, levels, low", [(np.int16, SIGNED_LEVELS, -1.0), (np.uint16, UNSIGNED_LEVELS, 0.0)])
def test_a_code_is_within_half_a_level_of_the_value_it_encodes(dtype, levels, low):
    rng = np.random.default_rng(7)
    for magnitude in (1e-6, 1.0, 3e7):
        n_act, n_states = 3, 101
        values = rng.uniform(low, 1.0, (n_act, n_states)) * magnitude
        table = np.zeros(5 + n_act * n_states, dtype)
        scale = encode_block(values, n_act, n_states, table, 5, levels)
        assert scale == np.float32(np.abs(values).max() / levels)
        decoded = table[5:].reshape(n_act, n_states) * np.float64(scale)
        assert np.abs(decoded - values).max() <= 0.5 * scale * (1 + 1e-9)
        assert np.abs(table[5:].astype(np.int64)).max() <= levels  # the largest entry maps to the top level
        assert not table[:5].any()  # nothing outside the block


def test_an_all_zero_block_has_scale_zero_and_decodes_to_zero():
    table = np.full(8, 99, np.int16)
    assert encode_block(np.zeros((2, 4)), 2, 4, table, 0, SIGNED_LEVELS) == 0.0
    assert not table.any()


def test_16_bit_tables_on_threads_give_the_single_thread_result(monkeypatch):
    # Each node's block is encoded from its own values only, and the thread jobs own disjoint
    # nodes: the codes and scales do not depend on the threads.
    sizes = StreetSizes(bets=(1.0,), raises=())
    spot = Spot(tuple(parse_cards("QsJh2h8d")), 1000, 9000, sizes, sizes, sizes, raise_cap=0)
    r = parse_range(RANGE)
    reach = spot_ranges(spot, r, r)
    form = build_spot(spot)
    one = VectorCFR(form, SPOT_WEIGHTINGS["dcfr"], root_reach=reach, dtype=np.int16)
    monkeypatch.setattr(VectorCFR, "parallel_min", 0)
    two = VectorCFR(form, SPOT_WEIGHTINGS["dcfr"], root_reach=reach, dtype=np.int16, threads=2)
    assert two.parallel_jobs > 1
    one.run(10)
    two.run(10)
    for field in ("regrets", "avg", "regret_scale", "avg_scale"):
        assert np.array_equal(getattr(one.tables, field), getattr(two.tables, field)), field
    assert one.exploitability() == two.exploitability()


def test_16_bit_tables_refuse_frozen_rows():
    spot, form, reach = river()
    held = int(np.flatnonzero(reach[0])[0])
    with pytest.raises(FormError, match="16-bit"):
        VectorCFR(form, root_reach=reach, dtype=np.int16, frozen={(0, held): np.eye(form.num_actions[0])[-1]})


@pytest.fixture
def run(monkeypatch):
    host = make_plugin_manager(strict=True, entry_points=False, plugins=[nlth_plugin])
    monkeypatch.setattr(cli_module, "plugin_host", lambda dirs=(): host)
    return lambda *args: CliRunner().invoke(cli, [str(a) for a in args])


SPOT = ["spot", "--board", "QsJh2h8d3c", "--oop-range", "QQ,JJ,AK", "--ip-range", "TT+,AQs", "--threads", "1"]


def test_gamesolve_spot_solves_with_16_bit_tables(run):
    result = run(*SPOT, "--target", "1%", "--precision", "16")
    assert result.exit_code == 0, result.output
    assert "16-bit tables" in result.output and "% of the pot (target 1%)" in result.output
    out = json.loads(run(*SPOT, "--target", "1%", "--precision", "16", "--json").output)
    assert out["precision"] == 16 and out["exploitability_pct_pot"] <= 1.0


def test_auto_precision_takes_16_bit_tables_only_where_float32_ones_do_not_fit(monkeypatch):
    import gamesolve.solve.vcfr as vcfr_module

    _, form, reach = river()
    dcfr = SPOT_WEIGHTINGS["dcfr"]
    need32 = VectorCFR(form, root_reach=reach, dtype=np.float32).memory_bytes
    need16 = VectorCFR(form, root_reach=reach, dtype=np.int16).memory_bytes
    assert need16 < need32
    for free, bits in ((10 * need32, 32), ((need16 + need32) / 2 / 0.9, 16)):
        monkeypatch.setattr(vcfr_module, "available_memory", lambda free=free: int(free))
        solver, chosen = spot_solver(form, dcfr, reach, 1, "auto")
        assert chosen == bits and solver.packed == (bits == 16)
    monkeypatch.setattr(vcfr_module, "available_memory", lambda: need16 // 2)
    with pytest.raises(TooBig, match="GB are free"):
        spot_solver(form, dcfr, reach, 1, "auto")


def test_a_precision_other_than_16_or_32_is_one_line(run):
    result = run(*SPOT, "--precision", "8")
    assert result.exit_code == 2
    assert "'8' is not one of 'auto', '16', '32'" in result.output and "Traceback" not in result.output
