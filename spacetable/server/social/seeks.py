"""Open seeks of the lobby (issue 21, goal 2): a signed-in player posts a seek (game, options, rated or casual, turn
clock, an optional rating range); anybody else signed in whose rating for the game is in the range takes it and
both are seated at once (the poster on a seat drawn by chance). The poster may cancel an open seek.

Bounds: ``MAX_OPEN`` open seeks per account (409 ``too_many_seeks``), ``MAX_LISTED`` listed, seeks expire after
``EXPIRES`` seconds. Refusals change nothing: taking one's own seek (409 ``own_seek``), a rating outside the range
(403 ``out_of_range``), a player blocked either way (403 ``blocked``), a suspended account (403), a seek already
taken or cancelled (409 ``seek_closed``).

Routes: ``GET /api/seeks`` (open seeks, and the caller's own recent ones under ``mine``), ``POST /api/seeks``,
``POST /api/seeks/{id}/accept``, ``POST /api/seeks/{id}/cancel``.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from typing import Any

from fastapi import APIRouter, Request
from pydantic import Field, model_validator
from sqlalchemy import func, insert, select, update

from ..accounts.ratings import MODEL, ordinal
from ..challenges import checked_config, checked_time_control, match_time_args, time_fields
from ..errors import ServiceError
from ..notify.store import begin as store_begin
from ..routes.deps import Client, Ctx, seat_link
from ..routes.schemas import TimeChoice
from ..routes.session import Accounts, MaybeSession, Writer
from ..routing import PrefixRoute
from .models import SeekRow

MAX_OPEN = 3
MAX_LISTED = 100
EXPIRES = 86400.0
router = APIRouter(tags=["seeks"], route_class=PrefixRoute)
SEEK_COLS = SeekRow.__table__.c


class NewSeek(TimeChoice):
    game: str = Field(max_length=64)
    config: dict[str, Any] = Field(default_factory=dict)
    rated: bool = False
    turn_seconds: float | None = Field(default=None, ge=1, le=30 * 86400)
    min_rating: float | None = Field(default=None, ge=-1000, le=1000)
    max_rating: float | None = Field(default=None, ge=-1000, le=1000)

    @model_validator(mode="after")
    def _range(self) -> NewSeek:
        if self.min_rating is not None and self.max_rating is not None and self.min_rating > self.max_rating:
            raise ValueError("min_rating is above max_rating")
        return self


def _engine(request: Request) -> Any:
    return request.app.state.service.engine


def _rating(request: Request, account_id: str, game: str) -> float:
    """The account's rating for ``game`` (a newcomer's: the model's starting figure)."""
    with _engine(request).connect() as conn:
        from ..accounts.models import RatingRow

        row = conn.execute(select(RatingRow.ordinal).where(RatingRow.account_id == account_id,
                                                           RatingRow.game == game)).first()
    if row is not None:
        return float(row[0])
    start = MODEL.rating()
    return ordinal(float(start.mu), float(start.sigma))


def _public(row: Any, names: dict[str, dict[str, Any]], ratings: dict[str, float]) -> dict[str, Any]:
    who = names.get(row.account_id, {})
    return {"id": row.id, "game": row.game, "config": json.loads(row.config), "rated": row.rated,
            **time_fields(row), "min_rating": row.min_rating, "max_rating": row.max_rating,
            "status": row.status, "created_at": row.created_at, "by": who.get("username"),
            "by_name": who.get("display_name"), "by_rating": ratings.get(row.id)}


def _list(request: Request, account_id: str | None) -> dict[str, Any]:
    from ..accounts.models import AccountRow, RatingRow

    since = time.time() - EXPIRES
    with _engine(request).connect() as conn:
        rows = conn.execute(select(*SEEK_COLS).where(SeekRow.status == "open", SeekRow.created_at > since)
                            .order_by(SeekRow.created_at.desc()).limit(MAX_LISTED)).all()
        mine = [] if account_id is None else conn.execute(
            select(*SEEK_COLS).where(SeekRow.account_id == account_id, SeekRow.created_at > since)
            .order_by(SeekRow.created_at.desc()).limit(2 * MAX_OPEN + 5)).all()
        ids = {r.account_id for r in [*rows, *mine]}
        names = {r.id: {"username": r.username, "display_name": r.display_name} for r in conn.execute(
            select(AccountRow.id, AccountRow.username, AccountRow.display_name).where(AccountRow.id.in_(ids)))} \
            if ids else {}
        pairs = {(r.account_id, r.game) for r in rows}
        got = {(r.account_id, r.game): float(r.ordinal) for r in conn.execute(
            select(RatingRow.account_id, RatingRow.game, RatingRow.ordinal)
            .where(RatingRow.account_id.in_({a for a, _ in pairs})))} if pairs else {}
    start = MODEL.rating()
    base = ordinal(float(start.mu), float(start.sigma))
    ratings = {r.id: round(got.get((r.account_id, r.game), base), 3) for r in rows}
    out: dict[str, Any] = {"seeks": [_public(r, names, ratings) for r in rows if r.account_id in names]}
    if account_id is not None:
        out["mine"] = [{**_public(r, names, ratings), "match": r.match_id, "seat": r.seat} for r in mine]
    return out


@router.get("/api/seeks")
async def listing(request: Request, s: MaybeSession) -> dict[str, Any]:
    """The open seeks (newest first, at most ``MAX_LISTED``), each with its poster and the poster's rating; signed in,
    ``mine`` also lists the caller's recent seeks (a taken one with its match and the caller's seat)."""
    return await asyncio.to_thread(_list, request, s.account_id if s is not None else None)


