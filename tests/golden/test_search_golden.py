"""Issue 33's "before" record: real-time search decides today exactly what it decided when the
record was made (``tests/data/search_golden/``, written by ``python -m
tests.golden.search_record --write``; the module says what it holds). The hold'em search
agent's decisions in 200 heads-up and 54 six-player hands (every run compares the first hands
of each table, ``-m slow`` all of them), three ``gamesolve spot`` solutions and ``gamesolve
exploitability --search`` on the core's games. Moving the search into the core (issue 33) must
keep these passing; the record is not regenerated to make them pass."""

from __future__ import annotations

import copy
import functools

import pytest

from tests.golden import search_record as record
from tests.golden.search_record import TOLERANCE


def _report(problems: list[str]) -> str:
    return "differs from the record (tests/golden/search_record.py):\n  " + "\n  ".join(problems)


@functools.cache
def _core(name: str, beliefs: str, folder) -> dict:
    """The core game's figures with these beliefs, computed once per run (two tests read them)."""
    return record.record_core_game(name, folder, (beliefs,))


def test_the_record_covers_searches_in_every_round_and_both_table_sizes():
    heads_up, six = record.load("heads_up"), record.load("six_player")
    assert sum(len(t["hands"]) for t in heads_up["tables"]) == 200
    assert sum(len(t["hands"]) for t in six["tables"]) >= 50
    for data, rounds in ((heads_up, {0, 1, 2, 3}), (six, {1, 2})):
        searched = [d for t in data["tables"] for d in t["decisions"] if d["searched"]]
        assert {d["round"] for d in searched} >= rounds
        assert all(len(d["probs"]) == len(d["actions"]) >= 2 for d in searched)


@pytest.mark.parametrize("players", [2, 6], ids=["heads-up", "six-player"])
def test_the_blueprints_are_the_ones_the_record_was_made_with(players, golden_hu_blueprint, golden_6p_blueprint):
    """Training, not search: if this fails, the decisions below cannot match either."""
    store, name = (golden_hu_blueprint, "heads_up") if players == 2 else (golden_6p_blueprint, "six_player")
    assert record.blueprint_fingerprint(store) == record.load(name)["blueprint_sha256"]


#: The hands of each table every run compares (``-m slow``: every hand), whole deals: the same
#: hands of the record (a match's first hands do not depend on its length,
#: :func:`record.first_hands`). The first 46 heads-up hands of both tables hold 21 of the 46
#: searched decisions, in every round (the first river search is hand 45, against tag); the
#: first 24 six-player hands (4 of the 9 deals) hold 5 of the 7, in every round.
FIRST_HANDS = {"heads_up": 46, "six_player": 24}


def _compare_tables(name: str, store, every_hand: bool) -> None:
    recorded = record.load(name)
    hands = None if every_hand else FIRST_HANDS[name]
    if hands is not None:
        recorded = record.first_hands(recorded, hands)
        searched = [d for t in recorded["tables"] for d in t["decisions"] if d["searched"]]
        assert {d["round"] for d in searched} == {0, 1, 2, 3}, "the hands compared no longer search in every round"
    fresh = record.record_tables(name, store, hands)
    problems = record.compare_decisions(recorded, fresh, TOLERANCE)
    assert not problems, _report(problems)


_EVERY_HAND = [pytest.param(False, id="first-hands"), pytest.param(True, id="every-hand", marks=pytest.mark.slow)]


@pytest.mark.parametrize("every_hand", _EVERY_HAND)
def test_heads_up_search_decisions_match_the_record(golden_hu_blueprint, every_hand):
    _compare_tables("heads_up", golden_hu_blueprint, every_hand)


@pytest.mark.parametrize("every_hand", _EVERY_HAND)
def test_six_player_search_decisions_match_the_record(golden_6p_blueprint, every_hand):
    _compare_tables("six_player", golden_6p_blueprint, every_hand)


@pytest.mark.parametrize("spot", list(record.SPOTS))
def test_spot_solution_matches_the_record(spot):
    problems = record.compare_figures(record.load("spots")[spot], record.record_spot(spot), TOLERANCE)
    assert not problems, _report([f"{spot}{p}" for p in problems])


#: (game, beliefs) pairs too long for every run: the slow games (minutes each), and Liar's
#: Dice's exact beliefs (11 s; tests/search/test_range_beliefs.py checks them against range
#: beliefs at every information set in every run)
_SLOW = {(game, beliefs) for game in record.SLOW_CORE_GAMES for beliefs in record.BELIEFS} | {("liars_dice", "exact")}


def _core_params(games, beliefs=record.BELIEFS):
    return [pytest.param(g, b, id=f"{g}-{b}", marks=[pytest.mark.slow] if (g, b) in _SLOW else [])
            for g in games for b in beliefs]  # fmt: skip


@pytest.mark.parametrize(("game", "beliefs"), _core_params([*record.CORE_GAMES, *record.SLOW_CORE_GAMES]))
def test_core_search_exploitability_matches_the_record(game, beliefs, core_stores):
    recorded = record.load("core_search")[game]
    recorded = {key: value for key, value in recorded.items() if key not in record.BELIEFS or key == beliefs}
    problems = record.compare_figures(recorded, _core(game, beliefs, core_stores), TOLERANCE)
    assert not problems, _report([f"{game}{p}" for p in problems])


@pytest.mark.parametrize("game", [
    pytest.param(g, marks=[pytest.mark.slow] if any((g, b) in _SLOW for b in record.BELIEFS) else [])
    for g in [*record.CORE_GAMES, *record.SLOW_CORE_GAMES]
])  # fmt: skip
def test_core_search_with_range_beliefs_equals_exact_beliefs(game, core_stores):
    ranged, exact = (_core(game, beliefs, core_stores)[beliefs] for beliefs in ("range", "exact"))
    assert ranged["searches"] == exact["searches"]
    for key in record.CORE_FIGURES:
        assert ranged[key] == pytest.approx(exact[key], abs=TOLERANCE), key


def test_a_difference_is_reported_with_its_hand_seat_public_state_and_size():
    recorded = record.load("heads_up")
    fresh = copy.deepcopy(recorded)
    decision = next(d for d in fresh["tables"][0]["decisions"] if d["searched"])
    decision["probs"][0] += 3e-7
    problems = record.compare_decisions(recorded, fresh, TOLERANCE)
    assert len(problems) == 1
    assert f"hand {decision['hand']} seat {decision['seat']}" in problems[0] and repr(decision["public_state"]) in problems[0]
    assert "by 3e-07" in problems[0]
    assert not record.compare_decisions(recorded, fresh, 1e-6)
    decision["action"] = -1
    assert any("took action -1" in p for p in record.compare_decisions(recorded, fresh, 1e-6))
    spots = record.load("spots")
    moved = copy.deepcopy(spots)
    moved["river"]["exploitability_pct_pot"] += 1e-8
    (problem,) = record.compare_figures(spots, moved, TOLERANCE)
    assert problem.startswith("/river/exploitability_pct_pot: ") and problem.endswith("(by 1e-08)")
