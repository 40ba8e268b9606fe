"""Storage benchmark of the play server (SRV-B1): how many actions per second the database layer itself stores.

N matches each append actions in a closed loop through ``spacetable.server.storage`` (the compare-and-set append
of the action path, nothing else: no game, no sockets), on SQLite (a temporary file, WAL) and on PostgreSQL
(group commit; a server started for the run on loopback, or ``--pg-url``). Prints appends/s, the append's
latency p50/p99 (until its transaction committed), this process's CPU per append and, for either database, the
number of actions per transaction. It isolates the database's share of ``bench/server_load.py``'s figures and
measures an operator's own database (``--pg-url``). ``--think-ms`` paces each match (a random pause between its
appends, as players think) instead of the closed loop; the actions a transaction show how much each database's
group commit gathers under that load.

    .venv/bin/python bench/server_storage.py
    .venv/bin/python bench/server_storage.py --think-ms 150
    .venv/bin/python bench/server_storage.py --matches 1000 --seconds 10 --pg-url postgresql+psycopg://user@host/db

Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import secrets
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from spacetable.server import repo
from spacetable.server.devservers import TempPostgres, postgres_bin
from spacetable.server.storage import Append, Storage, open_storage

ACTION = '{"ship":"b3","to":"d4","type":"move"}'
FIELDS = {"status": "running", "turn_started_at": 1.0, "updated_at": 2.0, "outcome": None, "undo_request": None,
          "to_act": "[1]", "wake_at": None, "owner": "bench"}


def match_row(match_id: str) -> dict[str, Any]:
    return {"id": match_id, "game": "arena", "name": "", "config": "{}", "seed": 1, "status": "running", "version": 0,
            "ai_seconds": 1.0, "turn_seconds": None, "turn_started_at": None, "outcome": None, "undo_request": None,
            "created_at": 0.0, "updated_at": 0.0, "open_seed": False, "to_act": "[0]", "broken": None, "revision": 0,
            "epoch": 0, "owner": None, "wake_at": None}


async def measure(storage: Storage, matches: int, seconds: float, think: float = 0.0) -> dict[str, float]:
    ids = [secrets.token_hex(8) for _ in range(matches)]

    async def add(tx: Any) -> None:
        for i in ids:
            await repo.insert_match(tx, match_row(i), [])

    await storage.write(add)
    latencies: list[float] = []
    end = time.monotonic() + seconds
    cpu0 = time.process_time()
    batches0 = storage.batches
    rng = random.Random(matches)

    async def player(match_id: str) -> None:
        k = 0
        while time.monotonic() < end:
            if think > 0:
                await asyncio.sleep(rng.expovariate(1 / think))
            t = time.perf_counter()
            ok = await storage.append(Append(match_id, k, k % 2, ACTION, "player", time.time(), k, FIELDS))
            if not ok:
                raise RuntimeError("an append lost its compare-and-set: nobody else writes here")
            latencies.append(time.perf_counter() - t)
            k += 1

    await asyncio.gather(*(player(i) for i in ids))
    cpu = time.process_time() - cpu0
    n = len(latencies)
    latencies.sort()
    out = {"appends/s": n / seconds, "p50 ms": latencies[n // 2] * 1000, "p99 ms": latencies[int(n * 0.99)] * 1000,
           "CPU ms/append": cpu / n * 1000}
    out["appends/transaction"] = n / max(1, storage.batches - batches0)
    return out


async def run(url: str, matches: int, seconds: float, think: float = 0.0) -> dict[str, float]:
    storage = open_storage(url)
    storage.migrate()
    await storage.start()
    try:
        return await measure(storage, matches, seconds, think)
    finally:
        await storage.stop()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--matches", type=int, default=200, help="matches appending at once (a closed loop unless --think-ms)")
    p.add_argument("--seconds", type=float, default=5.0)
    p.add_argument("--think-ms", type=float, default=0.0,
                   help="mean pause of a match between two appends (random; 0: a closed loop, the default)")
    p.add_argument("--pg-url", default=None, help="a running PostgreSQL to use (default: one started for the run)")
    args = p.parse_args(argv)
    think = args.think_ms / 1000
    print(f"machine: {os.cpu_count()} CPU cores, load average {os.getloadavg()[0]:.1f}; {args.matches} matches, "
          f"{args.seconds:g} s each, think {args.think_ms:g} ms", flush=True)
    rows: list[tuple[str, dict[str, float]]] = []
    with tempfile.TemporaryDirectory() as tmp:
        rows.append(("SQLite (WAL)", asyncio.run(run(f"sqlite:///{Path(tmp) / 's.sqlite3'}", args.matches, args.seconds,
                                                     think))))
    if args.pg_url:
        rows.append(("PostgreSQL", asyncio.run(run(args.pg_url, args.matches, args.seconds, think))))
    elif postgres_bin() is not None:
        with TempPostgres() as pg:
            rows.append(("PostgreSQL", asyncio.run(run(pg.create_database("bench"), args.matches, args.seconds, think))))
    else:
        print("PostgreSQL: not installed and no --pg-url; skipped")
    cols = ["appends/s", "p50 ms", "p99 ms", "CPU ms/append", "appends/transaction"]
    print("\n| storage | " + " | ".join(cols) + " |")
    print("|---|" + "---:|" * len(cols))
    for label, r in rows:
        print(f"| {label} | " + " | ".join((f"{r[c]:,.3f}" if c.startswith("CPU") else f"{r[c]:,.1f}") if c in r else "-"
                                            for c in cols) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
