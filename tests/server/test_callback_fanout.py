"""The notification fan-out's shortcuts (issue 21, bench/callback.py --part fanout) keep the protocol and the
outbox's guarantees: one VAPID token per push service until its renewal, accepted by a push service that checks
it; kept connections; no redirect followed; a batch's contacts and mail modes read together; mails handed over
with the mailer's own envelope (and SMTPUTF8 where an address needs it)."""

from __future__ import annotations

import asyncio
import io
import json
import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from sqlalchemy import text
from sqlalchemy.engine import Engine

from spacetable.server.mail import Mailer, SmtpRelay
from spacetable.server.notify import Contact, Event, Notifier, NotifyConfig, push, store
from spacetable.server.notify.dispatcher import AccountsDirectory

from .pushservice import PushService, unb64url

pytestmark = pytest.mark.callback


def claims(headers: dict[str, str]) -> dict[str, Any]:
    token = dict(p.strip().split("=", 1) for p in headers["Authorization"][6:].split(","))["t"]
    out: dict[str, Any] = json.loads(unb64url(token.split(".")[1]))
    return out


def test_vapid_token_signed_once_per_push_service_until_renewal(engine: Engine) -> None:
    vapid = push.Vapid.load(engine)
    push._SIGNED.clear()
    t = 1_800_000_000.0
    a = push.vapid_headers(vapid, "https://push.example.net/send/1", "mailto:ops@example.org", now=t)
    assert push.vapid_headers(vapid, "https://push.example.net/send/2", "mailto:ops@example.org", now=t + 60) == a
    other = push.vapid_headers(vapid, "https://fcm.example.com/x", "mailto:ops@example.org", now=t)
    assert other != a and claims(other)["aud"] == "https://fcm.example.com"
    c = claims(a)
    assert c["aud"] == "https://push.example.net" and c["sub"] == "mailto:ops@example.org"
    assert t < c["exp"] <= t + 86400  # RFC 8292: at most 24 hours ahead
    renew = c["exp"] - push.VAPID_MARGIN
    assert push.vapid_headers(vapid, "https://push.example.net/send/3", "mailto:ops@example.org", now=renew - 1) == a
    later = push.vapid_headers(vapid, "https://push.example.net/send/3", "mailto:ops@example.org", now=renew)
    assert later != a and claims(later)["exp"] > c["exp"]
    # the token is never used within the margin of its end
    assert renew <= c["exp"] - 3600


def test_reused_token_and_kept_connection_accepted_by_the_push_service(engine: Engine,
                                                                      push_service: PushService) -> None:
    vapid = push.Vapid.load(engine)
    push._SIGNED.clear()
    subs = [push_service.subscribe() for _ in range(4)]
    for i, s in enumerate(subs):
        push.send(vapid, s.info(), {"title": "t", "body": f"b{i}"}, "mailto:ops@example.org", allow_loopback=True)
    assert push_service.rejected == []
    assert sorted(r.message["body"] for r in push_service.received) == ["b0", "b1", "b2", "b3"]
    tokens = {r.headers["authorization"] for r in push_service.received}
    assert len(tokens) == 1  # signed once, accepted four times
    # each payload is encrypted with its own ephemeral key (RFC 8291): the first bytes after the header differ
    pool = push.POOLS.manager("http", "127.0.0.1").connection_from_url(subs[0].endpoint)
    assert pool.num_connections == 1  # sent one after the other over one kept connection


def test_each_payload_has_its_own_ephemeral_key(push_service: PushService) -> None:
    info = push_service.subscribe().info()
    a, b = push.encrypt(info, b"same"), push.encrypt(info, b"same")
    # aes128gcm header: salt (16), record size (4), key id length (1), key id (the sender's ephemeral public key)
    assert a[:16] != b[:16] and a[21:21 + a[20]] != b[21:21 + b[20]]


