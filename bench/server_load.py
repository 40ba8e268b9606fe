"""Load benchmark of the play server (SRV-B1, SRV-X1..X4): N concurrent matches, one WebSocket client per seat on
loopback (127.0.0.1 only), playing random legal actions; new matches start as old ones end. Prints a
table of actions/s, the action round trip (send -> the actor's own event back) p50/p90/p99, and the CPU
time per action of the server processes, the clients, the database and Redis, each read at the start and the end of
the window whose actions are counted (after ``--ramp``; :func:`run_phase`).

Setups, one row per phase each (``--setups``, all by default):

* ``sqlite``: one server process on a temporary SQLite file (WAL);
* ``pg``: one server process on PostgreSQL (group commit, durable commits);
* ``pg-redis``: one server process on PostgreSQL with the Redis fan-out (what a process of a shared service
  costs);
* ``pg-redis-2``: two server processes on one PostgreSQL and one Redis; the seats of each match are spread
  over both processes (seat ``s`` of table ``t`` on process ``(t + s) % 2``), so every action is applied in one
  process and announced to the other, which sends it to its own clients;
* ``pg-redis-2-routed``: the same two processes behind a proxy that routes by the match id in the path
  (docs/server.md, "Several processes"): a table creates its matches on process ``t % 2``, and each match's join
  and sockets go to process :func:`route` of its id, one process per match as the nginx configuration there
  routes them (its hash differs, the routing is the same in kind).

PostgreSQL and Redis are started for the run on loopback in a temporary folder (``spacetable.server.devservers``)
unless ``--pg-url``/``--redis-url`` name running ones; setups whose server is missing are skipped with a line.

Two load phases per setup:

* **paced**: players think before each action (``--think-ms``, uniform 0.5x..1.5x around the mean), so
  the offered load is about ``matches / (think + round trip)`` actions/s (200 matches, 150 ms: ~1,300/s)
  and the latencies measure service time, not a queue the benchmark itself built;
* **max** (``--max-seconds``, 0 to skip): no think time, every player answers at once: the most the setup
  does. Its latencies are mostly queueing (a closed loop that floods the server).

``--accounts``: every seat is a signed-in account (one account and one session per seat of each table, written
into the server's database before the run, as a sign-in would). The table's first account creates each match as a
**rated** match through ``POST /api/account/matches``, the others join through the account routes (session cookie
and CSRF token), and each seat's socket authenticates as the web page does (the session cookie on the handshake,
``?seat=n``, then ``{"type": "auth", "token": T}``). The accounts' side of the server then runs as in play: seats
bound to accounts, "your turn" notifications, the rating update at each match's end. Compare with the same run
without it (issue 20: the paced figures within 10 %):

    .venv/bin/python bench/server_load.py --setups sqlite --matches 200 --seconds 20 --max-seconds 0 --accounts

The servers count every request against per-address rate limits as in production, set out of reach. Each table
plays from its own loopback address (127.0.0.2 and up, on Linux), as one player would, so a rate-limit window holds
one table's requests, not every seat's. The servers run in their own processes (``spacetable serve``) and the
clients in one more process (``--client-procs``), so client and server share the machine's cores but not an
interpreter. Clients do the
minimum per message: websockets' sans-I/O protocol on raw asyncio transports (``--client websockets`` for the
library's asyncio client), one ``json.loads``, a choice only when it is their turn, uvloop when installed, and
lobby calls on one kept-alive HTTP/1.1 connection per table.

    .venv/bin/python bench/server_load.py                                  # every setup, 200 arena matches
    .venv/bin/python bench/server_load.py --setups sqlite,pg --max-seconds 0
    .venv/bin/python bench/server_load.py --matches 50 --seconds 10 --game tremble --setups sqlite

Each phase also prints the server's own CPU split per action (``/health`` ``hotpath``, ``spacetable/server/meter.py``):
apply, legal actions, views, texts, storage, sending, and the rest ("other": HTTP/WebSocket protocol, JSON decoding,
the event loop, lobby calls), and its garbage collector's passes, the share of the time they stopped the event loop
and how many of those pauses reached 10 and 50 ms (``/health`` ``gc``, ``spacetable/server/collector.py``).
``--game all`` runs the five games one after the other; ``--texts`` makes every seat's socket ask for texts as the
web page does; ``--check`` compares with ``bench/baselines/server_load.json`` and prints the ratios (exit 1 over
``--tolerance``), ``--save-baseline`` stores a run as the baseline.

    .venv/bin/python bench/server_load.py --game all --setups sqlite --seconds 10 --max-seconds 6 --check

Before and after a change in one run: ``--against DIR`` names a second checkout of spacetable (for example
``git worktree add /tmp/before <commit>``); each game, setup and repeat then runs that checkout's server and this
one's in turn on the same machine (the clients and the bench stay this checkout's), their rows labelled
``[before]`` (or ``--against-label``), and the ratios this / before are printed. A server without ``--meter`` runs
unmetered (no CPU split for it).

    .venv/bin/python bench/server_load.py --game all --setups sqlite --against /tmp/before --repeat 2

The same code under another interpreter, the same way: ``--against-python PYTHON`` runs the other servers under
that Python (a virtual environment of it with spacetable's dependencies), alone or with ``--against``; the header
names both interpreters. The build of the interpreter moves the figures by more than most changes do
(docs/server.md, "The interpreter").

    .venv/bin/python bench/server_load.py --game arena --setups sqlite --against-python /tmp/debian-venv/bin/python --repeat 2

Targets on the 2-core development machine (issue 26), Cosmic Arena, 200 matches: server CPU per action <= 0.6 ms
paced, >= 2,000 actions/s in the max phase on SQLite, paced p99 < 25 ms; PostgreSQL within 10 % of SQLite; two
processes on PostgreSQL + Redis at most 20 % more CPU per action than one. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import platform
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect
from websockets.client import ClientProtocol
from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.uri import parse_uri

from spacetable.server.accounts.service import CSRF_HEADER, SESSION_COOKIE
from spacetable.server.cli import wait_until_healthy
from spacetable.server.devservers import TempPostgres, TempRedis, free_port, postgres_bin, redis_bin
from spacetable.server.meter import STEPS

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the benchmark's own game, beside this file
import floor_game

ROOT = Path(__file__).resolve().parents[1]
SKIP = ("resign", "accept_end")


def calm_actions(view: dict[str, Any], legal: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Actions that keep a match going, so that the load is made of play rather than of match set-ups:
    never resign or accept an ending; in arena, prefer moves to empty cells (no capture ends the game
    early; the quiet limit AR-10.2 still ends it after 40 plies)."""
    pool = [a for a in legal if a.get("type") not in SKIP and not a.get("offer_end")] or legal
    if view.get("game") == "arena":
        occupied = {s.get("cell") for s in view.get("ships", [])}
        quiet = [a for a in pool if a.get("type") == "move" and a.get("to") not in occupied and not a.get("bonus")]
        return quiet or pool
    return pool


#: the rate limits the benchmark's servers run with: counted like the defaults (two windows), never reached
UNREACHED = "1000000/second;60000000/minute"


