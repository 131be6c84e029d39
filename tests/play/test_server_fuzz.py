"""Fuzzing the web table's messages (hypothesis): whatever a client sends -- any path, method,
body or websocket message -- the answer is never a 5xx, the server logs no traceback, and the
tables keep working."""

import json
import logging
import warnings
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("starlette", reason="the web table needs the play extra (starlette)")
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from gamesolve.play.server import ServerConfig, create_app  # noqa: E402
from gamesolve.play.table import TableSpec  # noqa: E402

FUZZ = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                         HealthCheck.too_slow])  # fmt: skip

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
actions = st.sampled_from(["c", "f", "k", "allin", "r 1", "r 300", "r 2/3pot", "r 3bb", "r 1e9", "r -1", "r pot",
                           "r 0x10", "r ½", "R 10,000", "", " ", "\x00", "r " + "9" * 400]) | st.text(max_size=40)  # fmt: skip
messages = (
    st.fixed_dictionaries({"type": st.just("action"), "action": actions | json_values})
    | st.fixed_dictionaries({"type": st.sampled_from(["next", "state", "action", "dance", ""])})
    | json_values
).map(json.dumps) | st.text(max_size=60) | st.binary(max_size=60).map(lambda b: b.decode("latin-1"))


@pytest.fixture(scope="module")
def app_and_client(play_host, tmp_path_factory):
    game = play_host.games.get("nlth").create(3)
    app = create_app(ServerConfig(TableSpec(game, ("call", "random")), tmp_path_factory.mktemp("fuzz"), max_tables=1000), play_host)
    with TestClient(app, raise_server_exceptions=True) as client:
        yield app, client


@pytest.fixture
def no_tracebacks(caplog):
    caplog.set_level(logging.WARNING)
    yield
    bad = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert not bad, [r.getMessage() for r in bad]


@FUZZ
@given(
    method=st.sampled_from(["GET", "POST", "DELETE", "PUT", "PATCH"]),
    which=st.sampled_from(["live", "unknown", "text"]),
    junk=st.text(max_size=40),
    suffix=st.sampled_from(["", "/action", "/next", "/history", "/ws", "/..", "/%2e%2e/x", "/action/extra"]) | st.text(max_size=12),
    body=json_values.map(json.dumps) | st.binary(max_size=200) | st.none(),
)
def test_http_requests_never_get_a_5xx(app_and_client, no_tracebacks, method, which, junk, suffix, body):
    app, client = app_and_client
    live = client.post("/api/sessions").json()["session"] if which == "live" else None
    sid = {"live": live, "unknown": "ab" * 16, "text": quote(junk, safe="")}[which]
    path = f"/api/sessions/{sid}{quote(suffix, safe='/%?=&')}"
    r = client.request(method, path, content=body.encode() if isinstance(body, str) else body)
    assert r.status_code < 500, (method, path, body, r.status_code, r.text)
    if r.status_code >= 400 and r.headers.get("content-type", "").startswith("application/json"):
        assert r.json().get("error")
    if live is not None:
        assert client.get(f"/api/sessions/{live}").status_code in (200, 404)  # 404 only if this request closed it


@FUZZ
@given(batch=st.lists(messages, min_size=1, max_size=8))
def test_websocket_messages_always_get_an_answer(app_and_client, no_tracebacks, batch):
    app, client = app_and_client
    sid = client.post("/api/sessions").json()["session"]
    with client.websocket_connect(f"/api/sessions/{sid}/ws") as ws:
        assert ws.receive_json()["type"] == "state"
        for text in batch:
            ws.send_text(text)
            ws.send_text('{"type": "state"}')  # a marker: every reply up to the next state answers `text`
            replies = []
            while True:
                reply = ws.receive_json()
                replies.append(reply)
                if reply["type"] == "state" and _settled(reply):
                    break
            assert all(r["type"] in ("state", "error", "thinking") for r in replies)
            assert all(400 <= r["status"] < 500 for r in replies if r["type"] == "error"), replies
    r = client.get(f"/api/sessions/{sid}")
    assert r.status_code == 200 and r.json()["session"] == sid


def _settled(state):
    return state["your_turn"] or not state["in_hand"]
