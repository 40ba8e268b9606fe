"""Absent players (issue 21): what a lapsed turn clock does in a match, and vacations.

A match chooses what happens when a seat's turn clock runs out, when it is created (``"lapse"`` in the creation
body, checked with the rest of it) or later by a seated player before the first move
(``PUT /api/matches/{id}/lapse``, the seat's token):

* ``forfeit`` (the default, as before): the clock's timeout action is played (SRV-C2): the game's own timeout
  move where it defines one, else a resignation;
* ``claim``: nothing is played; once the absent seat's time is out, each waiting seat may **claim the win**
  (``POST /api/matches/{id}/claim``): the absent seat resigns (in a match of more than two, the others play on).
  A claim before the time is out is refused (409 ``not_lapsed``);
* ``computer``: the seat is handed to a computer level (the match's game's agent, named or its default) that
  plays on from there; the seat's token stops working (as when a seat is left, SRV-A4);
* ``pass``: the absent seat passes: the game's own timeout move (its rules' defaults: end the turn, stay, no
  event, 0 energy in a sealed bid...). Refused at creation for a game whose rules name no such move (Galaxies,
  Arena); in a phase where the game has none, the lapse waits for a claim as with ``claim``.

The choice is kept in ``match_policies`` (migration ``0005_callback``). The clock's owner (SRV-X3) asks
:meth:`Lapses.on_lapse` before it plays a timeout action (``clocks.Clocks._timeout``, one call).

Vacations (:class:`Vacations`): an account turns vacation on from its settings; while it lasts, the
correspondence clocks (``days`` per turn) of its seats are paused (the deadline moves by the time spent away) and
the other players see it. Each account has ``VACATION_DAYS`` a calendar year; a vacation ends when turned off or
when the allowance is spent.
"""

from __future__ import annotations

import asyncio
import datetime
import logging
import os
import time
from typing import TYPE_CHECKING, Any

from sqlalchemy import Float, Integer, String, delete, insert, select, text, update
from sqlalchemy.orm import Mapped, mapped_column

from ..ai import agent_registry
from ..clocks import timeout_action
from ..db import Base
from ..errors import ServiceError
from ..live import Seat
from ..notify.store import begin as store_begin

if TYPE_CHECKING:
    from ..live import LiveMatch
    from ..service import MatchService

log = logging.getLogger("spacetable.server")
LAPSES = ("forfeit", "claim", "computer", "pass")
#: days of vacation an account may take per calendar year (UTC)
VACATION_DAYS = float(os.environ.get("SPACETABLE_VACATION_DAYS", "30"))


class MatchPolicyRow(Base):
    __tablename__ = "match_policies"

    match_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    #: forfeit | computer
    lapse: Mapped[str] = mapped_column(String(12))
    agent: Mapped[str | None] = mapped_column(String(64), nullable=True)
    set_by: Mapped[int] = mapped_column(Integer)
    set_at: Mapped[float] = mapped_column(Float)


class VacationRow(Base):
    __tablename__ = "account_vacations"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[str] = mapped_column(String(64), index=True)
    started_at: Mapped[float] = mapped_column(Float)
    #: the allowance's end: the vacation stops by itself then
    until: Mapped[float] = mapped_column(Float)
    ended_at: Mapped[float | None] = mapped_column(Float, nullable=True)


def has_pass(game: Any) -> bool:
    """Whether the game's rules name a move for an absent seat (its own ``timeout_action``)."""
    from spacetable.core.game import Game

    hook = getattr(type(game), "timeout_action", None)
    return hook is not None and hook is not Game.timeout_action


