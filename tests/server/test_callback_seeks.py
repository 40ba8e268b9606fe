"""Seeks, rematches and presence (issue 21, goals 2 and 3) through the API, with hostile inputs: a seek flood is
bounded, one's own seek cannot be taken, a rating outside the range is refused, a blocked player cannot take a seek,
a rematch needs every player and swaps the seats, an invisible account never shows up anywhere."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from spacetable.server.accounts.service import SESSION_COOKIE
from spacetable.server.app import create_app
from spacetable.server.social.presence import Presence

from .conftest import browser, lenient_limits

pytestmark = pytest.mark.callback
NIM = {"game": "nim", "config": {"heaps": 1, "size": 1}}


@pytest.fixture
def app_client(nim: None, sqlite_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_url, ai_workers=0, limits=lenient_limits())) as c:
        yield c


class Player:
    def __init__(self, base: TestClient, username: str) -> None:
        self.c = browser(base)
        self.id = "id-" + username
        with base.app.state.service.engine.begin() as conn:  # type: ignore[attr-defined]
            conn.execute(text("INSERT INTO accounts (id, username, username_key, display_name, lang, created_at) "
                              "VALUES (:i, :u, :u, :d, 'en', 0)"), {"i": self.id, "u": username, "d": username.title()})
        a = base.app.state.accounts  # type: ignore[attr-defined]
        cookie, self.csrf = base.portal.call(a.open_session, self.id, "test", None)  # type: ignore[union-attr]
        self.c.cookies.set(SESSION_COOKIE, cookie)

    def post(self, path: str, body: Any = None) -> Any:
        return self.c.post(path, json=body if body is not None else {}, headers={"X-CSRF-Token": self.csrf})

    def get(self, path: str) -> Any:
        return self.c.get(path)


def count(c: TestClient, sql: str) -> int:
    with c.app.state.service.engine.connect() as conn:  # type: ignore[attr-defined]
        return int(conn.execute(text(sql)).scalar_one())


def finish(c: TestClient, mid: str, tokens: dict[int, str]) -> None:
    info = c.get(f"/api/matches/{mid}").json()
    seat = info["to_act"][0]
    r = c.post(f"/api/matches/{mid}/actions", json={"seat": seat, "token": tokens[seat], "version": info["version"],
                                                     "action": {"type": "take", "heap": 0, "count": 1}})
    assert r.status_code == 200, r.text
    assert c.get(f"/api/matches/{mid}").json()["status"] == "finished"


def test_seeks_posted_taken_bounded(app_client: TestClient) -> None:
    c = app_client
    ann, bob, carl = Player(c, "ann"), Player(c, "bob"), Player(c, "carl")
    assert c.post("/api/seeks", json=NIM).status_code == 401  # signed out
    assert ann.c.post("/api/seeks", json=NIM).status_code == 403  # no CSRF token
    for bad, code in (({**NIM, "game": "chess"}, 404), ({**NIM, "min_rating": 5, "max_rating": 1}, 422),
                      ({**NIM, "config": {"heaps": "x"}}, 422), ({**NIM, "extra": 1}, 422),
                      ({**NIM, "min_rating": 1e9}, 422)):
        assert ann.post("/api/seeks", bad).status_code == code, bad
    # a flood: three open seeks, then 409 and nothing more stored
    ids = [ann.post("/api/seeks", NIM).json()["id"] for _ in range(3)]
    for _ in range(5):
        r = ann.post("/api/seeks", NIM)
        assert r.status_code == 409 and r.json()["error"]["code"] == "too_many_seeks"
    assert count(c, "SELECT COUNT(*) FROM seeks") == 3
    assert [x["id"] for x in ann.get("/api/account/export").json()["seeks"]] == ids  # the account's data download
    listed = c.get("/api/seeks").json()
    assert {s["id"] for s in listed["seeks"]} == set(ids) and "mine" not in listed
    assert listed["seeks"][0]["by"] == "ann" and listed["seeks"][0]["by_rating"] is not None
    # one's own seek cannot be taken; another's cannot be cancelled
    r = ann.post(f"/api/seeks/{ids[0]}/accept")
    assert r.status_code == 409 and r.json()["error"]["code"] == "own_seek"
    r = ann.c.post(f"/api/seeks/{ids[0]}/accept?lang=fr", headers={"X-CSRF-Token": ann.csrf})
    assert r.json()["error"]["explain"] == "C'est votre propre proposition : un autre joueur doit l'accepter."
    assert bob.post(f"/api/seeks/{ids[0]}/cancel").status_code == 403
    assert ann.post(f"/api/seeks/{ids[1]}/cancel").json() == {"status": "cancelled"}
    assert ann.post(f"/api/seeks/{ids[1]}/cancel").status_code == 409
    assert bob.post(f"/api/seeks/{ids[1]}/accept").status_code == 409
    # bob takes one: both seated, the seek is gone from the list, ann's own list names the match and her seat
    r = bob.post(f"/api/seeks/{ids[0]}/accept")
    assert r.status_code == 200, r.text
    mid, seat_b = r.json()["match"], r.json()["seat"]
    assert carl.post(f"/api/seeks/{ids[0]}/accept").status_code == 409  # taken once only
    m = c.get(f"/api/matches/{mid}").json()
    assert m["status"] == "running" and {s["name"] for s in m["seats"]} == {"Ann", "Bob"}
    assert ids[0] not in {s["id"] for s in c.get("/api/seeks").json()["seeks"]}
    mine = {s["id"]: s for s in ann.get("/api/seeks").json()["mine"]}
    assert mine[ids[0]]["match"] == mid and mine[ids[0]]["seat"] == 1 - seat_b
    r = ann.post(f"/api/account/matches/{mid}/seats/{1 - seat_b}/token")
    assert r.status_code == 200 and r.json()["link"].startswith(f"/match/{mid}#seat={1 - seat_b}")
    assert bob.post(f"/api/account/matches/{mid}/seats/{1 - seat_b}/token").status_code == 403
    # a blocked player's hand is refused both ways
    ann.post("/api/account/blocks", {"username": "carl", "blocked": True})
    r = carl.post(f"/api/seeks/{ids[2]}/accept")
    assert r.status_code == 403 and r.json()["error"]["code"] == "blocked"
    # a deleted account's seeks go with it
    assert ann.post("/api/account/delete", {"confirm": "ann"}).status_code == 200
    assert count(c, "SELECT COUNT(*) FROM seeks") == 0 and c.get("/api/seeks").json()["seeks"] == []


def test_seek_rating_range(app_client: TestClient) -> None:
    c = app_client
    ann, bob, carl = Player(c, "ann"), Player(c, "bob"), Player(c, "carl")
    with c.app.state.service.engine.begin() as conn:  # type: ignore[attr-defined]
        conn.execute(text("INSERT INTO ratings (account_id, game, mu, sigma, ordinal, games, updated_at) VALUES "
                          "('id-bob', 'nim', 40, 2, 34, 20, 0)"))
    sid = ann.post("/api/seeks", {**NIM, "min_rating": -5, "max_rating": 20}).json()["id"]
    r = bob.post(f"/api/seeks/{sid}/accept")  # 34 is above the range
    assert r.status_code == 403 and r.json()["error"]["code"] == "out_of_range"
    assert count(c, "SELECT COUNT(*) FROM seeks WHERE status = 'open'") == 1
    assert carl.post(f"/api/seeks/{sid}/accept").status_code == 200  # a newcomer's 0 is in it
    sid = ann.post("/api/seeks", {**NIM, "min_rating": 30}).json()["id"]
    assert carl.post(f"/api/seeks/{sid}/accept").status_code == 403
    assert bob.post(f"/api/seeks/{sid}/accept").status_code == 200


def test_rematch_swaps_seats_and_needs_both(app_client: TestClient) -> None:
    c = app_client
    ann, bob = Player(c, "ann"), Player(c, "bob")
    r = ann.post("/api/challenges", {**NIM, "username": "bob", "seat": 0})
    cid = r.json()["id"]
    # the challenge names both sides for the lobby and its page; the page of a challenge link is the app's
    shown = c.get(f"/api/challenges/{cid}").json()
    assert shown["by"]["username"] == "ann" and shown["to"]["username"] == "bob"
    assert bob.get("/api/challenges").json()["to_me"][0]["by"]["display_name"] == "Ann"
    page = c.get(f"/challenge/{cid}")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    r = bob.post(f"/api/challenges/{cid}/accept")
    mid, token_b = r.json()["match"], r.json()["token"]
    token_a = ann.post(f"/api/account/matches/{mid}/seats/0/token").json()["token"]
    assert c.post(f"/api/matches/{mid}/rematch", json={"seat": 0, "token": token_a}).status_code == 409  # not over
    finish(c, mid, {0: token_a, 1: token_b})
    # a wrong token offers nothing
    assert c.post(f"/api/matches/{mid}/rematch", json={"seat": 0, "token": token_b}).status_code == 403
    r = c.post(f"/api/matches/{mid}/rematch", json={"seat": 0, "token": token_a})
    assert r.status_code == 200 and r.json()["status"] == "open" and r.json()["agreed"] == [0]
    assert r.json()["match"] is None and r.json()["yours"] == {}
    assert c.get(f"/api/matches/{mid}/rematch").json()["agreed"] == [0]
    r = c.post(f"/api/matches/{mid}/rematch", json={"seat": 1, "token": token_b})
    assert r.status_code == 200 and r.json()["status"] == "accepted"
    new, mine = r.json()["match"], r.json()["yours"]
    assert mine["seat"] == 0  # bob was seat 1: now seat 0
    seats = c.get(f"/api/matches/{new}").json()["seats"]
    assert [s["name"] for s in seats] == ["Bob", "Ann"]
    # ann reads her new seat with her old token, bound to her account
    r = c.get(f"/api/matches/{mid}/rematch?seat=0", headers={"X-Seat-Token": token_a})
    assert r.json()["yours"]["seat"] == 1
    assert ann.post(f"/api/account/matches/{new}/seats/1/token").json()["token"] == r.json()["yours"]["token"]
    assert c.get(f"/api/matches/{mid}/rematch?seat=0", headers={"X-Seat-Token": token_b}).status_code == 403
    # agreeing again makes no second match
    assert c.post(f"/api/matches/{mid}/rematch", json={"seat": 1, "token": token_b}).json()["match"] == new


def test_rematch_declined_or_expired_guests(app_client: TestClient) -> None:
    c = app_client
    mid = c.post("/api/matches", json={**NIM, "join_seat": 0, "player_name": "Gus"}).json()
    mid, token0 = mid["match"]["id"], mid["token"]
    token1 = c.post(f"/api/matches/{mid}/seats/1/join", json={"name": "Hal"}).json()["token"]
    finish(c, mid, {0: token0, 1: token1})
    assert c.post(f"/api/matches/{mid}/rematch/decline", json={"seat": 1, "token": token1}).status_code == 409
    c.post(f"/api/matches/{mid}/rematch", json={"seat": 0, "token": token0})
    # the offer lapses: a later agreement starts a new offer instead of making the match
    with c.app.state.service.engine.begin() as conn:  # type: ignore[attr-defined]
        conn.execute(text("UPDATE rematches SET created_at = :t"), {"t": time.time() - 2 * 86400})
    assert c.get(f"/api/matches/{mid}/rematch").json()["status"] == "expired"
    r = c.post(f"/api/matches/{mid}/rematch", json={"seat": 1, "token": token1})
    assert r.json()["status"] == "open" and r.json()["agreed"] == [1]
    r = c.post(f"/api/matches/{mid}/rematch/decline", json={"seat": 0, "token": token0})
    assert r.status_code == 200 and r.json()["status"] == "declined"
    r = c.post(f"/api/matches/{mid}/rematch", json={"seat": 1, "token": token1})
    assert r.status_code == 409 and r.json()["error"]["code"] == "rematch_declined"
    assert count(c, "SELECT COUNT(*) FROM matches") == 1


def test_guest_rematch_tokens_and_play_again(app_client: TestClient) -> None:
    c = app_client
    r = c.post("/api/matches", json={**NIM, "join_seat": 0, "player_name": "Gus"}).json()
    mid, token0 = r["match"]["id"], r["token"]
    token1 = c.post(f"/api/matches/{mid}/seats/1/join", json={"name": "Hal"}).json()["token"]
    finish(c, mid, {0: token0, 1: token1})
    c.post(f"/api/matches/{mid}/rematch", json={"seat": 0, "token": token0})
    r = c.post(f"/api/matches/{mid}/rematch", json={"seat": 1, "token": token1}).json()
    new, hal = r["match"], r["yours"]
    gus = c.get(f"/api/matches/{mid}/rematch?seat=0", headers={"X-Seat-Token": token0}).json()["yours"]
    assert (gus["seat"], hal["seat"]) == (1, 0) and gus["token"] != hal["token"]
    state = c.get(f"/api/matches/{new}/state?seat=1", headers={"X-Seat-Token": gus["token"]})
    assert state.status_code == 200
    assert c.get(f"/api/matches/{new}/state?seat=0", headers={"X-Seat-Token": gus["token"]}).status_code == 403
    # against the computer: "Play again" at once, same seat, same options, the computer where it was
    r = c.post("/api/matches", json={**NIM, "join_seat": 0, "player_name": "Gus", "ai_seats": {"1": None}})
    assert r.status_code == 201, r.text
    mid, token0 = r.json()["match"]["id"], r.json()["token"]
    finish(c, mid, {0: token0})
    r = c.post(f"/api/matches/{mid}/rematch", json={"seat": 0, "token": token0}).json()
    assert r["status"] == "accepted" and r["yours"]["seat"] == 0
    seats = c.get(f"/api/matches/{r['match']}").json()["seats"]
    assert [s["kind"] for s in seats] == ["human", "ai"] and seats[0]["name"] == "Gus"
    assert c.get(f"/api/matches/{r['match']}/config").json()["heaps"] == 1


def test_presence_lobby_seats_invisible(app_client: TestClient) -> None:
    c = app_client
    ann, bob = Player(c, "ann"), Player(c, "bob")
    assert c.post("/api/presence", json={"lobby": True}).status_code == 401
    assert ann.post("/api/presence", {"lobby": True}).json() == {"online": True, "invisible": False}
    bob.post("/api/presence", {"lobby": False})
    assert [p["username"] for p in c.get("/api/presence/lobby").json()["players"]] == ["ann"]
    prof = c.get("/api/players/bob/presence").json()
    assert prof["online"] is True and prof["last_seen"] is not None
    assert count(c, "SELECT COUNT(*) FROM accounts WHERE last_seen IS NOT NULL") == 2
    # seats: a match's socket bound to a seat puts its player at the table
    r = ann.post("/api/challenges", {**NIM, "username": "bob", "seat": 0})
    r = bob.post(f"/api/challenges/{r.json()['id']}/accept")
    mid, token_b = r.json()["match"], r.json()["token"]
    assert c.get(f"/api/matches/{mid}/presence").json() == {"seats": [False, False]}
    with c.websocket_connect(f"/ws/matches/{mid}?seat=1&token={token_b}") as ws:
        ws.receive_json()
        assert c.get(f"/api/matches/{mid}/presence").json() == {"seats": [False, True]}
        # bob turns invisible: gone from everything at once, his seat reads as away
        assert bob.c.get("/api/account/presence").json() == {"invisible": False}
        assert bob.post("/api/account/presence", {"invisible": True}).json() == {"invisible": True}
        assert c.get(f"/api/matches/{mid}/presence").json() == {"seats": [False, False]}
        assert c.get("/api/players/bob/presence").json() == {"online": False, "last_seen": None}
        assert bob.post("/api/presence", {"lobby": True}).json()["online"] is False
        assert [p["username"] for p in c.get("/api/presence/lobby").json()["players"]] == ["ann"]
    assert c.get(f"/api/matches/{mid}/presence").json() == {"seats": [False, False]}
    bob.post("/api/account/presence", {"invisible": False})
    with c.websocket_connect(f"/ws/matches/{mid}?seat=1&token={token_b}") as ws:
        ws.receive_json()
        assert c.get(f"/api/matches/{mid}/presence").json() == {"seats": [False, True]}
    assert c.get(f"/api/matches/{mid}/presence").json() == {"seats": [False, False]}
    assert c.get("/api/matches/nope/presence").status_code == 404
    assert c.get("/api/players/nobody/presence").json() == {"online": False, "last_seen": None}


def test_presence_shared_through_redis(redis_url: str) -> None:
    """Two processes' presence on one Redis: a seat held by one is seen by the other, and leaves when released."""
    asyncio.run(_shared(redis_url))


