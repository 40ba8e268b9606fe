"""A finished connection is freed at once, by reference counting, and leaves nothing for the cyclic garbage collector
(issue 26). Under load the collector's passes over the garbage that closed sockets left (about a hundred objects
each: the connection, its subscriber and queue, its sender task with the cancellation's traceback and frames,
uvicorn's and Starlette's objects that hung off them) took tens of milliseconds each, and a pass over the older
generation up to 750 ms, during which no action was answered.

The real server stack (uvicorn with the guarded HTTP protocol and the ``websockets-sansio`` WebSocket protocol, as
``spacetable serve`` runs it) runs on a thread of the test process, so that this process's collector sees its garbage:
sockets are opened and closed (spectators and seats), requests made on fresh connections, then one collection
with ``gc.DEBUG_SAVEALL`` keeps what it found unreachable, and nothing of the server may be among it.
"""

from __future__ import annotations

import asyncio
import gc
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from spacetable.server.app import create_app
from spacetable.server.http import guarded_protocol

from .conftest import lenient_limits
from .test_limits import free_port

pytestmark = pytest.mark.hotpath

#: the server's own kinds of objects, and those of its stack, that a cycle used to keep
WATCHED = ("spacetable.server.", "uvicorn.", "starlette.", "websockets.", "_TrustedHosts")


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, Any]]:
    import uvicorn

    app = create_app(f"sqlite:///{tmp_path / 'g.sqlite3'}", ai_workers=0, limits=lenient_limits())
    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", ws="websockets-sansio",
                            http=guarded_protocol(10.0, max_address_connections=1000), proxy_headers=True,
                            forwarded_allow_ips="10.0.0.1")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{port}"
    end = time.monotonic() + 60
    while not server.started:
        assert thread.is_alive() and time.monotonic() < end, "the server did not start"
        time.sleep(0.05)
    try:
        yield base, app
    finally:
        server.should_exit = True
        thread.join(timeout=30)


def test_closed_sockets_and_connections_leave_no_cycles(served: tuple[str, Any]) -> None:
    from websockets.asyncio.client import connect

    base, app = served
    with httpx.Client(base_url=base, timeout=30) as http:
        made = http.post("/api/matches", json={"game": "arena", "join_seat": 0}).json()
        mid, token0 = made["match"]["id"], made["token"]
        token1 = http.post(f"/api/matches/{mid}/seats/1/join", json={}).json()["token"]
    ws = base.replace("http://", "ws://") + f"/ws/matches/{mid}"

    async def sockets() -> None:
        for i in range(30):
            seat, token = (i % 2, (token0, token1)[i % 2]) if i % 3 == 0 else (None, None)
            async with connect(ws + (f"?seat={seat}" if seat is not None else "")) as sock:
                if seat is not None:
                    await sock.send(json.dumps({"type": "auth", "token": token}))
                assert json.loads(await sock.recv())["type"] == "snapshot"
                await sock.send(json.dumps({"type": "ping"}))
                await sock.recv()

    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        asyncio.run(sockets())
        for _ in range(10):  # requests on fresh connections (the HTTP protocol's own objects)
            with httpx.Client(base_url=base, timeout=30) as http:
                assert http.get(f"/api/matches/{mid}").status_code == 200
        service = app.state.service
        end = time.monotonic() + 60
        while service.sockets:  # the server has finished with every socket
            assert time.monotonic() < end, "the server kept sockets open"
            time.sleep(0.05)
        time.sleep(0.2)
        gc.collect()
        kinds = [f"{type(o).__module__}.{type(o).__qualname__}" for o in gc.garbage]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    ours = sorted({k for k in kinds if any(w in k for w in WATCHED)})
    assert ours == [], f"left in reference cycles: {ours}"
    assert "builtins.frame" not in kinds, "frames kept by tracebacks in cycles"


def test_the_notification_rounds_claim_leaves_no_cycles(tmp_path: Path) -> None:
    """The notification dispatcher's claim (every two seconds in every process, ``notify.store.claim``) runs one
    statement built once per dialect: built at every call, its SQLAlchemy expression tree left some forty objects a
    call in reference cycles, the only garbage the server's collector found under load (``collector.py``); a
    due delivery is still claimed once."""
    from spacetable.server.notify import store
    from spacetable.server.notify.models import OutboxRow
    from spacetable.server.storage import open_storage

    storage = open_storage(f"sqlite:///{tmp_path / 'n.sqlite3'}")
    storage.migrate()
    engine = storage.engine
    now = time.time()
    with store.begin(engine) as conn:
        conn.execute(OutboxRow.__table__.insert().values(
            dedup="d1", account_id="a1", kind="turn", channel="push", target="s1", payload="{}", status="pending",
            due_at=now - 1, attempts=0, created_at=now - 1))
    store.claim(engine, "warm-up", now=now - 10)  # nothing due yet then: the statement built, nothing claimed
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        claimed = [store.claim(engine, f"p{k}", now=now) for k in range(10)]
        gc.collect()
        found = [type(o).__module__ for o in gc.garbage]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert [len(c) for c in claimed] == [1] + [0] * 9  # one process claims the row, the next rounds find it taken
    assert claimed[0][0].account_id == "a1" and claimed[0][0].claim == "p0" and claimed[0][0].attempts == 1
    assert not [m for m in found if m.startswith("sqlalchemy")], found
