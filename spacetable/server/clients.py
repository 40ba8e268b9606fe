"""The clients of a match on this process: snapshots, events, kicks (SRV-V1, SRV-V2, SRV-V3, SRV-A4).

Every message is filtered for its client's seat (``game.view`` and ``game.action_view``; spectators are
seat ``None``). Views and legal actions are computed once per state and seat; the parts every client shares
(the match summary, ``to_act``) are encoded once per event and spliced into each client's JSON text, which is
encoded once per seat however many clients that seat has. A client gets each action once: its first
snapshot, then the events after it. A seat's client is bound to the token hash it showed when it connected
(checked once, then compared, never hashed again); when the seat changes hands it is closed (SRV-A4).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

from spacetable.core.game import Action

from . import presentation
from .jsonio import dumps as _dumps
from .legal import legal_fields
from .live import Entry, LiveMatch, Subscriber


def entry_json(m: LiveMatch, index: int, e: Entry, viewer: int | None, lang: str = "en") -> dict[str, Any]:
    """What ``viewer`` may know of the logged action ``index`` (SRV-V1), its words in ``lang`` (``presentation``)."""
    return presentation.entry_json(m.game, index, e, viewer, lang)


def legal_text(m: LiveMatch, viewer: int | None, legal: list[Action], lang: str) -> list[str]:
    return presentation.legal_texts(m, viewer, legal, lang) if viewer is not None and legal else []


def snapshot(m: LiveMatch, viewer: int | None, kind: str = "snapshot", lang: str = "en") -> dict[str, Any]:
    """Everything a client shows, filtered for ``viewer`` (SRV-V1); legal actions only for a seat to act (SRV-L1);
    texts in ``lang``."""
    to_act = m.to_act()
    legal = legal_fields(m, viewer, to_act)
    return {
        "type": kind,
        "match": m.summary(),
        "seat": viewer,
        "version": m.version,
        "view": m.view(viewer),
        "to_act": list(to_act),
        **legal,
        "legal_text": legal_text(m, viewer, legal["legal"], lang),
        "log": [entry_json(m, i, e, viewer, lang) for i, e in enumerate(m.log)],
    }


def subscribe(m: LiveMatch, viewer: int | None, token_hash: str | None = None, lang: str = "en") -> Subscriber:
    """A new client of ``m`` (its token already checked for a seat); it gets its snapshot at once."""
    sub = Subscriber(viewer, asyncio.Queue(), since=m.version, token_hash=token_hash, lang=lang)
    m.subscribers.append(sub)
    sub.queue.put_nowait(_dumps(snapshot(m, viewer, lang=lang)))
    return sub


def unsubscribe(m: LiveMatch, sub: Subscriber) -> None:
    with contextlib.suppress(ValueError):
        m.subscribers.remove(sub)
    m.last_used = time.monotonic()


def bound(m: LiveMatch, sub: Subscriber) -> bool:
    """A seat's client still holds the seat's current token (SRV-A4); spectators always pass."""
    if sub.seat is None:
        return True
    seat = m.seats[sub.seat]
    return seat.kind == "human" and seat.token_hash is not None and sub.token_hash == seat.token_hash


def kick(m: LiveMatch, sub: Subscriber) -> None:
    """Close a client whose seat was left (its token no longer holds the seat), with a last error message."""
    sub.kick(_dumps({"type": "error", "error": {
        "status": 403, "code": "seat_left",
        "message": f"seat {sub.seat} was left: this connection's seat link no longer works (SRV-A4)"}}), 4403)
    unsubscribe(m, sub)


def broadcast_snapshots(m: LiveMatch, reason: str = "update") -> None:
    """A new snapshot to every client (seat changes, undo requests, undos); unbound seat clients are closed."""
    cache: dict[tuple[int | None, str], str] = {}
    for sub in list(m.subscribers):
        if not bound(m, sub):
            kick(m, sub)
            continue
        key = (sub.seat, sub.lang)
        if key not in cache:
            snap = snapshot(m, sub.seat, lang=sub.lang)
            snap["reason"] = reason
            cache[key] = _dumps(snap)
        sub.since = m.version
        sub.push(cache[key])


def broadcast_event(m: LiveMatch) -> None:
    """Send every client the event of the last action (SRV-V1) unless its snapshot already held it (SRV-V3)."""
    if not m.subscribers:
        return
    to_act = m.to_act()
    entry = m.log[-1]
    index = m.version - 1
    head = f'{{"type":"event","match":{_dumps(m.summary())},"version":{m.version},"to_act":{_dumps(list(to_act))},"seat":'
    cache: dict[tuple[int | None, str], str] = {}
    for sub in list(m.subscribers):
        if sub.since >= m.version:
            continue
        if not bound(m, sub):
            kick(m, sub)
            continue
        v, lang = sub.seat, sub.lang
        text = cache.get((v, lang), "")
        if not text:
            legal = legal_fields(m, v, to_act)
            body = {"last": entry_json(m, index, entry, v, lang), "view": m.view(v), **legal,
                    "legal_text": legal_text(m, v, legal["legal"], lang)}
            text = cache[(v, lang)] = f"{head}{'null' if v is None else v},{_dumps(body)[1:]}"
        sub.since = m.version
        sub.push(text)
