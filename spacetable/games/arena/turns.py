"""Turn structure (AR-3): the three turn actions and their canonical list.

Turns alternate, Red first, without passing; one turn is one ply (AR-3.1). A turn is
exactly one main action (AR-3.2): ``move`` one own ship (AR-4, AR-5, with an optional
bonus teleport, AR-8), ``permute`` a pair (AR-6) or ``rotate`` a class (AR-7). Each
``exec`` below performs the action on the table's copy of the state and the AR-10.6 checks
(1) and (2); :mod:`.flow` then counts the ply and passes the turn. Every action may carry
``offer_end`` (AR-10.4), read by the flow.
"""

from __future__ import annotations

from pydantic import Field

from spacetable.core.game import Action
from spacetable.core.moves import Name, Params

from . import bonus
from .board import Face
from .endings import count_ply
from .movement import check_move, destinations, occupancy
from .state import ArenaState
from .teleports import PERMUTATIONS, ROTATIONS, PermuteBonus, RotateBonus, available, teleport, teleport_action, teleport_name


class MoveParams(Params):
    """Move one own ship from a cell to a cell (AR-4); arriving on an enemy ship captures it
    (AR-5); ``bonus`` is the optional teleport after a qualifying move (AR-8)."""

    from_: Name = Field(alias="from")
    to: Name
    bonus: PermuteBonus | RotateBonus | None = Field(default=None, discriminator="type")
    offer_end: bool = False


def move_action(face: Face, origin: int, dest: int, bonus_name: str | None = None) -> Action:
    """JSON shape of a move, with ``bonus`` a teleport object or ``null``."""
    return {"type": "move", "from": face.cell_name(origin), "to": face.cell_name(dest),
            "bonus": teleport_action(bonus_name) if bonus_name else None}


def legal_moves(st: ArenaState, seat: int) -> list[Action]:
    """Every move of the seat's colour in the canonical order: by ship index, then
    destination index, each triggering move followed by its bonus variants (AR-8.6)."""
    face, loc = st.face, st.loc
    colour = st.colour_of(seat)
    out: list[Action] = []
    cells = occupancy(face, loc)
    n, names, target = face.banished, face.names, face.target_row(colour)
    for ship in range(8):
        origin = loc[colour][ship]
        if not 0 <= origin < n:
            continue
        start = names[origin]
        for dest in destinations(face, loc, colour, ship, cells):
            out.append({"type": "move", "from": start, "to": names[dest], "bonus": None})  # move_action's shape
            if dest not in target:  # no bonus off the opponent's back row (AR-8.1): the common case, said at once
                continue
            occ = cells[dest]
            captured = occ % 8 if occ >= 0 else -1
            if bonus.triggers(face, colour, origin, dest, captured):
                own = list(loc[colour])
                own[ship] = dest
                out.extend(move_action(face, origin, dest, name) for name in bonus.variants(own, ship, n))
    return out


def legal_permutes(st: ArenaState, seat: int) -> list[Action]:
    """The permutations open to the seat's colour, in canonical order (AR-6)."""
    return [teleport_action(name) for name in available(st.loc[st.colour_of(seat)], st.face.banished, PERMUTATIONS)]


def legal_rotations(st: ArenaState, seat: int) -> list[Action]:
    """The rotations open to the seat's colour, in canonical order (AR-7)."""
    return [teleport_action(name) for name in available(st.loc[st.colour_of(seat)], st.face.banished, ROTATIONS)]


def move(st: ArenaState, seat: int, action: Action) -> None:
    """Play a ``move`` (AR-4, AR-5, AR-8): the ship goes to its destination, an enemy ship
    there is banished (AR-5.1), then the optional bonus teleport is checked and applied."""
    face = st.face
    colour = st.colour_of(seat)
    origin, dest = face.parse_cell(action["from"]), face.parse_cell(action["to"])
    ship, captured = check_move(face, st.loc, colour, origin, dest)
    st.loc[colour][ship] = dest
    if captured >= 0:
        st.loc[1 - colour][captured] = face.banished  # AR-5.1
    extra = action.get("bonus")
    if extra is not None:
        name = teleport_name(extra)
        bonus.check(face, colour, ship, origin, dest, captured, name)
        st.loc[colour] = teleport(st.loc[colour], name, face.banished)
    count_ply(st, colour, captured)


def permute(st: ArenaState, seat: int, action: Action) -> None:
    """Play a ``permute`` of one complementary pair (AR-6, AR-9.1); never a capture (AR-5.3)."""
    _teleport(st, seat, teleport_name(action))


def rotate(st: ArenaState, seat: int, action: Action) -> None:
    """Play a ``rotate`` of the frigates or destroyers (AR-7); never a capture (AR-5.3)."""
    _teleport(st, seat, teleport_name(action))


def _teleport(st: ArenaState, seat: int, name: str) -> None:
    colour = st.colour_of(seat)
    st.loc[colour] = teleport(st.loc[colour], name, st.face.banished)
    count_ply(st, colour, -1)

