"""The deploy phase: launching to the starting zone, sealed transport holds and launching from a
hold (BG-8, D-13).

**Launch to zone** [S] (BG-8.1): a card behind the screen pays its launch cost, goes into play,
and all its ships are placed on empty hexes, each footprint covering at least one full hex of the
side's own starting zone (its other hexes may lie outside). Squadron ships are placed at once, each
adjacent to another ship of the squadron (BG-8.2). A card that cannot be placed whole cannot launch
and pays nothing (BG-8.3). Each launched ship gets its card's shield value in pegs (BG-8.4).

**Loading** (BG-8.6, BG-8.7, BG-8.8, BG-8.9): only while a transporter launches into the zone, the side secretly puts
cards from behind its screen under it. The sum of their footprint sizes fits the transporter's
capacity (BG-8.7), each is strictly smaller than the transporter (BG-8.8), squadrons load whole, and
cargo never carries (BG-8.9). Cargo launch costs are paid only when the cargo launches out.
Holds are never refilled (D-13).

**Launch from a hold** [S] (BG-8.5): from a transporter that was in play when the turn began (D-13),
pay the cargo's launch cost and place each of its ships adjacent to the transporter (squadrons also
adjacent to a mate). A ship launched from a hold never carries (BG-8.9).

Launches and placements never trigger ECM (BG-8.11); placing a ship on a face-down tile flips it.
In teams a card's commanding seat launches it (BG-18.1).
"""

from __future__ import annotations

from itertools import combinations

from spacetable.core.errors import RuleError

from .board import Hex, distance, rosette, step
from .effects import fire_powers
from .energy import pay
from .packs import FOOTPRINT, SIZE_RANK
from .state import GState
from .stats import size_of
from .tiles import flip_under

MAX_CARGO_VARIANTS = 8


def _shape_ok(size: str, hexes: list[Hex]) -> bool:
    if size == "small":
        return len(hexes) == 1
    if size == "medium":
        return len(hexes) == 2 and distance(hexes[0], hexes[1]) == 1
    if len(hexes) != 7:
        return False
    center = next((h for h in hexes if all(distance(h, o) <= 1 for o in hexes)), None)
    return center is not None and set(rosette(center)) == set(hexes)


def _normal(size: str, hexes: list[Hex]) -> list[Hex]:
    """Large footprints are stored centre first, then the neighbours in direction order."""
    if size != "large":
        return hexes
    center = next(h for h in hexes if all(distance(h, o) <= 1 for o in hexes))
    return rosette(center)


def check_placement(s: GState, card_id: str, placement: dict[str, list[list[int]]], *, zone: int | None = None,
                    near: list[Hex] | None = None) -> dict[str, list[Hex]]:
    """Validate a placement of all the card's ships; returns piece -> footprint (normalised).
    ``zone``: each footprint covers a hex of that side's zone (BG-8.1); ``near``: each ship is
    adjacent to these transporter hexes (BG-8.5)."""
    card = s.cards[card_id]
    size = size_of(s, card_id)
    if sorted(placement) != sorted(card.pieces):
        raise RuleError("BG-8.3", f"place every ship of the card: {', '.join(card.pieces)}")
    board = s.geo
    occ = s.occupied()
    taken: set[Hex] = set()
    out: dict[str, list[Hex]] = {}
    zone_hexes = board.zones[zone] if zone is not None else frozenset()
    for pid in card.pieces:
        hexes: list[Hex] = [(int(h[0]), int(h[1])) for h in placement[pid]]
        if not _shape_ok(size, hexes):
            raise RuleError("BG-3.1", f"{pid}: a {size} ship covers {FOOTPRINT[size]} hex(es) in its shape")
        for h in hexes:
            if h not in board.full:
                raise RuleError("BG-2.5", f"{pid}: {list(h)} is not a full hex")
            if h in board.asteroids:
                raise RuleError("BG-15.6", f"{pid}: {list(h)} is an asteroid")
            if h in occ or h in taken:
                raise RuleError("BG-8.3", f"{pid}: {list(h)} is not empty")
        if zone is not None and not any(h in zone_hexes for h in hexes):
            raise RuleError("BG-8.1", f"{pid} must cover at least one hex of your starting zone")
        if near is not None and not any(distance(h, t) == 1 for h in hexes for t in near):
            raise RuleError("BG-8.5", f"{pid} must be adjacent to the transporter")
        taken.update(hexes)
        out[pid] = _normal(size, hexes)
    if len(out) > 1:
        for pid, hexes in out.items():
            if not any(distance(a, b) == 1 for o, oh in out.items() if o != pid for a in hexes for b in oh):
                raise RuleError("BG-8.2", f"{pid} must be adjacent to another ship of its squadron")
    return out


