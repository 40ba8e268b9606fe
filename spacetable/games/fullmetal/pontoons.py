"""Pontoons: anchoring and sinking (FM-14), and the destruction of a cell's contents (FM-16.3)."""

from __future__ import annotations

from .state import FMState, Unit


def groups(state: FMState) -> list[list[int]]:
    """Connected groups of pontoon cells."""
    seen: set[int] = set()
    out = []
    for start in state.pontoon_at:
        if start in seen:
            continue
        comp = [start]
        seen.add(start)
        todo = [start]
        while todo:
            c = todo.pop()
            for n in state.board.neigh[c]:
                if n in state.pontoon_at and n not in seen:
                    seen.add(n)
                    comp.append(n)
                    todo.append(n)
        out.append(sorted(comp))
    return out


def anchored(state: FMState, group: list[int] | set[int]) -> bool:
    """FM-14.2: a member stands on effective land or touches a pontoon-free land cell or a ship cell."""
    board = state.board
    for c in group:
        if board.land(c, state.tide):
            return True
        for n in board.neigh[c]:
            if state.is_ship_cell(n):
                return True
            if n not in state.pontoon_at and board.land(n, state.tide):
                return True
    return False


def would_anchor(state: FMState, cell: int) -> bool:
    """Would a pontoon laid on ``cell`` belong to an anchored group (FM-14.2)?"""
    group = {cell}
    todo = [cell]
    while todo:
        c = todo.pop()
        for n in state.board.neigh[c]:
            if n in state.pontoon_at and n not in group:
                group.add(n)
                todo.append(n)
    state.pontoon_at[cell] = -1
    try:
        return anchored(state, group)
    finally:
        del state.pontoon_at[cell]


def remove_unit(state: FMState, u: Unit) -> None:
    """Send a unit with all its cargo to the graveyard."""
    for c in list(u.cargo):
        remove_unit(state, state.units[c])
    for c in u.cells:
        if state.occ.get(c) == u.id:
            del state.occ[c]
        if state.pontoon_at.get(c) == u.id:
            del state.pontoon_at[c]
    if u.carrier >= 0 and u.carrier in state.units:
        state.units[u.carrier].cargo.remove(u.id)
    if u.kind == "turret" and u.ship in state.units:
        ship = state.units[u.ship]
        ship.turrets = [-1 if t == u.id else t for t in ship.turrets]
    state.graveyard.append(f"{u.kind}#{u.id}")
    del state.units[u.id]


def destroy_cell(state: FMState, cell: int) -> None:
    """FM-16.3: everything in the cell goes to the graveyard (a whole barge; a pontoon with its load)."""
    oid = state.occ.get(cell)
    if oid is not None:
        u = state.units[oid]
        if u.kind == "ship":
            tid = next((t for t, pod in zip(u.turrets, u.cells[1:], strict=True) if pod == cell and t >= 0), -1)
            if tid >= 0:
                remove_unit(state, state.units[tid])
            return
        remove_unit(state, u)
    pid = state.pontoon_at.get(cell)
    if pid is not None:
        remove_unit(state, state.units[pid])


def sink(state: FMState) -> None:
    """FM-14.3: destroy every unanchored pontoon group with everything on it."""
    for g in groups(state):
        if not anchored(state, g):
            for c in g:
                destroy_cell(state, c)
