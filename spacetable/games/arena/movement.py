"""Movement (AR-4) and capture (AR-5) on the reference representation.

A position is ``loc[colour][ship]``: a cell index, or ``face.banished`` (AR-1.7).
:func:`occupancy` turns it into a per-cell map ``colour * 8 + ship`` (−1 = empty).
Movement has no memory between turns (AR-4.6): nothing here looks at earlier plies.
A capture banishes the enemy ship to its owner's reserve (AR-5.1); only a movement
captures (AR-5.3), and capturing the corvette ends the game (AR-5.4, see :mod:`.endings`).
"""

from __future__ import annotations

from collections.abc import Sequence

from spacetable.core.errors import RuleError

from .board import CAPTURES, Face, can_capture, sails

Loc = Sequence[Sequence[int]]


def occupancy(face: Face, loc: Loc) -> list[int]:
    """Cell → ``colour * 8 + ship`` or −1 (AR-1.7: one ship per cell at most)."""
    cells = [-1] * face.size
    for colour in (0, 1):
        for ship, where in enumerate(loc[colour]):
            if 0 <= where < face.size:
                cells[where] = colour * 8 + ship
    return cells


def destinations(face: Face, loc: Loc, colour: int, ship: int, cells: list[int] | None = None) -> list[int]:
    """Legal destination cells of one ship, sorted by cell index (AR-4.1, AR-4.2, AR-4.3, AR-4.4,
    AR-4.5, AR-5.2).

    One step to a neighbour; with 2 sails also the cells at distance 2 reached through
    an *empty* neighbour (no jumping, no U-turn). Arrival on an empty cell or on an enemy
    ship whose shields ≤ the mover's cannons; never on an own ship. A destination is one
    move whichever path reaches it (AR-4.4, AR-D6). Scenarios AR-A2, AR-A3, AR-A4, AR-A5, AR-A6."""
    origin = loc[colour][ship]
    if not 0 <= origin < face.size:
        return []
    if cells is None:
        cells = occupancy(face, loc)
    captures = CAPTURES[ship]
    out = []
    for dest, between in face.reach(origin, sails(ship)):
        if between:  # two steps: through an empty cell (AR-4.5)
            for mid in between:
                if cells[mid] < 0:
                    break
            else:
                continue
        occ = cells[dest]
        if occ < 0 or (occ // 8 != colour and captures[occ % 8]):
            out.append(dest)
    return out


def check_move(face: Face, loc: Loc, colour: int, origin: int, dest: int) -> tuple[int, int]:
    """Validate a move and return ``(ship, captured)`` (captured = enemy ship or −1).

    Raises :class:`RuleError` naming the broken rule."""
    cells = occupancy(face, loc)
    if origin < 0 or dest < 0:
        raise RuleError("AR-4.3", "both cells of a move must be on the board")
    occ = cells[origin]
    if occ < 0 or occ // 8 != colour:
        raise RuleError("AR-3.2", f"no own ship on {face.cell_name(origin)}")
    ship = occ % 8
    dist = face.distance(origin, dest)
    if dist == 0:
        raise RuleError("AR-4.2", "a ship must leave its cell (no U-turn back to the origin)")
    if dist > sails(ship):
        raise RuleError("AR-4.1" if sails(ship) == 1 else "AR-4.2", f"{face.cell_name(dest)} is out of reach")
    if dist == 2 and not any(cells[m] < 0 for m in face.neighbours(origin) if dest in face.neighbours(m)):
        raise RuleError("AR-4.5", "the intermediate cell must be empty (no jumping)")
    target = cells[dest]
    if target >= 0 and target // 8 == colour:
        raise RuleError("AR-4.3", "a ship never moves onto an own ship")
    captured = -1
    if target >= 0:
        captured = target % 8
        if not can_capture(ship, captured):
            raise RuleError("AR-5.2", "the target's shields exceed the mover's cannons")
    return ship, captured


def is_one_step(face: Face, origin: int, dest: int) -> bool:
    """AR-4.4: a move is a one-step move iff its destination is adjacent to its origin."""
    return face.distance(origin, dest) == 1
