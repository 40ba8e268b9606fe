"""Lobby routes: health, games, catalogue, match lists, creation, seats (SRV-L*, SRV-A3, SRV-A5, SRV-X4)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, Response
from fastapi.responses import JSONResponse

from spacetable import __version__
from spacetable.core import catalog
from spacetable.games import available, get_game

from ..absence import has_pass
from ..accounts.service import AccountService
from ..ai import agent_registry
from ..collector import PAUSES
from ..errors import error_body
from ..meter import METER
from ..routing import PrefixRoute
from .deps import Client, Ctx, TokenGate, seat_link
from .pages import packaged_flags
from .schemas import AddAI, CreateMatch, JoinSeat, SeatAuth
from .session import guest_may_join
from .workbench import with_content_set

router = APIRouter(route_class=PrefixRoute)


@router.get("/health")
async def health(c: Ctx) -> dict[str, Any]:
    """Liveness of this process: matches in memory, open sockets, the process id, database and fan-out kinds, the
    hot path's counters and the garbage collector's settings and pauses."""
    s = c.service
    return {"status": "ok", "version": __version__, "matches": len(s.matches), "sockets": s.sockets,
            "server": s.server_id, "database": s.storage.dialect, "fanout": "redis" if s.fanout.shared else "local",
            "fanout_ok": s.fanout.healthy(), "notices_sent": s.fanout.sent, "notices_received": s.fanout.received,
            "ai_moves": s.ai_seats.moves, "taken_over": s.leases.taken_over, "conflicts": s.conflicts,
            "dropped": s.catchup.dropped,
            "ai_lanes": s.ai_seats.runner.scheduler.stats(),
            "appends": {"commits": s.storage.batches, "actions": s.storage.appended},
            "hotpath": METER.snapshot(), "gc": PAUSES.snapshot()}


@router.get("/health/ready", responses={503: {"description": "the database or Redis cannot be reached"}})
async def ready(c: Ctx) -> Any:
    """Readiness: the database answers a query and, with Redis, the fan-out is connected (503 otherwise)."""
    s = c.service
    problems = []
    try:
        await s.storage.read(lambda tx: tx.fetch("SELECT 1 AS one"))
    except Exception:
        problems.append("database")
    if not s.fanout.healthy():
        problems.append("redis")
    if problems:
        return JSONResponse(status_code=503, content=error_body(503, "not_ready", "cannot reach: " + ", ".join(problems)))
    return {"status": "ready", "server": s.server_id}


@router.get("/api/games")
async def games() -> list[dict[str, Any]]:
    """The games with their options (numeric ones with minimum and maximum), AI agents and catalogue data."""
    out = []
    listing = catalog.listing()  # once per request, not per game (it reads the operator's folders)
    for gid in available():
        g = get_game(gid)
        agents, default = agent_registry(g)
        out.append({
            "id": gid, "name": g.name, "min_players": g.min_players, "max_players": g.max_players,
            "options": [o.to_json() for o in g.options()], "agents": sorted(agents), "default_agent": default,
            "hidden_information": g.hidden_information, "stochastic": g.stochastic,
            "renderer": packaged_flags(gid)[0],
            "catalog": listing.get(gid, {}),
            "lapse_pass": has_pass(g),  # issue 21: the rules name a move for an absent seat
        })
    return out


@router.get("/api/catalog")
async def data_catalog() -> dict[str, dict[str, list[str]]]:
    """Named data a config may choose (``{game: {kind: [names]}}``): bundled and the operator's."""
    return catalog.listing()


@router.get("/api/matches")
async def list_matches(
    c: Ctx, response: Response, status: Annotated[str | None, Query(pattern="^(open|running|finished)$")] = None,
    game: Annotated[str | None, Query(max_length=64)] = None, offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
    limit: Annotated[int, Query(ge=1, le=1000)] = 50,
) -> list[dict[str, Any]]:
    """One page of the lobby, most recently updated first (``X-Next-Offset`` when more follow)."""
    page, more = await c.service.lobby.page(status, game, offset, min(limit, c.limits.lobby_page_max))
    if more:
        response.headers["X-Next-Offset"] = str(offset + len(page))
    return page


@router.post("/api/matches", status_code=201)
async def create_match(body: CreateMatch, request: Request, c: Ctx, client: Client) -> dict[str, Any]:
    await c.limiter.hit("create", client)
    config = await with_content_set(request, body)
    m, token = await c.service.lobby.create(body.game, config, body.seed, body.name, body.ai_seats, body.ai_seconds,
                                      body.turn_seconds, body.open_seed, body.join_seat, body.player_name,
                                      client=client, clock=body.clock.model_dump(exclude_none=True) if body.clock else None,
                                      lapse=body.lapse, lapse_agent=body.lapse_agent)
    out: dict[str, Any] = {"match": m.summary()}
    if token is not None and body.join_seat is not None:
        out.update(seat=body.join_seat, token=token, link=seat_link(m.id, body.join_seat, token))
    return out


@router.get("/api/matches/{match_id}")
async def get_match(match_id: str, c: Ctx) -> dict[str, Any]:
    return await c.service.summary(match_id)


@router.get("/api/matches/{match_id}/config")
async def get_config(match_id: str, c: Ctx) -> dict[str, Any]:
    """The whole config, with a player's own content (maps, card sets, scenarios) that summaries abbreviate."""
    return await c.service.lobby.full_config(match_id)


@router.post("/api/matches/{match_id}/seats/{seat}/join")
async def join(match_id: str, seat: int, body: JoinSeat, request: Request, c: Ctx, client: Client) -> dict[str, Any]:
    await c.limiter.hit("join", client)
    # a rated match takes accounts only: checked in the join's own transaction
    accounts: AccountService | None = getattr(request.app.state, "accounts", None)
    token = await c.service.join(match_id, seat, body.name,
                                 also=None if accounts is None else accounts.guests_only_casual(match_id))
    return {"seat": seat, "token": token, "link": seat_link(match_id, seat, token), "match": await c.service.summary(match_id)}


@router.post("/api/matches/{match_id}/seats/{seat}/leave", dependencies=[TokenGate])
async def leave(match_id: str, seat: int, body: SeatAuth, c: Ctx, client: Client) -> dict[str, Any]:
    await c.limiter.hit("join", client)
    await c.service.leave(match_id, seat, body.token)
    return await c.service.summary(match_id)


@router.post("/api/matches/{match_id}/seats/{seat}/ai", dependencies=[TokenGate])
async def add_ai(match_id: str, seat: int, body: AddAI, request: Request, c: Ctx, client: Client) -> dict[str, Any]:
    await c.limiter.hit("join", client)
    await guest_may_join(request, match_id)
    await c.service.set_ai(match_id, seat, body.agent, body.by_seat, body.token, client)
    return await c.service.summary(match_id)
