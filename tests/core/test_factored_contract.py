"""The factored contract (gamesolve/game/factored_contract.py): a game described by its public
tree compiles at the cost of public nodes to the very form the generic compiler makes from the
State contract, so every solver gives the same NashConv on both; and the vector best response
over the form (gamesolve/evaluate/vector_best_response.py) equals the explicit tree's."""

from __future__ import annotations

import numpy as np
import pytest
from gamesolve_kuhn.game import KuhnGame
from gamesolve_leduc.game import LeducGame
from gamesolve_liars_dice.game import LiarsDiceGame

from gamesolve.evaluate.best_response import evaluate_policy
from gamesolve.evaluate.vector_best_response import evaluate_rows
from gamesolve.game.contract_compiler import compile_contract
from gamesolve.game.explicit_tree import compile_explicit_tree
from gamesolve.game.factored import FormError
from gamesolve.game.factored_compiler import compile_factored
from gamesolve.game.factored_contract import TERMINAL, FactoredContract
from gamesolve.solve.cfr import TABULAR_ALGORITHMS
from gamesolve.solve.mccfr import MCCFRConfig, MCCFRTrainer
from gamesolve.solve.rows import explicit_slots
from gamesolve.solve.vcfr import VectorCFR

GAMES = {
    "kuhn-2": lambda: KuhnGame(2),
    "kuhn-3": lambda: KuhnGame(3),
    "leduc-2": lambda: LeducGame(2),
    "liars_dice-1x6": lambda: LiarsDiceGame(dice=1, sides=6),
}
SAME_ARRAYS = ("node_kind", "node_player", "node_round", "node_level", "child_start", "child_list", "edge_label",
               "edge_class", "row_owner", "settled", "settled_value", "term_kind", "payoff", "num_private")  # fmt: skip


@pytest.fixture(scope="module", params=list(GAMES))
def both_forms(request):
    game = GAMES[request.param]()
    return game, compile_factored(game), compile_contract(game.factored_contract(), game.name, game.params)


def _contract(game):
    return compile_contract(game.factored_contract(), game.name, game.params)


def test_the_contract_compiles_to_the_generic_compilers_form(both_forms):
    _, generic, contract = both_forms
    for name in SAME_ARRAYS:
        assert np.array_equal(getattr(generic, name), getattr(contract, name)), name
    a, b = generic.deals.listed, contract.deals.listed
    assert np.array_equal(a.private, b.private) and np.array_equal(a.public, b.public) and np.allclose(a.prob, b.prob)
    table = generic.term_kind == 2  # TABLE terminals: the same payoff for every deal (rows may be numbered apart)
    assert np.array_equal(generic.table[generic.term_row[table]], contract.table[contract.term_row[table]])
    assert (generic.class_names, generic.regret_scale, generic.node_keys) == (contract.class_names, contract.regret_scale, contract.node_keys)


def test_information_state_keys_map_to_the_same_rows(both_forms):
    game, generic, contract = both_forms
    for key in compile_explicit_tree(game).infoset_keys:
        assert contract.locate(key) == generic.locate(key), key
    node = int(np.flatnonzero(generic.node_kind == 0)[-1])
    assert contract.key_of(node, 1) == generic.key_of(node, 1)


def _solve(form, algo: str) -> tuple[np.ndarray, np.ndarray]:
    if algo == "mccfr-p":
        trainer = MCCFRTrainer(form, MCCFRConfig.from_options(form.mccfr_defaults, prune=True), seed=3)
        trainer.run(iterations=3000)
        return trainer.node_offset, trainer.average_rows()
    solver = VectorCFR(form, TABULAR_ALGORITHMS[algo])
    solver.run(30)
    return solver.row_offset, solver.average_rows()


