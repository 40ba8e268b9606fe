"""Notification fan-out benchmark (issue 21): ``--events`` "your turn" events, each for its own account with one Web
Push subscription and e-mail on, stored and delivered by one process's :class:`Notifier` to a push service and an
SMTP server on loopback (the test push service checks every VAPID signature and decrypts every payload, as a real
push service and browser would; aiosmtpd receives every mail).

Prints the time to store the events (one transaction per batch of 500), the time until every push and mail was
delivered, and deliveries per second. Target (issue 21): 10,000 events under 60 s with one process. The database
is a SQLite file in a temporary folder unless ``--database-url`` names another. Figures are printed, never asserted.

    .venv/bin/python bench/callback.py                  # 10,000 events
    .venv/bin/python bench/callback.py --events 1000    # a quicker run

Not measured here (not built): the chat load figure of the issue (1,000 connected users, 200 chatting while 200
matches play, act p99 with and without chat).
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from aiosmtpd.controller import Controller  # noqa: E402
from sqlalchemy import text  # noqa: E402

from spacetable.server.db import make_engine, run_migrations  # noqa: E402
from spacetable.server.mail import Mailer, SmtpRelay  # noqa: E402
from spacetable.server.notify import Contact, Event, Notifier, NotifyConfig, push, store  # noqa: E402
from tests.server.pushservice import PushService  # noqa: E402


class Count:
    def __init__(self) -> None:
        self.n = 0

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.n += 1
        return "250 OK"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--events", type=int, default=10_000)
    ap.add_argument("--database-url")
    ap.add_argument("--concurrency", type=int, default=16)
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="callback-bench-")
    url = args.database_url or f"sqlite:///{tmp}/bench.sqlite3"
    engine = make_engine(url)
    run_migrations(engine)
    ps = PushService().start()
    box = Count()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    smtp = Controller(box, hostname="127.0.0.1", port=port)
    smtp.start()
    accounts = [f"a{i}" for i in range(args.events)]
    sub = ps.subscribe().info()  # one push service subscription, registered for every account (one row each)
    t0 = time.perf_counter()
    with engine.begin() as conn:
        for i, acc in enumerate(accounts):
            conn.execute(text("INSERT INTO push_subscriptions (id, account_id, endpoint, endpoint_hash, p256dh, auth, "
                              "created_at) VALUES (:i, :a, :e, :h, :p, :k, 0)"),
                         {"i": f"s{i}", "a": acc, "e": sub["endpoint"], "h": f"{i:064d}", "p": sub["keys"]["p256dh"],
                          "k": sub["keys"]["auth"]})
            conn.execute(text("INSERT INTO notify_settings (account_id, quiet_minutes) VALUES (:a, 0)"), {"a": acc})
            conn.execute(text("INSERT INTO matches (id, game, name, config, seed, status, version, ai_seconds, "
                              "created_at, updated_at, open_seed, to_act, revision, epoch) VALUES (:m, 'arena', '', '{}', "
                              "1, 'running', 1, 1.0, 0, 0, false, '[0]', 0, 0)"), {"m": f"m{i}"})
    print(f"set-up: {args.events} accounts, subscriptions and matches in {time.perf_counter() - t0:.1f} s")
    contacts = {a: Contact(f"{a}@example.org", "en") for a in accounts}
    notifier = Notifier(engine, NotifyConfig(public_url="https://tables.example.org", push_allow_insecure_loopback=True,
                                             batch=200, concurrency=args.concurrency),
                        contacts.get, Mailer(SmtpRelay("127.0.0.1", port), "table@example.org"))

    async def run() -> tuple[float, float]:
        notifier.vapid = await asyncio.to_thread(push.Vapid.load, engine)
        start = time.perf_counter()
        events = [Event(a, "your_turn", f"m{i}:0:1", {"match": f"m{i}", "seat": 0, "game": "arena", "name": f"m{i}"},
                        correspondence=True) for i, a in enumerate(accounts)]
        for k in range(0, len(events), 500):
            await notifier.emit(events[k:k + 500])
        stored = time.perf_counter() - start
        while await notifier.round():
            pass
        return stored, time.perf_counter() - start

    stored, total = asyncio.run(run())
    smtp.stop()
    ps.stop()
    counts = store.counts(engine)
    n = args.events
    print(f"stored {n} events ({2 * n} deliveries) in {stored:.1f} s")
    print(f"delivered: {len(ps.received)} pushes (rejected {len(ps.rejected)}), {box.n} mails; outbox {counts}")
    print(f"fan-out of {n} 'your turn' events: {total:.1f} s in all ({2 * n / total:.0f} deliveries/s); target: under 60 s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
