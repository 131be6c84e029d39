"""The web table: a starlette app serving one table per browser session (``gamesolve serve``).

Protocol
--------
HTTP, JSON bodies (at most :data:`MAX_BODY` bytes), session ids of 32 hex digits:

=============================================  ===============================================
``GET  /``                                     the page (static HTML/JS/CSS shipped in the package)
``POST /api/sessions``                         a new table (body ``{"seat": N}`` optional) -> 201 state
``GET  /api/sessions/{id}``                    the table's state
``POST /api/sessions/{id}/action``             ``{"action": "r 600"}``: your action, then the agents
                                               play until your turn or the end of the hand -> state
``POST /api/sessions/{id}/next``               deal the next hand -> state
``GET  /api/sessions/{id}/history``            the hand histories so far (NLTH: a PHH file)
``DELETE /api/sessions/{id}``                  close the table
``WS   /api/sessions/{id}/ws``                 the same as messages (below), and every change pushed
=============================================  ===============================================

Websocket messages from the page: ``{"type": "action", "action": "r 600"}``,
``{"type": "next"}``, ``{"type": "state"}``. The server sends ``{"type": "state", ...}`` when
the table changes (the agents' moves appear in its ``log``, each with its thinking time in
ms), ``{"type": "thinking", "seat": S, "name": N}`` while a slow agent chooses, and
``{"type": "error", "status": 4xx, "message": ...}`` to the sender of a bad message; the
connection stays open. An unknown session gets an error message and close code 4404.

Errors: a malformed body or message, an illegal amount or action is 400; acting out of
turn, or dealing while a hand is on, 409; an unknown session 404; too many tables 429; a
body too large 413. Every error is one JSON object ``{"error": message}`` (HTTP) and the
server goes on.

Safety: the app binds where it is told (the command defaults to 127.0.0.1); the only files
it writes or reads are under its data folder, at paths built from validated session ids;
static files come from the package's own folder through starlette's ``StaticFiles``.

Concurrency: each table has an ``asyncio.Lock``; every call into its session (agents'
moves, the person's actions, saving hand histories, the coach) runs in a thread pool, so a
slow agent (search) holds up its own table only, never the event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import secrets
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import attrs
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from gamesolve.play.history import HandHistories
from gamesolve.play.session import NotYourTurn, SessionOver
from gamesolve.play.table import Table, TableError, TableSpec, build_table
from gamesolve.play.view import IllegalAction

log = logging.getLogger("gamesolve.play.server")

STATIC = Path(__file__).parent / "static"
MAX_BODY = 4096
"""Largest request body or websocket message accepted, in bytes."""

SLOW = 0.1
"""Seconds after which an agent still choosing is shown as thinking."""

SESSION_ID = re.compile(r"[0-9a-f]{32}")


class ApiError(Exception):
    """A request the server refuses: an HTTP status (4xx) and a message."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


@attrs.frozen
class ServerConfig:
    """Everything ``gamesolve serve`` sets: the table spec, where data goes, limits."""

    spec: TableSpec
    data_dir: Path
    seat: int = 0
    seed: int = 0
    hands: int | None = None
    max_tables: int = 64
    idle_seconds: float = 3600.0
    workers: int = 4


