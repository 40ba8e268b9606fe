"""The weather layer builds units from ore (FM-13.1, FM-13.2)."""

from __future__ import annotations

from typing import Any, Literal

from spacetable.core.errors import RuleError
from spacetable.core.moves import Count, Params

from .firezones import settle
from .pontoons import remove_unit
from .state import CRAB, ORE, PONTOON, TANK, WL, Cell, FMState
from .transport import put_on_board, unload_to_cells


class BuildParams(Params):
    """FM-13.1: the weather layer, what it builds, and the adjacent cell it builds on."""

    wl: Count
    kind: Literal["tank", "crab", "pontoon"]
    to: Cell


def build(state: FMState, player: int, action: dict[str, Any]) -> None:
    """``build(wl, kind, to)``, 1 AP: the WL turns the ore it holds into a tank, crab or pontoon (FM-13.1); the
    limits of FM-13.2 count per weather layer (FM-D13)."""
    wl = state.unit(action.get("wl"))
    kind = action.get("kind")
    if wl.kind != WL or not state.operational(wl, player):
        raise RuleError("FM-13.1", "the weather layer must be your own, operational and on the board")
    if state.unit_under_fire(wl, player):
        raise RuleError("FM-13.1", "the weather layer is under enemy fire")
    ores = [c for c in wl.cargo if state.units[c].kind == ORE]
    if not ores:
        raise RuleError("FM-13.1", "the weather layer must hold an ore")
    ore = state.units[ores[0]]
    if state.config["ore_values"] == "multi" and (ore.value == 5 or (ore.value == 0 and kind != PONTOON)):
        raise RuleError("FM-3.4", "this ore cannot build that")
    if kind not in (TANK, CRAB, PONTOON):
        raise RuleError("FM-13.1", "a weather layer builds a tank, a crab or a pontoon")
    if state.reserve.get(kind, 0) <= 0:
        raise RuleError("FM-13.1", f"no {kind} left in the reserve")
    if len(wl.builds) >= 2 or (kind in (CRAB, PONTOON) and kind in wl.builds):
        raise RuleError("FM-13.2", "at most 2 builds per weather layer and turn, never 2 crabs nor 2 pontoons")
    to = [state.cell_of(action.get("to"))]
    colour = -1 if kind == PONTOON else wl.colour
    new = state.new_unit(kind, colour, shots=2 if kind == TANK else 0)
    new.carrier = wl.id
    wl.cargo.append(new.id)
    unload_to_cells(state, player, wl, new, to)
    state.spend(player, 1)
    put_on_board(state, new, to)
    remove_unit(state, ore)
    state.graveyard.pop()
    state.reserve[kind] -= 1
    wl.builds.append(kind)
    settle(state, player)
