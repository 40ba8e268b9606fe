"""Presence (issue 21, goal 3): who is online in the lobby and at each seat of a match, "last seen", invisible mode.

Two sources feed it, with no new socket:

* a signed-in page beats every 30 s (``POST /api/presence``): the account is online on the site, and in the lobby
  while the lobby is open; its ``last_seen`` is written (at most once a minute). An invisible account beats
  nothing: it is never listed, its profile shows neither "online" nor "last seen".
* a match's WebSocket bound to a seat (its token checked) holds that seat for as long as it is open
  (``ws.Connection``): the seat is "at the table".

:class:`Presence` keeps the rooms (``site``, ``lobby``, ``m:<match id>``): in the process without Redis, with Redis
in one sorted set per room (member: score = until when it counts as present), so every process of the service sees
the same presence; a held member is refreshed every ``ttl / 3`` seconds by the process holding it and drops out
``ttl`` seconds after that process stopped. Reads are bounded (``MAX_LISTED`` members a room).

Routes: ``POST /api/presence`` (a beat), ``GET /api/presence/lobby`` (the online players),
``GET /api/matches/{id}/presence`` (which seats are at the table), ``GET/POST /api/account/presence`` (the
invisible mode).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request
from pydantic import Field
from sqlalchemy import bindparam, text

from ..errors import ServiceError
from ..notify.store import begin as store_begin
from ..routes.schemas import Body
from ..routes.session import Signed, Writer
from ..routing import PrefixRoute
from ..tasks import stop_tasks

log = logging.getLogger("spacetable.server.presence")
TTL = 75.0
#: the most members of a room a read returns (the lobby's list of players online)
MAX_LISTED = 200
#: the most seats a match's room lists (``at_tables``): more than any game has
MAX_SEATS = 16
#: ``last_seen`` is written at most this often per account
SEEN_EVERY = 60.0
router = APIRouter(tags=["presence"], route_class=PrefixRoute)


class Presence:
    """The rooms of presence of this process (shared through Redis when ``redis_url`` is given)."""

    def __init__(self, redis_url: str | None = None, ttl: float = TTL, prefix: str = "spacetable:presence:") -> None:
        self.redis_url = redis_url
        self.ttl = ttl
        self.prefix = prefix
        #: members held by this process (seat sockets): room -> member -> count
        self.held: dict[str, dict[str, int]] = defaultdict(dict)
        #: beats (without Redis): room -> member -> until
        self.beats: dict[str, dict[str, float]] = defaultdict(dict)
        self._redis: Any = None
        #: seat sockets' changes not yet written to Redis: (room, member) -> True (held) / False (released)
        self._pending: dict[tuple[str, str], bool] = {}
        self._wake: asyncio.Event | None = None
        self._refresher: asyncio.Task[None] | None = None
        self._writer: asyncio.Task[None] | None = None
        #: set by :meth:`stop`: the refresher's and the writer's loops end at their next turn
        self._stopping = False
        #: told the seats this process holds a socket of in a match (its id, the seats) whenever they change, and
        #: again every ``ttl / 3`` seconds: the app announces them to the other processes holding the match
        #: (``catchup.held_elsewhere``), whose notifications then leave those players alone without asking Redis
        self.on_seats: Callable[[str, list[int]], None] | None = None

    async def start(self) -> None:
        if self.redis_url:
            import redis.asyncio as redis

            self._redis = redis.from_url(self.redis_url, health_check_interval=10, socket_keepalive=True)
            self._wake = asyncio.Event()
            self._refresher = asyncio.create_task(self._refresh(), name="spacetable-presence")
            self._writer = asyncio.create_task(self._write(), name="spacetable-presence-writer")

    async def stop(self) -> None:
        """Say the seats held here are held no more (:attr:`on_seats`), end the refresher and the writer, take this
        process's members out of Redis (up to 2 s) and close the connection (up to 2 s): every step bounded.
        redis-py's timeouts may swallow a cancellation; the tasks are then cancelled again (``tasks.stop_tasks``),
        and their loops also end on ``_stopping``. A stop that awaited a task whose cancellation was swallowed once
        held a test server's shutdown for five minutes."""
        self._stopping = True
        for room in list(self.held):  # the other processes stop counting this one's seats at once (before the
            self._announce(room, gone=True)  # fan-out stops: it sends what is queued first)
        if self._wake is not None:
            self._wake.set()
        await stop_tasks([t for t in (self._refresher, self._writer) if t is not None], "presence tasks")
        self._refresher = self._writer = None
        if self._redis is not None:
            with contextlib.suppress(Exception):
                async with asyncio.timeout(2):
                    for room, members in list(self.held.items()):
                        if members:
                            await self._redis.zrem(self.prefix + room, *members)
            with contextlib.suppress(Exception):
                async with asyncio.timeout(2):
                    await self._redis.aclose()

    async def _write(self) -> None:
        """The one writer of the seat sockets' changes: whatever piled up since the last write goes in one pipeline,
        so a burst of sockets opening or closing costs one round trip and one connection, not one each."""
        assert self._wake is not None
        while not self._stopping:
            await self._wake.wait()
            self._wake.clear()
            batch, self._pending = self._pending, {}
            if not batch:
                continue
            until = time.time() + self.ttl
            try:
                pipe = self._redis.pipeline(transaction=False)
                for (room, member), held in batch.items():
                    if held:
                        pipe.zadd(self.prefix + room, {member: until})
                    else:
                        pipe.zrem(self.prefix + room, member)
                await pipe.execute()
            except Exception as e:  # Redis down: the refresher writes held members again, released ones expire
                log.warning("presence: Redis unreachable (%s)", type(e).__name__)

    def _announce(self, room: str, gone: bool = False) -> None:
        """:attr:`on_seats` for a match's room (``m:<id>``): the seats held in it now (none when ``gone``)."""
        if self.on_seats is None or not room.startswith("m:"):
            return
        seats = [] if gone else sorted(int(m) for m in self.held.get(room, ()) if m.isdigit())
        try:
            self.on_seats(room[2:], seats)
        except Exception:  # announcing is a shortcut for the others: holding the seat must not fail with it
            log.warning("presence: announcing the seats of %s failed", room, exc_info=True)

    def _queue(self, room: str, member: str, held: bool) -> None:
        self._pending[room, member] = held
        if self._wake is not None:
            self._wake.set()

    async def _refresh(self) -> None:
        while not self._stopping:
            await asyncio.sleep(self.ttl / 3)
            with contextlib.suppress(Exception):
                now = time.time()
                pipe = self._redis.pipeline(transaction=False)
                for room, members in list(self.held.items()):
                    if members:
                        pipe.zadd(self.prefix + room, dict.fromkeys(members, now + self.ttl))
                        self._announce(room)
                    pipe.zremrangebyscore(self.prefix + room, "-inf", now)  # the expired members of the room
                await pipe.execute()

    # ---------------------------------------------------------------------------------------------- writes
    def hold(self, room: str, member: str) -> None:
        """A member present for as long as it is held (a seat's socket); call :meth:`release` once for each."""
        members = self.held[room]
        members[member] = members.get(member, 0) + 1
        if members[member] == 1:
            if self._redis is not None:
                self._queue(room, member, True)
            self._announce(room)

    def release(self, room: str, member: str) -> None:
        members = self.held.get(room)
        if not members or member not in members:
            return
        members[member] -= 1
        if members[member] <= 0:
            del members[member]
            if not members:
                del self.held[room]
            if self._redis is not None:
                self._queue(room, member, False)
            self._announce(room)

    async def beat(self, room: str, member: str) -> None:
        """A member present for ``ttl`` seconds from now."""
        until = time.time() + self.ttl
        if self._redis is not None:
            await self._redis.zadd(self.prefix + room, {member: until})
            return
        beats = self.beats[room]
        beats[member] = until
        if len(beats) > 4 * MAX_LISTED:  # drop the expired ones now and then
            now = time.time()
            for k in [k for k, v in beats.items() if v < now]:
                del beats[k]

    async def leave(self, room: str, member: str) -> None:
        """A beating member gone now (signed out, turned invisible)."""
        if self._redis is not None:
            await self._redis.zrem(self.prefix + room, member)
        else:
            self.beats.get(room, {}).pop(member, None)

    # ----------------------------------------------------------------------------------------------- reads
    async def members(self, room: str, limit: int = MAX_LISTED) -> list[str]:
        """The members present in ``room`` now (at most ``limit``)."""
        now = time.time()
        if self._redis is not None:
            got = await self._redis.zrangebyscore(self.prefix + room, now, "+inf", start=0, num=limit)
            return [g.decode() if isinstance(g, bytes) else str(g) for g in got]
        out = set(self.held.get(room, {}))
        out.update(k for k, v in self.beats.get(room, {}).items() if v >= now)
        return sorted(out)[:limit]

    async def at_tables(self, match_ids: list[str]) -> dict[str, set[int]]:
        """The seats at the table of each of ``match_ids``: a socket bound to the seat is open on any process of the
        service (one Redis round trip for them all), or on this one (held here, perhaps not written yet)."""
        found: dict[str, list[Any]] = {match_id: list(self.held.get("m:" + match_id, ())) for match_id in match_ids}
        if self._redis is not None and match_ids:
            now = time.time()
            pipe = self._redis.pipeline(transaction=False)
            for match_id in match_ids:
                pipe.zrangebyscore(self.prefix + "m:" + match_id, now, "+inf", start=0, num=MAX_SEATS)
            for match_id, got in zip(match_ids, await pipe.execute(), strict=True):
                found[match_id] += got
        out: dict[str, set[int]] = {}
        for match_id, members in found.items():
            seats = {int(name) for name in (m.decode() if isinstance(m, bytes) else str(m) for m in members)
                     if name.isdigit()}
            if seats:
                out[match_id] = seats
        return out

    async def present(self, room: str, member: str) -> bool:
        if self._redis is not None:
            score = await self._redis.zscore(self.prefix + room, member)
            return score is not None and float(score) >= time.time()
        return member in self.held.get(room, {}) or self.beats.get(room, {}).get(member, 0.0) >= time.time()


