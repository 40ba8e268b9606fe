"""The players' guides and tutorials (issue "Learn every game"): nothing here touches a match.

* ``GET /api/guide/{game}?lang=fr`` – the guide in a language (:func:`spacetable.guide.guide_json`): sections with
  stable ids, their HTML, the rule ids each covers, whether it is house content and has a diagram, and the phase
  map the match page's rules drawer opens by;
* ``GET /api/guide/{game}/diagram/{section}`` – the view the game's own renderer draws for a section's diagram (a
  prepared position played from a fixed seed, never a match);
* ``GET /guide/{game}`` and ``GET /tutorial/{game}`` – the browser pages (the single-page client).

Tutorial scripts are static data of the client (``static/tutorials/<game>.json``).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse

from spacetable import guide

from ..errors import ServiceError
from ..presentation import pick_lang
from .pages import WEB_DIR

router = APIRouter()


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
