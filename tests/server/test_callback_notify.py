"""Notifications (issue 21): the outbox delivers each event once per channel, across processes; Web Push over
the real protocol to a push service on loopback (VAPID checked, payload decrypted); gone subscriptions
removed; retries with back-off; the SSRF guard on subscription endpoints; mails to a real SMTP server on
loopback with the quiet period, the digest and the signed one-click unsubscribe."""

from __future__ import annotations

import asyncio
import email
import email.policy
import socket
import threading
import time
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from sqlalchemy import select, text
from sqlalchemy.engine import Engine

from spacetable.games import get_game
from spacetable.server.catchup import Catchup
from spacetable.server.errors import ServiceError
from spacetable.server.live import LiveMatch, Seat
from spacetable.server.mail import Mailer, SmtpRelay
from spacetable.server.notify import Contact, Event, Notifier, NotifyConfig, push, store
from spacetable.server.notify.events import MatchWatcher
from spacetable.server.notify.models import OutboxRow, PushSubscriptionRow

from .pushservice import PushService

pytestmark = pytest.mark.callback


class Inbox:
    """An aiosmtpd handler keeping every message received."""

    def __init__(self) -> None:
        self.messages: list[email.message.EmailMessage] = []
        self.lock = threading.Lock()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        msg = email.message_from_bytes(envelope.original_content, policy=email.policy.default)
        with self.lock:
            self.messages.append(msg)  # type: ignore[arg-type]
        return "250 OK"


@pytest.fixture
def smtp() -> Iterator[tuple[Inbox, Mailer]]:
    inbox = Inbox()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield inbox, Mailer(SmtpRelay("127.0.0.1", port), "tables@example.org")
    finally:
        controller.stop()


CONTACTS = {"alice": Contact("alice@example.org", "fr"), "bob": Contact("bob@example.org", "en")}


def notifier(engine: Engine, relay: Mailer | None = None, **config: Any) -> Notifier:
    cfg = NotifyConfig(public_url="https://tables.example.org", push_allow_insecure_loopback=True, **config)
    return Notifier(engine, cfg, CONTACTS.get, relay)


def run(coro: Any) -> Any:
    return asyncio.run(coro)


async def started(n: Notifier) -> Notifier:
    n.vapid = await asyncio.to_thread(push.Vapid.load, n.engine)
    return n


def add_match(engine: Engine, match_id: str, to_act: str = "[0]", status: str = "running") -> None:
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO matches (id, game, name, config, seed, status, version, ai_seconds, created_at, "
                          "updated_at, open_seed, to_act, revision, epoch) VALUES (:id, 'arena', 'Friday', '{}', 1, "
                          ":st, 3, 1.0, 0, 0, false, :ta, 0, 0)"), {"id": match_id, "st": status, "ta": to_act})


def outbox(engine: Engine, channel: str = "push") -> list[Any]:
    with engine.connect() as conn:
        return list(conn.execute(select(OutboxRow.channel, OutboxRow.status, OutboxRow.attempts, OutboxRow.due_at,
                                        OutboxRow.error).where(OutboxRow.channel == channel).order_by(OutboxRow.id)))


# ------------------------------------------------------------------------------- push
def test_push_over_the_real_protocol(engine: Engine, push_service: PushService) -> None:
    subs = [push_service.subscribe(), push_service.subscribe()]
    for s in subs:
        info = s.info()
        push.subscribe(engine, "alice", info["endpoint"], info["keys"]["p256dh"], info["keys"]["auth"], allow_loopback=True)
    n = notifier(engine)

    async def go() -> int:
        await started(n)
        await n.emit([Event("alice", "match_start", "m1:start", {"match": "m1", "game": "arena", "name": "Friday"})])
        return await n.round()

    assert run(go()) == 2
    assert push_service.rejected == []
    got = sorted(push_service.received, key=lambda r: r.subscription)
    assert sorted(r.subscription for r in got) == sorted(s.id for s in subs)
    for r in got:
        assert r.message["title"] == "La partie commence : Friday"  # alice reads French
        assert r.message["url"] == "/match/m1"
        assert r.vapid_key == n.vapid.public_key if n.vapid else False
        assert r.claims["sub"] == "https://tables.example.org"
    assert [row.status for row in outbox(engine)] == ["sent", "sent"]
    # emitted again (a second process, a repeated hook): stored once, so nothing more is sent
    assert run(n.emit([Event("alice", "match_start", "m1:start", {"match": "m1"})])) == 0
    assert run(n.round()) == 0
    assert len(push_service.received) == 2


