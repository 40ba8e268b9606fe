"""FastAPI application: REST lobby, per-client WebSocket, static browser client, offline API docs.

REST (JSON; OpenAPI at ``/openapi.json``, Swagger UI at ``/docs`` served from the package, no CDN), one
``APIRouter`` per area in ``routes/``:

* ``GET /health``, ``GET /health/ready``; ``GET /api/games``; ``GET /api/catalog``
* ``GET/POST /api/matches`` (paged); ``GET /api/matches/{id}``, ``/config``
* ``POST /api/matches/{id}/seats/{n}/join|leave|ai``
* ``GET /api/matches/{id}/state`` (seat view with ``X-Seat-Token``) and ``POST /api/matches/{id}/actions``
* ``GET /api/matches/{id}/legal``, ``POST /api/matches/{id}/legal/check``
* ``POST /api/matches/{id}/undo``, ``/undo/accept``, ``/undo/decline``
* ``GET /api/matches/{id}/replay`` and ``/replay/{step}``, ``GET /api/matches/{id}/export`` (finished only)

WebSocket ``/ws/matches/{id}`` (see ``ws.py``). Every error, FastAPI's own validation errors
included, has the shape ``{"error": {"status", "code", "message", "rule"?}}`` (SRV-E1).

:func:`create_app` builds one process of the service; ``serve --workers N`` starts N of them on one port
through :func:`app_from_env` (settings in ``SPACETABLE_SERVER_SETTINGS``).
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import logging
import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.routing import APIWebSocketRoute
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline
from starlette.exceptions import HTTPException as StarletteHTTPException

from spacetable import __version__
from spacetable.core import catalog

from . import collector, presentation
from .absence import Lapses, Vacations
from .absence import routes as absence_routes
from .accounts.passkeys import Passkeys
from .accounts.ratings import RatingKeeper
from .accounts.service import AccountService, AccountSettings
from .challenges import router as challenges_router
from .chat import routes as chat_routes
from .chat.service import ChatService
from .errors import HTTP_CODES, ServiceError, error_body
from .fanout import open_fanout
from .http import BodyGuard
from .leases import new_server_id
from .limits import Limits, RateLimiter
from .notify import routes as notify_routes
from .notify.dispatcher import AccountsDirectory, Notifier, NotifyConfig
from .notify.events import MatchWatcher
from .presentation_routes import make_router
from .routes import LOBBY, PLAY, ROUTERS
from .routes import balance as balance_routes
from .routes.deps import Context, ctx, seat_link
from .routes.pages import WEB_DIR
from .routing import PrefixRoute
from .service import MatchService
from .social import presence as social_presence
from .social import rematch as social_rematch
from .social import seeks as social_seeks
from .storage import COMMIT_WINDOW, open_storage

log = logging.getLogger("spacetable.server")
#: the settings of ``serve --workers N`` for each worker process (JSON of :func:`create_app`'s arguments)
SETTINGS_ENV = "SPACETABLE_SERVER_SETTINGS"

__all__ = ["SETTINGS_ENV", "app_from_env", "create_app", "seat_link"]


def _validation_message(exc: RequestValidationError) -> str:
    parts = []
    for err in exc.errors()[:3]:
        loc = ".".join(str(p) for p in err.get("loc", ()) if p != "body") or "request"
        msg = "unknown field" if err.get("type") == "extra_forbidden" else str(err.get("msg", "invalid"))
        parts.append(f"{loc}: {msg}")
    return "; ".join(parts) or "invalid request"


async def _service_error(request: Request, exc: Exception) -> JSONResponse:
    """SRV-E1, explained in the client's language (``presentation.error_json``: ``?lang=`` or ``Accept-Language``)."""
    assert isinstance(exc, ServiceError)
    lang = presentation.pick_lang(request.query_params.get("lang") or request.headers.get("accept-language"))
    if exc.code == "bad_token":  # SRV-A3: failed token checks count against the address (``--rate-auth-fail``)
        with contextlib.suppress(ServiceError):
            await ctx(request).limiter.hit("auth_fail", request.client.host if request.client else None)
    m = ctx(request).service.matches.get(str(request.path_params.get("match_id", "")))
    error = presentation.error_json(exc.to_json(), m.game if m is not None else None, lang)
    return JSONResponse(status_code=exc.status, content={"error": error}, headers=exc.headers)