def start_server(database_url: str, port: int, log_level: str, redis_url: str | None = None,
                 db_writers: int = 2, metered: bool = True, root: Path | None = None,
                 game: str = "", python: str | None = None) -> subprocess.Popen[bytes]:
    """One ``spacetable serve`` process; ``root``: run another checkout's server (``--against``); ``python``: under
    another interpreter (``--against-python``; default this one); ``game`` ``floor``: the same server with the
    benchmark's floor game registered (``bench/floor_game.py``)."""
    serve = [str(ROOT / "bench" / "floor_game.py")] if game == floor_game.ID else ["-m", "spacetable.server.cli"]
    cmd = [python or sys.executable, *serve, "--host", "127.0.0.1", "--port", str(port),
           "--database-url", database_url, "--log-level", log_level, "--ai-workers", "0", "--db-writers", str(db_writers),
           # the per-address rate limits stay in place (each request is counted, as in production, in the window of
           # its table's own address: ``table_address``) but so high that they never refuse, and so does each socket's
           # own message rate (a seat of a quick game answering at once, in the warm-up's few tables, goes over the
           # default 20 a second); room for every socket
           "--rate-create", UNREACHED, "--rate-join", UNREACHED, "--rate-act", UNREACHED, "--ws-rate", "1000000",
           "--max-sockets", "5000"]
    if metered:
        cmd.append("--meter")
    if redis_url:
        cmd += ["--redis-url", redis_url]
    env = None
    if root is not None:
        env = {**os.environ, "PYTHONPATH": str(root)}
    proc = subprocess.Popen(cmd, cwd=root or ROOT, stdout=subprocess.DEVNULL, env=env)
    if wait_until_healthy(port, proc):
        return proc
    raise SystemExit("server did not start")


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    matches_done: int = 0
    errors: int = 0
    #: the clients' CPU seconds within the measured window
    client_cpu: float = 0.0
    #: what ``run_phase``'s ``measure`` read at the window's start and end, subtracted (server CPU, counters)
    measured: dict[str, float] = field(default_factory=dict)

    def merge(self, other: Stats) -> None:
        self.latencies += other.latencies
        self.actions += other.actions
        self.matches_done += other.matches_done
        self.errors += other.errors
        self.client_cpu += other.client_cpu


@dataclass
class Window:
    """Actions sent in [start, stop) are counted; the first seconds (connections, first matches) are not. Times of
    ``time.perf_counter``."""

    start: float
    stop: float


async def client_cpu_in(win: Window) -> float:
    """This client process's CPU seconds between ``win.start`` and ``win.stop`` (the window the server's CPU is read
    over, :func:`run_phase`)."""
    await asyncio.sleep(max(0.0, win.start - time.perf_counter()))
    cpu0 = time.process_time()
    await asyncio.sleep(max(0.0, win.stop - time.perf_counter()))
    return time.process_time() - cpu0


async def seat_client(ws_url: str, seat: int, stats: Stats, rng: random.Random, win: Window, done: asyncio.Event,
                      think: float, login: Login | None = None, local: str | None = None, deflate: bool = False) -> None:
    loads, dumps, clock = json.loads, json.dumps, time.perf_counter
    headers = {"Cookie": login.cookie_header} if login is not None else None
    async with connect(ws_url, max_size=None, compression="deflate" if deflate else None, additional_headers=headers,
                       local_addr=(local, 0) if local else None) as ws:
        if login is not None and login.token:
            await ws.send(dumps({"type": "auth", "token": login.token}))
        pending: tuple[int, float] | None = None
        msg: dict[str, Any] = {}
        async for raw in ws:
            got = loads(raw)
            kind = got["type"]
            if kind == "error":
                # stale: in a simultaneous phase another seat's action got in first (SRV-A1); the event
                # of that action has come or comes next, and this seat acts again on the newest state
                stats.errors += 1
                if got["error"].get("code") != "stale_version":
                    raise RuntimeError(got["error"])
                newer = pending is None or msg.get("version", -1) >= pending[0]
                pending = None
                if not newer:
                    continue  # the event that made it stale is still on its way
            else:
                msg = got
                if kind == "event" and pending is not None and msg["version"] >= pending[0] and msg["last"]["seat"] == seat:
                    if pending[1] >= win.start:
                        stats.latencies.append(clock() - pending[1])
                        stats.actions += 1
                    pending = None
            to_act = msg.get("to_act")
            if not to_act or done.is_set():
                done.set()
                return
            if pending is None and seat in to_act and msg.get("legal"):
                if think:
                    await asyncio.sleep(rng.uniform(0.5, 1.5) * think)
                if clock() >= win.stop:
                    done.set()
                    return
                action = rng.choice(calm_actions(msg["view"], msg["legal"]))
                pending = (msg["version"] + 1, clock())
                await ws.send(dumps({"type": "action", "version": msg["version"], "action": action}))
            elif pending is None and clock() >= win.stop:
                done.set()
                return


class SeatConnection(asyncio.Protocol):
    """The same player as ``seat_client`` on websockets' sans-I/O protocol driven straight by an asyncio
    transport (``--client sansio``, the default): no reader task, no stream buffers, one callback per
    packet, so that the load generator spends as little of the shared CPU as possible."""

    def __init__(self, ws_url: str, seat: int, stats: Stats, rng: random.Random, win: Window, done: asyncio.Future[None],
                 think: float, login: Login | None = None, deflate: bool = False) -> None:
        # ``deflate``: offer permessage-deflate with the settings browsers offer (``--deflate``)
        self.ws = ClientProtocol(parse_uri(ws_url), max_size=None,
                                 extensions=[ClientPerMessageDeflateFactory(client_max_window_bits=True)] if deflate else None)
        self.login = login
        self.seat, self.stats, self.rng, self.win, self.done, self.think = seat, stats, rng, win, done, think
        self.transport: asyncio.Transport | None = None
        self.pending: tuple[int, float] | None = None
        self.msg: dict[str, Any] = {}
        self.parts: list[bytes] = []
        self.loop = asyncio.get_running_loop()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]  # uvloop's transports are not asyncio.Transport subclasses
        request = self.ws.connect()
        if self.login is not None:  # a signed-in browser sends its session cookie with the handshake
            request.headers["Cookie"] = self.login.cookie_header
        self.ws.send_request(request)
        self._flush()

    def _flush(self) -> None:
        assert self.transport is not None
        for data in self.ws.data_to_send():
            if data:
                self.transport.write(data)

    def data_received(self, data: bytes) -> None:
        self.ws.receive_data(data)
        for event in self.ws.events_received():
            if isinstance(event, Frame):
                if event.opcode in (Opcode.TEXT, Opcode.CONT):
                    self.parts.append(bytes(event.data))
                    if event.fin:
                        raw, self.parts = b"".join(self.parts), []
                        self.on_message(raw)
            elif isinstance(event, Response) and event.status_code != 101:
                self._finish(RuntimeError(f"WebSocket refused: {event.status_code}"))
            elif isinstance(event, Response) and self.login is not None and self.login.token:
                # the web page's way: the seat in the URL, the token in the first message
                self.ws.send_text(json.dumps({"type": "auth", "token": self.login.token}).encode())
        self._flush()

    def connection_lost(self, exc: Exception | None) -> None:
        self._finish(None)

    def _finish(self, exc: BaseException | None) -> None:
        if not self.done.done():
            if exc is None:
                self.done.set_result(None)
            else:
                self.done.set_exception(exc)

    def on_message(self, raw: bytes) -> None:
        if self.done.done():
            return
        got = json.loads(raw)
        kind = got["type"]
        if kind == "error":
            self.stats.errors += 1
            if got["error"].get("code") != "stale_version":
                self._finish(RuntimeError(got["error"]))
                return
            newer = self.pending is None or self.msg.get("version", -1) >= self.pending[0]
            self.pending = None
            if not newer:
                return
        else:
            self.msg = got
            pending = self.pending
            if kind == "event" and pending is not None and got["version"] >= pending[0] and got["last"]["seat"] == self.seat:
                if pending[1] >= self.win.start:
                    self.stats.latencies.append(time.perf_counter() - pending[1])
                    self.stats.actions += 1
                self.pending = None
        msg = self.msg
        to_act = msg.get("to_act")
        if not to_act:
            self._finish(None)
            return
        if self.pending is None:
            if self.seat in to_act and msg.get("legal"):
                self.pending = (msg["version"] + 1, 0.0)  # reserved: acts once, after the think time
                delay = self.rng.uniform(0.5, 1.5) * self.think if self.think else 0.0
                if delay:
                    self.loop.call_later(delay, self.act, msg)
                else:
                    self.act(msg)
            elif time.perf_counter() >= self.win.stop:
                self._finish(None)

    def act(self, msg: dict[str, Any]) -> None:
        now = time.perf_counter()
        if self.done.done() or self.transport is None or self.transport.is_closing():
            return
        if now >= self.win.stop:
            self._finish(None)
            return
        if msg is not self.msg:  # something newer came in while thinking: think about that instead
            self.pending = None
            self.on_message(json.dumps(self.msg).encode())
            return
        action = self.rng.choice(calm_actions(msg["view"], msg["legal"]))
        self.pending = (msg["version"] + 1, now)
        self.ws.send_text(json.dumps({"type": "action", "version": msg["version"], "action": action}).encode())
        self._flush()

    def close(self) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.close()


