"""``spacetable serve``: start the play server (SRV-CLI).

Defaults: host 127.0.0.1, port 8000, database ``./spacetable.sqlite3`` (SQLite,
created and migrated on first start). ``--database-url`` takes any SQLAlchemy
URL, e.g. ``postgresql+psycopg://user:pw@host/db``. Every bound of the server
(``limits.Limits``) has a flag; ``--data-dir`` names the operator's data catalogue.

Several processes (SRV-X1..X4): ``--workers N`` starts N processes on one port (uvicorn's supervisor
restarts a worker that dies), or run ``spacetable serve`` several times behind a proxy; either way they
share the database and a Redis server (``--redis-url``), which carries every match's changes to the
processes holding it and the shared rate limits.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import errno
import json
import logging
import logging.config
import os
import socket
import subprocess
import sys
import time
from typing import Any

from spacetable.core import catalog

from . import collector, meter
from .db import default_database_url
from .http import GUARDS_ENV, guard_settings, guarded_protocol
from .jsonlog import log_config
from .limits import Limits, check_rate
from .storage import COMMIT_WINDOW


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


def _rate(text: str) -> str | None:
    try:
        return check_rate(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a rate limit: {text!r} (e.g. 20/minute;200/hour, or none)") from None


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"port {port} is out of range: a TCP port is in 1..65535")
    return port


def _commit_window(text: str) -> float:
    """``--commit-window``: milliseconds, 0 to 1,000."""
    try:
        ms = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of milliseconds: {text!r}") from None
    if not 0.0 <= ms <= 1000.0:  # NaN fails this too
        raise argparse.ArgumentTypeError(f"{text} ms is out of range: a commit window is 0 to 1000 ms")
    return ms


def parse_args(argv: list[str]) -> argparse.Namespace:
    return build_parser().parse_args(argv)


def build_parser() -> argparse.ArgumentParser:
    d = Limits()
    p = argparse.ArgumentParser(prog="spacetable serve", description="Start the spacetable play server (web lobby + API).")
    p.add_argument("--host", default="127.0.0.1", help="interface to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=_port, default=8000, help="TCP port, 1..65535 (default 8000)")
    p.add_argument("--database-url", default=os.environ.get("SPACETABLE_DATABASE_URL"),
                   help="SQLAlchemy database URL (default: sqlite file ./spacetable.sqlite3)")
    p.add_argument("--log-level", default="info", choices=["debug", "info", "warning", "error"], help="log level (default info)")
    p.add_argument("--ai-workers", type=int, default=1, help="processes for AI seats (0: threads inside the server)")
    p.add_argument("--db-writers", type=int, default=2,
                   help="PostgreSQL: connections committing actions, each a batch per transaction (default 2)")
    p.add_argument("--commit-window", type=_commit_window, default=COMMIT_WINDOW * 1000, metavar="MS",
                   help="the shortest time between two commits of actions, in milliseconds (default "
                        f"{COMMIT_WINDOW * 1000:g}): under load an action waits at most that long for the others "
                        "of its commit; 0 commits each at once")
    c = p.add_argument_group("several processes (see docs/server.md, Running several processes)")
    c.add_argument("--workers", type=int, default=1,
                   help="server processes on this port (default 1); more than one needs --redis-url")
    c.add_argument("--redis-url", default=os.environ.get("SPACETABLE_REDIS_URL"),
                   help="Redis shared by the processes of the service: match changes and rate limits "
                        "(default $SPACETABLE_REDIS_URL; none: one process)")
    c.add_argument("--lease-seconds", type=float, default=10.0,
                   help="a process silent this long loses its matches' AI seats and clocks to another (default 10)")
    p.add_argument("--migrate-only", action="store_true",
                   help="bring the database schema up to date (Alembic migrations) and exit without serving")
    p.add_argument("--data-dir", default=os.environ.get(catalog.ENV),
                   help="the operator's data catalogue: DIR/fullmetal/maps/<name>.fmp, DIR/tremble/card_sets/<name>/ "
                        f"(default ${catalog.ENV}, else bundled data only)")
    g = p.add_argument_group("behind a reverse proxy")
    g.add_argument("--forwarded-allow-ips", default=os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1"),
                   help="addresses of proxies whose X-Forwarded-For/-Proto headers are trusted (comma-separated, '*' for "
                        "any; default 127.0.0.1): rate limits then count per real client address")
    g.add_argument("--no-proxy-headers", action="store_true", help="ignore X-Forwarded-* headers entirely")
    p.add_argument("--meter", action="store_true",
                   help="count the CPU time of each step of an action (/health 'hotpath'; bench/server_load.py), "
                        "measuring one action in 32, a few us an action on average")
    p.add_argument("--no-ws-compression", action="store_true",
                   help="sockets without permessage-deflate: messages travel uncompressed (a Cosmic Arena event 2-4 KB "
                        "instead of about a tenth of it), for about 45 KB less memory per socket and no compressing of "
                        "every message sent (docs/server.md, Capacity plan)")
    a = p.add_argument_group("accounts (see docs/accounts.md)")
    a.add_argument("--smtp-url", default=os.environ.get("SPACETABLE_SMTP_URL"),
                   help="mail relay for account e-mails: smtp://[user:password@]host[:port][?starttls=1] or smtps://... "
                        "(default $SPACETABLE_SMTP_URL); without one, password accounts are off and passkeys still work")
    a.add_argument("--mail-from", default=os.environ.get("SPACETABLE_MAIL_FROM"),
                   help="sender address of account e-mails (default $SPACETABLE_MAIL_FROM)")
    a.add_argument("--public-url", default=os.environ.get("SPACETABLE_PUBLIC_URL"),
                   help="the address players reach this server at, e.g. https://table.example.org (links in mails, "
                        "the passkeys' relying party; default $SPACETABLE_PUBLIC_URL, else the request's own address)")
    a.add_argument("--secure-cookies", choices=("auto", "always", "never"),
                   default=os.environ.get("SPACETABLE_SECURE_COOKIES", "auto"),
                   help="Secure flag of the session cookie: auto (when the request came over HTTPS, directly or through a "
                        "trusted proxy), always, never (default auto)")
    n = p.add_argument_group("notifications (see docs/server.md, Notifications)")
    n.add_argument("--push-contact", default=os.environ.get("SPACETABLE_PUSH_CONTACT"),
                   help="the VAPID contact push services may write to (mailto:... or https://...; default: the public URL)")
    n.add_argument("--push-allow-insecure-loopback", action="store_true",
                   help="FOR TESTS ONLY: accept Web Push endpoints on loopback over plain http (a test push service); "
                        "never on a real server")
    w = p.add_argument_group("the workbench's balance runs (see docs/workbench-balance.md)")
    w.add_argument("--workbench-ray", default=os.environ.get("SPACETABLE_WORKBENCH_RAY"), metavar="ADDRESS",
                   help="play balance runs on Ray (local, auto, HOST:6379, ray://HOST:10001) rather than on the "
                        "server's own worker pool")
    w.add_argument("--workbench-max-games", type=int, default=2000, help="most games of one balance run (default 2000)")
    b = p.add_argument_group("limits (see docs/server.md, Security model)")
    b.add_argument("--max-body", type=int, default=d.max_body, help=f"largest request body in bytes (default {d.max_body})")
    b.add_argument("--max-config", type=int, default=d.max_config,
                   help=f"largest match config in bytes, player content included (default {d.max_config})")
    b.add_argument("--rate-create", type=_rate, default=d.rate_create,
                   help=f"match creations per client address (default {d.rate_create}; 'none' disables)")
    b.add_argument("--rate-join", type=_rate, default=d.rate_join,
                   help=f"seat joins, leaves and AI seats per client address (default {d.rate_join})")
    b.add_argument("--rate-act", type=_rate, default=d.rate_act,
                   help=f"actions and undo requests per client address, counted in each process (default {d.rate_act})")
    b.add_argument("--rate-signin", type=_rate, default=d.rate_signin,
                   help=f"sign-in attempts per client address (default {d.rate_signin})")
    b.add_argument("--rate-signin-account", type=_rate, default=d.rate_signin_account,
                   help=f"password sign-in attempts per account (default {d.rate_signin_account})")
    b.add_argument("--rate-mail", type=_rate, default=d.rate_mail,
                   help=f"sign-up and reset mails per client address and per e-mail address (default {d.rate_mail})")
    b.add_argument("--rate-account", type=_rate, default=d.rate_account,
                   help=f"other signed-in account changes per account (default {d.rate_account})")
    b.add_argument("--max-match-sockets", type=int, default=d.max_match_sockets,
                   help=f"WebSockets on one match (default {d.max_match_sockets})")
    b.add_argument("--max-sockets", type=int, default=d.max_sockets,
                   help=f"WebSockets in all (default {d.max_sockets}: 2000 or the open-file limit less 64)")
    b.add_argument("--max-message", type=int, default=d.max_message,
                   help=f"largest WebSocket message from a client in bytes (default {d.max_message})")
    b.add_argument("--ws-idle", type=float, default=d.ws_idle,
                   help=f"close a WebSocket silent for this many seconds (default {d.ws_idle:g})")
    b.add_argument("--ws-ping-interval", type=float, default=d.ws_ping_interval,
                   help=f"seconds between protocol pings (default {d.ws_ping_interval:g})")
    b.add_argument("--ws-ping-timeout", type=float, default=d.ws_ping_timeout,
                   help=f"close a WebSocket whose pong is this late: half-open (default {d.ws_ping_timeout:g})")
    b.add_argument("--ws-auth-timeout", type=float, default=d.ws_auth_timeout,
                   help=f"seconds for a seat's socket to send its token (default {d.ws_auth_timeout:g})")
    b.add_argument("--header-timeout", type=float, default=d.header_timeout,
                   help="close a connection that sends no complete request within this many seconds "
                        f"(default {d.header_timeout:g})")
    b.add_argument("--body-timeout", type=float, default=d.body_timeout,
                   help="seconds for a request body to arrive, plus one per --body-min-rate bytes received "
                        f"(default {d.body_timeout:g})")
    b.add_argument("--body-min-rate", type=int, default=d.body_min_rate,
                   help=f"slowest request body accepted after --body-timeout, bytes per second (default {d.body_min_rate})")
    b.add_argument("--max-address-connections", type=int, default=d.max_address_connections,
                   help="connections one client address may hold open, WebSockets included; trusted proxies "
                        f"are not capped (default {d.max_address_connections}; 0: no cap)")
    b.add_argument("--max-pending-connections", type=int, default=d.max_pending_connections,
                   help="connections waiting for a complete request at once; the longest-waiting one is closed "
                        f"above it (default {d.max_pending_connections}: 1024 or a quarter of the open-file limit)")
    b.add_argument("--evict-finished", type=float, default=d.evict_finished,
                   help=f"seconds before an idle finished match leaves memory (default {d.evict_finished:g})")
    b.add_argument("--evict-idle", type=float, default=d.evict_idle,
                   help=f"seconds before any idle match leaves memory (default {d.evict_idle:g})")
    b.add_argument("--max-live-matches", type=int, default=d.max_live_matches,
                   help=f"matches kept in memory at most (default {d.max_live_matches})")
    b.add_argument("--lobby-page-max", type=int, default=d.lobby_page_max,
                   help=f"largest lobby page (default {d.lobby_page_max})")
    b.add_argument("--ai-only-matches", type=int, default=d.ai_only_matches,
                   help="unfinished matches with computer seats only per client address "
                        f"(default {d.ai_only_matches})")
    b.add_argument("--ai-only-seconds", type=float, default=d.ai_only_seconds,
                   help=f"largest AI budget per move of a match with computer seats only (default {d.ai_only_seconds:g})")
    b.add_argument("--ai-only-workers", type=int, default=d.ai_only_workers,
                   help="AI workers for matches with computer seats only, apart from people's matches "
                        f"(default {d.ai_only_workers})")
    b.add_argument("--rate-check", type=_rate, default=d.rate_check,
                   help=f"legal/check and check requests per client address (default {d.rate_check})")
    b.add_argument("--rate-auth-fail", type=_rate, default=d.rate_auth_fail,
                   help=f"failed seat-token checks per client address; over it every token check of the address is "
                        f"refused for the window (default {d.rate_auth_fail})")
    b.add_argument("--ws-rate", type=float, default=d.ws_rate,
                   help=f"messages per second per WebSocket, bursts of twice that (default {d.ws_rate:g}); over it "
                        "the socket is closed")
    b.add_argument("--ws-snapshots", type=int, default=d.ws_snapshots,
                   help=f"messages answered with a whole snapshot (lang, texts, auth) per minute per WebSocket "
                        f"(default {d.ws_snapshots})")
    b.add_argument("--ws-backlog-bytes", type=int, default=d.ws_backlog_bytes,
                   help=f"most bytes waiting to be sent to one WebSocket; over it the socket is closed "
                        f"(default {d.ws_backlog_bytes})")
    return p


def limits_from(args: argparse.Namespace) -> Limits:
    """The :class:`Limits` named by the command line."""
    return Limits(**{f.name: getattr(args, f.name) for f in dataclasses.fields(Limits)})


def notify_settings(args: argparse.Namespace) -> dict[str, object]:
    """The :class:`~spacetable.server.notify.NotifyConfig` fields named by the command line."""
    out: dict[str, object] = {"push_contact": args.push_contact,
                              "push_allow_insecure_loopback": bool(args.push_allow_insecure_loopback)}
    if args.public_url:
        out["public_url"] = args.public_url
    return out


def _fail(message: str, code: int = 1) -> int:
    print(f"spacetable serve: {message}", file=sys.stderr, flush=True)
    return code


def database_problem(url: str) -> str | None:
    """Why ``url`` cannot be a database URL (one line), or None: a malformed URL or a placeholder host such as
    the ``...`` of ``postgresql+psycopg://...`` is named before anything tries to connect."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    example = "e.g. postgresql+psycopg://USER:PASSWORD@HOST:5432/DATABASE, or sqlite:///FILE"
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):
        return f"--database-url is not a database URL ({example})"
    if parsed.get_backend_name() == "postgresql":
        shown = parsed.render_as_string(hide_password=True)
        host = parsed.host or ""
        try:
            host.encode("idna")
        except UnicodeError:
            return f"--database-url {shown} names no usable host ({host!r}): write a whole URL, {example}"
        if not parsed.database:
            return f"--database-url {shown} names no database: write a whole URL, {example}"
    elif parsed.get_backend_name() != "sqlite":
        return f"--database-url: the {parsed.get_backend_name()} database is not supported ({example})"
    return None


