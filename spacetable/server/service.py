"""The authoritative match service: lobby, seats, actions, AI seats, clocks, undo.

Larger than the ~500-line guide because it is the one place where a match changes (seats, actions,
undo, clocks, AI moves) under its lock, each change stored before it is shown; storage lives in
``store.py``, the in-memory match in ``live.py``, the bounds in ``limits.py``.

Rule ids used in errors and docs (see ``docs/server.md``):

* SRV-A1 every action carries the state version it was computed against; a stale
  version is refused (409) and nothing changes.
* SRV-A1b exception: in a sealed simultaneous decision, a seat whose decision was pending
  the whole time while only other seats acted may still send its choice against the older
  version (the others' sealed commits did not change its decision point).
* SRV-A2 an action is normalised by ``game.normalize_action`` (the game's declared schema: unknown
  fields, wrong types, non-finite numbers are ``CORE-ACTION``) and applied only through
  ``game.apply``; a rejected action names the rule and changes nothing; only the normalised action is
  stored and sent.
* SRV-A3 nobody acts for a seat without its secret token.
* SRV-A4 leaving a seat revokes its token: every socket bound to it is closed with a message.
* SRV-V1 each client receives only ``game.view(state, its seat)`` and, per action,
  ``game.action_view(before, actor, action, its seat)``; spectators get seat ``None``.
* SRV-V3 a client gets each action once: the event of an action is not sent to a client whose
  first snapshot already contained it.
* SRV-P1/P2 a match is config + seed + action log; each action is appended in the
  same transaction as the version bump. SRV-P4 a match that cannot be loaded is marked broken
  (with the reason) and the rest of the server goes on.
* SRV-S1 seeds come from ``secrets``; a chosen seed only in an "open seed" match, shown to everybody;
  every seed is published once its match is over.
* SRV-M1 finished and idle matches leave memory and are loaded again from the database on demand.
* SRV-C1 optional per-turn clock; SRV-C2 timeout action.
* SRV-U1..U4 undo policy.
* SRV-V2 views, legal actions and ``to_act`` are computed once per state and only for connected clients.
* SRV-L1 legal actions go only to a seat that must act; above ``LEGAL_LIMIT`` a selection plus the count;
  SRV-L2 ``legal_page`` pages through all of them; SRV-L3 ``check_action`` tests one without playing it;
  SRV-L4 a game declaring ``slow_legal_actions`` has them listed in a worker thread before the new state
  is published.
* SRV-B1 action-path costs (see ``docs/server.md``, Performance): prepared statements on the driver's
  cursor for SQLite, shared JSON encoded once per event, no replays.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy import delete, update
from sqlalchemy.engine import Connection, Engine

from spacetable.core.errors import ConfigError, RuleError, SpacetableError
from spacetable.core.game import Action, Game
from spacetable.core.rng import Rng, mix_seed
from spacetable.core.serial import action_key, to_jsonable
from spacetable.games import UnknownGame, get_game

from . import presentation, store
from .ai import AIRunner, agent_registry
from .db import Checkpointer, dumps
from .errors import ServiceError
from .limits import Limits
from .live import (
    LEGAL_LIMIT,
    LEGAL_PAGE_MAX,
    MAX_BACKLOG,
    Entry,
    LiveMatch,
    Seat,
    Subscriber,
    dumps_compact,
    hash_token,
    public_config,
    replay_log,
    select_legal,
)
from .store import ACTIONS, MATCHES, DbWriter

log = logging.getLogger("spacetable.server")

#: Engine exceptions on malformed input that are reported as CORE-ACTION, not as a server error.
MALFORMED = (KeyError, TypeError, ValueError, IndexError, AttributeError)
#: Seconds between two passes of the eviction sweep (SRV-M1).
SWEEP_INTERVAL = 15.0

_dumps = dumps_compact


def _text(game: Game[Any], state: Any, seat: int, action: Action) -> str:
    try:
        return str(game.action_text(state, seat, action))
    except Exception:  # a presentation helper must never break play
        return action_key(action)


def _reason(exc: BaseException) -> str:
    """Why a stored match cannot be loaded, for the lobby: rule and config messages, else the error's kind."""
    if isinstance(exc, RuleError):
        return f"[{exc.rule}] {exc.message}"
    if isinstance(exc, (ConfigError, ServiceError)):
        return str(exc)
    return f"{type(exc).__name__} while replaying"


