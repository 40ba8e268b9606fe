"""Notifications for accounts, end to end in one server (issue 21): a correspondence match between two accounts;
"your turn" pushed to the loopback push service (VAPID checked, payload decrypted) and mailed to a real SMTP
server on loopback with the match's deep link and a one-click unsubscribe that works; the bell's inbox; the
preferences; hostile subscriptions refused and changing nothing."""

from __future__ import annotations

import email
import email.policy
import re
import socket
import time
from collections.abc import Iterator
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from fastapi.testclient import TestClient
from sqlalchemy import text

from spacetable.server.app import create_app

from .conftest import browser, lenient_limits
from .pushservice import PushService

pytestmark = pytest.mark.callback


class Mailbox:
    def __init__(self) -> None:
        self.messages: list[Any] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.messages.append(email.message_from_bytes(envelope.original_content, policy=email.policy.default))
        return "250 OK"

    def to(self, address: str) -> list[Any]:
        return [m for m in self.messages if m["To"] == address]


def wait_for(check: Any, seconds: float = 60.0) -> Any:
    end = time.monotonic() + seconds
    while True:
        got = check()
        if got or time.monotonic() > end:
            return got
        time.sleep(0.05)


@pytest.fixture
def mailbox() -> Iterator[tuple[Mailbox, int]]:
    box = Mailbox()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    controller = Controller(box, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield box, port
    finally:
        controller.stop()


def make_app(db_url: str, port: int) -> Any:
    return create_app(db_url, ai_workers=0, limits=lenient_limits(),
                      accounts={"smtp_url": f"smtp://127.0.0.1:{port}", "mail_from": "table@example.org",
                                "public_url": "https://tables.example.org"},
                      notify={"push_allow_insecure_loopback": True, "poll": 0.2})


def signup(c: TestClient, box: Mailbox, address: str, username: str) -> str:
    r = c.post("/api/account/signup", json={"email": address, "username": username, "password": "correct horse 1"})
    assert r.status_code == 202, r.text
    mail = wait_for(lambda: box.to(address))
    token = re.search(r"#account/verify/([A-Za-z0-9_-]+)", mail[0].get_body(("plain",)).get_content())
    assert token
    r = c.post("/api/account/verify", json={"token": token.group(1)})
    assert r.status_code == 200, r.text
    return str(r.json()["csrf"])


def test_correspondence_turns_by_push_and_mail(nim: None, db_url: str, mailbox: tuple[Mailbox, int],
                                               push_service: PushService) -> None:
    box, port = mailbox
    with TestClient(make_app(db_url, port)) as ann:
        bob = browser(ann)
        csrf_a = signup(ann, box, "ann@example.org", "ann")
        csrf_b = signup(bob, box, "bob@example.org", "bob")
        sub = push_service.subscribe().info()
        # hostile subscriptions: no CSRF token, signed out, a private address, plain http, bad keys
        assert ann.post("/api/notify/push", json=sub).status_code == 403
        assert browser(ann).post("/api/notify/push", json=sub).status_code == 401
        for endpoint in ("https://10.0.0.7/push/x", "https://169.254.169.254/x", "http://push.example.org/x"):
            r = ann.post("/api/notify/push", json={**sub, "endpoint": endpoint}, headers={"X-CSRF-Token": csrf_a})
            assert r.status_code == 422 and r.json()["error"]["code"] == "bad_subscription", endpoint
        r = ann.post("/api/notify/push", json={**sub, "keys": {"p256dh": "AAAA", "auth": "AAAA"}},
                     headers={"X-CSRF-Token": csrf_a})
        assert r.status_code == 422
        with ann.app.state.notifier.engine.connect() as conn:  # type: ignore[attr-defined]
            assert conn.execute(text("SELECT count(*) FROM push_subscriptions")).scalar_one() == 0
        assert ann.post("/api/notify/push", json=sub, headers={"X-CSRF-Token": csrf_a}).status_code == 201
        # both want their turns at once by mail (no quiet period); prefs are per account
        for c, csrf in ((ann, csrf_a), (bob, csrf_b)):
            r = c.put("/api/notify/prefs", json={"settings": {"quiet_minutes": 0}}, headers={"X-CSRF-Token": csrf})
            assert r.status_code == 200 and r.json()["settings"]["quiet_minutes"] == 0
        assert ann.put("/api/notify/prefs", json={"prefs": {"email": {"nonsense": True}}},
                       headers={"X-CSRF-Token": csrf_a}).status_code == 422
        assert ann.put("/api/notify/prefs", json={"prefs": {"email": {"match_end": False}}}).status_code == 403

        r = ann.post("/api/account/matches", json={"game": "nim", "config": {"heaps": 1, "size": 2}},
                     headers={"X-CSRF-Token": csrf_a})
        assert r.status_code == 201, r.text
        mid, token_a = r.json()["match"]["id"], r.json()["token"]
        r = bob.post(f"/api/account/matches/{mid}/seats/1/join", headers={"X-CSRF-Token": csrf_b})
        assert r.status_code == 200, r.text
        token_b = r.json()["token"]
        # ann is to act: pushed (decrypted by the push service) and mailed
        got = wait_for(lambda: [x for x in push_service.received if x.message["kind"] == "your_turn"])
        assert got and got[0].message["url"] == f"/match/{mid}" and push_service.rejected == []
        mails = wait_for(lambda: [m for m in box.to("ann@example.org") if "Your turn" in m["Subject"]])
        assert mails, [m["Subject"] for m in box.messages]
        body = mails[0].get_content()
        assert f"https://tables.example.org/match/{mid}" in body
        version = ann.get(f"/api/matches/{mid}").json()["version"]
        r = ann.post(f"/api/matches/{mid}/actions", json={"seat": 0, "token": token_a, "version": version,
                                                          "action": {"type": "take", "heap": 0, "count": 1}})
        assert r.status_code == 200, r.text
        bob_turn = wait_for(lambda: [m for m in box.to("bob@example.org") if "Your turn" in m["Subject"]])
        assert bob_turn
        link = bob_turn[0]["List-Unsubscribe"].strip("<>")
        assert bob_turn[0]["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        # bob unsubscribes in one click; ann's link is not bob's
        path = link.replace("https://tables.example.org", "")
        account_b = path.split("/")[3]
        ann_link = ann.app.state.notifier.unsubscribe_link(ann.get("/api/account/me").json()["account"]["id"])  # type: ignore[attr-defined]
        forged = ann_link.replace("https://tables.example.org", "").rsplit("/", 2)
        assert browser(ann).post(f"/notify/unsubscribe/{account_b}/{forged[2]}",
                                        data={"List-Unsubscribe": "One-Click"}).status_code == 403
        assert browser(ann).post(path, data={"List-Unsubscribe": "One-Click"}).status_code == 200
        assert bob.get("/api/notify/prefs").json()["settings"]["email_mode"] == "off"
        assert ann.get("/api/notify/prefs").json()["settings"]["email_mode"] == "instant"
        # the match ends: ann is told (push and mail), bob no more by mail
        version = ann.get(f"/api/matches/{mid}").json()["version"]
        r = bob.post(f"/api/matches/{mid}/actions", json={"seat": 1, "token": token_b, "version": version,
                                                          "action": {"type": "take", "heap": 0, "count": 1}})
        assert r.status_code == 200, r.text
        assert wait_for(lambda: [m for m in box.to("ann@example.org") if "over" in m["Subject"]])
        assert wait_for(lambda: [x for x in push_service.received if x.message["kind"] == "match_end"])
        # the bell: ann's inbox has the turn, the start and the end, unread until read
        inbox = ann.get("/api/notify/inbox").json()
        kinds = {i["kind"] for i in inbox["items"]}
        assert {"your_turn", "match_start", "match_end"} <= kinds and inbox["unread"] == len(inbox["items"])
        assert all(i["url"] == f"/match/{mid}" for i in inbox["items"])
        assert ann.post("/api/notify/inbox/read", json={}, headers={"X-CSRF-Token": csrf_a}).json()["read"] >= 3
        assert ann.get("/api/notify/inbox").json()["unread"] == 0
        assert bob.get("/api/notify/inbox").json()["unread"] >= 1  # bob's own bell is untouched
        # bob unsubscribed: his end of match (stored with ann's, whose mail came) has no mail row at all
        with ann.app.state.notifier.engine.connect() as conn:  # type: ignore[attr-defined]
            rows = conn.execute(text("SELECT channel FROM notify_outbox WHERE account_id = :a AND kind = 'match_end'"),
                                {"a": account_b}).scalars().all()
        assert "email" not in rows
        assert not [m for m in box.to("bob@example.org") if "over" in m["Subject"]]
        # every push and mail once
        keys = [(x.subscription, x.message["kind"]) for x in push_service.received]
        assert len(keys) == len(set(keys))
        subjects = [(m["To"], m["Subject"]) for m in box.messages]
        assert len(subjects) == len(set(subjects))


def pushed(ws: Any) -> dict[str, Any]:
    """The next chat message a socket is sent."""
    for _ in range(20):
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == "chat":
            return msg
    raise AssertionError("no chat message")


def test_block_hides_the_blocked_accounts_messages(nim: None, db_url: str, mailbox: tuple[Mailbox, int]) -> None:
    box, port = mailbox
    with TestClient(make_app(db_url, port)) as ann:
        bob = browser(ann)
        csrf_a = signup(ann, box, "ann@example.org", "ann")
        csrf_b = signup(bob, box, "bob@example.org", "bob")
        r = ann.post("/api/account/matches", json={"game": "nim"}, headers={"X-CSRF-Token": csrf_a})
        mid, token_a = r.json()["match"]["id"], r.json()["token"]
        token_b = bob.post(f"/api/account/matches/{mid}/seats/1/join", headers={"X-CSRF-Token": csrf_b}).json()["token"]

        def say(c: TestClient, seat: int, token: str, words: str) -> None:
            r = c.post(f"/api/matches/{mid}/chat", json={"seat": seat, "text": words}, headers={"X-Seat-Token": token})
            assert r.status_code == 201, r.text

        def seen(c: TestClient, seat: int, token: str) -> list[str]:
            got = c.get(f"/api/matches/{mid}/chat", params={"seat": seat}, headers={"X-Seat-Token": token}).json()
            return [m["text"] for m in got["messages"]]

        say(bob, 1, token_b, "spam spam")
        say(ann, 0, token_a, "hello @bob")
        assert seen(ann, 0, token_a) == ["spam spam", "hello @bob"]
        # hostile: without the CSRF token, an unknown player, oneself
        assert ann.post("/api/account/blocks", json={"username": "bob"}).status_code == 403
        assert ann.post("/api/account/blocks", json={"username": "nobody"}, headers={"X-CSRF-Token": csrf_a}).status_code == 404
        assert ann.post("/api/account/blocks", json={"username": "ann"}, headers={"X-CSRF-Token": csrf_a}).status_code == 422
        r = ann.post("/api/account/blocks", json={"username": "BOB"}, headers={"X-CSRF-Token": csrf_a})
        assert r.status_code == 200 and r.json() == {"username": "bob", "blocked": True}
        assert seen(ann, 0, token_a) == ["hello @bob"]
        assert seen(bob, 1, token_b) == ["spam spam", "hello @bob"]
        # over the seats' sockets too: bob's new message is not sent to ann's, hers still reach his
        with ann.websocket_connect(f"/ws/matches/{mid}?seat=0") as wa, bob.websocket_connect(f"/ws/matches/{mid}?seat=1") as wb:
            for ws, tok in ((wa, token_a), (wb, token_b)):
                ws.send_json({"type": "auth", "token": tok})
                assert ws.receive_json()["type"] == "snapshot"
            wb.send_json({"type": "chat", "text": "more spam"})
            assert pushed(wb)["message"]["text"] == "more spam"
            wa.send_json({"type": "chat", "text": "still here"})
            assert pushed(wa)["message"]["text"] == "still here"  # the spam, had it come, would have come first
            assert pushed(wb)["message"]["text"] == "still here"
        assert seen(ann, 0, token_a) == ["hello @bob", "still here"]
        # the mention reached bob's bell
        wait_for(lambda: any(i["kind"] == "chat_mention" for i in bob.get("/api/notify/inbox").json()["items"]))
        ann.post("/api/account/blocks", json={"username": "bob", "blocked": False}, headers={"X-CSRF-Token": csrf_a})
        assert seen(ann, 0, token_a) == ["spam spam", "hello @bob", "more spam", "still here"]


def test_challenges_accept_decline_block(nim: None, db_url: str, mailbox: tuple[Mailbox, int]) -> None:
    box, port = mailbox
    with TestClient(make_app(db_url, port)) as ann:
        bob, cid_ = browser(ann), None
        carl = browser(ann)
        csrf_a = signup(ann, box, "ann@example.org", "ann")
        csrf_b = signup(bob, box, "bob@example.org", "bob")
        csrf_c = signup(carl, box, "carl@example.org", "carl")
        body = {"username": "bob", "game": "nim", "config": {"heaps": 1, "size": 2}, "seat": 1}
        assert ann.post("/api/challenges", json=body).status_code == 403  # no CSRF token
        for bad, code in (({**body, "username": "nobody"}, 404), ({**body, "username": "ann"}, 422),
                          ({**body, "game": "chess"}, 404), ({**body, "username": None, "rated": True}, 422)):
            assert ann.post("/api/challenges", json=bad, headers={"X-CSRF-Token": csrf_a}).status_code == code, bad
        r = ann.post("/api/challenges", json=body, headers={"X-CSRF-Token": csrf_a})
        assert r.status_code == 201, r.text
        cid_ = r.json()["id"]
        # bob is told (the bell); carl may not accept a challenge meant for bob
        wait_for(lambda: any(i["kind"] == "challenge" for i in bob.get("/api/notify/inbox").json()["items"]))
        assert [c["id"] for c in bob.get("/api/challenges").json()["to_me"]] == [cid_]
        assert carl.post(f"/api/challenges/{cid_}/accept", headers={"X-CSRF-Token": csrf_c}).status_code == 403
        r = bob.post(f"/api/challenges/{cid_}/accept", headers={"X-CSRF-Token": csrf_b})
        assert r.status_code == 200, r.text
        mid = r.json()["match"]
        assert r.json()["seat"] == 0  # ann chose seat 1
        seats = ann.get(f"/api/matches/{mid}").json()["seats"]
        assert [s["kind"] for s in seats] == ["human", "human"]
        assert bob.post(f"/api/challenges/{cid_}/accept", headers={"X-CSRF-Token": csrf_b}).status_code == 409
        assert [m["match_id"] for m in ann.get("/api/account/matches").json()] == [mid]
        # declined and withdrawn
        cid2 = ann.post("/api/challenges", json=body, headers={"X-CSRF-Token": csrf_a}).json()["id"]
        assert bob.post(f"/api/challenges/{cid2}/decline", headers={"X-CSRF-Token": csrf_b}).json() == {"status": "declined"}
        cid3 = ann.post("/api/challenges", json=body, headers={"X-CSRF-Token": csrf_a}).json()["id"]
        assert ann.post(f"/api/challenges/{cid3}/decline", headers={"X-CSRF-Token": csrf_a}).json() == {"status": "withdrawn"}
        # a link challenge: anybody signed in may take it
        link = ann.post("/api/challenges", json={**body, "username": None}, headers={"X-CSRF-Token": csrf_a}).json()["id"]
        assert carl.post(f"/api/challenges/{link}/accept", headers={"X-CSRF-Token": csrf_c}).status_code == 200
        # bob blocks ann: her challenge is refused and nothing is stored
        assert bob.post("/api/account/blocks", json={"username": "ann"}, headers={"X-CSRF-Token": csrf_b}).status_code == 200
        before = len(bob.get("/api/challenges").json()["to_me"])
        r = ann.post("/api/challenges", json=body, headers={"X-CSRF-Token": csrf_a})
        assert r.status_code == 403 and r.json()["error"]["code"] == "blocked"
        assert len(bob.get("/api/challenges").json()["to_me"]) == before
