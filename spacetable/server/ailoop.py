"""AI seats on the server (SRV-AI1, SRV-X3): the loop that moves a match's AI seats.

Only the process that owns a match (it committed the match's last change) runs its AI seats, so an AI seat
moves once however many processes hold the match; the move is stored like any action (compare-and-set on
the revision). Moves are computed off the event loop by :class:`~.ai.AIRunner`, from the seat's point of
view (a determinised state, SRV-AI3), with a seed derived from the match's seed, its version and the seat.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from spacetable.core.rng import mix_seed
from spacetable.core.serial import to_jsonable

from .ai import AIRunner
from .errors import ServiceError
from .live import LiveMatch

if TYPE_CHECKING:
    from .service import MatchService

log = logging.getLogger("spacetable.server")


class AiSeats:
    def __init__(self, service: MatchService, runner: AIRunner) -> None:
        self.service = service
        self.runner = runner
        #: moves computed (``/health`` and the tests of SRV-X3)
        self.moves = 0

    def start(self, m: LiveMatch) -> None:
        """Run the AI loop of ``m`` if an AI seat is to act and no loop runs yet."""
        ai_to_act = m.status == "running" and any(m.seats[s].kind == "ai" for s in m.to_act())
        if ai_to_act and (m.ai_task is None or m.ai_task.done()):
            m.ai_task = asyncio.get_running_loop().create_task(self._loop(m))

    async def _loop(self, m: LiveMatch) -> None:
        me = self.service.server_id
        while m.status == "running" and m.owner == me and not m.evicted:
            seats = [s for s in m.to_act() if m.seats[s].kind == "ai"]
            if not seats:
                return
            seat, version, state = seats[0], m.version, m.state
            seed = mix_seed(m.seed, "ai", version, seat)
            try:
                action = await self.runner.choose(m.game, state, seat, m.seats[seat].agent or "", seed, m.ai_seconds)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("AI failed in match %s; playing the first legal action", m.id)
                legal = m.game.legal_actions(state, seat)
                if not legal:
                    return
                action = legal[0]
            self.moves += 1
            if m.version != version:
                continue
            try:
                await self.service.act(m.id, seat, None, version, to_jsonable(action), source="ai")
            except ServiceError as exc:
                if exc.code == "stale_version":
                    continue
                if exc.code != "not_owner":
                    log.error("AI action refused in match %s: %s", m.id, exc.message)
                return

    def shutdown(self) -> None:
        self.runner.shutdown()
