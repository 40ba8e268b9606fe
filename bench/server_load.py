"""Load benchmark of the play server (SRV-B1): N concurrent matches, each with one WebSocket client per
seat on loopback (127.0.0.1 only), playing random legal actions as fast as the server answers; new
matches start as old ones end. Prints actions/s and p50/p99 action latency (send -> own event back).

    .venv/bin/python bench/server_load.py                      # SQLite (temporary file, WAL)
    .venv/bin/python bench/server_load.py --matches 50 --seconds 10 --game tremble
    .venv/bin/python bench/server_load.py --think-ms 150   # players who pause: latency at a given load
    .venv/bin/python bench/server_load.py --pg-url postgresql+psycopg://user:pw@127.0.0.1/spacetable

The server runs in its own process (``spacetable serve``), so client and server share the machine's cores.
Target on the 2-core development machine with SQLite: >= 1,000 actions/s, p99 < 50 ms, 200 matches.
Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

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
           "--database-url", database_url, "--log-level", log_level, "--ai-workers", "0", "--db-writer", db_writer]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL)
    end = time.time() + 30
    while time.time() < end:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("server did not start")


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.actions = 0
        self.matches_done = 0
        self.errors = 0


async def seat_client(ws_url: str, seat: int, stats: Stats, rng: random.Random, stop_at: float, done: asyncio.Event,
                      think: float) -> None:
    async with connect(ws_url, max_size=None, compression=None) as ws:
        pending: tuple[int, float] | None = None
        async for raw in ws:
            msg = json.loads(raw)
            kind = msg["type"]
            if kind == "error":
                stats.errors += 1
                pending = None
                if msg["error"].get("code") != "stale_version":
                    raise RuntimeError(msg["error"])
            elif kind == "event" and pending is not None and msg["version"] >= pending[0] and msg["last"]["seat"] == seat:
                stats.latencies.append(time.perf_counter() - pending[1])
                stats.actions += 1
                pending = None
            if not msg.get("to_act") or done.is_set():
                done.set()
                return
            if pending is None and seat in msg.get("to_act", []) and msg.get("legal") and time.time() < stop_at:
                action = rng.choice(calm_actions(msg["view"], msg["legal"]))
                if think:
                    await asyncio.sleep(rng.uniform(0.5, 1.5) * think)
                pending = (msg["version"] + 1, time.perf_counter())
                await ws.send(json.dumps({"type": "action", "version": msg["version"], "action": action}))
            elif time.time() >= stop_at and pending is None:
                done.set()
                return


async def post(http: httpx.AsyncClient, url: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST with a retry when a kept-alive connection was closed by the server meanwhile."""
    for attempt in range(3):
        try:
            r = await http.post(url, json=body)
            r.raise_for_status()
            data: dict[str, Any] = r.json()
            return data
        except (httpx.ReadError, httpx.RemoteProtocolError):
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


async def table(base: str, game: str, config: dict[str, Any], stats: Stats, seed: int, stop_at: float,
                http: httpx.AsyncClient, think: float) -> None:
    rng = random.Random(seed)
    ws_base = base.replace("http://", "ws://")
    while time.time() < stop_at:
        data = await post(http, "/api/matches", {"game": game, "config": config, "seed": rng.randrange(2**40), "join_seat": 0})
        mid, n = data["match"]["id"], len(data["match"]["seats"])
        tokens = [data["token"]]
        for s in range(1, n):
            tokens.append((await post(http, f"/api/matches/{mid}/seats/{s}/join", {}))["token"])
        done = asyncio.Event()
        tasks = [asyncio.create_task(seat_client(f"{ws_base}/ws/matches/{mid}?seat={s}&token={tokens[s]}", s, stats,
                                                 random.Random(rng.random()), stop_at, done, think)) for s in range(n)]
        finished, waiting = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        done.set()  # the match is over, or time is up: the other seats stop listening
        for task in waiting:
            task.cancel()
        await asyncio.gather(*waiting, return_exceptions=True)
        for task in finished:
            task.result()  # re-raise a client's error
        stats.matches_done += 1


