"""Rematch and "Play again" (issue 21, goal 2).

After a match is over, a player offers a rematch with their seat's token; once every human seat agreed, a new match
is made with the same game, options, turn clock and computer time, and every player gets a seat of it:

* between people the seats move on by one (two players swap seats), the computer seats stay where they were;
* with a single human seat (against the computer), the offer alone makes the new match at once: "Play again",
  the player keeps their seat.

A seat held by an account is bound to the same account in the new match (a rated match's rematch is rated too); a
guest's new token is derived from the server's seat key and the hash of their old token, so only the holder of the
old token can read it back (``GET`` with ``X-Seat-Token``), and no token is stored. Any player may decline an open
offer (final for that match); an offer not taken within ``EXPIRES`` seconds lapses and may be made again.

Routes: ``GET /api/matches/{id}/rematch`` (``X-Seat-Token`` and ``seat`` to read one's new seat),
``POST /api/matches/{id}/rematch`` and ``/rematch/decline`` (body: ``seat``, ``token``).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import time
from typing import Annotated, Any

from fastapi import APIRouter, Header, Request
from pydantic import Field
from sqlalchemy import insert, select, update

from ..accounts.service import b64url
from ..clocks import clock_spec
from ..errors import ServiceError
from ..live import LiveMatch
from ..notify.store import begin as store_begin
from ..routes.deps import Ctx, TokenGate, seat_link
from ..routes.schemas import Body, Token
from ..routes.session import Accounts
from ..routing import PrefixRoute
from .models import RematchRow

EXPIRES = 86400.0
router = APIRouter(tags=["rematch"], route_class=PrefixRoute)
COLS = RematchRow.__table__.c
SeatToken = Annotated[str | None, Header(max_length=128)]


class SeatBody(Body):
    seat: int = Field(ge=0, le=64)
    token: Token


def humans(m: LiveMatch) -> list[int]:
    return [i for i, s in enumerate(m.seats) if s.kind == "human"]


def new_seat(m: LiveMatch, seat: int) -> int:
    """Where the player of ``seat`` sits in the rematch: people move on by one among the human seats (two swap);
    alone against the computer, the same seat."""
    hs = humans(m)
    return hs[(hs.index(seat) + 1) % len(hs)]


def _row(engine: Any, match_id: str) -> Any:
    with engine.connect() as conn:
        return conn.execute(select(*COLS).where(RematchRow.match_id == match_id)).first()


def _public(row: Any, m: LiveMatch) -> dict[str, Any]:
    if row is None:
        return {"status": "none", "agreed": [], "match": None, "humans": humans(m)}
    status = row.status
    if status == "open" and row.created_at < time.time() - EXPIRES:
        status = "expired"
    return {"status": status, "agreed": json.loads(row.agreed) if status == "open" else [],
            "match": row.new_match_id, "humans": humans(m)}


async def _finished(c: Any, match_id: str) -> LiveMatch:
    if len(match_id) > 32:
        raise ServiceError(404, "no_such_match", "no such match")
    m: LiveMatch = await c.service.get(match_id)
    if m.status != "finished":
        raise ServiceError(409, "match_not_over", "a rematch is offered once the match is over")
    return m


async def _guest_token(a: Any, new_id: str, seat: int, old_hash: str) -> str:
    mac = hmac.new(await a.seat_key(), f"rematch:{new_id}:{seat}:{old_hash}".encode(), hashlib.sha256).digest()
    return b64url(mac[:18])


async def _bound(c: Any, m: LiveMatch) -> dict[int, str]:
    """The seats of ``m`` held by accounts (the binding still valid: the seat kept the account's token)."""
    rows = await c.service.storage.read(lambda tx: tx.fetch(
        "SELECT b.seat, b.account_id, b.token_hash FROM account_seats b WHERE b.match_id = :m AND b.account_id IS NOT "
        "NULL", {"m": m.id}))
    return {int(r["seat"]): str(r["account_id"]) for r in rows
            if 0 <= int(r["seat"]) < len(m.seats) and m.seats[int(r["seat"])].token_hash == r["token_hash"]}


async def _your_link(c: Any, a: Any, m: LiveMatch, row: Any, seat: int, token_hash: str) -> dict[str, Any]:
    """The caller's seat of the rematch (it exists once the new match is made)."""
    if row is None or row.status != "accepted" or row.new_match_id is None:
        return {}
    seat2 = new_seat(m, seat)
    bound = await _bound(c, m)
    if seat in bound:
        token = await a.seat_token(row.new_match_id, seat2, bound[seat])
    else:
        token = await _guest_token(a, row.new_match_id, seat2, token_hash)
    return {"seat": seat2, "token": token, "link": seat_link(row.new_match_id, seat2, token)}


async def _make(c: Any, a: Any, m: LiveMatch) -> str:
    """The new match, every human seat taken by the same player (moved on), the computer seats as they were."""
    ai = {i: s.agent for i, s in enumerate(m.seats) if s.kind == "ai"}
    clock = clock_spec(m.clock_kind, m.turn_seconds, m.clock_increment)  # the same time control
    lapses = getattr(c.service, "lapses", None)  # and what a lapse does (server/absence)
    lapse, agent = await asyncio.to_thread(lapses.policy, m.id) if lapses is not None else ("forfeit", None)
    new, _ = await c.service.lobby.create(m.game.id, m.config, None, m.name, ai, m.ai_seconds,
                                          None if clock else m.turn_seconds, m.open_seed, None, "", clock=clock,
                                          lapse=None if lapse == "forfeit" else lapse, lapse_agent=agent)
    bound = await _bound(c, m)
    rated = await a.is_rated(m.id)
    for seat in humans(m):
        seat2 = new_seat(m, seat)
        old = m.seats[seat]
        if seat in bound:
            token = await a.seat_token(new.id, seat2, bound[seat])
            await a.join_seat(new.id, seat2, bound[seat], old.name, new.game.id, rated, token)  # bound as it joins
        else:
            token = await _guest_token(a, new.id, seat2, old.token_hash or "")
            await c.service.join(new.id, seat2, old.name, token)
    c.service.watch(new, None, None)  # the accounts are told that the new match started
    return str(new.id)


@router.get("/api/matches/{match_id}/rematch", dependencies=[TokenGate])
async def show(match_id: str, request: Request, c: Ctx, a: Accounts, seat: int | None = None,
               x_seat_token: SeatToken = None) -> dict[str, Any]:
    """The rematch offer of a finished match; with ``seat`` and the seat's token, the caller's seat in the new match
    once it is made."""
    m = await _finished(c, match_id)
    row = await asyncio.to_thread(_row, c.service.engine, m.id)
    out = _public(row, m)
    if seat is not None:
        digest = await c.service.authorize(m, seat, x_seat_token)
        out["yours"] = await _your_link(c, a, m, row, seat, digest)
    return out


@router.post("/api/matches/{match_id}/rematch", dependencies=[TokenGate])
async def offer(match_id: str, body: SeatBody, request: Request, c: Ctx, a: Accounts) -> dict[str, Any]:
    """Offer or agree to a rematch as ``seat``; the last agreement makes the new match."""
    m = await _finished(c, match_id)
    digest = await c.service.authorize(m, body.seat, body.token)
    await c.limiter.hit("join", request.client.host if request.client else None)
    everyone = set(humans(m))
    engine = c.service.engine

    def agree() -> tuple[str, Any]:
        now = time.time()
        with store_begin(engine) as conn:
            row = conn.execute(select(*COLS).where(RematchRow.match_id == m.id)).first()
            if row is None:
                agreed = {body.seat}
                status = "accepted" if agreed >= everyone else "open"
                conn.execute(insert(RematchRow).values(match_id=m.id, agreed=json.dumps(sorted(agreed)), status=status,
                                                       new_match_id=None, created_at=now))
                return ("make" if status == "accepted" else "open"), None
            if row.status == "declined":
                return "declined", row
            if row.status == "accepted":
                return "accepted", row
            expired = row.created_at < now - EXPIRES
            agreed = {body.seat} if expired else {*json.loads(row.agreed), body.seat}
            status = "accepted" if agreed >= everyone else "open"
            n = conn.execute(update(RematchRow).where(RematchRow.match_id == m.id, RematchRow.status == "open",
                                                      RematchRow.agreed == row.agreed)
                             .values(agreed=json.dumps(sorted(agreed)), status=status,
                                     created_at=now if expired else row.created_at)).rowcount
            if not n:
                return "retry", None
            return ("make" if status == "accepted" else "open"), None

    for _ in range(5):
        what = (await asyncio.to_thread(agree))[0]
        if what != "retry":
            break
    else:
        raise ServiceError(409, "busy", "the offer changed meanwhile; try again")
    if what == "declined":
        raise ServiceError(409, "rematch_declined", "the rematch was declined")
    if what == "make":
        new_id = await _make(c, a, m)

        def done() -> None:
            with store_begin(engine) as conn:
                conn.execute(update(RematchRow).where(RematchRow.match_id == m.id).values(new_match_id=new_id))

        await asyncio.to_thread(done)
    row = await asyncio.to_thread(_row, engine, m.id)
    return {**_public(row, m), "yours": await _your_link(c, a, m, row, body.seat, digest)}


@router.post("/api/matches/{match_id}/rematch/decline", dependencies=[TokenGate])
async def decline(match_id: str, body: SeatBody, c: Ctx) -> dict[str, Any]:
    m = await _finished(c, match_id)
    await c.service.authorize(m, body.seat, body.token)
    now = time.time()

    def job() -> int:
        with store_begin(c.service.engine) as conn:
            row = conn.execute(select(*COLS).where(RematchRow.match_id == m.id)).first()
            if row is None or row.status != "open" or row.created_at < now - EXPIRES:
                return 0
            return int(conn.execute(update(RematchRow).where(RematchRow.match_id == m.id, RematchRow.status == "open")
                                    .values(status="declined")).rowcount)

    if not await asyncio.to_thread(job):
        raise ServiceError(409, "no_offer", "there is no open rematch offer to decline")
    return _public(await asyncio.to_thread(_row, c.service.engine, m.id), m)
