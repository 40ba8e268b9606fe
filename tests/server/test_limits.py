"""Issue 9, "Server" items 8-10 and the offline docs: bounded resources (SRV-B2), eviction (SRV-M1), broken
matches (SRV-P4), orphans (SRV-AI4), tokens out of logs (SRV-A5), Swagger UI without a CDN."""

from __future__ import annotations

import dataclasses
import io
import json
import logging
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from websockets.sync.client import connect as ws_connect

from spacetable.games import available, get_game
from spacetable.games.fullmetal.fmp import write_fmp
from spacetable.games.fullmetal.mapgen import generate_map
from spacetable.server.app import create_app
from spacetable.server.cli import build_parser, parse_args, wait_until_healthy
from spacetable.server.jsonlog import JsonFormatter, redact
from spacetable.server.limits import Limits

from .conftest import create, join, lenient_limits

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "server.md"


def app_with(tmp_path: Path, **changes: Any) -> Any:
    return create_app(f"sqlite:///{tmp_path / 'l.sqlite3'}", ai_workers=0, limits=lenient_limits(**changes))


def wait_for(pred: Any, timeout: float = 15.0) -> Any:
    end = time.time() + timeout
    while time.time() < end:
        value = pred()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("condition not reached")


# ------------------------------------------------------------------------------------------ item 9: bounds
def test_every_limit_has_a_default_a_flag_and_a_doc_line() -> None:
    """SRV-B2: each bound of Limits has a default, a `spacetable serve` flag and a line in docs/server.md."""
    defaults = Limits()
    args = vars(parse_args([]))
    docs = DOCS.read_text(encoding="utf-8")
    for f in dataclasses.fields(Limits):
        flag = "--" + f.name.replace("_", "-")
        assert args[f.name] == getattr(defaults, f.name), f.name
        assert f"`{flag}`" in docs, f"{flag} is not documented in docs/server.md"


def test_every_flag_of_serve_is_documented() -> None:
    """Every flag of `spacetable serve` (bounds, several processes, storage) has a line in docs/server.md."""
    docs = DOCS.read_text(encoding="utf-8")
    flags = [o for a in build_parser()._actions for o in a.option_strings if o.startswith("--") and o != "--help"]
    assert len(flags) > 20
    missing = [f for f in flags if f"`{f}`" not in docs]
    assert missing == [], missing


def test_every_numeric_option_of_every_game_is_bounded(client: TestClient) -> None:
    """Item 9: every int/float option declares a minimum and a maximum (or a list of choices), and the lobby API shows them."""
    published = {g["id"]: {o["name"]: o for o in g["options"]} for g in client.get("/api/games").json()}
    for gid in available():
        for o in get_game(gid).options():
            if o.kind in ("int", "float") and o.choices is None:
                assert o.minimum is not None and o.maximum is not None, f"{gid}.{o.name} is unbounded"
                shown = published[gid][o.name]
                assert shown["minimum"] == o.minimum and shown["maximum"] == o.maximum


@pytest.mark.usefixtures("nim")
def test_body_size_cap(tmp_path: Path) -> None:
    """Item 9: a body over --max-body is refused with 413 before it is parsed; nothing is created."""
    with TestClient(app_with(tmp_path, max_body=2000)) as c:
        r = c.post("/api/matches", json={"game": "nim", "name": "x" * 5000})
        assert r.status_code == 413 and r.json()["error"]["code"] == "too_large"
        assert c.post("/api/matches", json={"game": "nim"}).status_code == 201


def test_worlds_piece_counts_are_bounded(client: TestClient) -> None:
    """Item 9: a worlds scenario sent as content cannot ask for 200,000 pieces."""
    if "worlds" not in available():
        pytest.skip("worlds not installed")
    from spacetable.games.worlds import scenario as scen

    data = scen.load("s1-example")
    data["systems"][0]["worlds"][0]["pieces"] = {data["sides"][0]: {"P": 200_000}}
    r = client.post("/api/matches", json={"game": "worlds", "config": {"scenario_json": data}})
    message = r.json()["error"]["message"]  # the path of the count and its bound (the scenario's model, issue 25)
    assert r.status_code == 422 and "pieces.white.P" in message and "less than or equal to 50" in message


