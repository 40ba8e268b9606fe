"""The authoritative match service: matches in memory, lobby, seats, actions, and changes from other processes.

The service owns the matches this process holds in memory (``live.py``); every change of a match happens
under the match's lock, is stored first (``storage.py``, a compare-and-set on the match's revision) and only
then shown to the clients (``clients.py``) and announced to the other processes (``fanout.py``). Its helpers
have their own modules: legal actions in messages (``legal.py``), undo (``undo.py``), clocks (``clocks.py``),
AI seats (``ailoop.py``), leases of AI seats and clocks across processes (``leases.py``), queries
(``repo.py``).

Rule ids used in errors and docs (see ``docs/server.md``):

* SRV-A1 every action carries the state version it was computed against; a stale version is refused (409)
  and nothing changes. SRV-A1b exception: in a sealed simultaneous decision, a seat whose decision was
  pending the whole time while only other seats acted may still send its choice against the older version.
* SRV-A2 an action is normalised by ``game.normalize_action`` and applied only through ``game.apply``; a
  rejected action names the rule and changes nothing; only the normalised action is stored and sent.
* SRV-A3 nobody acts for a seat without its secret token (checked once per socket, SRV-B1).
* SRV-A4 leaving a seat revokes its token: every socket bound to it is closed with a message.
* SRV-V1..V3 each client receives only what its seat may see, once (``clients.py``).
* SRV-P1/P2 a match is config + seed + action log; each action is appended in the same transaction as the
  version bump. SRV-P4 a match that cannot be loaded is marked broken (with the reason).
* SRV-S1 seeds come from ``secrets``; a chosen seed only in an "open seed" match; published at the end.
* SRV-M1 finished and idle matches leave memory and are loaded again from the database on demand.
* SRV-X1 several processes share one database: every change commits only if the match's stored revision is
  the one the process built it on; otherwise the process catches up from the database and checks the
  request again on the new state (an action may then be stale, a token revoked).
* SRV-X2 changes are announced to the other processes, which apply them in revision order (``fanout.py``).
* SRV-X3 AI seats and clocks run in the process that committed the match's last change (``leases.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from spacetable.core.errors import ConfigError, RuleError, SpacetableError
from spacetable.core.game import Action, Game
from spacetable.core.match import LogEntry, Match, replay_states
from spacetable.games import UnknownGame, get_game

from . import clients, repo
from .ai import AIRunner, agent_registry
from .ailoop import AiSeats
from .clocks import Clocks, wake_at, wake_time
from .db import dumps
from .errors import ServiceError
from .fanout import Fanout
from .leases import Leases, new_server_id
from .legal import prepare_legal
from .limits import Limits
from .live import Entry, LiveMatch, Seat, Subscriber, hash_token, make_entry, public_config
from .storage import Append, Storage, Tx
from .undo import Undo

log = logging.getLogger("spacetable.server")
T = TypeVar("T")

#: Engine exceptions on malformed input that are reported as CORE-ACTION, not as a server error.
MALFORMED = (KeyError, TypeError, ValueError, IndexError, AttributeError)
#: Seconds between two passes of the eviction sweep (SRV-M1), and between two checks of the matches in
#: memory against the database (SRV-X2: a lost notice is caught up within this time).
SWEEP_INTERVAL = 15.0
RESYNC_INTERVAL = 5.0
#: How often a change is tried again after other processes changed the match first (SRV-X1).
ATTEMPTS = 5


class Conflict(Exception):
    """Another process changed the match first (SRV-X1); the change was not stored."""


def _reason(exc: BaseException) -> str:
    """Why a stored match cannot be loaded, for the lobby: rule and config messages, else the error's kind."""
    if isinstance(exc, RuleError):
        return f"[{exc.rule}] {exc.message}"
    if isinstance(exc, (ConfigError, ServiceError)):
        return str(exc)
    return f"{type(exc).__name__} while replaying"


def _seat_fields(s: Seat) -> dict[str, Any]:
    return {"kind": s.kind, "name": s.name, "token_hash": s.token_hash, "agent": s.agent}


