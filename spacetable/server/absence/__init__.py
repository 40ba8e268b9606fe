"""Absent players (issue 21): what a lapsed turn clock does in a match.

A match's players choose, before the first move, what happens when a seat's turn clock runs out
(``PUT /api/matches/{id}/lapse``, a seated player with the seat's token):

* ``forfeit`` (the default, as before): the clock's timeout action is played (SRV-C2): the game's own timeout
  move where it defines one (a pass in a sealed simultaneous phase), else a resignation, so the waiting seats
  win;
* ``computer``: the seat is handed to a computer level (the match's game's agent, named or its default) that
  plays on from there; the seat's token stops working (as when a seat is left, SRV-A4).

The choice is kept in ``match_policies`` (migration ``0005_callback``). The clock's owner (SRV-X3) asks
:meth:`Lapses.on_lapse` before it plays a timeout action (``clocks.Clocks._timeout``, one call).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

from sqlalchemy import Float, Integer, String, delete, insert, select
from sqlalchemy.orm import Mapped, mapped_column

from ..ai import agent_registry
from ..db import Base
from ..errors import ServiceError
from ..live import Seat
from ..notify.store import begin as store_begin

if TYPE_CHECKING:
    from ..live import LiveMatch
    from ..service import MatchService

log = logging.getLogger("spacetable.server")
LAPSES = ("forfeit", "computer")


class MatchPolicyRow(Base):
    __tablename__ = "match_policies"

    match_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    #: forfeit | computer
    lapse: Mapped[str] = mapped_column(String(12))
    agent: Mapped[str | None] = mapped_column(String(64), nullable=True)
    set_by: Mapped[int] = mapped_column(Integer)
    set_at: Mapped[float] = mapped_column(Float)


class Lapses:
    def __init__(self, service: MatchService) -> None:
        self.service = service

    def policy(self, match_id: str) -> tuple[str, str | None]:
        with self.service.engine.connect() as conn:
            row = conn.execute(select(MatchPolicyRow.lapse, MatchPolicyRow.agent)
                               .where(MatchPolicyRow.match_id == match_id)).first()
        return (row.lapse, row.agent) if row is not None else ("forfeit", None)

    async def set(self, match_id: str, seat: int, token: str | None, lapse: str, agent: str | None) -> dict[str, object]:
        """Choose the match's lapse policy: a seated player, before the first move."""
        m = await self.service.get(match_id)
        await self.service.authorize(m, seat, token)
        if lapse not in LAPSES:
            raise ServiceError(422, "bad_config", f"lapse is one of {', '.join(LAPSES)}")
        if m.version > 0 or m.status == "finished":
            raise ServiceError(409, "started", "the lapse policy is chosen before the first move")
        agents, _default = agent_registry(m.game)
        if agent is not None and agent not in agents:
            raise ServiceError(422, "bad_config", f"unknown agent {agent!r}; known: {sorted(agents)}")

        def job() -> None:
            with store_begin(self.service.engine) as conn:
                conn.execute(delete(MatchPolicyRow).where(MatchPolicyRow.match_id == match_id))
                conn.execute(insert(MatchPolicyRow).values(match_id=match_id, lapse=lapse, agent=agent, set_by=seat,
                                                           set_at=time.time()))

        await asyncio.to_thread(job)
        return {"lapse": lapse, "agent": agent}

    async def on_lapse(self, m: LiveMatch, seat: int) -> bool:
        """The clock of ``seat`` ran out: ``True`` when the policy handled it (the seat went to the computer)."""
        lapse, agent = await asyncio.to_thread(self.policy, m.id)
        if lapse != "computer":
            return False
        if m.seats[seat].kind == "ai":
            return True  # handed over already: the computer is thinking, its clock restarted with it
        service = self.service

        async def op(mm: LiveMatch) -> bool:
            deadline = mm.deadline()
            if mm.status != "running" or seat not in mm.to_act() or mm.seats[seat].kind != "human" \
                    or deadline is None or deadline > time.time():
                return False  # the seat acted meanwhile (or another process handed it over first)
            agents, default = agent_registry(mm.game)
            chosen = agent if agent in agents else default
            restore = service.memo(mm)
            mm.seats[seat] = Seat("ai", f"AI ({chosen})", None, chosen)
            mm.updated_at = mm.turn_started_at = time.time()  # the computer's turn starts now, with a fresh clock
            await service.store_change(mm, restore, "update", seat)
            log.info("lapsed seat handed to the computer", extra={"match": mm.id, "seat": seat})
            return True

        return await service.mutate(m.id, op)
