"""Fixtures for server tests: apps on SQLite and on PostgreSQL, real PostgreSQL and Redis servers, the test game ``nim``.

``db_url`` is parametrised: every test that uses it (or ``client``) runs on a temporary SQLite file and on a
fresh database of a PostgreSQL server started for the session on loopback in a temporary folder
(``spacetable.server.devservers``: Debian's ``initdb``/``pg_ctl``, as the ``postgres`` user when the tests run
as root). ``redis_url`` starts a ``redis-server`` the same way. Without PostgreSQL or Redis installed those
tests are skipped with the reason, except under ``CI=true`` where they fail (``.ci/run`` installs both).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine

from spacetable import games
from spacetable.server.app import create_app
from spacetable.server.db import make_engine, run_migrations
from spacetable.server.devservers import TempPostgres, TempRedis, postgres_bin, redis_bin
from spacetable.server.limits import Limits
from spacetable.server.live import LiveMatch

from .pushservice import PushService


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


def unavailable(reason: str) -> None:
    """Skip the calling test, or fail it under ``CI=true`` (where PostgreSQL and Redis must be there)."""
    if in_ci():
        pytest.fail(f"{reason}; under CI=true these tests must run (.ci/run installs them)", pytrace=False)
    pytest.skip(reason)


@pytest.fixture
def nim() -> Iterator[None]:
    """Register the test game ``nim`` (tests/server/nimgame.py) for the duration of a test."""
    games.REGISTRY["nim"] = "tests.server.nimgame"
    yield
    games.REGISTRY.pop("nim", None)
    games._cache.pop("nim", None)


@pytest.fixture(scope="session")
def postgres() -> Iterator[TempPostgres | str]:
    """A PostgreSQL server for the session (or the reason there is none)."""
    if postgres_bin() is None:
        yield "PostgreSQL is not installed (apt-get install postgresql)"
        return
    try:
        pg = TempPostgres().start()
    except RuntimeError as exc:
        yield f"PostgreSQL does not start here: {exc}"
        return
    try:
        yield pg
    finally:
        pg.stop()


@pytest.fixture(scope="session")
def redis_server() -> Iterator[TempRedis | str]:
    if redis_bin() is None:
        yield "Redis is not installed (apt-get install redis-server)"
        return
    try:
        r = TempRedis().start()
    except RuntimeError as exc:
        yield f"redis-server does not start here: {exc}"
        return
    try:
        yield r
    finally:
        r.stop()


@pytest.fixture
def pg_url(postgres: TempPostgres | str) -> Iterator[str]:
    """A fresh, empty PostgreSQL database."""
    if isinstance(postgres, str):
        unavailable(postgres)
        raise AssertionError("unreachable")
    url = postgres.create_database()
    yield url
    postgres.drop_database(url)


@pytest.fixture
def redis_url(redis_server: TempRedis | str) -> str:
    """The session's Redis server, emptied."""
    if isinstance(redis_server, str):
        unavailable(redis_server)
        raise AssertionError("unreachable")
    import redis

    with redis.Redis.from_url(redis_server.url) as r:
        r.flushall()
    return redis_server.url


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'server.sqlite3'}"


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file migrated to the newest revision once per session (``db_url`` copies it)."""
    path = tmp_path_factory.mktemp("template") / "template.sqlite3"
    engine = make_engine(f"sqlite:///{path}")
    try:
        run_migrations(engine)
        with engine.connect() as conn:
            conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")  # everything in the main file
    finally:
        engine.dispose()
    return path


@pytest.fixture(scope="session")
def pg_template(postgres: TempPostgres | str) -> str | None:
    """A PostgreSQL database migrated to the newest revision once per session (``db_url`` clones it), or None."""
    if isinstance(postgres, str):
        return None
    url = postgres.create_database("spacetable_template")
    engine = make_engine(url)
    try:
        run_migrations(engine)
    finally:
        engine.dispose()  # a template database is cloned only while no one is connected to it
    return "spacetable_template"


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The database of a test app: a SQLite file, then a PostgreSQL database (the same test on both), already at
    the newest revision (a copy of a template migrated once per session: an app's start-up migration finds nothing
    to do; tests/server/test_accounts_migration.py migrates ``empty_db_url`` from nothing)."""
    if request.param == "sqlite":
        path = tmp_path / "server.sqlite3"
        shutil.copyfile(request.getfixturevalue("sqlite_template"), path)
        yield f"sqlite:///{path}"
        return
    template = request.getfixturevalue("pg_template")
    postgres = request.getfixturevalue("postgres")
    if template is None:
        unavailable(postgres)
    url = postgres.create_database(template=template)
    yield url
    postgres.drop_database(url)


@pytest.fixture
def engine(db_url: str) -> Iterator[Engine]:
    """A synchronous engine on ``db_url`` (the notifier's and chat's own connections), migrated."""
    e = make_engine(db_url)
    run_migrations(e)
    yield e
    e.dispose()


@pytest.fixture
def push_service() -> Iterator[PushService]:
    """The test push service on loopback (checks VAPID, decrypts RFC 8291 payloads), stopped after the test."""
    ps = PushService().start()
    yield ps
    ps.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database (no tables): a SQLite file, then a PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'empty.sqlite3'}"
    url: str = request.getfixturevalue("pg_url")
    return url


#: Test apps: every bound at its default but the rate limits (the tests play fast from one address);
#: tests/server/test_limits.py checks the rate limits themselves.
def lenient_limits(**changes: Any) -> Limits:
    """Limits without the per-address rates (every test client has one address) and with roomy per-socket
    bounds; the tests of those bounds set them."""
    return Limits(**{"rate_create": None, "rate_join": None, "rate_act": None, "rate_check": None,
                     "rate_auth_fail": None, "ws_rate": 1e6, "ws_snapshots": 10**6, **changes})


def browser(running: TestClient) -> TestClient:
    """Another browser (its own cookie jar) on the app ``running`` serves (a started ``with TestClient(app)``).

    Its requests run on that client's event loop, where the app's lifespan started its tasks, locks and database
    connection. A plain ``TestClient(app)`` outside ``with`` would run each request on an event loop of its own, in
    another thread, at the same time as the app's loop: the app's asyncio objects (a match's lock, the notifier's
    and the rating keeper's events, the SQLite connection) would be used from two threads, and a request waiting on
    one of them could wait forever (tests/server/test_accounts.py::test_second_browser_on_the_app_loop)."""
    assert running.portal is not None, "the app is not running: use `with TestClient(app) as c`"
    other = TestClient(running.app)
    other.portal = running.portal
    return other


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    app = create_app(db_url, ai_workers=0, limits=lenient_limits())
    with TestClient(app) as c:
        yield c


def live(client: TestClient, match_id: str) -> LiveMatch:
    """The match as the app's service holds it in memory (loaded if needed), from the test's thread."""
    service = client.app.state.service  # type: ignore[attr-defined]
    m: LiveMatch = client.portal.call(service.get, match_id)  # type: ignore[union-attr]
    return m


def create(client: TestClient, game: str, **body: Any) -> dict[str, Any]:
    r = client.post("/api/matches", json={"game": game, **body})
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def join(client: TestClient, match_id: str, seat: int, name: str = "") -> str:
    r = client.post(f"/api/matches/{match_id}/seats/{seat}/join", json={"name": name})
    assert r.status_code == 200, r.text
    token: str = r.json()["token"]
    return token