@pytest.mark.usefixtures("nim")
def test_rate_limits_per_client(tmp_path: Path) -> None:
    """Item 9: create, join and act are rate-limited per client address (the `limits` library): a 429 with
    Retry-After over REST, an error message on the WebSocket (the socket stays open)."""
    app = create_app(f"sqlite:///{tmp_path / 'r.sqlite3'}", ai_workers=0,
                     limits=Limits(rate_create="2/minute", rate_join="3/minute", rate_act="2/minute"))
    with TestClient(app) as c:
        mid = create(c, "nim", join_seat=0)["match"]["id"]
        assert create(c, "nim")["match"]["id"]
        r = c.post("/api/matches", json={"game": "nim"})
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited" and int(r.headers["Retry-After"]) >= 1
        t1 = join(c, mid, 1)
        assert c.post(f"/api/matches/{mid}/seats/1/leave", json={"token": t1}).status_code == 200
        t1 = join(c, mid, 1)
        assert c.post(f"/api/matches/{mid}/seats/1/leave", json={"token": t1}).status_code == 429
        with c.websocket_connect(f"/ws/matches/{mid}?seat=1&token={t1}") as ws:
            ws.receive_json()
            for _ in range(2):
                ws.send_json({"type": "action", "version": 99, "action": {"type": "resign"}})
                assert ws.receive_json()["error"]["code"] == "stale_version"
            ws.send_json({"type": "action", "version": 99, "action": {"type": "resign"}})
            assert ws.receive_json()["error"]["code"] == "rate_limited"
            ws.send_json({"type": "ping"})
            assert ws.receive_json()["type"] == "pong"


@pytest.mark.usefixtures("nim")
def test_socket_caps_idle_and_auth_timeouts(tmp_path: Path) -> None:
    """Item 9: per-match and global socket caps answer with an error (1013), a silent socket is closed after
    --ws-idle, a seat socket that never sends its token after --ws-auth-timeout."""
    with TestClient(app_with(tmp_path, max_match_sockets=2, max_sockets=3, ws_idle=0.5, ws_auth_timeout=0.3)) as c:
        a = create(c, "nim")["match"]["id"]
        b = create(c, "nim")["match"]["id"]
        with c.websocket_connect(f"/ws/matches/{a}") as w1, c.websocket_connect(f"/ws/matches/{a}") as w2:
            w1.receive_json(), w2.receive_json()
            with c.websocket_connect(f"/ws/matches/{a}") as w3:
                assert w3.receive_json()["error"]["code"] == "too_many_connections"
            with c.websocket_connect(f"/ws/matches/{b}") as w4:
                w4.receive_json()
                with c.websocket_connect(f"/ws/matches/{b}") as w5:
                    assert w5.receive_json()["error"]["code"] == "too_many_connections"  # 3 sockets in all
        with c.websocket_connect(f"/ws/matches/{a}") as idle:
            assert idle.receive_json()["type"] == "snapshot"
            msg = idle.receive_json()  # nothing sent for 0.5 s
            assert msg["type"] == "error" and msg["error"]["code"] == "idle"
        with c.websocket_connect(f"/ws/matches/{a}?seat=0") as mute:
            assert mute.receive_json()["error"]["code"] == "auth_required"
        assert c.get("/health").json()["sockets"] == 0


@pytest.mark.usefixtures("nim")
def test_finished_and_idle_matches_leave_memory_and_come_back(tmp_path: Path) -> None:
    """Item 9 (SRV-M1): finished and idle matches are evicted and loaded from the database on demand; an evicted
    match's clock still runs out; at most --max-live-matches stay in memory."""
    with TestClient(app_with(tmp_path, max_live_matches=3)) as c:
        service = c.app.state.service  # type: ignore[attr-defined]
        done = create(c, "nim", join_seat=0)
        mid, t0 = done["match"]["id"], done["token"]
        join(c, mid, 1)
        assert c.post(f"/api/matches/{mid}/actions", json={"seat": 0, "token": t0, "version": 0,
                                                          "action": {"type": "resign"}}).status_code == 200
        clocked = create(c, "nim", join_seat=0, turn_seconds=1)
        cid = clocked["match"]["id"]
        join(c, cid, 1)
        assert service.sweep(time.monotonic() + 10**6) >= 2
        assert mid not in service.matches and cid not in service.matches
        lobby = {m["id"]: m for m in c.get("/api/matches").json()}
        assert lobby[mid]["status"] == "finished" and lobby[cid]["to_act"] == [0]  # listed without loading
        assert mid not in service.matches
        assert c.get(f"/api/matches/{mid}/replay").json()["steps"] == 1  # loaded again on demand
        assert mid in service.matches
        wait_for(lambda: c.get(f"/api/matches/{cid}").json()["version"] == 1)  # the evicted match's clock ran out
        for _ in range(5):
            create(c, "nim")
        assert len(service.matches) <= 3


