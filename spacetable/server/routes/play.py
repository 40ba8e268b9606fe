"""Play routes: a seat's state, actions, legal actions, undo (SRV-A1..A3, SRV-L2, SRV-L3, SRV-U*)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Header, Query

from ..legal import legal_page
from ..routing import PrefixRoute
from .deps import Client, Ctx, TokenGate
from .schemas import PlayAction, UndoBody

router = APIRouter(dependencies=[TokenGate], route_class=PrefixRoute)  # every route here checks a seat token
SeatToken = Annotated[str | None, Header(max_length=128)]


@router.get("/api/matches/{match_id}/state")
async def state(match_id: str, c: Ctx, seat: int | None = None, x_seat_token: SeatToken = None) -> dict[str, Any]:
    """A seat's snapshot (header ``X-Seat-Token``), or the spectator's without ``seat``."""
    m = await c.service.get(match_id)
    if seat is not None:
        await c.service.authorize(m, seat, x_seat_token)
    return c.service.snapshot(m, seat)


@router.post("/api/matches/{match_id}/actions")
async def act(match_id: str, body: PlayAction, c: Ctx, client: Client) -> dict[str, Any]:
    await c.limiter.hit("act", client)
    version = await c.service.act(match_id, body.seat, body.token, body.version, body.action)
    return {"version": version, "match": await c.service.summary(match_id)}


@router.get("/api/matches/{match_id}/legal")
async def legal(match_id: str, seat: int, c: Ctx, offset: Annotated[int, Query(ge=0)] = 0, limit: int = 1000,
                x_seat_token: SeatToken = None) -> dict[str, Any]:
    """SRV-L2: a page of the seat's legal actions (header ``X-Seat-Token``)."""
    m = await c.service.get(match_id)
    await c.service.authorize(m, seat, x_seat_token)
    return legal_page(m, seat, offset, limit)


@router.post("/api/matches/{match_id}/legal/check")
async def check_legal(match_id: str, body: PlayAction, c: Ctx, client: Client) -> dict[str, Any]:
    """SRV-L3: would this action be accepted now? Nothing is stored or changed."""
    await c.limiter.hit("check", client)
    return await c.service.check_action(match_id, body.seat, body.token, body.version, body.action)


@router.post("/api/matches/{match_id}/undo")
async def undo(match_id: str, body: UndoBody, c: Ctx, client: Client) -> dict[str, Any]:
    await c.limiter.hit("act", client)
    return await c.service.undo.request(match_id, body.seat, body.token)


@router.post("/api/matches/{match_id}/undo/accept")
async def undo_accept(match_id: str, body: UndoBody, c: Ctx, client: Client) -> dict[str, Any]:
    await c.limiter.hit("act", client)
    return await c.service.undo.answer(match_id, body.seat, body.token, True)


@router.post("/api/matches/{match_id}/undo/decline")
async def undo_decline(match_id: str, body: UndoBody, c: Ctx, client: Client) -> dict[str, Any]:
    await c.limiter.hit("act", client)
    return await c.service.undo.answer(match_id, body.seat, body.token, False)
