"""Legal-action enumeration (FM-6.1: what a player may do now).

Play is offered as single steps (FM-D50): one move step (1 AP), one load, one unload, one
shot pair, ... which compose every multi-step action (a longer path is valid input to
``apply`` too). Checks reuse the pure ``*_check`` / ``*_problem`` functions of the rule
modules, and coverage comes from the incremental ``state.cov``, so enumeration never
copies the state except to verify the rare actions whose legality depends on a full
settle (those are tried with the rule module's own function on a copy).

Deployment (FM-8.1) is offered as three canned formations (FM-D49): every unit, half of
them, or none; ``apply`` accepts any valid deployment.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from typing import Any

from spacetable.core.errors import RuleError
from spacetable.core.game import Action

from .capture import captor_problem
from .endgame import AGGRESSIVE, takeoff_cost
from .fire import assault, shooter_problem, target_problem
from .flow import to_act
from .mountains import end_turn_ok
from .movement import dest_check, move, step_check
from .spaceship import ORIENTATIONS, distance_floor, landing_problem, validate_deploy
from .state import (
    BARGE,
    CARRIES,
    CRAB,
    DESTROYERS,
    GT,
    MB,
    MOBILE,
    ORE,
    PONTOON,
    SHIP,
    TANK,
    TURRET,
    WL,
    FMState,
    Unit,
)
from .terrain import MOUNTAIN, PLAIN
from .transport import enter_check, gt_onto_mountain, load_check, pods, room_for, touches_pod, unload_to_cells


def _ok(fn: Callable[..., Any], *args: Any) -> bool:
    try:
        fn(*args)
    except RuleError:
        return False
    return True


def _trial(fn: Callable[[FMState, int, Action], None], state: FMState, player: int, action: Action) -> bool:
    """Would the rule function ``fn`` accept ``action``? (tried on a copy, as ``apply`` does)"""
    return _ok(fn, state.copy(), player, action)


def legal_actions(state: FMState, player: int) -> list[Action]:
    """Every legal action of ``player`` now, in a canonical order (``[]`` when not to act)."""
    if player not in to_act(state):
        return []
    if state.phase == "land":
        return landing_actions(state, player)
    if state.phase == "deploy":
        out = []
        for units in deployment_options(state, player):
            if _ok(validate_deploy, state.copy(), player, units):
                out.append({"type": "deploy", "units": units})
        return out
    if state.phase == "depart":
        ships = [s.id for s in state.ships_of(player)]
        out = []
        for mask in range(1 << len(ships)):
            out.append({"type": "decide_departure",
                        "choices": {str(s): ("leave" if mask >> i & 1 else "stay") for i, s in enumerate(ships)}})
        return out
    if state.phase != "play":
        return []
    return play_actions(state, player)


# ------------------------------------------------------------------ deployment
def deployment_options(state: FMState, player: int) -> list[list[dict[str, Any]]]:
    """FM-D49: the deployments offered as legal actions: a full formation, a half one, and nothing."""
    full = formation(state, player, all_units=True)
    half = formation(state, player, all_units=False)
    out = [full]
    if half != full:
        out.append(half)
    out.append([])
    return out


def formation(state: FMState, player: int, all_units: bool, copy_every_trial: bool = False) -> list[dict[str, Any]]:
    """Place units around the dome (FM-8.2): sea units on water, land units on land, nearest first.

    Each placement is tried on the scratch state itself: a single entry without cargo is refused by
    ``validate_deploy`` before anything is placed, except by FM-8.2's check of own tanks on adjacent mountains, which
    runs after the placement; only a tank tried on a mountain is tried on a copy first (a copy of the whole state for
    every try made the deployment list some 10 ms). ``copy_every_trial``: every try on a copy (the tests compare)."""
    scratch = state.copy()
    ship = scratch.units[scratch.ships[player]]
    dome = ship.cells[0]
    board = scratch.board
    radius = scratch.config["deploy_radius"]
    ring = sorted(board.disc(dome, radius), key=lambda c: (board.dist(c, dome), c))
    entries: list[dict[str, Any]] = []
    kinds_order = [BARGE, MB, TANK, GT, CRAB, WL]
    items = sorted([scratch.units[i] for i in ship.cargo if scratch.units[i].kind in kinds_order],
                   key=lambda u: (kinds_order.index(u.kind), u.id))
    if not all_units:
        items = [u for u in items if u.kind in (TANK, GT, MB, CRAB)][:5]
    for u in items:
        for c in ring:
            if board.dist(c, dome) < 2 and u.kind in (TANK, GT):
                continue
            if u.kind == BARGE:
                opts = [[c, n] for n in board.neigh[c] if n > c]
            else:
                opts = [[c]]
            done = False
            for cells in opts:
                at: Any = scratch.xy(cells[0]) if len(cells) == 1 else [scratch.xy(cells[0]), scratch.xy(cells[1])]
                entry = {"unit": u.id, "at": at}
                if u.kind in (MB, BARGE) and any(board.terrain[x] not in (0,) for x in cells):
                    continue
                if u.kind in (TANK, GT, CRAB, WL) and board.terrain[cells[0]] not in (PLAIN, MOUNTAIN):
                    continue
                if copy_every_trial or (u.kind == TANK and board.terrain[cells[0]] == MOUNTAIN):
                    try:
                        validate_deploy(scratch.copy(), player, [entry])
                    except RuleError:
                        continue
                try:
                    validate_deploy(scratch, player, [entry])
                except RuleError:
                    continue
                entries.append(entry)
                done = True
                break
            if done:
                break
    return entries


def landing_actions(state: FMState, player: int) -> list[Action]:
    """FM-7.2; FM-D51 when no site keeps ``landing_min_distance`` from the landed domes."""
    out = _landings(state, player, None)
    if not out:
        floor = distance_floor(state, player)
        if floor is not None:
            out = _landings(state, player, floor)
    return out


def _landings(state: FMState, player: int, floor: int | None) -> list[Action]:
    out = []
    for c in state.board.cells:
        for o in ORIENTATIONS:
            if landing_problem(state, player, c, o, floor) is None:
                out.append({"type": "land", "dome": state.xy(c), "orientation": o})
    return out


def play_actions(state: FMState, player: int) -> list[Action]:
    out: list[Action] = []
    xy = state.xy
    pool = state.pool[player]
    units = state.units
    board = state.board
    if end_turn_ok(state, player):
        out.append({"type": "end_turn"})
    mine = [u for u in units.values() if u.colour >= 0 and state.controller[u.colour] == player]
    neutralizes = any(player in u.neut for u in units.values())
    ships = [u for u in mine if u.kind == SHIP and u.cells]
    if pool >= 1:
        # retreats (FM-15.6)
        if state.retreat_window:
            for u in mine:
                if u.neut and state.on_board(u) and state.may_retreat(u):
                    for dest in _destinations(state, u):
                        if _ok(step_check, state, player, u, dest, True, False, True):
                            key = "to"
                            out.append({"type": "retreat", "unit": u.id, key: _pos(state, dest)})
        # moves, one step each (FM-10)
        for u in mine:
            if u.kind not in MOBILE or not state.on_board(u) or u.neut or u.locked or state.stranded(u):
                continue
            verify = neutralizes and u.kind in DESTROYERS
            for dest in _destinations(state, u):
                if not _ok(dest_check, state, player, u, dest, True):
                    continue
                action = {"type": "move", "unit": u.id, "path": [_pos(state, dest)]}
                if verify and not _trial(move, state, player, action):
                    continue
                out.append(action)
        # loads (FM-11.1, FM-12.4)
        for c in mine:
            if c.kind not in CARRIES or not c.cells or c.carrier >= 0:
                continue
            seen: set[int] = set()
            for cell in c.cells:
                for n in board.neigh[cell]:
                    for iid in (state.occ.get(n), state.pontoon_at.get(n)):
                        if iid is None or iid in seen or iid == c.id:
                            continue
                        seen.add(iid)
                        item = units[iid]
                        if item.kind == SHIP or item.kind == TURRET:
                            continue
                        if c.kind == SHIP and item.kind not in (ORE, PONTOON):
                            if _ok(enter_check, state, player, item, c):
                                out.append({"type": "enter", "unit": item.id, "ship": c.id})
                            continue
                        if _ok(load_check, state, player, c, item):
                            out.append({"type": "load", "carrier": c.id, "item": item.id})
        # unloads and exits (FM-11.2, FM-12.3)
        for c in mine:
            if c.kind not in CARRIES or not c.cells or c.carrier >= 0 or not c.cargo:
                continue
            if c.kind != SHIP and (not state.operational(c, player) or state.unit_under_fire(c, player)):
                continue
            around = _around(state, c)
            targets = [t for t in around if t not in state.occ and not state.under_fire(t, player)]
            memo: dict[tuple[str, bool, tuple[int, ...]], bool] = {}
            for iid in c.cargo:
                item = units[iid]
                if c.kind == SHIP and item.kind == ORE:
                    continue
                for dest in _placements(state, item, targets):
                    mkey = (item.kind, state.gt_inside(item), tuple(dest))
                    ok = memo.get(mkey)
                    if ok is None:
                        ok = memo[mkey] = _ok(unload_to_cells, state, player, c, item, dest)
                    if ok:
                        kind = "exit" if c.kind == SHIP else "unload"
                        if kind == "exit":
                            out.append({"type": "exit", "unit": item.id, "ship": c.id, "to": _pos(state, dest)})
                        else:
                            out.append({"type": "unload", "carrier": c.id, "item": item.id, "to": _pos(state, dest)})
                # transship into an adjacent carrier (FM-11.2); a ship's around-cells touch intact pods (FM-12.3)
                for other in mine:
                    if other is c or other.kind not in (BARGE, CRAB, WL) or not state.on_board(other):
                        continue
                    if any(n in around for n in other.cells) and room_for(state, other, item) and \
                            not gt_onto_mountain(state, other, item) and \
                            state.operational(other, player) and not state.unit_under_fire(other, player):
                        out.append({"type": "unload", "carrier": c.id, "item": item.id, "to": other.id})
                # straight into an own ship through any pod (FM-12.2, seed §9.1)
                if c.kind != SHIP:
                    for sh in ships:
                        if touches_pod(state, sh, c.cells, False):
                            out.append({"type": "unload", "carrier": c.id, "item": item.id, "to": sh.id})
        # builds (FM-13)
        for w in mine:
            if w.kind != WL or not state.operational(w, player) or state.unit_under_fire(w, player):
                continue
            if not any(units[i].kind == ORE for i in w.cargo) or len(w.builds) >= 2:
                continue
            ore = next(units[i] for i in w.cargo if units[i].kind == ORE)
            multi = state.config["ore_values"] == "multi"
            for kind in (TANK, CRAB, PONTOON):
                if state.reserve.get(kind, 0) <= 0 or (kind != TANK and kind in w.builds):
                    continue
                if multi and (ore.value == 5 or (ore.value == 0 and kind != PONTOON)):
                    continue
                probe = Unit(-1, kind, -1 if kind == PONTOON else w.colour)
                for n in board.neigh[w.cells[0]]:
                    if _ok(unload_to_cells, state, player, w, probe, [n]):
                        out.append({"type": "build", "wl": w.id, "kind": kind, "to": xy(n)})
        # captures (FM-17)
        captors = [d for d in mine if d.kind in DESTROYERS and captor_problem(state, player, d) is None]
        if len(captors) >= 2:
            cand: dict[int, list[Unit]] = {}
            for d in captors:
                for n in board.neigh[d.cells[0]]:
                    tid = state.occ.get(n)
                    if tid is None:
                        continue
                    t = units[tid]
                    if t.kind in (SHIP, ORE, TURRET):
                        continue
                    lst = cand.setdefault(tid, [])
                    if d not in lst:
                        lst.append(d)
            for tid, ds in sorted(cand.items()):
                t = units[tid]
                if state.unit_under_fire(t, player):
                    continue
                for a, b in combinations(ds, 2):
                    for colour in sorted({a.colour, b.colour}):
                        if state.ctl(t) == player and all(x.colour == colour for x in [t, *state.all_cargo(t)]
                                                           if x.kind not in (ORE, PONTOON)):
                            continue
                        out.append({"type": "capture", "a": a.id, "b": b.id, "target": tid, "colour": colour})
        # ship capture (FM-18.1) and repair (FM-18.4)
        for sid in state.ships:
            s = units[sid]
            if not s.cells or state.controller[s.colour] == player or any(t >= 0 for t in s.turrets):
                continue
            for d in captors:
                if d.kind in (TANK, GT, MB) and not d.locked and any(p in board.neigh[d.cells[0]] for p in s.cells[1:]):
                    out.append({"type": "capture_ship", "destroyer": d.id, "ship": sid})
        if pool >= 2:
            for s in ships:
                if s.captor == player:
                    for pod, t in zip(s.cells[1:], s.turrets, strict=True):
                        if t < 0 and not state.under_fire(pod, player):
                            out.append({"type": "repair", "ship": s.id, "pod": xy(pod)})
            out.extend(fire_actions(state, player, mine))
            out.extend(assault_actions(state, player, mine))
    # transfers (0 AP)
    for s in ships:
        inner = [units[i] for i in s.cargo]
        carriers = [c for c in inner if c.kind in (BARGE, CRAB, WL)]
        for item in inner:
            if item.kind == ORE:
                continue
            for c in carriers:
                if c is not item and room_for(state, c, item):
                    out.append({"type": "transfer", "from": s.id, "item": item.id, "to": c.id})
        for c in carriers:
            for iid in c.cargo:
                if units[iid].kind != ORE:
                    out.append({"type": "transfer", "from": c.id, "item": iid, "to": s.id})
    for b in mine:
        if b.kind == BARGE and state.operational(b, player):
            for cid in b.cargo:
                crab = units[cid]
                if crab.kind != CRAB:
                    continue
                for iid in b.cargo:
                    if iid != cid and room_for(state, crab, units[iid]):
                        out.append({"type": "transfer", "from": b.id, "item": iid, "to": cid})
                for iid in crab.cargo:
                    out.append({"type": "transfer", "from": cid, "item": iid, "to": b.id})
    # take-off (FM-20.2)
    turns = (21, 26) if state.config["endgame"] == "fmg" else (25,)
    if state.turn in turns:
        for s in ships:
            if takeoff_cost(state, s) <= pool:
                out.append({"type": "take_off", "ship": s.id})
    out.append({"type": "resign"})
    if state.config["endgame"] == "fmg" and state.turn == 21:
        out = [a for a in out if a["type"] not in AGGRESSIVE]  # FM-D41
    return out


def _pos(state: FMState, dest: list[int]) -> Any:
    return state.xy(dest[0]) if len(dest) == 1 else [state.xy(dest[0]), state.xy(dest[1])]


def _destinations(state: FMState, u: Unit) -> list[list[int]]:
    neigh = state.board.neigh
    if u.kind != BARGE:
        return [[n] for n in neigh[u.cells[0]]]
    out = []
    a, b = u.cells
    for kept, other in ((a, b), (b, a)):
        for n in neigh[kept]:
            if n != other:
                out.append([kept, n])
    return out


def _around(state: FMState, c: Unit) -> list[int]:
    if c.kind == SHIP:
        ps = pods(c, intact_only=True)
        return sorted({n for p in ps for n in state.board.neigh[p] if n not in c.cells})
    return sorted({n for cell in c.cells for n in state.board.neigh[cell] if n not in c.cells})


def _placements(state: FMState, item: Unit, targets: list[int]) -> list[list[int]]:
    if item.kind != BARGE:
        return [[t] for t in targets]
    out = []
    for t in targets:
        for n in state.board.neigh[t]:
            if n > t or n not in targets:
                out.append([t, n])
    return out


def fire_actions(state: FMState, player: int, mine: list[Unit]) -> list[Action]:
    """FM-16.1: every pair of shooters with a common legal target."""
    shooters = [d for d in mine if d.kind in DESTROYERS and d.shots > 0 and state.on_board(d)]
    reach: dict[int, set[int]] = {}
    target_ok: dict[int, bool] = {}
    for s in shooters:
        if s.kind != TURRET and (s.neut or state.stranded(s) or state.under_fire(s.cells[0], player)):
            continue
        cells = set()
        for c in state.board.disc(s.cells[0], state.fire_range(s)):
            ok = target_ok.get(c)
            if ok is None:
                ok = (c in state.occ or c in state.pontoon_at) and target_problem(state, player, c) is None
                target_ok[c] = ok
            if ok:
                cells.add(c)
        if state.config["barge_target"] == "either_hex":
            for c in list(target_ok):
                oid = state.occ.get(c)
                if target_ok[c] and oid is not None and state.units[oid].kind == BARGE and c not in cells \
                        and shooter_problem(state, s, player, c) is None:
                    cells.add(c)
        if cells:
            reach[s.id] = cells
    out: list[Action] = []
    ids = sorted(reach)
    for i, a in enumerate(ids):
        for b in ids[i + 1:]:
            for c in sorted(reach[a] & reach[b]):
                out.append({"type": "fire", "a": a, "b": b, "target": state.xy(c)})
    return out


def assault_actions(state: FMState, player: int, mine: list[Unit]) -> list[Action]:
    """FM-16.5: one-step assaults into enemy fire, with 1-2 shots at the defenders (verified by trial)."""
    if state.pool[player] < 3:
        return []
    out: list[Action] = []
    partners = [d for d in mine if d.kind in DESTROYERS and d.shots > 0 and state.on_board(d)
                and (d.kind == TURRET or (not d.neut and not state.stranded(d) and not state.under_fire(d.cells[0], player)))]
    for m in mine:
        if m.kind not in (TANK, GT, MB) or not state.on_board(m) or m.neut or m.locked or m.shots <= 0 or state.stranded(m):
            continue
        for n in state.board.neigh[m.cells[0]]:
            if not state.under_fire(n, player):
                continue
            if not _ok(step_check, state, player, m, [n], True, True):
                continue
            groups: dict[int, list[int]] = {}
            for p, cell, rng in state.proj.values():
                if p != player and state.board.dist(cell, n) <= rng:
                    groups.setdefault(p, []).append(cell)
            need = sum(max(0, len(g) - 1) for g in groups.values())
            if need == 0 or need > min(2, m.shots):
                continue
            m_range = 3 if m.kind == GT or (m.kind == TANK and state.board.terrain[n] == MOUNTAIN) else 2
            defenders = sorted({c for g in groups.values() for c in g if state.board.dist(n, c) <= m_range})
            singles = [{"partner": p.id, "target": state.xy(t)} for p in partners if p.id != m.id for t in defenders
                       if shooter_problem(state, p, player, t) is None]
            options: list[list[dict[str, Any]]] = []
            if need == 1:
                options = [[x] for x in singles]
            else:
                for x, y in combinations(singles, 2):
                    if x["target"] != y["target"]:
                        options.append([x, y])
            for shots in options[:40]:
                action = {"type": "assault", "mover": m.id, "path": [state.xy(n)], "shots": shots}
                if _trial(assault, state, player, action):
                    out.append(action)
    return out


__all__ = ["legal_actions"]