@pytest.mark.hotpath
def test_seats_at_the_tables_of_several_matches_in_one_read(redis_url: str) -> None:
    """``Presence.at_tables`` (what the notifier leaves out): the seats held on this process, with no Redis, and the
    seats held on any process through Redis, for several matches in one read; a match nobody sits at is left out."""
    async def run() -> None:
        alone = Presence(None)
        alone.hold("m:x", "0")
        alone.hold("m:x", "2")
        alone.hold("m:y", "1")
        alone.hold("lobby", "acc")
        assert await alone.at_tables(["x", "y", "z"]) == {"x": {0, 2}, "y": {1}}
        alone.release("m:x", "2")
        assert await alone.at_tables(["x"]) == {"x": {0}}
        assert await alone.at_tables([]) == {}
        async with two_processes(redis_url, 30, "test-at-tables:") as (one, two):
            one.hold("m:x", "0")
            two.hold("m:x", "1")
            one.hold("m:y", "1")
            await _until(lambda: two.members("m:y"), ["1"])
            await _until(lambda: two.members("m:x"), ["0", "1"])
            assert await two.at_tables(["x", "y", "z"]) == {"x": {0, 1}, "y": {1}}
            one.release("m:y", "1")
            await _until(lambda: two.members("m:y"), [])
            assert await two.at_tables(["x", "y"]) == {"x": {0, 1}}
    asyncio.run(run())


