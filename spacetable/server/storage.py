"""Database drivers of the play server (SRV-P2, SRV-B1): one asynchronous interface, two implementations.

* :class:`Storage` is what the service uses: ``append`` stores one action (compare-and-set on the match's
  revision, SRV-X1; ``False`` when another process changed the match first), ``write`` runs a job in one
  transaction, ``read`` runs a job on a connection. Jobs are ``async def job(tx)`` over a :class:`Tx`
  (``execute`` and ``fetch`` with ``:name`` parameters, SQL written once for both databases in ``repo.py``).
* :class:`SqliteStorage` works on the event loop itself (a local WAL file: a statement costs microseconds, far
  less than handing it to a thread and back): reads at once, appends gathered during one turn of the loop and
  committed in one transaction.
* :class:`PostgresStorage` uses psycopg 3's asyncio connections: reads and rare writes on a small pool, and
  the appends through a **group commit**: every append waiting when a writer connection is free goes into one
  statement over one JSON parameter (``BATCH_SQL_PG``: one round trip on an autocommit connection, atomic, made
  durable by one WAL flush). Two
  writer connections alternate, so one batch is gathered while the other commits. An append's caller resumes
  only after its transaction committed, so every acknowledged action is durable (``synchronous_commit`` stays
  on); a batch that fails is retried one append per transaction, so one bad append cannot fail the others.
* Both pace their commits under load (:data:`COMMIT_WINDOW`): a commit starts at once when the last one started at
  least a window ago, else when the window ends, so a busy server commits at most once per window with every append
  that came meanwhile, and a quiet one never waits.

SQLAlchemy (``db.py``) keeps the schema and the migrations and gives tests and tools a synchronous engine
(``Storage.engine``); the action path talks to the drivers directly.
"""

from __future__ import annotations

import abc
import asyncio
import collections
import contextlib
import logging
import re
import sqlite3
from collections.abc import Awaitable, Callable, Coroutine, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from sqlalchemy.engine import Engine, make_url

from .db import Checkpointer, make_engine, run_migrations
from .jsonio import dumps
from .meter import METER, clock
from .tasks import stop_tasks

log = logging.getLogger("spacetable.server.storage")
T = TypeVar("T")

#: seconds: the shortest time between the starts of two commits of actions (``serve --commit-window``). An append
#: that comes within a window of the last commit's start waits for the window's end, with the appends of every
#: other match that come meanwhile, and they share one transaction; one that comes later commits at once, so a
#: quiet server adds no wait. Under the paced load of 200 Cosmic Arena matches (``bench/server_load.py``, about
#: 1,200 actions/s) the commits go from 1.8 to 4.5 actions each on SQLite (server CPU per action 4 % lower, four
#: interleaved pairs of runs) and from 3.1 to 4.9 on PostgreSQL (its own CPU per action 0.28 to about 0.2 ms, the
#: server's 7 % lower) (docs/architecture.md, "Where the time goes"), for 3 ms more on an action's way at that load;
#: 0 commits each turn of the event loop's appends at once (SQLite) or as soon as a writer is free (PostgreSQL).
COMMIT_WINDOW = 0.003


