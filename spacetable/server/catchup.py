"""Changes made by other processes (SRV-X1, SRV-X2, SRV-X3): notices applied in order, catching up from the
database, the periodic check of the matches in memory, and taking a match over.

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
from typing import TYPE_CHECKING, Any

from . import clients, repo
from .clocks import wake_time
from .errors import ServiceError
from .live import LiveMatch, Seat

if TYPE_CHECKING:
    from .service import MatchService

log = logging.getLogger("spacetable.server")
#: Seconds between two checks of the matches in memory against the database (SRV-X2: a lost notice is caught
#: up within this time).
RESYNC_INTERVAL = 5.0


class Catchup:
    def __init__(self, service: MatchService) -> None:
        self.service = service

    def notice(self, match_id: str, origin: str, notice: dict[str, Any]) -> None:
        """A change announced by another process (SRV-X2): queued on the match and applied in order."""
        m = self.service.matches.get(match_id)
        if m is None:
            early = self.service.registry.early.get(match_id)
            if early is not None:
                early.append((origin, notice))
            return
        m.inbox.append((origin, notice))
        if not m.draining:
            m.draining = True
            self.service.spawn(self._drain(m))

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
            if m.owner == self.service.server_id and m.status == "running":  # sets the match's timer again
                self.service.clocks.schedule(m)
            return
        revision = int(notice["r"])
        if revision <= m.revision or m.evicted:
            return  # already known (it caught up from the database meanwhile)
        if (notice["k"] == "a" and revision == m.revision + 1 and notice["e"] == m.epoch and notice["i"] == m.version
                and m.status == "running"):
            seat, action = int(notice["s"]), notice["a"]
            after = m.game.apply(m.state, seat, action)
            await self.service.advance(m, seat, action, notice["src"], after, turn_started_at=notice["t"],
                                updated_at=notice["u"], revision=revision, owner=origin)
            return
        await self.sync(m, notice.get("why"))

    async def sync(self, m: LiveMatch, reason: str | None = None) -> None:
        """Catch ``m`` up with the database (its lock held): new actions become events, seat and other changes a
        snapshot (``reason``), an undo or a log that differs a reload (SRV-X1, SRV-X2)."""
        found = await self.service.storage.read(lambda tx: repo.load(tx, m.id, m.version))
        if found is None:
            return
        row, seat_rows, action_rows = found
        if row["epoch"] != m.epoch or row["version"] < m.version or (action_rows and action_rows[0]["idx"] != m.version):
            await self._reload(m)
            clients.broadcast_snapshots(m, reason or "update")
            self.service.after_change(m)
            return
        seats = [Seat(r["kind"], r["name"], r["token_hash"], r["agent"]) for r in seat_rows]
        undo_request = json.loads(row["undo_request"]) if row["undo_request"] else None
        lobby_changed = seats != m.seats or undo_request != m.undo_request or (row["status"] != m.status and not action_rows)
        other_change = int(row["revision"]) != m.revision and not action_rows  # e.g. an undo request declined
        m.seats[:] = seats
        for a in action_rows:
            seat, action = int(a["seat"]), json.loads(a["action"])
            after = m.game.apply(m.state, seat, action)
            await self.service.advance(m, seat, action, a["source"], after, turn_started_at=row["turn_started_at"],
                                updated_at=row["updated_at"], revision=m.revision, owner=m.owner, notify=False)
            m.log[-1].t = float(a.get("created_at") or row["updated_at"] or 0.0)
        m.status, m.turn_started_at, m.updated_at = row["status"], row["turn_started_at"], row["updated_at"]
        m.undo_request, m.revision, m.owner = undo_request, int(row["revision"]), row["owner"]
        m.outcome = json.loads(row["outcome"]) if row["outcome"] else None
        if lobby_changed or other_change:
            clients.broadcast_snapshots(m, reason or "update")
        self.service.after_change(m)

    async def _reload(self, m: LiveMatch) -> None:
        """Replace the in-memory copy of ``m`` by a fresh replay of the stored match (same object: its clients stay)."""
        found = await self.service.storage.read(lambda tx: repo.load(tx, m.id))
        if found is None:
            return
        fresh = self.service.registry.replay(*found)
        for name in ("status", "turn_started_at", "updated_at", "seats", "state", "log", "outcome", "undo_request",
                     "revision", "epoch", "owner", "config", "name", "started_at"):
            setattr(m, name, getattr(fresh, name))
        m.reset_history()

    def resync_soon(self) -> None:
        self.service.spawn(self.resync())

    async def run(self) -> None:
        """Every ``RESYNC_INTERVAL`` seconds, :meth:`resync` (only when other processes share the matches)."""
        if not self.service.fanout.shared:
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
        ids = list(self.service.matches)
        behind = 0
        for start in range(0, len(ids), 500):
            chunk = ids[start:start + 500]
            stored = await self.service.storage.read(lambda tx, c=chunk: repo.revisions(tx, c))
            for match_id, (revision, epoch) in stored.items():
                m = self.service.matches.get(match_id)
                if m is not None and (revision > m.revision or epoch != m.epoch):
                    behind += 1
                    self.notice(match_id, "", {"k": "c", "r": revision, "e": epoch})
        return behind

    async def adopt(self, match_id: str) -> bool:
        """SRV-X3: this process now owns ``match_id`` (taken over, or its own match due while out of memory): load or
        catch it up, store the wake time it really has and run what is due."""
        try:
            m = await self.service.get(match_id)
        except ServiceError:
            return False
        async with m.lock:
            await self.sync(m)
            wake = wake_time(m)
            if not await self.service.storage.write(lambda tx: repo.set_wake(tx, m.id, m.revision, wake, self.service.server_id)):
                return False  # changed meanwhile: whoever changed it runs it
            m.owner = self.service.server_id
        self.service.after_change(m)
        return True

    async def behind(self, m: LiveMatch) -> bool:
        """Whether the stored match moved past this copy (only possible when other processes share it, SRV-X1)."""
        if not self.service.fanout.shared:
            return False
        stored = (await self.service.storage.read(lambda tx: repo.revisions(tx, [m.id]))).get(m.id)
        return stored is not None and stored != (m.revision, m.epoch)
