"""The web client's pages (one HTML page for the lobby, matches and replays; static files are mounted by ``app.py``)."""

from __future__ import annotations

import functools
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse

from ..routing import PrefixRoute

WEB_DIR = Path(__file__).resolve().parent.parent.parent / "web"
router = APIRouter(include_in_schema=False, route_class=PrefixRoute)


@functools.cache
def packaged_flags(game_id: str) -> tuple[bool, bool]:
    """Whether the page has a renderer and a tutorial for the game (``/api/lobby``, ``/api/games``): files shipped
    with the package, checked once per process."""
    static = WEB_DIR / "static"
    return (static / "games" / f"{game_id}.js").is_file(), (static / "tutorials" / f"{game_id}.json").is_file()


@router.get("/")
@router.get("/match/{match_id}")
@router.get("/replay/{match_id}")
@router.get("/player/{username}")
@router.get("/leaderboard/{game}")
@router.get("/account")
@router.get("/challenge/{challenge_id}")
@router.get("/workbench")
@router.get("/workbench/{rest:path}")
async def index(match_id: str | None = None, username: str | None = None, game: str | None = None,
                challenge_id: str | None = None) -> FileResponse:
    return FileResponse(WEB_DIR / "index.html", headers={"Cache-Control": "no-cache", "Referrer-Policy": "no-referrer"})
