"""Carriers and spaceship access: load, unload, transfer, enter, exit (FM-11, FM-12, FM-14.1)."""

from __future__ import annotations

from typing import Any

from pydantic import create_model

from spacetable.core.errors import RuleError
from spacetable.core.moves import Count, Params

from .firezones import settle
from .movement import free_for, place
from .pontoons import sink, would_anchor
from .state import BARGE, CAPACITY, CARRIES, CRAB, GT, MB, ORE, PONTOON, SHIP, TANK, WL, Cell, FMState, Pair, Unit
from .terrain import MOUNTAIN


class LoadParams(Params):
    """FM-11.1 / FM-12.4: a carrier (a ship too) and the adjacent item it loads."""

    carrier: Count
    item: Count


class UnloadParams(Params):
    """FM-11.2: a carrier (a ship too), an item it holds, and where it goes: a cell, a pair of cells (a barge
    leaving a ship) or the id of an adjacent carrier (transship)."""

    carrier: Count
    item: Count
    to: Cell | Pair | Count


class EnterParams(Params):
    """FM-12.2: a unit next to a pod and its own ship."""

    unit: Count
    ship: Count


class ExitParams(Params):
    """FM-12.3: a unit in a ship, the ship, and a cell (a barge: a pair) touching a pod with an intact turret, or
    an adjacent carrier's id (the same as ``unload``)."""

    unit: Count
    ship: Count
    to: Cell | Pair | Count


#: FM-9 (0 AP): ``{"from": carrier, "item": id, "to": carrier}``. The field is named after the keyword
#: ``from``, which a class body cannot declare, so the model is built from a mapping.
TransferParams = create_model(
    "TransferParams", __base__=Params, __doc__="FM-12.4: a free transfer inside a ship, or between a barge and its crab.",
    **{"from": (Count, ...), "item": (Count, ...), "to": (Count, ...)},  # type: ignore[call-overload]
)


def adjacent_to(state: FMState, u: Unit, cell: int) -> bool:
    return any(cell in state.board.neigh[c] for c in u.cells)


def pods(ship: Unit, intact_only: bool = False) -> list[int]:
    return [pod for pod, t in zip(ship.cells[1:], ship.turrets, strict=True) if t >= 0 or not intact_only]


def touches_pod(state: FMState, ship: Unit, cells: list[int], intact_only: bool) -> bool:
    ps = pods(ship, intact_only)
    return any(p in state.board.neigh[c] for c in cells for p in ps)


def gt_onto_mountain(state: FMState, carrier: Unit, item: Unit) -> bool:
    """FM-2.2: a crab standing on a mountain may not take a GT (nor anything carrying one)."""
    return carrier.kind == CRAB and state.gt_inside(item) and any(state.board.terrain[c] == MOUNTAIN for c in carrier.cells)


def room_for(state: FMState, carrier: Unit, item: Unit) -> bool:
    """FM-4 / FM-11.3 capacity (nested slots for a barge)."""
    if item.kind not in CARRIES.get(carrier.kind, frozenset()):
        return False
    if carrier.kind == SHIP:
        return True
    if carrier.kind == CRAB and item.kind == ORE and item.value == 5 and state.config["ore_values"] == "multi":
        return len(carrier.cargo) == 0
    if carrier.kind == CRAB:
        return len(carrier.cargo) < CAPACITY[CRAB]
    if carrier.kind == WL:
        return not carrier.cargo and state.slots(item) == 1
    return state.load_of(carrier) + state.slots(item) <= CAPACITY[carrier.kind]


def put_in(state: FMState, carrier: Unit, item: Unit) -> None:
    """Move ``item`` (off the board or out of another carrier) into ``carrier``."""
    take_out(state, item)
    item.carrier = carrier.id
    item.neut = []
    carrier.cargo.append(item.id)
    if carrier.kind == SHIP:
        absorb(state, carrier, item)


def take_out(state: FMState, item: Unit) -> None:
    if item.carrier >= 0:
        state.units[item.carrier].cargo.remove(item.id)
        item.carrier = -1
    for c in item.cells:
        if state.occ.get(c) == item.id:
            del state.occ[c]
        if state.pontoon_at.get(c) == item.id:
            del state.pontoon_at[c]
    item.cells = []


