"""What a match's set-up costs the play server: the lobby's two requests and the two seats' sockets, apart.

In ``bench/server_load.py``'s Cosmic Arena load a table sets up a new match every 28 actions or so, and a set-up is
a fifth to a quarter of the server's CPU per action (docs/architecture.md, "Where the time goes"). This bench
measures it alone, one step after the other on one kept-alive connection, with nothing else running:

* **requests**: ``POST /api/matches`` (seat 0 taken) and ``POST /api/matches/{id}/seats/1/join``, N times;
* **sockets**: for each of those matches, seat 0's and seat 1's WebSocket: the handshake, ``{"type": "auth"}``, the
  first snapshot, the close.

It prints the server's CPU time per set-up for each part (``/proc``, every thread), and the part of it spent in the
process's other threads (worker threads: a thread hop on the way costs the event loop too).

    .venv/bin/python bench/server_setup.py                        # Cosmic Arena, 1,500 set-ups
    .venv/bin/python bench/server_setup.py --game worlds --count 300
    .venv/bin/python bench/server_setup.py --against /tmp/before --repeat 3   # another checkout, runs alternating

The server runs in its own process (``spacetable serve`` on a temporary SQLite file, the rate limits out of reach,
as ``server_load.py`` starts it); the client in this one, on loopback.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from websockets.asyncio.client import connect

from bench.server_load import Http, machine, start_server
from spacetable.server.devservers import free_port

TICK = os.sysconf("SC_CLK_TCK")


def threads_cpu(pid: int) -> tuple[float, float]:
    """The process's CPU seconds: its main thread's, and all its other threads' together."""
    main = other = 0.0
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            fields = Path(f"/proc/{pid}/task/{tid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # a thread that ended meanwhile
            continue
        seconds = (int(fields[11]) + int(fields[12])) / TICK
        if int(tid) == pid:
            main += seconds
        else:
            other += seconds
    return main, other


async def measure(port: int, pid: int, game: str, count: int) -> dict[str, tuple[float, float]]:
    http = Http("127.0.0.1", port, None)

    async def set_up(seed: int) -> tuple[str, list[str]]:
        new = {"game": game, "config": {}, "seed": seed, "open_seed": True, "join_seat": 0}
        data = await http.post("/api/matches", new)
        mid, tokens = data["match"]["id"], [data["token"]]
        for s in range(1, len(data["match"]["seats"])):
            tokens.append((await http.post(f"/api/matches/{mid}/seats/{s}/join", {}))["token"])
        return mid, tokens

    async def sockets(mid: str, tokens: list[str]) -> None:
        for seat, token in enumerate(tokens):
            async with connect(f"ws://127.0.0.1:{port}/ws/matches/{mid}?seat={seat}", compression=None) as ws:
                await ws.send(json.dumps({"type": "auth", "token": token}))
                json.loads(await ws.recv())

    warm = [await set_up(seed) for seed in range(min(50, count))]
    for mid, tokens in warm:
        await sockets(mid, tokens)
    out: dict[str, tuple[float, float]] = {}
    before = threads_cpu(pid)
    tables = [await set_up(1000 + seed) for seed in range(count)]
    after = threads_cpu(pid)
    out["requests"] = ((after[0] - before[0]) / count, (after[1] - before[1]) / count)
    before = after
    for mid, tokens in tables:
        await sockets(mid, tokens)
    after = threads_cpu(pid)
    out["sockets"] = ((after[0] - before[0]) / count, (after[1] - before[1]) / count)
    await http.close()
    return out


def run(root: Path | None, game: str, count: int) -> dict[str, tuple[float, float]]:
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        proc = start_server(f"sqlite:///{folder}/db.sqlite3", port, "warning", metered=False, root=root)
        try:
            return asyncio.run(measure(port, proc.pid, game, count))
        finally:
            proc.terminate()
            proc.wait(30)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", default="arena")
    p.add_argument("--count", type=int, default=1500, help="set-ups measured (after 50 of warm-up)")
    p.add_argument("--repeat", type=int, default=1)
    p.add_argument("--against", default=None, metavar="DIR", help="another checkout of spacetable, run alternately")
    args = p.parse_args()
    if args.count < 1 or args.repeat < 1:
        p.error("--count and --repeat are at least 1")
    print(f"machine: {machine()}; {args.game}, {args.count} set-ups a run")
    sides: list[tuple[str, Path | None]] = [("this checkout", None)]
    if args.against:
        sides.insert(0, ("before", Path(args.against).resolve()))
    print("| code | run | requests ms | of which other threads | sockets ms | of which other threads | set-up ms |")
    print("|---|---|---|---|---|---|---|")
    for k in range(args.repeat):
        for label, root in sides:
            got = run(root, args.game, args.count)
            (rq, rq_other), (sk, sk_other) = got["requests"], got["sockets"]
            total = rq + rq_other + sk + sk_other
            print(f"| {label} | {k + 1} | {1000 * (rq + rq_other):.2f} | {1000 * rq_other:.2f} | "
                  f"{1000 * (sk + sk_other):.2f} | {1000 * sk_other:.2f} | {1000 * total:.2f} |", flush=True)


if __name__ == "__main__":
    main()