@pytest.mark.usefixtures("nim")
def test_lobby_is_paged(client: TestClient) -> None:
    """Item 9: the lobby answers pages (most recent first), with X-Next-Offset while more follow."""
    ids = [create(client, "nim")["match"]["id"] for _ in range(5)]
    seen: list[str] = []
    offset: str | None = "0"
    while offset is not None:
        r = client.get("/api/matches", params={"limit": 2, "offset": offset})
        assert len(r.json()) <= 2
        seen += [m["id"] for m in r.json()]
        offset = r.headers.get("X-Next-Offset")
    assert seen == ids[::-1]
    assert client.get("/api/matches", params={"limit": 100_000}).status_code == 422


# ------------------------------------------------------------------------------------------ item 8: broken matches
@pytest.mark.usefixtures("nim")
def test_one_unloadable_match_does_not_stop_the_server(tmp_path: Path) -> None:
    """Item 8 (SRV-P4): a match made from a catalogue map that was later deleted, and one whose game is gone, are
    marked broken with the reason at the next start; the rest load and play; the lobby says so."""
    from spacetable.core import catalog

    data = tmp_path / "data"
    (data / "fullmetal" / "maps").mkdir(parents=True)
    (data / "fullmetal" / "maps" / "isle.fmp").write_bytes(write_fmp(generate_map(3, 2, "small")))
    db = f"sqlite:///{tmp_path / 'b.sqlite3'}"
    try:
        with TestClient(create_app(db, ai_workers=0, limits=lenient_limits(), data_dir=data)) as c:
            fm = create(c, "fullmetal", config={"map": "isle"}, join_seat=0)["match"]["id"]
            ok = create(c, "nim", join_seat=0)
            ok_id, ok_tok = ok["match"]["id"], ok["token"]
            join(c, ok_id, 1)
            with c.app.state.service.engine.begin() as conn:  # type: ignore[attr-defined]
                conn.exec_driver_sql("UPDATE matches SET status = 'running', to_act = NULL WHERE id = ?", (fm,))
                conn.exec_driver_sql(
                    "INSERT INTO matches (id, game, name, config, seed, status, version, ai_seconds, created_at, updated_at) "
                    "VALUES ('gone1', 'no-such-game', '', '{}', 1, 'running', 0, 1.0, 0, 0)")
        (data / "fullmetal" / "maps" / "isle.fmp").unlink()
        with TestClient(create_app(db, ai_workers=0, limits=lenient_limits(), data_dir=data)) as c:
            assert c.get("/health").json()["status"] == "ok"
            summary = c.get(f"/api/matches/{fm}").json()
            assert "'isle'" in summary["broken"] and str(data) not in summary["broken"]
            assert "not installed" in c.get("/api/matches/gone1").json()["broken"]
            lobby = {m["id"]: m for m in c.get("/api/matches").json()}
            assert lobby[fm]["broken"] and lobby["gone1"]["broken"] and lobby[ok_id]["broken"] is None
            r = c.post(f"/api/matches/{fm}/seats/1/join", json={})
            assert r.status_code == 409 and r.json()["error"]["code"] == "broken"
            assert str(data) not in r.text
            take = {"type": "take", "heap": 0, "count": 1}
            r = c.post(f"/api/matches/{ok_id}/actions", json={"seat": 0, "token": ok_tok, "version": 0, "action": take})
            assert r.status_code == 200
            with c.websocket_connect(f"/ws/matches/{fm}") as ws:
                assert ws.receive_json()["error"]["code"] == "broken"
    finally:
        catalog.configure(None)