async def run_load(base: str, game: str, config: dict[str, Any], matches: int, seconds: float, think: float = 0.0) -> Stats:
    stats = Stats()
    limits = httpx.Limits(max_connections=64)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:
        stop_at = time.time() + seconds
        t0 = time.perf_counter()
        await asyncio.gather(*(table(base, game, config, stats, i, stop_at, http, think) for i in range(matches)))
        stats.elapsed = time.perf_counter() - t0  # type: ignore[attr-defined]
    return stats


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def report(label: str, stats: Stats, seconds: float, server_cpu: float, client_cpu: float) -> None:
    lat = sorted(stats.latencies)
    if not lat:
        print(f"{label}: no action completed")
        return
    p50 = lat[len(lat) // 2] * 1000
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000
    print(f"{label}: {stats.actions} actions in {seconds:.1f} s = {stats.actions / seconds:,.0f} actions/s; "
          f"latency p50 {p50:.1f} ms, p99 {p99:.1f} ms, mean {statistics.fmean(lat) * 1000:.1f} ms; "
          f"matches finished {stats.matches_done}; stale/errors {stats.errors}")
    per = server_cpu / stats.actions * 1000
    print(f"  server CPU {server_cpu:.1f} s ({per:.2f} ms per action, so about {1000 / per:,.0f} actions/s per fully used core); "
          f"client CPU {client_cpu:.1f} s; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


def bench(database_url: str, label: str, args: argparse.Namespace) -> None:
    port = free_port()
    proc = start_server(database_url, port, args.log_level, args.db_writer)
    try:
        base = f"http://127.0.0.1:{port}"
        asyncio.run(run_load(base, args.game, json.loads(args.config), 4, 1.5))  # warm-up (imports, caches): not counted
        cpu0, own0 = cpu_seconds(proc.pid), time.process_time()
        stats = asyncio.run(run_load(base, args.game, json.loads(args.config), args.matches, args.seconds, args.think_ms / 1000))
        cpu1, own1 = cpu_seconds(proc.pid), time.process_time()
        pace = f", think {args.think_ms:g} ms" if args.think_ms else ", no think time"
        title = f"{label} ({args.game}, {args.matches} concurrent matches{pace}, db writer {args.db_writer})"
        report(title, stats, args.seconds, cpu1 - cpu0, own1 - own0)
    finally:
        proc.terminate()
        proc.wait(10)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--matches", type=int, default=200, help="concurrent matches (one WebSocket client per seat)")
    p.add_argument("--seconds", type=float, default=15.0, help="measurement time")
    p.add_argument("--game", default="arena")
    p.add_argument("--config", default="{}", help="match config as JSON")
    p.add_argument("--pg-url", default=None, help="also run against this PostgreSQL URL if reachable")
    p.add_argument("--think-ms", type=float, default=0.0,
                   help="mean pause before each action (0: send at once; a closed loop then measures queueing, not service)")
    p.add_argument("--log-level", default="warning")
    p.add_argument("--db-writer", default="auto", choices=["auto", "inline", "thread"], help="server's --db-writer")
    args = p.parse_args(argv)
    print(f"machine: {os.cpu_count()} CPU cores; python {sys.version.split()[0]}")
    with tempfile.TemporaryDirectory() as tmp:
        bench(f"sqlite:///{Path(tmp) / 'bench.sqlite3'}", "SQLite (WAL)", args)
    if args.pg_url:
        try:
            from sqlalchemy import create_engine, text

            with create_engine(args.pg_url).connect() as conn:
                conn.execute(text("SELECT 1"))
        except Exception as exc:  # unreachable server or missing driver: report, do not fail
            print(f"PostgreSQL: not reachable ({type(exc).__name__}: {exc}); skipped")
        else:
            bench(args.pg_url, "PostgreSQL", args)
    else:
        print("PostgreSQL: no --pg-url given; skipped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
