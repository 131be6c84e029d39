"""Vector-form CFR: the tabular family's schedules over the factored form, exact where the
arithmetic allows and checked by best response."""


import numpy as np
import pytest
from click.testing import CliRunner

from gamesolve.cli import cli
from gamesolve.evaluate.best_response import TreeEvaluator
from gamesolve.game.factored import FormError
from gamesolve.game.factored_compiler import compile_factored
from gamesolve.solve.cfr import TABULAR_ALGORITHMS, TabularCFR
from gamesolve.solve.vcfr import VectorCFR, _balanced_order
from gamesolve_kuhn import KuhnGame
from gamesolve_leduc import LeducGame
from gamesolve_leduc.poker_form import leduc_form
from tests.command_output import last_json


@pytest.fixture(scope="module")
def leduc2_form():
    return compile_factored(LeducGame(2))


@pytest.mark.parametrize("algo", ["cfr", "cfr+", "lcfr", "dcfr"])
@pytest.mark.parametrize("players", [2, 3])
def test_on_kuhn_vector_cfr_follows_the_tabular_iterates_exactly(algo, players, kuhn2_tree, kuhn3_tree):
    tree = kuhn2_tree if players == 2 else kuhn3_tree
    tabular = TabularCFR(tree, TABULAR_ALGORITHMS[algo])
    vector = VectorCFR(compile_factored(KuhnGame(players)), TABULAR_ALGORITHMS[algo])
    tabular.run(100)
    vector.run(100)
    assert np.abs(tabular.average_policy() - vector.explicit_policy(tree)).max() < 1e-9
    assert np.abs(tabular.current_policy() - vector.explicit_policy(tree, "current")).max() < 1e-9


def test_on_leduc_vanilla_vector_cfr_follows_the_tabular_iterates_exactly(leduc2_form, leduc2_tree):
    # (With discounting or CFR+ the two drift apart by rounding: ties in regret matching.)
    tabular = TabularCFR(leduc2_tree, TABULAR_ALGORITHMS["cfr"])
    vector = VectorCFR(leduc2_form, TABULAR_ALGORITHMS["cfr"])
    tabular.run(100)
    vector.run(100)
    assert np.abs(tabular.average_policy() - vector.explicit_policy(leduc2_tree)).max() < 1e-9


def test_dcfr_on_leduc_is_no_worse_than_cfr_plus_after_1000_iterations(leduc2_form, leduc2_tree):
    evaluator = TreeEvaluator(leduc2_tree)
    cfr_plus = TabularCFR(leduc2_tree, TABULAR_ALGORITHMS["cfr+"])
    cfr_plus.run(1000)
    vector = VectorCFR(leduc2_form)
    vector.run(1000)
    assert evaluator.evaluate(vector.explicit_policy(leduc2_tree)).exploitability <= evaluator.evaluate(cfr_plus.average_policy()).exploitability


def test_the_plugins_rank_form_gives_the_same_strategy_as_the_generic_card_form(leduc2_form, leduc2_tree):
    by_rank = VectorCFR(leduc_form(LeducGame(2), "rank"), TABULAR_ALGORITHMS["cfr"])
    by_card = VectorCFR(leduc2_form, TABULAR_ALGORITHMS["cfr"])
    by_rank.run(50)
    by_card.run(50)
    assert np.abs(by_rank.explicit_policy(leduc2_tree) - by_card.explicit_policy(leduc2_tree)).max() < 1e-9


def test_sampling_public_chance_still_converges(leduc2_form, leduc2_tree):
    evaluator = TreeEvaluator(leduc2_tree)
    vector = VectorCFR(leduc2_form, sample_chance=True, seed=3)
    vector.run(1000)
    early = evaluator.evaluate(vector.explicit_policy(leduc2_tree)).exploitability
    vector.run(14_000)
    late = evaluator.evaluate(vector.explicit_policy(leduc2_tree)).exploitability
    assert late < early / 2 and late < 0.05


def test_threads_over_public_chance_give_the_single_thread_result(leduc2_form, monkeypatch):
    one = VectorCFR(leduc2_form)
    monkeypatch.setattr(VectorCFR, "parallel_min", 0)
    two = VectorCFR(leduc2_form, threads=2)
    assert two.parallel_jobs == 30  # five public card deals with six cards each
    one.run(50)
    two.run(50)
    assert np.array_equal(one.tables.regrets, two.tables.regrets)
    assert np.array_equal(one.tables.avg, two.tables.avg)


