"""Checking a Full Metal map against the map rules, and the map editor's tools (issue 25, the workbench).

:func:`validate_map` names every problem of a map with the rule that makes it one: the map must have cells
(FM-1.1), its ore must lie on cells that exist and can be loaded (FM-1.1, FM-3.1, FM-3.3), enough ships must be
able to land at once under the landing rule played (FM-7.2 with ``landing_min_distance``, or the zones of
FM-D47), and every landing zone must hold a ship. The server's content model of the ``fullmetal/maps`` kind calls
it; the map editor (``/workbench/map``) shows its problems as they arise.

:func:`new_map` starts a map (the original, a seeded generated one, or an empty one of a chosen size and shape)
and :func:`spread_ore` lays ore the way a game does without an ore layer (FM-3.1, FM-D46).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from typing import Any

from spacetable.core.content import Problem
from spacetable.core.rng import Rng, mix_seed

from .fmp import MAP_RULES, MAPS, MAX_SIDE, TERRAIN_CHARS, FmpError, FmpMap, bundled_map, parse_fmp
from .mapgen import PER_PLAYER, generate_map
from .setup import lattice_cells, spread_cells
from .terrain import PLAIN, SWAMP, Board, get_board

#: The sizes the editor starts an empty map with (the ``.fmp`` format allows up to 128; a board this large is
#: already four times the original).
MIN_SIDE, MAX_EDIT_SIDE = 6, 64
SHAPES = ("rectangle", "hexagon", "round")
SOURCES = ("original", "generated", "empty")
#: Ship orientations of FM-7.1: the pods' neighbour directions (N, NE, SE, S, SW, NW numbering of FM-1.3).
ORIENTATIONS = {"north": (0, 2, 4), "south": (1, 3, 5)}
ZONE_CHARS = frozenset(".ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")


@dataclass(frozen=True)
class MapProblem:
    """One problem of a map: ``code`` names it (the editor's text ``wb.map.problem.<code>`` with ``params``),
    ``path`` the part of the map (``terrain``, ``ore``, ``zones/A``...), ``message`` says it in English, ``rule``
    is the rule id that makes it a problem (None for the file format), ``cells`` the ``[x, y]`` cells to show."""

    code: str
    path: str
    message: str
    rule: str | None
    params: dict[str, Any] = field(default_factory=dict)
    cells: tuple[tuple[int, int], ...] = ()

    def as_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["cells"] = [list(c) for c in self.cells]
        return out


def as_map(content: Any) -> FmpMap:
    """The map of ``content``: an :class:`FmpMap`, the text or bytes of an ``.fmp`` file, or a mapping carrying
    that text (``{"fmp": ...}``, the content model's shape) or the layers (``width``, ``height``, ``terrain``,
    ``ore``, ``zones``). :class:`FmpError` when it is none of these or malformed."""
    if isinstance(content, FmpMap):
        return content
    if isinstance(content, (str, bytes)):
        if len(content) > MAPS.max_bytes:
            raise FmpError(f"a map file is at most {MAPS.max_bytes} bytes")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return parse_fmp(content)
    if isinstance(content, Mapping):
        for key in ("fmp", "text", "content"):
            if isinstance(content.get(key), (str, bytes)):
                return as_map(content[key])
        if "terrain" in content:
            return _layers(content)
    raise FmpError("a map is the text of an .fmp file")


def _layers(doc: Mapping[str, Any]) -> FmpMap:
    terrain = doc.get("terrain")
    if not isinstance(terrain, list) or not all(isinstance(r, str) for r in terrain):
        raise FmpError("terrain: a list of rows")
    height = len(terrain)
    width = len(terrain[0]) if terrain else 0
    layers: dict[str, list[str] | None] = {"terrain": terrain}
    for name in ("ore", "zones"):
        rows = doc.get(name)
        if rows is not None and (not isinstance(rows, list) or not all(isinstance(r, str) for r in rows)):
            raise FmpError(f"{name}: a list of rows or null")
        layers[name] = rows
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
        raise FmpError(f"a map has 1 to {MAX_SIDE} rows and columns")
    for name, rows in layers.items():
        if rows is None:
            continue
        if len(rows) != height or any(len(r) != width for r in rows):
            raise FmpError(f"{name}: {height} rows of {width} characters")
        if name == "terrain" and any(ch not in TERRAIN_CHARS for r in rows for ch in r):
            raise FmpError("terrain: characters . * % $ # ?")
        if name != "terrain" and any(ord(ch) < 33 or ord(ch) > 126 for r in rows for ch in r):
            raise FmpError(f"{name}: printable characters only")
    return FmpMap(width, height, list(terrain), layers["ore"], layers["zones"])


def map_layers(fmap: FmpMap) -> dict[str, Any]:
    """The JSON form the editor works on."""
    return {"width": fmap.width, "height": fmap.height, "terrain": list(fmap.terrain),
            "ore": list(fmap.ore) if fmap.ore is not None else None,
            "zones": list(fmap.zones) if fmap.zones is not None else None}


def _board(fmap: FmpMap) -> Board:
    return get_board(fmap.width, fmap.height, "".join(fmap.terrain))


@lru_cache(maxsize=8)
def _domes(width: int, height: int, terrain: str) -> tuple[int, ...]:
    return tuple(landing_domes(get_board(width, height, terrain)))


def map_domes(fmap: FmpMap) -> list[int]:
    """:func:`landing_domes` of a map (remembered for the last few maps: the editor checks a map, then counts)."""
    return list(_domes(fmap.width, fmap.height, "".join(fmap.terrain)))


def footprints(board: Board, dome: int) -> list[tuple[str, list[int]]]:
    """The ship footprints (FM-7.1) with their dome on ``dome`` that lie on plain or swamp (FM-7.2 a)."""
    out = []
    neigh = board.hexmap.neighbours(dome)
    for name, dirs in ORIENTATIONS.items():
        cells = [dome, *(neigh[d] for d in dirs)]
        if all(c >= 0 and board.terrain[c] in (PLAIN, SWAMP) for c in cells):
            out.append((name, cells))
    return out


def landing_domes(board: Board) -> list[int]:
    """Domes of a legal landing under the distance rule, ignoring other ships: a footprint on plain or swamp
    (FM-7.2 a) with every cell within 2 of the dome on the map (FM-7.2 b: the dome and its six neighbours each
    have six neighbours on the map)."""
    full = [len(n) == 6 for n in board.neigh]
    return [c for c in board.cells if board.terrain[c] in (PLAIN, SWAMP) and full[c]
            and all(full[n] for n in board.neigh[c]) and footprints(board, c)]


#: Starting domes the greedy search of :func:`most_landings` tries at most (spread over the map).
MAX_STARTS = 48


def most_landings(board: Board, domes: list[int], min_distance: int, want: int) -> list[int]:
    """The most domes (up to ``want``) pairwise at least ``min_distance`` apart (FM-7.2 c). Two domes: exact, the
    farthest pair by the cube coordinates' extremes (FM-1.4); more: farthest-first from up to :data:`MAX_STARTS`
    starts, which finds a placement whenever the domes spread over the map."""
    if not domes:
        return []
    best = [domes[0]]
    if want >= 2:
        best = _farthest_pair(board, domes)
        if board.dist(*best) < min_distance:
            return best[:1]
    if want <= 2:
        return best[:want]
    step = max(1, len(domes) // MAX_STARTS)
    for start in [best[0], *domes[::step]]:
        chosen = [start]
        gap = {d: board.dist(d, start) for d in domes}
        while len(chosen) < want:
            nxt = max(gap, key=gap.__getitem__)
            if gap[nxt] < min_distance:
                break
            chosen.append(nxt)
            for d in gap:
                gap[d] = min(gap[d], board.dist(d, nxt))
        if len(chosen) > len(best):
            best = chosen
            if len(best) >= want:
                break
    return best


def _farthest_pair(board: Board, domes: list[int]) -> list[int]:
    """Two domes at the largest distance: the distance is the largest of |dq|, |dr|, |ds| (FM-1.4), so the
    farthest pair is the pair of extremes along one of the three cube axes."""
    best: list[int] = [domes[0], domes[0]]
    for axis in (lambda c: board.axial[c][0], lambda c: board.axial[c][1],
                 lambda c: -board.axial[c][0] - board.axial[c][1]):
        lo, hi = min(domes, key=axis), max(domes, key=axis)
        if board.dist(lo, hi) > board.dist(*best):
            best = [lo, hi]
    return best


def validate_map(content: Any, *, players: int = 2, landing_rule: str = "distance",
                 landing_min_distance: int = 10) -> list[MapProblem]:
    """Every problem of a map for a game of ``players`` under ``landing_rule`` (empty: the map is playable).

    A map that is not an ``.fmp`` map at all gives one ``format`` problem. A map with a ``ZONES`` block has its
    zones checked whatever the landing rule; ``landing_rule="zones"`` also needs them (FM-D47)."""
    try:
        fmap = as_map(content)
    except FmpError as exc:
        return [MapProblem("format", "fmp", f"not a readable map: {exc}", None, {"detail": str(exc)})]
    problems: list[MapProblem] = []
    board = _board(fmap)
    if not board.cells:
        return [MapProblem("no_cells", "terrain", "the map has no cell on the board", "FM-1.1")]
    problems += _ore_problems(fmap, board)
    if fmap.zones is not None:
        problems += _zone_problems(fmap, board, players, landing_rule == "zones")
    elif landing_rule == "zones":
        problems.append(MapProblem("zones_missing", "zones", "landing_rule=zones needs a map with landing zones",
                                   "FM-D47"))
    if landing_rule != "zones":
        domes = map_domes(fmap)
        found = most_landings(board, domes, landing_min_distance, players)
        if len(found) < players:
            problems.append(MapProblem(
                "landing_sites", "terrain",
                f"only {len(found)} of {players} ships can land {landing_min_distance} cells apart "
                "(a ship needs four cells of plain or swamp and the map all around it within 2)",
                "FM-7.2", {"found": len(found), "players": players, "distance": landing_min_distance},
                tuple(board.xy(c) for c in found)))
    return problems


def _ore_problems(fmap: FmpMap, board: Board) -> list[MapProblem]:
    if fmap.ore is None:
        return []
    out = []
    cells = fmap.ore_cells()
    off = tuple((x, y) for x, y, _ in cells if fmap.terrain[y][x] == "?")
    sea = tuple((x, y) for x, y, _ in cells if fmap.terrain[y][x] == ".")
    if off:
        out.append(MapProblem("ore_offmap", "ore", f"{len(off)} ore on cells off the map", "FM-1.1",
                              {"n": len(off)}, off))
    if sea:
        out.append(MapProblem("ore_sea", "ore", f"{len(sea)} ore on sea, where it can never be loaded", "FM-3.3",
                              {"n": len(sea)}, sea))
    if not cells:
        out.append(MapProblem("ore_empty", "ore", "the ore layer holds no ore (remove it to lay the lattice)",
                              "FM-3.1"))
    return out


def _zone_problems(fmap: FmpMap, board: Board, players: int, needed: bool) -> list[MapProblem]:
    assert fmap.zones is not None
    out = []
    zones = "".join(fmap.zones)
    bad = sorted({ch for ch in zones if ch not in ZONE_CHARS})
    if bad:
        return [MapProblem("zone_char", "zones", f"zone characters are '.', A-Z and a-z, not {bad[0]!r}", "FM-D47",
                           {"char": bad[0]})]
    off = tuple(board.xy(i) for i, ch in enumerate(zones) if ch != "." and fmap.terrain[i // fmap.width][i % fmap.width] == "?")
    if off:
        out.append(MapProblem("zone_offmap", "zones", f"{len(off)} zone cells off the map", "FM-1.1",
                              {"n": len(off)}, off))
    letters = sorted({ch for ch in zones if ch.isupper()})
    usable = 0
    for z in letters:
        inside = [c for c in board.cells if zones[c] == z]
        fits = any(all(zones[p] == z for p in cells) for c in inside for _, cells in footprints(board, c))
        if fits:
            usable += 1
        else:
            out.append(MapProblem("zone_no_site", f"zones/{z}", f"no ship can land in zone {z}: it holds no four "
                                  "cells of plain or swamp in the shape of a ship", "FM-D47", {"zone": z},
                                  tuple(board.xy(c) for c in inside)))
    if needed and usable < players:
        out.append(MapProblem("zones_too_few", "zones", f"{usable} landing zones where ships fit, {players} needed",
                              "FM-D47", {"found": usable, "players": players}))
    return out


def map_stats(fmap: FmpMap, *, landing_min_distance: int = 10) -> dict[str, Any]:
    """What the editor shows beside the problems: cells per terrain, the ore of the layer or the lattice's range
    (FM-3.1), and how many ships can land at once (FM-7.2, up to 4)."""
    board = _board(fmap)
    counts = fmap.counts()
    out: dict[str, Any] = {"cells": len(board.cells),
                           "terrain": {k: counts.get(ch, 0) for k, ch in
                                       (("sea", "."), ("reef", "*"), ("swamp", "%"), ("plain", "$"), ("mountain", "#"))}}
    if fmap.ore is not None:
        out["ore"] = len(fmap.ore_cells())
        out["lattice"] = None
    else:
        sizes = [len(lattice_cells(board, a, b)) for a in range(3) for b in range(3)] if board.cells else [0]
        out["ore"] = None
        out["lattice"] = [min(sizes), max(sizes)]
    out["landings"] = len(most_landings(board, map_domes(fmap), landing_min_distance, 4)) if board.cells else 0
    return out


def _shape_mask(width: int, height: int, shape: str) -> list[str]:
    """``$`` where a cell of an empty map of ``shape`` is on the board, ``?`` where it is not (FM-1.1)."""
    rows = []
    cx, cy = 1.5 * (width - 1) / 2, math.sqrt(3) * (height - 0.5) / 2
    rx, ry = 1.5 * (width - 1) / 2 + 0.75, math.sqrt(3) * (height - 0.5) / 2 + 0.5
    for y in range(height):
        row = []
        for x in range(width):
            px, py = 1.5 * x, math.sqrt(3) * (y + 0.5 * (x % 2))
            dx, dy = (px - cx) / rx, (py - cy) / ry
            if shape == "round":
                inside = dx * dx + dy * dy <= 1.0
            elif shape == "hexagon":
                inside = abs(dy) <= 1.0 and abs(dx) + abs(dy) / 2 <= 1.0
            else:
                inside = True
            row.append("$" if inside else "?")
        rows.append("".join(row))
    return rows


def new_map(source: str = "original", *, seed: int = 1, players: int = 2, size: str = "medium", width: int = 36,
            height: int = 23, shape: str = "rectangle", fill: str = "$") -> FmpMap:
    """A map to start editing from: the original (FM-1.6), a generated one (``generate_map``, deterministic for a
    seed), or an empty ``width`` x ``height`` map of plain (``fill``) cut to ``shape``. ValueError when a
    parameter is out of its range."""
    if source == "original":
        return bundled_map("original")
    if source == "generated":
        if size not in PER_PLAYER or not 2 <= players <= 4:
            raise ValueError("a generated map has 2 to 4 players and a size small, medium or large")
        fmap = generate_map(seed, players, size)
        return FmpMap(fmap.width, fmap.height, list(fmap.terrain))
    if source != "empty":
        raise ValueError(f"a map starts from one of {', '.join(SOURCES)}")
    if shape not in SHAPES or fill not in ".*%$#":
        raise ValueError(f"a shape is one of {', '.join(SHAPES)}; the fill a terrain")
    if not (MIN_SIDE <= width <= MAX_EDIT_SIDE and MIN_SIDE <= height <= MAX_EDIT_SIDE):
        raise ValueError(f"an empty map has {MIN_SIDE} to {MAX_EDIT_SIDE} rows and columns")
    rows = [r.replace("$", fill) for r in _shape_mask(width, height, shape)]
    return FmpMap(width, height, rows)


def spread_ore(fmap: FmpMap, seed: int, placement: str = "lattice") -> list[str]:
    """An ore layer laid as a game lays ore on a map without one: the FM-3.1 lattice at an offset drawn from
    ``seed``, or with ``placement="random"`` as many ore scattered, never two adjacent (FM-D46)."""
    if placement not in ("lattice", "random"):
        raise ValueError("ore placement is lattice or random")
    board = _board(fmap)
    cells = set(spread_cells(board, Rng(mix_seed(seed, "fullmetal-ore")), placement))
    return ["".join("2" if y * fmap.width + x in cells else "." for x in range(fmap.width)) for y in range(fmap.height)]


def _default_rules(fmap: FmpMap) -> list[Problem]:
    """The map rules of a two-player game under the default landing rule, for :class:`~.fmp.MapDoc` content."""
    return [Problem(p.path, p.message, p.rule) for p in validate_map(fmap)]


MAP_RULES.append(_default_rules)