class WebTable:
    """One browser session's table: the :class:`Table`, its lock, its open websockets."""

    def __init__(self, sid: str, table: Table, folder: Path, seed: int):
        self.id = sid
        self.table = table
        self.folder = folder
        self.seed = seed
        self.lock = asyncio.Lock()
        self.sockets: set[WebSocket] = set()
        self.last_used = time.monotonic()
        self.coach_notes: list[dict] | None = None

    @property
    def session(self):
        return self.table.session

    def snapshot(self) -> dict[str, Any]:
        """The table as the person sees it (never another player's hidden cards)."""
        s = self.session
        view = self.table.view
        you = s.human_seat
        names = s.seat_names()
        your_turn = s.human_turn()
        table = view.table(s.state, you, names).as_dict() if s.state is not None else None
        result = s.result()
        positions = {seat["seat"]: seat["position"] for seat in table["seats"]} if table else {}
        return {
            "type": "state",
            "session": self.id,
            "game": s.game.name,
            "describe": s.game.describe(),
            "seed": self.seed,
            "hand": s.hand + 1,
            "hands_limit": s.limit,
            "seat": you,
            "to_act": s.to_act(),
            "your_turn": your_turn,
            "in_hand": s.in_hand,
            "over": s.over,
            "table": table,
            "menu": view.menu(s.state).as_dict() if your_turn else None,
            "log": [
                {"seat": e.seat, "name": "you" if e.human else e.name, "position": positions.get(e.seat, ""),
                 "text": e.text, "stage": e.stage, "you": e.human, "ms": e.ms}
                for e in s.log
            ],  # fmt: skip
            "last_hand": {"number": s.last.number, "text": s.last.text, "returns": list(s.last.returns)}
            if s.last is not None and not s.in_hand else None,
            "result": {**result.as_dict(), "line": result.line(view.amount_text)},
            "coach": {"name": self.table.coach.name, "notes": self.coach_notes}
            if self.coach_notes is not None and self.table.coach is not None else None,
            "history": f"/api/sessions/{self.id}/history" if s.records else None,
        }


class TableManager:
    """The server's tables by session id; creates them, finds them, closes idle ones."""

    def __init__(self, config: ServerConfig, host, executor: ThreadPoolExecutor):
        self.config = config
        self.host = host
        self.executor = executor
        self.tables: dict[str, WebTable] = {}
        self.created = 0
        self.building = 0  # tables being built (their agents load in the pool)
        self.root = (Path(config.data_dir) / "sessions").resolve()

    def get(self, sid: str) -> WebTable:
        if not isinstance(sid, str) or not SESSION_ID.fullmatch(sid) or sid not in self.tables:
            raise ApiError(404, "unknown session (it may have been closed; start a new one)")
        table = self.tables[sid]
        table.last_used = time.monotonic()
        return table

    def _evict_idle(self) -> None:
        now = time.monotonic()
        for sid, t in list(self.tables.items()):
            if now - t.last_used > self.config.idle_seconds and not t.sockets and not t.lock.locked():
                del self.tables[sid]

    async def create(self, seat: int | None) -> WebTable:
        self._evict_idle()
        if len(self.tables) + self.building >= self.config.max_tables:
            raise ApiError(429, f"the server is full ({self.config.max_tables} tables); try again later")
        p = self.config.spec.game.num_players
        seat = self.config.seat if seat is None else seat
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < p:
            raise ApiError(400, f"seat must be a seat number 0..{p - 1}")
        sid = secrets.token_hex(16)
        self.created += 1
        seed = (int(self.config.seed) * 1_000_003 + self.created) % (2**63)
        folder = self.root / sid
        hh = folder / HandHistories.default_name(self.host.pm, self.config.spec.game)
        loop = asyncio.get_running_loop()

        def build() -> Table:
            folder.mkdir(parents=True, exist_ok=True)
            return build_table(self.host, self.config.spec, seat=seat, seed=seed, hands=self.config.hands, hh_path=hh)

        self.building += 1
        try:
            table = await loop.run_in_executor(self.executor, build)
        except TableError as exc:
            raise ApiError(400, str(exc)) from None
        finally:
            self.building -= 1
        web = WebTable(sid, table, folder, seed)
        self.tables[sid] = web
        return web


