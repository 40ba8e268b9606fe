"""The notification tables' queries (synchronous SQLAlchemy Core; the dispatcher runs them in a thread).

Exactly once across processes: an event is stored once (``dedup`` is unique; an insert that meets it does
nothing), and a delivery is sent by the one process whose claim took the row: one ``UPDATE`` that sets the
claim only where there is none (or it lapsed), with ``FOR UPDATE SKIP LOCKED`` on PostgreSQL so that
processes claiming at once take different rows instead of waiting on each other. SQLite runs the statement
under its single writer lock. A process that dies after sending and before recording it leaves a claim that
lapses after ``CLAIM_SECONDS``; the row is then sent again (the only case of a second delivery).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import hmac
import json
import random
import secrets
import threading
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Float, String, bindparam, delete, func, select, text, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine

from .models import InboxRow, OutboxRow, PrefRow, PushSubscriptionRow, SecretRow, SettingsRow

OUTBOX = OutboxRow.__table__

#: the kinds of event and the channels (``page``: the bell in the page)
KINDS = ("your_turn", "match_start", "match_end", "challenge", "draw_offer", "chat_mention")
CHANNELS = ("page", "push", "email")
#: a channel's default for a kind when the account chose nothing
DEFAULTS: dict[str, dict[str, bool]] = {
    "page": dict.fromkeys(KINDS, True),
    "push": dict.fromkeys(KINDS, True),
    "email": {"your_turn": True, "match_start": False, "match_end": True, "challenge": True, "draw_offer": True,
              "chat_mention": False},
}
EMAIL_MODES = ("instant", "digest", "off")
#: a claim lasts this long; a delivery's own timeouts are far shorter
CLAIM_SECONDS = 120.0
#: tries of a delivery before it is given up (status ``failed``), and the back-off between them
MAX_ATTEMPTS = 8
BACKOFF_BASE = 15.0
BACKOFF_CAP = 3600.0
#: delivered, dropped and failed rows are kept this long (docs/server.md, retention), read page notifications too
KEEP_SECONDS = 30 * 86400.0


def backoff(attempts: int, rng: random.Random | None = None) -> float:
    """Seconds before try ``attempts + 1``: 15 s doubling to an hour, with up to 25% jitter."""
    base = min(BACKOFF_CAP, BACKOFF_BASE * 2 ** max(0, attempts - 1))
    return base * (1.0 + 0.25 * (rng or random).random())


_SQLITE_WRITER = threading.Lock()


@contextlib.contextmanager
def begin(engine: Engine) -> Iterator[Connection]:
    """A write transaction. On SQLite the process's writers take turns here: SQLite has one writer at a time, and
    its busy handler makes a waiting writer sleep (up to 100 ms a try), far longer than the writes themselves."""
    if engine.dialect.name == "sqlite":
        with _SQLITE_WRITER, engine.begin() as conn:
            yield conn
    else:
        with engine.begin() as conn:
            yield conn


def _insert(conn: Connection, table: Any) -> Any:
    """An ``INSERT`` that does nothing when it meets a unique key (the same event stored twice)."""
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    return dialect.insert(table).on_conflict_do_nothing()


# ---------------------------------------------------------------------------- secrets
def secret(engine: Engine, name: str, make: Any) -> str:
    """The server's secret ``name``, made by ``make()`` and stored the first time (several processes starting
    at once: the first insert wins and every process reads that one)."""
    with begin(engine) as conn:
        row = conn.execute(select(SecretRow.value).where(SecretRow.name == name)).scalar_one_or_none()
        if row is not None:
            return str(row)
        conn.execute(_insert(conn, SecretRow).values(name=name, value=make(), created_at=time.time()))
        return str(conn.execute(select(SecretRow.value).where(SecretRow.name == name)).scalar_one())


def hmac_key(engine: Engine) -> bytes:
    return secret(engine, "unsubscribe", lambda: secrets.token_hex(32)).encode()


def sign(key: bytes, account_id: str, purpose: str) -> str:
    """The signature of a link for one account and one purpose (``unsubscribe``)."""
    mac = hmac.new(key, f"{purpose}\x00{account_id}".encode(), hashlib.sha256).hexdigest()
    return mac[:40]


def verify(key: bytes, account_id: str, purpose: str, signature: str) -> bool:
    return hmac.compare_digest(sign(key, account_id, purpose), signature or "")


# ------------------------------------------------------------------------ preferences
@dataclass
class Settings:
    email_mode: str = "instant"
    quiet_minutes: int = 30
    digest_hour: int = 8
    sound: bool = True

    def to_json(self) -> dict[str, Any]:
        return {"email_mode": self.email_mode, "quiet_minutes": self.quiet_minutes, "digest_hour": self.digest_hour,
                "sound": self.sound}


def settings(conn: Connection, account_id: str) -> Settings:
    row = conn.execute(select(SettingsRow.email_mode, SettingsRow.quiet_minutes, SettingsRow.digest_hour,
                              SettingsRow.sound).where(SettingsRow.account_id == account_id)).first()
    if row is None:
        return Settings()
    return Settings(row.email_mode, row.quiet_minutes, row.digest_hour, bool(row.sound))


def email_modes(conn: Connection, account_ids: Iterable[str]) -> dict[str, str]:
    """The e-mail mode of each of ``account_ids`` (``instant`` where the account chose nothing), 500 a query."""
    ids = sorted(set(account_ids))
    out = dict.fromkeys(ids, Settings.email_mode)
    for chunk in _chunks(ids):
        out.update((str(a), str(m)) for a, m in conn.execute(
            select(SettingsRow.account_id, SettingsRow.email_mode).where(SettingsRow.account_id.in_(chunk))))
    return out


def save_settings(conn: Connection, account_id: str, s: Settings) -> None:
    conn.execute(_insert(conn, SettingsRow).values(account_id=account_id))
    conn.execute(update(SettingsRow).where(SettingsRow.account_id == account_id).values(
        email_mode=s.email_mode, quiet_minutes=s.quiet_minutes, digest_hour=s.digest_hour, sound=s.sound))


def prefs(conn: Connection, account_id: str) -> dict[str, dict[str, bool]]:
    """Every channel's choice for every kind (the defaults where the account chose nothing)."""
    out = {ch: dict(kinds) for ch, kinds in DEFAULTS.items()}
    for row in conn.execute(select(PrefRow.channel, PrefRow.kind, PrefRow.enabled).where(PrefRow.account_id == account_id)):
        if row.channel in out and row.kind in out[row.channel]:
            out[row.channel][row.kind] = bool(row.enabled)
    return out


