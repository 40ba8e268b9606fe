"""Spaceships: landing (FM-7), deployment (FM-8) and seat order (FM-D4)."""

from __future__ import annotations

import math
from typing import Any, Literal

from pydantic import Field

from spacetable.core.errors import RuleError
from spacetable.core.moves import Count, Params, bounded_list

from .firezones import sync_cover
from .movement import parse_position, place
from .pontoons import remove_unit, would_anchor
from .state import BARGE, LAND_UNITS, ORE, PONTOON, SEA_UNITS, TANK, TURRET, Cell, FMState, Pair, Unit
from .terrain import MOUNTAIN, PLAIN, REEF, SWAMP, Board
from .transport import put_in, room_for

#: FM-7.1 pod directions (indices into N, NE, SE, S, SW, NW).
ORIENTATIONS = {"north": (0, 2, 4), "south": (1, 3, 5)}


class LandParams(Params):
    """FM-7.1: the dome's cell and the orientation of the pods (``ship``, if given, is the player's own)."""

    dome: Cell
    orientation: Literal["north", "south"] = "north"
    ship: Count | None = None


class CargoEntry(Params):
    """A unit loaded into a deployed carrier, with its own cargo (FM-8.2 (e))."""

    unit: Count
    cargo: bounded_list("Count | CargoEntry", 4) = Field(default_factory=list)  # type: ignore[valid-type]


class DeployEntry(Params):
    """A unit placed around the dome: its cell (a barge: a pair) and what it carries (FM-8.2)."""

    unit: Count
    at: Cell | Pair
    cargo: bounded_list(Count | CargoEntry, 4) = Field(default_factory=list)  # type: ignore[valid-type]


class DeployParams(Params):
    """FM-8.1: the secret deployment, every unit placed from the ship (the rest stays aboard)."""

    units: bounded_list(DeployEntry, 32)  # type: ignore[valid-type]


CargoEntry.model_rebuild()


def footprint(state: FMState, dome: int, orientation: str) -> list[int] | None:
    """Dome then pods; None if a pod would be off the map."""
    return _footprint(state.board, dome, orientation)


def _footprint(board: Board, dome: int, orientation: str) -> list[int] | None:
    if orientation not in ORIENTATIONS:
        return None
    neigh = board.hexmap.neighbours(dome)
    pods = [neigh[d] for d in ORIENTATIONS[orientation]]
    if any(p < 0 or board.terrain[p] < 0 for p in pods):
        return None
    return [dome, *pods]


def _site(board: Board, dome: int, orientation: str) -> tuple[list[int] | None, bool, bool]:
    """What the map alone says of a landing (FM-7.2), the same in every state of a game: the footprint (None: off
    the map), whether it lies on plain and swamp only, whether every cell within 2 of the dome is on the map. Kept
    with the map for its cells and the six orientations (the landing list asks for all of them, FM-D48)."""
    key = (dome, orientation)
    sites: dict[tuple[int, str], tuple[list[int] | None, bool, bool]] = board.derived.setdefault("landing_sites", {})
    site = sites.get(key)
    if site is None:
        cells = _footprint(board, dome, orientation)
        flat = cells is not None and all(board.terrain[c] in (PLAIN, SWAMP) for c in cells)
        site = (cells, flat, cells is not None and len(board.disc(dome, 2)) == 19)
        if orientation in ORIENTATIONS and 0 <= dome < board.size:  # never a key a client made up
            sites[key] = site
    return site


def landing_problem(state: FMState, player: int, dome: int, orientation: str, floor: int | None = None) -> str | None:
    """FM-7.2 (``distance``) or the ``zones`` rule: why this landing is illegal (None: legal). ``floor``: the distance
    from the landed domes that FM-D51 asks for instead of ``landing_min_distance`` when no site keeps that much
    (:func:`distance_floor`)."""
    cells, flat, full_disc = _site(state.board, dome, orientation)
    if cells is None:
        return "the ship must lie entirely on the map"
    if not flat:
        return "a ship lands only on plain or swamp"
    if any(state.is_ship_cell(c) for c in cells):
        return "ships cannot overlap"
    if state.config["landing_rule"] == "zones":
        zones = state.zones
        if not zones:
            return "the map has no landing zones"
        zs = {zones[c] for c in cells}
        if len(zs) != 1 or not next(iter(zs)).isupper():
            return "the ship must lie inside one landing zone"
        for s in state.ships:
            o = state.units[s]
            if o.cells and zones[o.cells[0]] in zs:
                return "that zone is taken"
        return None
    if not full_disc:
        return "every cell within 2 of the dome must be on the map"
    need = state.config["landing_min_distance"]
    if floor is not None:
        need = min(need, floor)
    if _nearest_dome(state, dome) < need:
        if floor is not None and floor < state.config["landing_min_distance"]:
            return (f"no site is {state.config['landing_min_distance']} from the landed domes: the dome must be "
                    f"{floor} from them, as far as any site allows (FM-D51)")
        return f"domes must be at least {state.config['landing_min_distance']} apart"
    return None


