"""Issue 24, server items 3-5: the per-match socket cap counted when a seat's socket authenticates; per-socket limits
on messages, on snapshot-producing messages and on the bytes waiting to be sent; rate limits on ``legal/check``,
``check`` and failed token checks, a failed token check costing no database query each time (SRV-B2, SRV-A3).
No test here depends on timing: the rates are set so low that no machine is slow enough to refill them."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from spacetable.server import catchup as catchup_module
from spacetable.server.app import create_app
from spacetable.server.live import Subscriber

from .conftest import create, join, lenient_limits, live

pytestmark = pytest.mark.hardening


@contextlib.contextmanager
def app_client(tmp_path: Path, **limits: Any) -> Iterator[TestClient]:
    app = create_app(f"sqlite:///{tmp_path / 'bounds.sqlite3'}", ai_workers=0, limits=lenient_limits(**limits))
    with TestClient(app) as c:
        yield c


def arena_match(client: TestClient) -> tuple[str, str, str]:
    data = create(client, "arena", config={"red_seat": 0}, join_seat=0)
    mid = data["match"]["id"]
    return mid, data["token"], join(client, mid, 1)


def test_the_match_socket_cap_counts_seat_sockets_when_they_authenticate(tmp_path: Path) -> None:
    """Item 3: seat sockets that connect without their token and authenticate afterwards: only ``max_match_sockets``
    of them get in (before: every one, since the cap was checked before authentication only)."""
    with app_client(tmp_path, max_match_sockets=3) as client:
        mid, t0, _ = arena_match(client)
        got_in = refused = 0
        with contextlib.ExitStack() as stack:
            sockets = [stack.enter_context(client.websocket_connect(f"/ws/matches/{mid}?seat=0")) for _ in range(6)]
            for ws in sockets:
                try:
                    ws.send_json({"type": "auth", "token": t0})
                    first = ws.receive_json()
                except WebSocketDisconnect:
                    refused += 1
                    continue
                if first["type"] == "snapshot":
                    got_in += 1
                else:
                    assert first["error"]["code"] == "too_many_connections"
                    refused += 1
            assert got_in == 3 and refused == 3
            assert len(live(client, mid).subscribers) == 3


def test_a_spectator_turning_into_a_seat_is_counted_against_the_cap(tmp_path: Path) -> None:
    with app_client(tmp_path, max_match_sockets=2) as client:
        mid, t0, t1 = arena_match(client)
        with client.websocket_connect(f"/ws/matches/{mid}?seat=0&token={t0}") as a, \
                client.websocket_connect(f"/ws/matches/{mid}") as b:
            a.receive_json()
            b.receive_json()
            b.send_json({"type": "auth", "seat": 1, "token": t1})  # re-binding its own place: still 2 sockets
            assert b.receive_json()["type"] == "snapshot"
            assert len(live(client, mid).subscribers) == 2


def test_snapshot_messages_are_limited_per_socket(tmp_path: Path) -> None:
    """Item 4: ``{"type": "lang"}`` answers with a whole snapshot; beyond ``ws_snapshots`` a minute it gets a
    ``rate_limited`` error and no snapshot (before: a snapshot every time)."""
    with app_client(tmp_path, ws_snapshots=3) as client:
        mid, t0, _ = arena_match(client)
        with client.websocket_connect(f"/ws/matches/{mid}?seat=0&token={t0}") as ws:
            assert ws.receive_json()["type"] == "snapshot"
            kinds = []
            for _ in range(10):
                ws.send_json({"type": "lang", "lang": "fr"})
                msg = ws.receive_json()
                kinds.append(msg["type"] if msg["type"] == "snapshot" else msg["error"]["code"])
            assert kinds == ["snapshot"] * 3 + ["rate_limited"] * 7
            ws.send_json({"type": "ping", "id": 1})  # other messages go on
            assert ws.receive_json()["type"] == "pong"


def test_a_socket_over_its_message_rate_is_closed(tmp_path: Path) -> None:
    """Item 4: more than ``ws_rate`` messages a second (bursts of twice that) close the socket (4429)."""
    with app_client(tmp_path, ws_rate=1.0) as client:
        mid, _, _ = arena_match(client)
        with client.websocket_connect(f"/ws/matches/{mid}") as ws:
            ws.receive_json()
            answers = []
            with pytest.raises(WebSocketDisconnect) as closed:
                for i in range(40):
                    ws.send_json({"type": "ping", "id": i})
                    answers.append(ws.receive_json())
            assert closed.value.code == 4429
            assert answers[-1]["type"] == "error" and answers[-1]["error"]["code"] == "rate_limited"
            assert 2 <= len(answers) < 40


def test_the_send_backlog_is_bounded_in_bytes() -> None:
    """Item 4: a client that does not read is cut off once its waiting messages pass ``max_bytes`` (before: only a
    count of messages, whatever their size)."""
    sub = Subscriber(0, max_bytes=10_000)
    big = "x" * 3_000
    for _ in range(3):
        sub.push(big)
    assert not sub.overflow and sub.backlog == 9_000
    sub.push(big)
    assert sub.overflow and sub.close_code == 1013
    assert sub.queue.qsize() == 4  # three messages and the wake-up marker


def test_service_sockets_get_the_configured_byte_bound(tmp_path: Path) -> None:
    with app_client(tmp_path, ws_backlog_bytes=12_345) as client:
        mid, t0, _ = arena_match(client)
        with client.websocket_connect(f"/ws/matches/{mid}?seat=0&token={t0}") as ws:
            ws.receive_json()
            (sub,) = live(client, mid).subscribers
            assert sub.max_bytes == 12_345


@pytest.mark.parametrize("path", ["legal/check", "check"])
def test_checks_are_rate_limited(tmp_path: Path, path: str) -> None:
    """Item 5: ``legal/check`` and ``check`` count against ``rate_check`` per address (before: unlimited)."""
    with app_client(tmp_path, rate_check="3/minute") as client:
        mid, t0, _ = arena_match(client)
        body = {"seat": 0, "token": t0, "version": 0, "action": {"type": "move", "from": "a2", "to": "a3", "bonus": None}}
        codes = [client.post(f"/api/matches/{mid}/{path}", json=body).status_code for _ in range(5)]
        assert codes == [200, 200, 200, 429, 429]


def test_failed_token_checks_are_rate_limited_over_rest_and_sockets(tmp_path: Path) -> None:
    """Item 5: after ``rate_auth_fail`` wrong tokens from an address, its token checks are refused (429), the right
    token included, over REST and over a socket (before: guessing went on unlimited)."""
    with app_client(tmp_path, rate_auth_fail="3/minute") as client:
        mid, t0, _ = arena_match(client)
        for _ in range(3):
            r = client.get(f"/api/matches/{mid}/state?seat=0", headers={"X-Seat-Token": "wrong"})
            assert r.status_code == 403
        r = client.get(f"/api/matches/{mid}/state?seat=0", headers={"X-Seat-Token": t0})
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
        with client.websocket_connect(f"/ws/matches/{mid}?seat=0") as ws:
            ws.send_json({"type": "auth", "token": t0})
            assert ws.receive_json()["error"]["code"] == "rate_limited"


def test_a_failed_token_check_costs_no_database_query_each_time(tmp_path: Path, redis_url: str,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 5: with other processes sharing the matches (Redis fan-out), a wrong token made the service read the
    stored match every time (was the seat taken through another process?). Now at most once per
    ``TOKEN_RECHECK`` seconds and revision of the match (set to an hour here: no dependence on the machine's speed)."""
    monkeypatch.setattr(catchup_module, "TOKEN_RECHECK", 3600.0)
    app = create_app(f"sqlite:///{tmp_path / 'shared.sqlite3'}", ai_workers=0, redis_url=redis_url,
                     limits=lenient_limits())
    with TestClient(app) as client:
        mid, _, _ = arena_match(client)
        service = app.state.service
        assert service.fanout.shared
        # the match's start is told to its seats' accounts, looked up through the same storage (``Notifier.db``)
        # soon after the join: wait until that is done, so that only the token checks' reads are counted
        notifier = app.state.notifier
        deadline = time.monotonic() + 60
        while (notifier._soon or notifier._soon_task is not None) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert not notifier._soon and notifier._soon_task is None
        reads = 0
        read = service.storage.read

        async def counted_read(job: Any) -> Any:
            nonlocal reads
            reads += 1
            return await read(job)

        service.storage.read = counted_read
        for _ in range(20):
            r = client.get(f"/api/matches/{mid}/state?seat=0", headers={"X-Seat-Token": "wrong"})
            assert r.status_code == 403
        assert reads == 1  # the first failure reads the stored revision; the next ones do not