def set_pref(conn: Connection, account_id: str, channel: str, kind: str, enabled: bool) -> None:
    conn.execute(_insert(conn, PrefRow).values(account_id=account_id, kind=kind, channel=channel, enabled=enabled))
    conn.execute(update(PrefRow).where(PrefRow.account_id == account_id, PrefRow.kind == kind,
                                       PrefRow.channel == channel).values(enabled=enabled))


def unsubscribe_email(conn: Connection, account_id: str) -> None:
    """The one-click unsubscribe: no more mail of any kind to the account, and none still queued."""
    s = settings(conn, account_id)
    s.email_mode = "off"
    save_settings(conn, account_id, s)
    conn.execute(update(OutboxRow).where(OutboxRow.account_id == account_id, OutboxRow.channel.in_(("email", "digest")),
                                         OutboxRow.status == "pending", OutboxRow.claim.is_(None))
                 .values(status="dropped", done_at=time.time(), error="unsubscribed"))


# ---------------------------------------------------------------------------- events
@dataclass(frozen=True)
class Event:
    """Something to tell one account: ``key`` names the event once (the same key stored twice is one event)."""

    account_id: str
    kind: str
    key: str
    data: dict[str, Any]
    #: a correspondence "your turn": it goes by mail too, after the quiet period (a live match's turn: page
    #: and push only)
    correspondence: bool = False


@dataclass(frozen=True)
class SeatEvents:
    """Events for whoever sits with an account at some seats of a match (``found``: seat, kind, key, data). The
    accounts are looked up when the events are stored (``account_seats``, issue 20), for a whole batch of matches in
    one query (:func:`seat_events`); a seat without an account gets nothing."""

    match_id: str
    found: tuple[tuple[int, str, str, dict[str, Any]], ...]
    correspondence: bool = False
    #: none for a seat whose player is at the table (its socket open on any process of the service) when the events
    #: are stored: what the page shows already (a move's "your turn"; not a chat mention)
    unless_at_table: bool = False


