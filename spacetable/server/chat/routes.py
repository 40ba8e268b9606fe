"""Chat routes (issue 21). A seat shows its token in ``X-Seat-Token`` (as for its state).

* ``GET /api/matches/{id}/chat?room=players&seat=N&after=ID&lang=fr``: the messages after ``after`` (the
  players' room for a seat only; the spectators' room for anybody) and the rooms the match has;
* ``POST /api/matches/{id}/chat``: ``{"room", "seat", "text"}`` or ``{"room", "seat", "quick"}``;
* ``POST /api/matches/{id}/chat/{message}/report``: ``{"seat", "reason"}``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Header, Query, Request
from pydantic import Field

from ..errors import ServiceError
from ..presentation import pick_lang
from ..routes.deps import Ctx
from ..routes.schemas import Body
from .service import MAX_CHARS, ChatService, Writer, rooms_open

router = APIRouter(tags=["chat"])
SeatToken = Annotated[str | None, Header(max_length=128)]


class ChatPost(Body):
    room: Literal["players", "spectators"] = "players"
    seat: int | None = Field(default=None, ge=0, le=64)
    text: str | None = Field(default=None, max_length=MAX_CHARS)
    quick: str | None = Field(default=None, max_length=24)


class ChatReport(Body):
    seat: int | None = Field(default=None, ge=0, le=64)
    reason: str = Field(default="", max_length=300)


def chat(request: Request) -> ChatService:
    service: ChatService = request.app.state.chat
    return service


@router.get("/api/matches/{match_id}/chat")
async def read(match_id: str, c: Ctx, request: Request, room: Literal["players", "spectators"] = "players",
               seat: int | None = None, after: Annotated[int, Query(ge=0)] = 0, lang: str | None = None,
               x_seat_token: SeatToken = None) -> dict[str, Any]:
    m = await c.service.get(match_id)
    if room == "players":
        if seat is None:
            raise ServiceError(403, "bad_token", "the players' chat is for the players (seat and token)")
        await c.service.authorize(m, seat, x_seat_token)
    rooms = rooms_open(m)
    language = pick_lang(lang or request.headers.get("accept-language"))
    messages = await chat(request).read(m.id, room, after, language, None) if room in rooms else []
    return {"rooms": list(rooms), "messages": messages}


@router.post("/api/matches/{match_id}/chat", status_code=201)
async def post(match_id: str, body: ChatPost, c: Ctx, request: Request, x_seat_token: SeatToken = None) -> dict[str, Any]:
    m = await c.service.get(match_id)
    if body.seat is None:
        raise ServiceError(403, "bad_token", "write as a seated player (seat and token)")
    await c.service.authorize(m, body.seat, x_seat_token)
    if body.room != "players":
        raise ServiceError(403, "players_room", "a seated player writes in the players' chat")
    writer = Writer(m.seats[body.seat].name, seat=body.seat)
    return await chat(request).post(m, body.room, writer, body.text, body.quick)


@router.post("/api/matches/{match_id}/chat/{message_id}/report", status_code=201)
async def report(match_id: str, message_id: int, body: ChatReport, c: Ctx, request: Request,
                 x_seat_token: SeatToken = None) -> dict[str, bool]:
    m = await c.service.get(match_id)
    if body.seat is None:
        raise ServiceError(403, "bad_token", "report as a seated player (seat and token)")
    await c.service.authorize(m, body.seat, x_seat_token)
    new = await chat(request).report(m.id, message_id, f"seat:{m.id}:{body.seat}", body.reason)
    return {"reported": True, "new": new}