class Tables:
    """The operations on a table, shared by the HTTP routes and the websocket."""

    def __init__(self, manager: TableManager):
        self.manager = manager
        self.executor = manager.executor

    async def _run(self, fn, *args):
        return await asyncio.get_running_loop().run_in_executor(self.executor, fn, *args)

    async def broadcast(self, table: WebTable) -> None:
        """Push the table's state to its open pages."""
        if table.sockets:
            await self.send_all(table, table.snapshot())

    @staticmethod
    async def send_all(table: WebTable, message: dict) -> None:
        for ws in list(table.sockets):
            try:
                await ws.send_json(message)
            except Exception:  # a closed page: forget it, the table goes on
                table.sockets.discard(ws)

    async def _agents_play(self, table: WebTable) -> None:
        """Agents act one at a time, each in the pool, until the person's turn or the hand's end.

        An agent still choosing after :data:`SLOW` seconds is announced with a
        ``{"type": "thinking"}`` message (built from what was known before it started: the
        session is being changed in the pool meanwhile), and the state after its move is
        pushed at once; fast agents' moves go out with the state that follows them."""
        s = table.session
        loop = asyncio.get_running_loop()
        while s.bot_turn():
            seat = s.to_act()
            name = s.seat_names()[seat]
            future = loop.run_in_executor(self.executor, s.bot_step)
            done, _ = await asyncio.wait({future}, timeout=SLOW)
            if not done:
                await self.send_all(table, {"type": "thinking", "seat": seat, "name": name})
            await future
            if not done and s.bot_turn():
                await self.broadcast(table)
        if not s.in_hand and s.state is not None:
            await self._after_hand(table)
        await self.broadcast(table)

    async def _after_hand(self, table: WebTable) -> None:
        coach = table.table.coach
        if coach is None or not table.session.decisions:
            table.coach_notes = [] if coach is not None else None
            return
        notes = await self._run(coach.notes, table.session, table.table.view)
        table.coach_notes = [n.as_dict() for n in notes]

    async def start(self, table: WebTable) -> None:
        """Deal a hand (the first one, or the next after a finished hand)."""
        async with table.lock:
            s = table.session
            if s.in_hand:
                raise ApiError(409, "a hand is in progress: finish it first")
            if s.over:
                raise ApiError(409, f"the session is over: {s.limit} hands played")
            table.coach_notes = None
            try:
                await self._run(s.start_hand)
            except (NotYourTurn, SessionOver) as exc:
                raise ApiError(409, str(exc)) from None
            await self._agents_play(table)

    async def act(self, table: WebTable, text: Any) -> None:
        if not isinstance(text, str) or not text.strip():
            raise ApiError(400, 'expected {"action": TEXT}, e.g. "c", "f", "r 600", "r 2/3pot", "allin"')
        if len(text) > 200:
            raise ApiError(400, "action too long")
        async with table.lock:
            s = table.session
            if not s.human_turn():
                raise ApiError(409, "it is not your turn" if s.in_hand else "no hand is in progress: deal the next one")
            try:
                await self._run(s.human_step, text)
            except IllegalAction as exc:
                raise ApiError(400, str(exc)) from None
            except NotYourTurn as exc:
                raise ApiError(409, str(exc)) from None
            await self._agents_play(table)

    async def state(self, table: WebTable) -> dict:
        async with table.lock:
            return table.snapshot()


# ---- HTTP -----------------------------------------------------------------------------------
async def _json_body(request: Request, required: bool = True) -> dict:
    """The request's JSON object, read up to :data:`MAX_BODY` bytes."""
    size = request.headers.get("content-length")
    if size is not None and (not size.isdigit() or int(size) > MAX_BODY):
        raise ApiError(413, f"request body larger than {MAX_BODY} bytes")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise ApiError(413, f"request body larger than {MAX_BODY} bytes")
    if not body.strip():
        if required:
            raise ApiError(400, "expected a JSON object")
        return {}
    return _parse_object(body)


def _parse_object(raw: bytes | str) -> dict:
    try:
        value = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise ApiError(400, "malformed JSON") from None
    if not isinstance(value, dict):
        raise ApiError(400, "expected a JSON object")
    return value