def presence(request: Request) -> Presence:
    p: Presence = request.app.state.presence
    return p


def _read(request: Request, sql: str, **params: Any) -> list[dict[str, Any]]:
    stmt = text(sql)
    for k, v in params.items():
        if isinstance(v, (list, tuple)):
            stmt = stmt.bindparams(bindparam(k, expanding=True))
    with request.app.state.service.engine.connect() as conn:
        return [dict(r._mapping) for r in conn.execute(stmt, params)]


async def visible_names(request: Request, account_ids: list[str]) -> list[dict[str, Any]]:
    """The visible accounts of ``account_ids`` with their names (an invisible account is left out)."""
    if not account_ids:
        return []
    rows = await asyncio.to_thread(_read, request, "SELECT id, username, display_name FROM accounts WHERE id IN :ids "
                                   "AND invisible = :f", ids=list(account_ids), f=False)
    by_id = {r["id"]: r for r in rows}
    return [{"username": by_id[a]["username"], "display_name": by_id[a]["display_name"]} for a in account_ids
            if a in by_id]


async def profile_presence(request: Request, username: str) -> dict[str, Any]:
    """``online`` and ``last_seen`` of a player's profile (``None`` for an invisible one, whoever asks)."""
    from ..accounts.names import username_key

    try:
        key = username_key(username)
    except Exception:
        return {"online": False, "last_seen": None}
    rows = await asyncio.to_thread(
        _read, request, "SELECT a.id, a.invisible, a.last_seen, (SELECT MAX(s.seen_at) FROM account_sessions s WHERE "
        "s.account_id = a.id) AS session_seen FROM accounts a WHERE a.username_key = :k", k=key)
    if not rows or rows[0]["invisible"]:
        return {"online": False, "last_seen": None}
    row = rows[0]
    online = await presence(request).present("site", row["id"])
    seen = max((x for x in (row["last_seen"], row["session_seen"]) if x is not None), default=None)
    return {"online": online, "last_seen": time.time() if online else seen}