def check_cargo(s: GState, card_id: str, cargo: list[str]) -> None:
    """BG-8.6, BG-8.7, BG-8.8, BG-8.9: the cards to load under a launching transporter."""
    if not cargo:
        return
    card = s.cards[card_id]
    v = s.vdata(card_id)
    if len(set(cargo)) != len(cargo):
        raise RuleError("BG-8.6", "each cargo card once")
    if card.from_hold:
        raise RuleError("BG-8.9", "a ship launched from a hold never carries")
    if v.capacity <= 0:
        raise RuleError("BG-8.7", f"{card_id} has no transport hold")
    size = SIZE_RANK[size_of(s, card_id)]
    used = 0
    for cid in cargo:
        c = s.cards.get(cid)
        if c is None or c.side != card.side or c.zone != "screen" or cid == card_id:
            raise RuleError("BG-8.6", f"{cid} is not behind your screen")
        if SIZE_RANK[size_of(s, cid)] >= size:
            raise RuleError("BG-8.8", f"{cid} is not smaller than {card_id}")
        used += s.shipdata(cid).footprint
    if used > v.capacity:
        raise RuleError("BG-8.7", f"the cargo takes {used} spaces; the capacity is {v.capacity}")


def _place(s: GState, card_id: str, where: dict[str, list[Hex]]) -> None:
    card = s.cards[card_id]
    shields = s.vdata(card_id).shields
    for pid, hexes in where.items():
        p = s.pieces[pid]
        p.hexes, p.shields, p.hull, p.alive = list(hexes), shields, 0, True  # BG-8.4
    card.zone = "play"
    card.public = True
    card.launched_turn = s.turn
    s.reveals += 1
    for hexes in where.values():
        flip_under(s, hexes)


def launch(s: GState, seat: int, a: dict) -> None:
    """BG-8.1 launch a card from behind the screen into the starting zone (with sealed cargo)."""
    side = s.side_of(seat)
    cid = a["card"]
    card = s.cards.get(cid)
    if card is None or card.side != side:
        raise RuleError("BG-8.1", f"{cid} is not one of your ship cards")
    if card.zone == "hold":
        raise RuleError("BG-8.5", f"{cid} is in a transport hold: use launch_from_hold")
    if card.zone != "screen":
        raise RuleError("BG-8.9" if card.from_hold else "BG-8.1", f"{cid} is not behind your screen")
    if card.seat != seat:
        raise RuleError("BG-18.1", f"{cid} is commanded by seat {card.seat}")
    cargo = list(a.get("cargo") or [])
    check_cargo(s, cid, cargo)
    where = check_placement(s, cid, a["placement"], zone=side)
    pay(s.sides[side], s.vdata(cid).launch_cost, f"launching {cid}")
    _place(s, cid, where)
    for x in cargo:
        c = s.cards[x]
        c.zone, c.holder = "hold", cid
    card.cargo = cargo
    s.log({"t": "launch", "card": cid, "key": card.key, "version": card.version,
           "placement": {k: [list(h) for h in v] for k, v in where.items()}, "hold_count": len(cargo)})
    if cargo:
        s.log({"t": "load", "card": cid, "cargo": cargo}, to=[side])
    fire_powers(s, cid, "on_launch")


def launch_from_hold(s: GState, seat: int, a: dict) -> None:
    """BG-8.5 launch a card out of a transporter launched on an earlier turn (D-13)."""
    side = s.side_of(seat)
    tid, cid = a["transporter"], a["card"]
    t = s.cards.get(tid)
    if t is None or t.side != side or t.zone != "play":
        raise RuleError("BG-8.5", f"{tid} is not one of your transporters in play")
    if cid not in t.cargo:
        raise RuleError("BG-8.5", f"{cid} is not in the hold of {tid}")
    if t.launched_turn >= s.turn:
        raise RuleError("D-13", f"{tid} was launched this turn; its hold opens from your next turn")
    card = s.cards[cid]
    if card.seat != seat:
        raise RuleError("BG-18.1", f"{cid} is commanded by seat {card.seat}")
    near = [h for pid in t.pieces for h in s.pieces[pid].hexes if s.pieces[pid].alive]
    where = check_placement(s, cid, a["placement"], near=near)
    pay(s.sides[side], s.vdata(cid).launch_cost, f"launching {cid}")
    t.cargo.remove(cid)
    card.holder = ""
    card.from_hold = True
    _place(s, cid, where)
    s.log({"t": "launch_from_hold", "card": cid, "key": card.key, "version": card.version, "transporter": tid,
           "placement": {k: [list(h) for h in v] for k, v in where.items()}, "hold_count": len(t.cargo)})
    fire_powers(s, cid, "on_launch")