class Lapses:
    def __init__(self, service: MatchService) -> None:
        self.service = service

    def check(self, game: Any, lapse: str, agent: str | None, turn_seconds: float | None) -> tuple[str, str | None]:
        """A lapse policy chosen at creation, checked with the rest of the creation: (lapse, agent)."""
        if lapse not in LAPSES:
            raise ServiceError(422, "bad_config", f"lapse is one of {', '.join(LAPSES)}")
        if lapse == "pass" and not has_pass(game):
            raise ServiceError(422, "bad_config", f"{game.name} has no pass for an absent seat: its rules name no "
                               "timeout move; choose forfeit, claim or computer")
        if agent is not None:
            if lapse != "computer":
                raise ServiceError(422, "bad_config", "an agent goes with the lapse policy 'computer' only")
            agents, _default = agent_registry(game)
            if agent not in agents:
                raise ServiceError(422, "bad_config", f"unknown agent {agent!r}; known: {sorted(agents)}")
        if turn_seconds is None and lapse != "forfeit":
            raise ServiceError(422, "bad_config", "a lapse policy needs a clock (a time control other than none)")
        return (lapse, agent)

    @staticmethod
    async def insert(tx: Any, match_id: str, lapse: str, agent: str | None) -> None:
        await tx.execute("INSERT INTO match_policies (match_id, lapse, agent, set_by, set_at) "
                         "VALUES (:m, :l, :a, -1, :t)", {"m": match_id, "l": lapse, "a": agent, "t": time.time()})

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
        if lapse == "pass" and not has_pass(m.game):
            self.check(m.game, lapse, agent, m.turn_seconds)
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
        if lapse == "claim":
            log.info("clock ran out: the waiting seats may claim", extra={"match": m.id, "seat": seat})
            return True
        if lapse == "pass":
            # no pass in this phase: the others may claim; else the clock plays the game's own timeout move
            return m.game.timeout_action(m.state, seat) is None
        if lapse != "computer":
            return False
        if m.seats[seat].kind == "ai":
            return True  # handed over already: the computer is thinking, its clock restarted with it
        service = self.service

        async def op(mm: LiveMatch) -> bool:
            deadline = mm.deadline()
            if mm.status != "running" or seat not in mm.to_act() or mm.seats[seat].kind != "human" \
                    or deadline is None or deadline > service.clocks.now():
                return False  # the seat acted meanwhile (or another process handed it over first)
            agents, default = agent_registry(mm.game)
            chosen = agent if agent in agents else default
            restore = service.memo(mm)
            mm.seats[seat] = Seat("ai", f"AI ({chosen})", None, chosen)
            mm.updated_at = mm.turn_started_at = service.clocks.now()  # the computer's turn starts now
            await service.store_change(mm, restore, "update", seat)
            log.info("lapsed seat handed to the computer", extra={"match": mm.id, "seat": seat})
            return True

        return await service.mutate(m.id, op)

    async def claim(self, match_id: str, seat: int, token: str | None) -> dict[str, object]:
        """A waiting seat claims the win over a seat whose time is out (policies ``claim`` and ``pass``): the absent
        seat resigns (or, where the game has no resignation, plays its timeout move). Any process may take the
        claim (the action is stored compare-and-set, SRV-X1); 409 ``not_lapsed`` before the time is out."""
        service = self.service
        m = await service.get(match_id)
        await service.authorize(m, seat, token)
        lapse, _agent = await asyncio.to_thread(self.policy, m.id)
        if lapse not in ("claim", "pass"):
            raise ServiceError(409, "no_claim", f"this match's lapse policy is {lapse}: there is nothing to claim")
        now = service.clocks.now()
        absent = []
        for s in m.to_act():
            due = await service.clocks.due(m, s)
            if s != seat and m.seats[s].kind == "human" and due is not None and due <= now:
                absent.append(s)
        if m.status != "running" or seat in m.to_act() or not absent:
            raise ServiceError(409, "not_lapsed", "nobody's time is out: a win is claimed once the absent seat's "
                               "clock has run out")

        async def op(mm: LiveMatch) -> tuple[int, list[int]]:
            from ..service import Conflict

            done: list[int] = []
            for target in absent:  # every seat whose time is out (3+ seats: several may be), each in turn
                if mm.status != "running" or target not in mm.to_act():
                    continue  # it acted meanwhile, or the match ended with an earlier one
                action = resignation(mm.game, mm.state, target)
                if action is None:
                    continue
                action = mm.game.normalize_action(action)  # the form ``_act_locked`` applies and stores
                if not await service._act_locked(mm, target, mm.version, action, "timeout"):
                    raise Conflict
                done.append(target)
            if not done:
                raise ServiceError(409, "not_lapsed", "the absent seat acted meanwhile")
            log.info("win claimed", extra={"match": mm.id, "seat": seat, "absent": done})
            return mm.version, done

        version, done = await service.mutate(m.id, op)
        return {"claimed": True, "absent": done[0], "absent_seats": done, "version": version}


def resignation(game: Any, state: Any, seat: int) -> dict[str, Any] | None:
    """What a claim plays for an absent seat: its resignation (the core move, open at any time in most games even
    where the legal list leaves it out), else the rules' timeout move (``None``: none now)."""
    action = {"type": "resign"}
    try:
        game.apply(state, seat, action)  # pure: only asks whether the rules take it now
    except Exception:  # refused (a game without resignation): the timeout move instead
        return timeout_action(game, state, seat)
    return action


