"""The notification dispatcher of one server process: stores events (``emit``) and delivers what is due.

Every process runs one; they share the outbox in the database. A round claims due deliveries
(``store.claim``: each row by one process only), reads what they need in one go (``Notifier.known``), sends them
off the event loop in ``concurrency`` lanes of the notifier's own threads (encryption, HTTP and SMTP block), and
records each result, the batch's together: sent, dropped (the subscription is gone, the account
unsubscribed, the turn already played) or tried again after a back-off, up to ``store.MAX_ATTEMPTS`` tries.
A round runs every ``poll`` seconds, and at once after this process stored an event.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import secrets
import threading
import time
from collections.abc import Awaitable, Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import bindparam, text
from sqlalchemy.engine import Connection, Engine

from ..mail import Mailer, MailError
from . import mailer, push, store, texts
from .store import Delivery, Event
from .store import begin as store_begin

log = logging.getLogger("spacetable.server.notify")
#: what may be emitted: events, a function giving them (run in the worker thread), or events for a match's seats
Emitted = Iterable[Event] | Callable[[], list[Event]] | store.SeatEvents
#: the seats at the table of some matches, service-wide (``social.presence.Presence.at_tables``): match id -> seats;
#: ``None`` when that is unknown now (then nothing is left out)
AtTable = Callable[[list[str]], Awaitable[dict[str, set[int]] | None]]


@dataclass
class Contact:
    """Where an account is reached: its verified e-mail address (``None``: no mail) and its language."""

    email: str | None
    lang: str = "en"


#: an account's contact (``None``: the account is gone)
Directory = Callable[[str], Contact | None]


@dataclass
class NotifyConfig:
    """The operator's settings (``spacetable serve`` flags, docs/server.md)."""

    #: the site's address as players reach it (links in mails; the VAPID ``sub`` claim's fallback)
    public_url: str = "http://localhost:8000"
    #: the VAPID contact (``mailto:`` or ``https:``) push services may write to
    push_contact: str | None = None
    #: tests only: push endpoints on loopback, over plain http (``--push-allow-insecure-loopback``)
    push_allow_insecure_loopback: bool = False
    poll: float = 2.0
    #: deliveries claimed by one round's batch, and the lanes (threads) sending them
    batch: int = 200
    concurrency: int = 8

    @property
    def contact(self) -> str:
        if self.push_contact:
            return self.push_contact
        return self.public_url


@dataclass
class Stats:
    sent: dict[str, int] = field(default_factory=lambda: {"push": 0, "email": 0, "digest": 0})
    dropped: int = 0
    retried: int = 0
    failed: int = 0


@dataclass
class Known:
    """What a round reads once for its whole batch of deliveries (one worker-thread job, one connection) instead of
    once a delivery: which seats still have to act, the accounts' contacts and mail modes, the push subscriptions."""

    waiting: set[tuple[str, int]] = field(default_factory=set)
    contacts: dict[str, Contact | None] = field(default_factory=dict)
    email_modes: dict[str, str] = field(default_factory=dict)
    subscriptions: dict[str, dict[str, Any] | None] = field(default_factory=dict)


@dataclass
class Outcome:
    """How one delivery ended: ``sent``, ``dropped``, ``failed`` (``error``: why), ``gone`` (the push service
    forgot the subscription: removed, the delivery dropped) or ``retry`` (after the back-off)."""

    row: Delivery
    status: str
    error: str | None = None


def waiting_seats(conn: Connection, match_ids: Iterable[str]) -> set[tuple[str, int]]:
    """The (match, seat) pairs of ``match_ids`` whose seat is still to act in a running match (a "your turn" not
    yet answered)."""
    out: set[tuple[str, int]] = set()
    ids = sorted(set(match_ids))
    for k in range(0, len(ids), 500):
        for row in conn.execute(text("SELECT id, status, to_act FROM matches WHERE id IN :m").bindparams(
                bindparam("m", expanding=True)), {"m": ids[k:k + 500]}):
            if row.status == "running" and row.to_act:
                out.update((str(row.id), int(s)) for s in json.loads(row.to_act))
    return out