def seat_events(conn: Connection, items: list[SeatEvents]) -> list[Event]:
    """The :class:`Event` of each of ``items``' seats that has an account now."""
    accounts: dict[tuple[str, int], str] = {}
    stmt = text("SELECT match_id, seat, account_id FROM account_seats WHERE match_id IN :m AND account_id IS NOT NULL"
                ).bindparams(bindparam("m", expanding=True))
    for part in _chunks(sorted({i.match_id for i in items})):
        for match_id, seat, account in conn.execute(stmt, {"m": part}):
            accounts[str(match_id), int(seat)] = str(account)
    return _seat_events(items, accounts)


async def seat_events_tx(tx: Any, items: list[SeatEvents]) -> list[Event]:
    """:func:`seat_events` in a transaction of the play server's storage (``storage.Storage.read``): on SQLite
    that is the event loop's own connection, on PostgreSQL its asynchronous pool, so a guests' match (no account at
    its seats, nothing to store) costs one indexed read and no worker thread."""
    accounts: dict[tuple[str, int], str] = {}
    for part in _chunks(sorted({i.match_id for i in items})):
        names = {f"m{k}": match_id for k, match_id in enumerate(part)}
        rows = await tx.fetch("SELECT match_id, seat, account_id FROM account_seats WHERE match_id IN "
                              f"({', '.join(':' + n for n in names)}) AND account_id IS NOT NULL", names)
        for row in rows:
            accounts[str(row["match_id"]), int(row["seat"])] = str(row["account_id"])
    return _seat_events(items, accounts)


def _seat_events(items: list[SeatEvents], accounts: dict[tuple[str, int], str]) -> list[Event]:
    return [Event(accounts[i.match_id, seat], kind, key, data, correspondence=i.correspondence)
            for i in items for seat, kind, key, data in i.found if (i.match_id, seat) in accounts]


def next_digest(now: float, hour: int) -> float:
    day = 86400.0
    start = now - now % day + hour * 3600.0
    return start if start > now else start + day


def _chunks(items: list[str], size: int = 500) -> Iterator[list[str]]:
    for k in range(0, len(items), size):
        yield items[k:k + size]


def enqueue(conn: Connection, events: Iterable[Event], now: float | None = None) -> int:
    """Store ``events`` for every channel the account keeps on for their kind: the bell's inbox at once, a push
    row per subscription, a mail (a correspondence "your turn" after the quiet period, or a line of the daily
    digest). Returns the number of deliveries stored (an event stored before adds none). The accounts' choices
    and subscriptions are read once for the whole batch, and the rows inserted in one statement per table."""
    now = time.time() if now is None else now
    batch = list(events)
    if not batch:
        return 0
    accounts = sorted({ev.account_id for ev in batch})
    chosen = {a: {ch: dict(kinds) for ch, kinds in DEFAULTS.items()} for a in accounts}
    rhythm = {a: Settings() for a in accounts}
    subs: dict[str, list[str]] = {a: [] for a in accounts}
    for part in _chunks(accounts):
        for row in conn.execute(select(PrefRow.account_id, PrefRow.channel, PrefRow.kind, PrefRow.enabled)
                                .where(PrefRow.account_id.in_(part))):
            if row.channel in DEFAULTS and row.kind in DEFAULTS[row.channel]:
                chosen[row.account_id][row.channel][row.kind] = bool(row.enabled)
        for row in conn.execute(select(SettingsRow.account_id, SettingsRow.email_mode, SettingsRow.quiet_minutes,
                                       SettingsRow.digest_hour, SettingsRow.sound).where(SettingsRow.account_id.in_(part))):
            rhythm[row.account_id] = Settings(row.email_mode, row.quiet_minutes, row.digest_hour, bool(row.sound))
        for row in conn.execute(select(PushSubscriptionRow.account_id, PushSubscriptionRow.id)
                                .where(PushSubscriptionRow.account_id.in_(part))):
            subs[row.account_id].append(row.id)
    inbox_rows: list[dict[str, Any]] = []
    out_rows: list[dict[str, Any]] = []
    for ev in batch:
        on = chosen[ev.account_id]
        payload = json.dumps(ev.data, sort_keys=True, separators=(",", ":"))
        base = f"{ev.kind}:{ev.key}:{ev.account_id}"
        common = {"account_id": ev.account_id, "kind": ev.kind, "payload": payload, "created_at": now}
        if on["page"].get(ev.kind):
            inbox_rows.append({**common, "dedup": base[:200]})
        if on["push"].get(ev.kind):
            for sub_id in subs[ev.account_id]:
                out_rows.append({**common, "channel": "push", "target": sub_id, "due_at": now,
                                 "dedup": f"push:{sub_id}:{base}"[:200]})
        if on["email"].get(ev.kind) and (ev.kind != "your_turn" or ev.correspondence):
            s = rhythm[ev.account_id]
            if s.email_mode == "instant":
                due = now + (s.quiet_minutes * 60.0 if ev.correspondence else 0.0)
                out_rows.append({**common, "channel": "email", "target": None, "due_at": due,
                                 "dedup": f"email:{base}"[:200]})
            elif s.email_mode == "digest":
                out_rows.append({**common, "channel": "digest", "target": None, "due_at": next_digest(now, s.digest_hour),
                                 "dedup": f"digest:{base}"[:200]})
    added = 0
    if inbox_rows:
        added += len(conn.execute(_insert(conn, InboxRow).returning(InboxRow.id), inbox_rows).all())
    if out_rows:
        for r in out_rows:
            r.update(status="pending", attempts=0)
        added += len(conn.execute(_insert(conn, OutboxRow).returning(OutboxRow.id), out_rows).all())
    return added


