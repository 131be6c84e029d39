"""The web table's API in process (starlette's TestClient and httpx over ASGI): tables,
turns, refusals with 4xx and a message, hand-history downloads, the websocket protocol,
several tables at once, agents that think without blocking the server."""

import asyncio
import re
import time
import warnings

import httpx
import pytest

pytest.importorskip("starlette", reason="the web table needs the play extra (starlette)")
with warnings.catch_warnings():  # starlette 1.x would rather TestClient used httpx2: the same API
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from gamesolve import hookimpl  # noqa: E402
from gamesolve.agents import Agent, AgentSpec  # noqa: E402
from gamesolve.play.server import ServerConfig, create_app  # noqa: E402
from gamesolve.play.table import TableSpec  # noqa: E402
from gamesolve.plugins import make_plugin_manager  # noqa: E402
from gamesolve_nlth import phh  # noqa: E402


def nlth_app(host, tmp_path, agents=("call", "random", "call"), **kw):
    game = host.games.get("nlth").create(len(agents) + 1)
    return create_app(ServerConfig(TableSpec(game, tuple(agents)), tmp_path / "data", **kw), host)


@pytest.fixture
def client(play_host, tmp_path):
    with TestClient(nlth_app(play_host, tmp_path)) as c:
        yield c


def finish_hand(client, state):
    sid = state["session"]
    while state["in_hand"]:
        assert state["your_turn"]
        r = client.post(f"/api/sessions/{sid}/action", json={"action": "c"})
        assert r.status_code == 200, r.text
        state = r.json()
    return state


def test_a_table_plays_hands_and_keeps_its_result(client):
    r = client.post("/api/sessions")
    assert r.status_code == 201
    state = r.json()
    assert state["in_hand"] and state["your_turn"] and state["hand"] == 1
    you = state["seat"]
    seats = state["table"]["seats"]
    assert all(s["cards"] == ["??", "??"] for s in seats if s["seat"] != you and s["status"] != "folded")
    assert len(seats[you]["cards"]) == 2 and "??" not in seats[you]["cards"]
    assert state["menu"]["amount"]["min"] >= 200
    state = finish_hand(client, state)
    assert state["last_hand"]["number"] == 1 and state["result"]["hands"] == 1 and state["history"]
    state = client.post(f"/api/sessions/{state['session']}/next").json()
    assert state["hand"] == 2 and state["seat"] == (you - 1) % 4


def test_bad_requests_get_4xx_with_a_message(client):
    sid = client.post("/api/sessions").json()["session"]
    cases = [
        ("post", f"/api/sessions/{sid}/action", {"json": {"action": "r 1"}}, 400, "below the minimum"),
        ("post", f"/api/sessions/{sid}/action", {"json": {"action": 7}}, 400, "expected"),
        ("post", f"/api/sessions/{sid}/action", {"json": ["c"]}, 400, "JSON object"),
        ("post", f"/api/sessions/{sid}/action", {"content": b"{not json"}, 400, "malformed"),
        ("post", f"/api/sessions/{sid}/action", {"content": b"x" * 5000}, 413, "larger than"),
        ("post", f"/api/sessions/{sid}/next", {}, 409, "in progress"),
        ("post", "/api/sessions/" + "0" * 32 + "/action", {"json": {"action": "c"}}, 404, "unknown session"),
        ("get", "/api/sessions/nope", {}, 404, "unknown session"),
        ("get", f"/api/sessions/{sid}/history", {}, 404, "no hand finished"),
        ("post", "/api/sessions", {"json": {"seat": 9}}, 400, "seat must be"),
        ("post", "/api/sessions", {"json": {"seat": "1"}}, 400, "seat must be"),
    ]
    for method, path, kw, status, words in cases:
        r = getattr(client, method)(path, **kw)
        assert r.status_code == status, (path, kw, r.text)
        assert words in r.json()["error"], (path, r.json())
    # the table is unharmed: it is still the person's turn
    assert client.get(f"/api/sessions/{sid}").json()["your_turn"]
    finish_hand(client, client.get(f"/api/sessions/{sid}").json())
    r = client.post(f"/api/sessions/{sid}/action", json={"action": "c"})
    assert r.status_code == 409 and "no hand is in progress" in r.json()["error"]


def test_no_request_reaches_outside_the_data_folder(client, tmp_path):
    for path in ["/static/../../../../etc/passwd", "/static/%2e%2e/%2e%2e/etc/passwd", "/api/sessions/..%2F..%2Fetc/history",
                 "/api/sessions/../../etc/passwd", "/static/..%2fserver.py", "/api/sessions/%2e%2e/history"]:
        r = client.get(path)
        assert r.status_code in (400, 404), (path, r.status_code)
        assert "root:" not in r.text and "import" not in r.text
    written = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert all((tmp_path / "data") in p.parents for p in written)