def year_start(t: float) -> float:
    d = datetime.datetime.fromtimestamp(t, datetime.UTC)
    return datetime.datetime(d.year, 1, 1, tzinfo=datetime.UTC).timestamp()


class Vacations:
    """Accounts' vacations: on from the settings, off by hand or when the year's allowance is spent."""

    def __init__(self, service: MatchService, days: float = VACATION_DAYS) -> None:
        self.service = service
        self.days = days

    def _rows(self, conn: Any, account_id: str) -> list[Any]:
        return list(conn.execute(select(VacationRow.started_at, VacationRow.until, VacationRow.ended_at)
                                 .where(VacationRow.account_id == account_id).order_by(VacationRow.started_at)).all())

    @staticmethod
    def _end(row: Any) -> float:
        return min(row.ended_at if row.ended_at is not None else row.until, row.until)

    def status(self, account_id: str, now: float | None = None) -> dict[str, Any]:
        now = self.service.clocks.now() if now is None else now
        with self.service.engine.connect() as conn:
            rows = self._rows(conn, account_id)
        year = year_start(now)
        used = sum(max(0.0, min(self._end(r), now) - max(r.started_at, year)) for r in rows)
        current = next((r for r in rows if r.started_at <= now < self._end(r)), None)
        left = max(0.0, self.days * 86400 - used)
        return {"on": current is not None, "until": current.until if current else None,
                "days_left": round(left / 86400, 2), "allowance_days": self.days}

    async def turn(self, account_id: str, on: bool) -> dict[str, Any]:
        now = self.service.clocks.now()

        def job() -> None:
            state = self.status(account_id, now)
            with store_begin(self.service.engine) as conn:
                if on and not state["on"]:
                    if state["days_left"] <= 0:
                        raise ServiceError(409, "no_vacation_left", "this year's vacation days are spent")
                    conn.execute(insert(VacationRow).values(account_id=account_id, started_at=now,
                                                            until=now + state["days_left"] * 86400, ended_at=None))
                elif not on and state["on"]:
                    conn.execute(update(VacationRow).where(VacationRow.account_id == account_id,
                                                           VacationRow.ended_at.is_(None), VacationRow.until > now)
                                 .values(ended_at=now))

        await asyncio.to_thread(job)
        await self.reschedule(account_id)
        return await asyncio.to_thread(self.status, account_id, now)

    async def reschedule(self, account_id: str) -> None:
        """The clocks of the account's matches are set again (a vacation ended early): here for the matches this
        process runs, by a notice (``{"k": "w"}``, ``catchup.py``) for those another process runs."""
        def ids() -> list[str]:
            with self.service.engine.connect() as conn:
                return [r[0] for r in conn.execute(text("SELECT match_id FROM account_seats WHERE account_id = :a"),
                                                   {"a": account_id})]

        for match_id in await asyncio.to_thread(ids):
            m = self.service.matches.get(match_id)
            if m is not None and m.owner == self.service.server_id:
                if m.status == "running":
                    self.service.clocks.schedule(m)
            else:
                self.service.fanout.publish(match_id, {"k": "w"})

    def intervals(self, account_id: str) -> list[tuple[float, float]]:
        with self.service.engine.connect() as conn:
            return [(r.started_at, self._end(r)) for r in self._rows(conn, account_id)]

    async def paused(self, match_id: str, seat: int, since: float) -> float:
        """The seconds the account at ``seat`` spent (or will spend, within its allowance) on vacation since
        ``since``: a correspondence deadline moves by that much."""
        from ..notify.events import seat_accounts

        def job() -> float:
            account = seat_accounts(self.service.engine, match_id).get(seat)
            if account is None:
                return 0.0
            return sum(max(0.0, end - max(start, since)) for start, end in self.intervals(account))

        return await asyncio.to_thread(job)

    async def seats_away(self, m: LiveMatch) -> dict[int, float]:
        """The seats of ``m`` whose accounts are on vacation now: seat -> until."""
        from ..notify.events import seat_accounts

        now = self.service.clocks.now()

        def job() -> dict[int, float]:
            out = {}
            for seat, account in seat_accounts(self.service.engine, m.id).items():
                for start, end in self.intervals(account):
                    if start <= now < end:
                        out[seat] = end
            return out

        return await asyncio.to_thread(job)