def test_redirect_is_not_followed(engine: Engine) -> None:
    hits: list[str] = []

    class Target(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            hits.append(self.path)
            self.send_response(201)
            self.send_header("content-length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    target = ThreadingHTTPServer(("127.0.0.1", 0), Target)
    location = f"http://127.0.0.1:{target.server_address[1]}/inside"

    class Redirect(Target):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("content-length", "0")))
            self.send_response(307)
            self.send_header("location", location)
            self.send_header("content-length", "0")
            self.end_headers()

    redirect = ThreadingHTTPServer(("127.0.0.1", 0), Redirect)
    for server in (target, redirect):
        threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        ps = PushService()
        ps.server = redirect
        sub = ps.subscribe()
        with pytest.raises(push.Refused, match="307"):
            push.send(push.Vapid.load(engine), sub.info(), {"title": "t"}, "mailto:ops@example.org", allow_loopback=True)
    finally:
        for server in (target, redirect):
            server.shutdown()
            server.server_close()
    assert hits == []


def add_account(engine: Engine, account: str, email: str | None, verified: bool, lang: str) -> None:
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO accounts (id, username, username_key, display_name, email, email_key, "
                          "email_verified, lang, created_at) VALUES (:a, :a, :a, :a, :e, :e, :v, :l, 0)"),
                     {"a": account, "e": email, "v": verified, "l": lang})


def test_contacts_and_mail_modes_read_for_a_batch(engine: Engine) -> None:
    add_account(engine, "ann", "ann@example.org", True, "nl")
    add_account(engine, "ben", "ben@example.org", False, "ru")
    add_account(engine, "cid", None, False, "en")
    directory = AccountsDirectory(engine)
    names = ["ann", "ben", "cid", "gone"]
    with engine.connect() as conn:
        many = directory.many(conn, names)
    assert many == {a: directory(a) for a in names}
    assert many["ann"] == Contact("ann@example.org", "nl") and many["ben"] == Contact(None, "ru")
    assert many["gone"] is None
    with store.begin(engine) as conn:
        store.save_settings(conn, "ben", store.Settings(email_mode="off"))
        store.save_settings(conn, "cid", store.Settings(email_mode="digest"))
    with engine.connect() as conn:
        assert store.email_modes(conn, names) == {"ann": "instant", "ben": "off", "cid": "digest", "gone": "instant"}


class Inbox:
    def __init__(self) -> None:
        self.envelopes: list[Any] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.envelopes.append(envelope)
        return "250 OK"


@pytest.fixture
def relay() -> Iterator[tuple[Inbox, int]]:
    inbox = Inbox()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    controller = Controller(inbox, hostname="127.0.0.1", port=port, enable_SMTPUTF8=True)
    controller.start()
    try:
        yield inbox, port
    finally:
        controller.stop()


def test_mail_envelope_and_smtputf8(relay: tuple[Inbox, int]) -> None:
    inbox, port = relay
    mailer = Mailer(SmtpRelay("127.0.0.1", port), "tables@example.org")

    async def go() -> None:
        await mailer.send("ann@example.org", "Your turn", "text")
        await mailer.send("zoë@exämple.org", "À vous", "texte")

    try:
        asyncio.run(go())
    finally:
        mailer.close()
    assert [(e.mail_from, e.rcpt_tos) for e in inbox.envelopes] == [
        ("tables@example.org", ["ann@example.org"]), ("tables@example.org", ["zoë@exämple.org"])]
    assert "SMTPUTF8" not in inbox.envelopes[0].mail_options and "SMTPUTF8" in inbox.envelopes[1].mail_options
    assert mailer.sent == 2 and mailer.connections == 1
    assert b"\r\n" in inbox.envelopes[0].original_content


