"""Two processes of one service, in one test process (SRV-X1..X4): two apps on one PostgreSQL database and one Redis
server, each with its own event loop (``TestClient``), standing for two server processes behind a proxy.

Cheaper than ``test_multiprocess.py`` (no subprocess), so the paths between processes are checked one by one: a
seat left on one process closes that seat's socket on the other (SRV-A4), an undo asked on one and accepted on the
other, a change whose notice was lost is caught up by the periodic check, the lobby and the rate limits are the same
from both, and both processes store an action of the same match at once.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from spacetable.server.app import create_app

from .conftest import create, join, lenient_limits, live

pytestmark = pytest.mark.usefixtures("nim")


@pytest.fixture
def pair(pg_url: str, redis_url: str) -> Iterator[tuple[TestClient, TestClient]]:
    with TestClient(create_app(pg_url, ai_workers=0, limits=lenient_limits(), redis_url=redis_url)) as a, \
            TestClient(create_app(pg_url, ai_workers=0, limits=lenient_limits(), redis_url=redis_url, migrate=False)) as b:
        yield a, b


def wait_for(pred: Any, timeout: float = 60.0) -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = pred()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {pred}")


def act(c: TestClient, mid: str, seat: int, token: str, version: int, action: dict[str, Any]) -> Any:
    return c.post(f"/api/matches/{mid}/actions", json={"seat": seat, "token": token, "version": version, "action": action})


def test_leaving_on_one_process_closes_the_seats_socket_on_the_other(pair: tuple[TestClient, TestClient]) -> None:
    """SRV-A4 across processes: the seat's token stops working everywhere and its socket on B is told and closed."""
    a, b = pair
    data = create(a, "nim", seed=1, open_seed=True, join_seat=0)
    mid, t0 = data["match"]["id"], data["token"]
    join(a, mid, 1)
    with b.websocket_connect(f"/ws/matches/{mid}?seat=0") as ws:
        ws.send_json({"type": "auth", "token": t0})
        assert ws.receive_json()["type"] == "snapshot"
        assert a.post(f"/api/matches/{mid}/seats/0/leave", json={"token": t0}).status_code == 200
        msg = ws.receive_json()
        assert msg["type"] == "error" and msg["error"]["code"] == "seat_left"
    assert act(b, mid, 0, t0, 0, {"type": "take", "heap": 0, "count": 1}).status_code == 403


def test_an_undo_asked_on_one_process_and_accepted_on_the_other(pair: tuple[TestClient, TestClient]) -> None:
    """SRV-U4 across processes: the request reaches the other seat's socket on B; accepting there takes the action back
    on both processes (the log was cut: both read the match again)."""
    a, b = pair
    data = create(a, "nim", seed=2, open_seed=True, join_seat=0, config={"resign": False})
    mid, t0 = data["match"]["id"], data["token"]
    t1 = join(b, mid, 1)
    assert act(a, mid, 0, t0, 0, {"type": "take", "heap": 0, "count": 1}).status_code == 200
    with b.websocket_connect(f"/ws/matches/{mid}?seat=1") as ws:
        ws.send_json({"type": "auth", "token": t1})
        first = ws.receive_json()
        assert first["type"] == "snapshot"
        if first["version"] == 0:  # B had not heard of the action yet when the socket opened
            assert ws.receive_json()["version"] == 1
        r = a.post(f"/api/matches/{mid}/undo", json={"seat": 0, "token": t0})
        assert r.status_code == 200 and r.json()["done"] is False
        msg = ws.receive_json()
        assert msg["reason"] == "undo_request" and msg["match"]["undo_request"]["waiting"] == [1]
        ws.send_json({"type": "undo_accept"})
        replies = [ws.receive_json() for _ in range(2)]
        assert {m["type"] for m in replies} == {"snapshot", "undo"}
        snap = next(m for m in replies if m["type"] == "snapshot")
        assert snap["reason"] == "undo" and snap["version"] == 0 and snap["log"] == []
    wait_for(lambda: a.get(f"/api/matches/{mid}").json()["version"] == 0)
    assert act(a, mid, 0, t0, 0, {"type": "take", "heap": 1, "count": 2}).status_code == 200