class Tx(Protocol):
    """A connection inside a job: statements with ``:name`` parameters."""

    async def execute(self, sql: str, params: Mapping[str, Any] | None = None) -> int:
        """Run a statement; the number of rows it changed."""
        ...

    async def fetch(self, sql: str, params: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
        """Run a query; its rows as dicts."""
        ...


Job = Callable[[Tx], Awaitable[T]]


@dataclass(slots=True)
class Append:
    """One action to store, with the match fields stored with it. It commits only if the match is still at
    ``revision`` (SRV-X1); then ``matches.revision`` becomes ``revision + 1`` and ``version`` ``idx + 1``."""

    match_id: str
    idx: int
    seat: int
    action: str
    source: str
    created_at: float
    revision: int
    #: status, turn_started_at, updated_at, outcome, undo_request, to_act, wake_at, owner
    fields: dict[str, Any]

    def params(self) -> dict[str, Any]:
        return {"m": self.match_id, "i": self.idx, "s": self.seat, "a": self.action, "src": self.source,
                "t": self.created_at, "r": self.revision, "r1": self.revision + 1, "v": self.idx + 1, **self.fields}


APPEND_FIELDS = ("status", "turn_started_at", "updated_at", "outcome", "undo_request", "to_act", "wake_at", "owner")
_SET = ", ".join(f"{c} = :{c}" for c in APPEND_FIELDS)
BUMP_SQL = f"UPDATE matches SET version = :v, revision = :r1, {_SET} WHERE id = :m AND revision = :r"
INSERT_SQL = "INSERT INTO actions (match_id, idx, seat, action, source, created_at) VALUES (:m, :i, :s, :a, :src, :t)"
#: PostgreSQL: the bump and the insert in one statement (the row goes in only if the bump matched), so that a
#: stale append is a result (no row), not an error: the one-by-one retry of a failed batch, and a batch holding
#: two appends of one match (a pipelined ``executemany`` in one transaction)
APPEND_SQL_PG = (f"WITH bumped AS ({BUMP_SQL} RETURNING id) INSERT INTO actions (match_id, idx, seat, action, source, "
                 "created_at) SELECT id, :i, :s, :a, :src, :t FROM bumped RETURNING idx")
#: PostgreSQL, a whole batch of appends (each of a different match) as one statement over one parameter, the batch's
#: rows as a JSON array (``jsonb_to_recordset``): one round trip on an autocommit connection, atomic like any
#: statement, committed (and its WAL flushed) once. A match bumps only if it is still at the append's revision; the
#: actions of the bumped matches go in; their ids come back. One JSON text written by orjson costs the server about
#: two thirds of fifteen arrays, which psycopg dumps in Python (0.46 against 0.66 ms of CPU a commit of five appends,
#: docs/architecture.md, "Where the time goes"). Every time comes back exactly: orjson writes a float's shortest
#: round-trip digits, which PostgreSQL reads as a numeric and then as the same float8.
_PG_COLUMNS = (("m", "varchar"), ("i", "int"), ("s", "int"), ("a", "text"), ("src", "varchar"), ("t", "float8"),
               ("r", "int"), ("status", "varchar"), ("turn_started_at", "float8"), ("updated_at", "float8"),
               ("outcome", "text"), ("undo_request", "text"), ("to_act", "text"), ("wake_at", "float8"),
               ("owner", "varchar"))
BATCH_SQL_PG = (
    "WITH d AS (SELECT * FROM jsonb_to_recordset(%(rows)s::jsonb) AS d("
    + ", ".join(f"{c} {t}" for c, t in _PG_COLUMNS) + ")), "
    "bumped AS (UPDATE matches SET version = d.i + 1, revision = d.r + 1, "
    + ", ".join(f"{c} = d.{c}" for c in APPEND_FIELDS)
    + " FROM d WHERE matches.id = d.m AND matches.revision = d.r RETURNING matches.id) "
    "INSERT INTO actions (match_id, idx, seat, action, source, created_at) "
    "SELECT d.m, d.i, d.s, d.a, d.src, d.t FROM d JOIN bumped ON bumped.id = d.m RETURNING match_id")
FIND_SQL = "SELECT seat, action, created_at FROM actions WHERE match_id = :m AND idx = :i"

_PARAM = re.compile(r"(?<![:\w]):([A-Za-z_]\w*)")


def pyformat(sql: str) -> str:
    """``:name`` parameters as psycopg's ``%(name)s``."""
    return _PARAM.sub(r"%(\1)s", sql.replace("%", "%%"))


_pg_sql: dict[str, str] = {}


def _pg(sql: str) -> str:
    out = _pg_sql.get(sql)
    if out is None:
        out = _pg_sql[sql] = pyformat(sql)
    return out


def run_now(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine that never suspends (a job over :class:`SqliteTx`) to its end, synchronously; so that
    nothing else on the event loop runs inside a SQLite transaction."""
    try:
        coro.send(None)
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]
    coro.close()
    raise RuntimeError("a SQLite job waited for something: jobs may only use their Tx")


class Storage(abc.ABC):
    """The interface (see the module docstring). ``engine``: a synchronous SQLAlchemy engine on the same
    database (migrations, tests, tools)."""

    dialect = ""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine: Engine = make_engine(url)
        #: figures for ``/health`` and the benchmark: transactions that committed appends, and the appends in them
        self.batches = 0
        self.appended = 0

    def migrate(self) -> None:
        run_migrations(self.engine)

    @abc.abstractmethod
    async def start(self) -> None:
        """Open connections and start the writers."""

    @abc.abstractmethod
    async def stop(self) -> None:
        """Store what is waiting, then close."""

    @abc.abstractmethod
    async def append(self, rec: Append) -> bool:
        """Store an action; ``False`` (nothing stored) if the match's revision is no longer ``rec.revision``."""

    @abc.abstractmethod
    async def write(self, job: Job[T]) -> T:
        """Run ``job`` in one transaction (committed before this returns)."""

    @abc.abstractmethod
    async def read(self, job: Job[T]) -> T:
        """Run ``job`` in a read-only transaction."""


# ---------------------------------------------------------------------------------------------- SQLite
class SqliteTx:
    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    async def execute(self, sql: str, params: Mapping[str, Any] | None = None) -> int:
        return self.conn.execute(sql, params or {}).rowcount

    async def fetch(self, sql: str, params: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
        return [dict(r) for r in self.conn.execute(sql, params or {}).fetchall()]


class SqliteStorage(Storage):
    """SQLite on the event loop (see the module docstring). WAL mode, ``synchronous=NORMAL``: a committed
    transaction survives the process being killed; the WAL is folded into the file by a background
    :class:`~.db.Checkpointer`, so commits never wait for an fsync."""

    dialect = "sqlite"

    def __init__(self, url: str, commit_window: float = COMMIT_WINDOW) -> None:
        super().__init__(url)
        self.path = make_url(url).database or ":memory:"
        self.commit_window = max(0.0, commit_window)
        self._conn: sqlite3.Connection | None = None
        self._pending: list[tuple[Append, asyncio.Future[bool]]] = []
        self._last_commit = float("-inf")  # the event loop's time when the last batch of appends started committing
        self._checkpointer = Checkpointer(self.engine)

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=30)
        conn.row_factory = sqlite3.Row
        for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "foreign_keys=ON", "wal_autocheckpoint=0"):
            conn.execute(f"PRAGMA {pragma}")
        return conn

    @property
    def conn(self) -> sqlite3.Connection:
        if self._conn is None:
            self._conn = self._connect()
        return self._conn

    async def start(self) -> None:
        self._checkpointer.start()

    async def stop(self) -> None:
        self._flush()
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        self._checkpointer.stop()
        self.engine.dispose()

    async def append(self, rec: Append) -> bool:
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[bool] = loop.create_future()
        if not self._pending:
            # everything appended until the flush runs goes into one transaction: at the end of this turn of the
            # loop, or, within a commit window of the last commit, when that window ends (COMMIT_WINDOW)
            at = self._last_commit + self.commit_window
            if at <= loop.time():
                loop.call_soon(self._flush)
            else:
                loop.call_at(at, self._flush)
        self._pending.append((rec, fut))
        return await fut

    def _append_one(self, conn: sqlite3.Connection, rec: Append) -> bool:
        params = rec.params()
        if conn.execute(BUMP_SQL, params).rowcount != 1:
            return False
        conn.execute(INSERT_SQL, params)
        return True

    def _flush(self) -> None:
        batch, self._pending = self._pending, []
        if not batch:
            return
        with contextlib.suppress(RuntimeError):  # no running loop: the last flush of ``stop``
            self._last_commit = asyncio.get_running_loop().time()
        self.batches += 1
        self.appended += len(batch)
        t = clock()
        try:
            self._flush_batch(batch)
        finally:
            METER.add("storage", t)

    def _flush_batch(self, batch: list[tuple[Append, asyncio.Future[bool]]]) -> None:
        conn = self.conn
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                results = [self._append_one(conn, rec) for rec, _ in batch]
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
        except Exception:  # isolate the failing append: each again in its own transaction
            log.warning("a batch of %d appends failed; retrying them one by one", len(batch), exc_info=True)
            for rec, fut in batch:
                try:
                    conn.execute("BEGIN IMMEDIATE")
                    ok = self._append_one(conn, rec)
                    conn.execute("COMMIT")
                except Exception as exc:
                    with contextlib.suppress(sqlite3.Error):
                        conn.execute("ROLLBACK")
                    if not fut.done():
                        fut.set_exception(exc)
                else:
                    if not fut.done():
                        fut.set_result(ok)
            return
        for (_, fut), ok in zip(batch, results, strict=True):
            if not fut.done():
                fut.set_result(ok)

    async def write(self, job: Job[T]) -> T:
        conn = self.conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            out = run_now(job(SqliteTx(conn)))  # type: ignore[arg-type]
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
        return out

    async def read(self, job: Job[T]) -> T:
        return run_now(job(SqliteTx(self.conn)))  # type: ignore[arg-type]

    def checkpoint(self) -> None:
        self._checkpointer.checkpoint("PASSIVE")


# ------------------------------------------------------------------------------------------- PostgreSQL
class PgTx:
    def __init__(self, conn: Any) -> None:
        self.conn = conn

    async def execute(self, sql: str, params: Mapping[str, Any] | None = None) -> int:
        cur = await self.conn.execute(_pg(sql), params or {})
        return int(cur.rowcount)

    async def fetch(self, sql: str, params: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
        cur = await self.conn.execute(_pg(sql), params or {})
        return list(await cur.fetchall())


def conninfo(url: str) -> str:
    """A libpq connection string from a SQLAlchemy URL (``postgresql+psycopg://...``)."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


class PostgresStorage(Storage):
    """PostgreSQL through psycopg 3 (asyncio), with group commit (see the module docstring).

    ``pool``: connections for reads and rare writes; ``writers``: connections that commit batches of appends;
    ``max_batch``: the most appends in one transaction."""

    dialect = "postgresql"

    def __init__(self, url: str, pool: int = 8, writers: int = 2, max_batch: int = 256,
                 commit_window: float = COMMIT_WINDOW) -> None:
        super().__init__(url)
        self.conninfo = conninfo(url)
        self.pool_size = pool
        self.writers = writers
        self.max_batch = max_batch
        self.commit_window = max(0.0, commit_window)
        self._last_commit = float("-inf")  # the event loop's time when the last batch started committing (any writer)
        self._pool: Any = None
        self._queue: collections.deque[tuple[Append, asyncio.Future[bool]]] = collections.deque()
        self._ready = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []

    async def _connect(self) -> Any:
        import psycopg
        from psycopg.rows import dict_row

        return await psycopg.AsyncConnection.connect(self.conninfo, row_factory=dict_row, autocommit=True)

    async def start(self) -> None:
        from psycopg.rows import dict_row
        from psycopg_pool import AsyncConnectionPool

        self._ready = asyncio.Event()
        self._pool = AsyncConnectionPool(self.conninfo, min_size=1, max_size=self.pool_size, open=False,
                                         kwargs={"row_factory": dict_row}, name="spacetable")
        await self._pool.open(wait=True, timeout=30)
        self._tasks = [asyncio.create_task(self._writer(k), name=f"spacetable-pg-writer-{k}") for k in range(self.writers)]

    async def stop(self) -> None:
        for _ in range(1000):  # let the writers store what is waiting (at most 10 s: the database may be away)
            if not self._queue:
                break
            await asyncio.sleep(0.01)
        await stop_tasks(self._tasks, "PostgreSQL writers")
        self._tasks = []
        if self._pool is not None:
            await self._pool.close()
            self._pool = None
        self.engine.dispose()

    async def append(self, rec: Append) -> bool:
        fut: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._queue.append((rec, fut))
        self._ready.set()
        return await fut

    async def _writer(self, k: int) -> None:
        conn = None
        loop = asyncio.get_running_loop()
        while True:
            await self._ready.wait()
            if not self._queue:
                self._ready.clear()
                continue
            # one batch starts committing per commit window, whichever writer takes it (COMMIT_WINDOW); the other
            # writer is for a commit slower than the window
            wait = self._last_commit + self.commit_window - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
                continue  # the queue again: the other writer may have taken it meanwhile
            self._last_commit = loop.time()
            batch = [self._queue.popleft() for _ in range(min(self.max_batch, len(self._queue)))]
            # rows locked in one order by every process: two batches never wait for each other in a cycle
            batch.sort(key=lambda job: job[0].match_id)
            if not self._queue:
                self._ready.clear()
            try:
                if conn is None or conn.closed:
                    conn = await self._connect()
                await self._commit(conn, batch)
            except asyncio.CancelledError:
                for _, fut in batch:
                    if not fut.done():
                        fut.cancel()
                if conn is not None:
                    await conn.close()
                raise
            except Exception:
                log.warning("a batch of %d appends failed; retrying them one by one", len(batch), exc_info=True)
                conn = await self._one_by_one(conn, batch)

    async def _commit(self, conn: Any, batch: list[tuple[Append, asyncio.Future[bool]]]) -> None:
        t = clock()  # the loop's own work is counted (``meter``), not the time waiting for the database
        ids = [rec.match_id for rec, _ in batch]
        if len(set(ids)) == len(ids):  # always, from one process: a match's appends wait for each other
            rows = dumps([rec.params() for rec, _ in batch])
            METER.add("storage", t)
            cur = await conn.execute(BATCH_SQL_PG, {"rows": rows})
            t = clock()
            stored = {row["match_id"] for row in await cur.fetchall()}
            results = [i in stored for i in ids]
        else:
            params = [rec.params() for rec, _ in batch]
            async with conn.transaction(), conn.cursor() as cur:
                await cur.executemany(_pg(APPEND_SQL_PG), params, returning=True)
                results = []
                while True:
                    results.append(cur.rowcount == 1)
                    if not cur.nextset():
                        break
        self.batches += 1
        self.appended += len(batch)
        for (_, fut), ok in zip(batch, results, strict=True):
            if not fut.done():
                fut.set_result(ok)
        METER.add("storage", t)

    async def _one_by_one(self, conn: Any, batch: list[tuple[Append, asyncio.Future[bool]]]) -> Any:
        """Each append of a failed batch in its own transaction. After a lost connection, an append whose row is
        found was committed after all (the connection broke after COMMIT): it is reported as stored."""
        for rec, fut in batch:
            try:
                if conn is None or conn.closed:
                    conn = await self._connect()
                async with conn.transaction():
                    cur = await conn.execute(_pg(FIND_SQL), {"m": rec.match_id, "i": rec.idx})
                    row = await cur.fetchone()
                    if row is not None:
                        ok = (row["seat"], row["action"], row["created_at"]) == (rec.seat, rec.action, rec.created_at)
                    else:
                        cur = await conn.execute(_pg(APPEND_SQL_PG), rec.params())
                        ok = cur.rowcount == 1
            except Exception as exc:
                if not fut.done():
                    fut.set_exception(exc)
                if conn is not None and conn.closed:
                    conn = None
            else:
                self.appended += 1
                if not fut.done():
                    fut.set_result(ok)
        return conn

    async def write(self, job: Job[T]) -> T:
        async with self._pool.connection() as conn, conn.transaction():
            return await job(PgTx(conn))

    async def read(self, job: Job[T]) -> T:
        async with self._pool.connection() as conn:
            return await job(PgTx(conn))


def open_storage(url: str, commit_window: float = COMMIT_WINDOW, **options: Any) -> Storage:
    """The storage for a SQLAlchemy URL: ``sqlite:///...`` or ``postgresql+psycopg://...``; ``commit_window`` for
    both (:data:`COMMIT_WINDOW`), ``options`` for PostgreSQL only (:class:`PostgresStorage`'s: ``writers``...),
    which SQLite's single connection does not use."""
    name = make_url(url).get_backend_name()
    if name == "sqlite":
        return SqliteStorage(url, commit_window)
    if name == "postgresql":
        return PostgresStorage(url, commit_window=commit_window, **options)
    raise ValueError(f"unsupported database {name!r}: use sqlite:/// or postgresql+psycopg://")
