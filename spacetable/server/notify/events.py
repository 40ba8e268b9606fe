"""Events of a match told to the accounts at its seats (the hook the match service calls after a change).

:class:`MatchWatcher` is called by the process that committed a change of a match (``MatchService.watchers``):
it names the events that the match's new state means (a seat newly to act: "your turn"; the match started;
the match ended; a draw offered) with keys that make them idempotent (the same change watched twice, by two
processes or a retry, stores each event once), then the notifier stores them for the accounts seated there
(``account_seats``, issue 20). Guests' seats (no account) get nothing new: their page's own alerts stay.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from sqlalchemy import text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError

from .store import SeatEvents

if TYPE_CHECKING:
    from ..live import LiveMatch
    from .dispatcher import Notifier

log = logging.getLogger("spacetable.server.notify")

#: a turn clock of at least this long (or none) makes a match correspondence: "your turn" also goes by mail,
#: after the account's quiet period; a live match's turns go to the page and by push only
CORRESPONDENCE_SECONDS = 3600.0


def seat_accounts(engine: Engine, match_id: str) -> dict[int, str]:
    """The accounts seated in a match (issue 20's ``account_seats``): seat -> account id."""
    try:
        with engine.connect() as conn:
            rows = conn.execute(text("SELECT seat, account_id FROM account_seats WHERE match_id = :m AND "
                                     "account_id IS NOT NULL"), {"m": match_id}).all()
    except DBAPIError:  # a database without accounts
        return {}
    return {int(seat): str(account) for seat, account in rows}


def match_events(m: LiveMatch, seat: int | None, action: dict[str, Any] | None) -> list[tuple[int, str, str, dict[str, Any]]]:
    """The events ``m``'s state means now, as (seat told, kind, key, data)."""
    base = {"match": m.id, "game": m.game.id, "name": m.name or ""}
    out: list[tuple[int, str, str, dict[str, Any]]] = []
    names = [s.name for s in m.seats]
    humans = [i for i, s in enumerate(m.seats) if s.kind == "human"]
    if m.status == "running":
        if m.version == 0:
            out += [(i, "match_start", f"{m.id}:start", base) for i in humans]
        for s in m.to_act():
            if m.seats[s].kind == "human" and s != seat:
                out.append((s, "your_turn", f"{m.id}:{s}:{m.turn_started_at}", {**base, "seat": s}))
        if action is not None and seat is not None and action.get("type") == "offer_draw":
            out += [(i, "draw_offer", f"{m.id}:{m.version}:draw", {**base, "by": names[seat]})
                    for i in humans if i != seat]
    elif m.status == "finished":
        out += [(i, "match_end", f"{m.id}:end:{m.epoch}", base) for i in humans]
    return out


class MatchWatcher:
    """The hook: ``watcher(m, seat, action)`` after a committed change of ``m`` (``seat`` acted ``action``)."""

    def __init__(self, notifier: Notifier) -> None:
        self.notifier = notifier

    def __call__(self, m: LiveMatch, seat: int | None = None, action: dict[str, Any] | None = None) -> None:
        present: set[int] = set()
        if m.subscribers or m.held_elsewhere:
            # a seat whose player is at the table (its socket open in this process, or in another one that said so,
            # ``LiveMatch.seats_elsewhere``) sees on the page what these events tell (the turn, the start, the end,
            # a draw offer): nothing for it (lichess's rule too), and none of the rows and wake-ups that each move of
            # live play would cost; the other seats at the table on other processes are left out when the events
            # are stored (``Notifier.at_table``)
            present = {sub.seat for sub in m.subscribers if sub.seat is not None and sub.close_code is None}
            present |= m.seats_elsewhere()
            if all(i in present for i, s in enumerate(m.seats) if s.kind == "human"):
                return  # every person at the table: the events would all be dropped (live play, move after move)
        found = [f for f in match_events(m, seat, action) if f[0] not in present]
        if found:
            correspondence = not m.turn_seconds or m.turn_seconds >= CORRESPONDENCE_SECONDS
            self.notifier.emit_soon(SeatEvents(m.id, tuple(found), correspondence, unless_at_table=True))

    def mention(self, m: LiveMatch, seat: int, writer: Any, text: str, message_id: int) -> None:
        """A chat message names the player at ``seat`` (``@name``): a ``chat_mention`` for their account."""
        data = {"match": m.id, "game": m.game.id, "name": m.name or "", "by": writer.name, "text": text[:140]}
        self.notifier.emit_soon(SeatEvents(m.id, ((seat, "chat_mention", f"{m.id}:chat:{message_id}", data),)))
