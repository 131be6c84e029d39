"""The action abstraction's betting tree: sizes, legality in the engine, and its exact size."""

import json

import attrs

import numpy as np
import pytest

from gamesolve.game.poker_form import CALL, FOLD, GOES_ON as DECISION, RAISE
from gamesolve_nlth.betting.action_abstraction import PRESETS, AbstractionError, ActionAbstraction, action_abstraction
from gamesolve_nlth.betting.betting_tree import abstract_actions, build_betting_tree, new_root, walk_betting_tree
from gamesolve_nlth.betting.tree_count import count_betting_tree
from gamesolve_nlth.state import NLTHGame, raise_action


@pytest.fixture(scope="module")
def tiny_tree():
    return build_betting_tree(PRESETS["tiny"])


def without_limps(abstraction: ActionAbstraction) -> ActionAbstraction:
    first, *later = abstraction.rounds
    return attrs.evolve(abstraction, rounds=(attrs.evolve(first, limp=False), *later))


def test_first_decision_is_under_the_gun_with_fold_pot_raise_and_all_in(tiny_tree):
    t = tiny_tree
    assert t["node_player"][0] == 2  # seat 0 small blind, seat 1 big blind
    kids = slice(t["child_start"][0], t["child_start"][1])
    assert t["action_kind"][kids].tolist() == [FOLD, RAISE, RAISE]  # tiny has no open limp
    assert t["action_amount"][kids].tolist() == [0, 350, 10000]  # pot raise: 100 + (150 + 100)


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


@pytest.mark.parametrize("players", [2, 6])
def test_without_open_limps_a_player_first_in_raises_or_folds(players):
    tree = build_betting_tree(without_limps(PRESETS["tiny"]), players=players)
    limps = others = 0
    for node in np.flatnonzero((tree["node_kind"] == DECISION) & (tree["node_round"] == 0)):
        kids = slice(tree["child_start"][node], tree["child_start"][node + 1])
        unopened = tree["commit"][node].max() == 100  # the big blind is the largest bet: no raise yet
        has_call = CALL in tree["action_kind"][kids].tolist()
        limps += unopened and has_call
        others += not unopened and has_call
        assert RAISE in tree["action_kind"][kids].tolist() or not unopened
    assert limps == 0 and others > 0
    rng = np.random.default_rng(2)
    for _ in range(200):
        replay(tree, rng, players=players)  # every path legal, chips as the engine's


def test_without_open_limps_later_rounds_still_check():
    tree = build_betting_tree(without_limps(PRESETS["tiny"]), players=2)
    flop = np.flatnonzero((tree["node_kind"] == DECISION) & (tree["node_round"] == 1))
    assert all(CALL in tree["action_kind"][tree["child_start"][n] : tree["child_start"][n + 1]].tolist() for n in flop)


def test_without_open_limps_a_round_with_no_raise_still_calls():
    no_raise = ActionAbstraction.from_dict({"rounds": [{"raise_sizes": [], "all_in": False, "limp": False}]
                                            + [{"raise_sizes": [[1.0]]}] * 3})  # fmt: skip
    tree = build_betting_tree(no_raise, players=2)
    assert tree["action_kind"][tree["child_start"][0] : tree["child_start"][1]].tolist() == [FOLD, CALL]


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
    actions = np.diff(tiny_tree["child_start"])
    assert size.nodes == len(tiny_tree["node_kind"])
    assert list(size.decision_nodes) == [int((decision & (tiny_tree["node_round"] == r)).sum()) for r in range(4)]
    assert list(size.actions) == [int(actions[decision & (tiny_tree["node_round"] == r)].sum()) for r in range(4)]
    assert size.action_sequences == size.nodes - 1


@pytest.mark.parametrize(
    "preset, players, stack",
    [("tiny", 6, 10_000), ("small", 6, 10_000), ("small", 3, 10_000), ("small", 2, 10_000),
     ("pluribus", 2, 10_000), ("pluribus", 5, 1_000), ("pluribus", 6, 500)],
)  # fmt: skip
def test_memoised_count_equals_the_walk_of_every_node(preset, players, stack):
    # Heads-up blinds, shallow stacks (all-ins, clipped and merged sizes, short all-ins) and
    # the pluribus sizes: a state key that missed anything the subtree depends on would differ.
    assert count_betting_tree(PRESETS[preset], players, stack) == walk_betting_tree(PRESETS[preset], players, stack)


@pytest.mark.parametrize("players, stack", [(6, 10_000), (3, 250)])
def test_memoised_count_equals_the_walk_without_open_limps(players, stack):
    abstraction = without_limps(PRESETS["small"])
    assert count_betting_tree(abstraction, players, stack) == walk_betting_tree(abstraction, players, stack)


