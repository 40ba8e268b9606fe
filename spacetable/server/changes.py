"""Storing a change of a match and showing it: steps 3 and 4 of a message's way through the server
(``docs/architecture.md``, "One way through the server").

Every change of a match is stored first (one transaction, a compare-and-set on the match's revision, SRV-X1),
then shown to this process's clients (``clients.py``), announced to the other processes (``fanout.py``) and
told to the watchers (notifications, issue 21); last, what is due in the match runs if this process owns it
(SRV-X3): the parts listed in :attr:`Changes.due` (the turn clock, the AI seats), given by the service.

:class:`Changes` knows the storage, the fan-out and this process's id; it knows nothing of the service, the
sockets or the parts above it, which use it (``catchup.py``, ``undo.py``, ``lobby.py``, ``service.py``).
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from spacetable.core.game import Action

from . import clients, render, repo
from .clocks import wake_time
from .db import dumps
from .errors import ServiceError
from .fanout import Fanout
from .legal import prepare_legal
from .live import LiveMatch, Seat, make_entry
from .meter import METER, clock
from .storage import Storage, Tx

log = logging.getLogger("spacetable.server")

#: called after this process committed a change of a match: ``watcher(m, seat, action)``; must not block
Watcher = Callable[[LiveMatch, "int | None", "Action | None"], None]


class Conflict(Exception):
    """Another process changed the match first (SRV-X1); the change was not stored."""


class Due(Protocol):
    """A part that runs something in the matches this process owns (SRV-X3): a turn clock, the AI seats."""

    def on_change(self, m: LiveMatch, owned: bool) -> None:
        """After each change of ``m``: start what is due if ``owned``, else stop what this process ran."""


def seat_fields(s: Seat) -> dict[str, Any]:
    """A seat's stored columns."""
    return {"kind": s.kind, "name": s.name, "token_hash": s.token_hash, "agent": s.agent}


