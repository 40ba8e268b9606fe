"""Accounts benchmark (issue 20): a PostgreSQL database with ``--accounts`` accounts and ``--matches`` finished rated
matches (their results, ratings and rating history computed with OpenSkill as the server does), then the server
time of the account pages and of counting a finished match:

* ``profile``: ``GET /api/players/{username}`` (ratings and statistics per game and seat);
* ``history``: ``GET /api/players/{username}/history`` (a 50-row page with every seat's name);
* ``leaderboard``: ``GET /api/leaderboard/{game}`` (a 50-row page, at a random offset in the first 2,000);
* ``count``: ``RatingKeeper.count`` of one finished rated match (results, OpenSkill update, rating history, in one
  transaction), measured inside the server process.

The pages are requested through the real app in-process (FastAPI routing, validation and the JSON answer included;
no socket). PostgreSQL is started on loopback in a temporary folder (``spacetable.server.devservers``) unless
``--pg-url`` names a running one. Figures are printed, never asserted. Targets (issue 20): p99 under 50 ms for
each page, a rating update under 5 ms.

    .venv/bin/python bench/accounts.py                                   # 10,000 accounts, 100,000 matches
    .venv/bin/python bench/accounts.py --accounts 2000 --matches 20000   # a quicker run
"""

from __future__ import annotations

import argparse
import json
import random
import secrets
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fastapi.testclient import TestClient

from spacetable.server.accounts.ratings import ordinal, rate
from spacetable.server.app import create_app
from spacetable.server.devservers import TempPostgres
from spacetable.server.limits import Limits
from spacetable.server.storage import conninfo

GAMES = ("arena", "worlds", "fullmetal", "tremble", "galaxies")
MATCH_COLUMNS = ("id", "game", "name", "config", "seed", "status", "version", "ai_seconds", "turn_seconds",
                 "turn_started_at", "outcome", "undo_request", "created_at", "updated_at", "open_seed", "to_act", "broken",
                 "revision", "epoch", "owner", "wake_at")


def copy(conn: Any, table: str, columns: tuple[str, ...], rows: list[tuple[Any, ...]]) -> None:
    with conn.cursor().copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as cp:
        for row in rows:
            cp.write_row(row)


def seed(url: str, accounts: int, matches: int, rng: random.Random) -> list[str]:
    """Accounts, finished rated 2-seat matches, their seats, results, ratings and history; the usernames."""
    import psycopg

    names = [f"player{i:05d}" for i in range(accounts)]
    ids = [secrets.token_hex(12) for _ in range(accounts)]
    t0 = time.time() - 86400 * 365
    acc_rows = [(ids[i], names[i], names[i], f"Player {i}", None, None, False, None, None, None, "en", t0)
                for i in range(accounts)]
    ratings: dict[tuple[int, str], tuple[float, float, int]] = {}
    match_rows, seat_rows, bound_rows, am_rows, result_rows, hist_rows = [], [], [], [], [], []
    for k in range(matches):
        game = GAMES[k % len(GAMES)]
        a, b = rng.sample(range(accounts), 2)
        winner = rng.randrange(2)
        t = t0 + k * 300.0
        mid = f"b{k:011d}"
        outcome = {"scores": [1.0 if s == winner else 0.0 for s in (0, 1)], "winners": [winner], "kind": "resignation",
                   "ranking": [winner, 1 - winner], "details": {}}
        match_rows.append((mid, game, f"Match {k}", "{}", k, "finished", 20, 1.0, None, t, json.dumps(outcome), None,
                           t - 1200, t, False, "[]", None, 21, 0, None, None))
        before = {s: ratings.get((p, game), (25.0, 25 / 3, 0)) for s, p in enumerate((a, b))}
        after = rate({s: (v[0], v[1]) for s, v in before.items()}, [0, 1], [0 if s == winner else 1 for s in (0, 1)])
        for s, p in enumerate((a, b)):
            seat_rows.append((mid, s, "human", f"Player {p}", None, None))
            bound_rows.append((mid, s, ids[p], t - 1200))
            mu, sigma = after[s]
            games = before[s][2] + 1
            ratings[(p, game)] = (mu, sigma, games)
            hist_rows.append((ids[p], game, mid, mu, sigma, t))
            result_rows.append((ids[p], mid, s, game, "win" if s == winner else "loss", True,
                                ordinal(mu, sigma) - ordinal(before[s][0], before[s][1]), t))
        am_rows.append((mid, game, True, "counted", t - 1200, t))
    rating_rows = [(ids[p], g, mu, sigma, ordinal(mu, sigma), n, t0) for (p, g), (mu, sigma, n) in ratings.items()]
    with psycopg.connect(conninfo(url)) as conn:
        copy(conn, "accounts", ("id", "username", "username_key", "display_name", "email", "email_key", "email_verified",
                                "password_hash", "totp_secret", "totp_pending", "lang", "created_at"), acc_rows)
        copy(conn, "matches", MATCH_COLUMNS, match_rows)
        copy(conn, "seats", ("match_id", "seat", "kind", "name", "token_hash", "agent"), seat_rows)
        copy(conn, "account_seats", ("match_id", "seat", "account_id", "created_at"), bound_rows)
        copy(conn, "account_matches", ("match_id", "game", "rated", "state", "created_at", "done_at"), am_rows)
        copy(conn, "account_results", ("account_id", "match_id", "seat", "game", "result", "rated", "delta",
                                       "finished_at"), result_rows)
        copy(conn, "ratings", ("account_id", "game", "mu", "sigma", "ordinal", "games", "updated_at"), rating_rows)
        copy(conn, "rating_history", ("account_id", "game", "match_id", "mu", "sigma", "at"), hist_rows)
        conn.execute("ANALYZE")
    return names