@dataclass
class Login:
    """A signed-in seat (``--accounts``): the session cookie's value and its CSRF token; ``token``: the seat's token
    once the account sits in a match."""

    cookie: str
    csrf: str
    token: str = ""

    @property
    def cookie_header(self) -> str:
        return f"{SESSION_COOKIE}={self.cookie}"

    def headers(self) -> dict[str, str]:
        return {"Cookie": self.cookie_header, CSRF_HEADER: self.csrf}


def make_accounts(database_url: str, tables: int, seats: int) -> dict[int, list[tuple[str, str]]]:
    """``--accounts``: one account and one session per seat of each table, written into the server's database (what
    sign-ups and sign-ins leave there); per table, each seat's (cookie, CSRF token)."""
    import secrets

    from sqlalchemy import insert

    from spacetable.server.accounts.models import AccountRow, AccountSessionRow
    from spacetable.server.accounts.service import digest
    from spacetable.server.db import make_engine

    now = time.time()
    out: dict[int, list[tuple[str, str]]] = {}
    accounts, sessions = [], []
    for t in range(tables):
        for s in range(seats):
            name = f"bench{t}s{s}"
            account_id = secrets.token_hex(12)
            cookie, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(24)
            email = f"{name}@example.org"
            accounts.append({"id": account_id, "username": name, "username_key": name, "display_name": f"Bench {t}.{s}",
                             "email": email, "email_key": email, "email_verified": True, "lang": "en", "created_at": now})
            sessions.append({"id_hash": digest(cookie), "account_id": account_id, "csrf": csrf, "created_at": now,
                             "seen_at": now, "expires_at": now + 30 * 86400, "user_agent": "bench", "address": ""})
            out.setdefault(t, []).append((cookie, csrf))
    engine = make_engine(database_url)
    try:
        with engine.begin() as conn:
            conn.execute(insert(AccountRow), accounts)
            conn.execute(insert(AccountSessionRow), sessions)
    finally:
        engine.dispose()
    return out


