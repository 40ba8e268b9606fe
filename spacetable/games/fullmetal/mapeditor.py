"""The Full Metal map editor's operations (issue 25, ``/workbench/map``; docs/workbench-map.md), lent to the
server as :class:`~spacetable.core.hooks.MapHooks` (``POST /api/workbench/fullmetal/map/<name>``).

Every map travels as its layers ``{width, height, terrain, ore, zones}`` (rows of characters, the ``.fmp``
alphabet) or as ``.fmp`` text (at most 128 KiB; the editor's maps have at most 64 rows and columns); nothing is
stored here (saving a map is the workbench's sets API). The rules are :mod:`.mapcheck`'s:

* ``new`` – a map to start from: the original, a seeded generated map, or an empty one of a chosen size and shape;
* ``check`` – the problems of a map for a number of players and a landing rule, each with its rule id, and its
  figures (terrain counts, ore, how many ships can land);
* ``spread`` – an ore layer laid as a game lays it (FM-3.1 lattice, FM-D46 random);
* ``read`` – the layers of ``.fmp`` text (an import), ``write`` – the ``.fmp`` text of layers (an export); reading
  what was written gives the same layers.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from spacetable.core.hooks import MapHooks, MapTool

from . import mapcheck
from .fmp import MAPS, FmpMap, write_fmp

#: The editor's maps: at most 64 rows and columns (five times the original's cells; a check of the largest takes
#: a fraction of a second of one worker thread, and each request counts against the per-address ``check`` rate).
SIDE = mapcheck.MAX_EDIT_SIDE
Row = Annotated[str, StringConstraints(max_length=SIDE)]
Rows = Annotated[list[Row], Field(min_length=1, max_length=SIDE)]


class _Body(BaseModel):
    """Request bodies: unknown fields are refused, numbers finite."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


class MapLayers(_Body):
    """A map's layers: ``terrain`` rows of ``. * % $ # ?``, optional ``ore`` and ``zones`` rows of the same size."""

    width: int = Field(ge=1, le=SIDE)
    height: int = Field(ge=1, le=SIDE)
    terrain: Rows
    ore: Rows | None = None
    zones: Rows | None = None


class NewMap(_Body):
    source: Literal["original", "generated", "empty"] = "original"
    seed: int = Field(default=1, ge=0, le=2**31 - 1)
    players: int = Field(default=2, ge=2, le=4)
    size: Literal["small", "medium", "large"] = "medium"
    width: int = Field(default=36, ge=mapcheck.MIN_SIDE, le=mapcheck.MAX_EDIT_SIDE)
    height: int = Field(default=23, ge=mapcheck.MIN_SIDE, le=mapcheck.MAX_EDIT_SIDE)
    shape: Literal["rectangle", "hexagon", "round"] = "rectangle"
    fill: Literal[".", "*", "%", "$", "#"] = "$"


class CheckMap(_Body):
    map: MapLayers
    players: int = Field(default=2, ge=2, le=4)
    landing_rule: Literal["distance", "zones"] = "distance"
    landing_min_distance: int = Field(default=10, ge=2, le=30)


class SpreadOre(_Body):
    map: MapLayers
    seed: int = Field(default=1, ge=0, le=2**31 - 1)
    placement: Literal["lattice", "random"] = "lattice"


class ReadMap(_Body):
    fmp: str = Field(max_length=MAPS.max_bytes)


class WriteMap(_Body):
    map: MapLayers


def _map(layers: MapLayers) -> FmpMap:
    return mapcheck.as_map(layers.model_dump())  # FmpError (a ValueError) with the reason


def new(body: NewMap) -> dict[str, Any]:
    """A map to start from (the generator is deterministic for a seed)."""
    try:
        fmap = mapcheck.new_map(body.source, seed=body.seed, players=body.players, size=body.size,
                                width=body.width, height=body.height, shape=body.shape, fill=body.fill)
    except RuntimeError as exc:  # a generator that found no map for this seed
        raise ValueError(str(exc)) from None
    return {"map": mapcheck.map_layers(fmap)}


def check(body: CheckMap) -> dict[str, Any]:
    """The map's problems (each with its rule id and cells) and figures."""
    fmap = _map(body.map)
    problems = mapcheck.validate_map(fmap, players=body.players, landing_rule=body.landing_rule,
                                     landing_min_distance=body.landing_min_distance)
    return {"ok": not problems, "problems": [p.as_dict() for p in problems],
            "stats": mapcheck.map_stats(fmap, landing_min_distance=body.landing_min_distance)}


def spread(body: SpreadOre) -> dict[str, Any]:
    """An ore layer laid on the map as a game would lay it."""
    return {"ore": mapcheck.spread_ore(_map(body.map), body.seed, body.placement)}


def read(body: ReadMap) -> dict[str, Any]:
    """The layers of an ``.fmp`` file's text (ValueError with the reason when it is not one)."""
    try:
        fmap = mapcheck.as_map(body.fmp)
    except ValueError as exc:
        raise ValueError(f"not a readable map: {exc}") from None
    if fmap.width > SIDE or fmap.height > SIDE:
        raise ValueError(f"the editor opens maps of at most {SIDE} rows and columns")
    return {"map": mapcheck.map_layers(fmap)}


def write(body: WriteMap) -> dict[str, Any]:
    """The ``.fmp`` text of a map (CRLF, dated now in UTC)."""
    now = dt.datetime.now(dt.UTC)
    data = write_fmp(_map(body.map), (now.year, now.month, now.day, now.hour, now.minute, now.second))
    return {"fmp": data.decode("cp1252")}


HOOKS = MapHooks(tools=(
    MapTool("new", NewMap, new, "a map to start from: the original, a seeded generated one, or an empty shape"),
    MapTool("check", CheckMap, check, "a map's problems (with rule ids) and figures"),
    MapTool("spread", SpreadOre, spread, "an ore layer laid as a game lays it"),
    MapTool("read", ReadMap, read, "the layers of .fmp text"),
    MapTool("write", WriteMap, write, "the .fmp text of layers"),
))
