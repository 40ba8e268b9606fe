"""Movement of small, medium and large ships, the warp gate, and reachable footprints
(BG-10, BG-11 via :mod:`.ecm`, BG-15.4, BG-15.6; D-3, D-4).

A ship spends 0…``move`` points along one continuous path of directions (D-4), each step costing
1, or 2 when it newly covers a debris hex (BG-15.6). **Small** ships step to an adjacent hex (BG-10.2).
**Medium** ships name a **lead** hex for the whole move (D-3): each step moves the lead to an
adjacent hex other than the trailing hex and the trail moves into the hex the lead left
(BG-10.3). **Large** rosettes move as a whole one hex per step, newly covering exactly 3 hexes for
one point (BG-10.4). After every step every hex of the footprint is a full, non-asteroid hex
(BG-10.5); passing through ships is allowed, ending on one is not (BG-10.6). ECM resolves at once
in path order (BG-11). The final footprint flips face-down tiles under it (BG-15.2).

``reachable`` lists every final footprint with one canonical path: the least expected ECM damage,
then the fewest points, then the first in direction order (the legal-action list and the
browser's reachable-footprint display use it; any other legal path is accepted too).

The **warp gate** (BG-15.4): a small or medium ship that *begins* its activation on a face-up gate
may instead be placed on empty hexes each within 13 of the gate. This is a placement: no ECM and
no movement points.
"""

from __future__ import annotations

from dataclasses import dataclass

from spacetable.core.errors import RuleError

from .board import Board, Hex, distance, rosette, step
from .ecm import contact_set, enemy_ships, expected, resolve
from .state import Activation, GState
from .stats import move_points, size_of
from .tiles import flip_under

WARP_RANGE = 13  # BG-15.4
Pos = tuple[Hex, ...]


def require_activation(s: GState, seat: int, piece: str | None = None) -> Activation:
    """The open activation of the seat's side (BG-9.2); with ``piece``, a living ship of its card."""
    act = s.activation
    if act is None or s.side_of(seat) != s.active:
        raise RuleError("BG-9.2", "no activation is open")
    if piece is not None:
        p = s.pieces.get(piece)
        if p is None or p.card != act.card or not p.alive or not p.hexes:
            raise RuleError("BG-9.2", f"{piece} is not a ship of the activated card on the board")
    return act


# ------------------------------------------------------------------------------ stepping
def footprint(size: str, pos: Pos) -> tuple[Hex, ...]:
    if size == "large":
        return tuple(rosette(pos[0]))
    return pos


def start_pos(size: str, hexes: list[Hex], lead: Hex | None) -> Pos:
    if size == "large":
        return (hexes[0],)
    if size == "medium":
        a, b = hexes
        return (a, b) if lead == a else (b, a)
    return (hexes[0],)


def advance(board: Board, size: str, pos: Pos, d: int) -> tuple[Pos, int] | str:
    """One step in direction ``d``: the new position and its cost, or the rule it breaks."""
    if size == "small":
        h = step(pos[0], d)
        if h not in board.full:
            return "BG-10.5"
        if h in board.asteroids:
            return "BG-15.6"
        return (h,), 2 if h in board.debris else 1
    if size == "medium":
        lead, trail = pos
        h = step(lead, d)
        if h == trail:
            return "BG-10.3"
        if h not in board.full:
            return "BG-10.5"
        if h in board.asteroids:
            return "BG-15.6"
        return (h, lead), 2 if h in board.debris else 1
    c = pos[0]
    nc = step(c, d)
    old = set(rosette(c))
    new = [h for h in rosette(nc) if h not in old]
    for h in new:
        if h not in board.full:
            return "BG-10.5"
        if h in board.asteroids:
            return "BG-15.6"
    return (nc,), 2 if any(h in board.debris for h in new) else 1