class Notifier:
    """One process's part of the notifications."""

    def __init__(self, engine: Engine, config: NotifyConfig, directory: Directory, mail: Mailer | None = None) -> None:
        self.engine = engine
        self.config = config
        self.directory = directory
        #: the operator's SMTP relay (``server/mail.py``); ``None``: no mail channel
        self.mailer = mail
        self.token = f"n-{secrets.token_hex(8)}"
        self.stats = Stats()
        self.vapid: push.Vapid | None = None
        self._key: bytes | None = None
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._pending: set[asyncio.Task[Any]] = set()
        #: the threads a round's lanes send in (``config.concurrency``), made at the first batch
        self._pool: ThreadPoolExecutor | None = None
        #: what ``emit_soon`` was given and is not being stored yet, and the task storing it
        self._soon: list[Emitted] = []
        self._soon_task: asyncio.Task[None] | None = None
        #: who is at which table on any process (set by the app): a match's events for a seat whose player is at
        #: the table are left out when stored (``SeatEvents.unless_at_table``)
        self.at_table: AtTable | None = None
        #: hourly retention jobs run in a worker thread (``store.prune``; the chat's own)
        self.housekeeping: list[Callable[[], Any]] = []
        #: the play server's storage (``storage.Storage``, set by the app): the seats' accounts of a match's events
        #: are read through it, on the event loop's side; without it, in the worker thread that stores the events
        self.db: Any = None

    # ------------------------------------------------------------------ life cycle
    async def start(self) -> None:
        """Make or read the VAPID key and the link-signing key (first start: made and stored), then deliver."""
        self.vapid = await asyncio.to_thread(push.Vapid.load, self.engine)
        self._key = await asyncio.to_thread(store.hmac_key, self.engine)
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        from ..tasks import stop_tasks

        tasks = [t for t in [self._task, *self._pending] if t is not None]
        await stop_tasks(tasks, "notification tasks")
        self._task = None
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    @property
    def key(self) -> bytes:
        if self._key is None:
            self._key = store.hmac_key(self.engine)
        return self._key

    def unsubscribe_link(self, account_id: str) -> str:
        return mailer.unsubscribe_url(self.config.public_url, account_id, store.sign(self.key, account_id, "unsubscribe"))

    # ---------------------------------------------------------------------- events
    async def emit(self, events: Iterable[Event] | Callable[[], list[Event]]) -> int:
        """Store ``events`` (each once however often emitted) and deliver them soon. ``events`` may be a function
        giving them (run in the worker thread: it may read the database)."""
        return await self._emit_all([events if callable(events) else list(events)])

    async def _emit_all(self, items: list[Emitted]) -> int:
        """Store the events of every one of ``items`` in one worker-thread job, written in one transaction (none when
        there are none). The seats' accounts are read first in one query, through the play storage (``db``) when the
        app gave it, so that events for guests' seats need no thread at all. A match's events for seats whose players
        are at the table are left out first (:meth:`_away`): when that leaves nothing, nothing is read or written."""
        items = await self._away(items)
        if not items:
            return 0
        seats = [i for i in items if isinstance(i, store.SeatEvents)]
        found: list[Event] = []
        if seats and self.db is not None:
            # the seats' accounts read on the play storage's own connection: a match of guests (a move's "your
            # turn", a match's start) finds none and stops here, without a worker thread
            found = await self.db.read(lambda tx: store.seat_events_tx(tx, seats))
            items = [i for i in items if not isinstance(i, store.SeatEvents)]
            seats = []
            if not items and not found:
                return 0

        def job() -> int:
            batch = [*found, *(e for i in items if not isinstance(i, store.SeatEvents) for e in (i() if callable(i) else i))]
            if seats:
                with self.engine.connect() as conn:
                    batch += store.seat_events(conn, seats)
            if not batch:
                return 0
            with store_begin(self.engine) as conn:
                return store.enqueue(conn, batch)

        added = await asyncio.to_thread(job)
        if added:
            self._wake.set()
        return added

    async def _away(self, items: list[Emitted]) -> list[Emitted]:
        """``items`` without the events (``SeatEvents.unless_at_table``) of seats whose players are at the table on
        any process now. The process that stored a move leaves out the seats it holds a socket of (``MatchWatcher``);
        with several processes the others' are read here, from the shared presence (one Redis round trip for the
        batch), so that a player at the table on another process gets no "your turn" after each move."""
        if self.at_table is None:
            return items
        asked = sorted({i.match_id for i in items if isinstance(i, store.SeatEvents) and i.unless_at_table})
        if not asked:
            return items
        try:
            seated = await self.at_table(asked)
        except Exception:  # presence unknown (Redis away): store the events, as without it
            log.warning("the seats at the table could not be read; storing the events anyway", exc_info=True)
            seated = None
        if not seated:
            return items
        out: list[Emitted] = []
        for i in items:
            if isinstance(i, store.SeatEvents) and i.unless_at_table and seated.get(i.match_id):
                here = seated[i.match_id]
                found = tuple(f for f in i.found if f[0] not in here)
                if not found:
                    continue
                i = dataclasses.replace(i, found=found)
            out.append(i)
        return out

    def emit_soon(self, events: Emitted) -> None:
        """:meth:`emit` from synchronous code on the event loop (a match hook, after every action); errors are
        logged. What is emitted while a batch is being stored waits for the next one: one worker-thread job and one
        transaction per batch, not per action (the server's hot path, issue 26)."""
        self._soon.append(events if callable(events) or isinstance(events, store.SeatEvents) else list(events))
        if self._soon_task is None:
            task = self._soon_task = asyncio.get_running_loop().create_task(self._emit_queued())
            self._pending.add(task)
            task.add_done_callback(self._done)

    async def _emit_queued(self) -> None:
        try:
            while self._soon:
                items, self._soon = self._soon, []
                try:
                    await self._emit_all(items)
                except Exception:
                    log.error("storing %d notification batches failed", len(items), exc_info=True)
        finally:
            self._soon_task = None

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._pending.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("storing notifications failed", exc_info=task.exception())

    # -------------------------------------------------------------------- delivery
    async def _run(self) -> None:
        last_prune = 0.0
        while True:
            try:
                await self.round()
                if time.time() - last_prune > 3600:
                    last_prune = time.time()
                    await asyncio.to_thread(store.prune, self.engine)
                    for job in self.housekeeping:
                        await asyncio.to_thread(job)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("a notification round failed")
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.config.poll)

    async def round(self, now: float | None = None) -> int:
        """Claim and deliver what is due now; the number of deliveries handled."""
        handled = 0
        while True:
            rows = await asyncio.to_thread(store.claim, self.engine, self.token, self.config.batch, now)
            if rows:
                known = await asyncio.to_thread(self.known, rows)
                outcomes = await self._send_batch(rows, known)
                await asyncio.to_thread(self._record, outcomes)
                handled += len(rows)
            digests = await asyncio.to_thread(store.claim_digests, self.engine, self.token, 20, now)
            for account, lines in digests.items():
                await self.deliver_digest(account, lines)
                handled += len(lines)
            if len(rows) < self.config.batch and not digests:
                return handled

    def known(self, rows: list[Delivery]) -> Known:
        """:class:`Known` for a claimed batch (run in a worker thread)."""
        k = Known()
        turns = [r for r in rows if r.kind == "your_turn" and r.data.get("match") is not None
                 and r.data.get("seat") is not None]
        accounts = sorted({r.account_id for r in rows})
        targets = sorted({r.target for r in rows if r.channel == "push" and r.target})
        with self.engine.connect() as conn:
            if turns:
                k.waiting = waiting_seats(conn, (str(r.data["match"]) for r in turns))
            if any(r.channel == "email" for r in rows):
                k.email_modes = store.email_modes(conn, accounts)
            if targets:
                k.subscriptions = push.subscriptions(conn, targets)
            many = getattr(self.directory, "many", None)
            if many is not None:
                k.contacts = many(conn, accounts)
        if many is None:
            k.contacts = {a: self.directory(a) for a in accounts}
        return k

    async def _send_batch(self, rows: list[Delivery], known: Known) -> list[Outcome]:
        """Send a claimed batch: ``config.concurrency`` lanes in the notifier's own threads, each taking the next
        delivery until none is left (one thread hop per lane, not per delivery; the event loop's default threads
        stay free for the server's own work). Each delivery gets exactly one outcome."""
        pending = iter(rows)
        lock = threading.Lock()
        out: list[Outcome] = []

        def lane() -> None:
            while True:
                with lock:
                    row = next(pending, None)
                if row is None:
                    return
                outcome = self.deliver(row, known)
                with lock:
                    out.append(outcome)

        loop = asyncio.get_running_loop()
        pool = self._lanes()
        await asyncio.gather(*(loop.run_in_executor(pool, lane) for _ in range(min(self.config.concurrency, len(rows)))))
        return out

    def _lanes(self) -> ThreadPoolExecutor:
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max(1, self.config.concurrency), thread_name_prefix="notify")
        return self._pool

    def deliver(self, row: Delivery, known: Known) -> Outcome:
        """Send one claimed delivery (blocking: a lane's thread) and say how it ended (``known``: what the round
        read for its batch)."""
        data = row.data
        try:
            if row.kind == "your_turn" and data.get("match") is not None and data.get("seat") is not None \
                    and (str(data["match"]), int(data["seat"])) not in known.waiting:
                return Outcome(row, "dropped", "already played")
            contact = known.contacts.get(row.account_id)
            if contact is None:
                return Outcome(row, "dropped", "no such account")
            if row.channel == "push":
                return self._push(row, data, contact, known)
            if row.channel == "email":
                mail = self._mail(row.account_id, [(row.kind, data)], contact, False, [row.id],
                                  known.email_modes.get(row.account_id))
                if mail is None or self.mailer is None:
                    return Outcome(row, "dropped", "no mail relay, address or consent")
                self.mailer.send_sync(*mail)
                return Outcome(row, "sent")
            return Outcome(row, "dropped", f"no channel {row.channel}")
        except (push.PushFailed, MailError, OSError) as exc:
            return Outcome(row, "retry", f"{type(exc).__name__}: {exc}"[:200])
        except Exception as exc:
            log.exception("notification %s could not be delivered", row.id)
            return Outcome(row, "retry", type(exc).__name__)

    def _record(self, outcomes: list[Outcome]) -> None:
        """Record a batch's outcomes (a worker thread): the sent ones in one transaction, the dropped and failed ones
        by reason, the gone subscriptions removed, each retry with its back-off."""
        groups: dict[tuple[str, str | None], list[Outcome]] = {}
        for o in outcomes:
            if o.status == "gone":
                push.forget(self.engine, o.row.target or "")
                o.status, o.error = "dropped", "subscription gone"
            if o.status == "retry":
                self._retry(o.row, o.error or "")
                continue
            groups.setdefault((o.status, o.error), []).append(o)
        for (status, error), group in groups.items():
            store.finish(self.engine, [o.row.id for o in group], self.token, status, error)
            for o in group:
                self._count(o.row, status)

    def _count(self, row: Delivery, status: str) -> None:
        if status == "sent":
            self.stats.sent[row.channel] += 1
        elif status == "dropped":
            self.stats.dropped += 1
        elif status == "failed":
            self.stats.failed += 1

    def _retry(self, row: Delivery, error: str) -> None:
        if store.retry(self.engine, row, self.token, error) == "failed":
            self.stats.failed += 1
            log.warning("notification %s given up after %d tries: %s", row.id, row.attempts, error)
        else:
            self.stats.retried += 1

    def _push(self, row: Delivery, data: dict[str, Any], contact: Contact, known: Known) -> Outcome:
        info = known.subscriptions.get(row.target or "")
        if info is None:
            return Outcome(row, "dropped", "subscription removed")
        title, body = texts.message(row.kind, data, contact.lang)
        message = {"title": title, "body": body, "url": texts.link("", data), "tag": f"{row.kind}:{data.get('match', '')}",
                   "kind": row.kind, "id": row.id}
        assert self.vapid is not None
        try:
            push.send(self.vapid, info, message, self.config.contact, self.config.push_allow_insecure_loopback)
        except push.Gone:
            return Outcome(row, "gone")
        except push.Refused as exc:
            return Outcome(row, "failed", str(exc))
        return Outcome(row, "sent")

    def _mail(self, account_id: str, items: list[tuple[str, dict[str, Any]]], contact: Contact, digest: bool,
              ids: list[int], mode: str | None) -> tuple[str, str, str, None, dict[str, str]] | None:
        """The arguments of :meth:`Mailer.send` for one mail (one event, or a digest); ``None`` when there is nobody
        or nothing to send it by (``mode``: the account's mail mode, ``None``: not read)."""
        if self.mailer is None or not contact.email or mode == "off":
            return None
        subject, body, headers = mailer.compose(contact.lang, self.config.public_url, self.unsubscribe_link(account_id),
                                                items, digest=digest)
        headers["X-Spacetable-Notification"] = ",".join(str(i) for i in ids)
        return contact.email, subject, body, None, headers

    async def _email(self, account_id: str, items: list[tuple[str, dict[str, Any]]], contact: Contact,
                     digest: bool, ids: list[int]) -> bool:
        """Send one mail (a digest); ``False`` when there is nobody or nothing to send it by."""
        def mode() -> str:
            with self.engine.connect() as conn:
                return store.settings(conn, account_id).email_mode

        if self.mailer is None or not contact.email or await asyncio.to_thread(mode) == "off":
            return False
        mail = self._mail(account_id, items, contact, digest, ids, None)
        if mail is None:
            return False
        await self.mailer.send(*mail)
        return True

    async def deliver_digest(self, account_id: str, lines: list[Delivery]) -> None:
        """One mail for an account's due digest lines (the turns already played left out)."""
        ids = [r.id for r in lines]

        def still_due() -> list[Delivery]:
            turns = [r for r in lines if r.kind == "your_turn" and r.data.get("match") is not None]
            if not turns:
                return lines
            with self.engine.connect() as conn:
                waiting = waiting_seats(conn, (str(r.data["match"]) for r in turns))
            return [r for r in lines if r.kind != "your_turn" or r.data.get("match") is None
                    or (str(r.data["match"]), int(r.data["seat"])) in waiting]

        try:
            contact = await asyncio.to_thread(self.directory, account_id)
            keep = await asyncio.to_thread(still_due)
            sent = bool(contact is not None and keep
                        and await self._email(account_id, [(r.kind, r.data) for r in keep], contact, digest=True,
                                              ids=[r.id for r in keep]))
            await asyncio.to_thread(store.finish, self.engine, ids, self.token, "sent" if sent else "dropped",
                                    None if sent else "nothing to send")
            if sent:
                self.stats.sent["digest"] += 1
            else:
                self.stats.dropped += len(ids)
        except (MailError, OSError) as exc:
            for r in lines:
                await asyncio.to_thread(self._retry, r, f"{type(exc).__name__}: {exc}"[:200])
        finally:
            await asyncio.to_thread(store.release_digest, self.engine, account_id, self.token)


