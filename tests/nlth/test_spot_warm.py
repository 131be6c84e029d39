"""`gamesolve spot` compiles the vector CFR kernels in a second process, on a stand-in spot
written down without the rules engine, while it compiles the engine and builds the real spot
(plugins/nlth/gamesolve_nlth/spot/warm.py). The stand-in must give the kernels every real
spot's types, or the child compiles kernels the solve never loads."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import attrs
import numba
import numpy as np
import pytest
from click.testing import CliRunner

from gamesolve.cli import cli
from gamesolve.game.form_records import Removal, RemovalThree
from gamesolve.solve.vcfr import VectorCFR
from gamesolve_nlth.betting.subgame import walk_subgame
from gamesolve_nlth.cards import parse_cards
from gamesolve_nlth.spot import warm
from gamesolve_nlth.spot.tree import Spot, StreetSizes, _root, build_spot, spot_ranges
from gamesolve_nlth.spot.hands import NUM_HANDS

ONE_BET = StreetSizes(bets=(1.0,), raises=())
STAND_IN = Spot(warm.STAND_IN_BOARD, warm.STAND_IN_POT, warm.STAND_IN_STACK, ONE_BET, ONE_BET, ONE_BET, raise_cap=0)


def kernel_types(solver: VectorCFR):
    """numba's types of what a pass kernel is called with (the game's arrays, the tables, the
    schedule, the fixed rows, the cuts, the scratch buffers)."""
    args = (*solver._kernel_args(), solver.schedule, solver._fixed, solver._cuts, solver._no_cuts, solver._scratch)
    return [numba.typeof(a) for a in args]


def test_the_stand_in_tree_is_the_one_the_betting_walk_builds():
    built, _ = walk_subgame(_root(STAND_IN), STAND_IN.subgame_sizes(), STAND_IN.board)
    written = warm.stand_in_tree()
    for field in attrs.fields(type(built)):
        mine, theirs = getattr(written, field.name), getattr(built, field.name)
        if isinstance(theirs, np.ndarray):
            assert mine.dtype == theirs.dtype and np.array_equal(mine, theirs), field.name
        else:
            assert mine == theirs, field.name


def test_the_stand_in_form_is_the_built_spot_but_for_hand_strengths():
    built, written = build_spot(STAND_IN), warm.stand_in_form()
    for name in ("node_kind", "node_player", "child_start", "child_list", "edge_label", "payoff", "row_owner"):
        assert np.array_equal(getattr(written, name), getattr(built, name)), name
    assert not written.removal.path_strength.any() and built.removal.path_strength.any()
    assert written.removal.path_strength.dtype == built.removal.path_strength.dtype


@pytest.mark.parametrize("board,symmetric", [("QsJh2h8d3c", False), ("QsJh2h8d", False), ("AsKs7s2s", True)])
@pytest.mark.parametrize("dtype", [np.float32, np.int16])
def test_a_real_spots_kernels_take_the_stand_ins_types(board, symmetric, dtype):
    sizes = StreetSizes(bets=(0.5,), raises=())
    spot = Spot(tuple(parse_cards(board)), 100, 200, sizes, sizes, sizes, raise_cap=1)
    form = build_spot(spot, symmetric=symmetric)
    assert (form.symmetry is not None) == symmetric
    hands = np.ones(NUM_HANDS)
    real = VectorCFR(form, root_reach=spot_ranges(spot, hands, hands), threads=2, dtype=dtype)
    stand_in = VectorCFR(warm.stand_in_form(), threads=1, dtype=dtype)
    assert kernel_types(real) == kernel_types(stand_in)


def test_a_three_player_spot_compiles_a_kernel_of_its_own():
    """A heads-up kernel leaves the three-player terminal sums out: the removal bundle of three
    players has a type of its own (removal_multi.three_player_terminal)."""
    spot = Spot(tuple(parse_cards("QsJh2h8d3c")), 99, 200, ONE_BET, ONE_BET, ONE_BET, raise_cap=0, players=3)
    hands = np.ones(NUM_HANDS)
    three = VectorCFR(build_spot(spot), root_reach=spot_ranges(spot, hands, hands, hands), dtype=np.float32)
    two = VectorCFR(warm.stand_in_form(), dtype=np.float32)
    assert type(three.removal) is RemovalThree and type(two.removal) is Removal
    assert kernel_types(three)[0] != kernel_types(two)[0]


def test_the_child_solves_the_stand_in_and_leaves_its_marker():
    spec = {"dtype": "float32"}
    marker = warm._marker(spec)  # in the suite's kernel cache, where the child compiles
    marker.unlink(missing_ok=True)
    env = {**os.environ, "GAMESOLVE_WARM": "1"}
    subprocess.run([sys.executable, "-m", "gamesolve_nlth.spot.warm", json.dumps(spec)], check=True, timeout=300, env=env)
    assert marker.exists()


def test_no_child_starts_when_turned_off_or_marked(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("GAMESOLVE_WARM", "0")
    assert warm.start(np.float32) is None
    monkeypatch.setenv("GAMESOLVE_WARM", "1")
    marker = warm._marker({"dtype": "float32"})
    marker.parent.mkdir(parents=True)
    marker.touch()
    assert warm.start(np.float32) is None
    assert warm._marker({"dtype": "int16"}) != marker


@pytest.mark.parametrize("bad", [["--board", "XX"], ["--oop-range", "ZZ"], ["--target", "abc"], ["--line", "check,,bet 500"]],
                         ids=["board", "range", "target", "line"])  # fmt: skip
def test_a_mistyped_card_range_target_or_line_is_refused_before_a_child_starts(monkeypatch, bad):
    started = []
    monkeypatch.setattr(warm, "start", lambda dtype: started.append(dtype))
    args = {"--board": "QsJh2h8d3c", "--oop-range": "QQ", "--ip-range": "TT+", **dict(zip(bad[::2], bad[1::2]))}
    result = CliRunner().invoke(cli, ["spot", *[x for kv in args.items() for x in kv]])
    assert result.exit_code == 2 and result.output.count("\n") <= 2, result.output
    assert started == []