def absorb(state: FMState, ship: Unit, item: Unit) -> None:
    """FM-5.3 (b) and FM-D17: entering a ship gives its colour to the unit and its cargo; ore goes to the hold."""
    for sub in [item, *state.all_cargo(item)]:
        if sub.kind == ORE:
            if sub.carrier != ship.id:
                state.units[sub.carrier].cargo.remove(sub.id)
                sub.carrier = ship.id
                ship.cargo.append(sub.id)
        elif sub.kind != PONTOON:
            sub.colour = ship.colour
            sub.neut = []


def inside(state: FMState, u: Unit, ship: Unit) -> bool:
    c = u.carrier
    while c >= 0:
        if c == ship.id:
            return True
        c = state.units[c].carrier
    return False


def check_carrier(state: FMState, player: int, carrier: Unit) -> None:
    if carrier.kind not in CARRIES:
        raise RuleError("FM-4.1", f"a {carrier.kind} carries nothing")
    if carrier.kind == SHIP:
        if state.controller[carrier.colour] != player or not carrier.cells:
            raise RuleError("FM-12.2", "only the controller of a ship loads and unloads it")
        return
    if not state.operational(carrier, player):
        raise RuleError("FM-11.1", "the carrier must be your own operational unit on the board")
    if state.unit_under_fire(carrier, player):
        raise RuleError("FM-11.1", "the carrier is under enemy fire")


def load_check(state: FMState, player: int, carrier: Unit, item: Unit) -> None:
    """Pure FM-11.1 / FM-12.4 check of loading ``item`` into ``carrier`` (ore and pontoons for a ship, from any cell
    touching a pod, FM-D30); a neutralized or locked unit cannot be loaded (FM-D34)."""
    check_carrier(state, player, carrier)
    if not state.on_board(item) or item.id == carrier.id:
        raise RuleError("FM-11.1", "the item must be on the board")
    cell = item.cells[0]
    if carrier.kind == SHIP:
        if not touches_pod(state, carrier, item.cells, False):
            raise RuleError("FM-12.1", "a ship loads only through its pods")
    elif not any(adjacent_to(state, carrier, c) for c in item.cells):
        raise RuleError("FM-11.1", "the item must be adjacent to the carrier")
    if state.unit_under_fire(item, player):
        raise RuleError("FM-11.1", "the item's cell is under enemy fire")
    if item.kind == PONTOON:
        if cell in state.occ:
            raise RuleError("FM-D14", "only empty pontoons can be lifted")
    elif item.kind == ORE:
        if cell not in state.pontoon_at and not state.board.land(cell, state.tide):
            raise RuleError("FM-3.3", "ore is loadable only from effective land or a pontoon")
    else:
        if state.ctl(item) != player:
            raise RuleError("FM-11.1", "you load only your own units")
        if state.stranded(item) or item.neut:
            raise RuleError("FM-11.1", "the item must be operational")
        if item.locked:
            raise RuleError("FM-15.5", "a locked unit cannot be loaded")
    if not room_for(state, carrier, item):
        raise RuleError("FM-11.3", f"the {carrier.kind} cannot take this {item.kind}")
    if gt_onto_mountain(state, carrier, item):
        raise RuleError("FM-2.2", "a crab carrying a GT cannot stand on a mountain")
    if state.pool[player] < 1:
        raise RuleError("FM-9.2", "no action point left")


def load(state: FMState, player: int, action: dict[str, Any]) -> None:
    """FM-11.1 / FM-12.4: load an adjacent item (1 AP); a ship "loading" a unit is the unit entering it (FM-D30)."""
    carrier = state.unit(action.get("carrier"))
    item = state.unit(action.get("item"))
    if carrier.kind == SHIP and item.kind not in (ORE, PONTOON):
        enter(state, player, {"unit": item.id, "ship": carrier.id})
        return
    load_check(state, player, carrier, item)
    state.spend(player, 1)
    put_in(state, carrier, item)
    if item.kind == PONTOON:
        sink(state)
    settle(state, player)


def parse_to(state: FMState, value: Any) -> tuple[str, list[int] | int]:
    if isinstance(value, int):
        return "carrier", value
    if isinstance(value, (list, tuple)) and len(value) == 2 and all(isinstance(v, (list, tuple)) for v in value):
        return "cells", [state.cell_of(value[0]), state.cell_of(value[1])]
    return "cells", [state.cell_of(value)]


