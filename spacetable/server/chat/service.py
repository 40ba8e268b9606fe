"""Chat per match (issue 21): one room for the players, another for the spectators.

* **Who writes where.** The players' room: a seated player (the seat's token, as for acting). The spectators'
  room: a signed-in account that holds no seat of the match (spectators are not anonymous: a report names an
  account). Everybody may read the spectators' room; only the seats read the players' room.
* **Bounds.** A message is at most :data:`MAX_CHARS` characters (control characters removed, Unicode NFC); a
  writer sends at most ``RATE`` (5 in 10 seconds, 20 a minute; shared by every process through Redis when the
  server has it). Longer or faster is refused (422, 429) and stores nothing.
* **Escaping.** Text is stored and sent as written, as JSON; every page shows it as text (``textContent``),
  never as markup.
* **Quick messages** ("Good game", "Thinking…") are stored as a key and shown in each reader's language.
* **Off** in matches without two people: a match against the computer has no players' room, and a match with
  no person at all no chat.
* **Moderation.** A reader reports a message (one report per reader and message); the operator reviews reports
  and hides messages or suspends accounts (``spacetable moderate``). A blocked account's messages are not shown
  to the account that blocked it; a suspended account cannot write.
* **Retention.** Messages are deleted :data:`KEEP_DAYS` days after they were written, reports
  :data:`REPORT_DAYS` days after they were made (``prune``).
"""

from __future__ import annotations

import asyncio
import re
import time
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from limits import parse_many
from sqlalchemy import and_, delete, insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from spacetable.core import i18n

from ..errors import ServiceError
from ..limits import window_limiter
from ..notify.store import begin as store_begin
from .models import BlockRow, ChatMessageRow, ChatReportRow, SuspensionRow

if TYPE_CHECKING:
    from ..live import LiveMatch

MAX_CHARS = 500
RATE = "5/10second;20/minute"
KEEP_DAYS = 30
REPORT_DAYS = 180
PAGE = 100
QUICK = ("hello", "good_luck", "thinking", "one_moment", "well_played", "oops", "thanks", "good_game")
ROOMS = ("players", "spectators")
PACKAGES = ("spacetable.server.chat",)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069]")
MENTION = re.compile(r"@([^\s@]{1,100})")


def clean(text: str) -> str:
    """NFC, no control or direction-override characters, at most three line breaks in a row, trimmed."""
    text = _CONTROL.sub("", unicodedata.normalize("NFC", text)).replace("\r", "")
    return re.sub(r"\n{3,}", "\n\n", text).strip()


def quick_text(key: str, lang: str) -> str:
    return i18n.render(PACKAGES, f"chat.quick.{key}", {}, lang)


@dataclass
class Writer:
    """Who writes: a seat of the match, or a spectator's account."""

    name: str
    seat: int | None = None
    account_id: str | None = None

    @property
    def key(self) -> str:
        return f"account:{self.account_id}" if self.account_id else f"seat:{self.seat}"


def rooms_open(m: LiveMatch) -> tuple[str, ...]:
    """The rooms a match has: players' only with two people seated; none without any."""
    people = sum(1 for s in m.seats if s.kind == "human")
    if people >= 2:
        return ROOMS
    if people == 1:
        return ("spectators",)
    return ()


#: a message stored through the play server's storage (both databases; ``RETURNING`` needs SQLite 3.35)
INSERT_MESSAGE = ("INSERT INTO chat_messages (match_id, room, seat, account_id, name, text, quick, created_at, hidden) "
                  "VALUES (:match_id, :room, :seat, :account_id, :name, :text, :quick, :created_at, :hidden) RETURNING id")


READ_MESSAGES = ("SELECT id, seat, name, text, quick, created_at, account_id FROM chat_messages WHERE match_id = :m "
                 "AND room = :room AND id > :after AND hidden = :hidden ORDER BY id LIMIT :n")