def new_finished(url: str, names: list[str], n: int, rng: random.Random) -> list[str]:
    """``n`` finished arena matches between two accounts, waiting to be counted (both seats moved)."""
    import psycopg

    with psycopg.connect(conninfo(url)) as conn:
        ids = {r[1]: r[0] for r in conn.execute("SELECT id, username FROM accounts").fetchall()}
        out, matches, seats, bound, am, actions = [], [], [], [], [], []
        t = time.time()
        for k in range(n):
            a, b = rng.sample(names, 2)
            mid = f"n{k:011d}"
            outcome = {"scores": [1.0, 0.0], "winners": [0], "kind": "resignation", "ranking": [0, 1], "details": {}}
            matches.append((mid, "arena", "", json.dumps({"red_seat": 0}), k, "finished", 2, 1.0, None, t,
                            json.dumps(outcome), None, t, t, False, "[]", None, 3, 0, None, None))
            for s, p in enumerate((a, b)):
                seats.append((mid, s, "human", p, None, None))
                bound.append((mid, s, ids[p], t))
                actions.append((mid, s, s, '{"type":"resign"}', "player", t))
            am.append((mid, "arena", True, "pending", t, None))
            out.append(mid)
        copy(conn, "matches", MATCH_COLUMNS, matches)
        copy(conn, "seats", ("match_id", "seat", "kind", "name", "token_hash", "agent"), seats)
        copy(conn, "account_seats", ("match_id", "seat", "account_id", "created_at"), bound)
        copy(conn, "account_matches", ("match_id", "game", "rated", "state", "created_at", "done_at"), am)
        copy(conn, "actions", ("match_id", "idx", "seat", "action", "source", "created_at"), actions)
    return out


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, round(p / 100 * (len(s) - 1)))]


def line(name: str, ms: list[float]) -> str:
    return (f"{name:<12} {len(ms):>6} {statistics.median(ms):>8.2f} {pct(ms, 90):>8.2f} {pct(ms, 99):>8.2f} "
            f"{max(ms):>8.2f}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--accounts", type=int, default=10_000)
    ap.add_argument("--matches", type=int, default=100_000)
    ap.add_argument("--samples", type=int, default=400, help="requests per page kind (default 400)")
    ap.add_argument("--counts", type=int, default=300, help="finished matches to count (default 300)")
    ap.add_argument("--pg-url", help="a running PostgreSQL's empty database (default: a temporary server)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    pg = None
    if args.pg_url:
        url = args.pg_url
    else:
        pg = TempPostgres().start()
        url = pg.create_database()
    try:
        limits = Limits(rate_create=None, rate_join=None, rate_act=None, rate_account=None)
        app = create_app(url, ai_workers=0, limits=limits)
        with TestClient(app) as client:
            keeper = app.state.ratings
            client.portal.call(keeper.stop)  # the bench counts matches itself
            t = time.perf_counter()
            names = seed(url, args.accounts, args.matches, rng)
            print(f"seeded {args.accounts:,} accounts and {args.matches:,} rated matches in "
                  f"{time.perf_counter() - t:.1f} s (PostgreSQL)", flush=True)
            pages: dict[str, list[float]] = {"profile": [], "history": [], "leaderboard": []}
            for i in range(args.samples):
                for kind in pages:
                    if kind == "profile":
                        path = f"/api/players/{rng.choice(names)}"
                    elif kind == "history":
                        path = f"/api/players/{rng.choice(names)}/history?limit=50"
                    else:
                        path = f"/api/leaderboard/{rng.choice(GAMES)}?limit=50&offset={rng.randrange(0, 2000)}"
                    t = time.perf_counter()
                    r = client.get(path)
                    elapsed = (time.perf_counter() - t) * 1000
                    assert r.status_code == 200, r.text
                    if i >= 10:  # warm-up
                        pages[kind].append(elapsed)
            mids = new_finished(url, names, args.counts, rng)

            async def count_one(mid: str) -> float:
                rows = await keeper.accounts.read(
                    "SELECT am.match_id, am.rated, m.game, m.config, m.seed, m.outcome, m.updated_at "
                    "FROM account_matches am JOIN matches m ON m.id = am.match_id WHERE am.match_id = :m", m=mid)
                t0 = time.perf_counter()
                state = await keeper.count(rows[0])
                assert state == "counted", state
                return (time.perf_counter() - t0) * 1000

            counts = [client.portal.call(count_one, mid) for mid in mids]
        print(f"\n{'what':<12} {'n':>6} {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8} {'max ms':>8}")
        for kind, ms in pages.items():
            print(line(kind, ms))
        print(line("count", counts))
        print("\ntargets: each page p99 < 50 ms; count (rating update per finished match) < 5 ms")
    finally:
        if pg is not None:
            pg.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())

