"""Absent players' routes (issue 21):

* ``PUT /api/matches/{id}/lapse``: ``{"seat", "lapse", "agent"?}`` with the seat's token in ``X-Seat-Token``, before
  the first move; ``GET`` shows the match's policy;
* ``POST /api/matches/{id}/claim``: ``{"seat"}`` with the seat's token: a waiting seat claims the win once the
  absent seat's time is out (409 before);
* ``GET /api/matches/{id}/clock``: the time control, the seats' banks (increment), the deadline of each seat to
  act (a vacation counted) and the seats whose accounts are on vacation;
* ``GET``/``PUT /api/account/vacation``: ``{"on": true|false}`` (a signed-in account, CSRF token).
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Header, Request
from pydantic import Field

from ..routes.deps import Client, Ctx
from ..routes.schemas import Body
from ..routes.session import Signed, Writer
from ..routing import PrefixRoute
from . import Lapses, Vacations

router = APIRouter(tags=["absent players"], route_class=PrefixRoute)
SeatToken = Annotated[str | None, Header(max_length=128)]


class LapseBody(Body):
    seat: int = Field(ge=0, le=64)
    lapse: Literal["forfeit", "claim", "computer", "pass"]
    agent: str | None = Field(default=None, max_length=64)


class ClaimBody(Body):
    seat: int = Field(ge=0, le=64)


class VacationBody(Body):
    on: bool


def lapses(request: Request) -> Lapses:
    found: Lapses = request.app.state.service.lapses
    return found


def vacations(request: Request) -> Vacations:
    found: Vacations = request.app.state.service.vacations
    return found


@router.put("/api/matches/{match_id}/lapse")
async def set_lapse(match_id: str, body: LapseBody, request: Request, x_seat_token: SeatToken = None) -> dict[str, Any]:
    return await lapses(request).set(match_id, body.seat, x_seat_token, body.lapse, body.agent)


@router.get("/api/matches/{match_id}/lapse")
async def get_lapse(match_id: str, request: Request) -> dict[str, Any]:
    await request.app.state.service.get(match_id)  # 404 for an unknown match
    lapse, agent = await asyncio.to_thread(lapses(request).policy, match_id)
    return {"lapse": lapse, "agent": agent}


@router.post("/api/matches/{match_id}/claim")
async def claim(match_id: str, body: ClaimBody, request: Request, c: Ctx, client: Client,
                x_seat_token: SeatToken = None) -> dict[str, Any]:
    await c.limiter.hit("act", client)  # a claim plays an action: the play rate limit
    return await lapses(request).claim(match_id, body.seat, x_seat_token)


@router.get("/api/matches/{match_id}/clock")
async def clock(match_id: str, request: Request) -> dict[str, Any]:
    service = request.app.state.service
    m = await service.get(match_id)
    lapse, _agent = await asyncio.to_thread(lapses(request).policy, match_id)
    away = await vacations(request).seats_away(m)
    due = {str(s): await service.clocks.due(m, s) for s in m.to_act()}
    now = service.clocks.now()
    return {
        "kind": m.clock_kind or ("move" if m.turn_seconds else "none"), "turn_seconds": m.turn_seconds,
        "increment": m.clock_increment, "lapse": lapse, "now": now,
        "banks": m.banks() if m.clock_kind == "increment" else None,
        "turn_started_at": m.turn_started_at if m.status == "running" else None,
        "due": due, "lapsed": [int(s) for s, t in due.items() if t is not None and t <= now],
        "vacation": {str(s): until for s, until in away.items()},
    }


@router.get("/api/account/vacation")
async def vacation(request: Request, s: Signed) -> dict[str, Any]:
    return await asyncio.to_thread(vacations(request).status, s.account_id)


@router.put("/api/account/vacation")
async def set_vacation(body: VacationBody, request: Request, s: Writer) -> dict[str, Any]:
    return await vacations(request).turn(s.account_id, body.on)
