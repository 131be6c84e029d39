"""The action abstraction's betting tree: sizes, legality in the engine, and its size counts."""

import numpy as np
import pytest

from gamesolve.game.poker_form import CALL, FOLD, GOES_ON as DECISION, RAISE
from gamesolve_nlth.betting.action_abstraction import PRESETS, AbstractionError, ActionAbstraction, action_abstraction
from gamesolve_nlth.betting.betting_tree import build_betting_tree, count_betting_tree, estimate_betting_tree
from gamesolve_nlth.state import NLTHGame, raise_action


@pytest.fixture(scope="module")
def tiny_tree():
    return build_betting_tree(PRESETS["tiny"])


def test_first_decision_is_under_the_gun_with_fold_call_pot_raise_and_all_in(tiny_tree):
    t = tiny_tree
    assert t["node_player"][0] == 2  # seat 0 small blind, seat 1 big blind
    kids = slice(t["child_start"][0], t["child_start"][1])
    assert t["action_kind"][kids].tolist() == [FOLD, CALL, RAISE, RAISE]
    assert t["action_amount"][kids].tolist() == [0, 100, 350, 10000]  # pot raise: 100 + (150 + 100)


def replay(tree, rng, players=6):
    """Follow a random path of the tree in the Python engine API; check every action is legal
    and the tree's chips and folds match the engine's."""
    game = NLTHGame(players=players, button=players - 1)
    state = game.new_initial_state(cards=list(range(2 * players + 5)))
    node = 0
    while tree["node_kind"][node] == DECISION:
        assert state.current_player() == tree["node_player"][node]
        lo, hi = tree["child_start"][node], tree["child_start"][node + 1]
        k = int(rng.integers(lo, hi))
        kind, amount = tree["action_kind"][k], int(tree["action_amount"][k])
        action = 0 if kind == FOLD else 1 if kind == CALL else raise_action(amount)
        assert action in state.legal_actions()
        state = state.child(action)
        node = int(tree["child_list"][k])
        np.testing.assert_array_equal(state.committed, tree["commit"][node])
    assert state.is_terminal()
    assert [not x for x in state.in_hand] == tree["folded"][node].tolist()


def test_random_tree_paths_are_legal_in_the_rules_engine(tiny_tree):
    rng = np.random.default_rng(0)
    for _ in range(300):
        replay(tiny_tree, rng)


def test_small_preset_paths_are_legal_too():
    tree = build_betting_tree(PRESETS["small"], players=3)
    rng = np.random.default_rng(1)
    for _ in range(200):
        replay(tree, rng, players=3)


def test_sizes_are_clipped_and_merged():
    # Every size far above the stack collapses into the single all-in.
    huge = ActionAbstraction.from_dict({"rounds": [{"raise_sizes": [[50.0, 80.0]], "max_raises": 1}] * 4})
    tree = build_betting_tree(huge, players=2)
    kids = slice(tree["child_start"][0], tree["child_start"][1])
    assert tree["action_kind"][kids].tolist() == [FOLD, CALL, RAISE]


def test_max_raises_caps_the_raises_of_a_round():
    no_raise = ActionAbstraction.from_dict({"rounds": [{"raise_sizes": [[1.0]], "max_raises": 0}] * 4})
    size = count_betting_tree(no_raise, players=2)
    one = count_betting_tree(ActionAbstraction.from_dict({"rounds": [{"raise_sizes": [[1.0]], "max_raises": 1, "all_in": False}] * 4}), players=2)
    assert size.nodes < one.nodes


def test_count_matches_the_built_tree(tiny_tree):
    size = count_betting_tree(PRESETS["tiny"])
    decision = tiny_tree["node_kind"] == DECISION
    assert size.nodes == len(tiny_tree["node_kind"])
    assert list(size.decision_nodes) == [int((decision & (tiny_tree["node_round"] == r)).sum()) for r in range(4)]


def test_knuth_estimate_is_close_to_the_exact_count():
    exact = count_betting_tree(PRESETS["tiny"], players=3)
    estimate, error = estimate_betting_tree(PRESETS["tiny"], players=3, samples=50_000, seed=1)
    for r in range(4):
        assert abs(estimate.decision_nodes[r] - exact.decision_nodes[r]) <= 5 * error.decision_nodes[r] + 1


def test_toml_round_trip(tmp_path):
    path = tmp_path / "a.toml"
    path.write_text('name = "mine"\n[[rounds]]\nraise_sizes = [[0.5, 1.0]]\n' + '[[rounds]]\nraise_sizes = [[1.0]]\nmax_raises = 1\n' * 3)
    abstraction = action_abstraction(str(path))
    assert abstraction.name == "mine" and abstraction.rounds[0].raise_sizes == ((0.5, 1.0),)


@pytest.mark.parametrize("bad", [{"rounds": []}, {"rounds": [{"raise_sizes": [[-1.0]]}] * 4}, {}])
def test_malformed_abstractions_are_refused(bad):
    with pytest.raises(AbstractionError):
        ActionAbstraction.from_dict(bad)


def test_unknown_preset_is_refused():
    with pytest.raises(AbstractionError, match="presets"):
        action_abstraction("enormous")


def test_info_reports_sizes_per_round_for_every_preset():
    from click.testing import CliRunner

    from gamesolve_nlth.betting.info import info_command

    for preset, exact in (("tiny", True), ("pluribus", False)):
        result = CliRunner().invoke(info_command, ["--preset", preset, "--json"])
        assert result.exit_code == 0, result.output
        data = __import__("json").loads(result.output)
        assert data["exact"] is exact and len(data["rounds"]) == 4
        assert all(r["infosets"] > 0 for r in data["rounds"])
    tiny = __import__("json").loads(CliRunner().invoke(info_command, ["--preset", "tiny", "--json"]).output)
    assert tiny["public_nodes"] == 1_801_680