# ------------------------------------------------------------------------------- moving
def move(s: GState, seat: int, a: dict) -> None:
    """BG-10 move one ship of the activated card along ``path`` (ECM resolves in path order)."""
    piece = a["ship"]
    act = require_activation(s, seat, piece)
    if act.step == "attack":
        raise RuleError("BG-9.3", "movement has ended for this activation")
    if piece in act.moved:
        raise RuleError("D-4", f"{piece} has already moved in this activation")
    p = s.pieces[piece]
    size = size_of(s, p.card)
    lead = tuple(a["lead"]) if a.get("lead") is not None else None
    if size == "medium":
        if lead is None or lead not in p.hexes:
            raise RuleError("BG-10.3", "a medium ship names one of its two hexes as the lead")
    elif lead is not None:
        raise RuleError("BG-10.3", "only medium ships name a lead")
    path = list(a["path"])
    if not path:
        raise RuleError("BG-10.1", "a move needs at least one step")
    board = s.geo
    pos = start_pos(size, p.hexes, lead)  # type: ignore[arg-type]
    cost = 0
    positions = []
    for d in path:
        got = advance(board, size, pos, d)
        if isinstance(got, str):
            raise RuleError(got, f"step {d} from {[list(h) for h in footprint(size, pos)]} leaves the playable hexes"
                            if got != "BG-10.3" else "the lead cannot step onto the trailing hex")
        pos, c = got
        cost += c
        positions.append(pos)
    limit = move_points(s, piece)
    if cost > limit:
        raise RuleError("BG-10.1", f"the path costs {cost} points; {piece} has {limit}")
    final = footprint(size, pos)
    occ = s.occupied(exclude=piece)
    if any(h in occ for h in final):
        raise RuleError("BG-10.6", "a move cannot end on an occupied hex")
    # legal: walk the path with ECM (BG-11)
    act.moved.append(piece)
    act.step = "move"
    enemies = enemy_ships(s, piece)
    prev = contact_set(footprint(size, start_pos(size, p.hexes, lead)), enemies)  # type: ignore[arg-type]
    triggered: set[str] = set()
    dmg = {eid: d for eid, _, d in enemies}
    s.log({"t": "move", "ship": piece, "from": [list(h) for h in p.hexes], "path": path, "cost": cost})
    for pos in positions:
        fp = footprint(size, pos)
        now = contact_set(fp, enemies)
        new = sorted((now - prev) - triggered)
        prev = now
        if new:
            triggered.update(new)
            p.hexes = list(fp)
            if not resolve(s, piece, [(e, dmg[e]) for e in new]):
                return  # BG-11.4 the rest of the path is void
    p.hexes = list(final)
    flip_under(s, final)


def end_movement(s: GState, seat: int, a: dict) -> None:
    """BG-9.3 all of the card's movement ends before any of its attacks."""
    act = require_activation(s, seat)
    if act.step == "attack":
        raise RuleError("BG-9.3", "movement has already ended")
    act.step = "attack"


# --------------------------------------------------------------------------------- warp
def gate_under(s: GState, piece: str) -> Hex | None:
    p = s.pieces[piece]
    cover = set(p.hexes)
    for t in s.tiles:
        if t.kind == "warp_gate" and t.face == "up" and t.hex in cover:
            return t.hex
    return None


def placement_ok(s: GState, size: str, hexes: list[Hex], exclude: str = "") -> str | None:
    """A footprint of ``size`` on empty, open hexes (placements by powers, cards, tiles)."""
    if (size == "small" and len(hexes) != 1) or (size == "medium" and (len(hexes) != 2 or distance(*hexes) != 1)):
        return "a small ship covers 1 hex, a medium ship 2 adjacent hexes"
    if size == "large":
        return "large ships are never placed this way"
    board = s.geo
    occ = s.occupied(exclude=exclude)
    for h in hexes:
        if not board.open(h):
            return f"{list(h)} is not a playable hex"
        if h in occ:
            return f"{list(h)} is occupied"
    return None


