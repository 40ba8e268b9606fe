"""Replays and exports of finished matches (SRV-S1: the seed is public once the match is over).

Stepping through a replay reads the match's history (``LiveMatch.state_at``: checkpoints and the last step
served), so each step costs one ``apply``, not a replay from the seed."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from ..clients import entry_json
from ..routing import PrefixRoute
from . import hints
from .deps import Ctx

router = APIRouter(route_class=PrefixRoute)


@router.get("/api/matches/{match_id}/replay")
async def replay(match_id: str, c: Ctx) -> dict[str, Any]:
    """A finished match's public log, and its seed (anyone can check the dice); ``hints``: the hints each seat
    asked for (seat number as a string -> count; seats that asked none are absent)."""
    m = await c.service.finished(match_id)
    used = await hints.hints_used(c.service, m.id)
    return {"match": m.summary(), "steps": m.version, "seed": m.seed,
            "log": [entry_json(m, i, e, None) for i, e in enumerate(m.log)],
            "hints": {str(k): v for k, v in sorted(used.items())}}


@router.get("/api/matches/{match_id}/replay/{step}")
async def replay_step(match_id: str, step: int, c: Ctx) -> dict[str, Any]:
    m = await c.service.finished(match_id)
    st = c.service.replay_state(m, step)
    last = entry_json(m, step - 1, m.log[step - 1], None) if step > 0 else None
    return {"step": step, "steps": m.version, "view": m.game.view(st, None), "last": last, "to_act": list(m.game.to_act(st))}


@router.get("/api/matches/{match_id}/export")
async def export(match_id: str, c: Ctx) -> dict[str, Any]:
    """The ``spacetable-match/1`` file of a finished match: config (player content included), seed, log."""
    m = await c.service.finished(match_id)
    record = c.service.record(m).to_json()
    used = await hints.hints_used(c.service, m.id)
    if used:
        record["meta"]["hints"] = {str(k): v for k, v in sorted(used.items())}
    return record