def _nearest_dome(state: FMState, dome: int) -> float:
    """The distance from ``dome`` to the nearest landed dome (infinite before the first landing)."""
    out = math.inf
    for s in state.ships:
        o = state.units[s]
        if o.cells:
            out = min(out, state.board.dist(o.cells[0], dome))
    return out


def distance_floor(state: FMState, player: int) -> int | None:
    """FM-D51: ``None`` while some site is ``landing_min_distance`` from every landed dome (FM-7.2 as written), or
    when no site is left at all; otherwise the greatest distance from the landed domes that a site otherwise legal
    keeps, which a landing must then keep. A small generated map can hold two legal sites and yet let a first ship
    land where no site is left at that distance for the next."""
    if state.config["landing_rule"] != "distance":
        return None
    best = -1
    for c in state.board.cells:
        for o in ORIENTATIONS:
            if landing_problem(state, player, c, o, floor=0) is None:
                d = _nearest_dome(state, c)
                if d >= state.config["landing_min_distance"]:
                    return None
                best = max(best, int(d))
    return best if best >= 0 else None


def land(state: FMState, player: int, action: dict[str, Any]) -> None:
    """``land(ship, dome, orientation)`` (FM-7): free; clears ore around the dome (FM-7.3)."""
    dome = state.cell_of(action.get("dome"))
    orientation = action.get("orientation", "north")
    ship = state.units[state.ships[player]]
    if "ship" in action and action["ship"] != ship.id:
        raise RuleError("FM-7.1", "you land your own ship")
    why = landing_problem(state, player, dome, str(orientation))
    if why and landing_problem(state, player, dome, str(orientation), floor=0) is None:
        floor = distance_floor(state, player)  # refused for the distance alone: FM-D51 may ask for less
        if floor is not None:
            why = landing_problem(state, player, dome, str(orientation), floor=floor)
    if why:
        raise RuleError("FM-7.2", why)
    cells = footprint(state, dome, str(orientation))
    assert cells is not None
    clear = set(state.board.disc(dome, state.config["landing_clear_radius"])) | set(cells)
    if state.config["landing_rule"] == "zones" and state.zones:
        zone = {c for c in state.board.cells if state.zones[c] == state.zones[dome]}
        reefs = {n for c in zone for n in state.board.neigh[c] if state.board.terrain[n] == REEF}
        clear = zone | reefs | set(cells)
    for c in sorted(clear):
        oid = state.occ.get(c)
        if oid is not None and state.units[oid].kind == ORE:
            remove_unit(state, state.units[oid])
            state.graveyard.pop()
    place(state, ship, cells)
    ship.turrets = []
    for pod in cells[1:]:
        t = state.new_unit(TURRET, ship.colour, cells=[pod], ship=ship.id, shots=2)
        ship.turrets.append(t.id)
    sync_cover(state)


def deploy(state: FMState, player: int, action: dict[str, Any]) -> None:
    """FM-8.1: validate the deployment on a scratch copy and seal it until every player has submitted."""
    validate_deploy(state.copy(), player, action.get("units"))
    state.sealed.submit(player, action.get("units"), "FM-8.1")


def seat_order(state: FMState) -> list[int]:
    """FM-D4: clockwise order of the domes around the map's mean pixel centre."""
    board = state.board
    pts = [board.pixel(c) for c in board.cells]
    cx = sum(p[0] for p in pts) / len(pts)
    cy = sum(p[1] for p in pts) / len(pts)
    keyed = []
    for p in range(state.num_players):
        ship = state.units[state.ships[p]]
        if not ship.cells:
            continue
        px, py = board.pixel(ship.cells[0])
        keyed.append((math.atan2(py - cy, px - cx), math.hypot(px - cx, py - cy), p))
    return [k[2] for k in sorted(keyed)]