class MatchService:
    """Owns the live matches of this process; all mutation happens on the event loop under a per-match lock,
    each change stored (one transaction, compare-and-set) before it is shown and announced."""

    def __init__(self, storage: Storage, ai_workers: int = 1, limits: Limits | None = None,
                 fanout: Fanout | None = None, lease_seconds: float = 10.0, server_id: str | None = None) -> None:
        self.storage = storage
        self.limits = limits or Limits()
        self.server_id = server_id or new_server_id()
        self.fanout = fanout or Fanout(self.server_id)
        self.fanout.server_id = self.server_id
        self.fanout.on_notice = self._notice
        self.fanout.on_resync = self._resync_soon
        self.matches: dict[str, LiveMatch] = {}
        #: matches that could not be loaded (SRV-P4): id -> reason
        self.broken: dict[str, str] = {}
        self.clocks = Clocks(self)
        self.ai_seats = AiSeats(self, AIRunner(ai_workers))
        self.undo = Undo(self)
        self.leases = Leases(self, lease_seconds)
        self.sockets = 0
        #: changes that found the match changed by another process first and were checked again (SRV-X1)
        self.conflicts = 0
        self._loading: dict[str, asyncio.Future[LiveMatch]] = {}
        self._early: dict[str, list[tuple[str, dict[str, Any]]]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._started = False

    @property
    def engine(self) -> Any:
        """A synchronous SQLAlchemy engine on the database (tests, tools)."""
        return self.storage.engine

    # ------------------------------------------------------------------ life cycle
    async def start(self) -> None:
        """Open the database and the fan-out, then take over what is due (SRV-X3): matches of stopped
        processes (this one's previous run included) where an AI or a clock must act."""
        await self.storage.start()
        await self.fanout.start()
        self._started = True
        await self.leases.start()
        self._spawn(self._sweep_loop())
        self._spawn(self._resync_loop())
        log.info("server process %s: %d matches loaded", self.server_id, len(self.matches))

    async def stop(self) -> None:
        for t in list(self._tasks):
            t.cancel()
        for m in self.matches.values():
            if m.ai_task:
                m.ai_task.cancel()
            self.clocks.cancel(m)
        self.clocks.stop()
        self.ai_seats.shutdown()
        await self.leases.stop()
        await self.fanout.stop()
        await self.storage.stop()
        self._started = False

    def _spawn(self, coro: Awaitable[Any]) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coro)  # type: ignore[arg-type]
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # ------------------------------------------------------------------- loading
    async def get(self, match_id: str) -> LiveMatch:
        """The live match, loaded from the database if it is not in memory (SRV-M1)."""
        m = self.matches.get(match_id)
        if m is None:
            if not isinstance(match_id, str) or not 1 <= len(match_id) <= 32 or not match_id.isalnum():
                raise ServiceError(404, "not_found", "no such match")
            reason = self.broken.get(match_id)
            if reason is not None:
                raise ServiceError(409, "broken", f"this match cannot be loaded: {reason}")
            m = await self._load(match_id)
        m.last_used = time.monotonic()
        return m

    async def _load(self, match_id: str) -> LiveMatch:
        """Replay a stored match into memory; mark it broken (and raise 409) when that fails (SRV-P4). Concurrent
        requests for the same match share one load; notices arriving meanwhile are applied after it."""
        pending = self._loading.get(match_id)
        if pending is not None:
            return await asyncio.shield(pending)
        fut: asyncio.Future[LiveMatch] = asyncio.get_running_loop().create_future()
        self._loading[match_id] = fut
        self._early[match_id] = []
        try:
            m = await self._load_now(match_id)
        except BaseException as exc:
            fut.set_exception(exc)
            fut.exception()  # retrieved: nobody else may be waiting
            self.fanout.unwatch(match_id)
            raise
        finally:
            self._loading.pop(match_id, None)
            early = self._early.pop(match_id, [])
        fut.set_result(m)
        for origin, notice in early:
            self._notice(match_id, origin, notice)
        return m

    async def _load_now(self, match_id: str) -> LiveMatch:
        await self.fanout.watch(match_id)  # before reading: no change committed after the read goes unheard
        found = await self.storage.read(lambda tx: repo.load(tx, match_id))
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
                await self.storage.write(lambda tx: repo.mark_broken(tx, match_id, reason))
            raise ServiceError(409, "broken", f"this match cannot be loaded: {reason}") from None
        if row["broken"] is not None:
            await self.storage.write(lambda tx: repo.mark_broken(tx, match_id, None))
        self.broken.pop(match_id, None)
        self.matches[match_id] = m
        self._evict_over_cap()
        if self._started:
            self.after_change(m)
        return m

    def _replay(self, row: dict[str, Any], seat_rows: list[dict[str, Any]], action_rows: list[dict[str, Any]]) -> LiveMatch:
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
            revision=int(row["revision"]), epoch=int(row["epoch"]), owner=row["owner"],
        )
        self._extend(m, action_rows)
        out = game.outcome(m.state)
        m.outcome = out.to_json() if out else None
        return m

    @staticmethod
    def _extend(m: LiveMatch, action_rows: list[dict[str, Any]]) -> None:
        """Append stored actions to the log of ``m`` (replayed with ``core.match.replay_states``)."""
        moves = [(int(a["seat"]), json.loads(a["action"]), a["source"]) for a in action_rows]
        before, n = m.state, len(m.seats)
        for (seat, action, source), after in zip(moves, replay_states(m.game, before, ((s, a) for s, a, _ in moves)),
                                                 strict=True):
            m.log.append(make_entry(m.game, before, seat, action, source, n))
            before = after
        m.publish(before, {})

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
        return not m.subscribers and not m.lock.locked() and (m.ai_task is None or m.ai_task.done()) and not m.inbox

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
        """Out of memory. A clock that runs out meanwhile is found by the lease scan (SRV-X3), which loads it."""
        m.evicted = True
        self.matches.pop(m.id, None)
        self.clocks.cancel(m)
        if self._started:
            self.fanout.unwatch(m.id)

    # ------------------------------------------------------- changes from elsewhere
    def _notice(self, match_id: str, origin: str, notice: dict[str, Any]) -> None:
        """A change announced by another process (SRV-X2): queued on the match and applied in order."""
        m = self.matches.get(match_id)
        if m is None:
            early = self._early.get(match_id)
            if early is not None:
                early.append((origin, notice))
            return
        m.inbox.append((origin, notice))
        if not m.draining:
            m.draining = True
            self._spawn(self._drain(m))

    async def _drain(self, m: LiveMatch) -> None:
        try:
            async with m.lock:
                while m.inbox:
                    origin, notice = m.inbox.pop(0)
                    try:
                        await self._apply_notice(m, origin, notice)
                    except Exception:
                        log.exception("applying a notice of match %s failed; reading it again", m.id)
                        with contextlib.suppress(Exception):
                            await self.sync(m)
        finally:
            m.draining = False

    async def _apply_notice(self, m: LiveMatch, origin: str, notice: dict[str, Any]) -> None:
        revision = int(notice["r"])
        if revision <= m.revision or m.evicted:
            return  # already known (it caught up from the database meanwhile)
        if (notice["k"] == "a" and revision == m.revision + 1 and notice["e"] == m.epoch and notice["i"] == m.version
                and m.status == "running"):
            seat, action = int(notice["s"]), notice["a"]
            after = m.game.apply(m.state, seat, action)
            await self._advance(m, seat, action, notice["src"], after, turn_started_at=notice["t"],
                                updated_at=notice["u"], revision=revision, owner=origin)
            return
        await self.sync(m, notice.get("why"))

    async def sync(self, m: LiveMatch, reason: str | None = None) -> None:
        """Catch ``m`` up with the database (its lock held): new actions become events, seat and other changes a
        snapshot (``reason``), an undo or a log that differs a reload (SRV-X1, SRV-X2)."""
        found = await self.storage.read(lambda tx: repo.load(tx, m.id, m.version))
        if found is None:
            return
        row, seat_rows, action_rows = found
        if row["epoch"] != m.epoch or row["version"] < m.version or (action_rows and action_rows[0]["idx"] != m.version):
            await self._reload(m)
            clients.broadcast_snapshots(m, reason or "update")
            self.after_change(m)
            return
        seats = [Seat(r["kind"], r["name"], r["token_hash"], r["agent"]) for r in seat_rows]
        undo_request = json.loads(row["undo_request"]) if row["undo_request"] else None
        lobby_changed = seats != m.seats or undo_request != m.undo_request or (row["status"] != m.status and not action_rows)
        m.seats[:] = seats
        for a in action_rows:
            seat, action = int(a["seat"]), json.loads(a["action"])
            after = m.game.apply(m.state, seat, action)
            await self._advance(m, seat, action, a["source"], after, turn_started_at=row["turn_started_at"],
                                updated_at=row["updated_at"], revision=m.revision, owner=m.owner, notify=False)
        m.status, m.turn_started_at, m.updated_at = row["status"], row["turn_started_at"], row["updated_at"]
        m.undo_request, m.revision, m.owner = undo_request, int(row["revision"]), row["owner"]
        m.outcome = json.loads(row["outcome"]) if row["outcome"] else None
        if lobby_changed or not action_rows:
            clients.broadcast_snapshots(m, reason or "update")
        self.after_change(m)

    async def _reload(self, m: LiveMatch) -> None:
        """Replace the in-memory copy of ``m`` by a fresh replay of the stored match (same object: its clients stay)."""
        found = await self.storage.read(lambda tx: repo.load(tx, m.id))
        if found is None:
            return
        fresh = self._replay(*found)
        for name in ("status", "turn_started_at", "updated_at", "seats", "state", "log", "outcome", "undo_request",
                     "revision", "epoch", "owner", "config", "name"):
            setattr(m, name, getattr(fresh, name))
        m.reset_history()

    def _resync_soon(self) -> None:
        self._spawn(self.resync())

    async def _resync_loop(self) -> None:
        if not self.fanout.shared:
            return
        while True:
            await asyncio.sleep(RESYNC_INTERVAL)
            try:
                await self.resync()
            except Exception:
                log.warning("checking the matches in memory against the database failed", exc_info=True)

    async def resync(self) -> int:
        """SRV-X2: catch up every match in memory whose stored revision moved without a notice reaching us (a lost
        Redis message or connection); returns how many were behind."""
        ids = list(self.matches)
        behind = 0
        for start in range(0, len(ids), 500):
            chunk = ids[start:start + 500]
            stored = await self.storage.read(lambda tx, c=chunk: repo.revisions(tx, c))
            for match_id, (revision, epoch) in stored.items():
                m = self.matches.get(match_id)
                if m is not None and (revision > m.revision or epoch != m.epoch):
                    behind += 1
                    self._notice(match_id, "", {"k": "c", "r": revision, "e": epoch})
        return behind

    async def adopt(self, match_id: str) -> bool:
        """SRV-X3: this process now owns ``match_id`` (taken over, or its own match due while out of memory): load or
        catch it up, store the wake time it really has and run what is due."""
        try:
            m = await self.get(match_id)
        except ServiceError:
            return False
        async with m.lock:
            await self.sync(m)
            wake = wake_time(m)
            if not await self.storage.write(lambda tx: repo.set_wake(tx, m.id, m.revision, wake, self.server_id)):
                return False  # changed meanwhile: whoever changed it runs it
            m.owner = self.server_id
        self.after_change(m)
        return True

    def announce_change(self, m: LiveMatch, reason: str) -> None:
        """Tell the other processes that ``m`` changed (not an action): they read it again (SRV-X2)."""
        self.fanout.publish(m.id, {"k": "c", "r": m.revision, "e": m.epoch, "why": reason})

    def after_change(self, m: LiveMatch) -> None:
        """Run what is due in ``m`` if this process owns it (SRV-X3): its clock and its AI seats."""
        if not self._started or m.evicted:
            return
        if m.owner != self.server_id:
            self.clocks.cancel(m)
            return
        self.clocks.schedule(m)
        self.ai_seats.start(m)

    # ------------------------------------------------------------------- lookups
    async def summary(self, match_id: str) -> dict[str, Any]:
        """A match's summary; a broken match's comes from its stored row, with the reason (SRV-P4)."""
        try:
            return (await self.get(match_id)).summary()
        except ServiceError as exc:
            if exc.code != "broken":
                raise
        found = (await self.storage.read(lambda tx: repo.match_rows(tx, [match_id]))).get(match_id)
        if found is None:
            raise ServiceError(404, "not_found", "no such match")
        return self.row_summary(*found)

    def row_summary(self, row: dict[str, Any], seats: list[dict[str, Any]]) -> dict[str, Any]:
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

    async def full_config(self, match_id: str) -> dict[str, Any]:
        """The whole stored config (player content included) of a match, loaded or not."""
        m = self.matches.get(match_id)
        if m is not None:
            return m.config
        found = (await self.storage.read(lambda tx: repo.match_rows(tx, [match_id]))).get(match_id)
        if found is None:
            raise ServiceError(404, "not_found", "no such match")
        config: dict[str, Any] = json.loads(found[0]["config"])
        return config

    def check_token(self, m: LiveMatch, seat: int, token: str | None) -> str:
        """SRV-A3: only the holder of a seat's token acts for it; returns the token's hash."""
        if not 0 <= seat < len(m.seats):
            raise ServiceError(404, "no_such_seat", f"match {m.id} has seats 0..{len(m.seats) - 1}")
        s = m.seats[seat]
        digest = hash_token(token) if isinstance(token, str) and token else ""
        if s.kind != "human" or not digest or s.token_hash is None or not secrets.compare_digest(s.token_hash, digest):
            raise ServiceError(403, "bad_token", f"wrong or missing token for seat {seat} (SRV-A3)")
        return digest

    async def authorize(self, m: LiveMatch, seat: int, token: str | None) -> str:
        """:meth:`check_token`, after catching up with the stored match if this copy missed a change (a seat taken
        through another process a moment ago, SRV-X1); returns the token's hash."""
        try:
            return self.check_token(m, seat, token)
        except ServiceError:
            if not await self._behind(m):
                raise
        async with m.lock:
            await self.sync(m)
        return self.check_token(m, seat, token)

    def check_seat(self, m: LiveMatch, seat: int, token: str | None, sub: Subscriber | None) -> None:
        """SRV-A3 for a request: a socket's seat was checked when it connected and still holds it (its token's hash
        is compared, not computed again); a REST request shows the token."""
        if sub is None:
            self.check_token(m, seat, token)
        elif sub.seat != seat or not clients.bound(m, sub):
            raise ServiceError(403, "bad_token", f"this connection no longer holds seat {seat} (SRV-A4)")

    async def lobby(self, status: str | None = None, game: str | None = None, offset: int = 0,
                    limit: int = 50) -> tuple[list[dict[str, Any]], bool]:
        """One page of the lobby from the database (loaded or not), most recent first; and whether more follow. A
        match in memory and up to date is summarised from memory; the page is the same from every process."""
        page, more = await self.storage.read(lambda tx: repo.lobby_page(tx, status, game, offset, limit))
        out = []
        for row, seats in page:
            m = self.matches.get(row["id"])
            out.append(m.summary() if m is not None and m.revision == row["revision"] else self.row_summary(row, seats))
        return out, more

    # ----------------------------------------------------------------- messages
    def snapshot(self, m: LiveMatch, viewer: int | None, kind: str = "snapshot", lang: str = "en") -> dict[str, Any]:
        return clients.snapshot(m, viewer, kind, lang)

    def subscribe(self, m: LiveMatch, viewer: int | None, token: str | None = None, lang: str = "en",
                  token_hash: str | None = None) -> Subscriber:
        """A new client of ``m`` (a seat's token already checked; pass its hash to avoid hashing it again)."""
        return clients.subscribe(m, viewer, token_hash or (hash_token(token) if token else None), lang)

    def unsubscribe(self, m: LiveMatch, sub: Subscriber) -> None:
        clients.unsubscribe(m, sub)

    # -------------------------------------------------------------- storing changes
    @staticmethod
    def memo(m: LiveMatch) -> Callable[[], None]:
        """Remember the mutable lobby fields of a match, to restore them if storing fails."""
        seats, status, started, outcome, updated = list(m.seats), m.status, m.turn_started_at, m.outcome, m.updated_at
        undo = json.loads(json.dumps(m.undo_request))

        def restore() -> None:
            m.seats[:] = seats
            m.status, m.turn_started_at, m.outcome, m.updated_at, m.undo_request = status, started, outcome, updated, undo

        return restore

    def match_fields(self, m: LiveMatch, state: Any = None) -> dict[str, Any]:
        """The match row's fields for the in-memory ``m`` (with ``state`` instead of its own, if given)."""
        if m.status != "running":
            to_act: tuple[int, ...] = ()
        else:
            to_act = m.to_act() if state is None else tuple(m.game.to_act(state))
        return {
            "status": m.status, "turn_started_at": m.turn_started_at, "updated_at": m.updated_at,
            "outcome": dumps(m.outcome) if m.outcome is not None else None,
            "undo_request": dumps(m.undo_request) if m.undo_request is not None else None,
            "to_act": dumps(list(to_act)), "wake_at": wake_time(m, to_act), "owner": self.server_id,
        }

    async def store(self, m: LiveMatch, restore: Callable[[], None], job: Callable[[Tx], Awaitable[bool]]) -> None:
        """Store a change (a compare-and-set job); on a conflict (SRV-X1) or a failure undo the in-memory change:
        :class:`Conflict`, or a 503 for the client (nothing changed)."""
        try:
            ok = await self.storage.write(job)
        except Exception as exc:
            restore()
            log.exception("storing a change of match %s failed", m.id)
            raise ServiceError(503, "storage_error", "the change could not be stored; nothing changed, try again") from exc
        if not ok:
            restore()
            raise Conflict

    async def store_change(self, m: LiveMatch, restore: Callable[[], None], reason: str,
                           seat: int | None = None) -> None:
        """Store the lobby fields of ``m`` (and one seat), then show the change to the clients and the other
        processes."""
        fields = self.match_fields(m)
        seat_row = (seat, _seat_fields(m.seats[seat])) if seat is not None else None
        await self.store(m, restore, lambda tx: repo.change(tx, m.id, m.revision, fields, seat_row))
        m.revision += 1
        m.owner = self.server_id
        clients.broadcast_snapshots(m, reason)
        self.announce_change(m, reason)
        self.after_change(m)

    async def mutate(self, match_id: str, op: Callable[[LiveMatch], Awaitable[T]]) -> T:
        """Run ``op`` on the match under its lock; when another process changed the match first (:class:`Conflict`),
        catch up and run it again on the new state (SRV-X1). A refusal is checked against the stored match first:
        a copy that missed a change (its notice still on the way) never refuses what the match allows."""
        m = await self.get(match_id)
        for _ in range(ATTEMPTS):
            async with m.lock:
                if m.evicted:  # left memory while this request waited: work on the reloaded match
                    m = await self.get(match_id)
                    continue
                try:
                    return await op(m)
                except Conflict:
                    self.conflicts += 1
                    await self.sync(m)
                except ServiceError as exc:
                    if exc.status >= 500 or not await self._behind(m):
                        raise
                    await self.sync(m)
        raise ServiceError(503, "busy", "the match kept changing meanwhile; try again")

    async def _behind(self, m: LiveMatch) -> bool:
        """Whether the stored match moved past this copy (only possible when other processes share it, SRV-X1)."""
        if not self.fanout.shared:
            return False
        stored = (await self.storage.read(lambda tx: repo.revisions(tx, [m.id]))).get(m.id)
        return stored is not None and stored != (m.revision, m.epoch)

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
            open_seed=open_seed, owner=self.server_id,
        )
        self._maybe_start(m)
        row = {
            "id": m.id, "game": game.id, "name": m.name, "config": dumps(m.config), "seed": m.seed, "version": 0,
            "ai_seconds": m.ai_seconds, "turn_seconds": m.turn_seconds, "created_at": m.created_at,
            "open_seed": m.open_seed, "broken": None, "revision": 0, "epoch": 0, **self.match_fields(m),
        }
        seat_rows = [{"match_id": m.id, "seat": i, **_seat_fields(s)} for i, s in enumerate(m.seats)]
        await self.fanout.watch(m.id)
        try:
            await self.storage.write(lambda tx: repo.insert_match(tx, row, seat_rows))
        except Exception as exc:
            self.fanout.unwatch(m.id)
            log.exception("storing a new match failed")
            raise ServiceError(503, "storage_error", "the match could not be stored; nothing was created") from exc
        self.matches[m.id] = m
        self._evict_over_cap()
        log.info("match created", extra={"match": m.id, "game": game.id})
        self.after_change(m)
        return m, token

    @staticmethod
    def _maybe_start(m: LiveMatch) -> bool:
        if m.status == "open" and all(s.kind != "open" for s in m.seats):
            m.status = "running"
            m.turn_started_at = time.time()
            out = m.game.outcome(m.state)
            if out is not None:
                m.status, m.outcome = "finished", out.to_json()
            return True
        return False

    # ---------------------------------------------------------------------- seats
    @staticmethod
    def _free_seat(m: LiveMatch, seat: int) -> None:
        if not 0 <= seat < len(m.seats):
            raise ServiceError(404, "no_such_seat", f"match {m.id} has seats 0..{len(m.seats) - 1}")
        if m.status == "finished":
            raise ServiceError(409, "finished", "the match is over")
        if m.seats[seat].kind != "open":
            raise ServiceError(409, "seat_taken", f"seat {seat} is taken")

    async def join(self, match_id: str, seat: int, name: str = "") -> str:
        """Take an open seat; returns the seat's secret token (shown once)."""

        async def op(m: LiveMatch) -> str:
            self._free_seat(m, seat)
            token = secrets.token_urlsafe(18)
            restore = self.memo(m)
            m.seats[seat] = Seat("human", (name or f"Player {seat + 1}")[:100], hash_token(token), None)
            self._maybe_start(m)
            m.updated_at = time.time()
            await self.store_change(m, restore, "update", seat)
            return token

        return await self.mutate(match_id, op)

    async def leave(self, match_id: str, seat: int, token: str | None) -> None:
        """Free a seat (SRV-A4): its token stops working, and every socket bound to it (on any process) is closed
        with a message, so that whoever takes the seat next is not seen through an old connection."""

        async def op(m: LiveMatch) -> None:
            self.check_token(m, seat, token)
            restore = self.memo(m)
            m.seats[seat] = Seat()
            m.updated_at = time.time()
            await self.store_change(m, restore, "update", seat)

        await self.mutate(match_id, op)

    async def set_ai(self, match_id: str, seat: int, agent: str | None, by_seat: int | None, token: str | None) -> None:
        """Put an AI on an open seat. Once somebody sits in the match, only a seated player may do it."""

        async def op(m: LiveMatch) -> None:
            self._free_seat(m, seat)
            if any(s.kind == "human" for s in m.seats):
                if by_seat is None:
                    raise ServiceError(403, "bad_token", "a seated player's seat and token are needed to add an AI (SRV-A3)")
                self.check_token(m, by_seat, token)
            agents, default = agent_registry(m.game)
            if agent is not None and agent not in agents:
                raise ServiceError(422, "bad_config", f"unknown agent {agent!r}; known: {sorted(agents)}")
            restore = self.memo(m)
            m.seats[seat] = Seat("ai", f"AI ({agent or default})", None, agent or default)
            self._maybe_start(m)
            m.updated_at = time.time()
            await self.store_change(m, restore, "update", seat)

        await self.mutate(match_id, op)

    # -------------------------------------------------------------------- actions
    @staticmethod
    def _concurrent_ok(m: LiveMatch, seat: int, version: int) -> bool:
        """SRV-A1b: an older version is still good for a seat whose decision has been pending the whole time while
        only *other* seats acted (sealed simultaneous decisions: buying, planning, bids). The seat's choice is about
        the same decision point, so it is not stale; the game still validates it against the current state."""
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

    def _checks(self, m: LiveMatch, seat: int, version: int, source: str) -> None:
        if source != "player" and m.owner != self.server_id:
            raise ServiceError(409, "not_owner", "another server process runs this match's AI seats and clock (SRV-X3)")
        if m.status == "open":
            raise ServiceError(409, "not_started", "the match waits for players to take every seat")
        if m.status == "finished":
            raise ServiceError(409, "finished", "the match is over")
        if version != m.version and not self._concurrent_ok(m, seat, version):
            raise ServiceError(409, "stale_version", f"stale state: action computed against version {version}, "
                               f"the match is at version {m.version}; reload and retry (SRV-A1)")

    async def act(self, match_id: str, seat: int, token: str | None, version: Any, action: Any, source: str = "player",
                  sub: Subscriber | None = None) -> int:
        """Apply ``action`` for ``seat`` if ``version`` is current (SRV-A1..A3). Returns the new version. ``sub``: the
        socket it came from (its seat was checked when it connected)."""
        m = await self.get(match_id)
        self._check_version(version)
        action = self._normalize(m.game, action)
        for _ in range(ATTEMPTS):
            async with m.lock:
                if m.evicted:  # left memory while this request waited; act on the reloaded match
                    m = await self.get(match_id)
                    continue
                try:
                    if source == "player":
                        self.check_seat(m, seat, token, sub)  # SRV-A3, SRV-A4 (on the newest state after a catch-up)
                    self._checks(m, seat, version, source)
                    if await self._act_locked(m, seat, version, action, source):
                        return m.version
                    self.conflicts += 1
                except ServiceError as exc:  # refused: unless this copy missed a change, the refusal stands
                    if exc.status >= 500 or not await self._behind(m):
                        raise
                await self.sync(m)  # another process changed the match first (SRV-X1): check again on the new state
        raise ServiceError(503, "busy", "the match kept changing meanwhile; try again")

    async def _act_locked(self, m: LiveMatch, seat: int, version: int, action: Action, source: str) -> bool:
        game = m.game
        old_to_act = m.to_act()
        try:
            game.check_turn(m.state, seat)
            after = game.apply(m.state, seat, action)
        except RuleError as exc:
            raise ServiceError(422, "illegal_action", exc.message, rule=exc.rule) from None
        except MALFORMED as exc:
            log.warning("match %s: the game could not read an action (%s)", m.id, type(exc).__name__)
            raise ServiceError(422, "illegal_action", "malformed action: the game cannot read it", rule="CORE-ACTION") from None
        out = game.outcome(after)
        new_to_act = () if out is not None else tuple(game.to_act(after))
        started_at = m.turn_started_at
        now = time.time()
        if not set(new_to_act) <= set(old_to_act):
            started_at = now  # SRV-C1: a seat newly to act gets a fresh clock
        status = "finished" if out is not None else "running"
        fields = {
            "status": status, "turn_started_at": started_at, "updated_at": now,
            "outcome": dumps(out.to_json()) if out is not None else None, "undo_request": None,
            "to_act": dumps(list(new_to_act)), "wake_at": wake_at(status, m.seats, new_to_act, started_at, m.turn_seconds),
            "owner": self.server_id,
        }
        text = dumps(action)
        rec = Append(m.id, m.version, seat, text, source, now, m.revision, fields)
        try:
            stored = await self.storage.append(rec)
        except Exception as exc:  # nothing was stored, so nothing changes
            log.exception("storing an action of match %s failed", m.id)
            raise ServiceError(503, "storage_error", "the action could not be stored; nothing changed, try again") from exc
        if not stored:
            return False
        # committed: shown here, then announced to the other processes (SRV-X2)
        revision = m.revision + 1
        self.fanout.publish(m.id, {"k": "a", "r": revision, "e": m.epoch, "i": m.version, "s": seat, "a": action,
                                   "src": source, "t": started_at, "u": now})
        await self._advance(m, seat, action, source, after, turn_started_at=started_at, updated_at=now, revision=revision,
                            owner=self.server_id)
        return True

    async def _advance(self, m: LiveMatch, seat: int, action: Action, source: str, after: Any, *,
                       turn_started_at: float | None, updated_at: float, revision: int, owner: str | None,
                       notify: bool = True) -> None:
        """Make a stored action part of the live match: log entry, new state, event to the clients (SRV-V1)."""
        game = m.game
        out = game.outcome(after)
        new_to_act = () if out is not None else tuple(game.to_act(after))
        # SRV-L4: a slow game's legal actions for the new state are listed off the loop *before* the state is
        # published, so that nobody sees the new state ahead of its event (SRV-V3)
        legal = await prepare_legal(m, after, new_to_act)
        m.log.append(make_entry(game, m.state, seat, action, source, len(m.seats)))
        m.publish(after, legal)
        m.status = "finished" if out is not None else "running"
        m.turn_started_at = turn_started_at
        m.updated_at = updated_at
        m.outcome = out.to_json() if out is not None else None
        m.undo_request = None
        m.revision = revision
        m.owner = owner
        clients.broadcast_event(m)
        if notify:
            self.after_change(m)

    # ------------------------------------------------------------- legal actions
    async def check_action(self, match_id: str, seat: int, token: str | None, version: Any, action: Any) -> dict[str, Any]:
        """SRV-L3: would ``action`` be accepted now? The same checks as ``act`` (SRV-A1..A3), nothing stored or
        changed: ``{"legal": true}`` or ``{"legal": false, "rule": ..., "message": ...}``."""
        m = await self.get(match_id)
        await self.authorize(m, seat, token)
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

    # ------------------------------------------------------------------- replays
    async def finished(self, match_id: str) -> LiveMatch:
        m = await self.get(match_id)
        if m.status != "finished":
            raise ServiceError(409, "not_finished", "replays and exports are available once the match is over")
        return m

    @staticmethod
    def replay_state(m: LiveMatch, step: int) -> Any:
        """The state after ``step`` actions, from the match's history (checkpoints: O(1) per step when stepping)."""
        if not 0 <= step <= m.version:
            raise ServiceError(404, "no_such_step", f"steps are 0..{m.version}")
        return m.state_at(step)

    @staticmethod
    def record(m: LiveMatch) -> Match:
        """The ``spacetable-match/1`` record of ``m``: config (player content included), seed and log (no replay:
        every logged action was applied when it was played)."""
        return Match(game=m.game.id, config=m.config, seed=m.seed, meta={"server_match": m.id, "name": m.name},
                     log=[LogEntry(e.seat, e.action) for e in m.log])

    def log_undo(self, m: LiveMatch) -> None:
        log.info("undo", extra={"match": m.id, "version": m.version})


__all__ = ["Conflict", "Entry", "LiveMatch", "MatchService", "ServiceError", "SpacetableError", "Subscriber", "hash_token"]
