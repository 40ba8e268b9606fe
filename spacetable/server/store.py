"""Storage of matches (SRV-P1, SRV-P2): statements, the serialised writer, and the reads of the lobby.

A match is stored as its config, its seed and its action log; each action is one row of ``actions``,
appended in the same transaction that bumps ``matches.version`` (and stores the seats to act, which
the lobby lists without loading the match). Reads that are not on the action path (loading a match,
a lobby page) go through their own connections.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import queue
import threading
from collections.abc import Callable
from typing import Any

from sqlalchemy import select, text
from sqlalchemy.engine import Connection, Engine

from .db import ActionRow, MatchRow, SeatRow

MATCHES = MatchRow.__table__
SEATS = SeatRow.__table__
ACTIONS = ActionRow.__table__

INSERT_ACTION = "INSERT INTO actions (match_id, idx, seat, action, source, created_at) VALUES (:m, :i, :s, :a, :src, :t)"
BUMP_VERSION = (
    "UPDATE matches SET version = :v, status = :status, turn_started_at = :turn_started_at, updated_at = :updated_at, "
    "outcome = :outcome, undo_request = :undo_request, to_act = :to_act WHERE id = :m AND version = :i"
)
MATCH_COLUMNS = tuple(c.name for c in MATCHES.columns)
SEAT_COLUMNS = tuple(c.name for c in SEATS.columns)


@functools.cache
def insert_sql(table: str, columns: tuple[str, ...]) -> str:
    return f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join(':' + c for c in columns)})"


@functools.cache
def update_sql(table: str, columns: tuple[str, ...], keys: tuple[str, ...]) -> str:
    """An UPDATE of fixed ``columns`` (names from this module, never from a client) by key columns."""
    sets = ", ".join(f"{c} = :{c}" for c in columns)
    return f"UPDATE {table} SET {sets} WHERE {' AND '.join(f'{k} = :{k}' for k in keys)}"


@functools.cache
def _text_clause(sql: str) -> Any:
    return text(sql)


def execute(conn: Connection, sql: str, params: dict[str, Any]) -> int:
    """Run one statement with named ``:param`` binds in the connection's open transaction; returns the row count.

    SRV-B1: with SQLite the statement goes straight to the driver's cursor (sqlite3 takes ``:name`` binds
    and opens the transaction before the first write; ``conn.begin()`` around the job commits it), which
    skips SQLAlchemy's per-statement compilation and result machinery. Other databases go through
    SQLAlchemy ``text()`` (cached)."""
    if conn.dialect.name == "sqlite":
        cur = conn.connection.driver_connection.cursor()  # type: ignore[union-attr]
        try:
            cur.execute(sql, params)
            return int(cur.rowcount)
        finally:
            cur.close()
    return int(conn.execute(_text_clause(sql), params).rowcount)


def match_rows(conn: Connection, match_ids: list[str]) -> dict[str, tuple[Any, list[Any]]]:
    """``{id: (match row, [seat rows])}`` of the given matches."""
    if not match_ids:
        return {}
    rows = conn.execute(select(MATCHES).where(MATCHES.c.id.in_(match_ids))).mappings().all()
    seats = conn.execute(
        select(SEATS).where(SEATS.c.match_id.in_(match_ids)).order_by(SEATS.c.match_id, SEATS.c.seat)).mappings().all()
    out: dict[str, tuple[Any, list[Any]]] = {r["id"]: (r, []) for r in rows}
    for s in seats:
        out[s["match_id"]][1].append(s)
    return out


def load_rows(conn: Connection, match_id: str) -> tuple[Any, list[Any], list[Any]] | None:
    """The match row, its seats and its actions, or ``None``."""
    found = match_rows(conn, [match_id]).get(match_id)
    if found is None:
        return None
    actions = conn.execute(select(ACTIONS).where(ACTIONS.c.match_id == match_id).order_by(ACTIONS.c.idx)).mappings().all()
    return found[0], found[1], list(actions)


def lobby_page(conn: Connection, status: str | None, game: str | None, offset: int, limit: int
               ) -> tuple[list[tuple[Any, list[Any]]], bool]:
    """One page of the lobby, most recently updated first; and whether more follow."""
    q = select(MATCHES.c.id)
    if status is not None:
        q = q.where(MATCHES.c.status == status)
    if game is not None:
        q = q.where(MATCHES.c.game == game)
    q = q.order_by(MATCHES.c.updated_at.desc(), MATCHES.c.id).offset(offset).limit(limit + 1)
    ids = [r[0] for r in conn.execute(q)]
    more = len(ids) > limit
    ids = ids[:limit]
    found = match_rows(conn, ids)
    return [found[i] for i in ids if i in found], more


def startup_rows(conn: Connection) -> list[Any]:
    """Running matches that need the server without anybody asking: an AI may have to act, a clock may run
    out (and matches stored before the seats to act were, whose state is unknown)."""
    running = select(MATCHES.c.id).where(MATCHES.c.status == "running")
    ai_seats: dict[str, set[int]] = {}
    for match_id, seat in conn.execute(select(SEATS.c.match_id, SEATS.c.seat).where(
            SEATS.c.kind == "ai", SEATS.c.match_id.in_(running.scalar_subquery()))):
        ai_seats.setdefault(match_id, set()).add(seat)
    out = []
    for row in conn.execute(select(MATCHES).where(MATCHES.c.status == "running")).mappings():
        to_act = json.loads(row["to_act"]) if row["to_act"] else None
        if row["turn_seconds"] is not None or to_act is None or ai_seats.get(row["id"], set()) & set(to_act):
            out.append(row)
    return out


def mark_broken(conn: Connection, match_id: str, reason: str | None) -> None:
    execute(conn, "UPDATE matches SET broken = :b WHERE id = :m", {"b": reason, "m": match_id})


_Job = tuple[Callable[..., Any], tuple[Any, ...], "asyncio.Future[Any]"]


class DbWriter:
    """Serialised writes on one connection (SRV-P2). Writes requested during one turn of the event
    loop are taken together, but each runs in its own transaction and its caller resumes only after
    that transaction committed, so every acknowledged action is durable on its own; the batching
    only saves hand-offs.

    SQLite (local file, WAL, commits without fsync) is written inline on the event loop: a commit
    costs tens of microseconds, far less than handing work to a thread and back under the GIL.
    Other databases (network round trips) are written by one writer thread."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.inline = engine.dialect.name == "sqlite"
        self._queue: queue.SimpleQueue[list[_Job] | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._pending: list[_Job] = []
        self._conn: Connection | None = None

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        loop = asyncio.get_running_loop()
        if not self.inline and (self._thread is None or not self._thread.is_alive()):
            self._loop = loop
            self._thread = threading.Thread(target=self._work, name="spacetable-db", daemon=True)
            self._thread.start()
        fut: asyncio.Future[Any] = loop.create_future()
        if not self._pending:
            loop.call_soon(self._flush)  # everything queued in this loop iteration goes at once
        self._pending.append((fn, args, fut))
        return await fut

    def _flush(self) -> None:
        jobs, self._pending = self._pending, []
        if not jobs:
            return
        if self.inline:
            self._conn = self._execute(self._conn, jobs)
        else:
            self._queue.put(jobs)

    def _execute(self, conn: Connection | None, batch: list[_Job]) -> Connection | None:
        """Run each job in its own transaction; returns the (possibly renewed) connection."""
        results: list[tuple[asyncio.Future[Any], Any, BaseException | None]] = []
        for fn, args, fut in batch:
            try:
                if conn is None:
                    conn = self.engine.connect()
                with conn.begin():
                    results.append((fut, fn(conn, *args), None))
            except Exception as exc:  # reported to the awaiting caller
                results.append((fut, None, exc))
                if conn is not None and conn.invalidated:
                    conn.close()
                    conn = None
        if self.inline:
            _resolve(results)
        else:
            assert self._loop is not None
            self._loop.call_soon_threadsafe(_resolve, results)
        return conn

    def _work(self) -> None:
        conn: Connection | None = None
        while True:
            item = self._queue.get()
            if item is None:
                break
            batch = list(item)
            with contextlib.suppress(queue.Empty):
                while len(batch) < 512:
                    nxt = self._queue.get_nowait()
                    if nxt is None:
                        self._queue.put(None)
                        break
                    batch.extend(nxt)
            conn = self._execute(conn, batch)
        if conn is not None:
            conn.close()

    def shutdown(self) -> None:
        self._flush()
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join(10)
            self._thread = None
        if self._conn is not None:
            self._conn.close()
            self._conn = None


def _resolve(results: list[tuple[asyncio.Future[Any], Any, BaseException | None]]) -> None:
    for fut, value, exc in results:
        if fut.done():
            continue
        if exc is not None:
            fut.set_exception(exc)
        else:
            fut.set_result(value)

