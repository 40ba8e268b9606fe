"""``spacetable serve``: start the play server (SRV-CLI).

Defaults: host 127.0.0.1, port 8000, database ``./spacetable.sqlite3`` (SQLite,
created and migrated on first start). ``--database-url`` takes any SQLAlchemy
URL, e.g. ``postgresql+psycopg://user:pw@host/db``.
"""

from __future__ import annotations

import argparse
import gc
import logging
import logging.config
import os
import subprocess
import sys
import time

from .db import default_database_url
from .jsonlog import log_config


def wait_until_healthy(port: int, proc: subprocess.Popen[bytes], seconds: float = 30.0) -> bool:
    """Poll ``/health`` of a server started as ``proc`` on loopback ``port``; kill it and
    return False if it does not answer within ``seconds`` (tests and benchmarks use this)."""
    import httpx

    end = time.time() + seconds
    while time.time() < end:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=1).status_code == 200:
                return True
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    return False


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="spacetable serve", description="Start the spacetable play server (web lobby + API).")
    p.add_argument("--host", default="127.0.0.1", help="interface to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="TCP port (default 8000)")
    p.add_argument("--database-url", default=os.environ.get("SPACETABLE_DATABASE_URL"),
                   help="SQLAlchemy database URL (default: sqlite file ./spacetable.sqlite3)")
    p.add_argument("--log-level", default="info", choices=["debug", "info", "warning", "error"], help="log level (default info)")
    p.add_argument("--ai-workers", type=int, default=1, help="processes for AI seats (0: threads inside the server)")
    p.add_argument("--db-writer", default="auto", choices=["auto", "inline", "thread"],
                   help="write on the event loop (inline) or in a writer thread; auto: inline for SQLite")
    return p.parse_args(argv)


def tune_gc() -> None:
    """SRV-B1: fewer, cheaper garbage collections on the action path. Every action allocates a new game
    state (many small containers), which with the default thresholds triggers frequent collections whose
    full passes over the long-lived heap (imported modules, loaded matches) show up as latency spikes.
    Everything alive at start-up is frozen out of the collector and the young generation is collected
    less often; reference counting still frees almost everything at once."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 50, 100)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(list(sys.argv[1:] if argv is None else argv))
    import uvicorn

    from .app import create_app

    cfg = log_config(args.log_level)
    logging.config.dictConfig(cfg)
    url = args.database_url or default_database_url()
    app = create_app(url, ai_workers=args.ai_workers, db_writer=args.db_writer)
    shown = "localhost" if args.host in ("127.0.0.1", "0.0.0.0", "::") else args.host
    print(f"spacetable server: http://{shown}:{args.port}/  (database {url.split('@')[-1]})", flush=True)
    tune_gc()
    # uvicorn picks uvloop and httptools by itself when they are installed ("auto")
    uvicorn.run(app, host=args.host, port=args.port, log_config=cfg, log_level=args.log_level, ws="websockets-sansio")
    return 0


if __name__ == "__main__":
    sys.exit(main())
