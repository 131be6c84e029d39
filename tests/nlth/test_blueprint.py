"""Six-player blueprint training on the tiny preset: the main job and its store (its crash
safety: tests/nlth/test_kill9_nlth.py, kill -9 at random instants, each run resumed and finished)."""

import subprocess
import sys

import numpy as np
import pytest

from gamesolve.game import continuation as C
from gamesolve.game.poker_form import FOLD
from gamesolve.store.strategy_store import StrategyStore
from tests.command_output import last_json


def gamesolve(*args, check=True, timeout=600):
    proc = subprocess.run([sys.executable, "-m", "gamesolve.cli", *args], capture_output=True, text=True, timeout=timeout)
    if check:
        assert proc.returncode == 0, proc.stderr[-2000:]
    return proc


def test_training_reports_the_agreed_keys_and_a_preflop_summary(trained):
    _, result = trained
    assert {"game", "players", "algo", "iterations", "seconds", "store", "peak_memory_bytes"} <= set(result)
    assert result["game"] == "nlth" and result["players"] == 6 and result["algo"] == "mccfr-p"
    assert set(result["preflop_open"]) == {"UTG", "HJ", "CO", "BTN", "SB"}
    for freqs in result["preflop_open"].values():
        assert sum(freqs.values()) == pytest.approx(1.0, abs=1e-6)


def test_bytes_per_allocated_infoset_action_are_reported(trained):
    _, result = trained
    assert result["allocated_infoset_actions"] > 0
    assert 4 <= result["bytes_per_infoset_action"] < 8


def test_blueprint_store_holds_a_strategy_per_reached_infoset(trained):
    out, _ = trained
    store = StrategyStore(out / "blueprint")
    node = 0  # the first decision: under the gun, fold / pot raise / all-in (tiny has no open limp)
    probs = store.probabilities(node, 168)
    assert len(probs) == 3 and probs.sum() == pytest.approx(1.0)


def test_continuation_strategies_are_one_action_per_infoset_in_few_bits(trained):
    out, _ = trained
    store = StrategyStore(out / "blueprint")
    bits = store.attrs["continuation_bits"]
    assert bits == C.bits_for(int(np.diff(store.child_start).max()))
    first = 0
    n_act = int(store.child_start[first + 1] - store.child_start[first])
    fold_index = [k - store.child_start[first] for k in range(store.child_start[first], store.child_start[first + 1]) if store.edge_class[k] == FOLD][0]
    picks = {k: [store.continuation(k, first, b) for b in range(169)] for k in range(4)}
    assert all(0 <= a < n_act for k in picks for a in picks[k])
    # Multiplying fold by 5 can only make folding more likely.
    assert sum(a == fold_index for a in picks[1]) >= sum(a == fold_index for a in picks[0])