def listening(redis_url: str, channel: str, processes: int) -> None:
    """Wait until Redis lists ``processes`` subscribers of ``channel`` (one connection a process): a process waits at
    most a second for its subscription's confirmation before it lets a socket go on (``RedisFanout.watch``), and
    unsubscribes in the background (``unwatch``); a notice reaches only the subscribers Redis has when it is
    published."""
    import redis

    with redis.Redis.from_url(redis_url) as r:
        wait_for(lambda: r.pubsub_numsub(channel) == [(channel.encode(), processes)], timeout=60)


def test_a_chat_message_written_on_one_process_reaches_the_other(pair: tuple[TestClient, TestClient],
                                                                  redis_url: str) -> None:
    """Issue 21 across processes: a seat's chat message written over its socket on A is sent to the other seat's
    socket on B (the fan-out's chat notice), and B's reply reaches A. A chat notice lost on the way is not caught up
    by the periodic check (the page reads the room again on each snapshot and every 30 s), so the test starts once both
    processes listen to the match."""
    a, b = pair
    data = create(a, "nim", seed=3, open_seed=True, join_seat=0)
    mid, t0 = data["match"]["id"], data["token"]
    t1 = join(b, mid, 1)
    with a.websocket_connect(f"/ws/matches/{mid}?seat=0") as wa, b.websocket_connect(f"/ws/matches/{mid}?seat=1&lang=ru") as wb:
        for ws, tok in ((wa, t0), (wb, t1)):
            ws.send_json({"type": "auth", "token": tok})
            assert ws.receive_json()["type"] == "snapshot"
        listening(redis_url, a.app.state.service.fanout.channel(mid), 2)  # type: ignore[attr-defined]

        def chat(ws: Any) -> dict[str, Any]:
            while (msg := ws.receive_json())["type"] != "chat":
                assert msg["type"] != "error", msg  # a refused message fails here, not in the suite's timeout
            return dict(msg["message"])

        wa.send_json({"type": "chat", "text": "from A"})
        assert chat(wa)["text"] == "from A" and chat(wb)["text"] == "from A"
        wb.send_json({"type": "chat", "quick": "thanks"})
        assert chat(wb)["text"] == "Спасибо!" and chat(wa)["text"] == "Thank you!"


@pytest.fixture
def no_periodic_resync(monkeypatch: pytest.MonkeyPatch) -> None:
    """The periodic check against the database only when the test calls it (``resync``), not on a timer."""
    from spacetable.server import catchup

    monkeypatch.setattr(catchup, "RESYNC_INTERVAL", 3600.0)


def test_a_lost_notice_is_caught_up(no_periodic_resync: None, pair: tuple[TestClient, TestClient],
                                    redis_url: str) -> None:
    """SRV-X2: pub/sub delivers at most once; when B misses a change (here: B stops listening to the match), the periodic
    check against the database brings it up to date and its sockets get the event. (B stops listening once its
    socket is there: a match nobody on B follows would leave B's memory at A's next change, and be read again.)"""
    a, b = pair
    data = create(a, "nim", seed=3, open_seed=True, join_seat=0)
    mid, t0 = data["match"]["id"], data["token"]
    join(a, mid, 1)
    service_b = b.app.state.service  # type: ignore[attr-defined]
    with b.websocket_connect(f"/ws/matches/{mid}") as ws:
        assert ws.receive_json()["version"] == 0
        b.portal.call(lambda: service_b.fanout.unwatch(mid))  # type: ignore[union-attr]
        listening(redis_url, service_b.fanout.channel(mid), 1)  # B's unsubscription done: only A listens to the match
        assert act(a, mid, 0, t0, 0, {"type": "take", "heap": 0, "count": 1}).status_code == 200
        time.sleep(0.3)
        assert live(b, mid).version == 0  # not heard of
        assert b.portal.call(service_b.resync) == 1  # type: ignore[union-attr]
        assert ws.receive_json()["version"] == 1


