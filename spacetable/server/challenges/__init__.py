"""Challenges (issue 21): an account challenges a named player, or anybody holding the link, to a match (game,
options, rated or casual, turn clock); the other accepts (the match is made with both accounts seated) or
declines; the challenger may withdraw it. A player who blocked the challenger cannot be challenged by them
(403 ``blocked``), a suspended account challenges nobody. The challenged account is told (kind ``challenge``).

Routes (a signed-in account; changes need the CSRF token): ``POST /api/challenges``, ``GET /api/challenges``
(open ones, to and from the account), ``GET /api/challenges/{id}``, ``POST /api/challenges/{id}/accept``,
``POST /api/challenges/{id}/decline``. Open challenges expire after 7 days.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from typing import Any

from fastapi import APIRouter, Request
from pydantic import Field
from sqlalchemy import Boolean, Float, Integer, String, Text, insert, select, update
from sqlalchemy.orm import Mapped, mapped_column

from spacetable.games import UnknownGame, get_game

from ..clocks import time_control
from ..db import Base
from ..errors import ServiceError
from ..notify.store import Event
from ..notify.store import begin as store_begin
from ..routes.deps import Client, Ctx, seat_link
from ..routes.schemas import TimeChoice
from ..routes.session import Accounts, Signed, Writer
from ..routing import PrefixRoute

EXPIRES = 7 * 86400.0
router = APIRouter(tags=["challenges"], route_class=PrefixRoute)


class ChallengeRow(Base):
    __tablename__ = "challenges"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    from_account: Mapped[str] = mapped_column(String(64), index=True)
    #: the challenged account; ``None``: whoever opens the link
    to_account: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    game: Mapped[str] = mapped_column(String(32))
    config: Mapped[str] = mapped_column(Text)
    rated: Mapped[bool] = mapped_column(Boolean)
    turn_seconds: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: JSON ``{"clock", "lapse", "lapse_agent"}``: the match's time control and lapse policy as the creation form
    #: gives them (:func:`checked_time_control`); ``None``: ``turn_seconds`` alone (per move) or no clock
    time_control: Mapped[str | None] = mapped_column(Text, nullable=True)
    #: the challenger's seat
    seat: Mapped[int] = mapped_column(Integer)
    #: open | accepted | declined | withdrawn
    status: Mapped[str] = mapped_column(String(12))
    match_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created_at: Mapped[float] = mapped_column(Float)


class NewChallenge(TimeChoice):
    username: str | None = Field(default=None, max_length=64, description="the challenged player; none: a link")
    game: str = Field(max_length=64)
    config: dict[str, Any] = Field(default_factory=dict)
    rated: bool = False
    turn_seconds: float | None = Field(default=None, ge=1, le=30 * 86400)
    seat: int = Field(default=0, ge=0, le=1)


def time_fields(row: Any) -> dict[str, Any]:
    """A challenge's or a seek's time control as the API shows it: ``turn_seconds`` (the seconds of a turn, or the
    bank of an increment clock), ``clock`` (``None``: per move, or none without ``turn_seconds``), ``lapse``."""
    tc = json.loads(row.time_control) if row.time_control else {}
    return {"turn_seconds": row.turn_seconds, "clock": tc.get("clock"), "lapse": tc.get("lapse") or "forfeit",
            "lapse_agent": tc.get("lapse_agent")}


def match_time_args(row: Any) -> dict[str, Any]:
    """The time arguments of ``lobby.create`` for the match a challenge or a seek makes."""
    tc = json.loads(row.time_control) if row.time_control else {}
    return {"turn_seconds": None if tc.get("clock") else row.turn_seconds, "clock": tc.get("clock"),
            "lapse": tc.get("lapse"), "lapse_agent": tc.get("lapse_agent")}


def checked_time_control(service: Any, game: Any, body: Any) -> tuple[float | None, str | None]:
    """A challenge's or a seek's time control checked as the match's creation will check it (422 with the bound a
    value broke): its seconds per turn and the JSON stored with it (``None`` for a plain ``turn_seconds``)."""
    clock = body.clock.model_dump(exclude_none=True) if body.clock is not None else None
    _kind, seconds, _increment = time_control(clock, body.turn_seconds)
    lapses = getattr(service, "lapses", None)
    if body.lapse is not None and lapses is not None:
        lapses.check(game, body.lapse, body.lapse_agent, seconds)
    elif body.lapse_agent is not None:
        raise ServiceError(422, "bad_config", "an agent goes with the lapse policy 'computer' only")
    if clock is None and body.lapse is None:
        return seconds, None
    return seconds, json.dumps({"clock": clock, "lapse": body.lapse, "lapse_agent": body.lapse_agent}, sort_keys=True)


def _public(row: Any) -> dict[str, Any]:
    return {"id": row.id, "game": row.game, "config": json.loads(row.config), "rated": row.rated,
            **time_fields(row), "seat": row.seat, "status": row.status, "match": row.match_id,
            "open": row.to_account is None, "created_at": row.created_at, "link": f"/challenge/{row.id}"}


def _row(request: Request, challenge_id: str) -> Any:
    with request.app.state.service.engine.connect() as conn:
        row = conn.execute(select(*ChallengeRow.__table__.c).where(ChallengeRow.id == challenge_id[:32])).first()
    if row is None:
        raise ServiceError(404, "no_such_challenge", "no such challenge")
    return row


def checked_config(game_id: str, config: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """The game and its normalised configuration for a challenge or a seek (404 unknown game, 422 bad options)."""
    try:
        game = get_game(game_id)
    except UnknownGame:
        raise ServiceError(404, "unknown_game", f"unknown game {game_id!r}") from None
    try:
        return game, game.normalize_config(config)
    except Exception as exc:
        raise ServiceError(422, "bad_config", str(exc)) from None


@router.post("/api/challenges", status_code=201)
async def create(body: NewChallenge, request: Request, c: Ctx, a: Accounts, s: Writer, client: Client) -> dict[str, Any]:
    await c.limiter.hit("create", client)
    chat = request.app.state.chat
    if await asyncio.to_thread(chat.suspended, s.account_id):
        raise ServiceError(403, "suspended", "this account is suspended")
    game, cfg = checked_config(body.game, body.config)
    seconds, tc = checked_time_control(c.service, game, body)
    to = None
    if body.username is not None:
        other = await a.by_username(body.username)
        if other is None:
            raise ServiceError(404, "no_such_player", "no such player")
        to = str(other["id"])
        if to == s.account_id:
            raise ServiceError(422, "bad_request", "a player cannot challenge themselves")
        if await asyncio.to_thread(chat.blocks, to, s.account_id):
            raise ServiceError(403, "blocked", "this player does not take challenges from you")
    if body.rated and to is None:
        raise ServiceError(422, "bad_config", "a rated challenge names its opponent")
    cid = secrets.token_urlsafe(12)
    row = {"id": cid, "from_account": s.account_id, "to_account": to, "game": game.id,
           "config": json.dumps(cfg, sort_keys=True), "rated": body.rated, "turn_seconds": seconds,
           "time_control": tc, "seat": body.seat, "status": "open", "match_id": None, "created_at": time.time()}

    def job() -> None:
        with store_begin(c.service.engine) as conn:
            conn.execute(insert(ChallengeRow).values(**row))

    await asyncio.to_thread(job)
    if to is not None:
        await request.app.state.notifier.emit([Event(to, "challenge", cid, {"challenge": cid, "game": game.id,
                                                                           "by": s.account["display_name"]})])
    return {"id": cid, "link": f"/challenge/{cid}"}


def _with_names(conn: Any, rows: list[Any]) -> list[dict[str, Any]]:
    """The challenges with the usernames and display names of both sides (``by``, ``to``: the lobby shows them)."""
    from ..accounts.models import AccountRow

    ids = {r.from_account for r in rows} | {r.to_account for r in rows if r.to_account}
    names = {a.id: {"username": a.username, "display_name": a.display_name} for a in conn.execute(
        select(AccountRow.id, AccountRow.username, AccountRow.display_name).where(AccountRow.id.in_(ids)))} if ids else {}
    return [{**_public(r), "by": names.get(r.from_account), "to": names.get(r.to_account) if r.to_account else None}
            for r in rows]


@router.get("/api/challenges")
async def mine(request: Request, s: Signed) -> dict[str, Any]:
    def job() -> dict[str, Any]:
        q = select(*ChallengeRow.__table__.c).where(ChallengeRow.status == "open",
                                                   ChallengeRow.created_at > time.time() - EXPIRES)
        with request.app.state.service.engine.connect() as conn:
            inbound = conn.execute(q.where(ChallengeRow.to_account == s.account_id).limit(100)).all()
            outbound = conn.execute(q.where(ChallengeRow.from_account == s.account_id).limit(100)).all()
            return {"to_me": _with_names(conn, inbound), "from_me": _with_names(conn, outbound)}

    return await asyncio.to_thread(job)


@router.get("/api/challenges/{challenge_id}")
async def show(challenge_id: str, request: Request) -> dict[str, Any]:
    row = await asyncio.to_thread(_row, request, challenge_id)

    def job() -> dict[str, Any]:
        with request.app.state.service.engine.connect() as conn:
            return _with_names(conn, [row])[0]

    return await asyncio.to_thread(job)


@router.post("/api/challenges/{challenge_id}/decline")
async def decline(challenge_id: str, request: Request, s: Writer) -> dict[str, Any]:
    row = await asyncio.to_thread(_row, request, challenge_id)
    if row.status != "open":
        raise ServiceError(409, "challenge_closed", f"the challenge is {row.status}")
    if s.account_id == row.from_account:
        status = "withdrawn"
    elif row.to_account == s.account_id:
        status = "declined"
    else:
        raise ServiceError(403, "not_your_challenge", "this challenge is not yours to decline")

    def job() -> int:
        with store_begin(request.app.state.service.engine) as conn:
            return int(conn.execute(update(ChallengeRow).where(ChallengeRow.id == row.id, ChallengeRow.status == "open")
                                    .values(status=status)).rowcount)

    if not await asyncio.to_thread(job):
        raise ServiceError(409, "challenge_closed", "the challenge was answered meanwhile")
    return {"status": status}


@router.post("/api/challenges/{challenge_id}/accept")
async def accept(challenge_id: str, request: Request, c: Ctx, a: Accounts, s: Writer) -> dict[str, Any]:
    row = await asyncio.to_thread(_row, request, challenge_id)
    if row.status != "open" or row.created_at < time.time() - EXPIRES:
        raise ServiceError(409, "challenge_closed", f"the challenge is {row.status if row.status != 'open' else 'expired'}")
    if s.account_id == row.from_account or (row.to_account is not None and row.to_account != s.account_id):
        raise ServiceError(403, "not_your_challenge", "this challenge is for another player")
    if await asyncio.to_thread(request.app.state.chat.blocks, s.account_id, row.from_account):
        raise ServiceError(403, "blocked", "you blocked this player")
    challenger = await a.account(row.from_account)
    if challenger is None:
        raise ServiceError(409, "challenge_closed", "the challenger's account is gone")

    def claim() -> int:  # one acceptance only
        with store_begin(c.service.engine) as conn:
            return int(conn.execute(update(ChallengeRow).where(ChallengeRow.id == row.id, ChallengeRow.status == "open")
                                    .values(status="accepted")).rowcount)

    if not await asyncio.to_thread(claim):
        raise ServiceError(409, "challenge_closed", "the challenge was answered meanwhile")
    args = match_time_args(row)
    m, _ = await c.service.lobby.create(row.game, json.loads(row.config), None, "", {}, 1.0, args.pop("turn_seconds"),
                                        False, None, "", **args)
    theirs, mine_ = row.seat, 1 - row.seat
    token_c = await a.seat_token(m.id, theirs, row.from_account)
    await a.join_seat(m.id, theirs, row.from_account, challenger["display_name"], m.game.id, row.rated, token_c)
    token = await a.seat_token(m.id, mine_, s.account_id)
    # bound in the join's transaction: the join that starts the match already tells both accounts
    await a.join_seat(m.id, mine_, s.account_id, s.account["display_name"], m.game.id, row.rated, token)

    def done() -> None:
        with store_begin(c.service.engine) as conn:
            conn.execute(update(ChallengeRow).where(ChallengeRow.id == row.id).values(match_id=m.id))

    await asyncio.to_thread(done)
    return {"match": m.id, "seat": mine_, "token": token, "link": seat_link(m.id, mine_, token)}