# ---------------------------------------------------------------------------- claims
@dataclass
class Delivery:
    """A claimed row of the outbox."""

    id: int
    dedup: str
    account_id: str
    kind: str
    channel: str
    target: str | None
    payload: str
    created_at: float
    due_at: float
    attempts: int
    status: str
    claim: str | None
    claim_until: float | None
    done_at: float | None
    error: str | None

    @property
    def data(self) -> dict[str, Any]:
        out: dict[str, Any] = json.loads(self.payload)
        return out


@functools.cache
def _claim_statement(dialect: str, limit: int) -> Any:
    """The statement of :func:`claim` for a database dialect, built once: its values are bound parameters
    (``now``, ``token``, ``until``). Built at every round (every two seconds in every process), its expression
    tree left some forty objects in reference cycles a call, the only garbage the server's collector found under
    load (``collector.py``, docs/architecture.md)."""
    now = bindparam("now", type_=Float())
    free = (OutboxRow.status == "pending") & (OutboxRow.due_at <= now) & \
        (OutboxRow.channel.in_(("push", "email"))) & (OutboxRow.claim_until.is_(None) | (OutboxRow.claim_until < now))
    pick = select(OutboxRow.id).where(free).order_by(OutboxRow.due_at).limit(limit)
    if dialect == "postgresql":
        pick = pick.with_for_update(skip_locked=True)
    return update(OutboxRow).where(OutboxRow.id.in_(pick.scalar_subquery()), free).values(
        claim=bindparam("token", type_=String()), claim_until=bindparam("until", type_=Float()),
        attempts=OutboxRow.attempts + 1).returning(*OUTBOX.c)


def claim(engine: Engine, token: str, limit: int = 50, now: float | None = None) -> list[Delivery]:
    """Claim up to ``limit`` due push and e-mail deliveries for this process (``token``): each row is claimed
    by one process only."""
    now = time.time() if now is None else now
    with begin(engine) as conn:
        stmt = _claim_statement(conn.dialect.name, limit)
        rows = conn.execute(stmt, {"now": now, "token": token, "until": now + CLAIM_SECONDS}).mappings()
        return [Delivery(**r) for r in rows]


def claim_digests(engine: Engine, token: str, limit: int = 20, now: float | None = None) -> dict[str, list[Delivery]]:
    """Claim the due digest lines of up to ``limit`` accounts: one process takes an account's digest (its
    ``notify_settings.digest_claim``), then every due line of it."""
    now = time.time() if now is None else now
    out: dict[str, list[Delivery]] = {}
    with begin(engine) as conn:
        accounts = list(conn.execute(
            select(OutboxRow.account_id).where(OutboxRow.channel == "digest", OutboxRow.status == "pending",
                                               OutboxRow.due_at <= now, OutboxRow.claim.is_(None))
            .group_by(OutboxRow.account_id).limit(limit)).scalars())
    for account in accounts:
        with begin(engine) as conn:
            conn.execute(_insert(conn, SettingsRow).values(account_id=account))
            took = conn.execute(update(SettingsRow).where(
                SettingsRow.account_id == account,
                SettingsRow.digest_until.is_(None) | (SettingsRow.digest_until < now)).values(
                digest_claim=token, digest_until=now + CLAIM_SECONDS)).rowcount
            if not took:
                continue
            rows = list(conn.execute(update(OutboxRow).where(
                OutboxRow.account_id == account, OutboxRow.channel == "digest", OutboxRow.status == "pending",
                OutboxRow.due_at <= now, OutboxRow.claim_until.is_(None) | (OutboxRow.claim_until < now))
                .values(claim=token, claim_until=now + CLAIM_SECONDS, attempts=OutboxRow.attempts + 1)
                .returning(*OUTBOX.c)).mappings())
            if rows:
                out[account] = [Delivery(**r) for r in rows]
    return out


