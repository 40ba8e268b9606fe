"""Chat routes (issue 21). A seat shows its token in ``X-Seat-Token`` (as for its state).

* ``GET /api/matches/{id}/chat?room=players&seat=N&after=ID&lang=fr``: the messages after ``after`` (the
  players' room for a seat only; the spectators' room for anybody) and the rooms the match has;
* ``POST /api/matches/{id}/chat``: ``{"room", "seat", "text"}`` or ``{"room", "seat", "quick"}``;
* ``POST /api/matches/{id}/chat/{message}/report``: ``{"seat", "reason"}``;
* ``POST /api/account/blocks``: ``{"username", "blocked"}`` (a signed-in account, CSRF token): the blocked
  account's messages are no longer shown to it.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Header, Query, Request
from pydantic import Field

from ..errors import ServiceError
from ..notify.events import seat_accounts
from ..presentation import pick_lang
from ..routes.deps import Ctx
from ..routes.schemas import Body
from ..routes.session import MaybeSession, Writer, accounts, write_session
from ..routing import PrefixRoute
from .service import MAX_CHARS, ChatService, rooms_open
from .service import Writer as ChatWriter

router = APIRouter(tags=["chat"], route_class=PrefixRoute)
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
async def read(match_id: str, c: Ctx, request: Request, s: MaybeSession, room: Literal["players", "spectators"] = "players",
               seat: int | None = None, after: Annotated[int, Query(ge=0)] = 0, lang: str | None = None,
               x_seat_token: SeatToken = None) -> dict[str, Any]:
    m = await c.service.get(match_id)
    if room == "players":
        if seat is None:
            raise ServiceError(403, "bad_token", "the players' chat is for the players (seat and token)")
        await c.service.authorize(m, seat, x_seat_token)
    elif m.status != "finished":
        await players_wait(c, m, seat, s)
    rooms = rooms_open(m)
    language = pick_lang(lang or request.headers.get("accept-language"))
    reader = s.account_id if s is not None else None
    messages = await chat(request).read(m.id, room, after, language, reader) if room in rooms else []
    return {"rooms": list(rooms), "messages": messages}


async def players_wait(c: Any, m: Any, seat: int | None, s: Any) -> None:
    """As on lichess, the players do not read the spectators' chat while their match is on (what the spectators
    say about the position must not reach them); they read it once it is over. A seat named in the request, or
    a signed-in account seated in the match, is refused until then."""
    seated = seat is not None
    if not seated and s is not None:
        seated = s.account_id in (await asyncio.to_thread(seat_accounts, c.service.engine, m.id)).values()
    if seated:
        raise ServiceError(403, "players_wait", "the players read the spectators' chat once the match is over")


@router.post("/api/matches/{match_id}/chat", status_code=201)
async def post(match_id: str, body: ChatPost, c: Ctx, request: Request, s: MaybeSession,
               x_seat_token: SeatToken = None) -> dict[str, Any]:
    m = await c.service.get(match_id)
    if body.room == "spectators":
        return await post_spectator(m, body, c, request, s)
    if body.seat is None:
        raise ServiceError(403, "bad_token", "write as a seated player (seat and token)")
    await c.service.authorize(m, body.seat, x_seat_token)
    if body.room != "players":
        raise ServiceError(403, "players_room", "a seated player writes in the players' chat")
    return await chat(request).post_for_seat(m, body.seat, body.text, body.quick)


async def post_spectator(m: Any, body: ChatPost, c: Any, request: Request, s: Any) -> dict[str, Any]:
    """The spectators' room: written by a signed-in account that holds no seat of the match (a report then names an
    account); the same bounds, rate, escaping and moderation as the players' room."""
    if body.seat is not None:
        raise ServiceError(403, "spectators_room", "a seated player writes in the players' chat")
    if s is None:
        raise ServiceError(401, "sign_in", "sign in to write in the spectators' chat")
    s = await write_session(request)  # the CSRF token, as every signed-in change
    if s.account_id in (await chat(request).seat_accounts(m.id)).values():
        raise ServiceError(403, "spectators_room", "a seated player writes in the players' chat")
    writer = ChatWriter(str(s.account["display_name"]), seat=None, account_id=s.account_id)
    return await chat(request).post(m, "spectators", writer, body.text, body.quick)


@router.post("/api/matches/{match_id}/chat/{message_id}/report", status_code=201)
async def report(match_id: str, message_id: int, body: ChatReport, c: Ctx, request: Request,
                 x_seat_token: SeatToken = None) -> dict[str, bool]:
    m = await c.service.get(match_id)
    if body.seat is None:
        raise ServiceError(403, "bad_token", "report as a seated player (seat and token)")
    await c.service.authorize(m, body.seat, x_seat_token)
    new = await chat(request).report(m.id, message_id, f"seat:{m.id}:{body.seat}", body.reason)
    return {"reported": True, "new": new}


class BlockBody(Body):
    username: str = Field(max_length=64)
    blocked: bool = True


@router.post("/api/account/blocks")
async def block(body: BlockBody, request: Request, s: Writer) -> dict[str, Any]:
    other = await accounts(request).by_username(body.username)
    if other is None:
        raise ServiceError(404, "no_such_player", "no such player")
    await asyncio.to_thread(chat(request).block, s.account_id, str(other["id"]), body.blocked)
    return {"username": other["username"], "blocked": body.blocked}
