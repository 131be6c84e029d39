"""A bounded load test of the web table on localhost: 50 simulated players at once (one
table and one websocket each) play hands against the blueprint and baselines through a real
`gamesolve serve`; no error, no 5xx, no traceback. benchmarks/play_load.py runs the full
figure (20 hands each) for docs/benchmarks.md."""

import asyncio

import pytest

pytest.importorskip("websockets", reason="the load test needs the play extra (websockets)")

from gamesolve.play.loadtest import run_load  # noqa: E402

from .conftest import Served, assert_clean_log  # noqa: E402

CLIENTS = 50
HANDS = 4


def test_fifty_players_at_once(tmp_path, tiny_blueprint):
    bp = f"blueprint:store={tiny_blueprint}"
    server = Served(["--game", "nlth", "--agents", f"{bp},tag,random,call,{bp}", "--max-tables", "64", "--seed", "3"],
                    tmp_path / "data", tmp_path / "server.log")  # fmt: skip
    try:
        result = asyncio.run(run_load(server.url, clients=CLIENTS, hands=HANDS, seed=1, timeout=150))
    finally:
        server.stop()
    summary = result.summary()
    assert not result.errors, result.errors[:5]
    assert result.hands_played == CLIENTS * HANDS, summary
    assert summary["messages"] >= CLIENTS * HANDS and summary["p95_ms"] < 5000, summary
    assert_clean_log(server.log())
    tables = list((tmp_path / "data" / "sessions").iterdir())
    assert len(tables) == CLIENTS
    assert all((t / "hands.phhs").read_text().count("variant") == HANDS for t in tables)
    print(summary)
