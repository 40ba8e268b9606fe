"""Persistence: SQLAlchemy 2 models, engine set-up and Alembic migrations (the schema; the queries are in
``repo.py``, the drivers and the group-commit writer in ``storage.py``).

A match is stored as its config, its seed and its action log (SRV-P1): one row
per action in ``actions``, appended in the same transaction that bumps
``matches.version`` and ``matches.revision`` (SRV-P2), so a server killed at any moment restarts with
every match exactly where it was. Live states are never stored; they are
rebuilt by replaying the log. SQLite runs in WAL mode.

Several server processes share one database (SRV-X1): every change of a match is a compare-and-set on
``matches.revision`` (the change commits only if the revision is the one the process built it on), and
``actions`` has the primary key ``(match_id, idx)``; ``epoch`` counts undos (the log was cut), ``owner``
names the process that runs the match's AI seats and clock (the one that committed its last change) and
``wake_at`` says when the server must act on its own (an AI to move: at once; a clock: its deadline).
``servers`` holds each process's heartbeat: an owner whose heartbeat is older than the lease has died,
and another process takes its matches over (SRV-X3).
"""

from __future__ import annotations

import json
import logging
import threading
from pathlib import Path
from typing import Any

import orjson
from sqlalchemy import BigInteger, Boolean, Float, ForeignKey, Integer, String, Text, create_engine, event, false
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

MIGRATIONS_DIR = Path(__file__).with_name("migrations")


class Base(DeclarativeBase):
    pass


class MatchRow(Base):
    __tablename__ = "matches"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), index=True)
    name: Mapped[str] = mapped_column(String(200), default="")
    config: Mapped[str] = mapped_column(Text)
    seed: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(16), index=True)  # open | running | finished
    version: Mapped[int] = mapped_column(Integer, default=0)
    ai_seconds: Mapped[float] = mapped_column(Float, default=1.0)
    turn_seconds: Mapped[float | None] = mapped_column(Float, nullable=True)
    turn_started_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    outcome: Mapped[str | None] = mapped_column(Text, nullable=True)
    undo_request: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[float] = mapped_column(Float)
    updated_at: Mapped[float] = mapped_column(Float, index=True)
    #: the seed was chosen by the creator and is shown to everybody (SRV-S1)
    open_seed: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: JSON list of the seats to act (the lobby reads it without loading the match)
    to_act: Mapped[str | None] = mapped_column(Text, nullable=True)
    #: why the match cannot be loaded (SRV-P4); ``None`` when it loads
    broken: Mapped[str | None] = mapped_column(Text, nullable=True)
    #: SRV-X1: bumped by every change (action, seat, undo, undo request); changes compare-and-set on it
    revision: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    #: SRV-X1: bumped by every undo (the log was cut: a process's copy of it may differ from here on)
    epoch: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    #: SRV-X3: the server process that runs this match's AI seats and clock (it committed the last change)
    owner: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: SRV-X3: when the server must act on its own (an AI to move: the time it became due; a clock: the deadline)
    wake_at: Mapped[float | None] = mapped_column(Float, nullable=True, index=True)
    #: issue 21: the time control (move | increment | days; ``None``: per move when ``turn_seconds`` is set), the
    #: increment added to a seat's bank after each of its turns, and when the first turn started
    clock_kind: Mapped[str | None] = mapped_column(String(12), nullable=True)
    clock_increment: Mapped[float | None] = mapped_column(Float, nullable=True)
    started_at: Mapped[float | None] = mapped_column(Float, nullable=True)


class SeatRow(Base):
    __tablename__ = "seats"

    match_id: Mapped[str] = mapped_column(String(32), ForeignKey("matches.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8), default="open")  # open | human | ai
    name: Mapped[str] = mapped_column(String(100), default="")
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    agent: Mapped[str | None] = mapped_column(String(64), nullable=True)


class ActionRow(Base):
    __tablename__ = "actions"

    match_id: Mapped[str] = mapped_column(String(32), ForeignKey("matches.id"), primary_key=True)
    idx: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(Text)
    source: Mapped[str] = mapped_column(String(16), default="player")  # player | ai | timeout
    created_at: Mapped[float] = mapped_column(Float)


class ServerRow(Base):
    """One running server process and its heartbeat (SRV-X3)."""

    __tablename__ = "servers"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    #: host, PID namespace and boot: where ``pid`` means something (a restart on the same host frees its matches)
    host: Mapped[str] = mapped_column(String(200), default="")
    pid: Mapped[int] = mapped_column(Integer, default=0)
    started_at: Mapped[float] = mapped_column(Float)
    seen_at: Mapped[float] = mapped_column(Float, index=True)


def default_database_url(path: str = "spacetable.sqlite3") -> str:
    return f"sqlite:///{Path(path).resolve()}"


def make_engine(url: str) -> Engine:
    """Create the engine; SQLite gets WAL mode, a busy timeout and foreign keys."""
    is_sqlite = url.startswith("sqlite")
    kwargs: dict[str, Any] = {"future": True}
    if is_sqlite:
        kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
    engine = create_engine(url, **kwargs)
    if is_sqlite:

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            # NORMAL in WAL mode: every committed transaction survives a process kill (SIGKILL);
            # only an OS crash / power loss can lose the last commits.
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            # checkpoints (the only fsyncs) run in the background (Checkpointer), not inside a commit
            cur.execute("PRAGMA wal_autocheckpoint=0")
            cur.close()

    return engine


class Checkpointer:
    """Copies the SQLite write-ahead log into the database file every ``interval`` seconds from a
    background thread (a PASSIVE checkpoint never blocks writers), so commits on the event loop
    never wait for a checkpoint's fsync. No-op for other databases."""

    def __init__(self, engine: Engine, interval: float = 1.0) -> None:
        self.engine = engine
        self.interval = interval
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self.engine.dialect.name == "sqlite" and self._thread is None:
            self._thread = threading.Thread(target=self._run, name="spacetable-checkpoint", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            self.checkpoint("PASSIVE")

    def checkpoint(self, mode: str = "PASSIVE") -> None:
        try:
            with self.engine.connect() as conn:
                conn.exec_driver_sql(f"PRAGMA wal_checkpoint({mode})")
        except Exception:  # a failed checkpoint is retried at the next interval
            logging.getLogger("spacetable.server").exception("WAL checkpoint failed")

    def stop(self) -> None:
        if self._thread is not None:
            self._stop.set()
            self._thread.join(10)
            self._thread = None
            self.checkpoint("TRUNCATE")


def run_migrations(engine: Engine) -> None:
    """Upgrade the database to the newest Alembic revision shipped in the package (SRV-P3)."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    cfg.set_main_option("sqlalchemy.url", engine.url.render_as_string(hide_password=False))
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            # several processes starting at once (``serve --workers N``): one migrates, the others wait and
            # then find the schema at head (the lock is released when this transaction ends)
            conn.exec_driver_sql("SELECT pg_advisory_xact_lock(74616231)")
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


def dumps(data: Any) -> str:
    """The stored JSON text of ``data``: compact, keys sorted. orjson for what it encodes (an action's row is
    written twice per move on the hot path), the standard encoder for the rest (integers beyond 64 bits,
    non-string keys); both texts read back as the same value."""
    try:
        return orjson.dumps(data, option=orjson.OPT_SORT_KEYS).decode()
    except orjson.JSONEncodeError:
        return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)