class MatchService:
    """Owns the live matches; all mutation happens on the event loop under a per-match lock, each change
    stored (one transaction) before it is shown."""

    def __init__(self, engine: Engine, ai_workers: int = 1, limits: Limits | None = None) -> None:
        self.engine = engine
        self.limits = limits or Limits()
        self.matches: dict[str, LiveMatch] = {}
        #: matches that could not be loaded (SRV-P4): id -> reason
        self.broken: dict[str, str] = {}
        self.ai = AIRunner(ai_workers)
        self._db = DbWriter(engine)
        self._checkpointer = Checkpointer(engine)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._sweeper: asyncio.Task[None] | None = None
        #: evicted matches with a running clock: a timer loads them again when it runs out (SRV-M1, SRV-C1)
        self._wakes: dict[str, asyncio.TimerHandle] = {}
        self.sockets = 0

    # ------------------------------------------------------------------ life cycle
    def load(self) -> None:
        """Load the matches that need the server without anybody asking: running ones where an AI or a clock
        may act (SRV-P1). The others are loaded when somebody asks for them (SRV-M1). A match that cannot be
        loaded is marked broken with the reason; the others load regardless (SRV-P4)."""
        with self.engine.connect() as conn:
            rows = store.startup_rows(conn)
        for row in rows:
            with contextlib.suppress(ServiceError):
                self._load(row["id"])
        log.info("loaded %d matches", len(self.matches))

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._checkpointer.start()
        for m in list(self.matches.values()):
            self._after_change(m)
        self._sweeper = self._loop.create_task(self._sweep_loop())

    async def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
        for m in self.matches.values():
            if m.ai_task:
                m.ai_task.cancel()
            if m.clock_handle:
                m.clock_handle.cancel()
        for h in self._wakes.values():
            h.cancel()
        self._wakes.clear()
        self.ai.shutdown()
        self._db.shutdown()
        self._checkpointer.stop()

    async def _write(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await self._db.run(fn, *args)

    # ------------------------------------------------------------------- loading
    def _load(self, match_id: str) -> LiveMatch:
        """Replay a stored match into memory; mark it broken (and raise 409) when that fails (SRV-P4)."""
        with self.engine.connect() as conn:
            found = store.load_rows(conn, match_id)
        if found is None:
            raise ServiceError(404, "not_found", "no such match")
        row, seat_rows, action_rows = found
        try:
            m = self._replay(row, seat_rows, action_rows)
        except Exception as exc:  # anything at all: one bad match must not stop the server
            reason = _reason(exc)
            log.error("match %s cannot be loaded: %s", match_id, reason, exc_info=not isinstance(exc, SpacetableError))
            self.broken[match_id] = reason
            if row["broken"] != reason:
                with self.engine.begin() as conn:
                    store.mark_broken(conn, match_id, reason)
            raise ServiceError(409, "broken", f"this match cannot be loaded: {reason}") from None
        if row["broken"] is not None:
            with self.engine.begin() as conn:
                store.mark_broken(conn, match_id, None)
        self.broken.pop(match_id, None)
        wake = self._wakes.pop(match_id, None)
        if wake is not None:
            wake.cancel()
        self.matches[match_id] = m
        self._evict_over_cap()
        if self._loop is not None:
            self._after_change(m)
        return m

    def _replay(self, row: Any, seat_rows: list[Any], action_rows: list[Any]) -> LiveMatch:
        try:
            game = get_game(row["game"])
        except UnknownGame:
            raise ConfigError(f"the game {row['game']!r} is not installed on this server") from None
        config = game.normalize_config(json.loads(row["config"]))
        seed = int(row["seed"])
        m = LiveMatch(
            id=row["id"], game=game, name=row["name"], config=config, seed=seed, status=row["status"],
            ai_seconds=float(row["ai_seconds"]), turn_seconds=row["turn_seconds"], turn_started_at=row["turn_started_at"],
            created_at=row["created_at"], updated_at=row["updated_at"],
            seats=[Seat(r["kind"], r["name"], r["token_hash"], r["agent"]) for r in seat_rows],
            state=game.initial_state(config, seed), open_seed=bool(row["open_seed"]),
            undo_request=json.loads(row["undo_request"]) if row["undo_request"] else None,
        )
        for a in action_rows:
            self._advance(m, int(a["seat"]), json.loads(a["action"]), a["source"])
        out = game.outcome(m.state)
        m.outcome = out.to_json() if out else None
        return m

    # ------------------------------------------------------------------ eviction
    async def _sweep_loop(self) -> None:
        while True:
            await asyncio.sleep(min(SWEEP_INTERVAL, self.limits.evict_finished / 2 or SWEEP_INTERVAL))
            try:
                self.sweep()
            except Exception:  # the sweep must never stop
                log.exception("eviction sweep failed")

    @staticmethod
    def _evictable(m: LiveMatch) -> bool:
        return not m.subscribers and not m.lock.locked() and (m.ai_task is None or m.ai_task.done())

    def sweep(self, now: float | None = None) -> int:
        """SRV-M1: drop finished matches idle for ``evict_finished`` seconds and any match idle for ``evict_idle``
        seconds (nobody connected, no AI thinking, no change in progress). Returns how many left memory."""
        now = time.monotonic() if now is None else now
        gone = 0
        for m in list(self.matches.values()):
            idle = now - m.last_used
            limit = self.limits.evict_finished if m.status == "finished" else self.limits.evict_idle
            if idle >= limit and self._evictable(m):
                self._evict(m)
                gone += 1
        return gone

    def _evict_over_cap(self) -> None:
        over = len(self.matches) - self.limits.max_live_matches
        if over <= 0:
            return
        for m in sorted(self.matches.values(), key=lambda x: x.last_used):
            if over <= 0:
                break
            if self._evictable(m):
                self._evict(m)
                over -= 1

    def _evict(self, m: LiveMatch) -> None:
        m.evicted = True
        self.matches.pop(m.id, None)
        if m.clock_handle is not None:
            m.clock_handle.cancel()
            m.clock_handle = None
        deadline = m.deadline()
        if deadline is not None and self._loop is not None:
            delay = max(0.0, deadline - time.time())
            self._wakes[m.id] = self._loop.call_later(delay, self._wake, m.id)

    def _wake(self, match_id: str) -> None:
        """An evicted match's clock ran out: load it; loading schedules the timeout action (SRV-C1)."""
        self._wakes.pop(match_id, None)
        if match_id not in self.matches:
            with contextlib.suppress(ServiceError):
                self._load(match_id)

    # --------------------------------------------------------------- persistence
    @staticmethod
    def _db_insert_match(conn: Connection, m: LiveMatch, fields: dict[str, Any]) -> None:
        store.execute(conn, store.insert_sql("matches", store.MATCH_COLUMNS), {
            "id": m.id, "game": m.game.id, "name": m.name, "config": dumps(m.config), "seed": m.seed,
            "version": 0, "ai_seconds": m.ai_seconds, "turn_seconds": m.turn_seconds, "created_at": m.created_at,
            "open_seed": m.open_seed, "broken": None, **fields,
        })
        for i, s in enumerate(m.seats):
            store.execute(conn, store.insert_sql("seats", store.SEAT_COLUMNS), {
                "match_id": m.id, "seat": i, "kind": s.kind, "name": s.name, "token_hash": s.token_hash, "agent": s.agent,
            })

    @staticmethod
    def _db_append(
        conn: Connection, match_id: str, idx: int, seat: int, action: str, source: str, fields: dict[str, Any]
    ) -> None:
        t = time.time()
        store.execute(conn, store.INSERT_ACTION, {"m": match_id, "i": idx, "s": seat, "a": action, "src": source, "t": t})
        rowcount = store.execute(conn, store.BUMP_VERSION, {"m": match_id, "i": idx, "v": idx + 1, **fields})
        if rowcount != 1:
            raise RuntimeError(f"match {match_id}: stored version is not {idx}")

    @staticmethod
    def _db_update(
        conn: Connection, match_id: str, fields: dict[str, Any], seat: tuple[int, dict[str, Any]] | None = None
    ) -> None:
        if fields:
            store.execute(conn, store.update_sql("matches", tuple(fields), ("id",)), {**fields, "id": match_id})
        if seat is not None:
            params = {**seat[1], "match_id": match_id, "seat": seat[0]}
            store.execute(conn, store.update_sql("seats", tuple(seat[1]), ("match_id", "seat")), params)

    @staticmethod
    def _db_truncate(conn: Connection, match_id: str, upto: int, fields: dict[str, Any]) -> None:
        conn.execute(delete(ACTIONS).where(ACTIONS.c.match_id == match_id, ACTIONS.c.idx >= upto))
        conn.execute(update(MATCHES).where(MATCHES.c.id == match_id).values(version=upto, **fields))

    # ------------------------------------------------------------------- lookups
    def get(self, match_id: str) -> LiveMatch:
        """The live match, loaded from the database if it is not in memory (SRV-M1)."""
        m = self.matches.get(match_id)
        if m is None:
            if not isinstance(match_id, str) or not 1 <= len(match_id) <= 32 or not match_id.isalnum():
                raise ServiceError(404, "not_found", "no such match")
            reason = self.broken.get(match_id)
            if reason is not None:
                raise ServiceError(409, "broken", f"this match cannot be loaded: {reason}")
            m = self._load(match_id)
        m.last_used = time.monotonic()
        return m

    def summary(self, match_id: str) -> dict[str, Any]:
        """A match's summary; a broken match's comes from its stored row, with the reason (SRV-P4)."""
        try:
            return self.get(match_id).summary()
        except ServiceError as exc:
            if exc.code != "broken":
                raise
        with self.engine.connect() as conn:
            found = store.match_rows(conn, [match_id]).get(match_id)
        if found is None:
            raise ServiceError(404, "not_found", "no such match")
        return self.row_summary(*found)

    def row_summary(self, row: Any, seats: list[Any]) -> dict[str, Any]:
        """A summary built from stored rows (lobby pages, broken matches), the same fields as ``LiveMatch.summary``."""
        try:
            game_name = get_game(row["game"]).name
        except UnknownGame:
            game_name = row["game"]
        status = row["status"]
        deadline = None
        if status == "running" and row["turn_seconds"] and row["turn_started_at"] is not None:
            deadline = row["turn_started_at"] + row["turn_seconds"]
        return {
            "id": row["id"], "game": row["game"], "game_name": game_name, "name": row["name"],
            "config": public_config(json.loads(row["config"])), "status": status, "version": row["version"],
            "players": len(seats), "seats": [Seat(s["kind"], s["name"], None, s["agent"]).public(s["seat"]) for s in seats],
            "to_act": json.loads(row["to_act"]) if row["to_act"] and status == "running" else [],
            "outcome": json.loads(row["outcome"]) if row["outcome"] else None,
            "ai_seconds": row["ai_seconds"], "turn_seconds": row["turn_seconds"], "deadline": deadline,
            "undo_request": json.loads(row["undo_request"]) if row["undo_request"] else None,
            "created_at": row["created_at"], "updated_at": row["updated_at"], "open_seed": bool(row["open_seed"]),
            "seed": row["seed"] if row["open_seed"] or status == "finished" else None,
            "broken": self.broken.get(row["id"], row["broken"]),
        }

    def full_config(self, match_id: str) -> dict[str, Any]:
        """The whole stored config (player content included) of a match, loaded or not."""
        m = self.matches.get(match_id)
        if m is not None:
            return m.config
        with self.engine.connect() as conn:
            found = store.match_rows(conn, [match_id]).get(match_id)
        if found is None:
            raise ServiceError(404, "not_found", "no such match")
        config: dict[str, Any] = json.loads(found[0]["config"])
        return config

    def check_token(self, m: LiveMatch, seat: int, token: str | None) -> None:
        """SRV-A3: only the holder of a seat's token acts for it."""
        if not 0 <= seat < len(m.seats):
            raise ServiceError(404, "no_such_seat", f"match {m.id} has seats 0..{len(m.seats) - 1}")
        s = m.seats[seat]
        if (s.kind != "human" or not isinstance(token, str) or not token or s.token_hash is None
                or not secrets.compare_digest(s.token_hash, hash_token(token))):
            raise ServiceError(403, "bad_token", f"wrong or missing token for seat {seat} (SRV-A3)")

    def lobby(self, status: str | None = None, game: str | None = None, offset: int = 0,
              limit: int = 50) -> tuple[list[dict[str, Any]], bool]:
        """One page of the lobby from the database (loaded or not), most recent first; and whether more follow."""
        with self.engine.connect() as conn:
            page, more = store.lobby_page(conn, status, game, offset, limit)
        out = []
        for row, seats in page:
            m = self.matches.get(row["id"])
            out.append(m.summary() if m is not None else self.row_summary(row, seats))
        return out, more

    def list(self, status: str | None = None, game: str | None = None) -> list[dict[str, Any]]:
        return self.lobby(status, game, 0, self.limits.lobby_page_max)[0]

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
        open_seed: bool = False,
        join_seat: int | None = None,
        player_name: str = "",
    ) -> tuple[LiveMatch, str | None]:
        """Create a match (and take ``join_seat`` at once): everything is checked first and the match, its seats
        and the joined seat are stored in one transaction, so a refused request stores nothing."""
        try:
            game = get_game(game_id)
        except UnknownGame:
            raise ServiceError(404, "unknown_game", f"unknown game {game_id!r}") from None
        size = len(dumps(config or {}).encode("utf-8", "surrogatepass"))
        if size > self.limits.max_config:
            raise ServiceError(413, "too_large", f"the config is {size} bytes; at most {self.limits.max_config} are accepted")
        try:
            cfg = game.normalize_config(config)
        except ConfigError as exc:
            raise ServiceError(422, "bad_config", str(exc)) from None
        if not 0.01 <= ai_seconds <= 120:
            raise ServiceError(422, "bad_config", "ai_seconds must be in 0.01..120")
        if turn_seconds is not None and not 1 <= turn_seconds <= 30 * 86400:
            raise ServiceError(422, "bad_config", "turn_seconds must be in 1..2592000 (30 days)")
        if seed is not None and not open_seed:
            raise ServiceError(422, "bad_config", "a chosen seed needs \"open_seed\": true: every seat then sees it "
                               "before joining (SRV-S1)")
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
        token = None
        if join_seat is not None:
            if not 0 <= join_seat < n:
                raise ServiceError(422, "bad_config", f"join_seat {join_seat} out of range 0..{n - 1}")
            if seats[join_seat].kind != "open":
                raise ServiceError(422, "bad_config", f"join_seat {join_seat} is an AI seat")
            token = secrets.token_urlsafe(18)
            seats[join_seat] = Seat("human", (player_name or f"Player {join_seat + 1}")[:100], hash_token(token), None)
        try:
            state = game.initial_state(cfg, seed)
        except ConfigError as exc:
            raise ServiceError(422, "bad_config", str(exc)) from None
        t = time.time()
        m = LiveMatch(
            id=secrets.token_hex(8), game=game, name=name[:200], config=cfg, seed=seed, status="open", ai_seconds=ai_seconds,
            turn_seconds=turn_seconds, turn_started_at=None, created_at=t, updated_at=t, seats=seats, state=state,
            open_seed=open_seed,
        )
        self._maybe_start(m)
        try:
            await self._write(self._db_insert_match, m, self._match_fields(m))
        except Exception as exc:
            log.exception("storing a new match failed")
            raise ServiceError(503, "storage_error", "the match could not be stored; nothing was created") from exc
        self.matches[m.id] = m
        self._evict_over_cap()
        log.info("match created", extra={"match": m.id, "game": game.id})
        self._after_change(m)
        return m, token

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
        """Free a seat (SRV-A4): its token stops working, and every socket bound to it is closed with a message,
        so that whoever takes the seat next is not seen through an old connection."""
        m = self.get(match_id)
        async with m.lock:
            self.check_token(m, seat, token)
            restore = self._memo(m)
            m.seats[seat] = Seat()
            m.updated_at = time.time()
            seat_fields = (seat, self._seat_fields(m.seats[seat]))
            await self._store(m, restore, self._db_update, m.id, {"updated_at": m.updated_at}, seat_fields)
            self._revoke(m, seat)
            self._broadcast_snapshots(m)

    def _revoke(self, m: LiveMatch, seat: int) -> None:
        """Close every socket of ``seat`` (its token no longer holds the seat)."""
        for sub in list(m.subscribers):
            if sub.seat == seat:
                self._kick(m, sub)

    def _kick(self, m: LiveMatch, sub: Subscriber) -> None:
        sub.kick(_dumps({"type": "error", "error": {
            "status": 403, "code": "seat_left",
            "message": f"seat {sub.seat} was left: this connection's seat link no longer works (SRV-A4)"}}), 4403)
        self.unsubscribe(m, sub)

    async def set_ai(self, match_id: str, seat: int, agent: str | None, by_seat: int | None, token: str | None) -> None:
        """Put an AI on an open seat. Once somebody sits in the match, only a seated player may do it."""
        m = self.get(match_id)
        async with m.lock:
            if not 0 <= seat < len(m.seats):
                raise ServiceError(404, "no_such_seat", f"match {m.id} has seats 0..{len(m.seats) - 1}")
            if m.status == "finished":
                raise ServiceError(409, "finished", "the match is over")
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
            "to_act": dumps(list(m.to_act())),
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
        m.log.append(Entry(seat, action, source, views, _text(game, before, seat, action), tuple(game.to_act(before)),
                           presentation.action_texts(game, before, seat, action)))
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

    @staticmethod
    def _normalize(game: Game[Any], action: Any) -> Action:
        """SRV-A2: the action in the game's normal form (its declared schema), or a CORE-ACTION refusal."""
        try:
            return game.normalize_action(action)
        except RuleError as exc:
            raise ServiceError(422, "illegal_action", exc.message, rule=exc.rule) from None
        except MALFORMED:
            raise ServiceError(422, "illegal_action", "malformed action", rule="CORE-ACTION") from None

    @staticmethod
    def _check_version(version: Any) -> int:
        if not isinstance(version, int) or isinstance(version, bool):
            raise ServiceError(
                400, "bad_request", "'version' (an integer: the state version the action was computed against) is required"
            )
        return version

    async def act(self, match_id: str, seat: int, token: str | None, version: Any, action: Any, source: str = "player") -> int:
        """Apply ``action`` for ``seat`` if ``version`` is current (SRV-A1..A3). Returns the new version."""
        m = self.get(match_id)
        if source == "player":
            self.check_token(m, seat, token)
        self._check_version(version)
        action = self._normalize(m.game, action)
        async with m.lock:
            if m.evicted:  # left memory while this request waited; act on the reloaded match
                return await self.act(match_id, seat, token, version, action, source)
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
                raise ServiceError(422, "illegal_action", exc.message, rule=exc.rule) from None
            except MALFORMED as exc:
                log.warning("match %s: the game could not read an action (%s)", m.id, type(exc).__name__)
                raise ServiceError(422, "illegal_action", "malformed action: the game cannot read it",
                                   rule="CORE-ACTION") from None
            out = game.outcome(after)
            new_to_act = () if out is not None else tuple(game.to_act(after))
            started_at = m.turn_started_at
            if not set(new_to_act) <= set(old_to_act):
                started_at = time.time()  # SRV-C1: a seat newly to act gets a fresh clock
            fields = {
                "status": "finished" if out is not None else "running",
                "turn_started_at": started_at,
                "updated_at": time.time(),
                "outcome": dumps(out.to_json()) if out is not None else None,
                "undo_request": None,
                "to_act": dumps(list(new_to_act)),
            }
            idx = m.version
            try:
                await self._write(self._db_append, m.id, idx, seat, dumps(action), source, fields)
            except Exception as exc:  # nothing was stored, so nothing changes
                log.exception("storing an action of match %s failed", m.id)
                raise ServiceError(503, "storage_error", "the action could not be stored; nothing changed, try again") from exc
            # committed. SRV-L4: a slow game's legal actions for the new state are listed off the loop *before*
            # the state is published, so that nobody sees the new state ahead of its event (SRV-V3)
            legal = await self._prepare_legal(m, after, new_to_act)
            views = {viewer: game.action_view(m.state, seat, action, viewer) for viewer in [None, *range(len(m.seats))]}
            m.log.append(Entry(seat, action, source, views, _text(game, m.state, seat, action), tuple(old_to_act),
                               presentation.action_texts(game, m.state, seat, action)))
            m.publish(after, legal)
            m.status = fields["status"]
            m.turn_started_at = started_at
            m.updated_at = fields["updated_at"]
            m.outcome = out.to_json() if out is not None else None
            m.undo_request = None
            self._broadcast_event(m)
            self._after_change(m)
            return m.version

    async def _prepare_legal(self, m: LiveMatch, state: Any, to_act: tuple[int, ...]) -> dict[int, list[Action]]:
        """SRV-L4: for a game that declares ``slow_legal_actions`` (tremble's plan decision: thousands of plans,
        up to a third of a second), the lists the coming event needs are computed in a worker thread, so the event
        loop keeps serving the other matches meanwhile; this match waits (its lock is held)."""
        if not getattr(m.game, "slow_legal_actions", False) or not m.subscribers:
            return {}
        seats = {sub.seat for sub in m.subscribers}
        wanted = [s for s in to_act if s in seats]
        if not wanted:
            return {}
        game = m.game
        return await asyncio.to_thread(lambda: {s: game.legal_actions(state, s) for s in wanted})

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
        self._check_version(version)
        if m.status != "running":
            raise ServiceError(409, m.status if m.status == "finished" else "not_started", f"the match is {m.status}")
        if version != m.version and not self._concurrent_ok(m, seat, version):
            raise ServiceError(409, "stale_version", f"stale state: the match is at version {m.version} (SRV-A1)")
        try:
            action = self._normalize(m.game, action)
        except ServiceError as exc:
            return {"legal": False, "rule": exc.rule, "message": exc.message}
        try:
            m.game.check_turn(m.state, seat)
            m.game.apply(m.state, seat, action)
        except RuleError as exc:
            return {"legal": False, "rule": exc.rule, "message": exc.message}
        except MALFORMED:
            return {"legal": False, "rule": "CORE-ACTION", "message": "malformed action: the game cannot read it"}
        return {"legal": True}

    # ------------------------------------------------------------------- messages
    def snapshot(self, m: LiveMatch, viewer: int | None, kind: str = "snapshot", lang: str = "en") -> dict[str, Any]:
        """Everything a client shows, filtered for ``viewer`` (SRV-V1); legal actions only for a seat to act (SRV-L1);
        texts in ``lang`` (``presentation``)."""
        to_act = m.to_act()
        legal = self.legal_fields(m, viewer, to_act)
        return {
            "type": kind,
            "match": m.summary(),
            "seat": viewer,
            "version": m.version,
            "view": m.view(viewer),
            "to_act": list(to_act),
            **legal,
            "legal_text": self._legal_text(m, viewer, legal["legal"], lang),
            "log": [self._entry_json(m, i, e, viewer, lang) for i, e in enumerate(m.log)],
        }

    @staticmethod
    def _legal_text(m: LiveMatch, viewer: int | None, legal: list[Action], lang: str) -> list[str]:
        return presentation.legal_texts(m, viewer, legal, lang) if viewer is not None and legal else []

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

    def _entry_json(self, m: LiveMatch, index: int, e: Entry, viewer: int | None, lang: str = "en") -> dict[str, Any]:
        return presentation.entry_json(m.game, index, e, viewer, lang)

    def subscribe(self, m: LiveMatch, viewer: int | None, token: str | None = None, lang: str = "en") -> Subscriber:
        """A new client of ``m`` (its token already checked for a seat); it gets its snapshot at once."""
        sub = Subscriber(viewer, asyncio.Queue(), since=m.version, token_hash=hash_token(token) if token else None, lang=lang)
        m.subscribers.append(sub)
        sub.queue.put_nowait(_dumps(self.snapshot(m, viewer, lang=lang)))
        return sub

    def unsubscribe(self, m: LiveMatch, sub: Subscriber) -> None:
        with contextlib.suppress(ValueError):
            m.subscribers.remove(sub)
        m.last_used = time.monotonic()

    def _bound(self, m: LiveMatch, sub: Subscriber) -> bool:
        """A seat's client still holds the seat's current token (SRV-A4); spectators always pass."""
        if sub.seat is None:
            return True
        seat = m.seats[sub.seat]
        return seat.kind == "human" and seat.token_hash is not None and sub.token_hash == seat.token_hash

    def _broadcast_snapshots(self, m: LiveMatch, reason: str = "update") -> None:
        cache: dict[tuple[int | None, str], str] = {}
        for sub in list(m.subscribers):
            if not self._bound(m, sub):
                self._kick(m, sub)
                continue
            key = (sub.seat, sub.lang)
            if key not in cache:
                snap = self.snapshot(m, sub.seat, lang=sub.lang)
                snap["reason"] = reason
                cache[key] = _dumps(snap)
            sub.since = m.version
            sub.push(cache[key])

    def _broadcast_event(self, m: LiveMatch) -> None:
        """Send every connected client the event of the last action (SRV-V1) unless its snapshot already held it
        (SRV-V3). Views and legal actions are computed only for the seats that have a client, once per seat
        (SRV-V2), and the parts every client shares (match summary, ``to_act``) are encoded once and spliced into
        each client's message."""
        if not m.subscribers:
            return
        to_act = m.to_act()
        entry = m.log[-1]
        index = m.version - 1
        head = f'{{"type":"event","match":{_dumps(m.summary())},"version":{m.version},"to_act":{_dumps(list(to_act))},"seat":'
        cache: dict[tuple[int | None, str], str] = {}
        for sub in list(m.subscribers):
            if sub.since >= m.version:
                continue
            if not self._bound(m, sub):
                self._kick(m, sub)
                continue
            v, lang = sub.seat, sub.lang
            text = cache.get((v, lang), "")
            if not text:
                legal = self.legal_fields(m, v, to_act)
                body = {"last": self._entry_json(m, index, entry, v, lang), "view": m.view(v), **legal,
                        "legal_text": self._legal_text(m, v, legal["legal"], lang)}
                text = cache[(v, lang)] = f"{head}{'null' if v is None else v},{_dumps(body)[1:]}"
            sub.since = m.version
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
        fields = {**self._match_fields(m), "to_act": dumps(list(m.game.to_act(state)))}
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


__all__ = ["LEGAL_LIMIT", "LEGAL_PAGE_MAX", "MAX_BACKLOG", "LiveMatch", "MatchService", "ServiceError", "SpacetableError",
           "Subscriber", "hash_token", "replay_log", "select_legal"]