@pytest.mark.hotpath
def test_a_process_announces_the_seats_it_holds_when_they_change_and_again_while_held(redis_url: str) -> None:
    """``Presence.on_seats`` (what the app publishes to the other processes holding a match, issue 26): called with the
    seats held in a match's room when a seat is first held or last released, not for a second socket of a seat nor
    for other rooms; again at every refresh (a third of the lifetime) while a seat is held; with none when the
    process stops."""
    told: list[tuple[str, list[int]]] = []
    alone = Presence(None)
    alone.on_seats = lambda match_id, seats: told.append((match_id, seats))
    alone.hold("m:x", "1")
    alone.hold("m:x", "1")  # a second socket of seat 1
    alone.hold("m:x", "0")
    alone.hold("lobby", "acc")
    alone.release("m:x", "1")  # one of seat 1's two sockets
    assert told == [("x", [1]), ("x", [0, 1])]
    alone.release("m:x", "1")
    alone.release("m:x", "0")
    alone.release("m:x", "0")  # released already: nothing
    assert told[2:] == [("x", [0]), ("x", [])]

    async def refreshed() -> None:
        shared = Presence(redis_url, ttl=0.6, prefix="test-announce:")
        again: list[tuple[str, list[int]]] = []
        shared.on_seats = lambda match_id, seats: again.append((match_id, seats))
        await shared.start()
        try:
            shared.hold("m:y", "2")
            for _ in range(400):
                if len(again) >= 3:
                    break
                await asyncio.sleep(0.025)
            assert again[:3] == [("y", [2])] * 3
            shared.hold("lobby", "acc")
        finally:
            await shared.stop()
        assert again[-1] == ("y", [])  # a process that stops holds nothing any more

    asyncio.run(refreshed())