def _place_entry(state: FMState, player: int, ship: Unit, entry: Any, top: bool) -> list[int]:
    """Validate and perform one deployment entry on a scratch state (FM-8.2). Returns cells used."""
    if isinstance(entry, int):
        entry = {"unit": entry}
    if not isinstance(entry, dict):
        raise RuleError("CORE-ACTION", "a deployment entry is {unit, at, cargo}")
    u = state.unit(entry.get("unit"))
    if u.carrier != ship.id or u.kind == ORE:
        raise RuleError("FM-8.2", f"unit {u.id} is not aboard your ship")
    used: list[int] = []
    if top:
        cells = parse_position(state, entry.get("at"), u.kind == BARGE)
        for c in cells:
            if state.board.dist(c, ship.cells[0]) > state.config["deploy_radius"]:
                raise RuleError("FM-8.2", f"cell {state.xy(c)} is beyond the deployment radius")
            if state.is_ship_cell(c) or c in state.occ:
                raise RuleError("FM-8.2", f"cell {state.xy(c)} is not free")
            if u.kind == PONTOON:
                if c in state.pontoon_at or not would_anchor(state, c):
                    raise RuleError("FM-8.2", "pontoons must be anchored at normal tide")
            elif u.kind in SEA_UNITS:
                if state.board.terrain[c] in (PLAIN, MOUNTAIN) or c in state.pontoon_at:
                    raise RuleError("FM-8.2", "sea units are not placed on plain, mountain or a pontoon")
            else:
                if state.open_sea(c):
                    raise RuleError("FM-8.2", "land units are not placed on open sea")
        used = cells
    for sub in entry.get("cargo", []) or []:
        sid = sub.get("unit") if isinstance(sub, dict) else sub
        item = state.unit(sid)
        if item.carrier != ship.id:
            raise RuleError("FM-8.2", f"unit {sid} is not aboard your ship")
        if not room_for(state, u, item):
            raise RuleError("FM-8.2", "capacity exceeded")
        put_in(state, u, item)
        if isinstance(sub, dict) and sub.get("cargo"):
            _place_entry(state, player, ship, {"unit": sid, "cargo": sub["cargo"]}, top=False)
        if u.kind == BARGE and state.load_of(u) > 4:
            raise RuleError("FM-8.2", "capacity exceeded")
    if top:
        if u.kind in LAND_UNITS and state.board.terrain[used[0]] == MOUNTAIN and state.gt_inside(u):
            raise RuleError("FM-8.2", "no GT on a mountain")
        ship.cargo.remove(u.id)
        u.carrier = -1
        if u.kind == PONTOON:
            u.cells = list(used)
            state.pontoon_at[used[0]] = u.id
        else:
            place(state, u, used)
    return used


def validate_deploy(state: FMState, player: int, entries: Any) -> dict[int, list[int]]:
    """FM-8.2: check a whole deployment on ``state`` (a scratch copy that it modifies); fire zones are ignored
    while placing (FM-D5). Returns unit -> cells."""
    if not isinstance(entries, list):
        raise RuleError("CORE-ACTION", "deploy needs a list of units")
    ship = state.units[state.ships[player]]
    out: dict[int, list[int]] = {}
    for e in entries:
        used = _place_entry(state, player, ship, e, top=True)
        out[int(e["unit"] if isinstance(e, dict) else e)] = used
    tanks = [u for u in state.units.values() if u.kind == TANK and u.colour == ship.colour and state.on_board(u)]
    for t in tanks:
        if state.mountain_partners(t):
            raise RuleError("FM-8.2", "no two own tanks on adjacent mountains")
    return out


def reveal_deploy(state: FMState, commits: dict[int, Any]) -> None:
    """FM-8.3: cancel clashing placements, then place everything else (secret and simultaneous, FM-D5)."""
    used: dict[int, dict[int, list[int]]] = {}
    for p, entries in commits.items():
        scratch = state.copy()
        used[p] = validate_deploy(scratch, p, entries)
    owner: dict[int, set[int]] = {}
    for p, m in used.items():
        for cells in m.values():
            for c in cells:
                owner.setdefault(c, set()).add(p)
    clash = {c for c, ps in owner.items() if len(ps) > 1}
    for p in sorted(commits):
        ship = state.units[state.ships[p]]
        for e in commits[p]:
            uid = e["unit"] if isinstance(e, dict) else e
            if set(used[p].get(uid, [])) & clash:
                continue
            scratch = state.copy()
            try:
                _place_entry(scratch, p, scratch.units[ship.id], e, top=True)
            except RuleError:
                continue
            _place_entry(state, p, ship, e, top=True)


__all__ = ["deploy", "land", "landing_problem", "reveal_deploy", "seat_order", "validate_deploy"]
