"""Simulated players for load tests of the web table (``benchmarks/play_load.py`` and
``tests/play/test_server_load.py``): each opens a table, plays hands over its websocket as a
page would, and records how long the server took to answer each of its messages.

A response time is measured from sending an action (or "next hand") to receiving the state
in which it is the player's turn again or the hand is over -- agents' moves included, as a
person at the page would wait for them. Only the loopback address is a target here.
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import time
from urllib.parse import urlsplit
from urllib.request import Request, urlopen

import attrs


@attrs.define
class LoadResult:
    """Response times (seconds) of every message, and what went wrong."""

    clients: int
    hands: int
    seconds: float
    latencies: list[float] = attrs.field(factory=list)
    errors: list[str] = attrs.field(factory=list)
    hands_played: int = 0

    def percentile(self, q: float) -> float:
        xs = sorted(self.latencies)
        if not xs:
            return float("nan")
        k = min(len(xs) - 1, max(0, int(round(q / 100.0 * (len(xs) - 1)))))
        return xs[k]

    def summary(self) -> dict:
        return {
            "clients": self.clients, "hands_per_client": self.hands, "hands_played": self.hands_played,
            "messages": len(self.latencies), "errors": len(self.errors), "seconds": round(self.seconds, 2),
            "median_ms": round(1000 * statistics.median(self.latencies), 1) if self.latencies else None,
            "p95_ms": round(1000 * self.percentile(95), 1) if self.latencies else None,
            "max_ms": round(1000 * max(self.latencies), 1) if self.latencies else None,
        }  # fmt: skip


def _check_local(url: str) -> None:
    host = urlsplit(url).hostname or ""
    if not (host == "localhost" or host.startswith("127.") or host == "::1"):
        raise ValueError(f"load tests only target this machine (127.0.0.0/8, localhost, ::1), not {host!r}")


def _choose(state: dict, rng: random.Random) -> str:
    """A plausible action from the menu: mostly check or call, sometimes a sized raise or a fold."""
    menu = state["menu"]
    keys = [c["key"] for c in menu["choices"]]
    u = rng.random()
    if menu.get("amount") and u < 0.15:
        presets = menu["amount"]["presets"]
        return f"{menu['amount']['key']} {rng.choice(presets)['amount']}"
    if "f" in keys and u < 0.30:
        return "f"
    for k in ("c", "k"):
        if k in keys:
            return k
    return rng.choice(keys)


async def _player(url: str, index: int, hands: int, seed: int, result: LoadResult, deadline: float) -> None:
    import websockets

    rng = random.Random(f"gamesolve-load:{seed}:{index}")
    loop = asyncio.get_running_loop()
    created = await loop.run_in_executor(None, _create, url)
    ws_url = url.replace("http", "ws", 1) + f"/api/sessions/{created['session']}/ws"
    async with websockets.connect(ws_url, max_size=2**20, open_timeout=60) as ws:
        state = await _next_state(ws, deadline)
        while True:
            if time.monotonic() > deadline:
                result.errors.append(f"player {index}: out of time")
                return
            if state.get("type") == "error":
                result.errors.append(f"player {index}: {state.get('status')} {state.get('message')}")
                return
            if not state["in_hand"]:
                if state["result"]["hands"] >= hands or state["over"]:
                    result.hands_played += state["result"]["hands"]
                    return
                message = {"type": "next"}
            elif state["your_turn"]:
                message = {"type": "action", "action": _choose(state, rng)}
            else:
                state = await _next_state(ws, deadline)
                continue
            sent = time.perf_counter()
            await ws.send(json.dumps(message))
            while True:
                state = await _next_state(ws, deadline)
                if state.get("type") == "error" or state["your_turn"] or not state["in_hand"]:
                    break
            result.latencies.append(time.perf_counter() - sent)


async def _next_state(ws, deadline: float) -> dict:
    """The next state or error message ("thinking" notices skipped)."""
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), timeout=max(1.0, deadline - time.monotonic())))
        if message.get("type") != "thinking":
            return message


def _create(url: str) -> dict:
    request = Request(url + "/api/sessions", data=b"{}", headers={"Content-Type": "application/json"}, method="POST")
    with urlopen(request, timeout=60) as response:
        return json.loads(response.read())


async def run_load(url: str, clients: int = 50, hands: int = 20, seed: int = 0, timeout: float = 600.0) -> LoadResult:
    """``clients`` simulated players at once, ``hands`` hands each, against the server at ``url``."""
    _check_local(url)
    url = url.rstrip("/")
    result = LoadResult(clients, hands, 0.0)
    started = time.perf_counter()
    deadline = time.monotonic() + timeout
    outcomes = await asyncio.gather(*(_player(url, i, hands, seed, result, deadline) for i in range(clients)),
                                    return_exceptions=True)  # fmt: skip
    for i, outcome in enumerate(outcomes):
        if isinstance(outcome, BaseException):
            result.errors.append(f"player {i}: {type(outcome).__name__}: {outcome}")
    result.seconds = time.perf_counter() - started
    return result
