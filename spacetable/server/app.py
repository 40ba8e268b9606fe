"""FastAPI application: REST lobby, per-client WebSocket, static browser client, offline API docs.

REST (JSON; OpenAPI at ``/openapi.json``, Swagger UI at ``/docs`` served from the package, no CDN):

* ``GET /health``; ``GET /api/games``; ``GET /api/catalog``
* ``GET/POST /api/matches`` (paged); ``GET /api/matches/{id}``, ``/config``
* ``POST /api/matches/{id}/seats/{n}/join|leave|ai``
* ``GET /api/matches/{id}/state`` (seat view with ``X-Seat-Token``) and ``POST /api/matches/{id}/actions``
* ``GET /api/matches/{id}/legal``, ``POST /api/matches/{id}/legal/check``
* ``POST /api/matches/{id}/undo``, ``/undo/accept``, ``/undo/decline``
* ``GET /api/matches/{id}/replay`` and ``/replay/{step}``, ``GET /api/matches/{id}/export`` (finished only)

WebSocket ``/ws/matches/{id}`` (see ``ws.py``). Every error, FastAPI's own validation errors
included, has the shape ``{"error": {"status", "code", "message", "rule"?}}`` (SRV-E1).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Header, Query, Request, Response, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from spacetable import __version__
from spacetable.core import catalog
from spacetable.core.match import Match
from spacetable.games import available, get_game

from . import presentation
from .ai import agent_registry
from .db import make_engine, run_migrations
from .errors import HTTP_CODES, ServiceError, error_body
from .http import BodyGuard
from .limits import Limits, RateLimiter
from .presentation_routes import make_router
from .service import MatchService
from .ws import Connection

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
log = logging.getLogger("spacetable.server")

Token = Annotated[str, Field(min_length=1, max_length=128)]


class Body(BaseModel):
    """Request bodies: unknown fields are refused."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


class CreateMatch(Body):
    game: str = Field(max_length=64)
    config: dict[str, Any] = Field(default_factory=dict)
    seed: int | None = Field(default=None, description="a chosen seed; only with open_seed (everybody sees it)")
    open_seed: bool = Field(default=False, description="the seed is public from the start (and may be chosen)")
    name: str = Field(default="", max_length=200)
    ai_seats: dict[int, str | None] = Field(default_factory=dict, max_length=16,
                                            description="seat -> agent name (null: the game's default AI)")
    ai_seconds: float = Field(default=1.0, description="thinking time per AI move, seconds (0.01..120)")
    turn_seconds: float | None = Field(default=None, description="per-turn clock in seconds; none = no clock")
    join_seat: int | None = Field(default=None, description="take this seat at once; the reply carries its token")
    player_name: str = Field(default="", max_length=100)


class JoinSeat(Body):
    name: str = Field(default="", max_length=100)


class SeatAuth(Body):
    token: Token | None = None


class AddAI(Body):
    agent: str | None = Field(default=None, max_length=64)
    by_seat: int | None = None
    token: Token | None = None


class PlayAction(Body):
    seat: int
    token: Token | None = None
    version: Any = None
    action: Any = None


class UndoBody(Body):
    seat: int
    token: Token | None = None


def seat_link(match_id: str, seat: int, token: str) -> str:
    """SRV-A5: the token travels in the URL fragment, which browsers never send to a server (so it is in no
    access log); the page hands it to the server over its WebSocket."""
    return f"/match/{match_id}#seat={seat}&token={token}"


def _client(request: Request) -> str | None:
    return request.client.host if request.client else None


def _validation_message(exc: RequestValidationError) -> str:
    parts = []
    for err in exc.errors()[:3]:
        loc = ".".join(str(p) for p in err.get("loc", ()) if p != "body") or "request"
        msg = "unknown field" if err.get("type") == "extra_forbidden" else str(err.get("msg", "invalid"))
        parts.append(f"{loc}: {msg}")
    return "; ".join(parts) or "invalid request"


