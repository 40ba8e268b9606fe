"""What the web framework alone costs per action: a relay on the play server's stack (FastAPI, uvicorn with uvloop,
httptools and websockets' sans-I/O protocol, the same garbage-collector settings as ``spacetable serve``) that does
nothing but pass messages, under the shape of load ``bench/server_load.py`` makes: tables of two WebSocket clients,
each action one frame received and two sent (one to each seat).

    .venv/bin/python bench/framework_floor.py                 # 200 tables, 10 s measured
    .venv/bin/python bench/framework_floor.py --tables 100 --seconds 20

It prints the relay server's CPU time per action (``/proc``, every thread) and the actions per second. Beside
``bench/server_load.py --game floor`` (the play server with a game that costs nothing) and ``--game arena``, it
splits a move's cost into the framework's, the server's own and the game's (docs/architecture.md, "Where the time
goes"). The clients run in another process, on loopback only.
"""

import argparse
import asyncio
import gc
import json
import os
import subprocess
import sys
import time
import urllib.request
from typing import Any

#: what a client sends for each action: about the size of a Cosmic Arena move
MESSAGE = '{"type":"act","version":12,"action":{"type":"move","from":"c3","to":"d4"}}'


def serve(port: int) -> None:
    """The relay server (runs in its own process). No ``from __future__ import annotations`` in this file: FastAPI
    reads the routes' annotations, which name the classes imported here."""
    import uvicorn
    from fastapi import FastAPI, WebSocket, WebSocketDisconnect

    app = FastAPI()
    tables: dict[str, list[WebSocket | None]] = {}
    relayed = [0]

    @app.get("/count")
    async def count() -> dict[str, int]:
        return {"relayed": relayed[0]}

    @app.websocket("/ws/{table}")
    async def relay(websocket: WebSocket, table: str, seat: int = 0) -> None:
        await websocket.accept()
        sockets = tables.setdefault(table, [None, None])
        sockets[seat % 2] = websocket
        try:
            while True:
                text = await websocket.receive_text()
                json.loads(text)  # a server reads what it gets
                relayed[0] += 1
                for other in sockets:
                    if other is not None:
                        await other.send_text(text)
        except WebSocketDisconnect:
            sockets[seat % 2] = None

    gc.freeze()
    gc.set_threshold(20_000, 50, 100)
    uvicorn.run(app, host="127.0.0.1", port=port, ws="websockets-sansio", log_level="warning", access_log=False)


def clients(port: int, tables: int, seconds: float) -> None:
    """The tables (run in their own process): each action is sent by the seat to act, read by both seats."""
    from websockets.asyncio.client import connect

    async def table(name: int) -> None:
        seats = [await connect(f"ws://127.0.0.1:{port}/ws/{name}?seat={s}", compression=None) for s in (0, 1)]
        turn = 0
        stop = time.monotonic() + seconds
        await seats[turn].send(MESSAGE)
        while time.monotonic() < stop:
            await seats[0].recv()
            await seats[1].recv()
            turn = 1 - turn
            await seats[turn].send(MESSAGE)
        for s in seats:
            await s.close()

    async def main() -> None:
        await asyncio.gather(*(table(i) for i in range(tables)))

    asyncio.run(main())


def relayed(port: int) -> int:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/count", timeout=10) as r:
        out: dict[str, Any] = json.load(r)
    return int(out["relayed"])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=200, help="tables of two WebSocket clients")
    p.add_argument("--seconds", type=float, default=10.0, help="measured seconds")
    p.add_argument("--ramp", type=float, default=3.0, help="seconds before measuring (connections)")
    p.add_argument("--port", type=int, default=0, help="the relay's port (default: a free one)")
    p.add_argument("--role", choices=["serve", "clients"], help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.role == "serve":
        serve(args.port)
        return 0
    if args.role == "clients":
        clients(args.port, args.tables, args.seconds)
        return 0
    if not sys.platform.startswith("linux"):
        raise SystemExit("framework_floor: reads the server's CPU time from /proc (Linux)")
    from server_load import cpu_seconds  # beside this file

    from spacetable.server.devservers import free_port

    port = args.port or free_port()
    me = [sys.executable, os.path.abspath(__file__), "--port", str(port), "--tables", str(args.tables)]
    server = subprocess.Popen([*me, "--role", "serve"])
    try:
        for _ in range(100):
            try:
                relayed(port)
                break
            except OSError:
                time.sleep(0.1)
        load = subprocess.Popen([*me, "--role", "clients", "--seconds", str(args.ramp + args.seconds + 2)])
        time.sleep(args.ramp)
        cpu0, n0, t0 = cpu_seconds(server.pid), relayed(port), time.monotonic()
        for k in range(10):
            time.sleep(args.seconds / 10)
            print(f"  {k + 1}/10: {relayed(port) - n0:,} actions", flush=True)
        cpu1, n1, t1 = cpu_seconds(server.pid), relayed(port), time.monotonic()
        load.wait(args.seconds + 60)
    finally:
        server.terminate()
        server.wait(10)
    actions = max(1, n1 - n0)
    print(f"\nmachine: {os.cpu_count()} CPU cores, load average {os.getloadavg()[0]:.1f}; {args.tables} tables\n")
    print("| server | actions/s | server CPU ms/action | server CPU share of a core |")
    print("|---|---|---|---|")
    print(f"| FastAPI + uvicorn relay (1 frame in, 2 out) | {actions / (t1 - t0):,.0f} | "
          f"{(cpu1 - cpu0) / actions * 1000:.3f} | {100 * (cpu1 - cpu0) / (t1 - t0):.0f} % |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