class AccountsDirectory:
    """Contacts from issue 20's ``accounts`` table: the address only once verified, the preferred language."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def __call__(self, account_id: str) -> Contact | None:
        from sqlalchemy.exc import DBAPIError

        try:
            with self.engine.connect() as conn:
                row = conn.execute(text("SELECT email, email_verified, lang FROM accounts WHERE id = :a"),
                                   {"a": account_id}).first()
        except DBAPIError:  # a database without accounts
            return None
        if row is None:
            return None
        return Contact(row.email if row.email and row.email_verified else None, row.lang or "en")

    def many(self, conn: Connection, account_ids: list[str]) -> dict[str, Contact | None]:
        """The contacts of ``account_ids`` on ``conn``, 500 a query (a delivery round's whole batch)."""
        from sqlalchemy.exc import DBAPIError

        out: dict[str, Contact | None] = dict.fromkeys(account_ids)
        ids = sorted(set(account_ids))
        try:
            for k in range(0, len(ids), 500):
                for row in conn.execute(text("SELECT id, email, email_verified, lang FROM accounts WHERE id IN :a")
                                        .bindparams(bindparam("a", expanding=True)), {"a": ids[k:k + 500]}):
                    out[str(row.id)] = Contact(row.email if row.email and row.email_verified else None, row.lang or "en")
        except DBAPIError:  # a database without accounts
            conn.rollback()
            return dict.fromkeys(account_ids)
        return out
