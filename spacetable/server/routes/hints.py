"""Hints (issue 22): in a casual match against the computer, the seat to act may ask the game's strongest
player for the move it would play. Refused when any other seat is a person (which covers every rated match)
or when the match's ``rated`` option is on; the match counts the hints each seat used (stored with the match,
``learn/store.py``: a restart keeps the count; the replay and the export show it).

The suggestion is computed in the AI worker pool from the asking seat's determinised view, like an AI
seat's move, so it knows nothing that seat could not see."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from spacetable.ai.agents import agent_specs
from spacetable.core.rng import mix_seed

from ..errors import ServiceError
from ..learn.store import learn_store
from ..live import LiveMatch
from ..routing import PrefixRoute
from ..service import MatchService
from .deps import Ctx
from .schemas import UndoBody

router = APIRouter(route_class=PrefixRoute)
HINT_SECONDS = 1.0


async def hints_used(service: MatchService, match_id: str) -> dict[int, int]:
    """Hints used per seat of a match (seats that used none are absent)."""
    return await learn_store(service.storage).hints(match_id)


def refusal(m: LiveMatch, seat: int) -> str | None:
    """Why ``seat`` may not have a hint in ``m`` (``None``: it may)."""
    if m.config.get("rated") is True or getattr(m, "rated", False) is True:
        return "hints are not given in rated matches"
    if any(s.kind != "ai" for i, s in enumerate(m.seats) if i != seat):
        return "hints are given only in casual matches against the computer"
    return None


@router.post("/api/matches/{match_id}/hint")
async def hint(match_id: str, body: UndoBody, c: Ctx, request: Request) -> dict[str, Any]:
    m = await c.service.get(match_id)
    await c.service.authorize(m, body.seat, body.token)
    why = refusal(m, body.seat)
    accounts = getattr(request.app.state, "accounts", None)
    if why is None and accounts is not None and await accounts.is_rated(m.id):  # rated with the accounts
        why = "hints are not given in rated matches"
    if why is not None:
        raise ServiceError(403, "hint_refused", why)
    if m.status != "running" or body.seat not in m.to_act():
        raise ServiceError(409, "not_your_turn", "a hint is given when it is your turn")
    specs = agent_specs(m.game)
    spec = next((s for s in specs if s.level == "hard"), specs[0])
    version = m.version
    action = await c.service.ai_seats.runner.choose(m.game, m.state, body.seat, spec.name,
                                                    mix_seed(m.seed, "hint", version, body.seat), HINT_SECONDS)
    used = await learn_store(c.service.storage).add_hint(m.id, body.seat)
    return {"version": version, "action": action, "text": m.game.describe_action(m.state, body.seat, action),
            "hints_used": used}
