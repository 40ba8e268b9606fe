"""Turn clocks (SRV-C1, SRV-C2) and when the server must act on its own (SRV-X3).

A seat's clock starts when it becomes one of the seats to act; while it keeps acting the clock does not
restart. Only the process that owns a match (it committed the match's last change, SRV-X3) runs its clock,
so a clock fires once however many processes hold the match; the timeout action is stored like any action
(compare-and-set on the revision), so even two timers could not both play it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any

from spacetable.core.game import Action, Game
from spacetable.core.serial import action_key

from .errors import ServiceError
from .live import LiveMatch, Seat

if TYPE_CHECKING:
    from .service import MatchService

log = logging.getLogger("spacetable.server")


def wake_at(status: str, seats: list[Seat], to_act: tuple[int, ...], turn_started_at: float | None,
            turn_seconds: float | None) -> float | None:
    """SRV-X3: when the server must act on a match by itself: an AI seat to act (due since its turn began), else
    the clock's deadline; ``None`` when nothing is due."""
    if status != "running" or not to_act:
        return None
    if any(seats[s].kind == "ai" for s in to_act):
        return turn_started_at or 0.0
    if turn_seconds and turn_started_at is not None:
        return turn_started_at + turn_seconds
    return None


def wake_time(m: LiveMatch, to_act: tuple[int, ...] | None = None) -> float | None:
    """:func:`wake_at` of ``m`` (with ``to_act`` instead of its own seats to act, if given)."""
    return wake_at(m.status, m.seats, m.to_act() if to_act is None else to_act, m.turn_started_at, m.turn_seconds)


def timeout_action(game: Game[Any], state: Any, seat: int) -> Action | None:
    """SRV-C2: the action played for a seat whose time ran out: the game's own ``timeout_action(state, seat)``
    if it defines one and it is legal, else ``{"type": "resign"}`` if legal, else the first legal action."""
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


class Clocks:
    """The timers of the matches this process owns."""

    def __init__(self, service: MatchService) -> None:
        self.service = service
        self._tasks: set[asyncio.Task[None]] = set()

    def schedule(self, m: LiveMatch) -> None:
        self.cancel(m)
        deadline = m.deadline()
        if deadline is None or not m.to_act():
            return
        version = m.version
        m.clock_handle = asyncio.get_running_loop().call_later(max(0.0, deadline - time.time()), self._fire, m, version)

    @staticmethod
    def cancel(m: LiveMatch) -> None:
        if m.clock_handle is not None:
            m.clock_handle.cancel()
            m.clock_handle = None

    def _fire(self, m: LiveMatch, version: int) -> None:
        m.clock_handle = None
        task = asyncio.get_running_loop().create_task(self._timeout(m, version))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _timeout(self, m: LiveMatch, version: int) -> None:
        if m.version != version or m.status != "running":
            return
        for seat in list(m.to_act()):
            if m.status != "running" or seat not in m.to_act():
                continue
            lapses = getattr(self.service, "lapses", None)  # absent players' policy (issue 21, server/absence)
            if lapses is not None and await lapses.on_lapse(m, seat):
                continue
            action = timeout_action(m.game, m.state, seat)
            if action is None:
                continue
            log.info("clock ran out", extra={"match": m.id, "seat": seat})
            try:
                await self.service.act(m.id, seat, None, m.version, action, source="timeout")
            except ServiceError as exc:
                log.warning("timeout action refused in match %s: %s", m.id, exc.message)
                return

    def stop(self) -> None:
        for t in self._tasks:
            t.cancel()
