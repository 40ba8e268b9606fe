"""Undo on the play server (SRV-U1, SRV-U2, SRV-U3, SRV-U4), on the policy of ``spacetable.core.undo``.

* U1 the match is running and the last action by a person is the seat's own (AI replies after it are taken
  back with it; clock timeouts never are);
* U2 no dice were rolled and no cards drawn since (the state's random generator has not moved);
* U3 nothing hidden was revealed to the seat since (``core.undo.undo_point`` replays the actions on states
  re-sampled from its point of view);
* U4 against AI opponents only, undo happens at once; with other people each of them must accept, and any
  new action cancels a pending request.

The states needed come from the match's history (checkpoints, ``LiveMatch.state_at``), not from a replay of
the whole match.
"""

from __future__ import annotations

import time
from typing import Any

from spacetable.core.undo import UndoRefused, undo_point

from .catchup import Catchup
from .changes import Changes
from .errors import ServiceError
from .live import CHECKPOINT_EVERY, LiveMatch, Subscriber
from .seats import check_seat


def point(m: LiveMatch, seat: int) -> int:
    """Index of the first log entry an undo by ``seat`` removes, or raise why not (SRV-U1..U3)."""
    if m.status != "running":
        raise ServiceError(409, "undo_refused", "undo is only possible in a running match (SRV-U1)")
    i = len(m.log) - 1
    while i >= 0 and m.log[i].seat != seat and m.log[i].source == "ai":
        i -= 1
    if i < 0 or m.log[i].seat != seat or m.log[i].source != "player":
        raise ServiceError(409, "undo_refused", "only your own last action (and the AI replies after it) can be taken back "
                           "(SRV-U1)")
    before = m.state_at(i)
    if getattr(before, "rng", None) != getattr(m.state, "rng", None):
        raise ServiceError(409, "undo_refused", "dice were rolled or cards drawn since that action (SRV-U2)")
    start = i - i % CHECKPOINT_EVERY
    along = {e.seat for e in m.log[i + 1:]}
    try:
        found = start + undo_point(m.game, m.state_at(start), [(e.seat, e.action) for e in m.log[start:]], seat,
                                   along=along, seed=m.seed)
    except UndoRefused:
        raise ServiceError(409, "undo_refused", "hidden information was revealed to you since that action (SRV-U3)") from None
    if found != i:  # the core policy and the server's U1 disagree on what is taken back
        raise ServiceError(409, "undo_refused", "only your own last action (and the AI replies after it) can be taken back "
                           "(SRV-U1)")
    return i


class Undo:
    """Undo requests and answers of the matches in memory: each a change under the match's lock, run again on the
    newest state when another process changed the match first (``catchup.Catchup.mutate``)."""

    def __init__(self, changes: Changes, catchup: Catchup) -> None:
        self.changes = changes
        self.catchup = catchup

    async def request(self, match_id: str, seat: int, token: str | None, sub: Subscriber | None = None) -> dict[str, Any]:
        changes = self.changes

        async def op(m: LiveMatch) -> dict[str, Any]:
            check_seat(m, seat, token, sub)
            start = point(m, seat)
            others = [i for i, s in enumerate(m.seats) if s.kind == "human" and i != seat]
            if not others:  # SRV-U4: against AI only, no consent needed
                await changes.truncate(m, start)
                return {"done": True, "version": m.version}
            restore = changes.memo(m)
            m.undo_request = {"seat": seat, "version": m.version, "to": start, "accepted": [seat], "waiting": others}
            m.updated_at = time.time()
            await changes.store_change(m, restore, "undo_request")
            return {"done": False, "waiting": others, "version": m.version}

        return await self.catchup.mutate(match_id, op)

    async def answer(self, match_id: str, seat: int, token: str | None, accept: bool,
                     sub: Subscriber | None = None) -> dict[str, Any]:
        changes = self.changes

        async def op(m: LiveMatch) -> dict[str, Any]:
            check_seat(m, seat, token, sub)
            req = m.undo_request
            if req is None or req["version"] != m.version:
                raise ServiceError(409, "no_undo_request", "there is no pending undo request")
            if seat not in req["waiting"]:
                raise ServiceError(409, "no_undo_request", f"seat {seat} is not asked to consent")
            restore = changes.memo(m)
            if not accept:
                m.undo_request = None
                await changes.store_change(m, restore, "undo_declined")
                return {"done": False, "declined": True, "version": m.version}
            waiting = [s for s in req["waiting"] if s != seat]
            req = m.undo_request = {**req, "waiting": waiting, "accepted": [*req["accepted"], seat]}
            if req["waiting"]:
                await changes.store_change(m, restore, "undo_request")
                return {"done": False, "waiting": req["waiting"], "version": m.version}
            try:
                start = point(m, int(req["seat"]))
            except ServiceError:
                restore()
                raise
            await changes.truncate(m, start)
            return {"done": True, "version": m.version}

        return await self.catchup.mutate(match_id, op)