# ------------------------------------------------------------------------------------------ item 10: logs; docs
def test_tokens_are_redacted_from_every_log_line() -> None:
    """Item 10 (SRV-A5): a token in a URL or header never reaches a log line."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("spacetable.test-redact")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.info('%s - "WebSocket %s" [accepted]', "127.0.0.1:5", "/ws/matches/ab?seat=0&token=S3cr3t-_tok")
    logger.info("GET %s", "/match/ab?seat=1&token=S3cr3t-_tok", extra={"path": "/x?token=S3cr3t-_tok"})
    logger.removeHandler(handler)
    assert "S3cr3t" not in stream.getvalue() and stream.getvalue().count("token=***") == 3
    assert redact("x-seat-token: abc") == "x-seat-token: ***"


def test_docs_work_offline(client: TestClient) -> None:
    """Swagger UI at /docs loads its script and style from the package: no other host is named, every asset answers."""
    page = client.get("/docs")
    assert page.status_code == 200
    urls = re.findall(r"""(?:src|href|url)\s*[=:]\s*['"]([^'"]+)['"]""", page.text)
    assert urls and not [u for u in urls if re.match(r"(https?:)?//", u)], urls
    for u in urls:
        assert client.get(u).status_code == 200, u
    assert "swagger-ui-bundle.js" in page.text


# ------------------------------------------------------------------------------------------ the real server process
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def descendants(pid: int) -> set[int]:
    """Every process below ``pid`` (Linux /proc)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            children.setdefault(ppid, []).append(int(entry.name))
    out: set[int] = set()
    todo = [pid]
    while todo:
        for c in children.get(todo.pop(), []):
            out.add(c)
            todo.append(c)
    return out


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.timeout(120)
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_real_server_silent_connections_tokens_in_logs_and_kill_9(tmp_path: Path) -> None:
    """The real `spacetable serve`: a connection that sends nothing is closed after --header-timeout while /health
    keeps answering (item 9); at debug level no log line holds a seat token, from the seat-link page or a socket
    URL (item 10); after kill -9 no AI worker and no multiprocessing resource tracker is left (item 8)."""
    port = free_port()
    log_path = tmp_path / "server.log"
    with log_path.open("wb") as log_file:
        proc = subprocess.Popen(
            [sys.executable, "-m", "spacetable.cli", "serve", "--port", str(port), "--database-url",
             f"sqlite:///{tmp_path / 's.sqlite3'}", "--ai-workers", "1", "--log-level", "debug", "--header-timeout", "1"],
            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=log_file)
        try:
            assert wait_until_healthy(port, proc)
            base = f"http://127.0.0.1:{port}"
            silent = [socket.create_connection(("127.0.0.1", port)) for _ in range(20)]
            assert httpx.get(base + "/health", timeout=30).status_code == 200
            for s in silent:
                s.settimeout(60)  # a hang guard: the server closes them after about a second
                assert s.recv(10) == b""  # closed by the server
                s.close()
            data = httpx.post(base + "/api/matches", json={"game": "arena", "join_seat": 0,
                                                           "ai_seats": {"1": "random"}, "ai_seconds": 0.05}).json()
            mid, token = data["match"]["id"], data["token"]
            assert f"#seat=0&token={token}" in data["link"]
            assert httpx.get(f"{base}/match/{mid}?seat=0&token={token}").status_code == 200  # an old-style link
            with ws_connect(f"ws://127.0.0.1:{port}/ws/matches/{mid}?seat=0&token={token}") as ws:
                assert json.loads(ws.recv(timeout=10))["type"] == "snapshot"
            with ws_connect(f"ws://127.0.0.1:{port}/ws/matches/{mid}?seat=0") as ws:
                ws.send(json.dumps({"type": "auth", "token": token}))
                assert json.loads(ws.recv(timeout=10))["seat"] == 0
            # the AI pool starts with the first AI move: a match of two AIs makes sure it exists
            ai = create_ai_match(base)
            wait_for(lambda: httpx.get(f"{base}/api/matches/{ai}").json()["version"] >= 2, 60)
            kids = descendants(proc.pid)
            assert kids, "no AI worker process was started"
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(10)
            wait_for(lambda: not [k for k in kids if alive(k)], 60)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)
    text = log_path.read_text(encoding="utf-8", errors="replace")
    assert "WebSocket" in text and f"/match/{mid}" in text  # the lines are there ...
    assert token not in text  # ... without the token


def create_ai_match(base: str) -> str:
    data = httpx.post(base + "/api/matches", json={"game": "arena", "ai_seats": {"0": "random", "1": "random"},
                                                   "ai_seconds": 0.05}).json()
    return str(data["match"]["id"])