class Changes:
    """Store, show, announce, watch, run what is due: every change of a match takes this one way."""

    def __init__(self, storage: Storage, fanout: Fanout, server_id: str) -> None:
        self.storage = storage
        self.fanout = fanout
        self.server_id = server_id
        #: the watchers of committed changes (``Watcher``)
        self.watchers: list[Watcher] = []
        #: the parts that run what is due in an owned match (``Due``), in order
        self.due: list[Due] = []
        #: set by the service once it has started (nothing is run in matches before)
        self.started = False

    # ------------------------------------------------------------------ storing
    @staticmethod
    def memo(m: LiveMatch) -> Callable[[], None]:
        """Remember the mutable lobby fields of a match, to restore them if storing fails."""
        seats, status, started, outcome, updated = list(m.seats), m.status, m.turn_started_at, m.outcome, m.updated_at
        undo = json.loads(json.dumps(m.undo_request))

        def restore() -> None:
            m.changed()
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
            "started_at": m.started_at,
        }

    async def store(self, m: LiveMatch, restore: Callable[[], None], job: Callable[[Tx], Awaitable[bool]]) -> None:
        """Store a change (a compare-and-set job); on a conflict (SRV-X1) or a failure undo the in-memory change:
        :class:`Conflict`, or a 503 for the client (nothing changed)."""
        try:
            ok = await self.storage.write(job)
        except ServiceError:  # the job refused the change (a rated match's seat for a guest): nothing was stored
            restore()
            raise
        except Exception as exc:
            restore()
            log.exception("storing a change of match %s failed", m.id)
            raise ServiceError(503, "storage_error", "the change could not be stored; nothing changed, try again") from exc
        if not ok:
            restore()
            raise Conflict

    async def store_change(self, m: LiveMatch, restore: Callable[[], None], reason: str,
                           seat: int | None = None, also: Callable[[Tx], Awaitable[None]] | None = None) -> None:
        """Store the lobby fields of ``m`` (and one seat), then show the change to the clients and the other
        processes. ``also``: more statements stored in the same transaction (an account's binding to the seat), so
        the watchers, called once it is committed, see them."""
        fields = self.match_fields(m)
        seat_row = (seat, seat_fields(m.seats[seat])) if seat is not None else None

        async def job(tx: Tx) -> bool:
            ok = await repo.change(tx, m.id, m.revision, fields, seat_row)
            if ok and also is not None:
                await also(tx)
            return ok

        await self.store(m, restore, job)
        m.revision += 1
        m.owner = self.server_id
        clients.broadcast_snapshots(m, reason)
        self.announce_change(m, reason)
        self.after_change(m)
        self.watch(m, seat, None)

    async def truncate(self, m: LiveMatch, start: int) -> None:
        """Take the log of ``m`` back to ``start`` entries (an undo): stored (compare-and-set, the epoch goes up),
        then shown and announced."""
        state = m.state_at(start)
        restore = self.memo(m)
        m.undo_request = None
        m.updated_at = time.time()
        fields = self.match_fields(m, state)
        await self.store(m, restore, lambda tx: repo.truncate(tx, m.id, m.revision, start, fields))
        m.truncate(start, state)
        m.epoch += 1
        m.revision += 1
        m.owner = self.server_id
        log.info("undo", extra={"match": m.id, "version": m.version})
        clients.broadcast_snapshots(m, "undo")
        self.announce_change(m, "undo")
        self.after_change(m)

    # ------------------------------------------------------- showing, telling
    def announce_change(self, m: LiveMatch, reason: str) -> None:
        """Tell the other processes that ``m`` changed (not an action): they read it again (SRV-X2)."""
        self.fanout.publish(m.id, {"k": "c", "r": m.revision, "e": m.epoch, "why": reason})

    def announce_action(self, m: LiveMatch, revision: int, seat: int, action: Action, source: str,
                        turn_started_at: float | None, updated_at: float) -> None:
        """Tell the other processes the action stored as ``revision`` (SRV-X2): they apply it in order."""
        self.fanout.publish(m.id, {"k": "a", "r": revision, "e": m.epoch, "i": m.version, "s": seat, "a": action,
                                   "src": source, "t": turn_started_at, "u": updated_at})

    def watch(self, m: LiveMatch, seat: int | None, action: Action | None) -> None:
        """Tell the watchers about a change this process committed (errors logged, never raised)."""
        for w in self.watchers:
            try:
                w(m, seat, action)
            except Exception:
                log.exception("a match watcher failed")

    def after_change(self, m: LiveMatch) -> None:
        """Run what is due in ``m`` if this process owns it (SRV-X3): its clock and its AI seats; stop its clock
        if another process owns it now."""
        if not self.started or m.evicted:
            return
        owned = m.owner == self.server_id
        for part in self.due:
            part.on_change(m, owned)

    async def advance(self, m: LiveMatch, seat: int, action: Action, source: str, after: Any, *,
                      turn_started_at: float | None, updated_at: float, revision: int, owner: str | None,
                      notify: bool = True, known: tuple[Any, tuple[int, ...]] | None = None) -> None:
        """Make a stored action part of the live match: log entry, new state, event to the clients (SRV-V1).
        ``known``: the outcome and the seats to act of ``after`` when the caller computed them already."""
        game = m.game
        t = clock()
        if known is None:
            out = game.outcome(after)
            new_to_act = () if out is not None else tuple(game.to_act(after))
        else:
            out, new_to_act = known
        t = METER.add("apply", t)
        # SRV-L4: a slow game's legal actions for the new state are listed off the loop *before* the state is
        # published, so that nobody sees the new state ahead of its event (SRV-V3)
        legal = await prepare_legal(m, after, new_to_act)  # returns at once for other games (no suspension)
        t = clock()  # again after the wait: what the loop did meanwhile for other matches is not this step's
        entry = make_entry(game, m.state, seat, action, source, len(m.seats))
        entry.t = updated_at
        METER.add("views", t)
        render.log_texts(m, entry, m.state, clients.text_langs(m))
        m.log.append(entry)
        m.publish(after, legal, new_to_act if out is None else None)
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