def test_hand_histories_download_as_phh(client):
    state = client.post("/api/sessions").json()
    sid = state["session"]
    for _ in range(3):
        state = finish_hand(client, state)
        if state["hand"] < 3:
            state = client.post(f"/api/sessions/{sid}/next").json()
    r = client.get(state["history"])
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    tables = [t for t in re.split(r"(?m)^\[\d+\]$", r.text) if t.strip()]
    assert len(tables) == 3
    assert all(phh.loads(t).is_terminal() for t in tables)


def test_websocket_protocol(client):
    state = client.post("/api/sessions").json()
    sid = state["session"]
    with client.websocket_connect(f"/api/sessions/{sid}/ws") as ws:
        assert ws.receive_json()["type"] == "state"
        for bad, status in [("not json", 400), ("[1, 2]", 400), ('{"type": "dance"}', 400),
                            ('{"type": "action", "action": "r 1"}', 400), ('{"type": "next"}', 409),
                            ("x" * 5000, 413)]:  # fmt: skip
            ws.send_text(bad)
            reply = ws.receive_json()
            assert reply["type"] == "error" and reply["status"] == status, (bad, reply)
        ws.send_json({"type": "state"})
        assert ws.receive_json()["your_turn"]
        hands = 0
        while hands < 3:
            ws.send_json({"type": "action", "action": "c"})
            reply = ws.receive_json()
            while reply["type"] == "state" and reply["in_hand"] and not reply["your_turn"]:
                reply = ws.receive_json()
            assert reply["type"] == "state", reply
            if not reply["in_hand"]:
                hands += 1
                ws.send_json({"type": "next"})
                reply = ws.receive_json()
                while reply["in_hand"] and not reply["your_turn"]:
                    reply = ws.receive_json()
    assert client.get(f"/api/sessions/{sid}").json()["result"]["hands"] == 3


def test_websocket_to_an_unknown_session_is_told_and_closed(client):
    with client.websocket_connect("/api/sessions/" + "f" * 32 + "/ws") as ws:
        reply = ws.receive_json()
        assert reply == {"type": "error", "status": 404, "message": reply["message"]} and "unknown session" in reply["message"]


def test_several_tables_at_once_are_independent(client):
    a = client.post("/api/sessions").json()
    b = client.post("/api/sessions").json()
    assert a["session"] != b["session"] and a["seed"] != b["seed"]
    finish_hand(client, a)
    assert client.get(f"/api/sessions/{a['session']}").json()["result"]["hands"] == 1
    assert client.get(f"/api/sessions/{b['session']}").json()["result"]["hands"] == 0
    assert client.delete(f"/api/sessions/{b['session']}").status_code == 204
    assert client.get(f"/api/sessions/{b['session']}").status_code == 404


def test_too_many_tables_is_429(play_host, tmp_path):
    with TestClient(nlth_app(play_host, tmp_path, max_tables=2)) as c:
        assert [c.post("/api/sessions").status_code for _ in range(3)] == [201, 201, 429]


def test_the_page_and_its_files_are_served(client):
    page = client.get("/")
    assert page.status_code == 200 and "table.js" in page.text
    assert client.get("/static/table.js").status_code == 200
    assert client.get("/static/table.css").status_code == 200


class Sleepy(Agent):
    """A Kuhn agent that thinks for a while (a stand-in for real-time search)."""

    name = "sleepy"

    def __init__(self, seconds):
        self.seconds = float(seconds)

    def act(self, state, seat):
        time.sleep(self.seconds)
        return state.legal_actions()[0]


class SleepyPlugin:
    @hookimpl
    def gamesolve_register_agents(self, register):
        register(AgentSpec("sleepy", lambda game, seed, seconds="0.8": Sleepy(seconds), "sleeps, then passes", ("kuhn",)))


def test_a_thinking_agent_does_not_block_other_tables(tmp_path):
    import gamesolve_kuhn.plugin

    host = make_plugin_manager(strict=True, entry_points=False, plugins=[gamesolve_kuhn.plugin, SleepyPlugin()])
    game = host.games.get("kuhn").create(2)
    app = create_app(ServerConfig(TableSpec(game, ("sleepy",)), tmp_path / "data", seat=1), host)

    async def scenario():
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
            fast = (await c.post("/api/sessions", json={"seat": 0})).json()  # the person acts first: no waiting
            started = time.perf_counter()
            slow = asyncio.create_task(c.post("/api/sessions"))  # the sleepy agent acts first here
            await asyncio.sleep(0.1)
            answered = await c.get(f"/api/sessions/{fast['session']}")
            quick = time.perf_counter() - started
            created = await slow
            return answered.status_code, quick, created.status_code, time.perf_counter() - started, created.json()

    status, quick, created, total, state = asyncio.run(scenario())
    assert status == 200 and created == 201
    assert quick < 0.6 < total  # answered while the agent was still thinking
    assert state["log"][0]["ms"] >= 700 and state["your_turn"]