# ---------------------------------------------------------------------------------------------------- routes
class Beat(Body):
    lobby: bool = Field(default=False, description="the page beating is the lobby")


class Invisible(Body):
    invisible: bool


@router.post("/api/presence")
async def beat(body: Beat, request: Request, s: Writer) -> dict[str, Any]:
    """A signed-in page says it is open (every 30 s): online on the site, and in the lobby with ``lobby``."""
    acc = s.account
    p = presence(request)
    if acc.get("invisible"):
        return {"online": False, "invisible": True}
    await p.beat("site", s.account_id)
    if body.lobby:
        await p.beat("lobby", s.account_id)
    else:
        await p.leave("lobby", s.account_id)
    now = time.time()
    if (acc.get("last_seen") or 0.0) < now - SEEN_EVERY:

        def job() -> None:
            with store_begin(request.app.state.service.engine) as conn:
                conn.execute(text("UPDATE accounts SET last_seen = :t WHERE id = :a"), {"t": now, "a": s.account_id})

        await asyncio.to_thread(job)
    return {"online": True, "invisible": False}


@router.get("/api/presence/lobby")
async def lobby(request: Request) -> dict[str, Any]:
    """The players online in the lobby now (invisible ones never), at most ``MAX_LISTED``."""
    ids = await presence(request).members("lobby")
    players = await visible_names(request, ids)
    return {"players": players, "count": len(players)}