def test_both_processes_store_an_action_of_one_match_at_once(pair: tuple[TestClient, TestClient]) -> None:
    """SRV-X1: the sealed bids of both seats sent at the same moment to two processes: both are accepted (the second
    catches up after its compare-and-set fails, and SRV-A1b holds on the newer state), each stored once."""
    a, b = pair
    for k in range(5):
        data = create(a, "nim", seed=10 + k, open_seed=True, join_seat=0, config={"mode": "sealed", "size": 20})
        mid, t0 = data["match"]["id"], data["token"]
        t1 = join(b, mid, 1)
        live(a, mid), live(b, mid)
        results: dict[int, Any] = {}
        go = threading.Barrier(2)

        def bid(c: TestClient, seat: int, token: str, r: dict[int, Any] = results, go: threading.Barrier = go,
                mid: str = mid) -> None:
            go.wait()
            r[seat] = act(c, mid, seat, token, 0, {"type": "bid", "amount": 1 + seat})

        threads = [threading.Thread(target=bid, args=(a, 0, t0)), threading.Thread(target=bid, args=(b, 1, t1))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(20)
        assert results[0].status_code == 200 and results[1].status_code == 200, (results[0].text, results[1].text)
        log = wait_for(lambda mid=mid: (s := a.get(f"/api/matches/{mid}/state").json())["version"] == 2 and s["log"])
        assert sorted(e["seat"] for e in log) == [0, 1]
        # B learns of A's action a moment after A answered it (SRV-X2, through Redis): read it once it has
        assert wait_for(lambda mid=mid: (s := b.get(f"/api/matches/{mid}/state").json())["version"] == 2 and s["log"]) == log
    conflicts = a.get("/health").json()["conflicts"] + b.get("/health").json()["conflicts"]
    assert conflicts >= 1  # the race did happen: a compare-and-set failed and was checked again


def test_the_lobby_and_the_rate_limits_are_the_same_from_both(pg_url: str, redis_url: str) -> None:
    """SRV-X4: one lobby (from the database) and one count of each client's requests (in Redis) for the service."""
    limits = lenient_limits(rate_create="3/minute")
    with TestClient(create_app(pg_url, ai_workers=0, limits=limits, redis_url=redis_url)) as a, \
            TestClient(create_app(pg_url, ai_workers=0, limits=limits, redis_url=redis_url, migrate=False)) as b:
        for c in (a, b, a):
            assert c.post("/api/matches", json={"game": "arena"}).status_code == 201
        r = b.post("/api/matches", json={"game": "arena"})
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
        assert a.get("/api/matches").json() == b.get("/api/matches").json()
        assert len(a.get("/api/matches").json()) == 3


def test_a_seat_taken_on_one_process_is_usable_at_once_on_the_other(pair: tuple[TestClient, TestClient]) -> None:
    """SRV-X1: right after a seat is taken through B, A (whose copy may not have heard of it yet) accepts the seat's
    token on a socket and over REST, and its action: a refusal is checked against the stored match first."""
    a, b = pair
    for k in range(5):
        data = create(a, "nim", seed=40 + k, open_seed=True, join_seat=0, config={"resign": False})
        mid, t0 = data["match"]["id"], data["token"]
        live(a, mid)
        t1 = join(b, mid, 1)
        assert act(a, mid, 0, t0, 0, {"type": "take", "heap": 0, "count": 1}).status_code == 200
        r = a.get(f"/api/matches/{mid}/state", params={"seat": 1}, headers={"X-Seat-Token": t1})
        assert r.status_code == 200 and r.json()["seat"] == 1
        with a.websocket_connect(f"/ws/matches/{mid}?seat=1") as ws:
            ws.send_json({"type": "auth", "token": t1})
            snap = ws.receive_json()
            assert snap["type"] == "snapshot" and snap["seat"] == 1


def test_a_redis_outage_delays_events_but_loses_none(pg_url: str, redis_server: Any) -> None:
    """SRV-X2: while Redis is down actions are still stored (the database is the truth); once it is back, B's
    clients get the events they missed, once and in order."""
    if isinstance(redis_server, str):
        pytest.skip(redis_server)
    from spacetable.server.devservers import TempRedis

    r = TempRedis().start()
    try:
        with TestClient(create_app(pg_url, ai_workers=0, limits=lenient_limits(), redis_url=r.url)) as a, \
                TestClient(create_app(pg_url, ai_workers=0, limits=lenient_limits(), redis_url=r.url, migrate=False)) as b:
            data = create(a, "nim", seed=7, open_seed=True, join_seat=0, config={"resign": False})
            mid, t0 = data["match"]["id"], data["token"]
            t1 = join(a, mid, 1)
            live(b, mid)
            with b.websocket_connect(f"/ws/matches/{mid}") as ws:
                first = ws.receive_json()
                while first["type"] != "snapshot" or first["match"]["status"] != "running":
                    first = ws.receive_json()
                assert r.proc is not None
                r.proc.kill()
                r.proc.wait(10)
                assert act(a, mid, 0, t0, 0, {"type": "take", "heap": 0, "count": 1}).status_code == 200
                assert act(a, mid, 1, t1, 1, {"type": "take", "heap": 1, "count": 1}).status_code == 200
                r.start()  # the same port
                assert [ws.receive_json()["version"] for _ in range(2)] == [1, 2]
    finally:
        r.stop()


def test_rate_limits_let_requests_through_while_redis_is_away() -> None:
    """SRV-X4: the shared rate limits need Redis; without it requests are not refused (and not counted)."""
    import asyncio

    from spacetable.server.devservers import free_port
    from spacetable.server.limits import RateLimiter

    limiter = RateLimiter(lenient_limits(rate_join="1/minute"), f"redis://127.0.0.1:{free_port()}/0")

    async def twice() -> None:
        await limiter.hit("join", "1.2.3.4")
        await limiter.hit("join", "1.2.3.4")

    asyncio.run(twice())


@pytest.mark.hotpath
def test_moves_are_counted_in_the_process_even_with_redis() -> None:
    """SRV-X4, issue 26: moves (``act``) are counted in the process's memory, with or without Redis (two Redis round
    trips a move cost as much CPU as the move itself): the limit holds while Redis is unreachable, and a process's
    count is its own."""
    import asyncio

    from spacetable.server.devservers import free_port
    from spacetable.server.errors import ServiceError
    from spacetable.server.limits import RateLimiter

    url = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    one, other = (RateLimiter(lenient_limits(rate_act="2/minute"), url) for _ in range(2))

    async def play() -> list[str]:
        out = []
        for limiter in (one, one, one, other):
            try:
                await limiter.hit("act", "1.2.3.4")
                out.append("ok")
            except ServiceError as exc:
                out.append(exc.code)
        return out

    assert asyncio.run(play()) == ["ok", "ok", "rate_limited", "ok"]


def test_a_process_that_stops_hands_its_ai_seats_over_at_once(pg_url: str, redis_url: str) -> None:
    """SRV-X3: A runs the AI seat of its match (the person acted there); A stops cleanly while the AI thinks: its
    heartbeat is gone at once, B takes the match over at its next scan and the AI seat moves there, once."""
    b_app = create_app(pg_url, ai_workers=0, limits=lenient_limits(), redis_url=redis_url, lease_seconds=1.0)
    a_app = create_app(pg_url, ai_workers=0, limits=lenient_limits(), redis_url=redis_url, migrate=False)
    with TestClient(b_app) as b:
        with TestClient(a_app) as a:
            data = create(a, "nim", seed=9, open_seed=True, join_seat=0, ai_seats={"1": "mcts"}, ai_seconds=5.0,
                          config={"resign": False})
            mid, t0 = data["match"]["id"], data["token"]
            assert act(a, mid, 0, t0, 0, {"type": "take", "heap": 0, "count": 1}).status_code == 200
        # A stopped while its AI seat was thinking (5 s); B, running all along, takes it over at its next scan
        summary = wait_for(lambda: (s := b.get(f"/api/matches/{mid}").json())["version"] == 2 and s, timeout=30)
        assert summary["to_act"] == [0]
        log = b.get(f"/api/matches/{mid}/state").json()["log"]
        assert [e["source"] for e in log] == ["player", "ai"]
        assert b.get("/health").json()["taken_over"] == 1


def stubborn_task(swallowed: list[bool]) -> asyncio.Task[None]:
    """A task that swallows its first cancellation, as redis-py's timeouts did (noted in ``swallowed``)."""

    async def run() -> None:
        while True:
            try:
                await asyncio.sleep(3600)
            except asyncio.CancelledError:
                if swallowed:
                    raise
                swallowed.append(True)
                current = asyncio.current_task()
                assert current is not None
                current.uncancel()

    return asyncio.create_task(run())


def test_a_process_stops_even_when_redis_swallows_a_cancellation(redis_url: str) -> None:
    """SRV-X2: stopping the Redis fan-out is bounded. redis-py's own timeouts can swallow a task's cancellation
    (seen while Redis restarted: the writer went back to waiting for notices and the process never stopped);
    here a fan-out task ignores its first cancellation the same way, and ``stop`` still ends within seconds."""
    import asyncio

    from spacetable.server.fanout import RedisFanout

    async def scenario() -> float:
        fanout = RedisFanout(redis_url, "p1")
        await fanout.start()

        swallowed: list[bool] = []
        task = stubborn_task(swallowed)
        fanout._tasks.append(task)
        await asyncio.sleep(0.05)
        await asyncio.wait_for(fanout.stop(), 120)  # a hang guard: without the bound, stop never ends
        return bool(swallowed) and task.done()

    assert asyncio.run(scenario())  # the first cancellation was swallowed, and stop still ended the task


@pytest.mark.hardening
def test_presence_and_ratings_stop_even_when_a_cancellation_is_swallowed(redis_url: str) -> None:
    """A server's shutdown is bounded in its other background tasks too: presence (its Redis refresher and writer)
    and the ratings worker. Each here has a task that swallows its first cancellation, as redis-py's timeouts can;
    ``stop`` still ends it within seconds. Before, presence cancelled once and awaited the task, and a test
    server's shutdown waited on it until the five-minute test timeout (once in a full run with two workers)."""
    import asyncio
    import types

    from spacetable.server.accounts.ratings import RatingKeeper
    from spacetable.server.social.presence import Presence

    async def scenario() -> list[bool]:
        presence = Presence(redis_url)
        await presence.start()
        presence.hold("lobby", "p1")
        assert presence._writer is not None
        presence._writer.cancel()
        swallowed: list[bool] = []
        presence._writer = stubborn_task(swallowed)
        await asyncio.sleep(0.05)
        await asyncio.wait_for(presence.stop(), 60)  # a hang guard: without the bound, stop never ends
        ok = [bool(swallowed), presence._writer is None]

        ratings = RatingKeeper(types.SimpleNamespace(storage=None))  # type: ignore[arg-type]
        swallowed_too: list[bool] = []
        task = ratings._task = stubborn_task(swallowed_too)
        await asyncio.sleep(0.05)
        await asyncio.wait_for(ratings.stop(), 60)
        return [*ok, bool(swallowed_too), task.done()]

    assert asyncio.run(scenario()) == [True, True, True, True]


@pytest.mark.hardening
def test_a_burst_of_requests_is_counted_in_redis_not_let_through(redis_url: str) -> None:
    """SRV-X4: two thousand requests at once (a crowd reconnecting) wait for the rate-limit store's few connections;
    none is let through uncounted, as when the Redis client ran out of connections and the limiter took it for Redis
    being away."""
    import asyncio

    from spacetable.server.errors import ServiceError
    from spacetable.server.limits import RateLimiter

    limiter = RateLimiter(lenient_limits(rate_join="5/minute"), redis_url)

    async def one(i: int) -> bool:
        try:
            await limiter.hit("join", f"10.0.{i % 200 // 100}.{i % 100}")
        except ServiceError as exc:
            assert exc.code == "rate_limited"
            return False
        return True

    async def burst() -> list[bool]:
        return await asyncio.gather(*(one(i) for i in range(2000)))

    passed = asyncio.run(burst())
    assert sum(passed) == 200 * 5  # five a minute for each of the 200 addresses, and no more


@pytest.mark.hotpath
def test_a_match_nobody_follows_here_leaves_memory_when_the_other_process_changes_it(
        pair: tuple[TestClient, TestClient], redis_url: str) -> None:
    """A process that holds a match no socket, computer seat or change of its own follows (B loaded it for a request,
    as the process that created a match does when a proxy routes the match's sockets elsewhere) lets it go at the
    other process's next change instead of applying it: the match leaves B's memory and B stops listening to it.
    A socket on B later reads the stored match, up to date. A match B's own socket follows is followed, move by move."""
    a, b = pair
    service_b = b.app.state.service  # type: ignore[attr-defined]
    data = create(a, "nim", seed=4, open_seed=True, join_seat=0)
    mid, t0 = data["match"]["id"], data["token"]
    t1 = join(a, mid, 1)
    live(b, mid)
    listening(redis_url, service_b.fanout.channel(mid), 2)
    dropped = b.get("/health").json()["dropped"]
    assert act(a, mid, 0, t0, 0, {"type": "take", "heap": 0, "count": 1}).status_code == 200
    wait_for(lambda: mid not in service_b.registry.matches)
    assert b.get("/health").json()["dropped"] == dropped + 1
    listening(redis_url, service_b.fanout.channel(mid), 1)  # only A listens to the match now
    with b.websocket_connect(f"/ws/matches/{mid}?seat=1") as ws:
        ws.send_json({"type": "auth", "token": t1})
        snap = ws.receive_json()
        assert snap["type"] == "snapshot" and snap["version"] == 1  # read again from the database
        listening(redis_url, service_b.fanout.channel(mid), 2)
        assert act(a, mid, 1, t1, 1, {"type": "take", "heap": 1, "count": 1}).status_code == 200
        event = ws.receive_json()
        assert event["version"] == 2  # A's change, applied on B for its socket
        assert live(b, mid).version == 2
    assert b.get("/health").json()["dropped"] == dropped + 1  # followed while its socket was there, not dropped


@pytest.mark.hotpath
def test_a_socket_whose_match_left_memory_while_it_authenticated_follows_the_copy_in_memory(
        sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A match may leave a process's memory at any await (another process changed it and nobody here followed it,
    or the idle sweep): a socket that authenticated meanwhile subscribes to the match as it is now in memory, read
    again, not to the copy that left (whose events nobody sends)."""
    with TestClient(create_app(sqlite_url, ai_workers=0, limits=lenient_limits())) as c:
        service = c.app.state.service  # type: ignore[attr-defined]
        data = create(c, "nim", seed=5, open_seed=True, join_seat=0)
        mid, t0 = data["match"]["id"], data["token"]
        t1 = join(c, mid, 1)
        real = service.authorize

        async def authorize_then_leave(m: Any, seat: int, token: str | None) -> str:
            digest: str = await real(m, seat, token)
            service.registry.evict(m)  # the match leaves memory while this socket authenticates
            return digest

        monkeypatch.setattr(service, "authorize", authorize_then_leave)
        with c.websocket_connect(f"/ws/matches/{mid}?seat=1&token={t1}") as ws:
            assert ws.receive_json()["type"] == "snapshot"
            assert len(live(c, mid).subscribers) == 1  # the socket follows the copy in memory
            assert act(c, mid, 0, t0, 0, {"type": "take", "heap": 0, "count": 1}).status_code == 200
            assert ws.receive_json()["version"] == 1
