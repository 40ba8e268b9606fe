"""``PUT /api/matches/{id}/lapse``: ``{"seat", "lapse": "forfeit" | "computer", "agent"?}`` with the seat's token in
``X-Seat-Token``, before the first move; ``GET`` shows the match's policy."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Header, Request
from pydantic import Field

from ..routes.schemas import Body
from . import Lapses

router = APIRouter(tags=["absent players"])


class LapseBody(Body):
    seat: int = Field(ge=0, le=64)
    lapse: Literal["forfeit", "computer"]
    agent: str | None = Field(default=None, max_length=64)


def lapses(request: Request) -> Lapses:
    found: Lapses = request.app.state.service.lapses
    return found


@router.put("/api/matches/{match_id}/lapse")
async def set_lapse(match_id: str, body: LapseBody, request: Request,
                    x_seat_token: Annotated[str | None, Header(max_length=128)] = None) -> dict[str, Any]:
    return await lapses(request).set(match_id, body.seat, x_seat_token, body.lapse, body.agent)


@router.get("/api/matches/{match_id}/lapse")
async def get_lapse(match_id: str, request: Request) -> dict[str, Any]:
    import asyncio

    await request.app.state.service.get(match_id)  # 404 for an unknown match
    lapse, agent = await asyncio.to_thread(lapses(request).policy, match_id)
    return {"lapse": lapse, "agent": agent}