def unload(state: FMState, player: int, action: dict[str, Any]) -> None:
    """FM-11.2 / FM-12.3 / FM-14.1: unload an item to an adjacent cell, pair or carrier (1 AP)."""
    carrier = state.unit(action.get("carrier"))
    item = state.unit(action.get("item"))
    check_carrier(state, player, carrier)
    if item.carrier != carrier.id:
        raise RuleError("FM-11.2", "the item is not in that carrier")
    if carrier.kind == SHIP and item.kind == ORE:
        raise RuleError("FM-D17", "ore never leaves a spaceship")
    kind, to = parse_to(state, action.get("to"))
    if kind == "carrier":
        assert isinstance(to, int)
        transship(state, player, carrier, item, state.unit(to))
        return
    assert isinstance(to, list)
    unload_to_cells(state, player, carrier, item, to)
    rock = item.kind == ORE and item.value == 0 and state.config["ore_values"] == "multi"
    state.spend(player, 0 if rock else 1)
    put_on_board(state, item, to)
    settle(state, player)


def unload_to_cells(state: FMState, player: int, carrier: Unit, item: Unit, to: list[int]) -> None:
    """Validate placing ``item`` from ``carrier`` on ``to`` (FM-11.2, FM-12.3, FM-14.2, FM-16.4)."""
    if item.kind == BARGE:
        if len(to) != 2 or to[1] not in state.board.neigh[to[0]]:
            raise RuleError("FM-10.4", "a barge is unloaded onto a pair of adjacent cells")
    elif len(to) != 1:
        raise RuleError("FM-11.2", "unload onto one cell")
    if carrier.kind == SHIP:
        if not touches_pod(state, carrier, to, True):
            raise RuleError("FM-12.3", "units leave only through a pod with an intact turret")
    elif not all(adjacent_to(state, carrier, c) for c in to):
        raise RuleError("FM-11.2", "the cell must be adjacent to the carrier")
    for c in to:
        if state.is_ship_cell(c):
            raise RuleError("FM-4.3", "ship cells are entered only through FM-12")
        if state.under_fire(c, player):
            raise RuleError("FM-16.4", f"cell {state.xy(c)} is under enemy fire")
        if item.kind == PONTOON:
            if c in state.pontoon_at or c in state.occ:
                raise RuleError("FM-14.2", "a pontoon is laid on a free cell, never on another pontoon")
            if not would_anchor(state, c):
                raise RuleError("FM-14.2", "a pontoon is laid only where its group is anchored")
            continue
        why = free_for(state, item, c)
        if why:
            raise RuleError(why, f"cell {state.xy(c)} is not free")
        if not state.suits(item, c, True):
            raise RuleError("FM-11.2", f"a {item.kind} cannot be unloaded on {state.xy(c)}")


def put_on_board(state: FMState, item: Unit, to: list[int]) -> None:
    take_out(state, item)
    if item.kind == PONTOON:
        item.cells = list(to)
        state.pontoon_at[to[0]] = item.id
    else:
        place(state, item, to)


def transship(state: FMState, player: int, carrier: Unit, item: Unit, target: Unit) -> None:
    """FM-11.2 / FM-12.3 / seed §9.1 / FM-D31: unload straight into an adjacent own carrier with room (1 AP).

    The spaceship obeys the same rules as carriers: it unloads into a carrier touching one of its pods with an
    intact turret (a unit leaves only through such a pod, FM-12.3), and a carrier unloads into its own ship
    through any pod, intact or not (FM-12.2; the item takes the ship's colour, ore goes to the hold). Two
    ships never stand side by side, and nothing passes between two ships but over the board."""
    if target.id in (carrier.id, item.id):
        raise RuleError("FM-11.2", "unload into another carrier")
    check_carrier(state, player, target)
    if target.kind == SHIP:
        if carrier.kind == SHIP:
            raise RuleError("FM-12.3", "units pass between two ships only over the board")
        if not touches_pod(state, target, carrier.cells, False):
            raise RuleError("FM-12.2", "the carrier must be adjacent to a pod of the ship")
    elif carrier.kind == SHIP:
        if not touches_pod(state, carrier, target.cells, True):
            raise RuleError("FM-12.3", "units leave only through a pod with an intact turret")
    elif not any(adjacent_to(state, carrier, c) for c in target.cells):
        raise RuleError("FM-11.2", "the carriers must be adjacent")
    if not room_for(state, target, item):
        raise RuleError("FM-11.3", "no room in the receiving carrier")
    if gt_onto_mountain(state, target, item):
        raise RuleError("FM-2.2", "a crab carrying a GT cannot stand on a mountain")
    state.spend(player, 1)
    put_in(state, target, item)
    settle(state, player)


