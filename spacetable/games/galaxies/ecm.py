"""Electronic countermeasures (BG-11, D-5).

A moving ship is **in contact** with an enemy ship E when some hex of the mover is adjacent to, or
the same as, a hex of E (BG-11.1). A step that brings the mover into contact with E when it was not
in contact just before triggers ECM from E (BG-11.2), at most once per enemy ship per move (D-5): staying in
contact, circling E, passing through E, or breaking and regaining contact never triggers E again; a
move that starts in contact with E triggers E only if contact is broken and then regained. Each
enemy squadron ship counts on its own.

E's side rolls the number die (D-5: always); on 5–8 the mover takes direct damage tagged ``ecm``:
1 if E is small, 2 if medium, 3 if large (BG-11.3). Several triggers on one step resolve larger
enemy first, then by ship id (BG-11.4); a destroyed mover stops there. Launches, placements and
any movement but the ship's own move never trigger ECM (BG-11.5), nor do friendly ships. A ship
with ECM immunity takes no ECM damage (no roll is made).
"""

from __future__ import annotations

from collections.abc import Sequence

from .board import Hex, distance
from .damage import apply_damage
from .state import GState
from .stats import SIZE_OF_ECM, damage_mod, ecm_immune, size_of

ECM_HIT = 5  # BG-11.3: 5–8 on the d8


def enemy_ships(s: GState, mover: str) -> list[tuple[str, tuple[Hex, ...], int]]:
    """(id, hexes, ECM damage) of every enemy ship on the board, as seen from ``mover``."""
    side = s.piece_card(mover).side
    return [(p.id, tuple(p.hexes), SIZE_OF_ECM[size_of(s, p.card)]) for p in s.on_board(1 - side)]


def contact_set(fp: Sequence[Hex], enemies: list[tuple[str, tuple[Hex, ...], int]]) -> frozenset[str]:
    """BG-11.1 ids of the enemies in contact with footprint ``fp``."""
    out = []
    for eid, hexes, _ in enemies:
        if any(distance(a, b) <= 1 for a in fp for b in hexes):
            out.append(eid)
    return frozenset(out)


def order(triggered: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """BG-11.4 larger enemy first, then by ship id."""
    return sorted(triggered, key=lambda t: (-t[1], t[0]))


def expected(s: GState, mover: str, dmg: int) -> float:
    """Expected ECM damage of one trigger (for path choice and odds): P(5+) = 1/2 on a d8."""
    if ecm_immune(s, mover):
        return 0.0
    mod = damage_mod(s, s.pieces[mover].card, "ecm")
    if mod == "immune":
        return 0.0
    return 0.5 * max(0, dmg + int(mod))


def resolve(s: GState, mover: str, triggered: list[tuple[str, int]]) -> bool:
    """Roll ECM for each triggered enemy in order; return whether the mover survives."""
    for eid, dmg in order(triggered):
        if not s.pieces[mover].alive:
            return False
        if ecm_immune(s, mover):
            s.log({"t": "ecm", "ship": mover, "from": eid, "immune": True})
            continue
        roll = s.rng.die(8)
        hit = roll >= ECM_HIT
        s.log({"t": "ecm", "ship": mover, "from": eid, "roll": roll, "damage": dmg if hit else 0})
        if hit:
            apply_damage(s, mover, dmg, "direct", "ecm")
    return s.pieces[mover].alive
