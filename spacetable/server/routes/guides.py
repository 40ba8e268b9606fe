"""The players' guides and tutorials (issue "Learn every game"): nothing here touches a match.

* ``GET /api/guide/{game}?lang=fr`` – the guide in a language (:func:`spacetable.guide.guide_json`): sections with
  stable ids, their HTML, the rule ids each covers, whether it is house content and has a diagram, and the phase
  map the match page's rules drawer opens by;
* ``GET /api/guide/{game}/diagram/{section}`` – the view the game's own renderer draws for a section's diagram (a
  prepared position played from a fixed seed, never a match);
* ``GET /guide/{game}`` and ``GET /tutorial/{game}`` – the browser pages (the single-page client);
* ``GET /api/account/tutorials`` and ``POST /api/account/tutorials/{game}`` – a signed-in account's tutorial
  progress (the furthest step, done once done; guests keep theirs in the browser's storage).

Tutorial scripts are static data of the client (``static/tutorials/<game>.json``).
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse
from pydantic import Field

from spacetable import guide

from ..errors import ServiceError
from ..learn.store import learn_store
from ..presentation import pick_lang
from ..routing import PrefixRoute
from .deps import Ctx
from .pages import WEB_DIR
from .schemas import Body
from .session import Signed, Writer

router = APIRouter(route_class=PrefixRoute)


@router.get("/api/guide/{game_id}")
async def guide_page(request: Request, game_id: str, lang: str | None = None) -> dict[str, Any]:
    doc = guide.guide_json(game_id, pick_lang(lang or request.headers.get("accept-language")))
    if doc is None:
        raise ServiceError(404, "no_guide", f"no players' guide for {game_id!r}")
    return doc


@router.get("/api/guide/{game_id}/diagram/{section}")
async def guide_diagram(game_id: str, section: str) -> dict[str, Any]:
    got = guide.diagram_view(game_id, section) if guide.meta(game_id) is not None else None
    if got is None:
        raise ServiceError(404, "no_diagram", f"no diagram {section!r} in the guide of {game_id!r}")
    return got


@router.get("/guide/{game_id}", include_in_schema=False)
@router.get("/tutorial/{game_id}", include_in_schema=False)
async def page(game_id: str) -> FileResponse:
    return FileResponse(WEB_DIR / "index.html", headers={"Cache-Control": "no-cache", "Referrer-Policy": "no-referrer"})


@cache
def tutorial_steps() -> dict[str, int]:
    """The games that have a tutorial, and its number of steps (read once from the client's scripts)."""
    out: dict[str, int] = {}
    for path in sorted((WEB_DIR / "static" / "tutorials").glob("*.json")):
        if path.stem.isalpha():  # <game>.json; the texts are <game>.<lang>.json
            out[path.stem] = len(json.loads(path.read_text(encoding="utf-8"))["steps"])
    return out


class TutorialProgress(Body):
    step: int = Field(ge=0, le=1000, description="the step reached (0 = the first)")
    done: bool = False


@router.get("/api/account/tutorials")
async def my_tutorials(c: Ctx, s: Signed) -> dict[str, Any]:
    """The signed-in account's tutorial progress per game: ``{"progress": {game: {"step", "done", "steps"}}}``."""
    got = await learn_store(c.service.storage).tutorials(s.account_id)
    steps = tutorial_steps()
    return {"progress": {g: {**p, "steps": steps[g]} for g, p in got.items() if g in steps}}


@router.post("/api/account/tutorials/{game_id}")
async def save_tutorial(game_id: str, body: TutorialProgress, c: Ctx, s: Writer) -> dict[str, Any]:
    """Record how far the account got in a game's tutorial (a step already passed never moves it back)."""
    steps = tutorial_steps()
    if game_id not in steps:
        raise ServiceError(404, "no_tutorial", f"no tutorial for {game_id[:32]!r}")
    if body.step >= steps[game_id]:
        raise ServiceError(422, "bad_step", f"the tutorial of {game_id} has {steps[game_id]} steps")
    got = await learn_store(c.service.storage).save_tutorial(s.account_id, game_id, body.step, body.done)
    return {"game": game_id, **got, "steps": steps[game_id]}