def test_a_round_with_every_kind_of_recipient(engine: Engine, push_service: PushService,
                                             relay: tuple[Inbox, int]) -> None:
    """One batch: a mailed and pushed account, one that turned mail off, one without a verified address, one whose turn
    was played meanwhile, one gone: each delivery ends once, as it should."""
    inbox, port = relay
    for a, mail, verified in (("ann", "ann@example.org", True), ("ben", "ben@example.org", True),
                              ("cid", "cid@example.org", False), ("dan", "dan@example.org", True)):
        add_account(engine, a, mail, verified, "en")
        info = push_service.subscribe().info()
        push.subscribe(engine, a, info["endpoint"], info["keys"]["p256dh"], info["keys"]["auth"], allow_loopback=True)
    with store.begin(engine) as conn:
        for a in ("ann", "ben", "cid", "dan", "eve"):
            store.save_settings(conn, a, store.Settings(quiet_minutes=0))
        for i, a in enumerate(("ann", "ben", "cid", "dan", "eve")):
            conn.execute(text("INSERT INTO matches (id, game, name, config, seed, status, version, ai_seconds, "
                              "created_at, updated_at, open_seed, to_act, revision, epoch) VALUES (:m, 'arena', '', "
                              "'{}', 1, 'running', 1, 1.0, 0, 0, false, :t, 0, 0)"),
                         {"m": f"m{i}", "t": "[1]" if a == "dan" else "[0]"})
    mailer = Mailer(SmtpRelay("127.0.0.1", port), "tables@example.org")
    n = Notifier(engine, NotifyConfig(public_url="https://tables.example.org", push_allow_insecure_loopback=True),
                 AccountsDirectory(engine), mailer)

    async def go() -> int:
        n.vapid = await asyncio.to_thread(push.Vapid.load, engine)
        await n.emit([Event(a, "your_turn", f"m{i}:0:1", {"match": f"m{i}", "seat": 0, "game": "arena"},
                            correspondence=True) for i, a in enumerate(("ann", "ben", "cid", "dan", "eve"))])

        def mail_off() -> None:  # ben turns mail off once the event is stored: read when the batch is delivered
            with store.begin(engine) as conn:
                store.save_settings(conn, "ben", store.Settings(email_mode="off", quiet_minutes=0))

        await asyncio.to_thread(mail_off)
        handled = 0
        while got := await n.round(now=time.time() + 1):
            handled += got
        return handled

    try:
        handled = asyncio.run(go())
    finally:
        mailer.close()
    with engine.connect() as conn:
        rows = {(r.account_id, r.channel): (r.status, r.error) for r in conn.execute(text(
            "SELECT account_id, channel, status, error FROM notify_outbox WHERE channel IN ('push', 'email')"))}
    assert rows == {
        ("ann", "push"): ("sent", None), ("ann", "email"): ("sent", None),
        ("ben", "push"): ("sent", None), ("ben", "email"): ("dropped", "no mail relay, address or consent"),
        ("cid", "push"): ("sent", None), ("cid", "email"): ("dropped", "no mail relay, address or consent"),
        ("dan", "push"): ("dropped", "already played"), ("dan", "email"): ("dropped", "already played"),
        ("eve", "email"): ("dropped", "no such account"),
    }
    assert handled == 9  # eve has no subscription: a mail only
    assert [e.rcpt_tos for e in inbox.envelopes] == [["ann@example.org"]]
    assert sorted(r.message["kind"] for r in push_service.received) == ["your_turn"] * 3
    assert push_service.rejected == []


def test_mail_bytes_as_the_standard_policy_writes_them() -> None:
    """The one-line header shortcut writes what ``compat32`` (998 characters a line) writes, long and non-ASCII
    headers included."""
    from email.generator import BytesGenerator
    from email.policy import compat32

    from spacetable.server import mail

    mailer = Mailer(SmtpRelay("127.0.0.1", 25), "tables@example.org")
    long_link = "<https://tables.example.org/notify/unsubscribe/" + "a" * 1200 + ">"
    for subject, headers in (("Your turn", {"List-Unsubscribe": "<https://x.example/u/1>", "Content-Language": "en"}),
                             ("Ваш ход: Пятница", {"List-Unsubscribe": long_link, "X-Note": "café au lait"})):
        msg = mailer.build("ann@example.org", subject, "text\nmore", "<p>html</p>", headers)
        written = {}
        for policy in (mail.POLICY, compat32.clone(max_line_length=998)):
            with io.BytesIO() as out:
                BytesGenerator(out, policy=policy).flatten(msg, linesep="\r\n")
                written[type(policy).__name__] = out.getvalue()
        fast, standard = written.values()
        assert fast == standard and b"Subject: " in fast