class Http:
    """A minimal keep-alive HTTP/1.1 JSON client, one connection per table: the lobby calls of the
    benchmark cost the client almost nothing (a shared connection pool with hundreds of waiting
    requests costs more CPU than the server's answers)."""

    def __init__(self, host: str, port: int, local: str | None = None) -> None:
        self.host, self.port, self.local = host, port, local
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def post(self, path: str, body: dict[str, Any], headers: dict[str, str] | None = None) -> dict[str, Any]:
        for attempt in range(2):
            try:
                return await self._post(path, body, headers)
            except (ConnectionError, asyncio.IncompleteReadError):
                await self.close()
                if attempt == 1:
                    raise
        raise AssertionError("unreachable")

    async def _post(self, path: str, body: dict[str, Any], headers: dict[str, str] | None = None) -> dict[str, Any]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(
                self.host, self.port, local_addr=(self.local, 0) if self.local else None)
        assert self.reader is not None
        data = json.dumps(body).encode()
        extra = "".join(f"{k}: {v}\r\n" for k, v in (headers or {}).items())
        self.writer.write(f"POST {path} HTTP/1.1\r\nHost: {self.host}\r\nContent-Type: application/json\r\n{extra}"
                          f"Content-Length: {len(data)}\r\n\r\n".encode() + data)
        head = (await self.reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
        status = int(head[0].split()[1])
        headers = dict(line.split(":", 1) for line in head[1:] if ":" in line)
        length = int(next(v for k, v in headers.items() if k.lower() == "content-length"))
        payload = await self.reader.readexactly(length)
        if status >= 400:
            raise RuntimeError(f"POST {path}: HTTP {status}: {payload[:200]!r}")
        out: dict[str, Any] = json.loads(payload)
        return out

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.reader = self.writer = None


def route(match_id: str, processes: int) -> int:
    """The process a proxy routing by match id sends ``/api/matches/{id}/...`` and ``/ws/matches/{id}`` to: a hash of
    the id, the same for every request of the match."""
    return zlib.crc32(match_id.encode()) % processes


def table_address(seed: int) -> str | None:
    """The loopback address table ``seed`` plays from (127.0.0.2 to 127.0.0.251 on Linux, where all of 127/8 is
    this machine): each table is its own player, so the per-address rate limits count one player's requests as
    in production, not every seat's in one window."""
    return f"127.0.0.{2 + seed % 250}" if sys.platform.startswith("linux") else None


async def table(bases: list[str], game: str, config: dict[str, Any], stats: Stats, seed: int, win: Window, think: float,
                client: str = "sansio", texts: bool = False, logins: list[tuple[str, str]] | None = None,
                deflate: bool = False, routed: bool = False) -> None:
    """One table: a match at a time, every seat a WebSocket client; a new match when one ends. With several
    server processes (``bases``) the table's lobby calls go to one of them and seat ``s`` connects to process
    ``(seed + s) % len(bases)``: the seats of a match are spread over the processes. ``routed``: the table creates
    its matches on that process, and each match's joins and sockets go to process :func:`route` of its id."""
    rng = random.Random(seed)
    local = table_address(seed)
    https = [Http(b.removeprefix("http://").split(":")[0], int(b.rsplit(":", 1)[1]), local) for b in bases]
    http = https[seed % len(bases)]
    while time.perf_counter() < win.stop:
        new = {"game": game, "config": config, "seed": rng.randrange(2**40), "open_seed": True, "join_seat": 0}
        seats: list[Login | None]
        if logins:  # signed in: a rated match between the table's accounts, through the account routes
            seats = [Login(cookie, csrf) for cookie, csrf in logins]
            data = await http.post("/api/account/matches", {**new, "rated": True}, seats[0].headers())  # type: ignore[union-attr]
        else:
            data = await http.post("/api/matches", new)
        mid, n = data["match"]["id"], len(data["match"]["seats"])
        home = route(mid, len(bases)) if routed else None
        joins = https[home] if home is not None else http
        tokens = [data["token"]]
        for s in range(1, n):
            if logins:
                got = await joins.post(f"/api/account/matches/{mid}/seats/{s}/join", {}, seats[s].headers())  # type: ignore[union-attr]
            else:
                got = await joins.post(f"/api/matches/{mid}/seats/{s}/join", {})
            tokens.append(got["token"])
        if logins:
            for s in range(n):
                seats[s].token = tokens[s]  # type: ignore[union-attr]
        else:
            seats = [None] * n
        urls = [f"{bases[(seed + s) % len(bases) if home is None else home].replace('http://', 'ws://')}"
                f"/ws/matches/{mid}?seat={s}"
                f"{'' if logins else '&token=' + tokens[s]}{'&texts=1' if texts else ''}" for s in range(n)]
        if client == "sansio":
            await sansio_match(urls, stats, rng, win, think, seats, local, deflate)
            stats.matches_done += 1
            continue
        done = asyncio.Event()
        tasks = [asyncio.create_task(seat_client(urls[s], s, stats, random.Random(rng.random()), win, done, think, seats[s],
                                                     local, deflate))
                 for s in range(n)]
        finished, waiting = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        done.set()  # the match is over, or time is up: the other seats stop listening
        for task in waiting:
            task.cancel()
        await asyncio.gather(*waiting, return_exceptions=True)
        for task in finished:
            task.result()  # re-raise a client's error
        stats.matches_done += 1
    for one in https:
        await one.close()


async def sansio_match(urls: list[str], stats: Stats, rng: random.Random, win: Window, think: float,
                       logins: list[Login | None] | None = None, local: str | None = None, deflate: bool = False) -> None:
    """Play one match with a ``SeatConnection`` per seat; returns when it is over or time is up."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[None] = loop.create_future()
    conns: list[SeatConnection] = []
    try:
        for seat, url in enumerate(urls):
            conn = SeatConnection(url, seat, stats, random.Random(rng.random()), win, done, think,
                                  logins[seat] if logins else None, deflate)
            host, port = url.removeprefix("ws://").split("/", 1)[0].split(":")
            await loop.create_connection(lambda conn=conn: conn, host, int(port),  # type: ignore[misc]
                                         local_addr=(local, 0) if local else None)
            conns.append(conn)
        await done
    finally:
        for conn in conns:
            conn.close()


async def run_tables(bases: list[str], game: str, config: dict[str, Any], seeds: list[int], start: float, stop: float,
                     think: float, client: str = "sansio", texts: bool = False,
                     logins: dict[int, list[tuple[str, str]]] | None = None, deflate: bool = False,
                     routed: bool = False) -> Stats:
    """Play ``seeds``' tables; actions sent between ``start`` and ``stop`` (``time.monotonic``, the same clock in
    every process on one machine) are counted."""
    stats = Stats()
    shift = time.perf_counter() - time.monotonic()
    win = Window(start + shift, stop + shift)
    cpu = asyncio.create_task(client_cpu_in(win))
    await asyncio.gather(*(table(bases, game, config, stats, s, win, think, client, texts,
                                 logins.get(s) if logins else None, deflate, routed) for s in seeds))
    stats.client_cpu = await cpu
    return stats


def client_process(bases: list[str], game: str, config: dict[str, Any], seeds: list[int], start: float, stop: float,
                   think: float, client: str = "sansio", texts: bool = False,
                   logins: dict[int, list[tuple[str, str]]] | None = None, deflate: bool = False,
                   routed: bool = False) -> Stats:
    """Entry point of a client process: its share of the tables, on uvloop when installed."""
    try:
        import uvloop

        return uvloop.run(run_tables(bases, game, config, seeds, start, stop, think, client, texts, logins, deflate, routed))
    except ImportError:
        return asyncio.run(run_tables(bases, game, config, seeds, start, stop, think, client, texts, logins, deflate, routed))


def _ready(_: int) -> int:
    """A first task for each client process: it has imported the benchmark and the client libraries once it runs."""
    time.sleep(0.05)
    return os.getpid()


def run_phase(bases: list[str], args: argparse.Namespace, matches: int, seconds: float, think: float, ramp: float,
              logins: dict[int, list[tuple[str, str]]] | None = None,
              measure: Callable[[], dict[str, float]] | None = None, routed: bool = False) -> Stats:
    """Play ``matches`` tables for ``ramp`` seconds unmeasured (connections, first matches) and then ``seconds``
    measured. ``measure`` (server CPU, counters) is read when the measured window opens and when it closes, in this
    process, and the difference is the phase's ``Stats.measured``: the ramp's set-ups and actions, the client
    processes' start and the last answers after the window are outside it, as its actions are outside the count."""
    procs = max(1, args.client_procs)
    shares = [[i for i in range(matches) if i % procs == k] for k in range(procs)]
    shares = [share for share in shares if share]
    with mp.get_context("spawn").Pool(len(shares)) as pool:
        pool.map(_ready, range(len(shares)), chunksize=1)  # the client processes have started and imported
        start = time.monotonic() + ramp
        stop = start + seconds
        jobs = [(bases, args.game, json.loads(args.config), share, start, stop, think, args.client, args.texts,
                 {t: logins[t] for t in share} if logins else None, args.deflate, routed) for share in shares]
        pending = pool.starmap_async(client_process, jobs)
        before = after = None
        if measure is not None:
            time.sleep(max(0.0, start - time.monotonic()))
            before = measure()
            time.sleep(max(0.0, stop - time.monotonic()))
            after = measure()
        results = pending.get()
    total = Stats()
    for r in results:
        total.merge(r)
    if before is not None and after is not None:
        total.measured = {k: v - before[k] for k, v in after.items() if k in before}
    return total


#: seconds a read of the servers' counters may take at a measured window's edge before the split is taken over the
#: whole phase instead (:func:`bench`)
LATE = 1.0
#: what is read at once at a window's edge, whatever the servers' counters wait for: the processes' CPU (``/proc``)
#: and PostgreSQL's own counters
WINDOW_READS = ("server", "db", "redis", "commits", "wal")
#: pause lengths (ms) whose counts the table shows: how many of the garbage collector's pauses reached them
GC_PAUSES = (10, 50)


