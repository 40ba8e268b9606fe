"""Legal actions in messages and pages (SRV-L1, SRV-L2, SRV-L4, SRV-L5).

Only a seat that must act gets legal actions. Up to :data:`LEGAL_LIMIT` are sent whole; above it a
message carries a *selection* (the simplest actions: fewest list/dict entries, canonical order kept), the
total and ``legal_complete: false``; the rest is paged (:func:`legal_page`). A game declaring
``slow_legal_actions`` gets them listed in a worker thread before a new state is published
(:func:`prepare_legal`). SRV-L5: in a game with a draw agreement every message also carries ``draw``, the
pending offer (public) and the draw moves open to the client's seat, to act or not (:func:`draw_fields`).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from spacetable.core.game import Action, Game

from .errors import ServiceError
from .live import LiveMatch
from .meter import METER

#: SRV-L1: the most legal actions sent in one message; above it a selection is sent (see ``select_legal``).
LEGAL_LIMIT = 400
#: SRV-L2: the largest page of ``GET /api/matches/{id}/legal``.
LEGAL_PAGE_MAX = 5000
NONE: dict[str, Any] = {"legal": [], "legal_count": 0, "legal_complete": True}


def _weight(action: Action) -> int:
    """How composite an action is: the number of entries in its list/dict values (0 for a flat action)."""
    weight = 0
    for v in action.values():  # a plain loop: this runs for each of thousands of actions (Tremble's plans)
        if isinstance(v, (list, dict)):
            weight += len(v)
    return weight


def select_legal(legal: list[Action], limit: int) -> list[Action]:
    """SRV-L1: all of ``legal`` if it has at most ``limit`` actions, else the ``limit`` simplest ones
    (smallest ``_weight``, ties in canonical order), returned in canonical order.

    Without a sort: the weights are few, so the threshold weight ``t`` is found by counting; every action lighter
    than ``t`` is kept, and of those weighing ``t`` the first ones in canonical order fill the rest."""
    if len(legal) <= limit:
        return legal
    weights = [_weight(a) for a in legal]
    counts: dict[int, int] = {}
    for w in weights:
        counts[w] = counts.get(w, 0) + 1
    lighter = 0
    for t in sorted(counts):
        if lighter + counts[t] >= limit:
            break
        lighter += counts[t]
    room = limit - lighter  # how many of weight t are kept
    out: list[Action] = []
    for a, w in zip(legal, weights, strict=True):
        if w < t:
            out.append(a)
        elif w == t and room > 0:
            out.append(a)
            room -= 1
    return out


def legal_fields(m: LiveMatch, viewer: int | None, to_act: tuple[int, ...]) -> dict[str, Any]:
    """SRV-L1: the ``legal``, ``legal_count`` and ``legal_complete`` fields of a message for ``viewer``,
    computed once per state and seat; SRV-L5: ``draw`` too in a game with a draw agreement."""
    draw = draw_fields(m.game, m.state, viewer)
    if viewer is None or viewer not in to_act:
        return {**NONE, **draw} if draw else NONE
    m.fresh()
    cached = m.legal_sent.get(viewer)
    if cached is None:
        legal = m.legal(viewer)
        cached = m.legal_sent[viewer] = {
            "legal": select_legal(legal, LEGAL_LIMIT), "legal_count": len(legal), "legal_complete": len(legal) <= LEGAL_LIMIT,
        }
    return {**cached, **draw} if draw else cached


def draw_fields(game: Game[Any], state: Any, viewer: int | None) -> dict[str, Any]:
    """SRV-L5: ``{"draw": {"offer": ..., "moves": [...]}}`` for a game whose move table declares the core draw
    agreement, else ``{}`` (the field is left out). The offer is public; ``moves`` are the draw moves open to
    ``viewer``'s seat now (they are played out of turn, SRV-A5); spectators get none."""
    table = game.moves
    if table is None or table.draw is None or table.draw_offer is None:
        return {}
    over = table.phase_of(state) == table.over
    moves = [] if viewer is None or over else [a["type"] for a in table.draw_actions(state, viewer)]
    return {"draw": {"offer": table.draw_offer(state).view(), "moves": moves}}


def legal_page(m: LiveMatch, seat: int, offset: int, limit: int) -> dict[str, Any]:
    """SRV-L2: a page of a seat's legal actions (all of them, in canonical order); empty when it is not to act."""
    if offset < 0 or not 1 <= limit <= LEGAL_PAGE_MAX:
        raise ServiceError(422, "bad_request", f"offset must be >= 0 and limit in 1..{LEGAL_PAGE_MAX}")
    legal = m.legal(seat) if seat in m.to_act() else []
    return {"version": m.version, "seat": seat, "count": len(legal), "offset": offset, "actions": legal[offset:offset + limit]}


async def prepare_legal(m: LiveMatch, state: Any, to_act: tuple[int, ...]) -> dict[int, list[Action]]:
    """SRV-L4: for a game that declares ``slow_legal_actions`` (tremble's plan decision: thousands of plans, up to
    a third of a second), the lists the coming event needs are computed in a worker thread, so the event loop
    keeps serving the other matches meanwhile; this match waits (its lock is held)."""
    if not getattr(m.game, "slow_legal_actions", False) or not m.subscribers:
        return {}
    seats = {sub.seat for sub in m.subscribers}
    wanted = [s for s in to_act if s in seats]
    if not wanted:
        return {}
    game = m.game

    def listed() -> tuple[dict[int, list[Action]], float]:
        t = time.thread_time()
        out = {s: game.legal_actions(state, s) for s in wanted}
        return out, time.thread_time() - t

    out, cpu = await asyncio.to_thread(listed)
    METER.worker["legal"] += cpu  # the worker thread's CPU time, counted for every list (``meter.Meter.worker``)
    METER.count("legal", len(out))
    return out