@contextlib.asynccontextmanager
async def two_processes(redis_url: str, ttl: float, prefix: str) -> AsyncIterator[tuple[Presence, Presence]]:
    """Two processes' presence on one Redis, started and stopped."""
    one, two = Presence(redis_url, ttl=ttl, prefix=prefix), Presence(redis_url, ttl=ttl, prefix=prefix)
    await one.start()
    await two.start()
    try:
        yield one, two
    finally:
        await one.stop()
        await two.stop()


async def _shared(redis_url: str) -> None:
    async with two_processes(redis_url, 30, "test-presence:") as (one, two):
        one.hold("m:x", "1")
        await _until(lambda: two.members("m:x"), ["1"])
        await two.beat("lobby", "acc")
        assert await one.present("lobby", "acc") and await one.members("lobby") == ["acc"]
        one.release("m:x", "1")
        await _until(lambda: two.members("m:x"), [])
        await two.leave("lobby", "acc")
        assert not await one.present("lobby", "acc")


def test_presence_burst_of_seat_sockets_through_redis(redis_url: str) -> None:
    """Hundreds of seat sockets opening at once (more than a Redis client's pool of connections) are all seen by the
    other process, and all gone once released: the writes go in batches, not one connection each."""
    asyncio.run(_burst(redis_url))


