"""Turn clocks (SRV-C1, SRV-C2) and when the server must act on its own (SRV-X3).

Time controls (issue 21), chosen when a match is created (``clock`` in the creation body, :func:`time_control`):

* ``none``: no clock;
* ``move``: live, ``seconds`` per turn (``turn_seconds``, as before);
* ``increment``: live, each seat has a bank of ``seconds`` that its turns spend and that gains ``increment``
  seconds after each of its turns (Fischer); the banks are counted from the match's log (each entry's time and
  the seats that were to act), so every process and every restart agrees on them without storing them;
* ``days``: correspondence, ``days`` per turn; a seat whose account is on vacation (``absence.vacations``) has
  its clock paused meanwhile.

A seat's clock starts when it becomes one of the seats to act; while it keeps acting the clock does not
restart. Only the process that owns a match (it committed the match's last change, SRV-X3) runs its clock,
so a clock fires once however many processes hold the match; the timeout action is stored like any action
(compare-and-set on the revision), so even two timers could not both play it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from spacetable.core.game import Action, Game
from spacetable.core.serial import action_key

from .errors import ServiceError
from .live import LiveMatch, Seat, bank_step

#: plays an action for a seat as the server (the service's ``act``): ``act(match_id, seat, token, version, action,
#: source=...)``
Act = Callable[..., Awaitable[int]]


class Vacations(Protocol):
    async def paused(self, match_id: str, seat: int, since: float) -> float:
        """Seconds of ``seat``'s turn since ``since`` that its account spent on vacation."""


class Lapses(Protocol):
    async def on_lapse(self, m: LiveMatch, seat: int) -> bool:
        """Apply the match's lapse policy to ``seat`` whose time ran out; ``True`` if it handled the lapse."""

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


KINDS = ("none", "move", "increment", "days")
#: bounds of a time control (seconds per turn or in a bank, increment, days per turn)
MOVE_SECONDS = (10.0, 86400.0)
BANK_SECONDS = (60.0, 6 * 3600.0)
INCREMENT_SECONDS = (0.0, 600.0)
DAYS = (1, 14)


def clock_spec(clock_kind: str | None, turn_seconds: float | None, increment: float) -> dict[str, Any] | None:
    """The creation's ``clock`` that gives a match these fields back (:func:`time_control`'s inverse), for a match
    made like another one (a rematch); ``None`` for a match made with ``turn_seconds`` alone."""
    if clock_kind is None:
        return None
    if clock_kind == "none" or turn_seconds is None:
        return {"kind": "none"}
    if clock_kind == "increment":
        return {"kind": "increment", "seconds": turn_seconds, "increment": increment}
    if clock_kind == "days":
        return {"kind": "days", "days": round(turn_seconds / 86400)}
    return {"kind": "move", "seconds": turn_seconds}


def time_control(spec: dict[str, Any] | None, turn_seconds: float | None) -> tuple[str | None, float | None, float]:
    """A creation's ``clock`` (``{"kind", "seconds"?, "increment"?, "days"?}``) as the match's (kind, turn seconds,
    increment); without one, ``turn_seconds`` as before (per move). Raises a 422 with the bound a value broke."""
    if spec is None:
        return (None, turn_seconds, 0.0)
    if turn_seconds is not None:
        raise ServiceError(422, "bad_config", "give either 'clock' or 'turn_seconds', not both")
    kind = spec.get("kind")

    def bounded(name: str, lo: float, hi: float, default: float | None = None) -> float:
        value = spec.get(name, default)
        if not isinstance(value, int | float) or isinstance(value, bool) or not lo <= value <= hi:
            raise ServiceError(422, "bad_config", f"clock {kind}: '{name}' must be a number in {lo:g}..{hi:g}")
        return float(value)

    if kind == "none":
        return ("none", None, 0.0)
    if kind == "move":
        return ("move", bounded("seconds", *MOVE_SECONDS), 0.0)
    if kind == "increment":
        return ("increment", bounded("seconds", *BANK_SECONDS), bounded("increment", *INCREMENT_SECONDS, 0.0))
    if kind == "days":
        days = bounded("days", *DAYS)
        if days != int(days):
            raise ServiceError(422, "bad_config", "clock days: 'days' is a whole number of days")
        return ("days", days * 86400.0, 0.0)
    raise ServiceError(422, "bad_config", f"clock kind is one of {', '.join(KINDS)}")


class Clocks:
    """The timers of the matches this process owns."""

    def __init__(self, act: Act) -> None:
        self.act = act
        #: accounts' vacations (``absence.Vacations``, issue 21) and the absent players' policies
        #: (``absence.Lapses``); set by the app, none without accounts
        self.vacations: Vacations | None = None
        self.lapses: Lapses | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        #: the clocks' time (tests inject theirs)
        self.now = time.time

    def limit_after(self, m: LiveMatch, seat: int, to_act: tuple[int, ...], started_at: float | None,
                    t: float) -> float | None:
        """The turn time of the seats ``to_act`` once ``seat``'s action at ``t`` is stored (for ``wake_at``): the
        match's ``turn_seconds``, or with banks the smallest bank left after the action."""
        if m.clock_kind != "increment" or not m.turn_seconds or not to_act or started_at is None:
            return m.turn_seconds
        banks = m.banks()
        bank_step(banks, m.turn_started_at or t, m.to_act(), to_act, t, m.clock_increment)
        return max(0.0, min(banks[s] for s in to_act))

    async def due(self, m: LiveMatch, seat: int) -> float | None:
        """When ``seat``'s time is really out: the deadline, later by the time its account spent on vacation during
        this turn in a correspondence match (``days``)."""
        deadline = m.deadline()
        if deadline is None or m.clock_kind != "days" or m.turn_started_at is None:
            return deadline
        vacations = self.vacations
        if vacations is None:
            return deadline
        return deadline + await vacations.paused(m.id, seat, m.turn_started_at)

    def on_change(self, m: LiveMatch, owned: bool) -> None:
        """After a change of ``m`` (``changes.Due``): its timer set if this process owns it, else stopped."""
        if owned:
            self.schedule(m)
        else:
            self.cancel(m)

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
        later = []
        for seat in list(m.to_act()):
            if m.status != "running" or seat not in m.to_act():
                continue
            due = await self.due(m, seat)
            if due is not None and due > self.now() + 0.001:
                later.append(due)  # a vacation paused this seat's clock: not yet
                continue
            lapses = self.lapses  # absent players' policy (issue 21, server/absence)
            if lapses is not None and await lapses.on_lapse(m, seat):
                continue
            action = timeout_action(m.game, m.state, seat)
            if action is None:
                continue
            log.info("clock ran out", extra={"match": m.id, "seat": seat})
            try:
                await self.act(m.id, seat, None, m.version, action, source="timeout")
            except ServiceError as exc:
                log.warning("timeout action refused in match %s: %s", m.id, exc.message)
                return
        if later and m.version == version and m.status == "running" and m.clock_handle is None:
            delay = max(0.0, min(later) - self.now())
            m.clock_handle = asyncio.get_running_loop().call_later(delay, self._fire, m, version)

    def stop(self) -> None:
        for t in self._tasks:
            t.cancel()