def warp(s: GState, seat: int, a: dict) -> None:
    """BG-15.4 place a ship that began its activation on the warp gate within 13 of it."""
    piece = a["ship"]
    act = require_activation(s, seat, piece)
    if act.step == "attack":
        raise RuleError("BG-9.3", "movement has ended for this activation")
    if piece in act.moved:
        raise RuleError("D-4", f"{piece} has already moved in this activation")
    if piece not in act.on_gate:
        raise RuleError("BG-15.4", "only a ship that began its activation on a face-up warp gate may warp")
    p = s.pieces[piece]
    size = size_of(s, p.card)
    if size == "large":
        raise RuleError("BG-15.4", "only small and medium ships warp")
    gate = gate_under(s, piece)
    if gate is None:  # pragma: no cover - the ship cannot leave the gate before warping
        raise RuleError("BG-15.4", "the ship is not on a warp gate")
    hexes = [tuple(h) for h in a["hexes"]]
    problem = placement_ok(s, size, hexes, exclude=piece)  # type: ignore[arg-type]
    if problem:
        raise RuleError("BG-15.4", problem)
    if any(distance(h, gate) > WARP_RANGE for h in hexes):  # type: ignore[arg-type]
        raise RuleError("BG-15.4", "every hex must be within 13 of the gate")
    act.moved.append(piece)
    act.step = "move"
    s.log({"t": "warp", "ship": piece, "from": [list(h) for h in p.hexes], "to": [list(h) for h in hexes]})
    p.hexes = hexes  # type: ignore[assignment]
    flip_under(s, p.hexes)


def warp_options(s: GState, piece: str) -> list[list[Hex]]:
    """Canonical warp placements: every empty hex within 13 for a small ship; for a medium ship
    one footprint per first hex (its first empty neighbour in direction order)."""
    gate = gate_under(s, piece)
    if gate is None:
        return []
    p = s.pieces[piece]
    size = size_of(s, p.card)
    if size == "large":
        return []
    board = s.geo
    occ = s.occupied(exclude=piece)
    cur = set(p.hexes)

    def free(h: Hex) -> bool:
        return board.open(h) and h not in occ and distance(h, gate) <= WARP_RANGE

    out: list[list[Hex]] = []
    for h in board.order:
        if not free(h):
            continue
        if size == "small":
            if h not in cur:
                out.append([h])
            continue
        for d in range(6):
            h2 = step(h, d)
            if free(h2) and {h, h2} != cur:
                out.append([h, h2])
                break
    return out


# ------------------------------------------------------------------------ reachability
@dataclass
class Route:
    """One reachable final footprint: its canonical path, cost and ECM exposure."""

    hexes: list[Hex]
    lead: Hex | None
    path: list[int]
    cost: int
    ecm: float
    rolls: int

    def action(self, piece: str) -> dict:
        return {"type": "move", "ship": piece, "lead": list(self.lead) if self.lead else None, "path": list(self.path)}

    def to_json(self) -> dict:
        return {"hexes": [list(h) for h in self.hexes], "lead": list(self.lead) if self.lead else None,
                "path": self.path, "cost": self.cost, "ecm_expected": round(self.ecm, 3), "ecm_rolls": self.rolls}


