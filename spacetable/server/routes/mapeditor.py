"""The Full Metal map editor's routes (issue 25, ``/workbench/map``; docs/workbench-map.md).

Every map travels as its layers ``{width, height, terrain, ore, zones}`` (rows of characters, the ``.fmp``
alphabet) or as ``.fmp`` text (at most 128 KiB; the editor's maps have at most 64 rows and columns); nothing is
stored here (saving a map is the workbench's sets API). The work is done by
:mod:`spacetable.games.fullmetal.mapcheck`:

The page itself is ``/workbench/map`` (served by ``pages.py`` like every ``/workbench`` page).

* ``POST /api/workbench/map/new`` – a map to start from: the original, a seeded generated map, or an empty one of a
  chosen size and shape;
* ``POST /api/workbench/map/check`` – the problems of a map for a number of players and a landing rule, each with
  its rule id, and its figures (terrain counts, ore, how many ships can land);
* ``POST /api/workbench/map/spread`` – an ore layer laid as a game lays it (FM-3.1 lattice, FM-D46 random);
* ``POST /api/workbench/map/read`` – the layers of ``.fmp`` text (an import), ``POST .../write`` – the ``.fmp``
  text of layers (an export); reading what was written gives the same layers.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from fastapi import APIRouter
from pydantic import Field, StringConstraints
from starlette.concurrency import run_in_threadpool

from spacetable.games.fullmetal import mapcheck
from spacetable.games.fullmetal.fmp import MAPS, FmpError, write_fmp

from ..errors import ServiceError
from .deps import Client, Ctx
from .schemas import Body

router = APIRouter()

#: The editor's maps: at most 64 rows and columns (five times the original's cells; a check of the largest takes
#: a fraction of a second of one worker thread, and each request counts against the per-address ``check`` rate).
SIDE = mapcheck.MAX_EDIT_SIDE
Row = Annotated[str, StringConstraints(max_length=SIDE)]
Rows = Annotated[list[Row], Field(min_length=1, max_length=SIDE)]


class MapLayers(Body):
    """A map's layers: ``terrain`` rows of ``. * % $ # ?``, optional ``ore`` and ``zones`` rows of the same size."""

    width: int = Field(ge=1, le=SIDE)
    height: int = Field(ge=1, le=SIDE)
    terrain: Rows
    ore: Rows | None = None
    zones: Rows | None = None


class NewMap(Body):
    source: Literal["original", "generated", "empty"] = "original"
    seed: int = Field(default=1, ge=0, le=2**31 - 1)
    players: int = Field(default=2, ge=2, le=4)
    size: Literal["small", "medium", "large"] = "medium"
    width: int = Field(default=36, ge=mapcheck.MIN_SIDE, le=mapcheck.MAX_EDIT_SIDE)
    height: int = Field(default=23, ge=mapcheck.MIN_SIDE, le=mapcheck.MAX_EDIT_SIDE)
    shape: Literal["rectangle", "hexagon", "round"] = "rectangle"
    fill: Literal[".", "*", "%", "$", "#"] = "$"


class CheckMap(Body):
    map: MapLayers
    players: int = Field(default=2, ge=2, le=4)
    landing_rule: Literal["distance", "zones"] = "distance"
    landing_min_distance: int = Field(default=10, ge=2, le=30)


class SpreadOre(Body):
    map: MapLayers
    seed: int = Field(default=1, ge=0, le=2**31 - 1)
    placement: Literal["lattice", "random"] = "lattice"


class ReadMap(Body):
    fmp: str = Field(max_length=MAPS.max_bytes)


class WriteMap(Body):
    map: MapLayers


def _map(layers: MapLayers) -> Any:
    try:
        return mapcheck.as_map(layers.model_dump())
    except FmpError as exc:
        raise ServiceError(422, "bad_map", str(exc)) from None


@router.post("/api/workbench/map/new")
async def new(body: NewMap, c: Ctx, client: Client) -> dict[str, Any]:
    """A map to start from (the generator is deterministic for a seed)."""
    await c.limiter.hit("check", client)
    try:
        fmap = await run_in_threadpool(mapcheck.new_map, body.source, seed=body.seed, players=body.players,
                                       size=body.size, width=body.width, height=body.height, shape=body.shape,
                                       fill=body.fill)
    except (ValueError, RuntimeError) as exc:
        raise ServiceError(422, "bad_map", str(exc)) from None
    return {"map": mapcheck.map_layers(fmap)}


@router.post("/api/workbench/map/check")
async def check(body: CheckMap, c: Ctx, client: Client) -> dict[str, Any]:
    """The map's problems (each with its rule id and cells) and figures."""
    await c.limiter.hit("check", client)
    fmap = _map(body.map)

    def work() -> dict[str, Any]:
        problems = mapcheck.validate_map(fmap, players=body.players, landing_rule=body.landing_rule,
                                         landing_min_distance=body.landing_min_distance)
        return {"ok": not problems, "problems": [p.as_dict() for p in problems],
                "stats": mapcheck.map_stats(fmap, landing_min_distance=body.landing_min_distance)}

    return await run_in_threadpool(work)


@router.post("/api/workbench/map/spread")
async def spread(body: SpreadOre, c: Ctx, client: Client) -> dict[str, Any]:
    """An ore layer laid on the map as a game would lay it."""
    await c.limiter.hit("check", client)
    return {"ore": await run_in_threadpool(mapcheck.spread_ore, _map(body.map), body.seed, body.placement)}


@router.post("/api/workbench/map/read")
async def read(body: ReadMap, c: Ctx, client: Client) -> dict[str, Any]:
    """The layers of an ``.fmp`` file's text (422 with the reason when it is not one)."""
    await c.limiter.hit("check", client)
    try:
        fmap = mapcheck.as_map(body.fmp)
    except FmpError as exc:
        raise ServiceError(422, "bad_map", f"not a readable map: {exc}") from None
    if fmap.width > SIDE or fmap.height > SIDE:
        raise ServiceError(422, "bad_map", f"the editor opens maps of at most {SIDE} rows and columns")
    return {"map": mapcheck.map_layers(fmap)}


@router.post("/api/workbench/map/write")
async def write(body: WriteMap, c: Ctx, client: Client) -> dict[str, Any]:
    """The ``.fmp`` text of a map (CRLF, dated now in UTC)."""
    await c.limiter.hit("check", client)
    now = dt.datetime.now(dt.UTC)
    data = write_fmp(_map(body.map), (now.year, now.month, now.day, now.hour, now.minute, now.second))
    return {"fmp": data.decode("cp1252")}
