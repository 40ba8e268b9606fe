"""Changes made by other processes (SRV-X1, SRV-X2, SRV-X3): notices applied in order, catching up from the
database, the periodic check of the matches in memory, taking a match over, and running a change again on the
newest state when another process changed the match first (:meth:`Catchup.mutate`).

A notice whose revision is the next one and which carries an action is applied directly (one ``game.apply``)
and sent to this process's clients as an event; anything else (a gap, a seat change, an undo, a notice lost
with a Redis connection) makes the match be read from the database (:meth:`Catchup.sync`). Every match in memory
is compared with the database every ``RESYNC_INTERVAL`` seconds and after a Redis reconnection
(:meth:`Catchup.resync`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from . import clients, repo
from .changes import Changes, Conflict
from .clocks import wake_time
from .errors import ServiceError
from .live import LiveMatch, Seat
from .registry import Registry

T = TypeVar("T")

log = logging.getLogger("spacetable.server")
#: Seconds between two checks of the matches in memory against the database (SRV-X2: a lost notice is caught
#: up within this time).
RESYNC_INTERVAL = 5.0
#: How often a change is tried again after other processes changed the match first (SRV-X1).
ATTEMPTS = 5
#: A wrong token makes the stored match be read (was the seat taken through another process a moment ago?) at
#: most once per this many seconds per match and revision (SRV-A3, SRV-X1).
TOKEN_RECHECK = 1.0


class Catchup:
    """Other processes' changes applied here; ``spawn`` runs a background task of the service."""

    def __init__(self, registry: Registry, changes: Changes, spawn: Callable[[Awaitable[Any]], Any]) -> None:
        self.registry = registry
        self.changes = changes
        self.storage = changes.storage
        self.fanout = changes.fanout
        self.spawn = spawn
        #: changes that found the match changed by another process first and were checked again (SRV-X1)
        self.conflicts = 0
        #: matches that left memory when another process changed them, nobody here following them (:meth:`notice`)
        self.dropped = 0
        registry.on_early_notice = self.notice

    def notice(self, match_id: str, origin: str, notice: dict[str, Any]) -> None:
        """A change announced by another process (SRV-X2): queued on the match and applied in order. A chat
        message written through another process is sent to this process's readers at once, and the seats another
        process holds a socket of are recorded (:func:`held_elsewhere`): neither changes anything stored."""
        m = self.registry.matches.get(match_id)
        if notice.get("k") == "p":  # the seats another process holds a socket of now (it changes nothing stored)
            if m is not None:
                held_elsewhere(m, origin, notice)
            return
        if notice.get("k") == "chat":
            if m is not None:
                clients.broadcast_chat(m, str(notice["room"]), notice["msg"], frozenset(notice.get("h") or ()))
            return
        if m is None:
            early = self.registry.early.get(match_id)
            if early is not None:
                early.append((origin, notice))
            return
        if notice.get("k") != "w" and self.registry.evictable(m) and _revision(notice) > m.revision:
            # a change made elsewhere to a match nobody here follows (no socket, no computer seat, no change under
            # way): it leaves memory rather than following every change, and is read from the database if it is
            # needed here again (a proxy routing a match's sockets to one process leaves the process that created
            # it holding it otherwise, applying each of its moves again); a notice of what this copy already shows
            # changes nothing
            self.registry.evict(m)
            self.dropped += 1
            return
        m.inbox.append((origin, notice))
        if not m.draining:
            m.draining = True
            self.spawn(self._drain(m))

    async def _drain(self, m: LiveMatch) -> None:
        try:
            async with m.lock:
                while m.inbox:
                    origin, notice = m.inbox.pop(0)
                    try:
                        await self._apply(m, origin, notice)
                    except Exception:
                        log.exception("applying a notice of match %s failed; reading it again", m.id)
                        with contextlib.suppress(Exception):
                            await self.sync(m)
        finally:
            m.draining = False

    async def _apply(self, m: LiveMatch, origin: str, notice: dict[str, Any]) -> None:
        if notice.get("k") == "w":  # what a clock counts changed elsewhere (a vacation ended early): its owner
            if m.owner == self.changes.server_id and m.status == "running":  # sets the match's timer again
                self.changes.after_change(m)
            return
        revision = int(notice["r"])
        if revision <= m.revision or m.evicted:
            return  # already known (it caught up from the database meanwhile)
        if (notice["k"] == "a" and revision == m.revision + 1 and notice["e"] == m.epoch and notice["i"] == m.version
                and m.status == "running"):
            seat, action = int(notice["s"]), notice["a"]
            after = m.game.apply_normal(m.state, seat, action)  # normalised by the process that stored it
            await self.changes.advance(m, seat, action, notice["src"], after, turn_started_at=notice["t"],
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
            self.changes.after_change(m)
            return
        seats = [Seat(r["kind"], r["name"], r["token_hash"], r["agent"]) for r in seat_rows]
        undo_request = json.loads(row["undo_request"]) if row["undo_request"] else None
        lobby_changed = seats != m.seats or undo_request != m.undo_request or (row["status"] != m.status and not action_rows)
        other_change = int(row["revision"]) != m.revision and not action_rows  # e.g. an undo request declined
        m.seats[:] = seats
        for a in action_rows:
            seat, action = int(a["seat"]), json.loads(a["action"])
            after = m.game.apply(m.state, seat, action)
            await self.changes.advance(m, seat, action, a["source"], after, turn_started_at=row["turn_started_at"],
                                       updated_at=row["updated_at"], revision=m.revision, owner=m.owner, notify=False)
            m.log[-1].t = float(a.get("created_at") or row["updated_at"] or 0.0)
        m.status, m.turn_started_at, m.updated_at = row["status"], row["turn_started_at"], row["updated_at"]
        m.undo_request, m.revision, m.owner = undo_request, int(row["revision"]), row["owner"]
        m.outcome = json.loads(row["outcome"]) if row["outcome"] else None
        if lobby_changed or other_change:
            clients.broadcast_snapshots(m, reason or "update")
        self.changes.after_change(m)

    async def _reload(self, m: LiveMatch) -> None:
        """Replace the in-memory copy of ``m`` by a fresh replay of the stored match (same object: its clients stay)."""
        found = await self.storage.read(lambda tx: repo.load(tx, m.id))
        if found is None:
            return
        fresh = self.registry.replay(*found)
        for name in ("status", "turn_started_at", "updated_at", "seats", "state", "log", "outcome", "undo_request",
                     "revision", "epoch", "owner", "config", "name", "started_at"):
            setattr(m, name, getattr(fresh, name))
        m.reset_history()

    def resync_soon(self) -> None:
        """After a lost Redis connection: notices may have been lost meanwhile. What other processes said of their
        seats at the table is forgotten (the events of seats not known to be at the table are checked against the
        shared presence when they are stored), and the matches are checked against the database."""
        for m in self.registry.matches.values():
            m.held_elsewhere.clear()
        self.spawn(self.resync())

    async def run(self) -> None:
        """Every ``RESYNC_INTERVAL`` seconds, :meth:`resync` (only when other processes share the matches)."""
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
        ids = list(self.registry.matches)
        behind = 0
        for start in range(0, len(ids), 500):
            chunk = ids[start:start + 500]
            stored = await self.storage.read(lambda tx, c=chunk: repo.revisions(tx, c))
            for match_id, (revision, epoch) in stored.items():
                m = self.registry.matches.get(match_id)
                if m is not None and (revision > m.revision or epoch != m.epoch):
                    behind += 1
                    self.notice(match_id, "", {"k": "c", "r": revision, "e": epoch})
        return behind

    async def adopt(self, match_id: str) -> bool:
        """SRV-X3: this process now owns ``match_id`` (taken over, or its own match due while out of memory): load or
        catch it up, store the wake time it really has and run what is due."""
        try:
            m = await self.registry.get(match_id)
        except ServiceError:
            return False
        async with m.lock:
            await self.sync(m)
            wake = wake_time(m)
            me = self.changes.server_id
            if not await self.storage.write(lambda tx: repo.set_wake(tx, m.id, m.revision, wake, me)):
                return False  # changed meanwhile: whoever changed it runs it
            m.owner = me
        self.changes.after_change(m)
        return True

    async def behind(self, m: LiveMatch) -> bool:
        """Whether the stored match moved past this copy (only possible when other processes share it, SRV-X1)."""
        if not self.fanout.shared:
            return False
        stored = (await self.storage.read(lambda tx: repo.revisions(tx, [m.id]))).get(m.id)
        return stored is not None and stored != (m.revision, m.epoch)

    async def refused_behind(self, m: LiveMatch, refusal: ServiceError) -> bool:
        """Whether ``refusal`` may come from this copy of ``m`` having missed a change of another process (SRV-X1):
        the stored revision is read (:meth:`behind`). For a wrong token (SRV-A3) it is read at most once per
        :data:`TOKEN_RECHECK` seconds and revision of the match: failed token checks cost no database query each."""
        if refusal.code == "bad_token":
            now = time.monotonic()
            if m.token_recheck == (m.revision, m.epoch) and now - m.token_recheck_at < TOKEN_RECHECK:
                return False
            m.token_recheck, m.token_recheck_at = (m.revision, m.epoch), now
        return await self.behind(m)

    async def mutate(self, match_id: str, op: Callable[[LiveMatch], Awaitable[T]]) -> T:
        """Run ``op`` on the match under its lock; when another process changed the match first (:class:`Conflict`),
        catch up and run it again on the new state (SRV-X1). A refusal is checked against the stored match first:
        a copy that missed a change (its notice still on the way) never refuses what the match allows."""
        m = await self.registry.get(match_id)
        for _ in range(ATTEMPTS):
            async with m.lock:
                if m.evicted:  # left memory while this request waited: work on the reloaded match
                    m = await self.registry.get(match_id)
                    continue
                try:
                    return await op(m)
                except Conflict:
                    self.conflicts += 1
                    await self.sync(m)
                except ServiceError as exc:
                    if exc.status >= 500 or not await self.refused_behind(m, exc):
                        raise
                    await self.sync(m)
        raise ServiceError(503, "busy", "the match kept changing meanwhile; try again")


def _revision(notice: dict[str, Any]) -> int:
    """The revision a change notice announces (0 when it names none)."""
    r = notice.get("r")
    return r if isinstance(r, int) and not isinstance(r, bool) else 0


#: the most seats a presence notice names, and the longest time it counts for (seconds)
PRESENCE_SEATS = 64
PRESENCE_SECONDS = 300.0


def held_elsewhere(m: LiveMatch, origin: str, notice: dict[str, Any]) -> None:
    """Record a presence notice of process ``origin``: ``{"k": "p", "s": [seats], "t": seconds}``, the seats it
    holds a socket of now, counted for ``t`` seconds unless it says otherwise meanwhile (``LiveMatch.seats_elsewhere``).
    A malformed notice is dropped."""
    seats, ttl = notice.get("s"), notice.get("t")
    if not origin or not isinstance(seats, list) or len(seats) > PRESENCE_SEATS \
            or not all(isinstance(s, int) and not isinstance(s, bool) and 0 <= s < len(m.seats) for s in seats) \
            or not isinstance(ttl, (int, float)) or isinstance(ttl, bool) or not 0 < ttl <= PRESENCE_SECONDS:
        return
    if seats:
        m.held_elsewhere[origin] = (frozenset(seats), time.monotonic() + float(ttl))
    else:
        m.held_elsewhere.pop(origin, None)