def reachable(s: GState, piece: str, least_ecm: bool = True, exposure: bool = True) -> list[Route]:
    """Every footprint ``piece`` may end its move on, with a canonical path to it (BG-10, BG-11).

    With ``least_ecm`` (the views, ``move_to``, the AI): the path with the least expected ECM damage,
    then the fewest points — a search over (position, enemies already triggered) by path cost; the
    expected ECM damage of a path depends only on the set of enemies it triggers. Without it (the
    legal-action list, which must be fast): the first path with the fewest points, its ECM exposure
    counted along it (not even counted without ``exposure``: the legal-action list needs only the
    paths). Both give the same footprints, from the board's cached step tables."""
    if not least_ecm:
        return _fewest_points(s, piece, exposure)
    p = s.pieces[piece]
    size = size_of(s, p.card)
    limit = move_points(s, piece)
    if limit <= 0 or not p.hexes:
        return []
    board = s.geo
    enemies = enemy_ships(s, piece)
    edmg = {eid: expected(s, piece, d) for eid, _, d in enemies}
    near = contact_map(enemies)
    empty: frozenset[str] = frozenset()
    occ = s.occupied(exclude=piece)
    start_key = frozenset(p.hexes)
    small = board.steps()
    large = board.large_steps()

    def contact(pos: Pos) -> frozenset[str]:
        if not near:
            return empty
        if size == "large":
            out = empty
            for h in rosette(pos[0]):
                got = near.get(h)
                if got:
                    out = out | got
            return out
        if size == "medium":
            a, b = near.get(pos[0], empty), near.get(pos[1], empty)
            return a | b if b else a
        return near.get(pos[0], empty)

    if size == "medium":
        a, b = p.hexes
        starts: list[tuple[Pos, Hex | None]] = [((a, b), a), ((b, a), b)]
    else:
        starts = [((p.hexes[0],), None)]
    best_cost: dict[tuple[Pos, frozenset[str], Hex | None], int] = {}
    found: dict[frozenset[Hex], Route] = {}
    buckets: list[list[tuple[Pos, frozenset[str], list[int], Hex | None]]] = [[] for _ in range(limit + 1)]
    for pos, lead in starts:
        best_cost[(pos, empty, lead)] = 0
        buckets[0].append((pos, empty, [], lead))
    for cost in range(limit + 1):
        for pos, trig, path, lead in buckets[cost]:
            if best_cost.get((pos, trig, lead), 1 << 30) < cost:
                continue
            if path:
                fp = footprint(size, pos)
                key = frozenset(fp)
                if key != start_key and not any(h in occ for h in fp):
                    ecm = sum(edmg[e] for e in trig) if trig else 0.0
                    old = found.get(key)
                    if old is None or (ecm, cost) < (old.ecm, old.cost):
                        rolls = sum(1 for e in trig if edmg[e] > 0)
                        found[key] = Route(list(fp), lead, path, cost, ecm, rolls)
            here = contact(pos)
            if size == "large":
                options = large.get(pos[0], ())
            elif size == "medium":
                options = small.get(pos[0], ())
            else:
                options = small.get(pos[0], ())
            for d, opt in enumerate(options):
                if opt is None:
                    continue
                h, c = opt
                nc = cost + c
                if nc > limit:
                    continue
                if size == "medium":
                    if h == pos[1]:
                        continue
                    npos: Pos = (h, pos[0])
                else:
                    npos = (h,)
                if near:
                    now = contact(npos)
                    ntrig = trig | (now - here - trig) if now else trig
                else:
                    ntrig = trig
                k = (npos, ntrig, lead)
                if best_cost.get(k, 1 << 30) <= nc:
                    continue
                best_cost[k] = nc
                buckets[nc].append((npos, ntrig, [*path, d], lead))
    return sorted(found.values(), key=lambda r: (sorted(r.hexes), r.path))