@pytest.mark.hotpath
def test_the_local_window_counts_as_the_librarys_moving_window() -> None:
    """Issue 26: the in-process limiter (the library's synchronous store, called from the event loop) gives, hit by
    hit, the moving-window answers of the library's asyncio store it replaces, and the same window statistics."""
    import asyncio

    from limits import parse_many
    from limits.aio import storage, strategies

    from spacetable.server.limits import LocalWindow

    async def answers(make: Any) -> list[tuple[bool, bool, int]]:
        limiter = make()
        rules = parse_many("3/minute;5/hour")
        out = []
        for i in range(8):
            for rule in rules:
                key = f"client{i % 2}"
                hit = await limiter.hit(rule, "act", key)
                test = await limiter.test(rule, "act", key)
                out.append((hit, test, (await limiter.get_window_stats(rule, "act", key)).remaining))
        return out

    local = asyncio.run(answers(LocalWindow))
    library = asyncio.run(answers(lambda: strategies.MovingWindowRateLimiter(storage.MemoryStorage())))
    assert local == library
    assert [h for h, _, _ in local[:2]] == [True, True] and not all(h for h, _, _ in local)


@pytest.mark.hotpath
def test_the_local_windows_keys_are_written_once_and_stay_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 26: the local window writes each rule's key for a client once (the library writes it at every hit),
    keeps at most ``KEYS`` of them, and counts the same across a restart of that cache."""
    import asyncio

    from limits import parse

    from spacetable.server.limits import LocalWindow

    monkeypatch.setattr(LocalWindow, "KEYS", 4)
    window, rule = LocalWindow(), parse("2/minute")
    writes = []
    real = type(rule).key_for
    monkeypatch.setattr(type(rule), "key_for", lambda self, *ids: (writes.append(ids), real(self, *ids))[1])

    async def hits(client: str, n: int) -> list[bool]:
        return [await window.hit(rule, "act", client) for _ in range(n)]

    assert asyncio.run(hits("a", 3)) == [True, True, False] and writes == [("act", "a")]
    for i in range(10):  # more clients than the cache keeps: it starts again, never above KEYS
        asyncio.run(hits(f"c{i}", 1))
        assert len(window._keys) <= 4
    assert asyncio.run(hits("a", 1)) == [False]  # the window itself is the library's store, not the cache
    assert window._store.events[real(rule, "act", "a")]


@pytest.mark.hotpath
def test_the_swept_store_keeps_the_librarys_hook() -> None:
    """Issue 26: :class:`SweptMemory` replaces the library's private expiry hook; a version of ``limits`` that renames
    it would bring back a timer thread per hit, so this fails first."""
    from limits.storage import MemoryStorage

    assert callable(getattr(MemoryStorage, "_MemoryStorage__schedule_expiry", None))
    assert callable(getattr(MemoryStorage, "_MemoryStorage__expire_events", None))


@pytest.mark.hotpath
def test_the_swept_store_starts_no_thread_per_hit_and_still_drops_old_entries(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 26: hits on the in-process limiter start no timer threads (the library's store starts one 10 ms after
    any hit, a hundred a second under play), and the entries of a window that has passed are still dropped, by a
    pass at most once per ``SWEEP`` seconds."""
    import threading
    import types

    import limits.storage.memory as memory
    from limits import parse

    from spacetable.server.limits import SweptMemory

    store = SweptMemory()
    store.timer.join()  # the one pass the library's constructor schedules
    limiter = __import__("limits").strategies.MovingWindowRateLimiter(store)
    rule = parse("100/second")
    started = []
    real_start = threading.Thread.start
    monkeypatch.setattr(threading.Thread, "start", lambda self: started.append(self) or real_start(self))
    assert all(limiter.hit(rule, "act", f"client{i % 3}") for i in range(90))
    assert started == [] and sorted(store.events) == [f"LIMITER/act/client{i}/100/1/second" for i in range(3)]
    # two seconds later, the next hit's pass (due: SWEEP seconds have gone by) drops the windows that have passed
    real = memory.time.time
    monkeypatch.setattr(memory, "time", types.SimpleNamespace(time=lambda: real() + 2.0))
    monkeypatch.setattr(store, "_swept", store._swept - SweptMemory.SWEEP)
    assert limiter.hit(rule, "act", "another")
    assert sorted(len(v) for v in store.events.values()) == [0, 0, 0, 1] and started == []