async def _burst(redis_url: str) -> None:
    async with two_processes(redis_url, 600, "test-burst:") as (one, two):
        rooms = [f"m:{i}" for i in range(300)]
        for room in rooms:
            one.hold(room, "0")
            one.hold(room, "1")
        await _until(lambda: _all(two, rooms), [["0", "1"]] * len(rooms))
        for room in rooms:
            one.release(room, "0")
        one.hold(rooms[0], "0")  # held again before the writer ran: the last change wins
        await _until(lambda: _all(two, rooms[:2]), [["0", "1"], ["1"]])
        await _until(lambda: _all(two, rooms), [["0", "1"]] + [["1"]] * (len(rooms) - 1))


async def _all(p: Presence, rooms: list[str]) -> list[list[str]]:
    return [sorted(await p.members(room)) for room in rooms]


async def _until(read: Any, want: Any) -> None:
    for _ in range(400):
        if await read() == want:
            return
        await asyncio.sleep(0.025)
    assert await read() == want


def test_presence_across_two_processes(nim: None, sqlite_url: str, redis_url: str) -> None:
    """Two server processes (two apps) on one database and one Redis: a player beating through one is listed by the
    other; a seat's socket on one is at the table for the other; invisible on one is invisible on both."""
    one = TestClient(create_app(sqlite_url, ai_workers=0, limits=lenient_limits(), redis_url=redis_url))
    two = TestClient(create_app(sqlite_url, ai_workers=0, limits=lenient_limits(), redis_url=redis_url, migrate=False))
    with one, two:
        ann, bob = Player(one, "ann"), Player(one, "bob")
        ann.post("/api/presence", {"lobby": True})
        assert [p["username"] for p in two.get("/api/presence/lobby").json()["players"]] == ["ann"]
        r = ann.post("/api/challenges", {**NIM, "username": "bob", "seat": 0})
        r = bob.post(f"/api/challenges/{r.json()['id']}/accept")
        mid, token_b = r.json()["match"], r.json()["token"]
        with one.websocket_connect(f"/ws/matches/{mid}?seat=1&token={token_b}") as ws:
            ws.receive_json()
            for _ in range(400):
                if two.get(f"/api/matches/{mid}/presence").json()["seats"] == [False, True]:
                    break
                time.sleep(0.025)
            assert two.get(f"/api/matches/{mid}/presence").json() == {"seats": [False, True]}
            ann.post("/api/account/presence", {"invisible": True})
            assert two.get("/api/presence/lobby").json()["players"] == []


