"""Fire zones: incremental coverage bookkeeping and neutralization (FM-15).

``state.cov[p][c]`` is cov_p(c) of FM-15.2. ``state.proj`` records, for each
projecting destroyer, the ``[player, cell, range]`` it contributed. :func:`sync_cover`
compares that record with the destroyers' current situation and only adds or
subtracts the discs that changed, so legal-action enumeration and the rules never
rebuild the whole map's coverage; :func:`full_cover` is the reference recomputation.
"""

from __future__ import annotations

from .state import DESTROYERS, SHIP, TURRET, FMState, Unit


def projection(state: FMState, u: Unit) -> list[int] | None:
    if u.kind not in DESTROYERS or not state.projects(u):
        return None
    return [state.ctl(u), u.cells[0], state.fire_range(u)]


def sync_cover(state: FMState) -> None:
    """Bring ``cov`` up to date with the destroyers' positions and states (incremental)."""
    board = state.board
    if state.config["mountain_tanks"] == "end_of_turn" and state.disq:
        state.disq = [t for t in state.disq if t in state.units and state.mountain_partners(state.units[t])]
    seen = set()
    for u in state.units.values():
        if u.kind not in DESTROYERS:
            continue
        want = projection(state, u)
        have = state.proj.get(u.id)
        if want is not None:
            seen.add(u.id)
        if want == have:
            continue
        if have is not None:
            row = state.cov[have[0]]
            for c in board.disc(have[1], have[2]):
                row[c] -= 1
            del state.proj[u.id]
        if want is not None:
            row = state.cov[want[0]]
            for c in board.disc(want[1], want[2]):
                row[c] += 1
            state.proj[u.id] = want
    for uid in [k for k in state.proj if k not in seen]:
        have = state.proj.pop(uid)
        row = state.cov[have[0]]
        for c in board.disc(have[1], have[2]):
            row[c] -= 1


def full_cover(state: FMState) -> list[list[int]]:
    """Coverage recomputed from scratch (reference for tests)."""
    board = state.board
    cov = [[0] * board.size for _ in range(state.num_players)]
    for u in state.units.values():
        p = projection(state, u)
        if p is not None:
            for c in board.disc(p[1], p[2]):
                cov[p[0]][c] += 1
    return cov


def unit_cov(state: FMState, u: Unit, x: int) -> int:
    """cov_X(u): the highest coverage by X over the unit's cells (a barge is under fire if either cell is)."""
    return max(state.cov[x][c] for c in u.cells)


def settle(state: FMState, active: int, exempt: int = -1, lock: bool = True) -> None:
    """FM-15.4 settle with active-player priority, plus the FM-15.5 lock: neutralization is persistent and
    immediate, and only removing the neutralizers frees a victim (FM-D7)."""
    sync_cover(state)
    released: set[tuple[int, int]] = set()
    seat_order = [active] + [p for p in state.order if p != active]
    seat_order += [p for p in range(state.num_players) if p not in seat_order]
    while True:
        changed = True
        while changed:
            changed = False
            for u in state.units.values():
                if not u.neut:
                    continue
                owner = state.ctl(u)
                keep = []
                for x in u.neut:
                    if not state.on_board(u) or x == owner or unit_cov(state, u, x) < 2:
                        released.add((u.id, x))
                        changed = True
                    else:
                        keep.append(x)
                if len(keep) != len(u.neut):
                    u.neut = keep
            if changed:
                sync_cover(state)
        found = None
        for x in seat_order:
            if state.eliminated[x] >= 0:
                continue
            row = state.cov[x]
            best = None
            for u in state.units.values():
                if u.kind in (TURRET, SHIP) or not u.cells or u.carrier >= 0 or u.id == exempt:
                    continue
                owner = state.ctl(u)
                if owner < 0 or owner == x or x in u.neut or (u.id, x) in released:
                    continue
                if max(row[c] for c in u.cells) >= 2 and (best is None or u.id < best.id):
                    best = u
            if best is not None:
                found = (best, x)
                break
        if found is None:
            return
        victim, x = found
        victim.neut.append(x)
        if lock and x == active and state.config["neutralization"] == "original" and state.phase == "play":
            for uid, (p, cell, rng) in list(state.proj.items()):
                if p == x and any(state.board.dist(cell, c) <= rng for c in victim.cells):
                    state.units[uid].locked = True
        sync_cover(state)
