"""``spacetable moderate``: the operator reviews chat reports and suspends accounts (issue 21).

    spacetable moderate [--database-url URL] reports [--status open|dismissed|hidden]
    spacetable moderate hide REPORT        # hide the reported message (closes its reports)
    spacetable moderate dismiss REPORT     # keep the message, close the report
    spacetable moderate suspend ACCOUNT --days N [--reason TEXT]   # no chat, challenges or seeks until then
    spacetable moderate unsuspend ACCOUNT

The database is ``--database-url`` or ``SPACETABLE_DATABASE_URL`` (default: ``spacetable.sqlite3`` here), as for
``spacetable serve``. Messages are shown as plain text (control characters already removed when written).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import sys

from ..db import default_database_url, make_engine, run_migrations
from .service import ChatService, quick_text


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="spacetable moderate", description="Review chat reports and suspend accounts.")
    p.add_argument("--database-url", default=os.environ.get("SPACETABLE_DATABASE_URL"),
                   help="the server's database (default: SPACETABLE_DATABASE_URL, else spacetable.sqlite3)")
    sub = p.add_subparsers(dest="what", required=True, metavar="COMMAND")
    r = sub.add_parser("reports", help="list reports")
    r.add_argument("--status", choices=["open", "dismissed", "hidden"], default="open")
    r.add_argument("--limit", type=int, default=50)
    for name, text in (("hide", "hide the reported message"), ("dismiss", "close the report, keep the message")):
        s = sub.add_parser(name, help=text)
        s.add_argument("report", type=int)
    s = sub.add_parser("suspend", help="suspend an account (no chat, challenges or seeks)")
    s.add_argument("account")
    s.add_argument("--days", type=float, required=True)
    s.add_argument("--reason", default="")
    s = sub.add_parser("unsuspend", help="lift a suspension")
    s.add_argument("account")
    return p


def main(argv: list[str]) -> int:
    ns = build_parser().parse_args(argv)
    engine = make_engine(ns.database_url or default_database_url())
    run_migrations(engine)
    chat = ChatService(engine)
    try:
        if ns.what == "reports":
            rows = chat.reports(ns.status, ns.limit)
            for r in rows:
                when = dt.datetime.fromtimestamp(r["created_at"], dt.UTC).strftime("%Y-%m-%d %H:%M")
                text = quick_text(r["quick"], "en") if r["quick"] else r["text"]
                who = f"account {r['account_id']}" if r["account_id"] else "a seat"
                print(f"#{r['id']}  {when}  match {r['match_id']}  {r['name']!r} ({who})  reported by {r['reporter']}")
                print(f"    message: {text!r}")
                if r["reason"]:
                    print(f"    reason:  {r['reason']!r}")
            print(f"{len(rows)} {ns.status} report(s)")
        elif ns.what in ("hide", "dismiss"):
            if not chat.resolve(ns.report, hide=ns.what == "hide"):
                print(f"no report #{ns.report}", file=sys.stderr)
                return 1
            print(f"report #{ns.report}: {'message hidden' if ns.what == 'hide' else 'dismissed'}")
        elif ns.what == "suspend":
            if ns.days <= 0:
                print("--days must be above 0 (unsuspend lifts a suspension)", file=sys.stderr)
                return 2
            chat.suspend(ns.account, ns.days, ns.reason)
            print(f"account {ns.account} suspended for {ns.days:g} day(s)")
        elif ns.what == "unsuspend":
            chat.suspend(ns.account, 0)
            print(f"account {ns.account}: no suspension")
    finally:
        engine.dispose()
    return 0
