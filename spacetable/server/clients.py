"""Send: the clients of a match on this process, their snapshots, events and kicks (SRV-V1, SRV-V2, SRV-V3, SRV-A4).

The last step of a message's way through the server (``docs/architecture.md``): the messages are rendered per seat
by ``render.py`` (once per version, seat and language, however many clients that seat has) and put on each
client's bounded queue (``live.Subscriber``), which its socket's sender (``ws.py``) drains. A client gets each
action once: its first snapshot, then the events after it. A seat's client is bound to the token hash it showed
when it connected (checked once, then compared, never hashed again); when the seat changes hands it is closed
(SRV-A4).
"""

from __future__ import annotations

import contextlib
import time
from typing import Any

from . import render
from .jsonio import dumps as _dumps
from .live import Entry, LiveMatch, Subscriber, bound


def entry_json(m: LiveMatch, index: int, e: Entry, viewer: int | None, lang: str | None = "en") -> dict[str, Any]:
    """What ``viewer`` may know of the logged action ``index`` (SRV-V1), its words in ``lang`` (``render``)."""
    return render.entry_json(m, index, e, viewer, lang)


def snapshot(m: LiveMatch, viewer: int | None, kind: str = "snapshot", lang: str | None = "en") -> dict[str, Any]:
    """Everything a client shows, filtered for ``viewer`` (SRV-V1), texts in ``lang`` (``render.snapshot``)."""
    return render.snapshot(m, viewer, kind, lang)


def subscribe(m: LiveMatch, viewer: int | None, token_hash: str | None = None, lang: str = "en", texts: bool = True,
              max_bytes: int | None = None) -> Subscriber:
    """A new client of ``m`` (its token already checked for a seat); it gets its snapshot at once."""
    sub = Subscriber(viewer, since=m.version, token_hash=token_hash, lang=lang, texts=texts)
    if max_bytes is not None:
        sub.max_bytes = max_bytes
    m.subscribers.append(sub)
    sub.push(render.snapshot_text(m, viewer, sub.text_lang))
    return sub


def resend_snapshot(m: LiveMatch, sub: Subscriber) -> None:
    """A fresh snapshot to one client (it changed its language or texts)."""
    sub.since = m.version
    sub.push(render.snapshot_text(m, sub.seat, sub.text_lang))


def unsubscribe(m: LiveMatch, sub: Subscriber) -> None:
    with contextlib.suppress(ValueError):
        m.subscribers.remove(sub)
    m.last_used = time.monotonic()


def text_langs(m: LiveMatch) -> set[str]:
    """The languages the match's clients read texts in now."""
    return {sub.lang for sub in m.subscribers if sub.texts}


def kick(m: LiveMatch, sub: Subscriber) -> None:
    """Close a client whose seat was left (its token no longer holds the seat), with a last error message."""
    sub.kick(_dumps({"type": "error", "error": {
        "status": 403, "code": "seat_left",
        "message": f"seat {sub.seat} was left: this connection's seat link no longer works (SRV-A4)"}}), 4403)
    unsubscribe(m, sub)


def broadcast_snapshots(m: LiveMatch, reason: str = "update") -> None:
    """A new snapshot to every client (seat changes, undo requests, undos); unbound seat clients are closed."""
    m.changed()
    for sub in list(m.subscribers):
        if not bound(m, sub):
            kick(m, sub)
            continue
        text = render.snapshot_text(m, sub.seat, sub.text_lang, reason)
        sub.since = m.version
        sub.push(text)


def broadcast_chat(m: LiveMatch, room: str, message: dict[str, Any], hidden: frozenset[int] = frozenset()) -> None:
    """A chat message to the clients that read its room (issue 21). The players' room: the message itself to every
    seat's client (not to a seat whose account blocked the writer), a quick message in the client's language (the
    message's ``texts``), rendered once per language. The spectators' room: only ``{"type": "chat", "room":
    "spectators"}`` to its readers (the spectators; the players too once the match is over), who then read it (a
    signed-in reader's blocks are applied there: a spectator's socket does not know its account)."""
    if room != "players":
        note = _dumps({"type": "chat", "room": room})
        for sub in m.subscribers:
            if sub.seat is None or m.status == "finished":
                sub.push(note)
        return
    texts: dict[str, str] = message.get("texts") or {}
    shown = {k: v for k, v in message.items() if k != "texts"}
    rendered: dict[str, str] = {}
    for sub in m.subscribers:
        if sub.seat is None or sub.seat in hidden or not bound(m, sub):
            continue
        text = rendered.get(sub.lang)
        if text is None:
            body = {**shown, "text": texts.get(sub.lang, shown["text"])} if texts else shown
            text = rendered[sub.lang] = _dumps({"type": "chat", "room": room, "message": body})
        sub.push(text)


def broadcast_event(m: LiveMatch) -> None:
    """Send every client the event of the last action (SRV-V1) unless its snapshot already held it (SRV-V3)."""
    for sub in list(m.subscribers):
        if sub.since >= m.version:
            continue
        if not bound(m, sub):
            kick(m, sub)
            continue
        text = render.event_text(m, sub.seat, sub.text_lang)
        sub.since = m.version
        sub.push(text)
