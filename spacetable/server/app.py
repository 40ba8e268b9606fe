"""FastAPI application: REST lobby, per-client WebSocket, static browser client.

REST (JSON; OpenAPI at ``/openapi.json``, docs at ``/docs``):

* ``GET /health``; ``GET /api/games``
* ``GET/POST /api/matches``; ``GET /api/matches/{id}``
* ``POST /api/matches/{id}/seats/{n}/join|leave|ai``
* ``GET /api/matches/{id}/state`` (seat view with ``X-Seat-Token``) and ``POST /api/matches/{id}/actions``
* ``POST /api/matches/{id}/undo``, ``/undo/accept``, ``/undo/decline``
* ``GET /api/matches/{id}/replay`` and ``/replay/{step}``, ``GET /api/matches/{id}/export`` (finished only)

WebSocket ``/ws/matches/{id}?seat=N&token=T`` (no seat: spectator) sends a ``snapshot``
on connect, then an ``event`` per action and a ``snapshot`` on seat changes / undo;
clients send ``{"type": "action", "version": v, "action": {...}}``, ``undo``,
``undo_accept``, ``undo_decline`` or ``ping``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Header, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field

from spacetable import __version__
from spacetable.core.match import Match
from spacetable.games import available, get_game

from .ai import agent_registry
from .db import make_engine, run_migrations
from .service import MatchService, ServiceError, Subscriber

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
log = logging.getLogger("spacetable.server")


class CreateMatch(BaseModel):
    game: str
    config: dict[str, Any] = Field(default_factory=dict)
    seed: int | None = Field(default=None, description="fixed seed (tests, rematches); random when omitted")
    name: str = ""
    ai_seats: dict[int, str | None] = Field(default_factory=dict, description="seat -> agent name (null: the game's default AI)")
    ai_seconds: float = Field(default=1.0, description="thinking time per AI move, seconds")
    turn_seconds: float | None = Field(default=None, description="per-turn clock in seconds; none = no clock")
    join_seat: int | None = Field(default=None, description="take this seat at once; the reply carries its token")
    player_name: str = ""


class JoinSeat(BaseModel):
    name: str = ""


class SeatAuth(BaseModel):
    token: str | None = None


class AddAI(BaseModel):
    agent: str | None = None
    by_seat: int | None = None
    token: str | None = None


class PlayAction(BaseModel):
    seat: int
    token: str | None = None
    version: Any = None
    action: Any = None


class UndoBody(BaseModel):
    seat: int
    token: str | None = None


def seat_link(match_id: str, seat: int, token: str) -> str:
    return f"/match/{match_id}?seat={seat}&token={token}"


def create_app(database_url: str, ai_workers: int = 1, db_writer: str = "auto") -> FastAPI:
    """Build the app on ``database_url`` (migrated at start-up). ``db_writer``: ``auto``, ``inline`` or ``thread``."""
    engine = make_engine(database_url)
    service = MatchService(engine, ai_workers=ai_workers)
    if db_writer != "auto":
        service._db.inline = db_writer == "inline"

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        run_migrations(engine)
        service.load()
        await service.start()
        log.info("server ready", extra={"database": engine.url.render_as_string(hide_password=True)})
        yield
        await service.stop()
        engine.dispose()

    app = FastAPI(title="spacetable", version=__version__, lifespan=lifespan,
                  description="Play server for the spacetable games: lobby, seats, actions, replays.")
    app.state.service = service

    @app.exception_handler(ServiceError)
    async def _service_error(_request: Request, exc: ServiceError) -> JSONResponse:
        return JSONResponse(status_code=exc.status, content={"error": exc.to_json()})

    # ------------------------------------------------------------------ lobby
    @app.get("/health")
    async def health() -> dict[str, Any]:
        return {"status": "ok", "version": __version__, "matches": len(service.matches)}

    @app.get("/api/games")
    async def games() -> list[dict[str, Any]]:
        out = []
        for gid in available():
            g = get_game(gid)
            agents, default = agent_registry(g)
            out.append({
                "id": gid, "name": g.name, "min_players": g.min_players, "max_players": g.max_players,
                "options": [o.to_json() for o in g.options()], "agents": sorted(agents), "default_agent": default,
                "hidden_information": g.hidden_information, "stochastic": g.stochastic,
                "renderer": (WEB_DIR / "static" / "games" / f"{gid}.js").is_file(),
            })
        return out

    @app.get("/api/matches")
    async def list_matches(status: str | None = None, game: str | None = None) -> list[dict[str, Any]]:
        return service.list(status, game)

    @app.post("/api/matches", status_code=201)
    async def create_match(body: CreateMatch) -> dict[str, Any]:
        m = await service.create(body.game, body.config, body.seed, body.name, body.ai_seats, body.ai_seconds, body.turn_seconds)
        out: dict[str, Any] = {"match": m.summary()}
        if body.join_seat is not None:
            token = await service.join(m.id, body.join_seat, body.player_name)
            out.update(seat=body.join_seat, token=token, link=seat_link(m.id, body.join_seat, token), match=m.summary())
        return out

    @app.get("/api/matches/{match_id}")
    async def get_match(match_id: str) -> dict[str, Any]:
        return service.get(match_id).summary()

    @app.post("/api/matches/{match_id}/seats/{seat}/join")
    async def join(match_id: str, seat: int, body: JoinSeat) -> dict[str, Any]:
        token = await service.join(match_id, seat, body.name)
        return {"seat": seat, "token": token, "link": seat_link(match_id, seat, token), "match": service.get(match_id).summary()}

    @app.post("/api/matches/{match_id}/seats/{seat}/leave")
    async def leave(match_id: str, seat: int, body: SeatAuth) -> dict[str, Any]:
        await service.leave(match_id, seat, body.token)
        return service.get(match_id).summary()

    @app.post("/api/matches/{match_id}/seats/{seat}/ai")
    async def add_ai(match_id: str, seat: int, body: AddAI) -> dict[str, Any]:
        await service.set_ai(match_id, seat, body.agent, body.by_seat, body.token)
        return service.get(match_id).summary()

    # ------------------------------------------------------------------ play
    @app.get("/api/matches/{match_id}/state")
    async def state(match_id: str, seat: int | None = None, x_seat_token: str | None = Header(default=None)) -> dict[str, Any]:
        m = service.get(match_id)
        if seat is not None:
            service.check_token(m, seat, x_seat_token)
        return service.snapshot(m, seat)

    @app.post("/api/matches/{match_id}/actions")
    async def act(match_id: str, body: PlayAction) -> dict[str, Any]:
        version = await service.act(match_id, body.seat, body.token, body.version, body.action)
        return {"version": version, "match": service.get(match_id).summary()}

    @app.get("/api/matches/{match_id}/legal")
    async def legal(match_id: str, seat: int, offset: int = 0, limit: int = 1000,
                    x_seat_token: str | None = Header(default=None)) -> dict[str, Any]:
        """SRV-L2: a page of the seat's legal actions (header ``X-Seat-Token``)."""
        return service.legal_page(match_id, seat, x_seat_token, offset, limit)

    @app.post("/api/matches/{match_id}/legal/check")
    async def check_legal(match_id: str, body: PlayAction) -> dict[str, Any]:
        """SRV-L3: would this action be accepted now? Nothing is stored or changed."""
        return service.check_action(match_id, body.seat, body.token, body.version, body.action)

    @app.post("/api/matches/{match_id}/undo")
    async def undo(match_id: str, body: UndoBody) -> dict[str, Any]:
        return await service.request_undo(match_id, body.seat, body.token)

    @app.post("/api/matches/{match_id}/undo/accept")
    async def undo_accept(match_id: str, body: UndoBody) -> dict[str, Any]:
        return await service.answer_undo(match_id, body.seat, body.token, True)

    @app.post("/api/matches/{match_id}/undo/decline")
    async def undo_decline(match_id: str, body: UndoBody) -> dict[str, Any]:
        return await service.answer_undo(match_id, body.seat, body.token, False)

    # --------------------------------------------------------------- replays
    @app.get("/api/matches/{match_id}/replay")
    async def replay(match_id: str) -> dict[str, Any]:
        m = _finished(match_id)
        return {"match": m.summary(), "steps": m.version,
                "log": [service._entry_json(m, i, e, None) for i, e in enumerate(m.log)]}

    @app.get("/api/matches/{match_id}/replay/{step}")
    async def replay_step(match_id: str, step: int) -> dict[str, Any]:
        m = _finished(match_id)
        st = service.replay_state(m, step)
        last = service._entry_json(m, step - 1, m.log[step - 1], None) if step > 0 else None
        return {"step": step, "steps": m.version, "view": m.game.view(st, None), "last": last,
                "to_act": list(m.game.to_act(st))}

    @app.get("/api/matches/{match_id}/export")
    async def export(match_id: str) -> dict[str, Any]:
        m = _finished(match_id)
        match = Match(game=m.game.id, config=m.config, seed=m.seed, meta={"server_match": m.id, "name": m.name})
        state = m.game.initial_state(m.config, m.seed)
        for e in m.log:
            state = match.play(state, e.seat, e.action)
        return match.to_json()

    def _finished(match_id: str) -> Any:
        m = service.get(match_id)
        if m.status != "finished":
            raise ServiceError(409, "not_finished", "replays and exports are available once the match is over")
        return m

    # ------------------------------------------------------------- websocket
    @app.websocket("/ws/matches/{match_id}")
    async def ws(websocket: WebSocket, match_id: str, seat: int | None = None, token: str | None = None) -> None:
        await websocket.accept()
        try:
            m = service.get(match_id)
            if seat is not None:
                service.check_token(m, seat, token)
        except ServiceError as exc:
            await websocket.send_text(json.dumps({"type": "error", "error": exc.to_json()}))
            await websocket.close(code=4000 + exc.status)
            return
        sub = service.subscribe(m, seat)

        async def sender() -> None:
            try:
                while True:
                    text = await sub.queue.get()
                    if sub.overflow:
                        await websocket.close(code=1013)  # too far behind: reconnect for a fresh snapshot
                        return
                    await websocket.send_text(text)
            except Exception:  # the client went away; the receive loop notices and cleans up
                return

        send_task = asyncio.create_task(sender())
        try:
            while True:
                text = await websocket.receive_text()
                try:
                    msg = json.loads(text)
                    if not isinstance(msg, dict):
                        raise ValueError("a message is a JSON object")
                except ValueError as exc:
                    bad = {"status": 400, "code": "bad_request", "message": str(exc)}
                    sub.push(json.dumps({"type": "error", "error": bad}))
                    continue
                await _handle(m.id, seat, token, msg, sub)
        except (WebSocketDisconnect, RuntimeError):  # RuntimeError: already closed by the sender (backlog)
            pass
        finally:
            service.unsubscribe(m, sub)
            send_task.cancel()

    async def _handle(match_id: str, seat: int | None, token: str | None, msg: dict[str, Any], sub: Subscriber) -> None:
        kind = msg.get("type")
        ref = msg.get("id")
        try:
            if kind == "ping":
                sub.push(json.dumps({"type": "pong", "id": ref}))
                return
            if seat is None:
                raise ServiceError(403, "spectator", "spectators cannot act (SRV-A3)")
            if kind == "action":
                await service.act(match_id, seat, token, msg.get("version"), msg.get("action"))
            elif kind == "undo":
                res = await service.request_undo(match_id, seat, token)
                sub.push(json.dumps({"type": "undo", "id": ref, **res}))
            elif kind in ("undo_accept", "undo_decline"):
                res = await service.answer_undo(match_id, seat, token, kind == "undo_accept")
                sub.push(json.dumps({"type": "undo", "id": ref, **res}))
            else:
                raise ServiceError(400, "bad_request", f"unknown message type {kind!r}")
        except ServiceError as exc:
            sub.push(json.dumps({"type": "error", "id": ref, "error": exc.to_json()}))

    # ------------------------------------------------------------ web client
    app.mount("/static", StaticFiles(directory=WEB_DIR / "static"), name="static")

    @app.get("/", include_in_schema=False)
    @app.get("/match/{match_id}", include_in_schema=False)
    @app.get("/replay/{match_id}", include_in_schema=False)
    async def index(match_id: str | None = None) -> FileResponse:
        return FileResponse(WEB_DIR / "index.html", headers={"Cache-Control": "no-cache"})

    return app