def transfer(state: FMState, player: int, action: dict[str, Any]) -> None:
    """0 AP: inside a ship, or between a barge and the crab it carries (the FM-9 cost table, FM-12.4, FM-D32)."""
    src = state.unit(action.get("from"))
    item = state.unit(action.get("item"))
    dst = state.unit(action.get("to"))
    if item.carrier != src.id or dst.id in (src.id, item.id):
        raise RuleError("CORE-ACTION", "the item is not in that carrier")
    ship = None
    for s in (src, dst):
        if s.kind == SHIP:
            ship = s
    if ship is None:
        for s in (src, dst):
            if s.carrier >= 0 and state.units[s.carrier].kind == SHIP:
                ship = state.units[s.carrier]
    if ship is not None:
        for s in (src, dst):
            if s is not ship and not inside(state, s, ship):
                raise RuleError("FM-12.4", "free transfers stay inside one ship")
        if state.controller[ship.colour] != player:
            raise RuleError("FM-12.4", "not your ship")
        if item.kind == ORE:
            raise RuleError("FM-D17", "ore in a ship stays in the hold")
    else:
        pair = (src.kind == BARGE and dst.carrier == src.id) or (dst.kind == BARGE and src.carrier == dst.id)
        if not pair:
            raise RuleError("FM-9.1", "free transfers are inside a ship or between a barge and the crab it carries")
        barge = src if src.kind == BARGE else dst
        if not state.operational(barge, player):
            raise RuleError("FM-11.1", "the barge must be your own operational unit")
    if ship is None:
        if item.kind not in CARRIES[dst.kind] or (dst.kind == CRAB and len(dst.cargo) >= CAPACITY[CRAB]):
            raise RuleError("FM-11.3", "no room in the receiving carrier")
        barge = dst if dst.kind == BARGE else src
        put_in(state, dst, item)
        if state.load_of(barge) > CAPACITY[BARGE]:
            raise RuleError("FM-11.3", "the barge would be over capacity")
        return
    if not room_for(state, dst, item):
        raise RuleError("FM-11.3", "no room in the receiving carrier")
    put_in(state, dst, item)


def enter_check(state: FMState, player: int, u: Unit, ship: Unit) -> None:
    """Pure FM-12.2 check."""
    if ship.kind != SHIP or not ship.cells:
        raise RuleError("FM-12.2", "not a landed spaceship")
    if state.controller[ship.colour] != player:
        raise RuleError("FM-12.4", "an opponent unit enters a ship only to capture it (FM-18)")
    if u.kind not in (TANK, GT, MB, BARGE, CRAB, WL) or not state.operational(u, player):
        raise RuleError("FM-12.2", "the unit must be your own operational unit on the board")
    if u.locked:
        raise RuleError("FM-15.5", "a locked unit cannot enter a ship")
    if not touches_pod(state, ship, u.cells, False):
        raise RuleError("FM-12.2", "the unit must be adjacent to a pod")
    if state.unit_under_fire(u, player):
        raise RuleError("FM-12.2", "the unit's cell is under enemy fire")
    if state.pool[player] < 1:
        raise RuleError("FM-9.2", "no action point left")


def enter(state: FMState, player: int, action: dict[str, Any]) -> None:
    """FM-12.2: a unit enters its own ship through any pod (1 AP); it and its cargo take the ship's colour."""
    u = state.unit(action.get("unit"))
    ship = state.unit(action.get("ship"))
    enter_check(state, player, u, ship)
    state.spend(player, 1)
    put_in(state, ship, u)
    settle(state, player)


def exit_ship(state: FMState, player: int, action: dict[str, Any]) -> None:
    """FM-12.3: leave through a pod with an intact turret onto a cell out of enemy fire (1 AP)."""
    unload(state, player, {"carrier": action.get("ship"), "item": action.get("unit"), "to": action.get("to")})


