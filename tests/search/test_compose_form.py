"""The search agent's whole strategy composed over the rows of a factored form (for games too
big for an explicit tree) against the composition over the explicit tree: the same strategy,
and the same exploitability by two independent best responses."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from gamesolve.evaluate.best_response import TreeEvaluator
from gamesolve.evaluate.vector_best_response import evaluate_rows
from gamesolve.game.explicit_tree import compile_explicit_tree
from gamesolve.game.factored_compiler import compile_factored
from gamesolve.search import TabularPolicy, compose_agent_policy
from gamesolve.search.compose import RangeSeat, compose_form_policy
from gamesolve.search.player import keyed_range_search_player
from gamesolve.search.range_agent import SolveMemo
from gamesolve.search.policy import policy_rows
from gamesolve.solve.cfr import TABULAR_ALGORITHMS, TabularCFR
from gamesolve_liars_dice import LiarsDiceGame
from tests.command_output import last_json


@pytest.fixture(scope="module")
def liars_dice():
    game = LiarsDiceGame(dice=1, sides=4)
    tree = compile_explicit_tree(game)
    cfr = TabularCFR(tree, TABULAR_ALGORITHMS["cfr"])
    cfr.run(5)  # far from equilibrium: searches change a lot
    return game, tree, compile_factored(game), TabularPolicy.from_slots(tree, cfr.average_policy())


@pytest.fixture(scope="module")
def composed(liars_dice):
    """``composed(**options)``: :func:`both`, once per options in a module (two tests read the
    whole-round composition, which takes most of their time)."""
    return functools.cache(lambda **options: both(liars_dice, **options))


def both(liars_dice, **options):
    """The agent's strategy composed on the explicit tree and on the form's rows."""
    game, tree, form, blueprint = liars_dice
    options = {"iterations": "40", **options}
    make = lambda: lambda seat, one=keyed_range_search_player(game, form, blueprint, options, 0, SolveMemo(None)): RangeSeat(one, seat)  # noqa: E731
    slots = compose_agent_policy(game, tree, make())
    offsets, rows = compose_form_policy(game, form, make())
    return slots, offsets, rows


@pytest.mark.parametrize("options", [{}, {"depth": "actions:2", "play": "average"}], ids=["whole-round", "depth-limited"])
def test_the_form_composition_plays_what_the_tree_composition_plays(liars_dice, composed, options):
    game, tree, f, _ = liars_dice
    slots, offsets, rows = composed(**options)
    start = tree.infoset_slot_start
    for i, key in enumerate(tree.infoset_keys):
        node, private = f.locate(key)
        n_act = int(f.num_actions[node])
        row = offsets[f.row_owner[node]] + private * n_act
        assert np.abs(rows[row : row + n_act] - slots[start[i] : start[i + 1]]).max() < 1e-12, key


def test_the_form_composition_has_the_trees_exploitability(liars_dice, composed):
    game, tree, form, blueprint = liars_dice
    slots, offsets, rows = composed()
    searched = evaluate_rows(form, offsets, rows, zero_sum=True).nash_conv
    assert searched == pytest.approx(TreeEvaluator(tree).evaluate(slots).nash_conv, abs=1e-9)
    assert searched < evaluate_rows(form, *policy_rows(form, blueprint), zero_sum=True).nash_conv


def test_exploitability_search_of_a_training_store_without_a_policy_store(tmp_path):
    """A game too big for an explicit tree keeps no policy store; `exploitability --search`
    then composes the agent over the factored form and reports the blueprint's figure beside
    it (here Liar's Dice 1x4 with its policy store removed, as a large game's run has none)."""
    import shutil

    from click.testing import CliRunner

    from gamesolve.cli import cli

    store = tmp_path / "bp"
    runner = CliRunner()
    solved = runner.invoke(cli, ["solve", "--game", "liars_dice", "-p", "sides=4", "--algo", "mccfr-p", "--iterations", "2000",
                                 "--out", str(store), "--json"])  # fmt: skip
    assert solved.exit_code == 0, solved.output
    shutil.rmtree(store / "policy")
    out = runner.invoke(cli, ["exploitability", "--game", "liars_dice", "--store", str(store), "--search", "-s", "iterations=300",
                              "-s", "play=average", "--json"])  # fmt: skip
    assert out.exit_code == 0, out.output
    result = last_json(out)
    assert result["search"]["searches"] >= 1 and result["iterations"] == 2000
    assert result["exploitability"] < result["search"]["blueprint_exploitability"] / 10
