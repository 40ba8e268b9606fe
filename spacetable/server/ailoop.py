"""AI seats on the server (SRV-AI1, SRV-X3): the loop that moves a match's AI seats.

Only the process that owns a match (it committed the match's last change) runs its AI seats, so an AI seat
moves once however many processes hold the match; the move is stored like any action (compare-and-set on
the revision). Moves are computed off the event loop by :class:`~.ai.AIRunner`, from the seat's point of
view (a determinised state, SRV-AI3), with a seed derived from the match's seed, its version and the seat.

AI time is scheduled fairly (SRV-AI5, :class:`~.ai.AiScheduler`): a match with a person seated asks in the
person lane, a computer-only match in its own lane, with its budget cut to ``Limits.ai_only_seconds``; each
request counts for the address that created the match (:attr:`AiSeats.addresses`). :meth:`AiSeats.check_ai_only`
bounds the computer-only matches of one address (``Limits.ai_only_matches``, ``Limits.ai_only_seconds``).
"""

from __future__ import annotations

import asyncio
import logging

from spacetable.core.rng import mix_seed
from spacetable.core.serial import to_jsonable

from .ai import AIRunner
from .clocks import Act
from .errors import ServiceError
from .limits import Limits
from .live import LiveMatch, Seat

log = logging.getLogger("spacetable.server")


class AiSeats:
    def __init__(self, matches: dict[str, LiveMatch], limits: Limits, server_id: str, runner: AIRunner, act: Act) -> None:
        self.matches = matches  # the matches in memory (``registry.Registry.matches``)
        self.limits = limits
        self.server_id = server_id
        self.runner = runner
        self.act = act
        #: moves computed (``/health`` and the tests of SRV-X3)
        self.moves = 0
        #: match id -> the client address that created it or made it computer-only (fair shares, SRV-AI5);
        #: kept in memory only: after a restart each match counts as its own client
        self.addresses: dict[str, str] = {}

    @staticmethod
    def computer_only(seats: list[Seat]) -> bool:
        """Whether nobody is seated and every seat is an AI's (a match that plays itself)."""
        return all(s.kind == "ai" for s in seats)

    def check_ai_only(self, seats: list[Seat], ai_seconds: float, client: str | None, match_id: str = "") -> None:
        """Refuse a computer-only match over the bounds of ``client``'s address (SRV-AI5): a budget above
        ``ai_only_seconds`` (422), or ``ai_only_matches`` unfinished computer-only matches already (429)."""
        if not self.computer_only(seats):
            return
        limits = self.limits
        if ai_seconds > limits.ai_only_seconds:
            raise ServiceError(422, "bad_config", f"a match with computer seats only thinks at most "
                               f"{limits.ai_only_seconds:g} s a move (ai_seconds); seat a person for more")
        address = client or "-"
        mine = sum(1 for m in self.matches.values()
                   if m.id != match_id and m.status != "finished" and not m.evicted
                   and self.addresses.get(m.id) == address and self.computer_only(m.seats))
        if mine >= limits.ai_only_matches:
            raise ServiceError(429, "too_many_ai_matches", f"your address already has {mine} unfinished matches "
                               f"with computer seats only (at most {limits.ai_only_matches}); wait for one to end",
                               headers={"Retry-After": "60"})

    def remember(self, match_id: str, client: str | None) -> None:
        """Count ``match_id`` for ``client``'s address (bounded: entries of matches out of memory are dropped)."""
        self.addresses[match_id] = client or "-"
        if len(self.addresses) > 2 * self.limits.max_live_matches + 100:
            for mid in [mid for mid in self.addresses if mid not in self.matches]:
                del self.addresses[mid]

    def on_change(self, m: LiveMatch, owned: bool) -> None:
        """After a change of ``m`` (``changes.Due``): its AI seats move if this process owns it."""
        if owned:
            self.start(m)

    def start(self, m: LiveMatch) -> None:
        """Run the AI loop of ``m`` if an AI seat is to act and no loop runs yet."""
        ai_to_act = m.status == "running" and any(m.seats[s].kind == "ai" for s in m.to_act())
        if ai_to_act and (m.ai_task is None or m.ai_task.done()):
            m.ai_task = asyncio.get_running_loop().create_task(self._loop(m))

    async def _loop(self, m: LiveMatch) -> None:
        me = self.server_id
        while m.status == "running" and m.owner == me and not m.evicted:
            seats = [s for s in m.to_act() if m.seats[s].kind == "ai"]
            if not seats:
                return
            seat, version, state = seats[0], m.version, m.state
            seed = mix_seed(m.seed, "ai", version, seat)
            person = any(s.kind == "human" for s in m.seats)
            seconds = m.ai_seconds if person else min(m.ai_seconds, self.limits.ai_only_seconds)
            try:
                action = await self.runner.choose(m.game, state, seat, m.seats[seat].agent or "", seed, seconds,
                                                  match_id=m.id, address=self.addresses.get(m.id), person=person)
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
                await self.act(m.id, seat, None, version, to_jsonable(action), source="ai")
            except ServiceError as exc:
                if exc.code == "stale_version":
                    continue
                if exc.code != "not_owner":
                    log.error("AI action refused in match %s: %s", m.id, exc.message)
                return

    def shutdown(self) -> None:
        self.runner.shutdown()
