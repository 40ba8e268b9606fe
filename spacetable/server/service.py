"""The authoritative match service: lobby, seats, actions, AI seats, clocks, undo.

Rule ids used in errors and docs (see ``docs/server.md``):

* SRV-A1 every action carries the state version it was computed against; a stale
  version is refused (409) and nothing changes.
* SRV-A1b exception: in a sealed simultaneous decision, a seat whose decision was pending
  the whole time while only other seats acted may still send its choice against the older
  version (the others' sealed commits did not change its decision point).
* SRV-A2 an action is applied only through ``game.apply``; a rejected action names
  the game's rule (``AR-4.3``, ``CORE-TURN`` ...) and changes nothing.
* SRV-A3 nobody acts for a seat without its secret token.
* SRV-V1 each client receives only ``game.view(state, its seat)`` and, per action,
  ``game.action_view(before, actor, action, its seat)``; spectators get seat ``None``.
* SRV-P1/P2 a match is config + seed + action log; each action is appended in the
  same transaction as the version bump.
* SRV-C1 optional per-turn clock; SRV-C2 timeout action.
* SRV-U1..U4 undo policy.
* SRV-V2 views, legal actions and ``to_act`` are computed once per state and only for connected clients.
* SRV-L1 legal actions go only to a seat that must act; above ``LEGAL_LIMIT`` a selection plus the count;
  SRV-L2 ``legal_page`` pages through all of them; SRV-L3 ``check_action`` tests one without playing it.
* SRV-B1 action-path costs (see ``docs/server.md``, Performance): prepared statements on the driver's
  cursor for SQLite, shared JSON encoded once per event, no replays.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import json
import logging
import queue
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import delete, select, text, update
from sqlalchemy.engine import Connection, Engine

from spacetable.core.errors import ConfigError, RuleError, SpacetableError
from spacetable.core.game import Action, Game
from spacetable.core.rng import Rng, mix_seed
from spacetable.core.serial import action_key, to_jsonable
from spacetable.games import UnknownGame, get_game

from .ai import AIRunner, agent_registry
from .db import ActionRow, Checkpointer, MatchRow, SeatRow, dumps

log = logging.getLogger("spacetable.server")

MATCHES = MatchRow.__table__
SEATS = SeatRow.__table__
ACTIONS = ActionRow.__table__

_INSERT_ACTION = "INSERT INTO actions (match_id, idx, seat, action, source, created_at) VALUES (:m, :i, :s, :a, :src, :t)"
_BUMP_VERSION = (
    "UPDATE matches SET version = :v, status = :status, turn_started_at = :turn_started_at, updated_at = :updated_at, "
    "outcome = :outcome, undo_request = :undo_request WHERE id = :m AND version = :i"
)
_MATCH_COLUMNS = tuple(c.name for c in MATCHES.columns)
_SEAT_COLUMNS = tuple(c.name for c in SEATS.columns)


@functools.cache
def _insert_sql(table: str, columns: tuple[str, ...]) -> str:
    return f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join(':' + c for c in columns)})"


@functools.cache
def _update_sql(table: str, columns: tuple[str, ...], keys: tuple[str, ...]) -> str:
    """An UPDATE of fixed ``columns`` (names from this module, never from a client) by key columns."""
    sets = ", ".join(f"{c} = :{c}" for c in columns)
    return f"UPDATE {table} SET {sets} WHERE {' AND '.join(f'{k} = :{k}' for k in keys)}"


@functools.cache
def _text_clause(sql: str) -> Any:
    return text(sql)


def _exec(conn: Connection, sql: str, params: dict[str, Any]) -> int:
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

#: Engine exceptions on malformed input that are reported as CORE-ACTION, not as a server error.
MALFORMED = (KeyError, TypeError, ValueError, IndexError, AttributeError)


class ServiceError(Exception):
    """An error for the client: HTTP-like ``status``, a ``code`` and, for rule breaks, the rule id."""

    def __init__(self, status: int, code: str, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.rule = rule

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"status": self.status, "code": self.code, "message": self.message}
        if self.rule:
            out["rule"] = self.rule
        return out


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Seat:
    kind: str = "open"  # open | human | ai
    name: str = ""
    token_hash: str | None = None
    agent: str | None = None

    def public(self, index: int) -> dict[str, Any]:
        return {"seat": index, "kind": self.kind, "name": self.name, "agent": self.agent}


@dataclass
class Entry:
    """One logged action with what each viewer learns of it (computed once)."""

    seat: int
    action: Action
    source: str
    views: dict[int | None, Action | None]
    text: str
    #: seats that had to act just before this action (SRV-A1b: concurrent sealed decisions)
    waiting: tuple[int, ...] = ()


@dataclass
class Subscriber:
    """One connected client. A client that stops reading is cut off (``overflow``) once
    ``MAX_BACKLOG`` messages wait for it; it reconnects and gets a fresh snapshot."""

    seat: int | None
    queue: asyncio.Queue[str]
    overflow: bool = False

    def push(self, text: str) -> None:
        if self.overflow:
            return
        if self.queue.qsize() >= MAX_BACKLOG:
            self.overflow = True
            self.queue.put_nowait("")  # wakes the sender, which closes the connection
            return
        self.queue.put_nowait(text)


MAX_BACKLOG = 1000


@dataclass
class LiveMatch:
    id: str
    game: Game[Any]
    name: str
    config: dict[str, Any]
    seed: int
    status: str
    ai_seconds: float
    turn_seconds: float | None
    turn_started_at: float | None
    created_at: float
    updated_at: float
    seats: list[Seat]
    state: Any
    log: list[Entry] = field(default_factory=list)
    outcome: dict[str, Any] | None = None
    undo_request: dict[str, Any] | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    subscribers: list[Subscriber] = field(default_factory=list)
    ai_task: asyncio.Task[None] | None = None
    clock_handle: asyncio.TimerHandle | None = None
    #: per-state caches (SRV-V2): views, legal actions and ``to_act`` of ``state`` are computed at most
    #: once per state, whoever asks (event, snapshot, REST); they are dropped as soon as ``state`` changes.
    _cached_for: Any = field(default=None, repr=False)
    _views: dict[int | None, dict[str, Any]] = field(default_factory=dict, repr=False)
    _legal: dict[int, list[Action]] = field(default_factory=dict, repr=False)
    _to_act: tuple[int, ...] | None = field(default=None, repr=False)
    _legal_sent: dict[int, dict[str, Any]] = field(default_factory=dict, repr=False)

    def _fresh(self) -> None:
        if self._cached_for is not self.state:
            self._cached_for = self.state
            self._views = {}
            self._legal = {}
            self._to_act = None
            self._legal_sent = {}

    def view(self, viewer: int | None) -> dict[str, Any]:
        """``game.view(state, viewer)``, computed once per state (SRV-V1)."""
        self._fresh()
        v = self._views.get(viewer)
        if v is None:
            v = self._views[viewer] = self.game.view(self.state, viewer)
        return v

    def legal(self, seat: int) -> list[Action]:
        """``game.legal_actions(state, seat)``, computed once per state. A game whose enumeration once took
        longer than ``SLOW_LEGAL`` seconds is marked slow (SRV-L4)."""
        self._fresh()
        out = self._legal.get(seat)
        if out is None:
            state = self.state
            t0 = time.perf_counter()
            out = self.game.legal_actions(state, seat)
            if time.perf_counter() - t0 > SLOW_LEGAL:
                SLOW_LEGAL_GAMES.add(self.game.id)
            if self.state is state:  # still the same state (a thread may have computed it meanwhile)
                self._legal[seat] = out
        return out

    @property
    def version(self) -> int:
        return len(self.log)

    def to_act(self) -> tuple[int, ...]:
        if self.status != "running":
            return ()
        self._fresh()
        if self._to_act is None:
            self._to_act = tuple(self.game.to_act(self.state))
        return self._to_act

    def deadline(self) -> float | None:
        if self.turn_seconds and self.turn_started_at is not None and self.status == "running":
            return self.turn_started_at + self.turn_seconds
        return None

    def summary(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.game.id,
            "game_name": self.game.name,
            "name": self.name,
            "config": self.config,
            "status": self.status,
            "version": self.version,
            "players": len(self.seats),
            "seats": [s.public(i) for i, s in enumerate(self.seats)],
            "to_act": list(self.to_act()),
            "outcome": self.outcome,
            "ai_seconds": self.ai_seconds,
            "turn_seconds": self.turn_seconds,
            "deadline": self.deadline(),
            "undo_request": self.undo_request,
            "created_at": self.created_at,
            "updated_at": self.updated_at,
        }


def _text(game: Game[Any], state: Any, seat: int, action: Action) -> str:
    try:
        return str(game.action_text(state, seat, action))
    except Exception:  # a presentation helper must never break play
        return action_key(action)


class MatchService:
    """Owns every live match; all mutation happens on the event loop under a per-match lock,
    database writes in one writer thread (one transaction per action)."""

    def __init__(self, engine: Engine, ai_workers: int = 1) -> None:
        self.engine = engine
        self.matches: dict[str, LiveMatch] = {}
        self.ai = AIRunner(ai_workers)
        self._db = DbWriter(engine)
        self._checkpointer = Checkpointer(engine)
        self._loop: asyncio.AbstractEventLoop | None = None

    # ------------------------------------------------------------------ life cycle
    def load(self) -> None:
        """Rebuild every stored match by replaying its log (SRV-P1)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(MATCHES)).mappings().all()
            seat_rows = conn.execute(select(SEATS).order_by(SEATS.c.match_id, SEATS.c.seat)).mappings().all()
            action_rows = conn.execute(select(ACTIONS).order_by(ACTIONS.c.match_id, ACTIONS.c.idx)).mappings().all()
        seats_by: dict[str, list[Any]] = {}
        for r in seat_rows:
            seats_by.setdefault(r["match_id"], []).append(r)
        actions_by: dict[str, list[Any]] = {}
        for r in action_rows:
            actions_by.setdefault(r["match_id"], []).append(r)
        for row in rows:
            try:
                game = get_game(row["game"])
            except UnknownGame:
                log.warning("match %s: game %s is not available; not loaded", row["id"], row["game"])
                continue
            config = json.loads(row["config"])
            m = LiveMatch(
                id=row["id"], game=game, name=row["name"], config=config, seed=int(row["seed"]), status=row["status"],
                ai_seconds=float(row["ai_seconds"]), turn_seconds=row["turn_seconds"], turn_started_at=row["turn_started_at"],
                created_at=row["created_at"], updated_at=row["updated_at"],
                seats=[Seat(r["kind"], r["name"], r["token_hash"], r["agent"]) for r in seats_by.get(row["id"], [])],
                state=game.initial_state(config, int(row["seed"])),
                undo_request=json.loads(row["undo_request"]) if row["undo_request"] else None,
            )
            try:
                for a in actions_by.get(row["id"], []):
                    self._advance(m, int(a["seat"]), json.loads(a["action"]), a["source"])
            except (RuleError, *MALFORMED) as exc:
                log.error("match %s: replay failed at action %d: %s", row["id"], m.version, exc)
                continue
            out = game.outcome(m.state)
            m.outcome = out.to_json() if out else None
            self.matches[m.id] = m
        log.info("loaded %d matches", len(self.matches))

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._checkpointer.start()
        for m in self.matches.values():
            self._after_change(m)

    async def stop(self) -> None:
        for m in self.matches.values():
            if m.ai_task:
                m.ai_task.cancel()
            if m.clock_handle:
                m.clock_handle.cancel()
        self.ai.shutdown()
        self._db.shutdown()
        self._checkpointer.stop()

    async def _write(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await self._db.run(fn, *args)

    # --------------------------------------------------------------- persistence
    @staticmethod
    def _db_insert_match(conn: Connection, m: LiveMatch) -> None:
        _exec(conn, _insert_sql("matches", _MATCH_COLUMNS), {
            "id": m.id, "game": m.game.id, "name": m.name, "config": dumps(m.config), "seed": m.seed, "status": m.status,
            "version": 0, "ai_seconds": m.ai_seconds, "turn_seconds": m.turn_seconds, "turn_started_at": m.turn_started_at,
            "outcome": None, "undo_request": None, "created_at": m.created_at, "updated_at": m.updated_at,
        })
        for i, s in enumerate(m.seats):
            _exec(conn, _insert_sql("seats", _SEAT_COLUMNS), {
                "match_id": m.id, "seat": i, "kind": s.kind, "name": s.name, "token_hash": s.token_hash, "agent": s.agent,
            })

    @staticmethod
    def _db_append(
        conn: Connection, match_id: str, idx: int, seat: int, action: str, source: str, fields: dict[str, Any]
    ) -> None:
        t = time.time()
        _exec(conn, _INSERT_ACTION, {"m": match_id, "i": idx, "s": seat, "a": action, "src": source, "t": t})
        rowcount = _exec(conn, _BUMP_VERSION, {"m": match_id, "i": idx, "v": idx + 1, **fields})
        if rowcount != 1:
            raise RuntimeError(f"match {match_id}: stored version is not {idx}")

    @staticmethod
    def _db_update(
        conn: Connection, match_id: str, fields: dict[str, Any], seat: tuple[int, dict[str, Any]] | None = None
    ) -> None:
        if fields:
            _exec(conn, _update_sql("matches", tuple(fields), ("id",)), {**fields, "id": match_id})
        if seat is not None:
            params = {**seat[1], "match_id": match_id, "seat": seat[0]}
            _exec(conn, _update_sql("seats", tuple(seat[1]), ("match_id", "seat")), params)

    @staticmethod
    def _db_truncate(conn: Connection, match_id: str, upto: int, fields: dict[str, Any]) -> None:
        conn.execute(delete(ACTIONS).where(ACTIONS.c.match_id == match_id, ACTIONS.c.idx >= upto))
        conn.execute(update(MATCHES).where(MATCHES.c.id == match_id).values(version=upto, **fields))

    # ------------------------------------------------------------------- lookups
    def get(self, match_id: str) -> LiveMatch:
        m = self.matches.get(match_id)
        if m is None:
            raise ServiceError(404, "not_found", f"no match {match_id!r}")
        return m

    def check_token(self, m: LiveMatch, seat: int, token: str | None) -> None:
        """SRV-A3: only the holder of a seat's token acts for it."""
        if not 0 <= seat < len(m.seats):
            raise ServiceError(404, "no_such_seat", f"match {m.id} has seats 0..{len(m.seats) - 1}")
        s = m.seats[seat]
        if s.kind != "human" or not token or s.token_hash is None or not secrets.compare_digest(s.token_hash, hash_token(token)):
            raise ServiceError(403, "bad_token", f"wrong or missing token for seat {seat} (SRV-A3)")

    def list(self, status: str | None = None, game: str | None = None) -> list[dict[str, Any]]:
        out = [
            m.summary()
            for m in self.matches.values()
            if (status is None or m.status == status) and (game is None or m.game.id == game)
        ]
        out.sort(key=lambda d: -d["updated_at"])
        return out

    # ------------------------------------------------------------------- creation
    async def create(
        self,
        game_id: str,
        config: dict[str, Any] | None,
        seed: int | None = None,
        name: str = "",
        ai_seats: dict[int, str | None] | None = None,
        ai_seconds: float = 1.0,
        turn_seconds: float | None = None,
    ) -> LiveMatch:
        try:
            game = get_game(game_id)
        except UnknownGame as exc:
            raise ServiceError(404, "unknown_game", str(exc)) from exc
        try:
            cfg = game.normalize_config(config)
        except ConfigError as exc:
            raise ServiceError(422, "bad_config", str(exc)) from exc
        if not 0.01 <= ai_seconds <= 120:
            raise ServiceError(422, "bad_config", "ai_seconds must be in 0.01..120")
        if turn_seconds is not None and not 1 <= turn_seconds <= 30 * 86400:
            raise ServiceError(422, "bad_config", "turn_seconds must be in 1..2592000 (30 days)")
        if seed is None:
            seed = secrets.randbits(62)
        if not 0 <= seed < 2**63:
            raise ServiceError(422, "bad_config", "seed must be in 0..2**63-1")
        n = game.num_players(cfg)
        seats = [Seat() for _ in range(n)]
        agents, default = agent_registry(game) if ai_seats else ({}, "")
        for seat, agent in (ai_seats or {}).items():
            if not 0 <= seat < n:
                raise ServiceError(422, "bad_config", f"AI seat {seat} out of range 0..{n - 1}")
            if agent is not None and agent not in agents:
                raise ServiceError(422, "bad_config", f"unknown agent {agent!r}; known: {sorted(agents)}")
            seats[seat] = Seat(kind="ai", name=f"AI ({agent or default})", agent=agent or default)
        try:
            state = game.initial_state(cfg, seed)
        except ConfigError as exc:
            raise ServiceError(422, "bad_config", str(exc)) from exc
        t = time.time()
        m = LiveMatch(
            id=secrets.token_hex(8), game=game, name=name[:200], config=cfg, seed=seed, status="open", ai_seconds=ai_seconds,
            turn_seconds=turn_seconds, turn_started_at=None, created_at=t, updated_at=t, seats=seats, state=state,
        )
        self._maybe_start(m)
        await self._write(self._db_insert_match, m)
        self.matches[m.id] = m
        log.info("match created", extra={"match": m.id, "game": game.id})
        self._after_change(m)
        return m

    def _maybe_start(self, m: LiveMatch) -> bool:
        if m.status == "open" and all(s.kind != "open" for s in m.seats):
            m.status = "running"
            m.turn_started_at = time.time()
            out = m.game.outcome(m.state)
            if out is not None:
                m.status, m.outcome = "finished", out.to_json()
            return True
        return False

    async def join(self, match_id: str, seat: int, name: str = "") -> str:
        """Take an open seat; returns the seat's secret token (shown once)."""
        m = self.get(match_id)
        async with m.lock:
            if not 0 <= seat < len(m.seats):
                raise ServiceError(404, "no_such_seat", f"match {m.id} has seats 0..{len(m.seats) - 1}")
            if m.status == "finished":
                raise ServiceError(409, "finished", "the match is over")
            if m.seats[seat].kind != "open":
                raise ServiceError(409, "seat_taken", f"seat {seat} is taken")
            token = secrets.token_urlsafe(18)
            restore = self._memo(m)
            m.seats[seat] = Seat("human", (name or f"Player {seat + 1}")[:100], hash_token(token), None)
            started = self._maybe_start(m)
            m.updated_at = time.time()
            await self._store(m, restore, self._db_update, m.id, self._match_fields(m), (seat, self._seat_fields(m.seats[seat])))
            self._broadcast_snapshots(m)
            if started:
                self._after_change(m)
            return token

    async def leave(self, match_id: str, seat: int, token: str | None) -> None:
        m = self.get(match_id)
        async with m.lock:
            self.check_token(m, seat, token)
            restore = self._memo(m)
            m.seats[seat] = Seat()
            m.updated_at = time.time()
            seat_fields = (seat, self._seat_fields(m.seats[seat]))
            await self._store(m, restore, self._db_update, m.id, {"updated_at": m.updated_at}, seat_fields)
            self._broadcast_snapshots(m)

    async def set_ai(self, match_id: str, seat: int, agent: str | None, by_seat: int | None, token: str | None) -> None:
        """Put an AI on an open seat. Once somebody sits in the match, only a seated player may do it."""
        m = self.get(match_id)
        async with m.lock:
            if not 0 <= seat < len(m.seats):
                raise ServiceError(404, "no_such_seat", f"match {m.id} has seats 0..{len(m.seats) - 1}")
            if m.seats[seat].kind != "open":
                raise ServiceError(409, "seat_taken", f"seat {seat} is taken")
            if any(s.kind == "human" for s in m.seats):
                if by_seat is None:
                    raise ServiceError(403, "bad_token", "a seated player's seat and token are needed to add an AI (SRV-A3)")
                self.check_token(m, by_seat, token)
            agents, default = agent_registry(m.game)
            if agent is not None and agent not in agents:
                raise ServiceError(422, "bad_config", f"unknown agent {agent!r}; known: {sorted(agents)}")
            restore = self._memo(m)
            m.seats[seat] = Seat("ai", f"AI ({agent or default})", None, agent or default)
            self._maybe_start(m)
            m.updated_at = time.time()
            await self._store(m, restore, self._db_update, m.id, self._match_fields(m), (seat, self._seat_fields(m.seats[seat])))
            self._broadcast_snapshots(m)
            self._after_change(m)

    @staticmethod
    def _memo(m: LiveMatch) -> Callable[[], None]:
        """Remember the mutable lobby fields of a match, to restore them if storing fails."""
        seats, status, started, outcome, updated = list(m.seats), m.status, m.turn_started_at, m.outcome, m.updated_at
        undo = json.loads(json.dumps(m.undo_request))

        def restore() -> None:
            m.seats[:] = seats
            m.status, m.turn_started_at, m.outcome, m.updated_at, m.undo_request = status, started, outcome, updated, undo

        return restore

    async def _store(self, m: LiveMatch, restore: Callable[[], None], fn: Callable[..., Any], *args: Any) -> None:
        """Write; on failure undo the in-memory change and tell the client (nothing changed)."""
        try:
            await self._write(fn, *args)
        except Exception as exc:
            restore()
            log.exception("storing a change of match %s failed", m.id)
            raise ServiceError(503, "storage_error", "the change could not be stored; nothing changed, try again") from exc

    @staticmethod
    def _seat_fields(s: Seat) -> dict[str, Any]:
        return {"kind": s.kind, "name": s.name, "token_hash": s.token_hash, "agent": s.agent}

    @staticmethod
    def _match_fields(m: LiveMatch) -> dict[str, Any]:
        return {
            "status": m.status, "turn_started_at": m.turn_started_at, "updated_at": m.updated_at,
            "outcome": dumps(m.outcome) if m.outcome is not None else None,
            "undo_request": dumps(m.undo_request) if m.undo_request is not None else None,
        }

    # -------------------------------------------------------------------- actions
    def _advance(self, m: LiveMatch, seat: int, action: Action, source: str) -> Any:
        """Apply an action to the live match in memory (no checks beyond the game's)."""
        game = m.game
        before = m.state
        after = game.apply(before, seat, action)
        views: dict[int | None, Action | None] = {}
        for viewer in [None, *range(len(m.seats))]:
            views[viewer] = game.action_view(before, seat, action, viewer)
        m.log.append(Entry(seat, action, source, views, _text(game, before, seat, action), tuple(game.to_act(before))))
        m.state = after
        return before

    @staticmethod
    def _concurrent_ok(m: LiveMatch, seat: int, version: int) -> bool:
        """SRV-A1b: an older version is still good for a seat whose decision has been pending
        the whole time while only *other* seats acted (sealed simultaneous decisions: buying,
        planning, bids). The seat's choice is about the same decision point, so it is not
        stale; the game still validates it against the current state."""
        if not 0 <= version < m.version or seat not in m.to_act():
            return False
        return all(e.seat != seat and seat in e.waiting for e in m.log[version:])

    async def act(self, match_id: str, seat: int, token: str | None, version: Any, action: Any, source: str = "player") -> int:
        """Apply ``action`` for ``seat`` if ``version`` is current (SRV-A1..A3). Returns the new version."""
        m = self.get(match_id)
        if source == "player":
            self.check_token(m, seat, token)
        if not isinstance(version, int) or isinstance(version, bool):
            raise ServiceError(
                400, "bad_request", "'version' (an integer: the state version the action was computed against) is required"
            )
        if not isinstance(action, dict):
            raise ServiceError(422, "illegal_action", "an action is a JSON object", rule="CORE-ACTION")
        async with m.lock:
            if m.status == "open":
                raise ServiceError(409, "not_started", "the match waits for players to take every seat")
            if m.status == "finished":
                raise ServiceError(409, "finished", "the match is over")
            if version != m.version and not self._concurrent_ok(m, seat, version):
                raise ServiceError(409, "stale_version", f"stale state: action computed against version {version}, "
                                   f"the match is at version {m.version}; reload and retry (SRV-A1)")
            game = m.game
            old_to_act = m.to_act()
            try:
                game.check_turn(m.state, seat)
                after = game.apply(m.state, seat, action)
            except RuleError as exc:
                raise ServiceError(422, "illegal_action", exc.message, rule=exc.rule) from exc
            except MALFORMED as exc:
                raise ServiceError(422, "illegal_action", f"malformed action: {exc!r}", rule="CORE-ACTION") from exc
            new_to_act = game.to_act(after)
            out = game.outcome(after)
            started_at = m.turn_started_at
            if not set(new_to_act) <= set(old_to_act):
                started_at = time.time()  # SRV-C1: a seat newly to act gets a fresh clock
            fields = {
                "status": "finished" if out is not None else "running",
                "turn_started_at": started_at,
                "updated_at": time.time(),
                "outcome": dumps(out.to_json()) if out is not None else None,
                "undo_request": None,
            }
            idx = m.version
            try:
                await self._write(self._db_append, m.id, idx, seat, dumps(action), source, fields)
            except Exception as exc:  # nothing was stored, so nothing changes
                log.exception("storing an action of match %s failed", m.id)
                raise ServiceError(503, "storage_error", "the action could not be stored; nothing changed, try again") from exc
            # committed: now mutate memory (nothing above changed the live match)
            views = {viewer: game.action_view(m.state, seat, action, viewer) for viewer in [None, *range(len(m.seats))]}
            m.log.append(Entry(seat, action, source, views, _text(game, m.state, seat, action), tuple(old_to_act)))
            m.state = after
            m.status = fields["status"]
            m.turn_started_at = started_at
            m.updated_at = fields["updated_at"]
            m.outcome = out.to_json() if out is not None else None
            m.undo_request = None
            await self._prepare_legal(m)
            self._broadcast_event(m)
            self._after_change(m)
            return m.version

    # ------------------------------------------------------------- legal actions
    def legal_page(self, match_id: str, seat: int, token: str | None, offset: int = 0, limit: int = 1000) -> dict[str, Any]:
        """SRV-L2: a page of a seat's legal actions (all of them, in canonical order), for seats whose
        list was too long to send whole (``legal_complete`` false). Token-checked (SRV-A3)."""
        m = self.get(match_id)
        self.check_token(m, seat, token)
        if offset < 0 or not 1 <= limit <= LEGAL_PAGE_MAX:
            raise ServiceError(422, "bad_request", f"offset must be >= 0 and limit in 1..{LEGAL_PAGE_MAX}")
        legal = m.legal(seat) if seat in m.to_act() else []
        page = legal[offset:offset + limit]
        return {"version": m.version, "seat": seat, "count": len(legal), "offset": offset, "actions": page}

    def check_action(self, match_id: str, seat: int, token: str | None, version: Any, action: Any) -> dict[str, Any]:
        """SRV-L3: would ``action`` be accepted now? The same checks as ``act`` (SRV-A1..A3), nothing stored
        or changed: ``{"legal": true}`` or ``{"legal": false, "rule": ..., "message": ...}``."""
        m = self.get(match_id)
        self.check_token(m, seat, token)
        if not isinstance(version, int) or isinstance(version, bool):
            raise ServiceError(400, "bad_request", "'version' (an integer) is required")
        if m.status != "running":
            raise ServiceError(409, m.status if m.status == "finished" else "not_started", f"the match is {m.status}")
        if version != m.version and not self._concurrent_ok(m, seat, version):
            raise ServiceError(409, "stale_version", f"stale state: the match is at version {m.version} (SRV-A1)")
        if not isinstance(action, dict):
            return {"legal": False, "rule": "CORE-ACTION", "message": "an action is a JSON object"}
        try:
            m.game.check_turn(m.state, seat)
            m.game.apply(m.state, seat, action)
        except RuleError as exc:
            return {"legal": False, "rule": exc.rule, "message": exc.message}
        except MALFORMED as exc:
            return {"legal": False, "rule": "CORE-ACTION", "message": f"malformed action: {exc!r}"}
        return {"legal": True}

    # ------------------------------------------------------------------- messages
    def snapshot(self, m: LiveMatch, viewer: int | None, kind: str = "snapshot") -> dict[str, Any]:
        """Everything a client shows, filtered for ``viewer`` (SRV-V1); legal actions only for a seat to act (SRV-L1)."""
        to_act = m.to_act()
        return {
            "type": kind,
            "match": m.summary(),
            "seat": viewer,
            "version": m.version,
            "view": m.view(viewer),
            "to_act": list(to_act),
            **self.legal_fields(m, viewer, to_act),
            "log": [self._entry_json(m, i, e, viewer) for i, e in enumerate(m.log)],
        }

    def legal_fields(self, m: LiveMatch, viewer: int | None, to_act: tuple[int, ...]) -> dict[str, Any]:
        """SRV-L1: the ``legal``, ``legal_count`` and ``legal_complete`` fields of a message.

        Only a seat that must act gets legal actions (others: ``[]``). Up to ``LEGAL_LIMIT`` actions are
        sent in full; above it ``legal`` holds a selection of ``LEGAL_LIMIT`` of them (the simplest ones:
        fewest list/dict entries, e.g. tremble plans with one group; canonical order kept),
        ``legal_complete`` is false and ``legal_count`` gives the total. The rest is fetched page by page
        from ``GET /api/matches/{id}/legal`` and any composed action can be checked with
        ``POST /api/matches/{id}/legal/check``; the server validates every action anyway (SRV-A2)."""
        if viewer is None or viewer not in to_act:
            return {"legal": [], "legal_count": 0, "legal_complete": True}
        m._fresh()
        cached = m._legal_sent.get(viewer)
        if cached is None:
            legal = m.legal(viewer)
            cached = m._legal_sent[viewer] = {
                "legal": select_legal(legal, LEGAL_LIMIT), "legal_count": len(legal), "legal_complete": len(legal) <= LEGAL_LIMIT,
            }
        return cached

    def _entry_json(self, m: LiveMatch, index: int, e: Entry, viewer: int | None) -> dict[str, Any]:
        shown = e.views.get(viewer)
        full = viewer == e.seat or (not m.game.hidden_information and shown == e.action)
        return {"index": index, "seat": e.seat, "action": shown, "text": e.text if full else None, "source": e.source}

    def subscribe(self, m: LiveMatch, viewer: int | None) -> Subscriber:
        sub = Subscriber(viewer, asyncio.Queue())
        m.subscribers.append(sub)
        sub.queue.put_nowait(_dumps(self.snapshot(m, viewer)))
        return sub

    def unsubscribe(self, m: LiveMatch, sub: Subscriber) -> None:
        with contextlib.suppress(ValueError):
            m.subscribers.remove(sub)

    def _broadcast_snapshots(self, m: LiveMatch, reason: str = "update") -> None:
        cache: dict[int | None, str] = {}
        for sub in m.subscribers:
            if sub.seat not in cache:
                snap = self.snapshot(m, sub.seat)
                snap["reason"] = reason
                cache[sub.seat] = _dumps(snap)
            sub.push(cache[sub.seat])

    async def _prepare_legal(self, m: LiveMatch) -> None:
        """SRV-L4: for a game whose legal actions are slow to enumerate (tremble's plan decision: thousands
        of plans, a third of a second), the lists the coming event needs are computed in a worker thread,
        so the event loop keeps serving the other matches meanwhile instead of stopping; this match waits
        (its lock is held, so its events stay in order)."""
        if m.game.id not in SLOW_LEGAL_GAMES or not m.subscribers:
            return
        m._fresh()
        seats = {sub.seat for sub in m.subscribers}
        for seat in m.to_act():
            if seat in seats and seat not in m._legal:
                await asyncio.to_thread(m.legal, seat)

    def _broadcast_event(self, m: LiveMatch) -> None:
        """Send every connected client the event of the last action (SRV-V1). Views and legal actions are
        computed only for the seats that have a client, once per seat (SRV-V2), and the parts every client
        shares (match summary, ``to_act``) are encoded once and spliced into each client's message."""
        if not m.subscribers:
            return
        to_act = m.to_act()
        entry = m.log[-1]
        index = m.version - 1
        head = f'{{"type":"event","match":{_dumps(m.summary())},"version":{m.version},"to_act":{_dumps(list(to_act))},"seat":'
        cache: dict[int | None, str] = {}
        for sub in m.subscribers:
            v = sub.seat
            text = cache.get(v, "")
            if not text:
                body = {"last": self._entry_json(m, index, entry, v), "view": m.view(v), **self.legal_fields(m, v, to_act)}
                text = cache[v] = f"{head}{'null' if v is None else v},{_dumps(body)[1:]}"
            sub.push(text)

    # ------------------------------------------------------------ AI and clocks
    def _after_change(self, m: LiveMatch) -> None:
        if self._loop is None:
            return
        self._schedule_clock(m)
        ai_to_act = m.status == "running" and any(m.seats[s].kind == "ai" for s in m.to_act())
        if ai_to_act and (m.ai_task is None or m.ai_task.done()):
                m.ai_task = self._loop.create_task(self._ai_loop(m))

    async def _ai_loop(self, m: LiveMatch) -> None:
        while m.status == "running":
            seats = [s for s in m.to_act() if m.seats[s].kind == "ai"]
            if not seats:
                return
            seat, version, state = seats[0], m.version, m.state
            seed = mix_seed(m.seed, "ai", version, seat)
            try:
                action = await self.ai.choose(m.game, state, seat, m.seats[seat].agent or "", seed, m.ai_seconds)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("AI failed in match %s; playing the first legal action", m.id)
                legal = m.game.legal_actions(state, seat)
                if not legal:
                    return
                action = legal[0]
            if m.version != version:
                continue
            try:
                await self.act(m.id, seat, None, version, to_jsonable(action), source="ai")
            except ServiceError as exc:
                if exc.code == "stale_version":
                    continue
                log.error("AI action refused in match %s: %s", m.id, exc.message)
                return

    def _schedule_clock(self, m: LiveMatch) -> None:
        if m.clock_handle is not None:
            m.clock_handle.cancel()
            m.clock_handle = None
        deadline = m.deadline()
        if deadline is None or self._loop is None or not m.to_act():
            return
        version = m.version
        delay = max(0.0, deadline - time.time())
        m.clock_handle = self._loop.call_later(delay, lambda: asyncio.ensure_future(self._timeout(m, version)))

    @staticmethod
    def timeout_action(game: Game[Any], state: Any, seat: int) -> Action | None:
        """SRV-C2: the action played for a seat whose time ran out: the game's own
        ``timeout_action(state, seat)`` if it defines one and it is legal, else
        ``{"type": "resign"}`` if legal, else the first legal action."""
        legal = game.legal_actions(state, seat)
        keys = {action_key(a) for a in legal}
        hook = getattr(game, "timeout_action", None)
        if callable(hook):
            proposed = hook(state, seat)
            if proposed is not None and action_key(proposed) in keys:
                return dict(proposed)
        for a in legal:
            if a.get("type") == "resign":
                return a
        return legal[0] if legal else None

    async def _timeout(self, m: LiveMatch, version: int) -> None:
        if m.version != version or m.status != "running":
            return
        for seat in list(m.to_act()):
            if m.status != "running" or seat not in m.to_act():
                continue
            action = self.timeout_action(m.game, m.state, seat)
            if action is None:
                continue
            log.info("clock ran out", extra={"match": m.id, "seat": seat})
            try:
                await self.act(m.id, seat, None, m.version, action, source="timeout")
            except ServiceError as exc:
                log.warning("timeout action refused in match %s: %s", m.id, exc.message)

    # ---------------------------------------------------------------------- undo
    def undo_point(self, m: LiveMatch, seat: int) -> int:
        """Index of the first log entry an undo by ``seat`` removes, or raise why not (SRV-U1..U3)."""
        if m.status != "running":
            raise ServiceError(409, "undo_refused", "undo is only possible in a running match (SRV-U1)")
        i = len(m.log) - 1
        while i >= 0 and m.log[i].seat != seat and m.log[i].source == "ai":
            i -= 1
        if i < 0 or m.log[i].seat != seat or m.log[i].source != "player":
            raise ServiceError(
                409, "undo_refused", "only your own last action (and the AI replies after it) can be taken back (SRV-U1)"
            )
        game = m.game
        before = replay_log(game, m, i)
        if getattr(before, "rng", None) != getattr(m.state, "rng", None):
            raise ServiceError(409, "undo_refused", "dice were rolled or cards drawn since that action (SRV-U2)")
        target = game.view(m.state, seat)
        refused = ServiceError(409, "undo_refused", "hidden information was revealed to you since that action (SRV-U3)")
        # SRV-U3: what this seat sees now must not depend on anything hidden from it: replay the
        # undone actions on states resampled from its point of view, with every action it could
        # not see replaced by an alternative it could not tell apart; the view must stay the same.
        for k in range(8):
            probe = game.determinize(before, seat, Rng.from_seed(mix_seed(m.seed, "undo", k)))
            try:
                for e in m.log[i:]:
                    action = e.action
                    if e.seat != seat and e.views.get(seat) != e.action:
                        alike = [a for a in game.legal_actions(probe, e.seat)
                                 if game.action_view(probe, e.seat, a, seat) == e.views.get(seat)]
                        if alike:
                            action = alike[k % len(alike)]
                    probe = game.apply(probe, e.seat, action)
            except (RuleError, *MALFORMED) as exc:
                raise refused from exc
            if game.view(probe, seat) != target:
                raise refused
        return i

    async def request_undo(self, match_id: str, seat: int, token: str | None) -> dict[str, Any]:
        m = self.get(match_id)
        self.check_token(m, seat, token)
        async with m.lock:
            point = self.undo_point(m, seat)
            others = [i for i, s in enumerate(m.seats) if s.kind == "human" and i != seat]
            if not others:  # SRV-U4: against AI only, no consent needed
                await self._undo(m, point)
                return {"done": True, "version": m.version}
            restore = self._memo(m)
            m.undo_request = {"seat": seat, "version": m.version, "to": point, "accepted": [seat], "waiting": others}
            m.updated_at = time.time()
            await self._store(m, restore, self._db_update, m.id, self._match_fields(m))
            self._broadcast_snapshots(m, "undo_request")
            return {"done": False, "waiting": others, "version": m.version}

    async def answer_undo(self, match_id: str, seat: int, token: str | None, accept: bool) -> dict[str, Any]:
        m = self.get(match_id)
        self.check_token(m, seat, token)
        async with m.lock:
            req = m.undo_request
            if req is None or req["version"] != m.version:
                raise ServiceError(409, "no_undo_request", "there is no pending undo request")
            if seat not in req["waiting"]:
                raise ServiceError(409, "no_undo_request", f"seat {seat} is not asked to consent")
            restore = self._memo(m)
            if not accept:
                m.undo_request = None
                await self._store(m, restore, self._db_update, m.id, self._match_fields(m))
                self._broadcast_snapshots(m, "undo_declined")
                return {"done": False, "declined": True, "version": m.version}
            waiting = [s for s in req["waiting"] if s != seat]
            req = m.undo_request = {**req, "waiting": waiting, "accepted": [*req["accepted"], seat]}
            if req["waiting"]:
                await self._store(m, restore, self._db_update, m.id, self._match_fields(m))
                self._broadcast_snapshots(m, "undo_request")
                return {"done": False, "waiting": req["waiting"], "version": m.version}
            try:
                point = self.undo_point(m, int(req["seat"]))
            except ServiceError:
                restore()
                raise
            await self._undo(m, point)
            return {"done": True, "version": m.version}

    async def _undo(self, m: LiveMatch, point: int) -> None:
        state = replay_log(m.game, m, point)
        restore = self._memo(m)
        m.undo_request = None
        m.updated_at = time.time()
        fields = self._match_fields(m)
        await self._store(m, restore, self._db_truncate, m.id, point, fields)
        del m.log[point:]
        m.state = state
        log.info("undo", extra={"match": m.id, "version": point})
        self._broadcast_snapshots(m, "undo")
        self._after_change(m)

    # ------------------------------------------------------------------- replays
    def replay_state(self, m: LiveMatch, step: int) -> Any:
        if not 0 <= step <= m.version:
            raise ServiceError(404, "no_such_step", f"steps are 0..{m.version}")
        return replay_log(m.game, m, step)


#: SRV-L1: the most legal actions sent in one message; above it a selection is sent (see ``legal_fields``).
LEGAL_LIMIT = 400
#: SRV-L4: a game whose ``legal_actions`` once took longer than this (seconds) has them computed off the event loop.
SLOW_LEGAL = 0.02
SLOW_LEGAL_GAMES: set[str] = set()
#: SRV-L2: the largest page of ``GET /api/matches/{id}/legal``.
LEGAL_PAGE_MAX = 5000

_encoder = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)
_dumps = _encoder.encode


def _weight(action: Action) -> int:
    """How composite an action is: the number of entries in its list/dict values (0 for a flat action)."""
    return sum(len(v) for v in action.values() if isinstance(v, (list, dict)))


def select_legal(legal: list[Action], limit: int) -> list[Action]:
    """SRV-L1: all of ``legal`` if it has at most ``limit`` actions, else the ``limit`` simplest ones
    (smallest ``_weight``, ties in canonical order), returned in canonical order."""
    if len(legal) <= limit:
        return legal
    keep = sorted(range(len(legal)), key=lambda i: _weight(legal[i]))[:limit]
    keep.sort()
    return [legal[i] for i in keep]


def replay_log(game: Game[Any], m: LiveMatch, upto: int) -> Any:
    """The state after the first ``upto`` logged actions of ``m`` (replayed from the seed)."""
    state = game.initial_state(m.config, m.seed)
    for e in m.log[:upto]:
        state = game.apply(state, e.seat, e.action)
    return state


__all__ = ["LiveMatch", "MatchService", "ServiceError", "SpacetableError"]


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