async def _validation_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    return JSONResponse(status_code=422, content=error_body(422, "bad_request", _validation_message(exc)))


async def _http_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    code = HTTP_CODES.get(exc.status_code, "error")
    message = exc.detail if isinstance(exc.detail, str) else code.replace("_", " ")
    return JSONResponse(status_code=exc.status_code, content=error_body(exc.status_code, code, message),
                        headers=getattr(exc, "headers", None))


async def _internal_error(_request: Request, exc: Exception) -> JSONResponse:
    log.error("unhandled error", exc_info=exc)
    return JSONResponse(status_code=500, content=error_body(500, "internal_error", "internal error"))


def create_app(database_url: str, ai_workers: int = 1, limits: Limits | None = None, data_dir: str | Path | None = None,
               redis_url: str | None = None, lease_seconds: float = 10.0, migrate: bool = True,
               db_writers: int = 2, accounts: dict[str, Any] | None = None,
               notify: dict[str, Any] | None = None, workbench: dict[str, Any] | None = None,
               commit_window: float = COMMIT_WINDOW) -> FastAPI:
    """Build one server process on ``database_url`` (migrated at start-up unless ``migrate`` is false).

    ``limits``: the server's bounds (defaults: :class:`Limits`); ``data_dir``: the operator's data catalogue;
    ``redis_url``: share the matches with the other processes of the service (fan-out, shared rate limits);
    ``lease_seconds``: how long a silent process keeps its matches' AI seats and clocks; ``db_writers``:
    PostgreSQL connections committing actions (group commit); ``commit_window``: the shortest time between two
    commits of actions, in seconds (``storage.COMMIT_WINDOW``); ``accounts``: :class:`AccountSettings` fields
    (mail relay, public URL, cookies; docs/accounts.md); ``notify``: :class:`NotifyConfig` fields (notifications:
    VAPID contact; docs/server.md); ``workbench``: the balance runs' settings (``ray``: a Ray address or ``local``,
    ``workers``, ``max_games``, ``per_user``, ``max_active``; docs/workbench.md)."""
    limits = limits or Limits()
    if data_dir is not None:
        catalog.configure(data_dir)
    storage = open_storage(database_url, commit_window, writers=db_writers)
    server_id = new_server_id()
    service = MatchService(storage, ai_workers=ai_workers, limits=limits, fanout=open_fanout(redis_url, server_id),
                           lease_seconds=lease_seconds, server_id=server_id)
    account_service = AccountService(service, AccountSettings(**(accounts or {})))
    ratings = RatingKeeper(account_service)
    notify_config = NotifyConfig(**{"public_url": account_service.settings.public_url or NotifyConfig.public_url,
                                    **(notify or {})})
    notifier = Notifier(storage.engine, notify_config, AccountsDirectory(storage.engine), account_service.mailer)
    notifier.db = storage
    service.lapses = Lapses(service)
    service.vacations = Vacations(service)
    watcher = MatchWatcher(notifier)
    service.watchers.append(watcher)
    chat = ChatService(storage.engine, redis_url, db=storage)
    chat.on_mention = watcher.mention
    chat.on_posted = service.chat_posted
    presence = social_presence.Presence(redis_url)
    service.presence = presence  # type: ignore[attr-defined]
    notifier.at_table = presence.at_tables  # no "your turn" for a player at the table on another process
    if service.fanout.shared:  # ... and, told by that process, none asked for either (``LiveMatch.seats_elsewhere``)
        presence.on_seats = lambda match_id, seats: service.fanout.publish(
            match_id, {"k": "p", "s": seats, "t": presence.ttl})
    notifier.housekeeping.append(chat.prune)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        if migrate:
            storage.migrate()
        await service.start()
        service.ai_seats.runner.warm()
        ratings.start()
        await notifier.start()
        await presence.start()
        collector.start()  # in a process ``serve`` tuned: its collector's freezer (collector.Freezer)
        log.info("server ready", extra={"database": storage.engine.url.render_as_string(hide_password=True),
                                        "server": service.server_id, "redis": bool(redis_url)})
        yield
        collector.stop()
        await presence.stop()
        await notifier.stop()
        if account_service.mailer is not None:
            account_service.mailer.close()  # the kept relay connections
        if getattr(_app.state, "workbench_runs", None) is not None:
            _app.state.workbench_runs.close()
        await ratings.stop()
        await service.stop()

    app = FastAPIOffline(title="spacetable", version=__version__, lifespan=lifespan, redoc_url=None,
                         static_url="/docs-static",
                         description="Play server for the spacetable games: lobby, seats, actions, replays.")
    app.state.ctx = Context(service, limits, RateLimiter(limits, redis_url))
    app.state.service = service
    app.state.limits = limits
    app.state.accounts = account_service
    app.state.ratings = ratings
    app.state.passkeys = Passkeys(account_service)
    app.state.notifier = notifier
    app.state.chat = chat
    app.state.presence = presence
    app.state.workbench = workbench or {}
    app.add_middleware(BodyGuard, max_body=limits.max_body)
    app.add_exception_handler(ServiceError, _service_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(Exception, _internal_error)
    # Starlette tries the routes one by one (about 140 here), so the areas a page polls every few seconds (chat,
    # presence, rematch offers, clocks, the bell) come right after the play routes, then the lobby, and the pages,
    # accounts and workbench last. No two routes match one path (test_no_route_hides_another), so the order changes
    # nothing else.
    polled = (chat_routes.router, social_presence.router, social_rematch.router, absence_routes.router,
              notify_routes.router)
    for router in (*PLAY, *polled, LOBBY, make_router(service), social_seeks.router, challenges_router, *ROUTERS,
                   balance_routes.router):
        add_routes(app, router)
    app.mount("/static", StaticFiles(directory=WEB_DIR / "static"), name="static")
    return app


#: the lifespan of a router that declares none
_PLAIN_LIFESPAN = type(APIRouter().lifespan_context)


def add_routes(app: FastAPI, router: APIRouter) -> None:
    r"""Put ``router``'s routes on the app itself, as ``@app.get`` would, instead of ``app.include_router``.

    FastAPI's ``include_router`` keeps each router behind a wrapper that works out, for every request, which of its
    routes match: several microseconds a route (its own bookkeeping around each one) where a route on the app
    itself costs one regular expression, and twice per request (once to find the router, once its route). With
    about 140 routes in 20 routers, a lobby call spent some 0.2 ms of the event loop in that walk
    (docs/architecture.md, "Where the time goes"). A route declared on an ``APIRouter`` already carries that
    router's prefix, tags, dependencies and schema setting, so nothing of the router is lost, as long as the router
    has no start-up or shutdown hooks, no lifespan and no routers of its own (checked here). Its routes are
    :class:`PrefixRoute`\ s, which turn away a path outside their literal prefix before trying their expression
    (``routing.py``)."""
    for route in router.routes:
        if not isinstance(route, PrefixRoute | APIWebSocketRoute):
            raise TypeError(f"add_routes: {route!r} is not a plain route of the router of class PrefixRoute "
                            "(APIRouter(route_class=PrefixRoute), server/routing.py)")
    if router.on_startup or router.on_shutdown or type(router.lifespan_context) is not _PLAIN_LIFESPAN:
        raise TypeError("add_routes: the router has its own start-up, shutdown or lifespan")
    app.router.routes.extend(router.routes)


def app_from_env() -> FastAPI:
    """The app of one worker of ``serve --workers N`` (uvicorn imports this factory in each process). The parent
    migrated the database before starting the workers. Each worker sets its own garbage collector
    (:func:`collector.tune`), as the single process of ``serve`` does."""
    settings: dict[str, Any] = json.loads(os.environ[SETTINGS_ENV])
    limits = Limits(**settings.pop("limits"))
    app = create_app(limits=limits, migrate=False, **settings)
    collector.tune()
    return app


def settings_json(database_url: str, limits: Limits, **options: Any) -> str:
    """What :func:`app_from_env` reads (``serve --workers N``)."""
    return json.dumps({"database_url": database_url, "limits": dataclasses.asdict(limits), **options})