def test_a_form_whose_private_states_change_is_refused():
    with pytest.raises(FormError, match="private states stay the same"):
        VectorCFR(leduc_form(LeducGame(2), "coarse"))


def test_a_root_reach_that_holds_no_deal_is_refused():
    form = compile_factored(KuhnGame(2))
    only = np.zeros((2, int(form.num_private[0])))
    only[:, 0] = 1.0  # both players hold the same card only: no deal gives them that
    with pytest.raises(FormError, match="holds no deal"):
        VectorCFR(form, root_reach=only)


def test_solve_with_vcfr_from_the_command_line():
    result = CliRunner().invoke(cli, ["solve", "--game", "kuhn", "--algo", "vcfr", "--iterations", "500", "--json"])
    assert result.exit_code == 0, result.output
    out = last_json(result)
    assert out["algo"] == "vcfr" and out["weighting"] == "dcfr"
    assert out["game_value"] == pytest.approx(-1 / 18, abs=2e-3)


def test_linear_weighting_is_an_option():
    result = CliRunner().invoke(cli, ["solve", "--game", "kuhn", "--algo", "vcfr", "--iterations", "50", "-o", "weighting=linear", "--json"])
    assert result.exit_code == 0, result.output
    assert last_json(result)["weighting"] == "lcfr"


@pytest.mark.parametrize("option", ["weighting=fast", "sample_chance=perhaps", "threads=2"])
def test_bad_vcfr_options_get_one_line(option):
    result = CliRunner().invoke(cli, ["solve", "--game", "kuhn", "--algo", "vcfr", "--iterations", "5", "-o", option])
    assert result.exit_code == 2
    assert len(result.output.strip().splitlines()) == 1 and "Traceback" not in result.output


def test_vector_best_response_equals_the_explicit_best_response(leduc2_form, leduc2_tree):
    vector = VectorCFR(leduc2_form)
    vector.run(100)
    explicit = TreeEvaluator(leduc2_tree).evaluate(vector.explicit_policy(leduc2_tree))
    exploitability, values = vector.exploitability()
    assert exploitability == pytest.approx(explicit.exploitability, abs=1e-9)
    assert values == pytest.approx(list(explicit.best_response_values), abs=1e-9)


def test_three_player_vector_best_responses_equal_the_explicit_ones(kuhn3_tree):
    vector = VectorCFR(compile_factored(KuhnGame(3)))
    vector.run(50)
    explicit = TreeEvaluator(kuhn3_tree).evaluate(vector.explicit_policy(kuhn3_tree))
    exploitability, values = vector.exploitability()
    assert values == pytest.approx(list(explicit.best_response_values), abs=1e-9)
    assert exploitability == pytest.approx(explicit.nash_conv / 3, abs=1e-9)


def test_thread_jobs_are_ordered_so_each_threads_block_holds_about_equal_work():
    rng = np.random.default_rng(3)
    sizes = np.concatenate([rng.integers(5_000, 10_000, 44), rng.integers(1, 50, 396)])  # big subtrees first, as dealt
    for threads in (1, 2, 3):
        order = _balanced_order(sizes, threads)
        assert sorted(order) == list(range(len(sizes)))
        blocks = np.array_split(sizes[order], threads)  # numba's split: the first n % T blocks one longer
        work = [b.sum() for b in blocks]
        assert max(work) - min(work) <= sizes.max()


def test_a_frozen_row_is_what_the_current_rows_and_node_strategy_show():
    # Tables hold a node's block action-major, the public rows state-major: both read it back.
    form = compile_factored(KuhnGame(2))
    solver = VectorCFR(form, frozen={(0, 1): np.array([0.25, 0.75])})
    solver.run(10)
    assert solver.row(solver.current_rows(), 0, 1) == pytest.approx([0.25, 0.75])
    assert solver.node_strategy(0, "current")[1] == pytest.approx([0.25, 0.75])
    assert solver.node_strategy(0, "current")[[0, 2]] == pytest.approx(solver.current_rows()[solver.row_offset[0] + np.array([[0, 1], [4, 5]])])