def create_app(database_url: str, ai_workers: int = 1, db_writer: str = "auto", limits: Limits | None = None,
               data_dir: str | Path | None = None) -> FastAPI:
    """Build the app on ``database_url`` (migrated at start-up). ``db_writer``: ``auto``, ``inline`` or ``thread``;
    ``limits``: the server's bounds (defaults: :class:`Limits`); ``data_dir``: the operator's data catalogue."""
    limits = limits or Limits()
    if data_dir is not None:
        catalog.configure(data_dir)
    engine = make_engine(database_url)
    service = MatchService(engine, ai_workers=ai_workers, limits=limits)
    limiter = RateLimiter(limits)
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

    app = FastAPIOffline(title="spacetable", version=__version__, lifespan=lifespan, redoc_url=None,
                         static_url="/docs-static",
                         description="Play server for the spacetable games: lobby, seats, actions, replays.")
    app.state.service = service
    app.state.limits = limits
    app.add_middleware(BodyGuard, max_body=limits.max_body)

    @app.exception_handler(ServiceError)
    async def _service_error(request: Request, exc: ServiceError) -> JSONResponse:
        lang = presentation.pick_lang(request.query_params.get("lang") or request.headers.get("accept-language"))
        m = service.matches.get(str(request.path_params.get("match_id", "")))
        error = presentation.error_json(exc.to_json(), m.game if m is not None else None, lang)
        return JSONResponse(status_code=exc.status, content={"error": error}, headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def _validation_error(_request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse(status_code=422, content=error_body(422, "bad_request", _validation_message(exc)))

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = HTTP_CODES.get(exc.status_code, "error")
        message = exc.detail if isinstance(exc.detail, str) else code.replace("_", " ")
        return JSONResponse(status_code=exc.status_code, content=error_body(exc.status_code, code, message),
                            headers=getattr(exc, "headers", None))

    @app.exception_handler(Exception)
    async def _internal_error(_request: Request, exc: Exception) -> JSONResponse:
        log.error("unhandled error", exc_info=exc)
        return JSONResponse(status_code=500, content=error_body(500, "internal_error", "internal error"))

    # ------------------------------------------------------------------ lobby
    @app.get("/health")
    async def health() -> dict[str, Any]:
        return {"status": "ok", "version": __version__, "matches": len(service.matches), "sockets": service.sockets}

    @app.get("/api/games")
    async def games() -> list[dict[str, Any]]:
        """The games with their options (numeric ones with minimum and maximum), AI agents and catalogue data."""
        out = []
        for gid in available():
            g = get_game(gid)
            agents, default = agent_registry(g)
            out.append({
                "id": gid, "name": g.name, "min_players": g.min_players, "max_players": g.max_players,
                "options": [o.to_json() for o in g.options()], "agents": sorted(agents), "default_agent": default,
                "hidden_information": g.hidden_information, "stochastic": g.stochastic,
                "renderer": (WEB_DIR / "static" / "games" / f"{gid}.js").is_file(),
                "catalog": catalog.listing().get(gid, {}),
            })
        return out

    @app.get("/api/catalog")
    async def data_catalog() -> dict[str, dict[str, list[str]]]:
        """Named data a config may choose (``{game: {kind: [names]}}``): bundled and the operator's."""
        return catalog.listing()

    @app.get("/api/matches")
    async def list_matches(
        response: Response, status: Annotated[str | None, Query(pattern="^(open|running|finished)$")] = None,
        game: Annotated[str | None, Query(max_length=64)] = None, offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
        limit: Annotated[int, Query(ge=1, le=1000)] = 50,
    ) -> list[dict[str, Any]]:
        """One page of the lobby, most recently updated first (``X-Next-Offset`` when more follow)."""
        page, more = service.lobby(status, game, offset, min(limit, limits.lobby_page_max))
        if more:
            response.headers["X-Next-Offset"] = str(offset + len(page))
        return page

    @app.post("/api/matches", status_code=201)
    async def create_match(body: CreateMatch, request: Request) -> dict[str, Any]:
        limiter.hit("create", _client(request))
        m, token = await service.create(body.game, body.config, body.seed, body.name, body.ai_seats, body.ai_seconds,
                                        body.turn_seconds, body.open_seed, body.join_seat, body.player_name)
        out: dict[str, Any] = {"match": m.summary()}
        if token is not None and body.join_seat is not None:
            out.update(seat=body.join_seat, token=token, link=seat_link(m.id, body.join_seat, token))
        return out

    @app.get("/api/matches/{match_id}")
    async def get_match(match_id: str) -> dict[str, Any]:
        return service.summary(match_id)

    @app.get("/api/matches/{match_id}/config")
    async def get_config(match_id: str) -> dict[str, Any]:
        """The whole config, with a player's own content (maps, card sets, scenarios) that summaries abbreviate."""
        return service.full_config(match_id)

    @app.post("/api/matches/{match_id}/seats/{seat}/join")
    async def join(match_id: str, seat: int, body: JoinSeat, request: Request) -> dict[str, Any]:
        limiter.hit("join", _client(request))
        token = await service.join(match_id, seat, body.name)
        return {"seat": seat, "token": token, "link": seat_link(match_id, seat, token), "match": service.summary(match_id)}

    @app.post("/api/matches/{match_id}/seats/{seat}/leave")
    async def leave(match_id: str, seat: int, body: SeatAuth, request: Request) -> dict[str, Any]:
        limiter.hit("join", _client(request))
        await service.leave(match_id, seat, body.token)
        return service.summary(match_id)

    @app.post("/api/matches/{match_id}/seats/{seat}/ai")
    async def add_ai(match_id: str, seat: int, body: AddAI, request: Request) -> dict[str, Any]:
        limiter.hit("join", _client(request))
        await service.set_ai(match_id, seat, body.agent, body.by_seat, body.token)
        return service.summary(match_id)

    # ------------------------------------------------------------------ play
    @app.get("/api/matches/{match_id}/state")
    async def state(match_id: str, seat: int | None = None,
                    x_seat_token: Annotated[str | None, Header(max_length=128)] = None) -> dict[str, Any]:
        m = service.get(match_id)
        if seat is not None:
            service.check_token(m, seat, x_seat_token)
        return service.snapshot(m, seat)

    @app.post("/api/matches/{match_id}/actions")
    async def act(match_id: str, body: PlayAction, request: Request) -> dict[str, Any]:
        limiter.hit("act", _client(request))
        version = await service.act(match_id, body.seat, body.token, body.version, body.action)
        return {"version": version, "match": service.summary(match_id)}

    @app.get("/api/matches/{match_id}/legal")
    async def legal(match_id: str, seat: int, offset: Annotated[int, Query(ge=0)] = 0, limit: int = 1000,
                    x_seat_token: Annotated[str | None, Header(max_length=128)] = None) -> dict[str, Any]:
        """SRV-L2: a page of the seat's legal actions (header ``X-Seat-Token``)."""
        return service.legal_page(match_id, seat, x_seat_token, offset, limit)

    @app.post("/api/matches/{match_id}/legal/check")
    async def check_legal(match_id: str, body: PlayAction) -> dict[str, Any]:
        """SRV-L3: would this action be accepted now? Nothing is stored or changed."""
        return service.check_action(match_id, body.seat, body.token, body.version, body.action)

    @app.post("/api/matches/{match_id}/undo")
    async def undo(match_id: str, body: UndoBody, request: Request) -> dict[str, Any]:
        limiter.hit("act", _client(request))
        return await service.request_undo(match_id, body.seat, body.token)

    @app.post("/api/matches/{match_id}/undo/accept")
    async def undo_accept(match_id: str, body: UndoBody, request: Request) -> dict[str, Any]:
        limiter.hit("act", _client(request))
        return await service.answer_undo(match_id, body.seat, body.token, True)

    @app.post("/api/matches/{match_id}/undo/decline")
    async def undo_decline(match_id: str, body: UndoBody, request: Request) -> dict[str, Any]:
        limiter.hit("act", _client(request))
        return await service.answer_undo(match_id, body.seat, body.token, False)

    # --------------------------------------------------------------- replays
    @app.get("/api/matches/{match_id}/replay")
    async def replay(match_id: str) -> dict[str, Any]:
        """A finished match's public log, and its seed (SRV-S1: anyone can check the dice)."""
        m = _finished(match_id)
        return {"match": m.summary(), "steps": m.version, "seed": m.seed,
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
        """The ``spacetable-match/1`` file of a finished match: config (player content included), seed, log."""
        m = _finished(match_id)
        match = Match(game=m.game.id, config=m.config, seed=m.seed, meta={"server_match": m.id, "name": m.name},
                      engine=m.game)
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
    async def ws(websocket: WebSocket, match_id: str, seat: str | None = None, token: str | None = None,
                 lang: str | None = None) -> None:
        await Connection(websocket, service, limits, limiter).serve(match_id, seat, token, lang)

    # ------------------------------------------------------------ web client
    app.include_router(make_router(service))
    app.mount("/static", StaticFiles(directory=WEB_DIR / "static"), name="static")

    @app.get("/", include_in_schema=False)
    @app.get("/match/{match_id}", include_in_schema=False)
    @app.get("/replay/{match_id}", include_in_schema=False)
    async def index(match_id: str | None = None) -> FileResponse:
        return FileResponse(WEB_DIR / "index.html", headers={"Cache-Control": "no-cache", "Referrer-Policy": "no-referrer"})

    return app
