"""Movement, the barge's two cells and retreat (FM-10, FM-15.6)."""

from __future__ import annotations

from typing import Any

from spacetable.core.errors import RuleError
from spacetable.core.moves import Count, Params, bounded_list

from .firezones import settle
from .state import BARGE, GT, LAND_UNITS, MOBILE, SEA_UNITS, Cell, FMState, Pair, Unit
from .terrain import MOUNTAIN


class MoveParams(Params):
    """FM-10.1: a unit and its path, one cell (a barge: a pair of cells) per step."""

    unit: Count
    path: bounded_list(Cell | Pair, 64, 1)  # type: ignore[valid-type]


class RetreatParams(Params):
    """FM-15.6: a neutralized unit and the cell (a barge: the pair) it retreats to."""

    unit: Count
    to: Cell | Pair


def parse_position(state: FMState, value: Any, barge: bool) -> list[int]:
    """A cell ``[x, y]`` or, for a barge, a pair ``[[x, y], [x, y]]``."""
    if barge:
        if not (isinstance(value, (list, tuple)) and len(value) == 2 and all(isinstance(v, (list, tuple)) for v in value)):
            raise RuleError("FM-10.4", f"a barge position is a pair of cells, got {value!r}")
        return [state.cell_of(value[0]), state.cell_of(value[1])]
    return [state.cell_of(value)]


def free_for(state: FMState, u: Unit, cell: int) -> str | None:
    """FM-4.3 / FM-10.1 (b) / FM-10.2: why ``u`` may not occupy ``cell`` (None: it may); an ore fills its cell
    (FM-3.2)."""
    oid = state.occ.get(cell)
    if oid is not None and oid != u.id:
        return "FM-4.3"
    if cell in state.pontoon_at:
        if u.kind in SEA_UNITS:
            return "FM-10.2"
        if u.kind == GT and state.board.terrain[cell] == MOUNTAIN:
            return "FM-10.2"
    return None


def barge_step_ok(state: FMState, old: list[int], new: list[int]) -> int:
    """FM-10.4: the new pair keeps one cell and adds one adjacent to the kept cell; returns the new cell. Forward,
    backward and pivot steps alike cost 1, and a barge has no orientation (FM-D11)."""
    if new[0] == new[1] or new[1] not in state.board.neigh[new[0]]:
        raise RuleError("FM-10.4", "a barge occupies two adjacent cells")
    kept = set(old) & set(new)
    if len(kept) != 1:
        raise RuleError("FM-10.4", "a barge step keeps exactly one of its cells")
    (k,) = kept
    (added,) = set(new) - kept
    if added not in state.board.neigh[k]:
        raise RuleError("FM-10.4", "the new cell must touch the kept one")
    return added


def place(state: FMState, u: Unit, cells: list[int]) -> None:
    for c in u.cells:
        if state.occ.get(c) == u.id:
            del state.occ[c]
    u.cells = list(cells)
    for c in cells:
        state.occ[c] = u.id


def step_check(state: FMState, player: int, u: Unit, dest: list[int], last: bool, assault_last: bool = False,
               retreat: bool = False) -> None:
    """Pure check of one FM-10.1 step of ``u`` to ``dest`` (a cell, or a barge pair): rules (a)-(d)."""
    if not state.on_board(u) or state.ctl(u) != player:
        raise RuleError("FM-10.1", "only your own units on the board move")
    if u.kind not in MOBILE:
        raise RuleError("FM-10.1", f"a {u.kind} does not move")
    if state.stranded(u):
        raise RuleError("FM-2.2", "a stranded unit cannot move")
    if u.neut and not retreat:
        raise RuleError("FM-15.3", "a neutralized unit cannot move (only retreat)")
    if u.locked:
        raise RuleError("FM-15.5", "a locked unit cannot change cell")
    dest_check(state, player, u, dest, last, assault_last, retreat)


def dest_check(state: FMState, player: int, u: Unit, dest: list[int], last: bool, assault_last: bool = False,
               retreat: bool = False) -> None:
    """The destination part of :func:`step_check` (FM-10.1 (b), (c) and (d); FM-10.2, FM-10.3, FM-10.4) for a unit already known
    to be able to step (own, on the board, mobile, not stranded, locked or neutralized unless retreating)."""
    if u.kind == BARGE:
        if len(dest) != 2:
            raise RuleError("FM-10.4", "a barge moves to a pair of cells")
        new_cells = [barge_step_ok(state, u.cells, dest)]
    else:
        if len(dest) != 1 or dest[0] not in state.board.neigh[u.cells[0]]:
            raise RuleError("FM-10.1", "each step goes to an adjacent cell")
        new_cells = dest
    for c in new_cells:
        why = free_for(state, u, c)
        if why:
            raise RuleError(why, f"cell {state.xy(c)} is not free for a {u.kind}")
        if not assault_last and state.under_fire(c, player):
            raise RuleError("FM-10.1", f"cell {state.xy(c)} is under enemy fire")
    if retreat and any(state.under_fire(c, player) for c in dest):
        raise RuleError("FM-15.6", "a retreat ends out of enemy fire")
    strand_ok = last and not retreat
    for c in dest:
        if not state.suits(u, c, strand_ok):
            if u.kind in LAND_UNITS and state.open_sea(c):
                raise RuleError("FM-10.3", "land units never enter open sea")
            raise RuleError("FM-10.3" if strand_ok else "FM-2.2", f"a {u.kind} cannot go to {state.xy(c)} now")
    if state.pool[player] < 1:
        raise RuleError("FM-9.2", "no action point left")


def step(state: FMState, player: int, u: Unit, dest: list[int], last: bool, assault_last: bool = False,
         exempt: int = -1, retreat: bool = False) -> None:
    """One FM-10.1 step, 1 AP; then settle and rule (e): the unit must not end under enemy fire."""
    step_check(state, player, u, dest, last, assault_last, retreat)
    state.spend(player, 1)
    place(state, u, dest)
    if retreat:
        u.neut = []
    settle(state, player, exempt=exempt)
    if exempt != u.id and state.unit_under_fire(u, player):
        raise RuleError("FM-10.1", "the unit would end under enemy fire")


def move(state: FMState, player: int, action: dict[str, Any]) -> None:
    """``move(unit, path)``: 1 AP per step (FM-10)."""
    u = state.unit(action.get("unit"))
    path = action.get("path")
    if not isinstance(path, list) or not path:
        raise RuleError("CORE-ACTION", "move needs a non-empty path")
    for k, pos in enumerate(path):
        step(state, player, u, parse_position(state, pos, u.kind == BARGE), last=k == len(path) - 1)


def retreat(state: FMState, player: int, action: dict[str, Any]) -> None:
    """FM-15.6: a neutralized unit retreats one cell out of fire, before any other action, for 1 AP, and then acts
    normally (FM-D9); who may use the window is :meth:`FMState.may_retreat` (FM-D29)."""
    if not state.retreat_window:
        raise RuleError("FM-15.6", "retreat only before your first other action of the turn")
    u = state.unit(action.get("unit"))
    if not u.neut:
        raise RuleError("FM-15.6", "only neutralized units retreat")
    if not state.may_retreat(u):
        raise RuleError("FM-15.6", "after a ship capture only the acquired units may retreat (FM-18.2)")
    dest = parse_position(state, action.get("to"), u.kind == BARGE)
    step(state, player, u, dest, last=True, retreat=True)
