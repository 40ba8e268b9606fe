"""CPU per rate-limited request of the in-process moving-window limiter (issue 26: the hot path).

Compares the ``limits`` library's asyncio in-memory store (which hops to a worker thread once per key on each of
its expiry passes, run again after every hit) with the server's :class:`spacetable.server.limits.LocalWindow` (the
library's synchronous in-memory store and strategy called from the event loop). Each request is counted against two
rules (the shape of ``--rate-act``), by 10 or 1,000 clients, with a pause every ten requests as a served load has.
``--redis`` adds the shared store the server uses with ``--redis-url`` (the library's Redis moving window, a
``redis-server`` started for the run on loopback, or ``--redis-url URL``): the CPU it costs the server's process per
request is why moves (``act``) are counted in each process's memory (``LOCAL_KINDS`` in
``spacetable/server/limits.py``). Figures are printed, never asserted::

    .venv/bin/python bench/limits_store.py
    .venv/bin/python bench/limits_store.py --requests 20000
    .venv/bin/python bench/limits_store.py --redis
"""

from __future__ import annotations

import argparse
import asyncio
import time
from collections.abc import Callable
from typing import Any

from limits import parse_many
from limits.aio import storage, strategies

from spacetable.server.limits import LocalWindow, window_limiter

RULES = "20/second;600/minute"


async def measure(make: Callable[[], Any], clients: int, requests: int) -> tuple[float, float]:
    """CPU microseconds (every thread of the process) and wall seconds for ``requests`` requests."""
    limiter = make()  # in the event loop: the asyncio store starts its expiry task when made
    rules = parse_many(RULES)
    cpu, wall = time.process_time(), time.perf_counter()
    for i in range(requests):
        for rule in rules:
            await limiter.hit(rule, "act", f"client{i % clients}")
        if i % 10 == 0:
            await asyncio.sleep(0.001)
    return (time.process_time() - cpu) / requests * 1e6, time.perf_counter() - wall


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--requests", type=int, default=5000, help="requests per measurement")
    p.add_argument("--redis", action="store_true", help="also the shared store in Redis (a redis-server for the run)")
    p.add_argument("--redis-url", default=None, help="--redis: a running Redis to use")
    args = p.parse_args(argv)
    print(f"rules {RULES}, {args.requests} requests per row\n")
    print("| store | clients | CPU µs per request | wall s |")
    print("|---|---|---|---|")
    makers: dict[str, Callable[[], Any]] = {
        "limits asyncio MemoryStorage": lambda: strategies.MovingWindowRateLimiter(storage.MemoryStorage()),
        "LocalWindow (the server's)": LocalWindow}
    redis = None
    if args.redis or args.redis_url:
        url = args.redis_url
        if url is None:
            from spacetable.server.devservers import TempRedis

            redis = TempRedis().start()
            url = redis.url
        makers["Redis moving window (shared, --redis-url)"] = lambda: window_limiter(url, "bench-limits")
    try:
        for name, make in makers.items():
            for clients in (10, 1000):
                us, wall = asyncio.run(measure(make, clients, args.requests))
                print(f"| {name} | {clients:,} | {us:,.0f} | {wall:.1f} |")
    finally:
        if redis is not None:
            redis.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