def test_vapid_key_made_once_and_kept(engine: Engine) -> None:
    a = push.Vapid.load(engine)
    b = push.Vapid.load(engine)
    assert a.public_key == b.public_key and len(push.unb64url(a.public_key)) == 65
    with engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM server_secrets WHERE name = 'vapid'")).scalar_one() == 1


def test_gone_subscription_removed(engine: Engine, push_service: PushService) -> None:
    keep, gone = push_service.subscribe(), push_service.subscribe()
    for s in (keep, gone):
        i = s.info()
        push.subscribe(engine, "bob", i["endpoint"], i["keys"]["p256dh"], i["keys"]["auth"], allow_loopback=True)
    push_service.status[gone.id] = 410
    n = notifier(engine)

    async def go() -> None:
        await started(n)
        await n.emit([Event("bob", "match_end", "m2:end", {"match": "m2", "game": "arena"})])
        await n.round()

    run(go())
    with engine.connect() as conn:
        left = list(conn.execute(select(PushSubscriptionRow.endpoint)).scalars())
    assert left == [keep.endpoint]
    assert sorted(r.status for r in outbox(engine)) == ["dropped", "sent"]
    assert [r.status for r in outbox(engine, "email")] == ["dropped"]  # no relay: the mail is dropped, not retried
    assert [r.subscription for r in push_service.received] == [keep.id]


def test_failures_retry_with_backoff_then_give_up(engine: Engine, push_service: PushService) -> None:
    s = push_service.subscribe()
    i = s.info()
    push.subscribe(engine, "bob", i["endpoint"], i["keys"]["p256dh"], i["keys"]["auth"], allow_loopback=True)
    push_service.status[s.id] = 503
    n = notifier(engine)

    async def go() -> None:
        await started(n)
        await n.emit([Event("bob", "challenge", "c1", {"challenge": "c1", "game": "arena", "by": "alice"})])
        t0 = time.time()
        await n.round()
        [row] = outbox(engine)
        assert row.status == "pending" and row.attempts == 1 and row.due_at >= t0 + store.BACKOFF_BASE
        assert "503" in row.error
        assert await n.round() == 0  # not due yet
        # the push service recovers: the next try (when due) is delivered
        push_service.status[s.id] = 201
        await n.round(now=row.due_at + 1)
        assert outbox(engine)[0].status == "sent"
        assert push_service.received[0].message["url"] == "/challenge/c1"
        # a service that never recovers: given up after MAX_ATTEMPTS tries, each later than the one before
        await n.emit([Event("bob", "challenge", "c2", {"challenge": "c2", "game": "arena", "by": "alice"})])
        push_service.status[s.id] = 500
        due = [0.0]
        now = time.time()
        for _ in range(store.MAX_ATTEMPTS):
            await n.round(now=now)
            r = outbox(engine)[1]
            due.append(r.due_at)
            now = r.due_at + 1
        assert outbox(engine)[1].status == "failed"
        assert due[2:-1] == sorted(due[2:-1])

    run(go())


def test_backoff_bounded() -> None:
    assert store.backoff(1) < 20 and store.backoff(30) <= store.BACKOFF_CAP * 1.25


@pytest.mark.parametrize("endpoint", [
    "http://push.example.org/x",  # not https
    "https://127.0.0.1/x", "https://localhost/x", "https://[::1]/x", "https://[::ffff:127.0.0.1]/x",
    "https://10.1.2.3/x", "https://192.168.1.1/x", "https://172.16.0.5/x", "https://169.254.169.254/latest",
    "https://[fe80::1]/x", "https://[fc00::1]/x", "https://0.0.0.0/x", "https://224.0.0.1/x",
    "https://user:pw@8.8.8.8/x", "ftp://8.8.8.8/x", "https://no-such-host.invalid/x", "not a url", "https:///x",
    "https://8.8.8.8/" + "a" * 3000,
])
def test_ssrf_guard_refuses(endpoint: str) -> None:
    with pytest.raises(ServiceError) as info:
        push.check_endpoint(endpoint)
    assert info.value.status == 422