@router.get("/api/matches/{match_id}/presence")
async def seats(match_id: str, request: Request) -> dict[str, Any]:
    """Which seats of a match have their player at the table (a socket open with the seat's token). A seat of an
    invisible account reads as away."""
    if len(match_id) > 32:
        raise ServiceError(404, "no_such_match", "no such match")
    m = await request.app.state.service.get(match_id)
    held = set(await presence(request).members("m:" + m.id))
    hidden = {int(r["seat"]) for r in await asyncio.to_thread(
        _read, request, "SELECT s.seat FROM account_seats s JOIN accounts a ON a.id = s.account_id "
        "WHERE s.match_id = :m AND a.invisible = :t", m=m.id, t=True)}
    return {"seats": [str(i) in held and i not in hidden for i in range(len(m.seats))]}


@router.get("/api/account/presence")
async def mine(s: Signed) -> dict[str, Any]:
    return {"invisible": bool(s.account.get("invisible"))}


@router.post("/api/account/presence")
async def set_invisible(body: Invisible, request: Request, s: Writer) -> dict[str, Any]:
    """The invisible mode: on, the account leaves every room at once and is shown offline to everybody else."""

    def job() -> None:
        with store_begin(request.app.state.service.engine) as conn:
            conn.execute(text("UPDATE accounts SET invisible = :v WHERE id = :a"), {"v": body.invisible, "a": s.account_id})

    await asyncio.to_thread(job)
    if body.invisible:
        p = presence(request)
        await p.leave("site", s.account_id)
        await p.leave("lobby", s.account_id)
    return {"invisible": body.invisible}


@router.get("/api/players/{username}/presence")
async def player(username: str, request: Request) -> dict[str, Any]:
    """A player's ``online`` and ``last_seen`` (both empty for an invisible player, whoever asks)."""
    if len(username) > 64:
        raise ServiceError(404, "no_such_player", "no such player")
    return await profile_presence(request, username)