def health(base: str) -> dict[str, Any]:
    """A server's ``/health`` (its own counters). Read under load at a measured window's start and end: a server still
    busy with the ramp's set-ups (200 Full Metal Planète matches, each with a long first list) answers it only after
    seconds, hence the long timeout; the process's CPU is read before it, from ``/proc``, at once."""
    import urllib.request

    with urllib.request.urlopen(f"{base}/health", timeout=120) as resp:
        out: dict[str, Any] = json.loads(resp.read())
    return out


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def tree_cpu_seconds(pid: int) -> float:
    """CPU time of a process and of its children that are alive now, plus what its waited-for children used
    (PostgreSQL: the postmaster and its backends)."""
    total = 0.0
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            fields = (proc / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(proc.name) == pid:
            total += (int(fields[11]) + int(fields[12]) + int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")
        elif int(fields[1]) == pid:
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def pct(sorted_values: list[float], q: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(len(sorted_values) * q))] * 1000


def row(game: str, setup: str, phase: str, matches: int, think_ms: float, seconds: float, stats: Stats,
        cpu: dict[str, float]) -> dict[str, str]:
    """One row of the table from ``cpu``: the processes' CPU read over the measured window, the servers' counters
    over the same window or, when they answered late, over the whole phase (:func:`bench`)."""
    lat = sorted(stats.latencies)
    n = max(1, stats.actions)

    def per_action(key: str) -> str:
        value = cpu.get(key)
        return "-" if value is None or value != value else f"{value / n * 1000:.2f}"

    return {
        "game": game, "setup": setup, "phase": phase, "matches": str(matches), "think ms": f"{think_ms:g}",
        "actions/s": f"{stats.actions / seconds:,.0f}",
        "p50 ms": f"{pct(lat, 0.5):.1f}" if lat else "-", "p90 ms": f"{pct(lat, 0.9):.1f}" if lat else "-",
        "p99 ms": f"{pct(lat, 0.99):.1f}" if lat else "-", "max ms": f"{lat[-1] * 1000:.0f}" if lat else "-",
        "server CPU ms/action": per_action("server"), "db CPU ms/action": per_action("db"),
        "db commits/s": f"{cpu['commits'] / seconds:,.0f}" if "commits" in cpu else "-",
        "WAL bytes/action": f"{cpu['wal'] / n:,.0f}" if "wal" in cpu else "-",
        "actions/commit": f"{cpu['appends:actions'] / cpu['appends:commits']:.1f}" if cpu.get("appends:commits") else "-",
        "redis CPU ms/action": per_action("redis"), "client CPU ms/action": f"{stats.client_cpu / n * 1000:.2f}",
        "matches ended": str(stats.matches_done), "stale/errors": str(stats.errors),
        **split(cpu, stats.actions), **collections(cpu, seconds),
    }


def collections(cpu: dict[str, float], seconds: float) -> dict[str, str]:
    """The servers' garbage collector over the window (``/health`` ``gc``, ``spacetable/server/collector.py``): its
    passes a second, the share of the time the event loops stood still in them, and how many pauses reached
    each of :data:`GC_PAUSES` (a pause stops every action waiting behind it, so that these make the p99). ``at``:
    the time between the two readings, the window's or, when the servers answered late, the whole phase's."""
    if "gc:seconds" not in cpu:  # an older server
        return {"gc passes/s": "-", "gc % of time": "-", **{f"gc pauses >={edge} ms": "-" for edge in GC_PAUSES}}
    span = cpu.get("at") or seconds
    return {"gc passes/s": f"{cpu['gc:passes'] / span:.1f}", "gc % of time": f"{cpu['gc:seconds'] / span * 100:.1f}",
            **{f"gc pauses >={edge} ms": f"{cpu.get(f'gc:>={edge}', 0.0):.0f}" for edge in GC_PAUSES}}


def split(cpu: dict[str, float], actions: int) -> dict[str, str]:
    """The server's own CPU split per action (``/health`` ``hotpath``, see ``spacetable/server/meter.py``: one
    action's window in 32 is measured on the event loop, so a step's CPU per action there is its CPU over the
    measured windows; what worker threads did for the step, counted for every action, is added over the stored
    actions); ``other``: the rest of the server processes' CPU per action played by the clients (HTTP and WebSocket
    protocol, JSON decoding, the event loop, lobby calls, match set-ups)."""
    windows = cpu.get("windows") or float("nan")
    stored = cpu.get("stored") or float("nan")
    per = {step: cpu.get("step:" + step, float("nan")) / windows
           + (cpu["worker:" + step] / stored if cpu.get("worker:" + step) else 0.0) for step in STEPS}
    out = {f"{step} ms": f"{value * 1000:.3f}" for step, value in per.items()}
    out["other ms"] = f"{(cpu.get('server', float('nan')) / max(1, actions) - sum(per.values())) * 1000:.3f}"
    return out


def print_table(rows: list[dict[str, str]]) -> None:
    if not rows:
        return
    cols = list(rows[0])
    width = {c: max(len(c), *(len(r[c]) for r in rows)) for c in cols}
    print("| " + " | ".join(c.ljust(width[c]) for c in cols) + " |")
    print("|" + "|".join("-" * (width[c] + 2) for c in cols) + "|")
    for r in rows:
        print("| " + " | ".join(r[c].rjust(width[c]) for c in cols) + " |")


@dataclass
class Setup:
    label: str
    database_url: str
    processes: int = 1
    redis_url: str | None = None
    #: pids whose CPU time is reported as the database's and Redis's (``None``: not measured)
    db_pid: int | None = None
    redis_pid: int | None = None
    #: another checkout whose server runs (``--against``), and whether that server has ``--meter``
    root: Path | None = None
    metered: bool = True
    #: each match's join and sockets go to one process chosen by its id (:func:`route`), not spread over them all
    routed: bool = False
    #: the interpreter the servers run under (``--against-python``; ``None``: this one)
    python: str | None = None


def has_meter(root: Path, python: str | None = None) -> bool:
    """Whether the server of the checkout ``root`` knows ``--meter`` (older ones do not)."""
    out = subprocess.run([python or sys.executable, "-m", "spacetable.server.cli", "--help"], cwd=root, capture_output=True,
                         text=True, env={**os.environ, "PYTHONPATH": str(root)}, timeout=120)
    return "--meter" in out.stdout


def bench(setup: Setup, args: argparse.Namespace) -> list[dict[str, str]]:
    ports = [free_port() for _ in range(setup.processes)]
    procs = [start_server(setup.database_url, port, args.log_level, setup.redis_url, args.db_writers,
                          setup.metered and not args.no_meter, setup.root, args.game, setup.python)
             for port in ports]
    spies: list[subprocess.Popen[bytes]] = []
    rows = []
    try:
        if args.profile:
            # one file per game, setup and process (a run of several setups keeps each one's samples)
            tag = (re.sub(r"[^a-z0-9]+", "-", setup.label.lower()).strip("-")
                   + ("-against" if setup.root or setup.python else ""))
            spies = [profile(p.pid, Path(args.profile) / f"{args.game}-{tag}-{k}.txt") for k, p in enumerate(procs)]
        bases = [f"http://127.0.0.1:{port}" for port in ports]
        logins = None
        if args.accounts:  # one account and session per seat of each table (the warm-up's tables are among them)
            from spacetable.games import get_game

            seats = get_game(args.game).num_players(json.loads(args.config))
            logins = make_accounts(setup.database_url, max(8, args.matches), seats)
        run_phase(bases, args, 8, 1.5, 0.0, 0.0, logins, routed=setup.routed)  # warm-up (imports, caches): not counted
        phases = [("paced", args.think_ms, args.seconds)]
        if args.max_seconds > 0:
            phases.append(("max", 0.0, args.max_seconds))
        for phase, think_ms, seconds in phases:
            if seconds <= 0:
                continue

            def cpu() -> dict[str, float]:
                # the processes' CPU first, from /proc at once; then the counters, which a busy server answers late
                out = {"server": sum(cpu_seconds(p.pid) for p in procs), "at": time.monotonic()}
                if setup.db_pid is not None:
                    out["db"] = tree_cpu_seconds(setup.db_pid)
                if setup.redis_pid is not None:
                    out["redis"] = cpu_seconds(setup.redis_pid)
                out.update(pg_counters(setup.database_url))
                for base in bases:
                    figures = health(base)
                    for key, value in (figures.get("appends") or {}).items():  # transactions of actions, actions
                        out["appends:" + key] = out.get("appends:" + key, 0.0) + value
                    collector = figures.get("gc")
                    if collector is not None:  # the garbage collector's passes and pauses (older servers: none)
                        out["gc:passes"] = out.get("gc:passes", 0.0) + sum(collector["passes"])
                        out["gc:seconds"] = out.get("gc:seconds", 0.0) + sum(collector["pause_seconds"])
                        for edge in GC_PAUSES:
                            out[f"gc:>={edge}"] = (out.get(f"gc:>={edge}", 0.0)
                                                   + collector["pauses_at_least_ms"].get(str(edge), 0))
                    counters = figures.get("hotpath")
                    if counters is None:  # an older server (--against): no counters of its own
                        continue
                    out["windows"] = out.get("windows", 0.0) + counters["windows"]
                    out["stored"] = out.get("stored", 0.0) + counters["actions"]
                    for step, value in counters["cpu_seconds"].items():
                        out["step:" + step] = out.get("step:" + step, 0.0) + value
                    for step, value in (counters.get("worker_cpu_seconds") or {}).items():  # not sampled
                        out["worker:" + step] = out.get("worker:" + step, 0.0) + value
                return out

            late: list[float] = []  # how long each read at the window's edges waited for the servers' counters

            def at_edge(late: list[float] = late) -> dict[str, float]:
                t = time.monotonic()
                out = cpu()
                late.append(time.monotonic() - t)
                return out

            whole = cpu()
            stats = run_phase(bases, args, args.matches, seconds, think_ms / 1000, args.ramp, logins, measure=at_edge,
                              routed=setup.routed)
            used = stats.measured  # over the measured window only (run_phase)
            whole = {k: v - whole[k] for k, v in cpu().items()}  # the whole phase, ramp and end included
            if max(late, default=0.0) > LATE:
                # a server too busy to answer its counters at the window's edges (slow games' set-ups, long lists):
                # the window's counters would cover a shifted, shorter stretch; the CPU, read from /proc, is the
                # window's, and the steps of the split (per action), the actions a commit and the collector's pauses
                # are the whole phase's
                print(f"  (the servers answered their counters up to {max(late):.1f} s after the window's edges: the "
                      "steps of the split, the actions a commit and the garbage collector's pauses are over the whole "
                      "phase)", flush=True)
                used = {**whole, **{k: used[k] for k in WINDOW_READS if k in used}}
            label = setup.label + (", signed in" if args.accounts else "")
            rows.append(row(args.game, label, phase, args.matches, think_ms, seconds, stats, used))
            r = rows[-1]
            print(f"{label} {phase}: {r['actions/s']} actions/s, p50 {r['p50 ms']} ms, p99 {r['p99 ms']} ms "
                  f"(server CPU {r['server CPU ms/action']} ms/action, database {r['db CPU ms/action']}, "
                  f"Redis {r['redis CPU ms/action']}; {r['actions/commit']} actions a commit; "
                  f"load average {os.getloadavg()[0]:.1f}; over the whole phase, ramp and end included, "
                  f"{whole['server'] / max(1, stats.actions) * 1000:.2f} ms/action)", flush=True)
            print("  server CPU per action (ms): " + ", ".join(f"{k.removesuffix(' ms')} {r[k]}" for k in
                  [*(f"{s} ms" for s in STEPS), "other ms"]), flush=True)
            if r["gc passes/s"] != "-":
                print(f"  garbage collector: {r['gc passes/s']} passes/s, {r['gc % of time']} % of the time, pauses of "
                      + ", ".join(f">= {edge} ms: {r[f'gc pauses >={edge} ms']}" for edge in GC_PAUSES), flush=True)
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            stop(proc, 10, "a server")
        for spy in spies:
            stop(spy, 30, "py-spy")
    return rows


def stop(proc: subprocess.Popen[bytes], seconds: float, what: str) -> None:
    """Wait for ``proc`` to end (it was asked to); killed after ``seconds``, with a line saying so, so that a
    process slow to stop neither hangs the run nor hides the error that ended it."""
    try:
        proc.wait(seconds)
    except subprocess.TimeoutExpired:
        print(f"  {what} (pid {proc.pid}) had not ended {seconds:.0f} s after it was asked to: killed", file=sys.stderr,
              flush=True)
        proc.kill()
        proc.wait(10)


def profile(pid: int, out: Path) -> subprocess.Popen[bytes]:
    """``--profile DIR``: sample a server process with py-spy (``pip install py-spy``) until it ends, in py-spy's raw
    (collapsed stacks) format; ``python bench/profile_summary.py FILE`` summarises it. Blocking mode (the process
    is stopped for each sample): the non-blocking mode's samples lean towards long C calls, whose stacks do not
    change while they are read (docs/architecture.md, "Where the time goes")."""
    out.parent.mkdir(parents=True, exist_ok=True)
    beside = Path(sys.executable).with_name("py-spy")  # installed in this virtual environment, or on the PATH
    spy = str(beside) if beside.exists() else shutil.which("py-spy")
    if spy is None:
        raise SystemExit("--profile needs py-spy: pip install py-spy")
    return subprocess.Popen([spy, "record", "--pid", str(pid), "--rate", "100", "--format", "raw",
                             "--output", str(out)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def pg_counters(url: str) -> dict[str, float]:
    """PostgreSQL: committed transactions of the database and WAL bytes written so far (nothing for SQLite)."""
    if not url.startswith("postgresql"):
        return {}
    import psycopg

    from spacetable.server.storage import conninfo

    with psycopg.connect(conninfo(url), autocommit=True) as conn:
        row = conn.execute("SELECT (SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()), "
                           "pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')").fetchone()
    assert row is not None
    return {"commits": float(row[0]), "wal": float(row[1])}


SETUPS = ("sqlite", "pg", "pg-redis", "pg-redis-2", "pg-redis-2-routed")
GAMES = ("arena", "fullmetal", "galaxies", "tremble", "worlds")
BASELINE = ROOT / "bench" / "baselines" / "server_load.json"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--matches", type=int, default=200, help="concurrent matches (one WebSocket client per seat)")
    p.add_argument("--seconds", type=float, default=15.0, help="measurement time of the paced phase")
    p.add_argument("--think-ms", type=float, default=150.0, help="mean think time of the paced phase (0: no pause)")
    p.add_argument("--max-seconds", type=float, default=10.0, help="measurement time of the max-throughput phase (0: skip)")
    p.add_argument("--ramp", type=float, default=2.0, help="seconds at the start of each phase not measured (connections)")
    p.add_argument("--client-procs", type=int, default=1, help="processes running the clients")
    p.add_argument("--client", default="sansio", choices=["sansio", "websockets"],
                   help="client implementation: websockets' sans-I/O protocol on raw asyncio transports (cheapest), "
                        "or the websockets asyncio client")
    p.add_argument("--game", default="arena",
                   help="a game, several (comma-separated) or 'all' (the five games, one after the other); 'floor': "
                        "the benchmark's game without rules (bench/floor_game.py), what the server costs by itself")
    p.add_argument("--texts", action="store_true",
                   help="every seat's socket asks for texts (?texts=1), as the web page does; by default the clients "
                        "play as programs over the API and read notations only")
    p.add_argument("--deflate", action="store_true",
                   help="every socket offers permessage-deflate, as browsers do, so the server compresses each message "
                        "it sends (and inflates what it receives); by default the clients offer no extension")
    p.add_argument("--accounts", action="store_true",
                   help="every seat signed in: an account and a session per seat (written into the database before the "
                        "run), rated matches created and joined through the account routes, each socket authenticated "
                        "as the web page does (session cookie, then the seat's token in an auth message)")
    p.add_argument("--check", nargs="?", const=str(BASELINE), default=None, metavar="FILE",
                   help=f"compare with a stored baseline (default {BASELINE.relative_to(ROOT)}): print the ratio of "
                        "server CPU per action and actions/s per game, setup and phase; exit 1 when CPU per action "
                        "is more than --tolerance above it")
    p.add_argument("--tolerance", type=float, default=1.25, help="--check: the CPU-per-action ratio that fails (1.25)")
    p.add_argument("--save-baseline", nargs="?", const=str(BASELINE), default=None, metavar="FILE",
                   help="store this run's figures as the baseline (merged into the file by game, setup and phase; a "
                        "file stored on another machine is replaced, not merged)")
    p.add_argument("--config", default="{}", help="match config as JSON")
    p.add_argument("--setups", default=",".join(SETUPS), help=f"comma-separated, from {', '.join(SETUPS)}")
    p.add_argument("--pg-url", default=None, help="a running PostgreSQL to use (default: one started for the run)")
    p.add_argument("--redis-url", default=None, help="a running Redis to use (default: one started for the run)")
    p.add_argument("--db-writers", type=int, default=2, help="server's --db-writers (PostgreSQL group-commit connections)")
    p.add_argument("--repeat", type=int, default=1,
                   help="run the setups this many times, interleaved, and print the medians too (a loaded machine); "
                        "with --against, the two servers swap places at each repeat: give an even number")
    p.add_argument("--no-meter", action="store_true",
                   help="run the servers without --meter: no CPU split, and not its cost (a few us an action)")
    p.add_argument("--profile", default=None, metavar="DIR",
                   help="sample each server process with py-spy (installed separately) into DIR (collapsed stacks)")
    p.add_argument("--against", default=None, metavar="DIR",
                   help="a second checkout of spacetable (e.g. a git worktree of an older commit): each game, setup "
                        "and repeat runs its server and this one's in turn, in swapped order at each repeat; the "
                        "ratios this / it are printed")
    p.add_argument("--against-python", default=None, metavar="PYTHON",
                   help="run the other servers under this interpreter (a virtual environment's python with "
                        "spacetable's dependencies installed); alone, without --against, this checkout under two "
                        "interpreters")
    p.add_argument("--against-label", default=None,
                   help="the label of the other server's rows (before; with --against-python alone, other Python)")
    p.add_argument("--log-level", default="warning")
    args = p.parse_args(argv)
    against: Path | None = Path(args.against).resolve() if args.against else None
    if against is not None and not (against / "spacetable" / "server" / "cli.py").exists():
        p.error(f"--against {against}: not a spacetable checkout (no spacetable/server/cli.py)")
    other_python: str | None = None
    if args.against_python:
        other_python = shutil.which(args.against_python) or args.against_python
        if not os.access(other_python, os.X_OK):
            p.error(f"--against-python {args.against_python}: not an executable")
        if against is None:
            against = ROOT
    if args.against_label is None:
        args.against_label = "other Python" if args.against_python and not args.against else "before"
    against_metered = has_meter(against, other_python) if against is not None else True
    #: the servers each setup runs: (label suffix, checkout, metered, interpreter); the other one's first, then this
    #: one's
    versions: list[tuple[str, Path | None, bool, str | None]] = [("", None, True, None)]
    if against is not None:
        versions.insert(0, (f" [{args.against_label}]", against, against_metered, other_python))
    wanted = [x.strip() for x in args.setups.split(",") if x.strip()]
    unknown = set(wanted) - set(SETUPS)
    if unknown:
        p.error(f"unknown setups: {sorted(unknown)}")
    games = list(GAMES) if args.game == "all" else [g.strip() for g in args.game.split(",") if g.strip()]
    if floor_game.ID in games:
        floor_game.register()
    print(f"machine: {machine()}; load average {os.getloadavg()[0]:.1f}; "
          f"games {', '.join(games)}, {args.matches} concurrent matches, {args.client_procs} client process(es), "
          f"texts {'on' if args.texts else 'off'}, compression {'on' if args.deflate else 'off'}"
          f"{', every seat signed in' if args.accounts else ''}", flush=True)
    print(f"interpreter: {interpreter()}"
          + (f"; [{args.against_label}]: {interpreter(other_python)}" if other_python else ""), flush=True)
    rows: list[dict[str, str]] = []
    pg: TempPostgres | None = None
    redis: TempRedis | None = None
    try:
        if any(w.startswith("pg") for w in wanted) and not args.pg_url:
            if postgres_bin() is None:
                print("PostgreSQL: not installed (apt-get install postgresql) and no --pg-url; its setups are skipped")
            else:
                pg = TempPostgres().start()
        if any(w.startswith("pg-redis") for w in wanted) and not args.redis_url:
            if redis_bin() is None:
                print("Redis: not installed (apt-get install redis-server) and no --redis-url; its setups are skipped")
            else:
                redis = TempRedis().start()
        redis_url = args.redis_url or (redis.url if redis else None)
        redis_pid = redis.proc.pid if redis and redis.proc else None
        db_pid = int((pg.data / "postmaster.pid").read_text().split()[0]) if pg else None
        with tempfile.TemporaryDirectory() as tmp:
            # with --against, the two servers swap places at each repeat (the other's first, then this one's first):
            # the second of two back-to-back runs can be the slower one whatever it runs (Tremble: the same checkout
            # against itself gave 1.11 in that order), so give an even --repeat for a fair median
            runs = [(g, w, v) for g in games for k in range(max(1, args.repeat)) for w in wanted
                    for v in (versions if k % 2 == 0 else versions[::-1])]
            for game, name, (suffix, root, metered, python) in runs:
                args.game = game
                if name == "sqlite":
                    rows += bench(Setup("SQLite (WAL)" + suffix, f"sqlite:///{Path(tmp) / f'bench-{game}-{len(rows)}.sqlite3'}",
                                        root=root, metered=metered, python=python), args)
                    continue
                if not (pg or args.pg_url) or (name.startswith("pg-redis") and not redis_url):
                    continue
                url = args.pg_url or pg.create_database(f"bench_{game}_{name.replace('-', '_')}_{len(rows)}")  # type: ignore[union-attr]
                if name == "pg":
                    rows += bench(Setup("PostgreSQL" + suffix, url, db_pid=db_pid, root=root, metered=metered,
                                        python=python), args)
                else:
                    n = 2 if name.startswith("pg-redis-2") else 1
                    routed = name.endswith("-routed")
                    label = f"PostgreSQL + Redis, {n} process{'es' if n > 1 else ''}{', routed' if routed else ''}"
                    rows += bench(Setup(label + suffix, url, n, redis_url, db_pid=db_pid, redis_pid=redis_pid, root=root,
                                        metered=metered, routed=routed, python=python), args)
    finally:
        if pg is not None:
            pg.stop()
        if redis is not None:
            redis.stop()
    print()
    print_table(rows)
    if args.repeat > 1:
        print(f"\nmedians of {args.repeat} interleaved runs:\n")
        rows = medians(rows)
        print_table(rows)
    print_ratios(rows)
    if against is not None:
        print_against(rows, f" [{args.against_label}]")
    status = 0
    if args.check:
        status = check(rows, Path(args.check), args.tolerance)
    if args.save_baseline:
        save_baseline(rows, Path(args.save_baseline), args)
    return status


def _num(text: str) -> float:
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return float("nan")


def print_ratios(rows: list[dict[str, str]]) -> None:
    """The goals that compare setups: PostgreSQL against SQLite (actions/s and CPU per action, paced), and the
    fan-out's cost (server CPU per action of two processes on PostgreSQL + Redis against one)."""
    by = {(r["game"], r["setup"], r["phase"]): r for r in rows}
    for (game, setup, phase), r in by.items():
        if setup == "PostgreSQL":
            base = by.get((game, "SQLite (WAL)", phase))
            if base:
                print(f"{game} {phase}: PostgreSQL / SQLite: actions/s {_num(r['actions/s']) / _num(base['actions/s']):.2f}, "
                      f"server CPU per action {_num(r['server CPU ms/action']) / _num(base['server CPU ms/action']):.2f}")
        if setup.endswith(("2 processes", "2 processes, routed")):
            one = by.get((game, "PostgreSQL + Redis, 1 process", phase))
            if one:
                ratio = _num(r["server CPU ms/action"]) / _num(one["server CPU ms/action"])
                routed = ", routed by match id" if setup.endswith("routed") else ""
                print(f"{game} {phase}: two processes{routed} / one on PostgreSQL + Redis: server CPU per action "
                      f"{ratio:.2f} (the fan-out's cost; goal <= 1.20)")


def print_against(rows: list[dict[str, str]], suffix: str) -> None:
    """``--against``: per game, setup and phase, this checkout's figures against the other one's (last rows of each
    when repeated: pass the medians)."""
    by = {(r["game"], r["setup"], r["phase"]): r for r in rows}
    print(f"\nthis checkout / {suffix.strip(' []')} (server CPU per action: lower is better):")
    for (game, setup, phase), old in by.items():
        r = by.get((game, setup.replace(suffix, ""), phase))
        if suffix not in setup or r is None:
            continue
        setup = setup.replace(suffix, "")
        cpu = _num(r["server CPU ms/action"]) / _num(old["server CPU ms/action"])
        rate = _num(r["actions/s"]) / _num(old["actions/s"])
        print(f"  {game} {setup} {phase}: server CPU per action {old['server CPU ms/action']} -> "
              f"{r['server CPU ms/action']} ms ({cpu:.2f}); actions/s {old['actions/s']} -> {r['actions/s']} ({rate:.2f}); "
              f"p99 {old['p99 ms']} -> {r['p99 ms']} ms")


def interpreter(python: str | None = None) -> str:
    """The interpreter that runs the servers, as its build matters: the same code on the same machine took 8 to 30 %
    less CPU per action under Debian's Python 3.11 (built with profile-guided and link-time optimisation) than under
    a plain ``pyenv install`` of 3.11.7 (docs/server.md, "The interpreter")."""
    exe = python or sys.executable
    try:
        out = subprocess.run([exe, "-c", "import os, sys, platform; "
                              "print(platform.python_version(), os.path.realpath(sys.executable))"],
                             capture_output=True, text=True, timeout=60).stdout.split()
    except (OSError, subprocess.SubprocessError):
        return exe
    return f"Python {out[0]} at {out[1]}" if len(out) == 2 else exe


def machine() -> str:
    """This machine as a baseline records it: the CPU cores and model (``/proc/cpuinfo`` where there is one) and the
    Python that runs the servers. CPU per action differs between machines by more than the check's tolerance (the
    same commit read 1.16 to 1.60 of a baseline stored on another 2-core machine), so ``--check`` says when the
    baseline is another machine's."""
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{os.cpu_count()} x {model}, Python {platform.python_version()}"


def check(rows: list[dict[str, str]], path: Path, tolerance: float) -> int:
    """Compare with the baseline file: the ratio of server CPU per action (lower is better) and of actions/s."""
    try:
        base = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        print(f"--check: cannot read the baseline {path}: {exc}")
        return 2
    print(f"\ncompared with {path} ({base.get('note', '')}):")
    here, there = machine(), base.get("machine")
    if there != here:
        print(f"  the baseline was stored on {there or 'a machine it does not name'}, this is {here}: the ratios "
              "compare the machines as well as the code. For a change, store the code before it on this machine "
              "(--save-baseline FILE, then --check FILE) or run both in one go (--against DIR).")
    worst = 0.0
    for r in rows:
        key = f"{r['game']}|{r['setup']}|{r['phase']}"
        b = base.get("rows", {}).get(key)
        if b is None:
            print(f"  {key}: no baseline")
            continue
        cpu = _num(r["server CPU ms/action"]) / b["server_cpu_ms"]
        rate = _num(r["actions/s"]) / b["actions_per_s"]
        worst = max(worst, cpu)
        print(f"  {key}: server CPU per action {r['server CPU ms/action']} ms / {b['server_cpu_ms']:.2f} = {cpu:.2f}; "
              f"actions/s {r['actions/s']} / {b['actions_per_s']:,.0f} = {rate:.2f}")
    verdict = "worse than the tolerance" if worst > tolerance else "within the tolerance"
    print(f"  worst CPU ratio {worst:.2f}: {verdict} ({tolerance:.2f})")
    return 1 if worst > tolerance else 0


def save_baseline(rows: list[dict[str, str]], path: Path, args: argparse.Namespace) -> None:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        data = {"rows": {}}
    if data.get("machine") != machine():  # figures of two machines in one file would not compare with either
        data["rows"] = {}
    data["machine"] = machine()
    data["note"] = (f"{os.cpu_count()} cores, {args.matches} matches, paced {args.seconds:g} s / max {args.max_seconds:g} s, "
                    f"texts {'on' if args.texts else 'off'}, compression {'on' if args.deflate else 'off'}, "
                    f"{time.strftime('%Y-%m-%d')}")
    for r in rows:
        data["rows"][f"{r['game']}|{r['setup']}|{r['phase']}"] = {
            "server_cpu_ms": _num(r["server CPU ms/action"]), "actions_per_s": _num(r["actions/s"]),
            "p99_ms": _num(r["p99 ms"]), "load_average": round(os.getloadavg()[0], 1)}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(f"baseline stored in {path}")


def medians(rows: list[dict[str, str]]) -> list[dict[str, str]]:
    """Per setup and phase, the median of each numeric column over the repeated runs."""
    groups: dict[tuple[str, str, str], list[dict[str, str]]] = {}
    for r in rows:
        groups.setdefault((r["game"], r["setup"], r["phase"]), []).append(r)
    out = []
    for (game, setup, phase), group in groups.items():
        med: dict[str, str] = {}
        for col, first in group[0].items():
            values = sorted(float(r[col].replace(",", "")) for r in group if r[col].replace(",", "").replace(".", "").isdigit())
            if col in ("game", "setup", "phase") or not values:
                med[col] = {"game": game, "setup": setup, "phase": phase}.get(col, first)
            else:
                v = values[len(values) // 2]
                decimals = len(first.rpartition(".")[2]) if "." in first else 0  # as many as the runs' own rows
                med[col] = f"{v:,.{decimals}f}"
        out.append(med)
    return out


if __name__ == "__main__":
    sys.exit(main())