def test_ssrf_guard_loopback_flag() -> None:
    push.check_endpoint("https://8.8.8.8/push/abc")  # a public address
    push.check_endpoint("http://127.0.0.1:9/x", allow_loopback=True)
    for bad in ("https://10.0.0.1/x", "http://8.8.8.8/x", "https://169.254.169.254/x"):
        with pytest.raises(ServiceError):
            push.check_endpoint(bad, allow_loopback=True)


def test_subscription_refused_changes_nothing(engine: Engine, push_service: PushService) -> None:
    good = push_service.subscribe().info()["keys"]
    for endpoint, keys in [("https://10.0.0.8/push/1", good), ("http://127.0.0.1:1/push", good),
                           ("https://8.8.8.8/p", {"p256dh": "AAAA", "auth": good["auth"]}),
                           ("https://8.8.8.8/p", {"p256dh": good["p256dh"], "auth": "short"})]:
        with pytest.raises(ServiceError):
            push.subscribe(engine, "alice", endpoint, keys["p256dh"], keys["auth"])
    with engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM push_subscriptions")).scalar_one() == 0


def test_two_processes_deliver_each_event_once(engine: Engine, push_service: PushService) -> None:
    """Two notifiers (two processes' claims) on one database, rounds at once: every delivery sent once."""
    subs = []
    for account in ("alice", "bob"):
        s = push_service.subscribe()
        i = s.info()
        push.subscribe(engine, account, i["endpoint"], i["keys"]["p256dh"], i["keys"]["auth"], allow_loopback=True)
        subs.append(s)
    a, b = notifier(engine, batch=7), notifier(engine, batch=7)
    events = [Event(acc, "your_turn", f"m{k}:{k}", {"match": f"m{k}", "seat": 0, "game": "arena"})
              for k in range(40) for acc in ("alice", "bob")]
    for k in range(40):
        add_match(engine, f"m{k}")

    async def go() -> None:
        await started(a)
        await started(b)
        await a.emit(events)
        await b.emit(events)  # the other process stored the same events: nothing new
        await asyncio.gather(a.round(), b.round(), a.round(), b.round())

    run(go())
    got = [(r.subscription, r.message["url"]) for r in push_service.received]
    assert len(got) == 80 and len(set(got)) == 80
    assert a.stats.sent["push"] + b.stats.sent["push"] == 80
    assert {r.status for r in outbox(engine)} == {"sent"}