@router.post("/api/seeks", status_code=201)
async def post(body: NewSeek, request: Request, c: Ctx, s: Writer, client: Client) -> dict[str, Any]:
    await c.limiter.hit("create", client)
    if await asyncio.to_thread(request.app.state.chat.suspended, s.account_id):
        raise ServiceError(403, "suspended", "this account is suspended")
    game, cfg = checked_config(body.game, body.config)
    seconds, tc = checked_time_control(c.service, game, body)
    if game.min_players > 2 or int(cfg.get("players", 2) or 2) != 2:
        raise ServiceError(422, "bad_config", "a seek is for two players")
    sid = secrets.token_urlsafe(12)
    now = time.time()
    row = {"id": sid, "account_id": s.account_id, "game": game.id, "config": json.dumps(cfg, sort_keys=True),
           "rated": body.rated, "turn_seconds": seconds, "time_control": tc, "min_rating": body.min_rating,
           "max_rating": body.max_rating, "status": "open", "match_id": None, "seat": None, "created_at": now}

    def job() -> bool:
        with store_begin(c.service.engine) as conn:
            n = conn.execute(select(func.count()).select_from(SeekRow).where(
                SeekRow.account_id == s.account_id, SeekRow.status == "open",
                SeekRow.created_at > now - EXPIRES)).scalar_one()
            if n >= MAX_OPEN:
                return False
            conn.execute(insert(SeekRow).values(**row))
            return True

    if not await asyncio.to_thread(job):
        raise ServiceError(409, "too_many_seeks", f"at most {MAX_OPEN} open seeks per player; cancel one first")
    return {"id": sid}


def _seek(request: Request, seek_id: str) -> Any:
    with _engine(request).connect() as conn:
        row = conn.execute(select(*SEEK_COLS).where(SeekRow.id == seek_id[:32])).first()
    if row is None:
        raise ServiceError(404, "no_such_seek", "no such seek")
    return row


@router.post("/api/seeks/{seek_id}/cancel")
async def cancel(seek_id: str, request: Request, s: Writer) -> dict[str, Any]:
    row = await asyncio.to_thread(_seek, request, seek_id)
    if row.account_id != s.account_id:
        raise ServiceError(403, "not_your_seek", "only its poster cancels a seek")

    def job() -> int:
        with store_begin(_engine(request)) as conn:
            return int(conn.execute(update(SeekRow).where(SeekRow.id == row.id, SeekRow.status == "open")
                                    .values(status="cancelled")).rowcount)

    if not await asyncio.to_thread(job):
        raise ServiceError(409, "seek_closed", "the seek was taken or cancelled already")
    return {"status": "cancelled"}


@router.post("/api/seeks/{seek_id}/accept")
async def accept(seek_id: str, request: Request, c: Ctx, a: Accounts, s: Writer) -> dict[str, Any]:
    row = await asyncio.to_thread(_seek, request, seek_id)
    if row.status != "open" or row.created_at < time.time() - EXPIRES:
        raise ServiceError(409, "seek_closed", "the seek was taken, cancelled or expired")
    if row.account_id == s.account_id:
        raise ServiceError(409, "own_seek", "this is your own seek: another player takes it")
    chat = request.app.state.chat
    if await asyncio.to_thread(chat.suspended, s.account_id):
        raise ServiceError(403, "suspended", "this account is suspended")
    if await asyncio.to_thread(chat.blocks, row.account_id, s.account_id) or \
            await asyncio.to_thread(chat.blocks, s.account_id, row.account_id):
        raise ServiceError(403, "blocked", "one of you blocked the other")
    if row.min_rating is not None or row.max_rating is not None:
        mine = await asyncio.to_thread(_rating, request, s.account_id, row.game)
        if (row.min_rating is not None and mine < row.min_rating) or \
                (row.max_rating is not None and mine > row.max_rating):
            raise ServiceError(403, "out_of_range", f"your rating {mine:.1f} is outside this seek's range")
    poster = await a.account(row.account_id)
    if poster is None:
        raise ServiceError(409, "seek_closed", "the poster's account is gone")
    theirs = secrets.randbelow(2)

    def claim() -> int:  # one taker only
        with store_begin(c.service.engine) as conn:
            return int(conn.execute(update(SeekRow).where(SeekRow.id == row.id, SeekRow.status == "open")
                                    .values(status="taken", seat=theirs)).rowcount)

    if not await asyncio.to_thread(claim):
        raise ServiceError(409, "seek_closed", "the seek was taken meanwhile")
    args = match_time_args(row)
    m, _ = await c.service.lobby.create(row.game, json.loads(row.config), None, "", {}, 1.0, args.pop("turn_seconds"),
                                        False, None, "", **args)
    mine_ = 1 - theirs
    # each seat bound to its account in its join's own transaction (the "your turn" of the start finds it)
    token_p = await a.seat_token(m.id, theirs, row.account_id)
    await a.join_seat(m.id, theirs, row.account_id, poster["display_name"], m.game.id, row.rated, token_p)
    token = await a.seat_token(m.id, mine_, s.account_id)
    await a.join_seat(m.id, mine_, s.account_id, s.account["display_name"], m.game.id, row.rated, token)
    c.service.watch(m, None, None)  # both seats bound: the poster is told that the match started

    def done() -> None:
        with store_begin(c.service.engine) as conn:
            conn.execute(update(SeekRow).where(SeekRow.id == row.id).values(match_id=m.id))

    await asyncio.to_thread(done)
    return {"match": m.id, "seat": mine_, "token": token, "link": seat_link(m.id, mine_, token)}