def release_digest(engine: Engine, account_id: str, token: str) -> None:
    with begin(engine) as conn:
        conn.execute(update(SettingsRow).where(SettingsRow.account_id == account_id, SettingsRow.digest_claim == token)
                     .values(digest_claim=None, digest_until=None))


def finish(engine: Engine, ids: list[int], token: str, status: str, error: str | None = None) -> int:
    """Record the end of claimed deliveries: ``sent``, ``dropped`` (gone subscription, stale, unsubscribed) or
    ``failed``. Only this process's claim is ended."""
    with begin(engine) as conn:
        return conn.execute(update(OutboxRow).where(OutboxRow.id.in_(ids), OutboxRow.claim == token).values(
            status=status, done_at=time.time(), claim=None, claim_until=None,
            error=(error or None) and error[:200])).rowcount


def retry(engine: Engine, row: Delivery, token: str, error: str, now: float | None = None) -> str:
    """A failed try: again after the back-off, or ``failed`` after :data:`MAX_ATTEMPTS` tries."""
    now = time.time() if now is None else now
    if row.attempts >= MAX_ATTEMPTS:
        finish(engine, [row.id], token, "failed", error)
        return "failed"
    with begin(engine) as conn:
        conn.execute(update(OutboxRow).where(OutboxRow.id == row.id, OutboxRow.claim == token).values(
            claim=None, claim_until=None, due_at=now + backoff(row.attempts), error=error[:200]))
    return "retry"


def prune(engine: Engine, now: float | None = None) -> int:
    """Forget deliveries done and page notifications read more than :data:`KEEP_SECONDS` ago."""
    cut = (time.time() if now is None else now) - KEEP_SECONDS
    with begin(engine) as conn:
        n = conn.execute(delete(OutboxRow).where(OutboxRow.done_at < cut)).rowcount
        n += conn.execute(delete(InboxRow).where(InboxRow.created_at < cut)).rowcount
    return int(n)


# --------------------------------------------------------------------------- the bell
def inbox(conn: Connection, account_id: str, limit: int = 30) -> tuple[int, list[dict[str, Any]]]:
    unread = conn.execute(select(func.count()).select_from(InboxRow).where(
        InboxRow.account_id == account_id, InboxRow.read_at.is_(None))).scalar_one()
    rows = conn.execute(select(InboxRow.id, InboxRow.kind, InboxRow.payload, InboxRow.created_at, InboxRow.read_at)
                        .where(InboxRow.account_id == account_id)
                        .order_by(InboxRow.created_at.desc(), InboxRow.id.desc()).limit(limit))
    items = [{"id": r.id, "kind": r.kind, "data": json.loads(r.payload), "created_at": r.created_at,
              "read": r.read_at is not None} for r in rows]
    return int(unread), items


def mark_read(conn: Connection, account_id: str, upto: int | None = None) -> int:
    q = update(InboxRow).where(InboxRow.account_id == account_id, InboxRow.read_at.is_(None))
    if upto is not None:
        q = q.where(InboxRow.id <= upto)
    return int(conn.execute(q.values(read_at=time.time())).rowcount)


def forget_account(conn: Connection, account_id: str) -> None:
    """Delete everything of an account kept here (account deletion)."""
    for table in (OutboxRow, InboxRow, PrefRow, SettingsRow, PushSubscriptionRow):
        conn.execute(delete(table).where(table.account_id == account_id))


def counts(engine: Engine) -> dict[str, int]:
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT status, channel, count(*) FROM notify_outbox GROUP BY status, channel")).all()
    return {f"{s}:{c}": int(n) for s, c, n in rows}