def create_app(config: ServerConfig, host) -> Starlette:
    """The web app for ``config`` (``host``: the plugin host the agents and views come from)."""
    executor = ThreadPoolExecutor(max_workers=max(1, int(config.workers)), thread_name_prefix="gamesolve-agent")
    manager = TableManager(config, host, executor)
    tables = Tables(manager)

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    async def create(request: Request) -> Response:
        body = await _json_body(request, required=False)
        table = await manager.create(body.get("seat"))
        await tables.start(table)
        return JSONResponse(await tables.state(table), status_code=201)

    async def show(request: Request) -> Response:
        return JSONResponse(await tables.state(manager.get(request.path_params["sid"])))

    async def action(request: Request) -> Response:
        table = manager.get(request.path_params["sid"])
        body = await _json_body(request)
        await tables.act(table, body.get("action"))
        return JSONResponse(await tables.state(table))

    async def next_hand(request: Request) -> Response:
        table = manager.get(request.path_params["sid"])
        await tables.start(table)
        return JSONResponse(await tables.state(table))

    async def history(request: Request) -> Response:
        table = manager.get(request.path_params["sid"])
        hh = table.table.histories
        if hh is None or not table.session.records or not hh.path.is_file():
            raise ApiError(404, "no hand finished yet")
        path = hh.path.resolve()
        if manager.root not in path.parents:  # built from a checked id; refuse anything else all the same
            raise ApiError(404, "no hand histories")
        name = f"gamesolve-{table.id[:8]}{path.suffix}"
        return FileResponse(path, filename=name, media_type="text/plain; charset=utf-8")

    async def close(request: Request) -> Response:
        table = manager.get(request.path_params["sid"])
        manager.tables.pop(table.id, None)
        return Response(status_code=204)

    async def websocket(ws: WebSocket) -> None:
        await ws.accept()
        try:
            table = manager.get(ws.path_params["sid"])
        except ApiError as exc:
            await ws.send_json({"type": "error", "status": exc.status, "message": exc.message})
            await ws.close(code=4404)
            return
        table.sockets.add(ws)
        try:
            await ws.send_json(await tables.state(table))
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                try:
                    await _handle_message(ws, table, message)
                except ApiError as exc:
                    await ws.send_json({"type": "error", "status": exc.status, "message": exc.message})
        except WebSocketDisconnect:
            pass
        finally:
            table.sockets.discard(ws)

    async def _handle_message(ws: WebSocket, table: WebTable, message: dict) -> None:
        raw = message.get("text")
        if raw is None:
            raw = message.get("bytes") or b""
        if len(raw) > MAX_BODY:
            raise ApiError(413, f"message larger than {MAX_BODY} bytes")
        body = _parse_object(raw)
        kind = body.get("type")
        table.last_used = time.monotonic()
        if kind == "action":
            await tables.act(table, body.get("action"))
        elif kind == "next":
            await tables.start(table)
        elif kind == "state":
            await ws.send_json(await tables.state(table))
        else:
            raise ApiError(400, 'unknown message: expected {"type": "action" | "next" | "state"}')

    async def api_error(request: Request, exc: ApiError) -> Response:
        return JSONResponse({"error": exc.message}, status_code=exc.status)

    async def http_error(request: Request, exc: HTTPException) -> Response:
        return JSONResponse({"error": exc.detail}, status_code=exc.status_code, headers=getattr(exc, "headers", None))

    routes = [
        Route("/", index, methods=["GET"]),
        Route("/api/sessions", create, methods=["POST"]),
        Route("/api/sessions/{sid}", show, methods=["GET"]),
        Route("/api/sessions/{sid}", close, methods=["DELETE"]),
        Route("/api/sessions/{sid}/action", action, methods=["POST"]),
        Route("/api/sessions/{sid}/next", next_hand, methods=["POST"]),
        Route("/api/sessions/{sid}/history", history, methods=["GET"]),
        WebSocketRoute("/api/sessions/{sid}/ws", websocket),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ]
    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        executor.shutdown(wait=False, cancel_futures=True)

    app = Starlette(routes=routes, exception_handlers={ApiError: api_error, HTTPException: http_error}, lifespan=lifespan)
    app.state.manager = manager
    return app