def _fewest_points(s: GState, piece: str, exposure: bool = True) -> list[Route]:
    """Reachable footprints by a plain search over positions (ECM does not change legality), each
    with its first fewest-points path and, with ``exposure``, the ECM triggers along that path
    (the legal-action list does without them).

    The search runs over the board's numbered step tables (:meth:`Board.step_index`): a position is
    a hex number (small ships, rosette centres) or a (lead, trail) pair of numbers with the side of
    the move's starting lead (medium ships); buckets by path cost, directions in order, so the
    path kept for a footprint is the first fewest-points path in direction order."""
    p = s.pieces[piece]
    size = size_of(s, p.card)
    limit = move_points(s, piece)
    if limit <= 0 or not p.hexes:
        return []
    ix = s.geo.step_index()
    num = ix.number
    hexes = ix.hexes
    occ = {num[h] for h in s.occupied(exclude=piece) if h in num}
    big = 1 << 30
    best: dict[int, int] = {}
    parent: dict[int, tuple[int, int]] = {}
    buckets: list[list[int]] = [[] for _ in range(limit + 1)]
    found: dict[int, tuple[int, int]] = {}  # footprint id -> (position key, cost)
    if size == "medium":
        n = len(hexes)
        rows = ix.small
        a, b = num[p.hexes[0]], num[p.hexes[1]]
        start_id = a * n + b if a < b else b * n + a
        starts = [(a * n + b) * 2, (b * n + a) * 2 + 1]  # key = (lead * n + trail) * 2 + starting lead
        for k in starts:
            best[k] = 0
            buckets[0].append(k)
        for cost in range(limit + 1):
            for key in buckets[cost]:
                if best[key] < cost:
                    continue
                code, side = divmod(key, 2)
                lead_n, trail_n = divmod(code, n)
                if cost:
                    fid = lead_n * n + trail_n if lead_n < trail_n else trail_n * n + lead_n
                    if fid != start_id and fid not in found and lead_n not in occ and trail_n not in occ:
                        found[fid] = (key, cost)
                for d, h, c in rows[lead_n]:
                    nc = cost + c
                    if nc > limit or h == trail_n:
                        continue
                    nk = (h * n + lead_n) * 2 + side
                    if best.get(nk, big) <= nc:
                        continue
                    best[nk] = nc
                    parent[nk] = (key, d)
                    buckets[nc].append(nk)
    else:
        rows = ix.large if size == "large" else ix.small
        start = num[p.hexes[0]]
        best[start] = 0
        buckets[0].append(start)
        ros = ix.rosettes
        for cost in range(limit + 1):
            for key in buckets[cost]:
                if best[key] < cost:
                    continue
                if cost and key != start and key not in found:
                    if size == "large":
                        if not any(x in occ for x in ros[key]):
                            found[key] = (key, cost)
                    elif key not in occ:
                        found[key] = (key, cost)
                for d, h, c in rows[key]:
                    nc = cost + c
                    if nc > limit:
                        continue
                    if best.get(h, big) <= nc:
                        continue
                    best[h] = nc
                    parent[h] = (key, d)
                    buckets[nc].append(h)

    def position(key: int) -> Pos:
        if size == "medium":
            lead_n, trail_n = divmod(key // 2, len(hexes))
            return (hexes[lead_n], hexes[trail_n])
        return (hexes[key],)

    leads = (p.hexes[0], p.hexes[1]) if size == "medium" else (None, None)
    if exposure:
        enemies = enemy_ships(s, piece)
        edmg = {eid: expected(s, piece, dmg) for eid, _, dmg in enemies}
        near = contact_map(enemies)
    out = []
    for key, cost in found.values():
        path: list[int] = []
        keys: list[int] = []
        node = key
        while node in parent:
            prev, d = parent[node]
            path.append(d)
            keys.append(node)
            node = prev
        path.reverse()
        pos = position(key)
        lead = leads[key % 2] if size == "medium" else None
        ecm = 0.0
        rolls = 0
        if exposure and enemies:
            keys.reverse()
            before = contact_of(near, footprint(size, position(node)))
            seen: set[str] = set()
            for q in keys:
                now = contact_of(near, footprint(size, position(q)))
                for e in (now - before) - seen:
                    seen.add(e)
                    ecm += edmg[e]
                    rolls += edmg[e] > 0
                before = now
        out.append(Route(list(footprint(size, pos)), lead, path, cost, ecm, rolls))
    return sorted(out, key=lambda r: (sorted(r.hexes), r.path))


def contact_map(enemies: list[tuple[str, tuple[Hex, ...], int]]) -> dict[Hex, frozenset[str]]:
    """Hex -> the enemy ships a footprint covering it is in contact with (BG-11.1)."""
    near: dict[Hex, frozenset[str]] = {}
    for eid, hexes, _ in enemies:
        for h in hexes:
            for x in (h, *(step(h, d) for d in range(6))):
                near[x] = near.get(x, frozenset()) | {eid}
    return near


def contact_of(near: dict[Hex, frozenset[str]], fp: tuple[Hex, ...] | list[Hex]) -> frozenset[str]:
    out: frozenset[str] = frozenset()
    for h in fp:
        got = near.get(h)
        if got:
            out = out | got
    return out
