"""Capture of units, capture and repair of spaceships (FM-17, FM-18)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from spacetable.core.errors import RuleError
from spacetable.core.moves import Count, Params

from .firezones import settle
from .state import DESTROYERS, GT, MB, ORE, PONTOON, SHIP, TANK, TURRET, Cell, FMState, Unit
from .transport import pods, put_in


class CaptureParams(Params):
    """FM-17.1: two adjacent destroyers, the target unit, and the colour it takes (one of the captors'; by
    default the first captor's, FM-D16)."""

    a: Count
    b: Count
    target: Count
    colour: Annotated[int, Field(ge=0, le=3)] | None = None


class CaptureShipParams(Params):
    """FM-18.1: the destroyer next to a pod, and the turretless opponent ship."""

    destroyer: Count
    ship: Count


class RepairParams(Params):
    """FM-18.4: a captured ship and the pod whose turret is rebuilt."""

    ship: Count
    pod: Cell


def recolour(state: FMState, u: Unit, colour: int) -> None:
    """FM-17.2: the unit and its cargo take ``colour`` and are operational at once (a deactivated unit too,
    FM-D28); captured destroyers get 2 shots and lose any lock (FM-D35)."""
    for sub in [u, *state.all_cargo(u)]:
        if sub.kind not in (ORE, PONTOON):
            sub.colour = colour
            sub.neut = []
            sub.locked = False
            if sub.kind in DESTROYERS:
                sub.shots = 2


def captor_problem(state: FMState, player: int, d: Unit, moving: bool = False) -> str | None:
    """FM-17.1 / FM-18.1: why ``d`` cannot capture. A locked destroyer may capture (FM-15.5, FM-21, FM-D37: a lock
    only forbids changing cell), but cannot enter a ship to take it (``moving``); a turret captures only from a
    pod out of enemy fire (FM-D38)."""
    if d.kind not in DESTROYERS or not state.on_board(d) or state.ctl(d) != player:
        return "captors are your own destroyers on the board"
    if d.kind != TURRET and (d.neut or state.stranded(d)):
        return "captors must be operational"
    if d.locked and moving:
        return "a locked unit cannot change cell (FM-15.5)"
    if state.unit_under_fire(d, player):
        return "captors must be out of enemy fire"
    return None


def capture(state: FMState, player: int, action: dict[str, Any]) -> None:
    """``capture(a, b, target[, colour])``, 1 AP (FM-17.1): the target may be an own unit of another colour, or an
    own carrier holding something of another colour (FM-D35, FM-18.3); the colour is one of the captors' (FM-D16)."""
    a, b = state.unit(action.get("a")), state.unit(action.get("b"))
    target = state.unit(action.get("target"))
    if a.id == b.id:
        raise RuleError("FM-17.1", "two different destroyers capture")
    for d in (a, b):
        why = captor_problem(state, player, d)
        if why:
            raise RuleError("FM-17.1", why)
    if target.kind in (SHIP, TURRET, PONTOON, ORE) or not state.on_board(target):
        raise RuleError("FM-17.1", "the target is a unit on the board (not a ship, turret, pontoon or ore)")
    colour = action.get("colour")
    if colour is None:
        colour = a.colour
    if colour not in (a.colour, b.colour):
        raise RuleError("FM-17.1", "the colour is one of the captors' colours (FM-D16)")
    if state.ctl(target) == player and all(x.colour == colour for x in [target, *state.all_cargo(target)]
                                           if x.kind not in (ORE, PONTOON)):
        raise RuleError("FM-17.1", "the target and its cargo already have that colour")
    for d in (a, b):
        if not any(n in state.board.neigh[c] for c in d.cells for n in target.cells):
            raise RuleError("FM-17.1", "both captors must be adjacent to the target")
    if state.unit_under_fire(target, player):
        raise RuleError("FM-17.1", "the target is under enemy fire")
    state.spend(player, 1)
    recolour(state, target, colour)
    settle(state, player)


def capture_ship(state: FMState, player: int, action: dict[str, Any]) -> None:
    """``capture_ship(d, ship)``, 1 AP then +5 (FM-18.1, FM-18.2); a former controller left without a ship is
    eliminated (FM-20.6)."""
    d = state.unit(action.get("destroyer"))
    ship = state.unit(action.get("ship"))
    if ship.kind != SHIP or not ship.cells:
        raise RuleError("FM-18.1", "not a landed spaceship")
    if state.controller[ship.colour] == player:
        raise RuleError("FM-18.1", "you already control this ship")
    if any(t >= 0 for t in ship.turrets):
        raise RuleError("FM-18.1", "all three turrets must be destroyed first")
    if d.kind not in (TANK, GT, MB):
        raise RuleError("FM-18.1", "only a tank, GT or motor boat captures a ship")
    why = captor_problem(state, player, d, moving=True)
    if why:
        raise RuleError("FM-18.1", why)
    if not any(p in state.board.neigh[d.cells[0]] for p in pods(ship)):
        raise RuleError("FM-18.1", "the destroyer must be adjacent to a pod")
    former = state.controller[ship.colour]
    state.spend(player, 1)
    state.controller[ship.colour] = player
    ship.captor = player
    put_in(state, ship, d)
    for u in state.units.values():
        if u.colour == ship.colour:
            # seed §9.2: "at once useful for any action" (as a captured unit, FM-17.2; FM-D36)
            u.locked = False
            if u.kind in DESTROYERS:
                u.shots = 2
    state.pool[player] += 5  # FM-9.4: +5 AP at once (ap.income adds +5 per extra ship later)
    if former >= 0 and not state.ships_of(former) and state.eliminated[former] < 0:
        state.eliminated[former] = state.lot_counter_next()
        state.saved[former] = 0
    settle(state, player)
    acquired = [u.id for u in state.units.values() if u.colour == ship.colour and u.neut and state.on_board(u)]
    if not state.retreat_window:
        # FM-18.2 / seed §9.3: a window for the acquired neutralized units only (none: it stays closed)
        state.retreat_window = bool(acquired)
        state.retreat_only = acquired if acquired else None
    elif state.retreat_only is not None:
        state.retreat_only = sorted(set(state.retreat_only) | set(acquired))


def repair(state: FMState, player: int, action: dict[str, Any]) -> None:
    """``repair(ship, pod)``, 2 AP: only by the player who captured the ship (FM-18.4)."""
    ship = state.unit(action.get("ship"))
    if ship.kind != SHIP or not ship.cells:
        raise RuleError("FM-18.4", "not a landed spaceship")
    if ship.captor != player or state.controller[ship.colour] != player:
        raise RuleError("FM-18.4", "only the player who captured the ship and controls it repairs it")
    pod = state.cell_of(action.get("pod"))
    if pod not in ship.cells[1:]:
        raise RuleError("FM-18.4", "that cell is not a pod of the ship")
    idx = ship.cells.index(pod) - 1
    if ship.turrets[idx] >= 0:
        raise RuleError("FM-18.4", "the turret is intact")
    if state.under_fire(pod, player):
        raise RuleError("FM-18.4", "not on a pod under enemy fire")
    state.spend(player, 2)
    t = state.new_unit(TURRET, ship.colour, cells=[pod], ship=ship.id, shots=2)
    ship.turrets[idx] = t.id
    settle(state, player)


__all__ = ["capture", "capture_ship", "repair"]