def test_hooks_emitting_on_every_action_are_stored_in_batches(engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    """``emit_soon`` (the match hook, after every action) stores what piled up in one transaction: a hundred hooks of
    one turn of the event loop cost one worker-thread job, not a hundred, and lose nothing; the same event given
    twice is stored once."""
    transactions: list[int] = []
    enqueue = store.enqueue

    def counted(conn: Any, batch: list[Event]) -> int:
        transactions.append(len(batch))
        return enqueue(conn, batch)

    monkeypatch.setattr(store, "enqueue", counted)
    n = notifier(engine)

    async def go() -> None:
        for k in range(100):
            n.emit_soon(lambda k=k: [Event("alice", "your_turn", f"b{k}:1", {"match": f"b{k}", "seat": 0})])
        n.emit_soon([Event("bob", "match_end", "b0:end", {"match": "b0"})])
        n.emit_soon([Event("bob", "match_end", "b0:end", {"match": "b0"})])
        for _ in range(200):
            if n._soon_task is None and not n._soon:
                break
            await asyncio.sleep(0.01)

    run(go())
    assert transactions == [102]
    with engine.connect() as conn:  # the bell's inbox: one row an event
        rows = conn.execute(text("SELECT account_id, kind FROM notify_inbox")).all()
    assert sorted(tuple(r) for r in rows) == [("alice", "your_turn")] * 100 + [("bob", "match_end")]


@pytest.mark.hotpath  # issue 26
def test_events_of_seats_at_the_table_on_any_process_are_left_out_when_stored(engine: Engine,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """A match's events for seats whose players are at the table (``Notifier.at_table``: the service-wide presence)
    are left out when stored; a chat mention is not (the flag is the watcher's); when every seat of a batch is at
    the table nothing is read or written; when presence cannot be read, everything is stored as before."""
    add_match(engine, "t1")
    with engine.begin() as conn:
        for seat, account in ((0, "alice"), (1, "bob")):
            conn.execute(text("INSERT INTO account_seats (match_id, seat, account_id, token_hash, created_at) "
                              "VALUES ('t1', :s, :a, 'h', 0)"), {"s": seat, "a": account})
    looked_up: list[int] = []
    seat_events = store.seat_events

    def counted(conn: Any, items: list[store.SeatEvents]) -> list[Event]:
        looked_up.append(len(items))
        return seat_events(conn, items)

    monkeypatch.setattr(store, "seat_events", counted)
    n = notifier(engine)
    asked: list[list[str]] = []
    seated: dict[str, set[int]] | Exception = {"t1": {0, 1}}

    async def at_table(match_ids: list[str]) -> dict[str, set[int]] | None:
        asked.append(match_ids)
        if isinstance(seated, Exception):
            raise seated
        return seated

    n.at_table = at_table

    def turn(version: int) -> store.SeatEvents:
        return store.SeatEvents("t1", tuple((s, "your_turn", f"t1:{s}:{version}", {"match": "t1", "seat": s})
                                            for s in (0, 1)), unless_at_table=True)

    def bell() -> list[tuple[str, str]]:
        with engine.connect() as conn:
            return sorted(tuple(r) for r in conn.execute(text("SELECT account_id, kind FROM notify_inbox")))

    run(n._emit_all([turn(1)]))  # both at the table: nothing looked up, nothing stored
    assert asked == [["t1"]] and looked_up == [] and bell() == []
    seated = {"t1": {0}}  # bob left; a mention of alice is hers whether she is at the table or not
    mention = store.SeatEvents("t1", ((0, "chat_mention", "t1:chat:1", {"match": "t1"}),))
    run(n._emit_all([turn(2), mention]))
    assert bell() == [("alice", "chat_mention"), ("bob", "your_turn")]
    seated = ConnectionError("Redis is away")  # unknown: stored as without presence
    run(n._emit_all([turn(3)]))
    assert bell() == [("alice", "chat_mention"), ("alice", "your_turn"), ("bob", "your_turn"), ("bob", "your_turn")]
    assert looked_up == [2, 1]


@pytest.mark.hotpath
def test_seats_another_process_said_it_holds_get_no_events_and_need_no_lookup() -> None:
    """Issue 26: a process told by another one which seats of a match it holds a socket of (a presence notice,
    ``catchup.held_elsewhere``) leaves those seats' events out when it stores a change, without asking the shared
    presence: a match played with a socket on each of two processes stores nothing after a move. A notice with no
    seat, or one whose lifetime ended, counts no more; a malformed one is dropped; a lost Redis connection forgets
    them all."""
    game = get_game("arena")
    state = game.initial_state(game.normalize_config({}), 1)
    m = LiveMatch(id="m1", game=game, name="", config={}, seed=1, status="running", ai_seconds=1.0, turn_seconds=None,
                  turn_started_at=0.0, created_at=0.0, updated_at=0.0, seats=[Seat("human", "a", "h0"),
                                                                             Seat("human", "b", "h1")], state=state)
    emitted: list[store.SeatEvents] = []
    watcher = MatchWatcher(SimpleNamespace(emit_soon=emitted.append))  # type: ignore[arg-type]
    service = SimpleNamespace(registry=SimpleNamespace(matches={"m1": m}, early={}), spawn=lambda coro: coro.close(),
                              resync=lambda: asyncio.sleep(0))

    def told(origin: str, notice: dict[str, Any]) -> list[int]:
        """The seats told by the events the watcher emits after a change, once ``origin`` sent ``notice``."""
        Catchup.notice(service, "m1", origin, notice)  # type: ignore[arg-type]
        emitted.clear()
        watcher(m)
        return sorted({f[0] for e in emitted for f in e.found})

    assert told("B", {"k": "p", "s": [1], "t": 75}) == [0]
    assert told("B", {"k": "p", "s": [0, 1], "t": 75}) == [] and emitted == []  # both at the table: nothing
    for bad in ({"k": "p", "s": [2], "t": 75}, {"k": "p", "s": "01", "t": 75}, {"k": "p", "s": [True], "t": 75},
                {"k": "p", "s": [0], "t": 0}, {"k": "p", "s": [0], "t": 10_000}, {"k": "p", "s": [0]}):
        assert told("C", bad) == [] and "C" not in m.held_elsewhere, bad
    assert told("", {"k": "p", "s": [0], "t": 75}) == [] and "" not in m.held_elsewhere
    assert told("B", {"k": "p", "s": [], "t": 75}) == [0, 1]  # B's sockets closed
    assert told("B", {"k": "p", "s": [0, 1], "t": 75}) == []
    m.held_elsewhere["B"] = (frozenset({0, 1}), time.monotonic() - 1)  # B said nothing within the lifetime
    assert told("C", {"k": "p", "s": [1], "t": 75}) == [0]
    Catchup.resync_soon(service)  # type: ignore[arg-type]
    assert m.held_elsewhere == {}
    Catchup.notice(service, "other", "B", {"k": "p", "s": [0], "t": 75})  # type: ignore[arg-type]  # not held here


# ------------------------------------------------------------------------------- mail
def test_your_turn_mail_quiet_period_and_unsubscribe_link(engine: Engine, smtp: tuple[Inbox, Mailer]) -> None:
    inbox, relay = smtp
    add_match(engine, "corr1")
    add_match(engine, "corr2")
    n = notifier(engine, relay)

    async def go() -> None:
        await started(n)
        now = time.time()
        await n.emit([Event("bob", "your_turn", "corr1:3", {"match": "corr1", "seat": 0, "game": "arena", "name": "Friday"},
                            correspondence=True),
                      Event("bob", "your_turn", "corr2:3", {"match": "corr2", "seat": 0, "game": "arena", "name": "Sunday"},
                            correspondence=True)])
        await n.round()
        assert inbox.messages == []  # the quiet period: bob may come back by himself
        with engine.begin() as conn:  # bob played in corr2 meanwhile
            conn.execute(text("UPDATE matches SET to_act = '[1]' WHERE id = 'corr2'"))
        await n.round(now=now + 31 * 60)

    run(go())
    assert len(inbox.messages) == 1
    msg = inbox.messages[0]
    assert msg["To"] == "bob@example.org" and msg["Subject"] == "Your turn: Friday"
    body = msg.get_content()
    assert "https://tables.example.org/match/corr1" in body
    link = msg["List-Unsubscribe"].strip("<>")
    assert link.startswith("https://tables.example.org/notify/unsubscribe/bob/")
    assert msg["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert link in body
    assert sorted(r.status for r in outbox(engine, "email")) == ["dropped", "sent"]


def test_digest_one_mail_a_day(engine: Engine, smtp: tuple[Inbox, Mailer]) -> None:
    inbox, relay = smtp
    with engine.begin() as conn:
        store.save_settings(conn, "alice", store.Settings(email_mode="digest", digest_hour=7))
    for m in ("d1", "d2", "d3"):
        add_match(engine, m)
    n = notifier(engine, relay)
    now = time.time()

    async def go() -> None:
        await started(n)
        await n.emit([Event("alice", "your_turn", f"{m}:1", {"match": m, "seat": 0, "game": "arena", "name": m},
                            correspondence=True) for m in ("d1", "d2", "d3")])
        await n.round()
        assert inbox.messages == []
        await n.round(now=store.next_digest(now, 7) + 1)

    run(go())
    assert len(inbox.messages) == 1
    body = inbox.messages[0].get_content()
    assert inbox.messages[0]["Subject"] == "spacetable : 3 choses vous attendent"
    assert all(f"https://tables.example.org/match/{m}" in body for m in ("d1", "d2", "d3"))


def test_unsubscribe_signature_is_per_account(engine: Engine) -> None:
    key = store.hmac_key(engine)
    sig = store.sign(key, "alice", "unsubscribe")
    assert store.verify(key, "alice", "unsubscribe", sig)
    assert not store.verify(key, "bob", "unsubscribe", sig)
    assert not store.verify(key, "alice", "unsubscribe", "")
    assert store.hmac_key(engine) == key


def test_preferences_switch_channels(engine: Engine, push_service: PushService) -> None:
    s = push_service.subscribe().info()
    push.subscribe(engine, "alice", s["endpoint"], s["keys"]["p256dh"], s["keys"]["auth"], allow_loopback=True)
    with engine.begin() as conn:
        store.set_pref(conn, "alice", "push", "chat_mention", False)
        store.set_pref(conn, "alice", "page", "chat_mention", False)
        assert store.enqueue(conn, [Event("alice", "chat_mention", "x1", {"match": "m", "by": "bob", "text": "hi"})]) == 0
        assert store.enqueue(conn, [Event("alice", "draw_offer", "x2", {"match": "m", "by": "bob"})]) == 3
        unread, items = store.inbox(conn, "alice")
        assert unread == 1 and items[0]["kind"] == "draw_offer"
        assert store.mark_read(conn, "alice") == 1
        assert store.inbox(conn, "alice")[0] == 0


@pytest.mark.hotpath  # issue 26
def test_the_seats_accounts_are_read_through_the_play_storage_and_a_guests_match_needs_no_thread(
        engine: Engine, db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the play server's storage (``Notifier.db``, as the app sets it), a match's events look up the accounts at
    its seats on that storage's own connection: the events of a guests' match (a move's "your turn", a match's
    start: no account at any seat) end there, with no worker thread and nothing written; an account's are stored as
    before, in one worker-thread job with the other events of the batch. On both databases."""
    from spacetable.server.notify import dispatcher
    from spacetable.server.storage import open_storage

    add_match(engine, "t1")
    add_match(engine, "g1")  # guests only
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO account_seats (match_id, seat, account_id, token_hash, created_at) "
                          "VALUES ('t1', 0, 'alice', 'h', 0)"))
        conn.execute(text("INSERT INTO account_seats (match_id, seat, account_id, token_hash, created_at) "
                          "VALUES ('g1', 1, NULL, 'h', 0)"))  # a seat whose account was deleted
    threads: list[str] = []
    to_thread = asyncio.to_thread

    async def counted(fn: Any, *args: Any, **kwargs: Any) -> Any:
        threads.append(getattr(fn, "__qualname__", repr(fn)))
        return await to_thread(fn, *args, **kwargs)

    monkeypatch.setattr(dispatcher.asyncio, "to_thread", counted)
    monkeypatch.setattr(store, "seat_events", lambda *_: pytest.fail("looked up in the worker thread"))

    def start(match_id: str) -> store.SeatEvents:
        return store.SeatEvents(match_id, tuple((s, "match_start", f"{match_id}:start", {"match": match_id})
                                                for s in (0, 1)))

    def bell() -> list[tuple[str, str, str]]:
        with engine.connect() as conn:
            return sorted(tuple(r) for r in conn.execute(text("SELECT account_id, kind, dedup FROM notify_inbox")))

    n = notifier(engine)

    async def go() -> list[int]:
        storage = open_storage(db_url)
        await storage.start()
        n.db = storage
        try:
            guests = await n._emit_all([start("g1")])
            assert threads == [] and bell() == []
            mixed = await n._emit_all([start("g1"), start("t1"),
                                       [Event("bob", "match_end", "m9:end:0", {"match": "m9"})]])
            return [guests, mixed]
        finally:
            await storage.stop()

    guests, mixed = run(go())
    assert guests == 0 and mixed >= 2  # deliveries stored: the bell's rows and the channels the accounts keep on
    assert len(threads) == 1 and "job" in threads[0]
    assert [(a, k) for a, k, _ in bell()] == [("alice", "match_start"), ("bob", "match_end")]