@pytest.mark.parametrize("algo", ["cfr+", "dcfr", "mccfr-p"])
def test_every_solver_reaches_the_same_nash_conv_on_both_forms(both_forms, algo):
    _, generic, contract = both_forms
    on_generic = evaluate_rows(generic, *_solve(generic, algo)).nash_conv
    on_contract = evaluate_rows(contract, *_solve(contract, algo)).nash_conv
    assert on_contract == pytest.approx(on_generic, rel=1e-9, abs=1e-12)
    assert on_generic < 1.5  # the solvers did solve (uniform play is far worse in these games)


def _random_rows(form, seed: int) -> tuple[np.ndarray, np.ndarray]:
    sizes = form.row_sizes()
    owners = np.flatnonzero(sizes > 0)
    offset = np.full(form.num_nodes, -1, dtype=np.int64)
    offset[owners] = np.concatenate([[0], np.cumsum(sizes[owners])[:-1]])
    rows = np.random.default_rng(seed).random(int(sizes.sum()))
    for node in owners:
        block = rows[offset[node] : offset[node] + sizes[node]].reshape(-1, form.num_actions[node])
        block /= block.sum(axis=1, keepdims=True)
    offset[owners[::7]] = -1  # some rows never allocated: uniform
    return offset, rows


def test_the_vector_best_response_equals_the_explicit_trees(both_forms):
    game, _, contract = both_forms
    tree = compile_explicit_tree(game)
    offset, rows = _random_rows(contract, seed=1)
    vector = evaluate_rows(contract, offset, rows)
    explicit = evaluate_policy(tree, explicit_slots(contract, offset, rows, tree))
    assert vector.nash_conv == pytest.approx(explicit.nash_conv, abs=1e-12)
    assert np.allclose(vector.values, explicit.values, atol=1e-12)
    assert np.allclose(vector.best_response, explicit.best_response_values, atol=1e-12)


def test_kuhn_uniform_nash_conv_is_eleven_twelfths():
    form = _contract(KuhnGame(2))
    assert evaluate_rows(form, np.full(form.num_nodes, -1), np.zeros(0)).nash_conv == pytest.approx(11 / 12)


def test_liars_dice_with_two_dice_costs_bid_sequences_not_rolls():
    form = _contract(LiarsDiceGame(dice=2, sides=4))
    bids = 2 * 2 * 4
    assert form.num_nodes == 2 ** (bids + 1) - 1  # every increasing bid sequence, and each followed by "liar"
    assert form.num_private[0] == 10 and len(form.deals.listed.prob) == 100  # multisets of two dice of four sides
    assert len(form.table) == 2 * bids - 1  # a row per (bid called, caller); the first bid can only be called by player 1
    assert form.deals.listed.prob.sum() == pytest.approx(1.0)


class _Broken(FactoredContract):
    num_players = 2

    def __init__(self, prob=(0.5, 0.5), values=None):
        self.prob, self.values = prob, values

    def private_states(self, player):
        return ["a", "b"]

    def deals(self):
        return np.array([[0, 1], [1, 0]]), np.array(self.prob)

    def root(self):
        return 0

    def player(self, state):
        return TERMINAL if state else 0

    def actions(self, state):
        return [0]

    def child(self, state, action):
        return 1

    def terminal_values(self, state):
        return np.zeros(3) if self.values is None else self.values

    def public_key(self, state):
        return str(state)


def test_deal_probabilities_that_do_not_sum_to_one_are_refused():
    with pytest.raises(FormError, match="sum to 1"):
        compile_contract(_Broken(prob=(0.5, 0.4)), "broken", {})


def test_terminal_values_of_the_wrong_shape_are_refused():
    with pytest.raises(FormError, match=r"shape \(3,\)"):
        compile_contract(_Broken(), "broken", {})


def test_a_zero_sum_evaluation_gives_the_same_figures_with_one_walk_less():
    form = _contract(LeducGame(2))
    offset, rows = _random_rows(form, seed=2)
    full, short = evaluate_rows(form, offset, rows), evaluate_rows(form, offset, rows, zero_sum=True)
    assert short.nash_conv == pytest.approx(full.nash_conv, abs=1e-12)
    assert np.allclose(short.values, full.values, atol=1e-12)