# ------------------------------------------------------------------------ enumeration
def _formations(s: GState, size: str, count: int, candidates: list[Hex], ok: set[Hex],
                extra: set[Hex] | None = None) -> list[list[list[Hex]]]:
    """Canonical placements: for solo ships every footprint with a hex among ``candidates``
    (medium: the first hex plus each neighbour in ``ok``); for squadrons one formation per first
    hex (mates = first free neighbours in direction order)."""
    out: list[list[list[Hex]]] = []
    seen: set[frozenset[Hex]] = set()
    if count == 1:
        for h in candidates:
            if size == "small":
                if h in ok:
                    out.append([[h]])
            elif size == "medium":
                if h not in ok:
                    continue
                for d in range(6):
                    h2 = step(h, d)
                    key = frozenset((h, h2))
                    if h2 in ok and key not in seen:
                        seen.add(key)
                        out.append([[h, h2]])
            else:
                fp = rosette(h)
                if all(x in ok for x in fp):
                    out.append([fp])
        return out
    for h in candidates:
        if h not in ok:
            continue
        group = [h]
        for _ in range(count - 1):
            nxt = None
            for g in group:
                for d in range(6):
                    n2 = step(g, d)
                    if n2 in ok and n2 not in group and (extra is None or n2 in extra):
                        nxt = n2
                        break
                if nxt:
                    break
            if nxt is None:
                break
            group.append(nxt)
        if len(group) == count:
            key = frozenset(group)
            if key not in seen:
                seen.add(key)
                out.append([[g] for g in group])
    return out


def zone_placements(s: GState, card_id: str) -> list[dict[str, list[list[int]]]]:
    """Canonical legal placements of a card into its side's zone (BG-8.1, BG-8.2)."""
    card = s.cards[card_id]
    board = s.geo
    occ = s.occupied()
    zone = board.zones[card.side]
    size = size_of(s, card_id)
    ok = {h for h in board.full if h not in board.asteroids and h not in occ}
    if size == "large":
        cands = sorted({c for z in zone for c in rosette(z)}, key=lambda h: (h[1], h[0]))
        cands = [c for c in cands if c in ok]
    else:
        cands = sorted((h for h in zone if h in ok), key=lambda h: (h[1], h[0]))
    forms = _formations(s, size, len(card.pieces), cands, ok, extra=set(zone) if len(card.pieces) > 1 else None)
    return [{pid: [list(h) for h in fp] for pid, fp in zip(card.pieces, f, strict=True)} for f in forms]


def hold_placements(s: GState, transporter: str, card_id: str) -> list[dict[str, list[list[int]]]]:
    """Canonical legal placements of cargo around its transporter (BG-8.5)."""
    t = s.cards[transporter]
    near = [h for pid in t.pieces for h in s.pieces[pid].hexes if s.pieces[pid].alive]
    board = s.geo
    occ = s.occupied()
    size = size_of(s, card_id)
    ok = {h for h in board.full if h not in board.asteroids and h not in occ}
    ring = sorted({n for h in near for n in (step(h, d) for d in range(6)) if n in ok}, key=lambda h: (h[1], h[0]))
    card = s.cards[card_id]
    forms = _formations(s, size, len(card.pieces), ring, ok, extra=set(ring) if len(card.pieces) > 1 else None)
    out = []
    for f in forms:
        if all(any(distance(h, n) == 1 for h in fp for n in near) for fp in f):
            out.append({pid: [list(h) for h in fp] for pid, fp in zip(card.pieces, f, strict=True)})
    return out


def cargo_options(s: GState, card_id: str) -> list[list[str]]:
    """Cargo variants offered in the legal list: none, each single card, and the largest loads
    (every maximal set that fits), at most ``MAX_CARGO_VARIANTS``."""
    card = s.cards[card_id]
    v = s.vdata(card_id)
    if v.capacity <= 0 or card.from_hold:
        return [[]]
    rank = SIZE_RANK[size_of(s, card_id)]
    elig = [c.id for c in s.cards.values() if c.side == card.side and c.zone == "screen" and c.id != card_id
            and SIZE_RANK[s.shipdata(c.id).size] < rank and s.shipdata(c.id).footprint <= v.capacity]
    out: list[list[str]] = [[]] + [[c] for c in elig]
    best: list[list[str]] = []
    for k in range(len(elig), 1, -1):
        for combo in combinations(elig, k):
            if sum(s.shipdata(c).footprint for c in combo) <= v.capacity:
                best.append(list(combo))
        if best:
            break
    for combo in best:
        if len(out) >= MAX_CARGO_VARIANTS:
            break
        out.append(combo)
    return out