@pytest.mark.parametrize("clock", [{"kind": "increment", "seconds": 300.0, "increment": 5.0}, {"kind": "days", "days": 3},
                                   {"kind": "move", "seconds": 60.0}, {"kind": "none"}])
def test_rematch_keeps_the_time_control_and_the_lapse_policy(app_client: TestClient, clock: dict[str, Any]) -> None:
    """A rematch is made with the match's own time control and what a lapse does (issue 21), not only its
    per-move seconds: an increment clock stays an increment clock, days stay days, a claim stays a claim."""
    c = app_client
    lapse = {"lapse": "claim"} if clock["kind"] != "none" else {}  # a lapse needs a clock
    r = c.post("/api/matches", json={**NIM, "join_seat": 0, "player_name": "Gus", "clock": clock, **lapse})
    assert r.status_code == 201, r.text
    mid, token0 = r.json()["match"]["id"], r.json()["token"]
    token1 = c.post(f"/api/matches/{mid}/seats/1/join", json={"name": "Hal"}).json()["token"]
    finish(c, mid, {0: token0, 1: token1})
    c.post(f"/api/matches/{mid}/rematch", json={"seat": 0, "token": token0})
    new = c.post(f"/api/matches/{mid}/rematch", json={"seat": 1, "token": token1}).json()["match"]
    old, made = c.get(f"/api/matches/{mid}").json(), c.get(f"/api/matches/{new}").json()
    assert made["clock"] == old["clock"] and made["clock"]["kind"] == clock["kind"]
    assert made["turn_seconds"] == old["turn_seconds"]
    assert c.app.state.service.lapses.policy(new) == (  # type: ignore[attr-defined]
        ("claim", None) if lapse else ("forfeit", None))


