"""Accounts (issue 20): sign-up and sign-in, sessions and CSRF, mailed tokens, seats bound to accounts, ratings,
history, profiles, leaderboards, export and deletion; hostile inputs. Mail goes through a real SMTP server
(aiosmtpd) on loopback."""

from __future__ import annotations

import asyncio
import email
import json
import re
import socket
import threading
import time
from collections.abc import Iterator
from email.message import Message
from typing import Any

import pyotp
import pytest
from aiosmtpd.controller import Controller
from fastapi.testclient import TestClient
from openskill.models import PlackettLuce

from spacetable.games import get_game
from spacetable.server.accounts.names import check_display_name, check_username
from spacetable.server.accounts.ratings import rate, seat_ranks, sides_of
from spacetable.server.app import create_app
from spacetable.server.errors import ServiceError

from .conftest import browser, lenient_limits

pytestmark = pytest.mark.accounts


class Inbox:
    def __init__(self) -> None:
        self.messages: list[Message] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.messages.append(email.message_from_bytes(envelope.content))
        return "250 OK"

    def wait(self, count: int, seconds: float = 30.0) -> list[Message]:
        end = time.monotonic() + seconds
        while len(self.messages) < count and time.monotonic() < end:
            time.sleep(0.02)
        assert len(self.messages) >= count, f"{len(self.messages)} mails, {count} expected"
        return self.messages

    @staticmethod
    def text(msg: Message) -> str:
        for part in msg.walk():
            if part.get_content_type() == "text/plain":
                payload = part.get_payload(decode=True)
                assert isinstance(payload, bytes)
                return payload.decode(part.get_content_charset() or "utf-8")
        raise AssertionError("no text part")

    def token(self, index: int, kind: str) -> str:
        found = re.search(rf"#account/{kind}/([A-Za-z0-9_-]+)", self.text(self.wait(index + 1)[index]))
        assert found, "no link in the mail"
        return found.group(1)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def inbox() -> Iterator[tuple[Inbox, int]]:
    box = Inbox()
    port = free_port()
    controller = Controller(box, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield box, port
    finally:
        controller.stop()


def make_client(db_url: str, port: int | None, **limits: Any) -> TestClient:
    accounts = {"smtp_url": f"smtp://127.0.0.1:{port}", "mail_from": "table@example.org"} if port else {}
    app = create_app(db_url, ai_workers=0, limits=lenient_limits(**limits), accounts=accounts)
    return TestClient(app)


@pytest.fixture
def web(db_url: str, inbox: tuple[Inbox, int]) -> Iterator[TestClient]:
    with make_client(db_url, inbox[1]) as c:
        yield c


def signup(c: TestClient, box: Inbox, n: int, email_: str, username: str, password: str = "correct horse 1") -> str:
    r = c.post("/api/account/signup", json={"email": email_, "username": username, "password": password})
    assert r.status_code == 202, r.text
    r = c.post("/api/account/verify", json={"token": box.token(n, "verify")})
    assert r.status_code == 200, r.text
    return str(r.json()["csrf"])


def passkeyless_account(db_url: str, c: TestClient, box: Inbox, n: int, name: str) -> tuple[TestClient, str]:
    """A second browser (its own cookie jar) signed up as ``name``."""
    other = browser(c)
    csrf = signup(other, box, n, f"{name}@example.org", name)
    return other, csrf


# ---------------------------------------------------------------------------------------------- unit
def test_usernames_normalised_and_reserved() -> None:
    assert check_username("Ａｎａ")[1] == check_username("ANA")[1] == "ana"
    for bad in ("ab", "a" * 25, "admin", "Admin", "x y", "<script>", "-lead", "deleted_player", 5):
        with pytest.raises(ServiceError):
            check_username(bad)
    assert check_display_name("  <script>alert(1)</script> ") == "<script>alert(1)</script>"[:40]
    for bad in ("", "x" * 41, "a\u0000b", "a\u202eb"):
        with pytest.raises(ServiceError):
            check_display_name(bad)


def test_ranks_and_teams_as_openskill() -> None:
    assert seat_ranks({"winners": [1], "ranking": [1, 0], "scores": [0, 1]}, 2) == [1, 0]
    assert seat_ranks({"winners": [], "ranking": [], "scores": [0.5, 0.5]}, 2) == [0, 0]
    assert seat_ranks({"winners": [2], "ranking": [2, 0, 1], "scores": [3, 3, 9]}, 3) == [1, 1, 0]
    model = PlackettLuce()
    base = {0: (25.0, 25 / 3), 1: (30.0, 5.0), 2: (20.0, 6.0), 3: (27.0, 4.0)}
    got = rate(base, [0, 1, 0, 1], [1, 0, 1, 0])  # two sides of two seats: side 1 won
    want = model.rate([[model.rating(*base[0]), model.rating(*base[2])], [model.rating(*base[1]), model.rating(*base[3])]],
                      ranks=[1, 0])
    assert got[0] == pytest.approx((want[0][0].mu, want[0][0].sigma))
    assert got[3] == pytest.approx((want[1][1].mu, want[1][1].sigma))
    # Battleship Galaxies' teams come from the game's own set-up; other games have one side per seat
    galaxies = get_game("galaxies")
    cfg = galaxies.normalize_config({"players": 4})
    assert sides_of({"game": "galaxies", "config": json.dumps(cfg), "seed": 3}, 4) == [0, 1, 0, 1]
    assert sides_of({"game": "arena", "config": "{}", "seed": 3}, 2) == [0, 1]


# ------------------------------------------------------------------------------------------ sign-up, sessions
def test_password_signup_verify_signin_and_csrf(web: TestClient, inbox: tuple[Inbox, int]) -> None:
    box, _ = inbox
    assert web.get("/api/account/me").json()["account"] is None
    csrf = signup(web, box, 0, "Ana@Example.org", "ana")
    cookie = web.cookies.get("spacetable_session")
    assert cookie
    me = web.get("/api/account/me").json()
    assert me["account"]["username"] == "ana" and me["account"]["email_verified"] and me["csrf"] == csrf
    # HttpOnly, SameSite=Lax, not Secure over plain http
    r = web.post("/api/account/signin", json={"email": "ana@example.org", "password": "correct horse 1"})
    header = r.headers["set-cookie"].lower()
    assert "httponly" in header and "samesite=lax" in header and "secure" not in header
    # a state-changing request without (or with a wrong) CSRF token: 403, nothing changes
    for headers in ({}, {"X-CSRF-Token": "nope"}):
        r = web.post("/api/account/settings", json={"display_name": "Changed"}, headers=headers)
        assert r.status_code == 403 and r.json()["error"]["code"] == "csrf"
    csrf = r.request.headers.get("X-CSRF-Token") and web.get("/api/account/me").json()["csrf"]
    assert web.get("/api/account/me").json()["account"]["display_name"] == "ana"
    r = web.post("/api/account/settings", json={"display_name": "Ana S.", "lang": "fr"}, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 200 and r.json()["display_name"] == "Ana S." and r.json()["lang"] == "fr"
    # the verification link works once
    r = web.post("/api/account/verify", json={"token": box.token(0, "verify")})
    assert r.status_code == 400 and r.json()["error"]["code"] == "used_token"
    # no secret in the mail headers, and the mail has an HTML part with the link escaped
    assert any(p.get_content_type() == "text/html" for p in box.messages[0].walk())


def test_unknown_and_known_email_same_answer(web: TestClient, inbox: tuple[Inbox, int]) -> None:
    box, _ = inbox
    signup(web, box, 0, "bob@example.org", "bob")
    fresh = browser(web)
    known = fresh.post("/api/account/reset/request", json={"email": "bob@example.org"})
    unknown = fresh.post("/api/account/reset/request", json={"email": "nobody@example.org"})
    assert known.status_code == unknown.status_code == 202 and known.json() == unknown.json()
    box.wait(2)
    a = fresh.post("/api/account/signin", json={"email": "bob@example.org", "password": "wrong password!"})
    b = fresh.post("/api/account/signin", json={"email": "nobody@example.org", "password": "wrong password!"})
    assert a.status_code == b.status_code == 401 and a.json() == b.json()
    # signing up again with a known address: the same answer as a new one (the owner gets a mail instead)
    r1 = fresh.post("/api/account/signup", json={"email": "BOB@example.org", "username": "bob2", "password": "x" * 12})
    r2 = fresh.post("/api/account/signup", json={"email": "new@example.org", "username": "newbie", "password": "x" * 12})
    assert r1.status_code == r2.status_code == 202 and r1.json() == r2.json()
    subjects = [m["Subject"] for m in box.wait(4)]
    assert "Someone tried to sign up with your e-mail address" in subjects


def test_reset_token_single_use_and_expiry(web: TestClient, inbox: tuple[Inbox, int]) -> None:
    box, _ = inbox
    csrf = signup(web, box, 0, "cy@example.org", "cyril")
    assert web.post("/api/account/reset/request", json={"email": "cy@example.org"}).status_code == 202
    token = box.token(1, "reset")
    r = web.post("/api/account/reset", json={"token": token, "password": "a new password"})
    assert r.status_code == 200
    assert web.post("/api/account/reset", json={"token": token, "password": "another one!!"}).json()["error"]["code"] \
        == "used_token"
    # the old password is gone, the new one works
    fresh = browser(web)
    assert fresh.post("/api/account/signin", json={"email": "cy@example.org", "password": "correct horse 1"}).status_code == 401
    assert fresh.post("/api/account/signin", json={"email": "cy@example.org", "password": "a new password"}).status_code == 200
    # an expired token is refused and changes nothing
    assert web.post("/api/account/reset/request", json={"email": "cy@example.org"}).status_code == 202
    token = box.token(2, "reset")
    engine = web.app.state.service.storage.engine  # type: ignore[attr-defined]
    with engine.begin() as conn:
        conn.exec_driver_sql("UPDATE account_tokens SET expires_at = 1 WHERE used_at IS NULL")
    r = web.post("/api/account/reset", json={"token": token, "password": "third password"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "expired_token"
    assert fresh.post("/api/account/signin", json={"email": "cy@example.org", "password": "third password"}).status_code == 401
    del csrf


def test_sessions_list_and_sign_out_everywhere(web: TestClient, inbox: tuple[Inbox, int]) -> None:
    box, _ = inbox
    signup(web, box, 0, "dee@example.org", "dee")
    phone = browser(web)
    assert phone.post("/api/account/signin", json={"email": "dee@example.org", "password": "correct horse 1"}).status_code == 200
    csrf = web.get("/api/account/me").json()["csrf"]
    sessions = web.get("/api/account/sessions").json()
    assert len(sessions) == 2 and sum(s["current"] for s in sessions) == 1
    assert all(len(s["id"]) == 16 for s in sessions)
    r = web.post("/api/account/sessions/end", json={"id": "all"}, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 200 and r.json()["ended"] == 2
    assert phone.get("/api/account/me").json()["account"] is None
    assert web.get("/api/account/sessions").status_code == 401
    # an expired session is no session
    assert web.post("/api/account/signin", json={"email": "dee@example.org", "password": "correct horse 1"}).status_code == 200
    engine = web.app.state.service.storage.engine  # type: ignore[attr-defined]
    with engine.begin() as conn:
        conn.exec_driver_sql("UPDATE account_sessions SET expires_at = 1")
    assert web.get("/api/account/me").json()["account"] is None


def test_totp_second_factor(web: TestClient, inbox: tuple[Inbox, int]) -> None:
    box, _ = inbox
    csrf = signup(web, box, 0, "eve@example.org", "eve")
    h = {"X-CSRF-Token": csrf}
    secret = web.post("/api/account/totp/setup", headers=h).json()["secret"]
    assert web.post("/api/account/totp/enable", json={"code": "000000"}, headers=h).status_code == 422
    assert web.post("/api/account/totp/enable", json={"code": pyotp.TOTP(secret).now()}, headers=h).json()["totp"]
    fresh = browser(web)
    body = {"email": "eve@example.org", "password": "correct horse 1"}
    assert fresh.post("/api/account/signin", json=body).json()["error"]["code"] == "totp_required"
    assert fresh.post("/api/account/signin", json={**body, "totp": "123456"}).status_code == 401
    assert fresh.post("/api/account/signin", json={**body, "totp": pyotp.TOTP(secret).now()}).status_code == 200


# the throttle counts in the process's memory (or in Redis, shared by processes), not in the database:
# one database is enough
@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_wrong_passwords_throttled_but_owner_not_locked_forever(db_url: str, inbox: tuple[Inbox, int]) -> None:
    box, port = inbox
    with make_client(db_url, port, rate_signin="2000/minute", rate_signin_account="5/10 second") as web:
        signup(web, box, 0, "fay@example.org", "fay")
        web.cookies.clear()  # from here on a browser without the owner's session: the attacker's, then the owner's
        start = time.monotonic()
        codes = [web.post("/api/account/signin", json={"email": "fay@example.org", "password": f"guess {i:05d}"})
                 .status_code for i in range(1000)]
        windows = (time.monotonic() - start) / 10 + 1
        # at most five guesses per ten seconds were even checked; every other one got 429
        assert codes.count(401) <= 5 * windows + 5 and codes.count(401) + codes.count(429) == 1000
        # the window moves: once the attack stops the owner signs in again
        end = time.monotonic() + 30
        while True:
            r = web.post("/api/account/signin", json={"email": "fay@example.org", "password": "correct horse 1"})
            if r.status_code != 429 or time.monotonic() > end:
                break
            time.sleep(0.2)
        assert r.status_code == 200


def test_hostile_names(web: TestClient, inbox: tuple[Inbox, int]) -> None:
    box, _ = inbox
    csrf = signup(web, box, 0, "gil@example.org", "gil")
    h = {"X-CSRF-Token": csrf}
    r = web.post("/api/account/settings", json={"display_name": "x" * (1024 * 1024)}, headers=h)
    assert r.status_code in (413, 422)
    r = web.post("/api/account/settings", json={"display_name": "x" * 41}, headers=h)
    assert r.status_code == 422
    r = web.post("/api/account/signup", json={"email": "h@example.org", "username": "<script>", "password": "x" * 12})
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_username"
    r = web.post("/api/account/settings", json={"display_name": "<script>alert(1)</script>"}, headers=h)
    assert r.status_code == 200
    # stored and served as data (JSON), never as markup: the client writes it as text (tests/browser)
    assert web.get("/api/players/gil").json()["display_name"] == "<script>alert(1)</script>"
    taken = web.post("/api/account/signup", json={"email": "z@example.org", "username": "GIL", "password": "x" * 12})
    assert taken.json()["error"]["code"] == "username_taken"
    assert taken.json()["error"]["explain"] == "This username is taken; choose another."  # explained, in 4 languages
    fr = web.post("/api/account/signup?lang=fr", json={"email": "z@example.org", "username": "GIL", "password": "x" * 12})
    assert fr.json()["error"]["explain"].startswith("Ce nom d'utilisateur est déjà pris")


def test_passwords_off_without_relay(db_url: str) -> None:
    with make_client(db_url, None) as web:
        assert web.get("/api/account/me").json()["config"] == {"passwords": False, "passkeys": True}
        r = web.post("/api/account/signup", json={"email": "a@example.org", "username": "anna", "password": "x" * 12})
        assert r.status_code == 403 and r.json()["error"]["code"] == "passwords_off"
        r = web.post("/api/account/passkey/register/begin", json={"username": "anna"})
        assert r.status_code == 200 and r.json()["options"]["rp"]["id"] == "testserver"


# ------------------------------------------------------------------------------------------ seats and ratings
def play_nim(c: TestClient, mid: str, tokens: dict[int, str], moves: list[tuple[int, dict[str, Any]]]) -> None:
    for seat, action in moves:
        version = c.get(f"/api/matches/{mid}").json()["version"]
        r = c.post(f"/api/matches/{mid}/actions", json={"seat": seat, "token": tokens[seat], "version": version,
                                                       "action": action})
        assert r.status_code == 200, r.text


def wait_for(check: Any, seconds: float = 30.0) -> Any:
    end = time.monotonic() + seconds
    while True:
        got = check()
        if got or time.monotonic() > end:
            return got
        time.sleep(0.05)


def test_second_browser_on_the_app_loop(nim: None, web: TestClient) -> None:
    """A second browser's request that waits on the app (a match's lock, held on the app's event loop) goes on once
    the app lets go. A ``TestClient(app)`` of its own would run the request on another event loop, in another
    thread: the lock, released on the app's loop, would wake nothing there and the request would wait forever (what
    stopped the rated-match test at pytest-timeout's 300 s once)."""
    r = web.post("/api/matches", json={"game": "nim", "config": {"heaps": 1, "size": 2}, "join_seat": 0,
                                       "player_name": "Jo"})
    mid = r.json()["match"]["id"]
    service = web.app.state.service  # type: ignore[attr-defined]

    async def hold() -> None:
        m = await service.get(mid)
        await m.lock.acquire()
        asyncio.get_running_loop().call_later(0.3, m.lock.release)

    other = browser(web)
    web.portal.call(hold)  # type: ignore[union-attr]
    answers: list[Any] = []
    t = threading.Thread(target=lambda: answers.append(other.post(f"/api/matches/{mid}/seats/1/join",
                                                                  json={"name": "Kim"})), daemon=True)
    t.start()
    t.join(30)
    assert answers, "the second browser's request still waits"
    assert answers[0].status_code == 200, answers[0].text


@pytest.mark.hotpath
def test_a_guest_join_reads_whether_the_match_is_rated_in_its_own_transaction(nim: None, web: TestClient,
                                                                             inbox: tuple[Inbox, int]) -> None:
    """A guest's join checks the match is not rated where the seat is written (issue 26): no read of its own before
    it, and a refusal leaves the seat open and the match unchanged."""
    box, _ = inbox
    csrf = signup(web, box, 0, "ann@example.org", "ann")
    storage = web.app.state.ctx.service.storage  # type: ignore[attr-defined]
    reads: list[str] = []  # the statements of the reads made apart from a write (the notifier's included)
    real_read = storage.read

    class Seen:
        def __init__(self, tx: Any) -> None:
            self.tx = tx

        async def fetch(self, sql: str, params: Any = None) -> Any:
            reads.append(sql)
            return await self.tx.fetch(sql, params)

        async def execute(self, sql: str, params: Any = None) -> Any:
            reads.append(sql)
            return await self.tx.execute(sql, params)

    async def counted(job: Any) -> Any:
        return await real_read(lambda tx: job(Seen(tx)))

    storage.read = counted
    guest = browser(web)
    casual = guest.post("/api/matches", json={"game": "nim", "config": {"heaps": 1, "size": 2}, "join_seat": 0}).json()
    reads.clear()
    r = guest.post(f"/api/matches/{casual['match']['id']}/seats/1/join", json={})
    assert r.status_code == 200, r.text
    assert not [sql for sql in reads if "account_matches" in sql], "the join read the rated flag apart from its write"
    r = web.post("/api/account/matches", json={"game": "nim", "config": {"heaps": 1, "size": 2}, "rated": True},
                 headers={"X-CSRF-Token": csrf})
    mid = r.json()["match"]["id"]
    before = web.get(f"/api/matches/{mid}").json()
    r = guest.post(f"/api/matches/{mid}/seats/1/join", json={"name": "Eve"})
    assert r.status_code == 409 and r.json()["error"]["code"] == "rated_match"
    after = web.get(f"/api/matches/{mid}").json()
    assert after == before and after["seats"][1]["kind"] == "open"


def test_rated_match_seats_ratings_history(nim: None, web: TestClient, inbox: tuple[Inbox, int]) -> None:
    box, _ = inbox
    csrf_a = signup(web, box, 0, "ann@example.org", "ann")
    bob, csrf_b = passkeyless_account("", web, box, 1, "bob")
    r = web.post("/api/account/matches", json={"game": "nim", "config": {"heaps": 1, "size": 2}, "rated": True},
                 headers={"X-CSRF-Token": csrf_a})
    assert r.status_code == 201, r.text
    mid, token_a = r.json()["match"]["id"], r.json()["token"]
    # a guest cannot take a seat of a rated match, nor put an AI there
    guest = browser(web)
    assert guest.post(f"/api/matches/{mid}/seats/1/join", json={}).json()["error"]["code"] == "rated_match"
    assert guest.post(f"/api/matches/{mid}/seats/1/ai", json={}).status_code == 409
    r = bob.post(f"/api/account/matches/{mid}/seats/1/join", headers={"X-CSRF-Token": csrf_b})
    assert r.status_code == 200, r.text
    token_b = r.json()["token"]
    # any device: the account's session gives its own seat's token, never another's
    phone = browser(web)
    phone.post("/api/account/signin", json={"email": "ann@example.org", "password": "correct horse 1"})
    csrf_phone = phone.get("/api/account/me").json()["csrf"]
    got = phone.post(f"/api/account/matches/{mid}/seats/0/token", headers={"X-CSRF-Token": csrf_phone})
    assert got.status_code == 200 and got.json()["token"] == token_a
    stolen = phone.post(f"/api/account/matches/{mid}/seats/1/token", headers={"X-CSRF-Token": csrf_phone})
    assert stolen.status_code == 403 and stolen.json()["error"]["code"] == "not_your_seat"
    assert phone.post(f"/api/account/matches/{mid}/seats/0/token").status_code == 403  # no CSRF token
    assert [m["match_id"] for m in phone.get("/api/account/matches").json()] == [mid]
    # A's session and A's own token do not act for B's seat
    version = web.get(f"/api/matches/{mid}").json()["version"]
    r = phone.post(f"/api/matches/{mid}/actions", json={"seat": 1, "token": token_a, "version": version,
                                                        "action": {"type": "take", "heap": 0, "count": 1}})
    assert r.status_code == 403 and web.get(f"/api/matches/{mid}").json()["version"] == version
    # played to the end: seat 1 takes the last stone and wins
    play_nim(web, mid, {0: token_a, 1: token_b}, [(0, {"type": "take", "heap": 0, "count": 1}),
                                                   (1, {"type": "take", "heap": 0, "count": 1})])
    prof = wait_for(lambda: web.get("/api/players/bob").json()["ratings"])
    model = PlackettLuce()
    want = model.rate([[model.rating()], [model.rating()]], ranks=[1, 0])
    ann = web.get("/api/players/ann").json()
    assert prof[0]["mu"] == pytest.approx(want[1][0].mu, abs=1e-3)
    assert prof[0]["sigma"] == pytest.approx(want[1][0].sigma, abs=1e-3)
    assert ann["ratings"][0]["mu"] == pytest.approx(want[0][0].mu, abs=1e-3)
    assert ann["ratings"][0]["provisional"] and ann["stats"][0]["loss"] == 1
    hist = web.get("/api/players/ann/history").json()
    assert hist[0]["match_id"] == mid and hist[0]["result"] == "loss" and hist[0]["rated"]
    assert [p["username"] for p in hist[0]["players"]] == ["ann", "bob"]
    assert web.get("/api/players/ann/history", params={"opponent": "BOB"}).json()[0]["match_id"] == mid
    assert web.get("/api/players/ann/history", params={"result": "win"}).json() == []
    assert web.get("/api/players/ann/history", params={"rated": "false"}).json() == []
    assert web.get("/api/players/ann/history", params={"game": "arena"}).json() == []
    csv_text = web.get("/api/players/ann/history", params={"format": "csv"}).text
    assert csv_text.splitlines()[0].startswith("match_id,game") and mid in csv_text
    assert len(web.get("/api/players/bob/ratings/nim").json()) == 1
    board = web.get("/api/leaderboard/nim", params={"provisional": "true"}).json()
    assert [b["username"] for b in board] == ["bob", "ann"]
    assert web.get("/api/leaderboard/nim").json() == []  # provisional ratings are left out by default
    # counted once: counting it again (another process that read it as pending) writes nothing
    keeper = web.app.state.ratings  # type: ignore[attr-defined]

    async def count_again() -> str:
        rows = await keeper.accounts.read(
            "SELECT am.match_id, am.rated, m.game, m.config, m.seed, m.outcome, m.updated_at FROM account_matches am "
            "JOIN matches m ON m.id = am.match_id WHERE am.match_id = :m", m=mid)
        return str(await keeper.count(rows[0]))

    assert web.portal.call(count_again) == ""  # type: ignore[union-attr]
    assert len(web.get("/api/players/bob/ratings/nim").json()) == 1
    assert len(web.get("/api/players/ann/history").json()) == 1
    # a second rated match between them starts from the stored ratings (ann wins this one)
    r = web.post("/api/account/matches", json={"game": "nim", "config": {"heaps": 1, "size": 3}, "rated": True},
                 headers={"X-CSRF-Token": csrf_a})
    mid2, token_a2 = r.json()["match"]["id"], r.json()["token"]
    token_b2 = bob.post(f"/api/account/matches/{mid2}/seats/1/join", headers={"X-CSRF-Token": csrf_b}).json()["token"]
    take = {"type": "take", "heap": 0, "count": 1}
    play_nim(web, mid2, {0: token_a2, 1: token_b2}, [(0, take), (1, take), (0, take)])  # both moved: counted
    again = model.rate([[want[0][0]], [want[1][0]]], ranks=[0, 1])
    ann2 = wait_for(lambda: [x for x in web.get("/api/players/ann").json()["ratings"] if x["games"] == 2])
    assert ann2[0]["mu"] == pytest.approx(again[0][0].mu, abs=1e-3)
    assert ann2[0]["sigma"] == pytest.approx(again[0][0].sigma, abs=1e-3)


def test_no_your_turn_for_a_seat_at_the_table(nim: None, web: TestClient, inbox: tuple[Inbox, int]) -> None:
    """A player whose socket is open at the table sees the turn come: no "your turn" is stored for that seat (no bell,
    push or mail); a player away from the table is told."""
    box, _ = inbox
    csrf_a = signup(web, box, 0, "ann@example.org", "ann")
    bob, csrf_b = passkeyless_account("", web, box, 1, "bob")
    r = web.post("/api/account/matches", json={"game": "nim", "config": {"heaps": 1, "size": 3}},
                 headers={"X-CSRF-Token": csrf_a})
    mid, token_a = r.json()["match"]["id"], r.json()["token"]
    token_b = bob.post(f"/api/account/matches/{mid}/seats/1/join", headers={"X-CSRF-Token": csrf_b}).json()["token"]

    def turns(c: TestClient) -> list[dict[str, Any]]:
        return [i for i in c.get("/api/notify/inbox").json()["items"] if i["kind"] == "your_turn"]

    assert wait_for(lambda: turns(web))  # the match started with ann to act, away from the table: told
    take = {"type": "take", "heap": 0, "count": 1}
    with bob.websocket_connect(f"/ws/matches/{mid}?seat=1") as ws:
        ws.send_json({"type": "auth", "token": token_b})
        assert ws.receive_json()["type"] == "snapshot"
        play_nim(web, mid, {0: token_a}, [(0, take)])  # bob's turn, bob at the table
        assert ws.receive_json()["type"] == "event"
        play_nim(web, mid, {1: token_b}, [(1, take)])  # ann's turn again, ann still away
    # the notifier stores in order: once ann's second turn is in, bob's would be too
    assert len(wait_for(lambda: len(turns(web)) == 2 and turns(web))) == 2
    assert turns(bob) == []
    # the end too: bob at the table is not told, ann away is

    def ends(c: TestClient) -> list[dict[str, Any]]:
        return [i for i in c.get("/api/notify/inbox").json()["items"] if i["kind"] == "match_end"]

    with bob.websocket_connect(f"/ws/matches/{mid}?seat=1") as ws:
        ws.send_json({"type": "auth", "token": token_b})
        assert ws.receive_json()["type"] == "snapshot"
        play_nim(web, mid, {0: token_a}, [(0, take)])  # ann takes the last stone
        assert ws.receive_json()["type"] == "event"
    assert wait_for(lambda: ends(web))
    assert ends(bob) == [] and turns(bob) == []


def test_aborted_and_casual_matches(nim: None, web: TestClient, inbox: tuple[Inbox, int]) -> None:
    box, _ = inbox
    csrf = signup(web, box, 0, "ivy@example.org", "ivy")
    # against the computer: casual, still in the history
    r = web.post("/api/account/matches", json={"game": "nim", "config": {"heaps": 1, "size": 2}, "ai_seats": {"1": None},
                                               "rated": True}, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 422
    r = web.post("/api/account/matches", json={"game": "nim", "config": {"heaps": 1, "size": 1}},
                 headers={"X-CSRF-Token": csrf})
    mid = r.json()["match"]["id"]
    guest = web.post(f"/api/matches/{mid}/seats/1/join", json={"name": "Guest"}).json()
    # seat 0 takes the only stone: seat 1 never moved, so the match was aborted and counts nowhere
    play_nim(web, mid, {0: r.json()["token"], 1: guest["token"]}, [(0, {"type": "take", "heap": 0, "count": 1})])
    engine = web.app.state.service.storage.engine  # type: ignore[attr-defined]

    def state() -> str | None:
        with engine.connect() as conn:
            row = conn.exec_driver_sql("SELECT state FROM account_matches WHERE match_id = ?" if "sqlite" in str(engine.url)
                                       else "SELECT state FROM account_matches WHERE match_id = %s", (mid,)).fetchone()
        return row[0] if row and row[0] != "pending" else None

    assert wait_for(state) == "aborted"
    assert web.get("/api/players/ivy/history").json() == []


def test_claim_guest_seats_export_delete(nim: None, web: TestClient, inbox: tuple[Inbox, int]) -> None:
    box, _ = inbox
    # a guest plays first, then signs up and claims the seat this browser held
    r = web.post("/api/matches", json={"game": "nim", "config": {"heaps": 1, "size": 2}, "join_seat": 0,
                                       "player_name": "Jo"})
    mid, token = r.json()["match"]["id"], r.json()["token"]
    other = web.post(f"/api/matches/{mid}/seats/1/join", json={"name": "Kim"}).json()
    csrf = signup(web, box, 0, "joe@example.org", "joe")
    h = {"X-CSRF-Token": csrf}
    claimed = web.post("/api/account/claim", json={"seats": [{"match_id": mid, "seat": 0, "token": token},
                                                             {"match_id": mid, "seat": 1, "token": "wrong"}]}, headers=h)
    assert [c["claimed"] for c in claimed.json()] == [True, False]
    # the claimed seat now has the account's token (the guest token stops working), openable on any device
    new_token = claimed.json()[0]["token"]
    assert web.get(f"/api/matches/{mid}/state", params={"seat": 0}, headers={"X-Seat-Token": token}).status_code == 403
    assert web.post(f"/api/account/matches/{mid}/seats/0/token", headers=h).json()["token"] == new_token
    play_nim(web, mid, {0: new_token, 1: other["token"]}, [(0, {"type": "take", "heap": 0, "count": 1}),
                                                      (1, {"type": "take", "heap": 0, "count": 1})])
    assert wait_for(lambda: web.get("/api/players/joe/history").json())[0]["rated"] is False
    data = web.get("/api/account/export")
    assert data.status_code == 200 and "attachment" in data.headers["content-disposition"]
    dump = data.json()
    assert dump["account"]["username"] == "joe" and dump["results"][0]["match_id"] == mid
    assert "password_hash" not in data.text and "totp_secret" not in data.text
    assert web.post("/api/account/delete", json={"confirm": "not me"}, headers=h).status_code == 422
    assert web.post("/api/account/delete", json={"confirm": "joe"}).status_code == 403  # no CSRF token
    assert web.post("/api/account/delete", json={"confirm": "joe"}, headers=h).json() == {"deleted": True}
    assert web.get("/api/players/joe").status_code == 404
    assert web.get(f"/api/matches/{mid}").json()["seats"][0]["name"] == "Deleted player"
    fresh = browser(web)
    assert fresh.post("/api/account/signin", json={"email": "joe@example.org", "password": "correct horse 1"}) \
        .status_code == 401


def test_a_seat_left_is_no_longer_the_accounts(nim: None, web: TestClient, inbox: tuple[Inbox, int]) -> None:
    """An account that leaves its seat keeps no claim on it: a guest who takes the seat next plays for themself, and
    the result is not the account's."""
    box, _ = inbox
    csrf = signup(web, box, 0, "kai@example.org", "kai")
    h = {"X-CSRF-Token": csrf}
    r = web.post("/api/account/matches", json={"game": "nim", "config": {"heaps": 1, "size": 2}}, headers=h)
    mid, token = r.json()["match"]["id"], r.json()["token"]
    assert web.post(f"/api/matches/{mid}/seats/0/leave", json={"token": token}).status_code == 200
    guest = browser(web)
    g0 = guest.post(f"/api/matches/{mid}/seats/0/join", json={"name": "Guest"}).json()["token"]
    g1 = guest.post(f"/api/matches/{mid}/seats/1/join", json={"name": "Other"}).json()["token"]
    assert web.get("/api/account/matches").json() == []
    assert web.post(f"/api/account/matches/{mid}/seats/0/token", headers=h).status_code == 403
    play_nim(web, mid, {0: g0, 1: g1}, [(0, {"type": "take", "heap": 0, "count": 1}),
                                        (1, {"type": "take", "heap": 0, "count": 1})])
    engine = web.app.state.service.storage.engine  # type: ignore[attr-defined]

    def counted() -> bool:
        with engine.connect() as conn:
            return conn.exec_driver_sql("SELECT COUNT(*) FROM account_matches WHERE state != 'pending'").scalar() == 1

    assert wait_for(counted)
    assert web.get("/api/players/kai/history").json() == []
    # deleting the account leaves the guest's name on the seat
    assert web.post("/api/account/delete", json={"confirm": "kai"}, headers=h).status_code == 200
    assert web.get(f"/api/matches/{mid}").json()["seats"][0]["name"] == "Guest"