def short_reason(exc: BaseException) -> str:
    """The first line of a database driver's error (``connection refused``...), without SQLAlchemy's
    statement, parameters and background link; at most 300 characters."""
    inner = getattr(exc, "orig", None) or exc
    lines = [line.strip() for line in str(inner).splitlines() if line.strip()]
    text = lines[0] if lines else type(inner).__name__
    return text if len(text) <= 300 else text[:297] + "..."


def prepare_database(url: str) -> str | None:
    """Connect to the database and bring its schema up to date (Alembic); the reason in one line if that fails."""
    from .db import make_engine, run_migrations

    try:
        engine = make_engine(url)
    except Exception as exc:  # a missing driver, a bad option in the URL
        return f"cannot use the database: {short_reason(exc)}"
    try:
        run_migrations(engine)
    except Exception as exc:
        return f"cannot reach the database {engine.url.render_as_string(hide_password=True)}: {short_reason(exc)}"
    finally:
        engine.dispose()
    return None


def listen(host: str, port: int) -> socket.socket:
    """The listening socket on ``host:port`` (as uvicorn binds it); ``OSError`` if the port is taken."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(2048)
    except BaseException:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def main(argv: list[str] | None = None) -> int:
    args = parse_args(list(sys.argv[1:] if argv is None else argv))
    if args.meter:  # in the environment too: the workers of --workers N read it
        os.environ[meter.ENV] = "1"
        meter.enable()
    import uvicorn
    from uvicorn.supervisors import Multiprocess

    from .app import SETTINGS_ENV, create_app, settings_json

    url = args.database_url or default_database_url()
    problem = database_problem(url)
    if problem:
        return _fail(problem, 2)
    if args.workers > 1 and not args.redis_url:
        return _fail("--workers above 1 needs --redis-url (the processes share matches through Redis)", 2)
    if args.workers > 1 and url.startswith("sqlite"):
        return _fail("several processes need PostgreSQL (--database-url postgresql+psycopg://...); "
                     "SQLite serves one process", 2)
    cfg = log_config(args.log_level)
    logging.config.dictConfig(cfg)
    limits = limits_from(args)
    sock = None
    if not args.migrate_only:
        # the port first: a taken port is said at once, before anything is started or announced
        try:
            sock = listen(args.host, args.port)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                return _fail(f"port {args.port} on {args.host} is already in use (is another server running?); "
                             "choose another with --port")
            return _fail(f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}")
    try:
        problem = prepare_database(url)
        if problem:
            return _fail(problem)
        shown_db = url.split("@")[-1]
        if args.migrate_only:
            print(f"spacetable serve: database {shown_db} is up to date", flush=True)
            return 0
        assert sock is not None
        shown = "localhost" if args.host in ("127.0.0.1", "0.0.0.0", "::") else args.host
        options = {"ai_workers": args.ai_workers, "data_dir": args.data_dir, "redis_url": args.redis_url,
                   "lease_seconds": args.lease_seconds, "db_writers": args.db_writers,
                   "commit_window": args.commit_window / 1000,
                   "accounts": {"smtp_url": args.smtp_url, "mail_from": args.mail_from, "public_url": args.public_url,
                                "secure_cookies": args.secure_cookies},
                   "notify": notify_settings(args),
                   "workbench": {"ray": args.workbench_ray, "max_games": args.workbench_max_games}}
        common: dict[str, Any] = {
            "host": args.host, "port": args.port, "log_config": cfg, "log_level": args.log_level,
            "ws": "websockets-sansio", "ws_max_size": 4 * limits.max_message,
            "ws_ping_interval": limits.ws_ping_interval,
            "ws_ping_timeout": limits.ws_ping_timeout, "proxy_headers": not args.no_proxy_headers,
            "forwarded_allow_ips": args.forwarded_allow_ips, "server_header": False,
            "ws_per_message_deflate": not args.no_ws_compression,
        }
        guards = guard_settings(limits.header_timeout, limits.body_timeout, limits.body_min_rate,
                                limits.max_address_connections, limits.max_pending_connections)
        workers = f", {args.workers} processes" if args.workers > 1 else ""
        print(f"spacetable server: http://{shown}:{args.port}/  (database {shown_db}{workers})", flush=True)
        if args.workers > 1:
            os.environ[SETTINGS_ENV] = settings_json(url, limits, **options)
            os.environ[GUARDS_ENV] = json.dumps(guards)
            # uvicorn's supervisor imports the app factory in each worker and restarts a worker that dies
            config = uvicorn.Config("spacetable.server.app:app_from_env", factory=True, workers=args.workers,
                                    http="spacetable.server.http:GuardedHttp", **common)
            Multiprocess(config, sockets=[sock]).run()
            return 0
        app = create_app(url, limits=limits, migrate=False, **options)
        collector.tune()
        # uvicorn picks uvloop by itself when installed; the HTTP protocol is its own (httptools or h11) with the
        # connection guards of SRV-B2 (http.GuardedHttp)
        config = uvicorn.Config(app, http=guarded_protocol(**guards), **common)
        server = uvicorn.Server(config)
        with contextlib.suppress(KeyboardInterrupt):
            server.run(sockets=[sock])
        return 0 if server.started else 3
    finally:
        if sock is not None:
            sock.close()


if __name__ == "__main__":
    sys.exit(main())