@pytest.mark.parametrize("how", ["challenge", "link", "seek"])
def test_challenges_and_seeks_carry_the_whole_time_control(app_client: TestClient, how: str) -> None:
    """A challenge (named or by link) and a seek make their match with the time control and the lapse policy they
    were posted with (issue 21: "game, options, rated or casual, clock"), not only a per-move seconds; what the
    creation form would refuse is refused when posted (422) and stores nothing."""
    c = app_client
    ann, bob = Player(c, "ann" + how), Player(c, "bob" + how)
    path = "/api/seeks" if how == "seek" else "/api/challenges"
    who = {"username": bob.id.removeprefix("id-")} if how == "challenge" else {}
    table = "seeks" if how == "seek" else "challenges"
    for bad in ({"clock": {"kind": "increment", "seconds": 5}},  # a bank under 60 s... and a clock under 10 s
                {"clock": {"kind": "days", "days": 30}},
                {"clock": {"kind": "move", "seconds": 60}, "turn_seconds": 60},  # both ways at once
                {"lapse": "claim"},  # a lapse policy needs a clock
                {"clock": {"kind": "move", "seconds": 60}, "lapse": "pass"},  # nim's rules name no pass
                {"clock": {"kind": "move", "seconds": 60}, "lapse": "computer", "lapse_agent": "nobody"},
                {"clock": {"kind": "move", "seconds": 60}, "lapse_agent": "random"},  # an agent without 'computer'
                {"clock": {"kind": "sundial"}}):
        r = ann.post(path, {**NIM, **who, **bad})
        assert r.status_code == 422, (bad, r.text)
    assert count(c, f"SELECT COUNT(*) FROM {table}") == 0
    clock = {"kind": "increment", "seconds": 600.0, "increment": 5.0}
    r = ann.post(path, {**NIM, **who, "clock": clock, "lapse": "claim"})
    assert r.status_code == 201, r.text
    cid = r.json()["id"]
    if how == "seek":
        listed = next(s for s in c.get("/api/seeks").json()["seeks"] if s["id"] == cid)
        made = bob.post(f"/api/seeks/{cid}/accept")
    else:
        listed = bob.get(f"/api/challenges/{cid}").json()
        made = bob.post(f"/api/challenges/{cid}/accept")
    assert (listed["clock"], listed["lapse"], listed["turn_seconds"]) == (clock, "claim", 600.0)
    assert made.status_code == 200, made.text
    m = c.get(f"/api/matches/{made.json()['match']}").json()
    assert m["clock"]["kind"] == "increment" and m["turn_seconds"] == 600.0 and m["clock"]["increment"] == 5.0
    assert c.app.state.service.lapses.policy(m["id"]) == ("claim", None)  # type: ignore[attr-defined]
    # the plain per-move seconds of before still work, with no lapse policy stored
    r = ann.post(path, {**NIM, **who, "turn_seconds": 90})
    assert r.status_code == 201, r.text
    cid = r.json()["id"]
    made = bob.post(f"/api/seeks/{cid}/accept" if how == "seek" else f"/api/challenges/{cid}/accept")
    m = c.get(f"/api/matches/{made.json()['match']}").json()
    assert m["turn_seconds"] == 90 and c.app.state.service.lapses.policy(m["id"]) == ("forfeit", None)  # type: ignore[attr-defined]
