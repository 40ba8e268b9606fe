"""The designer's map editor's routes (issue 25, ``/workbench/map``; docs/workbench-map.md).

``POST /api/workbench/{game}/map/{tool}`` runs one operation of the map editor a game lends
(:class:`~spacetable.core.hooks.MapHooks`, declared with ``Game.provide(maps=...)``; Full Metal's starts, checks,
spreads ore on, reads and writes maps): the body is validated against the tool's own schema (422 with the reason
otherwise), the work runs on a worker thread and counts against the per-address ``check`` rate, and a map the
tool cannot use is a 422 ``bad_map`` with its reason. A game without a map editor, or a tool it does not have, is
a 404. Nothing is stored here (saving a map is the workbench's sets API).

The page itself is ``/workbench/map`` (served by ``pages.py`` like every ``/workbench`` page).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter
from fastapi import Body as JsonBody
from fastapi.exceptions import RequestValidationError
from pydantic import ValidationError
from starlette.concurrency import run_in_threadpool

from spacetable.core.hooks import MapTool
from spacetable.games import UnknownGame, get_game

from ..errors import ServiceError
from ..routing import PrefixRoute
from .deps import Client, Ctx

router = APIRouter(route_class=PrefixRoute)


def map_tool(game_id: str, name: str) -> MapTool:
    """The map editor operation ``name`` of game ``game_id`` (404 when there is none)."""
    try:
        game = get_game(game_id)
    except UnknownGame:
        raise ServiceError(404, "unknown_game", f"unknown game {game_id[:64]!r}") from None
    hooks = game.map_hooks()
    if hooks is None:
        raise ServiceError(404, "wb_no_map_editor", f"{game.name} has no map editor")
    tool = hooks.tool(name)
    if tool is None:
        raise ServiceError(404, "wb_no_map_tool", f"the map editor of {game.name} has no {name[:64]!r}")
    return tool


@router.post("/api/workbench/{game}/map/{tool}")
async def run_tool(game: str, tool: str, body: Annotated[dict[str, Any], JsonBody()], c: Ctx,
                   client: Client) -> dict[str, Any]:
    """One map editor operation of ``game`` on ``body`` (its schema is the tool's own)."""
    t = map_tool(game, tool)
    await c.limiter.hit("check", client)
    try:
        query = t.body.model_validate(body)
    except ValidationError as exc:
        raise RequestValidationError(exc.errors(include_url=False)) from None
    try:
        return await run_in_threadpool(t.run, query)
    except ValueError as exc:
        raise ServiceError(422, "bad_map", str(exc)) from None