def test_pluribus_first_decision_has_fold_call_and_fourteen_raises():
    # The supplement: "between one and 14 different raise sizes depending on the decision point".
    kinds, amounts = np.zeros(32, np.int64), np.zeros(32, np.int64)
    k = abstract_actions(new_root(6, 10_000, 50, 100), *PRESETS["pluribus"].as_arrays(), kinds, amounts)
    assert kinds[:k].tolist() == [FOLD, CALL] + [RAISE] * 14 and amounts[k - 1] == 10_000


@pytest.mark.slow
def test_pluribus_preset_has_the_papers_action_sequences_and_fits_half_a_terabyte():
    # ~15 s of one core; the figures are in docs/abstraction.md.
    from gamesolve_nlth.blueprint.memory import estimate_memory
    from gamesolve_nlth.blueprint.presets import PAPER_ACTION_SEQUENCES, PRESETS as BLUEPRINTS

    memory = estimate_memory(BLUEPRINTS["pluribus"])
    assert abs(memory.tree.action_sequences / PAPER_ACTION_SEQUENCES - 1) < 0.10
    assert memory.total_bytes < 0.5e12 < memory.full_table_bytes + memory.tree_bytes


def test_toml_round_trip(tmp_path):
    path = tmp_path / "a.toml"
    path.write_text('name = "mine"\n[[rounds]]\nraise_sizes = [[0.5, 1.0]]\n' + '[[rounds]]\nraise_sizes = [[1.0]]\nmax_raises = 1\n' * 3)
    abstraction = action_abstraction(str(path))
    assert abstraction.name == "mine" and abstraction.rounds[0].raise_sizes == ((0.5, 1.0),)
    assert abstraction.rounds[0].limp and ActionAbstraction.from_dict(abstraction.to_dict()) == abstraction


def test_a_flag_written_as_text_is_read_as_the_boolean_it_names():
    # bool("false") is True: all_in = "false" once gave a tree with all-ins.
    data = {"rounds": [{"raise_sizes": [[1.0]], "all_in": "false", "limp": "false"}] * 4}
    first = ActionAbstraction.from_dict(data).rounds[0]
    assert first.all_in is False and first.limp is False


def test_toml_limp_false_is_read_and_kept(tmp_path):
    path = tmp_path / "a.toml"
    path.write_text('[[rounds]]\nraise_sizes = [[1.0]]\nlimp = false\n' + '[[rounds]]\nraise_sizes = [[1.0]]\n' * 3)
    abstraction = action_abstraction(str(path))
    assert not abstraction.rounds[0].limp and ActionAbstraction.from_dict(abstraction.to_dict()) == abstraction


@pytest.mark.parametrize("bad", [{"rounds": []}, {"rounds": [{"raise_sizes": [[-1.0]]}] * 4}, {},
                                 {"rounds": [{"raise_sizes": [[1.0]], "limp": "sometimes"}] * 4},
                                 {"rounds": [{"raise_sizes": [[1.0]], "all_in": "sometimes"}] * 4}])
def test_malformed_abstractions_are_refused(bad):
    with pytest.raises(AbstractionError):
        ActionAbstraction.from_dict(bad)


def test_unknown_preset_is_refused():
    with pytest.raises(AbstractionError, match="presets"):
        action_abstraction("enormous")


def test_info_reports_exact_sizes_per_round():
    from click.testing import CliRunner

    from gamesolve_nlth.betting.info import info_command

    result = CliRunner().invoke(info_command, ["--preset", "tiny", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["public_nodes"] == 234_455 and data["action_sequences"] == 234_454
    assert data["decision_nodes"] == sum(r["decision_nodes"] for r in data["rounds"]) == 117_196
    assert [r["infosets"] for r in data["rounds"]] == [r["decision_nodes"] * b for r, b in zip(data["rounds"], data["buckets"])]


def test_count_stays_exact_when_the_memo_table_is_full(monkeypatch):
    from gamesolve_nlth.betting import tree_count

    # The tiny six-player tree (234,455 nodes; the small preset's 9.6 M took seconds more for
    # the same check): more states are worth storing than the table's 512.
    monkeypatch.setattr(tree_count, "MAX_SLOTS", 1 << 10)
    filled = []
    count_memoised = tree_count.count_memoised

    def recording(*args):
        result = count_memoised(*args)
        filled.append(int(args[8][0]))  # the table's entries after this subtree
        return result

    monkeypatch.setattr(tree_count, "count_memoised", recording)
    assert count_betting_tree(PRESETS["tiny"], 6) == walk_betting_tree(PRESETS["tiny"], 6)
    assert max(filled) == (1 << 10) // 2  # the table was full (it stores up to half its slots)


def test_count_stops_past_its_limit_with_a_lower_bound():
    from gamesolve_nlth.betting.tree_count import TreeTooLarge

    with pytest.raises(TreeTooLarge) as stopped:
        count_betting_tree(PRESETS["small"], 6, limit=1_000_000)
    assert 1_000_000 < stopped.value.nodes <= 9_602_988
