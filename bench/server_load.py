"""Load benchmark of the play server (SRV-B1): N concurrent matches, one WebSocket client per seat on
loopback (127.0.0.1 only), playing random legal actions; new matches start as old ones end. Prints a
table of actions/s, the action round trip (send -> the actor's own event back) p50/p90/p99, and the
server's and clients' CPU time per action.

Two load phases per database:

* **paced**: players think before each action (``--think-ms``, uniform 0.5x..1.5x around the mean), so
  the offered load is about ``matches / (think + round trip)`` actions/s (200 matches, 150 ms: ~1,300/s)
  and the latencies measure service time, not a queue the benchmark itself built;
* **max** (``--max-seconds``, 0 to skip): no think time, every player answers at once: the server's
  maximum throughput. Its latencies are mostly queueing (a closed loop that floods the server).

The server runs in its own process (``spacetable serve``) and the clients in one more process (``--client-procs``),
so client and server share the machine's cores but not an interpreter. Clients do the minimum per message:
websockets' sans-I/O protocol on raw asyncio transports (``--client websockets`` for the library's asyncio
client), one ``json.loads``, a choice only when it is their turn, uvloop when installed, and lobby calls on
one kept-alive HTTP/1.1 connection per table.

    .venv/bin/python bench/server_load.py                                  # SQLite (temporary file, WAL)
    .venv/bin/python bench/server_load.py --matches 50 --seconds 10 --game tremble
    .venv/bin/python bench/server_load.py --think-ms 100 --max-seconds 0
    .venv/bin/python bench/server_load.py --pg-url postgresql+psycopg://user:pw@127.0.0.1/spacetable

Target on the 2-core development machine with SQLite: >= 1,000 actions/s, p99 < 50 ms, 200 matches.
Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.uri import parse_uri

from spacetable.server.cli import wait_until_healthy

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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(database_url: str, port: int, log_level: str, db_writer: str = "auto") -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", "spacetable.server.cli", "--host", "127.0.0.1", "--port", str(port),
           "--database-url", database_url, "--log-level", log_level, "--ai-workers", "0", "--db-writer", db_writer,
           # one address plays every seat of every match here: no per-client rate limits, room for every socket
           "--rate-create", "none", "--rate-join", "none", "--rate-act", "none", "--max-sockets", "5000"]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL)
    if wait_until_healthy(port, proc):
        return proc
    raise SystemExit("server did not start")


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    matches_done: int = 0
    errors: int = 0
    client_cpu: float = 0.0

    def merge(self, other: Stats) -> None:
        self.latencies += other.latencies
        self.actions += other.actions
        self.matches_done += other.matches_done
        self.errors += other.errors
        self.client_cpu += other.client_cpu


@dataclass
class Window:
    """Actions sent in [start, stop) are counted; the first seconds (connections, first matches) are not."""

    start: float
    stop: float


async def seat_client(ws_url: str, seat: int, stats: Stats, rng: random.Random, win: Window, done: asyncio.Event,
                      think: float) -> None:
    loads, dumps, clock = json.loads, json.dumps, time.perf_counter
    async with connect(ws_url, max_size=None, compression=None) as ws:
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
                 think: float) -> None:
        self.ws = ClientProtocol(parse_uri(ws_url), max_size=None)
        self.seat, self.stats, self.rng, self.win, self.done, self.think = seat, stats, rng, win, done, think
        self.transport: asyncio.Transport | None = None
        self.pending: tuple[int, float] | None = None
        self.msg: dict[str, Any] = {}
        self.parts: list[bytes] = []
        self.loop = asyncio.get_running_loop()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]  # uvloop's transports are not asyncio.Transport subclasses
        self.ws.send_request(self.ws.connect())
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


class Http:
    """A minimal keep-alive HTTP/1.1 JSON client, one connection per table: the lobby calls of the
    benchmark cost the client almost nothing (a shared connection pool with hundreds of waiting
    requests costs more CPU than the server's answers)."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        for attempt in range(2):
            try:
                return await self._post(path, body)
            except (ConnectionError, asyncio.IncompleteReadError):
                await self.close()
                if attempt == 1:
                    raise
        raise AssertionError("unreachable")

    async def _post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None
        data = json.dumps(body).encode()
        self.writer.write(f"POST {path} HTTP/1.1\r\nHost: {self.host}\r\nContent-Type: application/json\r\n"
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


async def table(base: str, game: str, config: dict[str, Any], stats: Stats, seed: int, win: Window, think: float,
                client: str = "sansio") -> None:
    """One table: a match at a time, every seat a WebSocket client; a new match when one ends."""
    rng = random.Random(seed)
    ws_base = base.replace("http://", "ws://")
    host, port = base.removeprefix("http://").split(":")
    http = Http(host, int(port))
    while time.perf_counter() < win.stop:
        data = await http.post("/api/matches", {"game": game, "config": config, "seed": rng.randrange(2**40), "open_seed": True,
                                                 "join_seat": 0})
        mid, n = data["match"]["id"], len(data["match"]["seats"])
        tokens = [data["token"]]
        for s in range(1, n):
            tokens.append((await http.post(f"/api/matches/{mid}/seats/{s}/join", {}))["token"])
        if client == "sansio":
            await sansio_match(host, int(port), [f"{ws_base}/ws/matches/{mid}?seat={s}&token={tokens[s]}" for s in range(n)],
                               stats, rng, win, think)
            stats.matches_done += 1
            continue
        done = asyncio.Event()
        tasks = [asyncio.create_task(seat_client(f"{ws_base}/ws/matches/{mid}?seat={s}&token={tokens[s]}", s, stats,
                                                 random.Random(rng.random()), win, done, think)) for s in range(n)]
        finished, waiting = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        done.set()  # the match is over, or time is up: the other seats stop listening
        for task in waiting:
            task.cancel()
        await asyncio.gather(*waiting, return_exceptions=True)
        for task in finished:
            task.result()  # re-raise a client's error
        stats.matches_done += 1
    await http.close()


async def sansio_match(host: str, port: int, urls: list[str], stats: Stats, rng: random.Random, win: Window,
                       think: float) -> None:
    """Play one match with a ``SeatConnection`` per seat; returns when it is over or time is up."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[None] = loop.create_future()
    conns: list[SeatConnection] = []
    try:
        for seat, url in enumerate(urls):
            conn = SeatConnection(url, seat, stats, random.Random(rng.random()), win, done, think)
            await loop.create_connection(lambda conn=conn: conn, host, port)  # type: ignore[misc]
            conns.append(conn)
        await done
    finally:
        for conn in conns:
            conn.close()


async def run_tables(base: str, game: str, config: dict[str, Any], seeds: list[int], ramp: float, seconds: float,
                     think: float, client: str = "sansio") -> Stats:
    stats = Stats()
    now = time.perf_counter()
    win = Window(now + ramp, now + ramp + seconds)
    await asyncio.gather(*(table(base, game, config, stats, s, win, think, client) for s in seeds))
    return stats


def client_process(base: str, game: str, config: dict[str, Any], seeds: list[int], ramp: float, seconds: float,
                   think: float, client: str = "sansio") -> Stats:
    """Entry point of a client process: its share of the tables, on uvloop when installed."""
    cpu0 = time.process_time()
    try:
        import uvloop

        stats = uvloop.run(run_tables(base, game, config, seeds, ramp, seconds, think, client))
    except ImportError:
        stats = asyncio.run(run_tables(base, game, config, seeds, ramp, seconds, think, client))
    stats.client_cpu = time.process_time() - cpu0
    return stats


def run_phase(base: str, args: argparse.Namespace, matches: int, seconds: float, think: float, ramp: float) -> Stats:
    procs = max(1, args.client_procs)
    shares = [[i for i in range(matches) if i % procs == k] for k in range(procs)]
    jobs = [(base, args.game, json.loads(args.config), share, ramp, seconds, think, args.client) for share in shares if share]
    with mp.get_context("spawn").Pool(len(jobs)) as pool:
        results = pool.starmap(client_process, jobs)
    total = Stats()
    for r in results:
        total.merge(r)
    return total


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pct(sorted_values: list[float], q: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(len(sorted_values) * q))] * 1000


def row(db: str, phase: str, matches: int, think_ms: float, seconds: float, stats: Stats, server_cpu: float) -> dict[str, str]:
    lat = sorted(stats.latencies)
    n = max(1, stats.actions)
    return {
        "database": db, "phase": phase, "matches": str(matches), "think ms": f"{think_ms:g}",
        "actions/s": f"{stats.actions / seconds:,.0f}",
        "p50 ms": f"{pct(lat, 0.5):.1f}" if lat else "-", "p90 ms": f"{pct(lat, 0.9):.1f}" if lat else "-",
        "p99 ms": f"{pct(lat, 0.99):.1f}" if lat else "-", "max ms": f"{lat[-1] * 1000:.0f}" if lat else "-",
        "server CPU ms/action": f"{server_cpu / n * 1000:.2f}", "client CPU ms/action": f"{stats.client_cpu / n * 1000:.2f}",
        "matches ended": str(stats.matches_done), "stale/errors": str(stats.errors),
    }


def print_table(rows: list[dict[str, str]]) -> None:
    if not rows:
        return
    cols = list(rows[0])
    width = {c: max(len(c), *(len(r[c]) for r in rows)) for c in cols}
    print("| " + " | ".join(c.ljust(width[c]) for c in cols) + " |")
    print("|" + "|".join("-" * (width[c] + 2) for c in cols) + "|")
    for r in rows:
        print("| " + " | ".join(r[c].rjust(width[c]) for c in cols) + " |")


def bench(database_url: str, label: str, args: argparse.Namespace) -> list[dict[str, str]]:
    port = free_port()
    proc = start_server(database_url, port, args.log_level, args.db_writer)
    rows = []
    try:
        base = f"http://127.0.0.1:{port}"
        run_phase(base, args, 8, 1.5, 0.0, 0.0)  # warm-up (imports, caches): not counted
        phases = [("paced", args.think_ms, args.seconds)]
        if args.max_seconds > 0:
            phases.append(("max", 0.0, args.max_seconds))
        for phase, think_ms, seconds in phases:
            if seconds <= 0:
                continue
            cpu0 = cpu_seconds(proc.pid)
            stats = run_phase(base, args, args.matches, seconds, think_ms / 1000, args.ramp)
            server_cpu = cpu_seconds(proc.pid) - cpu0
            rows.append(row(label, phase, args.matches, think_ms, seconds, stats, server_cpu))
            r = rows[-1]
            print(f"{label} {phase}: {r['actions/s']} actions/s, p50 {r['p50 ms']} ms, p99 {r['p99 ms']} ms "
                  f"(server CPU {r['server CPU ms/action']} ms/action; load average {os.getloadavg()[0]:.1f})", flush=True)
    finally:
        proc.terminate()
        proc.wait(10)
    return rows


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
    p.add_argument("--game", default="arena")
    p.add_argument("--config", default="{}", help="match config as JSON")
    p.add_argument("--pg-url", default=None, help="also run against this PostgreSQL URL if reachable")
    p.add_argument("--log-level", default="warning")
    p.add_argument("--db-writer", default="auto", choices=["auto", "inline", "thread"], help="server's --db-writer")
    args = p.parse_args(argv)
    print(f"machine: {os.cpu_count()} CPU cores, load average {os.getloadavg()[0]:.1f}; python {sys.version.split()[0]}; "
          f"game {args.game}, {args.matches} concurrent matches, {args.client_procs} client process(es)", flush=True)
    rows: list[dict[str, str]] = []
    with tempfile.TemporaryDirectory() as tmp:
        rows += bench(f"sqlite:///{Path(tmp) / 'bench.sqlite3'}", "SQLite (WAL)", args)
    if args.pg_url:
        try:
            from sqlalchemy import create_engine, text

            with create_engine(args.pg_url).connect() as conn:
                conn.execute(text("SELECT 1"))
        except Exception as exc:  # unreachable server or missing driver: report, do not fail
            print(f"PostgreSQL: not reachable ({type(exc).__name__}: {exc}); skipped")
        else:
            rows += bench(args.pg_url, "PostgreSQL", args)
    else:
        print("PostgreSQL: no --pg-url given; skipped")
    print()
    print_table(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