BLOCKED = "SELECT blocked_id FROM account_blocks WHERE account_id = :a"
SUSPENDED = "SELECT until FROM account_suspensions WHERE account_id = :a"
SEAT_ACCOUNTS = "SELECT seat, account_id FROM account_seats WHERE match_id = :m AND account_id IS NOT NULL"
#: the seats of a match whose accounts blocked a writer's account (they are not sent its messages)
BLOCKED_BY = ("SELECT s.seat FROM account_seats s JOIN account_blocks b ON b.account_id = s.account_id "
              "WHERE s.match_id = :m AND b.blocked_id = :w")


class ChatService:
    def __init__(self, engine: Engine, redis_url: str | None = None, rate: str | None = RATE, db: Any = None) -> None:
        self.engine = engine
        #: the play server's storage (``server/storage.py``): messages are written and read through it. On SQLite that
        #: is the event loop's own connection, where a write takes microseconds; a write from a worker thread's
        #: connection held SQLite's one write lock against the actions' appends, which then waited in SQLite's busy
        #: handler with the event loop stopped (act p99 x2.5 with 200 players chatting, bench/callback.py). Without
        #: it (the operator's moderation commands) only the moderation methods, on ``engine``, are used.
        self.db = db
        self._limiter = window_limiter(redis_url, "spacetable-chat")
        self._rules = parse_many(rate) if rate else []
        #: called with (match, seat mentioned, writer, text) for each @mention of a seated player's name
        self.on_mention: Any = None
        #: called with (match, room, message, seats not to tell) once a message is stored: the match's sockets are
        #: sent it (``MatchService.chat_posted``: this process's clients, and the other processes through the fan-out)
        self.on_posted: Any = None

    # --------------------------------------------------------------------- writing
    async def _rate(self, match_id: str, writer: Writer) -> None:
        for item in self._rules:
            try:
                allowed = await self._limiter.hit(item, "chat", match_id, writer.key)
            except Exception:  # the shared store is down: let chat through (as the play rate limits do)
                return
            if not allowed:
                raise ServiceError(429, "chat_rate", "you are writing too fast; wait a few seconds",
                                   headers={"Retry-After": "10"})

    async def post(self, m: LiveMatch, room: str, writer: Writer, text: str | None, quick: str | None) -> dict[str, Any]:
        """Store a message (after every check) and return it."""
        if room not in rooms_open(m):
            raise ServiceError(409, "chat_off", "this match has no such chat (a match against the computer has none "
                               "for its players)")
        if (text is None) == (quick is None):
            raise ServiceError(422, "bad_request", "a message is a 'text' or a 'quick' message")
        if quick is not None and quick not in QUICK:
            raise ServiceError(422, "bad_request", f"unknown quick message; known: {', '.join(QUICK)}")
        body = ""
        if text is not None:
            if len(text) > MAX_CHARS:
                raise ServiceError(422, "chat_too_long", f"a message is at most {MAX_CHARS} characters")
            body = clean(text)
            if not body:
                raise ServiceError(422, "bad_request", "the message is empty")
        if writer.account_id is not None and await self.is_suspended(writer.account_id):
            raise ServiceError(403, "suspended", "this account is suspended")
        await self._rate(m.id, writer)
        now = time.time()

        async def write(tx: Any) -> int:
            rows = await tx.fetch(INSERT_MESSAGE, {
                "match_id": m.id, "room": room, "seat": writer.seat, "account_id": writer.account_id,
                "name": writer.name[:100], "text": body, "quick": quick, "created_at": now, "hidden": False})
            return int(rows[0]["id"])

        msg_id = await self.play_db.write(write)
        if body and room == "players" and self.on_mention is not None:
            names = {s.name.casefold(): i for i, s in enumerate(m.seats) if s.kind == "human" and i != writer.seat}
            for name in {n.casefold() for n in MENTION.findall(body)}:
                if name in names:
                    self.on_mention(m, names[name], writer, body, msg_id)
        message = {"id": msg_id, "room": room, "seat": writer.seat, "name": writer.name, "text": body, "quick": quick,
                   "at": now}
        if self.on_posted is not None:
            hidden = await self.blocked_by(m.id, writer.account_id) if writer.account_id and room == "players" else ()
            # a quick message in every language, so that each reader's socket is sent it in its own
            texts = {lang: quick_text(quick, lang) for lang in i18n.LANGUAGES} if quick else {}
            self.on_posted(m, room, {**message, "texts": texts}, frozenset(hidden))
        return message

    async def post_for_seat(self, m: LiveMatch, seat: int, text: Any, quick: Any) -> dict[str, Any]:
        """A seated player's message in the players' room, its seat's token already checked: from the seat's
        socket (``{"type": "chat", ...}``) or ``POST /api/matches/{id}/chat``."""
        if not (text is None or isinstance(text, str)) or not (quick is None or isinstance(quick, str)):
            raise ServiceError(422, "bad_request", "'text' and 'quick' are strings")
        account = (await self.seat_accounts(m.id)).get(seat)
        return await self.post(m, "players", Writer(m.seats[seat].name, seat=seat, account_id=account), text, quick)

    async def blocked_by(self, match_id: str, writer_account: str) -> set[int]:
        """The seats of ``match_id`` whose accounts blocked ``writer_account``."""

        async def job(tx: Any) -> list[dict[str, Any]]:
            rows: list[dict[str, Any]] = await tx.fetch(BLOCKED_BY, {"m": match_id, "w": writer_account})
            return rows

        return {int(r["seat"]) for r in await self.play_db.read(job)}

    # --------------------------------------------------------------------- reading
    async def read(self, match_id: str, room: str, after: int, lang: str, reader: str | None) -> list[dict[str, Any]]:
        """The messages after ``after`` (a page), quick ones in ``lang``; hidden ones and those of accounts the
        reader (``reader``: an account id) blocked left out."""

        async def on_db(tx: Any) -> list[dict[str, Any]]:
            rows = await tx.fetch(READ_MESSAGES, {"m": match_id, "room": room, "after": after, "hidden": False, "n": PAGE})
            blocked = {r["blocked_id"] for r in await tx.fetch(BLOCKED, {"a": reader})} if reader else set()
            return [{"id": r["id"], "seat": r["seat"], "name": r["name"], "quick": r["quick"], "at": r["created_at"],
                     "text": quick_text(r["quick"], lang) if r["quick"] else r["text"]}
                    for r in rows if not (r["account_id"] and r["account_id"] in blocked)]

        out: list[dict[str, Any]] = await self.play_db.read(on_db)
        return out

    # ------------------------------------------------------------------ moderation
    async def report(self, match_id: str, message_id: int, reporter: str, reason: str) -> bool:
        """A reader reports a message of this match; ``False`` when they had reported it already."""

        def job() -> bool:
            with store_begin(self.engine) as conn:
                found = conn.execute(select(ChatMessageRow.id).where(ChatMessageRow.id == message_id,
                                                                     ChatMessageRow.match_id == match_id)).first()
                if found is None:
                    raise ServiceError(404, "no_such_message", "no such message in this match")
                try:
                    with conn.begin_nested():
                        conn.execute(insert(ChatReportRow).values(message_id=message_id, reporter=reporter[:100],
                                                                  reason=clean(reason)[:300], created_at=time.time(),
                                                                  status="open"))
                except IntegrityError:
                    return False
            return True

        return await asyncio.to_thread(job)

    def reports(self, status: str = "open", limit: int = 50) -> list[dict[str, Any]]:
        q = select(ChatReportRow.id, ChatReportRow.message_id, ChatReportRow.reporter, ChatReportRow.reason,
                   ChatReportRow.created_at, ChatReportRow.status, ChatMessageRow.match_id, ChatMessageRow.name,
                   ChatMessageRow.account_id, ChatMessageRow.text, ChatMessageRow.quick).join(
            ChatMessageRow, ChatMessageRow.id == ChatReportRow.message_id).where(ChatReportRow.status == status) \
            .order_by(ChatReportRow.id).limit(limit)
        with self.engine.connect() as conn:
            return [dict(r._mapping) for r in conn.execute(q)]

    def resolve(self, report_id: int, hide: bool) -> bool:
        """Close a report: dismiss it, or hide its message (then every report of that message is closed)."""
        with store_begin(self.engine) as conn:
            msg = conn.execute(select(ChatReportRow.message_id).where(ChatReportRow.id == report_id)).scalar_one_or_none()
            if msg is None:
                return False
            if hide:
                conn.execute(update(ChatMessageRow).where(ChatMessageRow.id == msg).values(hidden=True))
                conn.execute(update(ChatReportRow).where(ChatReportRow.message_id == msg).values(status="hidden"))
            else:
                conn.execute(update(ChatReportRow).where(ChatReportRow.id == report_id).values(status="dismissed"))
        return True

    def suspend(self, account_id: str, days: float, reason: str = "") -> None:
        with store_begin(self.engine) as conn:
            conn.execute(delete(SuspensionRow).where(SuspensionRow.account_id == account_id))
            if days > 0:
                conn.execute(insert(SuspensionRow).values(account_id=account_id, until=time.time() + days * 86400,
                                                          reason=reason[:300], created_at=time.time()))

    @property
    def play_db(self) -> Any:
        """The play server's storage, which posting and reading need."""
        if self.db is None:
            raise RuntimeError("posting and reading chat need the play server's storage (ChatService(..., db=storage))")
        return self.db

    async def is_suspended(self, account_id: str) -> bool:
        """:meth:`suspended` through the play server's storage (no worker thread)."""

        async def job(tx: Any) -> list[dict[str, Any]]:
            rows: list[dict[str, Any]] = await tx.fetch(SUSPENDED, {"a": account_id})
            return rows

        rows = await self.play_db.read(job)
        return bool(rows) and float(rows[0]["until"]) > time.time()

    async def seat_accounts(self, match_id: str) -> dict[int, str]:
        """The accounts seated in a match, seat -> account id (as ``notify.events.seat_accounts``, through the play
        server's storage)."""

        async def job(tx: Any) -> list[dict[str, Any]]:
            rows: list[dict[str, Any]] = await tx.fetch(SEAT_ACCOUNTS, {"m": match_id})
            return rows

        return {int(r["seat"]): str(r["account_id"]) for r in await self.play_db.read(job)}

    def suspended(self, account_id: str) -> bool:
        with self.engine.connect() as conn:
            until = conn.execute(select(SuspensionRow.until).where(SuspensionRow.account_id == account_id)).scalar_one_or_none()
        return until is not None and until > time.time()

    # ---------------------------------------------------------------------- blocks
    def block(self, account_id: str, blocked_id: str, on: bool = True) -> None:
        if account_id == blocked_id:
            raise ServiceError(422, "bad_request", "an account cannot block itself")
        with store_begin(self.engine) as conn:
            conn.execute(delete(BlockRow).where(BlockRow.account_id == account_id, BlockRow.blocked_id == blocked_id))
            if on:
                conn.execute(insert(BlockRow).values(account_id=account_id, blocked_id=blocked_id, created_at=time.time()))

    def blocks(self, account_id: str, other_id: str) -> bool:
        """Has ``account_id`` blocked ``other_id``?"""
        with self.engine.connect() as conn:
            return conn.execute(select(BlockRow.account_id).where(and_(BlockRow.account_id == account_id,
                                                                       BlockRow.blocked_id == other_id))).first() is not None

    def prune(self, now: float | None = None) -> int:
        now = time.time() if now is None else now
        with store_begin(self.engine) as conn:
            n = conn.execute(delete(ChatMessageRow).where(ChatMessageRow.created_at < now - KEEP_DAYS * 86400)).rowcount
            n += conn.execute(delete(ChatReportRow).where(ChatReportRow.created_at < now - REPORT_DAYS * 86400)).rowcount
        return int(n)
