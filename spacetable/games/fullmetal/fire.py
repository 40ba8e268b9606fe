"""Fire and the atomic second-arrival assault (FM-16)."""

from __future__ import annotations

from typing import Any

from spacetable.core.errors import RuleError
from spacetable.core.moves import Count, Params, bounded_list

from .firezones import settle, sync_cover
from .movement import parse_position, step
from .pontoons import destroy_cell, sink
from .state import BARGE, DESTROYERS, GT, MB, ORE, PONTOON, SHIP, TANK, TURRET, Cell, FMState, Unit


class FireParams(Params):
    """FM-16.1: two different destroyers and the cell both shoot at."""

    a: Count
    b: Count
    target: Cell


class Shot(Params):
    """One shot of an assault: the partner firing with the mover, and the target cell (FM-16.5)."""

    partner: Count
    target: Cell


class AssaultParams(Params):
    """FM-16.5: the mover, its path (the last step may enter enemy fire) and one or two shots."""

    mover: Count
    path: bounded_list(Cell, 64, 1)  # type: ignore[valid-type]
    shots: bounded_list(Shot, 2, 1)  # type: ignore[valid-type]


def shooter_problem(state: FMState, s: Unit, player: int, target: int, mover: int = -1) -> str | None:
    """FM-16.1: why ``s`` cannot shoot at ``target`` now (None: it can)."""
    if s.kind not in DESTROYERS or not state.on_board(s) or state.ctl(s) != player:
        return "the shooter must be your own destroyer on the board"
    if s.kind != TURRET and (s.neut or state.stranded(s)):
        return "the shooter must be operational"
    if s.shots <= 0:
        return "the shooter has no shot left"
    if s.kind != TURRET and s.id != mover and state.under_fire(s.cells[0], player):
        return "the shooter is under enemy fire"
    cells = [target]
    oid = state.occ.get(target)
    if oid is not None and state.units[oid].kind == BARGE and state.config["barge_target"] == "either_hex":
        cells = state.units[oid].cells
    if min(state.board.dist(s.cells[0], c) for c in cells) > state.fire_range(s):
        return "the target is out of range"
    return None


def target_problem(state: FMState, player: int, target: int) -> str | None:
    """FM-16.2: the cell holds something destroyable and nothing the shooter controls."""
    oid = state.occ.get(target)
    pid = state.pontoon_at.get(target)
    things: list[Unit] = []
    if oid is not None:
        u = state.units[oid]
        if u.kind == SHIP:
            idx = u.cells.index(target)
            if idx == 0 or u.turrets[idx - 1] < 0:
                return "domes and turretless pods are not targets"
            things.append(state.units[u.turrets[idx - 1]])
        else:
            things.append(u)
    if pid is not None:
        things.append(state.units[pid])
    if not things:
        return "nothing to destroy there"
    for t in things:
        for x in [t, *state.all_cargo(t)]:
            if x.kind not in (ORE, PONTOON) and state.ctl(x) == player:
                return "the cell holds a unit you control (FM-D15)"
    return None


def shoot(state: FMState, player: int, a: Unit, b: Unit, target: int, mover: int = -1) -> None:
    """Two shots on one cell: everything there is destroyed, then FM-14.3 (no settle)."""
    if a.id == b.id:
        raise RuleError("FM-16.1", "two different destroyers fire")
    for s in (a, b):
        why = shooter_problem(state, s, player, target, mover)
        if why:
            raise RuleError("FM-16.1", why)
    why = target_problem(state, player, target)
    if why:
        raise RuleError("FM-16.2", why)
    if state.config["turret_ammo"] == "unlimited":
        for s in (a, b):
            if s.kind != TURRET:
                s.shots -= 1
    else:
        a.shots -= 1
        b.shots -= 1
    state.spend(player, 2)
    destroy_cell(state, target)
    sink(state)
    sync_cover(state)


def fire(state: FMState, player: int, action: dict[str, Any]) -> None:
    """``fire(a, b, target)``, 2 AP (FM-16.1, FM-16.2, FM-16.3)."""
    a, b = state.unit(action.get("a")), state.unit(action.get("b"))
    target = state.cell_of(action.get("target"))
    shoot(state, player, a, b, target)
    settle(state, player)


def assault(state: FMState, player: int, action: dict[str, Any]) -> None:
    """FM-16.5 second arrival: steps (the last may enter enemy fire), then 1 or 2 shots with the mover; atomic,
    and only destroyed defenders count (FM-D8)."""
    mover = state.unit(action.get("mover"))
    if mover.kind not in (TANK, GT, MB):
        raise RuleError("FM-16.5", "the mover is a tank, GT or motor boat")
    path = action.get("path")
    shots = action.get("shots")
    if not isinstance(path, list) or not path or not isinstance(shots, list) or not 1 <= len(shots) <= 2:
        raise RuleError("CORE-ACTION", "assault needs a path and 1-2 shots")
    groups: dict[int, set[int]] = {}
    for k, pos in enumerate(path):
        dest = parse_position(state, pos, mover.kind == BARGE)
        last = k == len(path) - 1
        if last:
            for uid, (p, cell, rng) in state.proj.items():
                if p != player and state.board.dist(cell, dest[0]) <= rng:
                    groups.setdefault(p, set()).add(uid)
        step(state, player, mover, dest, last=last, assault_last=last, exempt=mover.id if last else -1)
    for sh in shots:
        if not isinstance(sh, dict):
            raise RuleError("CORE-ACTION", "a shot is {partner, target}")
        partner = state.unit(sh.get("partner"))
        target = state.cell_of(sh.get("target"))
        shoot(state, player, mover, partner, target, mover=mover.id)
    for p, members in groups.items():
        if sum(1 for uid in members if uid in state.units and state.on_board(state.units[uid])) >= 2:
            raise RuleError("FM-16.5", f"at least two defenders of player {p} survive")
    settle(state, player)
    if state.unit_under_fire(mover, player):
        raise RuleError("FM-16.5", "the mover ends under enemy fire")


__all__ = ["assault", "fire"]