@pytest.mark.slow  # counting the pluribus tree exactly takes ~20 s
def test_pluribus_preset_is_refused_with_its_memory_need():
    proc = gamesolve("solve", "--game", "nlth", "--preset", "pluribus", "--minutes", "1", check=False)
    assert proc.returncode == 2
    errors = [line for line in proc.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and "needs about" in errors[0] and "GiB" in errors[0]


def test_unequal_stacks_are_refused():
    proc = gamesolve("solve", "--game", "nlth", "--param", "stacks=10000,5000,10000,10000,10000,10000", "--iterations", "10", check=False)
    assert proc.returncode == 2 and "equal stacks" in proc.stderr


def test_blueprint_agent_plays_a_match(trained):
    out, _ = trained
    proc = gamesolve("match", "--game", "nlth", "--agents", f"blueprint:store={out},call,call,call,call,call", "--hands", "60", "--json")
    result = last_json(proc)
    assert result["hands"] == 60


def test_a_blueprint_match_over_two_workers_equals_the_single_process_one(trained):
    out, _ = trained
    agents = f"blueprint:store={out},tag,blueprint:store={out},random,call,blueprint:store={out}"
    one = last_json(gamesolve("match", "--game", "nlth", "--agents", agents, "--hands", "48", "--seed", "3", "--json"))
    two = last_json(gamesolve("match", "--game", "nlth", "--agents", agents, "--hands", "48", "--seed", "3",
                              "--workers", "2", "--json"))  # fmt: skip
    assert [a["total"] for a in one["agents"]] == [a["total"] for a in two["agents"]]


def test_tiny_card_abstraction_buckets_every_canonical_hand(trained):
    # Training built (or reused) the tiny card abstraction in the cache; check it is complete.
    from gamesolve_nlth.abstraction.card_abstraction import build_card_abstraction, load_river_equity
    from gamesolve_nlth.abstraction.equity import RIVER_SCALE
    from gamesolve_nlth.abstraction.presets import CANONICAL_COUNTS, PRESETS

    ab = build_card_abstraction(PRESETS["tiny"])
    assert tuple(len(t) for t in ab.tables) == CANONICAL_COUNTS
    for table, k in zip(ab.tables, ab.num_buckets):
        assert table.min() >= 0 and table.max() == k - 1
    # River buckets are ordered by equity: a bucket's highest equity is at most the next one's
    # lowest. Equities are stored in 1/RIVER_SCALE steps, so a count per (bucket, step) finds
    # both (np.maximum.at over 123 M hands took 24 s).
    k = ab.num_buckets[3]
    steps = np.rint(load_river_equity(ab).astype(np.float64) * RIVER_SCALE).astype(np.int64)
    seen = np.bincount(ab.tables[3].astype(np.int64) * (RIVER_SCALE + 1) + steps, minlength=k * (RIVER_SCALE + 1)) > 0
    seen = seen.reshape(k, RIVER_SCALE + 1)
    top_of = RIVER_SCALE - np.argmax(seen[:, ::-1], axis=1)
    bottom_of = np.argmax(seen, axis=1)
    assert (top_of[:-1] <= bottom_of[1:]).all()


def test_without_a_budget_the_preset_trains_for_its_default_minutes(trained):
    # `gamesolve solve --game nlth` (the README's main job) gives neither --minutes nor --iterations.
    from gamesolve_nlth.blueprint.form import nlth_form
    from gamesolve_nlth.blueprint.presets import PRESETS
    from gamesolve_nlth.state import NLTHGame

    tree = nlth_form(NLTHGame(players=6), PRESETS["tiny"])
    assert tree.default_minutes == PRESETS["tiny"].minutes == 1.5


def test_memory_estimate_matches_the_trainers_tables_and_tree(trained):
    """The estimate's infoset-actions are the rows the trainer sizes its tables by, and its
    bytes per node are the built tree's and the trainer's per-node arrays (tiny, six players;
    the card abstraction is in the cache after `trained`)."""
    import attrs

    from gamesolve.solve.mccfr import MCCFRConfig, MCCFRTrainer
    from gamesolve_nlth.blueprint.form import nlth_form
    from gamesolve_nlth.blueprint.memory import estimate_memory
    from gamesolve_nlth.blueprint.presets import PRESETS
    from gamesolve_nlth.state import NLTHGame

    form = nlth_form(NLTHGame(players=6), PRESETS["tiny"])
    trainer = MCCFRTrainer(form, MCCFRConfig())
    estimate = estimate_memory(PRESETS["tiny"])
    sizes = form.row_sizes()
    assert sum(estimate.infoset_actions) == sizes.sum() and estimate.infoset_actions[0] == trainer.phi.size
    assert estimate.full_table_bytes == trainer.regrets.itemsize * sizes.sum() + trainer.phi.nbytes
    arrays = [v for v in attrs.asdict(form, recurse=False).values() if isinstance(v, np.ndarray) and v.ndim and len(v) >= form.num_nodes - 1]
    held = sum(a.nbytes for a in arrays) + trainer.node_offset.nbytes + trainer.scratch.us_stack.nbytes + trainer._stack.nbytes
    held += trainer._nodes.nbytes + trainer._edges.nbytes  # the traversal's records (no edge records on tiny: not prefetched)
    assert abs(estimate.tree_bytes - held) < 64  # one edge fewer than nodes, one more child start
